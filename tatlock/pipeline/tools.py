"""Phases 2 and 3: the model picks the minimal set of tools (native tool calling with the
selected tools' schemas); the pipeline runs them with the session's username, a per-tool
timeout, and every exception turned into a tool result. Every result is redacted
(:mod:`tatlock.redact`) before anything else sees it: the model, the screen and the debug log
all receive the result that ``run`` returns."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from tatlock.llm.base import Cancel, Cancelled
from tatlock.redact import scrub
from tatlock.tools.base import ToolContext
from tatlock.tools.registry import ToolSpec, resolve

REDACTED_NOTE = "parts that looked like passwords, keys or tokens were withheld"
MAX_RESULT_CHARS = 6000  # per tool result handed to the answer (within the token budget)


@dataclass
class ToolRun:
    name: str
    arguments: dict[str, Any]
    result: Any
    ok: bool
    ms: float
    source: str = "model"  # model | fallback


def choose(specs: list[ToolSpec], wanted: list[str]) -> list[ToolSpec]:
    """The enabled tools Phase 1 named; all enabled tools when it named none it may use."""
    by_key = {s.key: s for s in specs}
    picked = [by_key[w] for w in dict.fromkeys(wanted) if w in by_key]
    return picked or list(specs)


def clean_arguments(spec: ToolSpec, args: dict[str, Any]) -> dict[str, Any]:
    """Only the tool's own parameters, coerced to their types; never a username from the model."""
    out: dict[str, Any] = {}
    for p in spec.params:
        if p.name not in args or args[p.name] is None:
            continue
        v = args[p.name]
        try:
            if p.type == "integer":
                v = int(float(v))
            elif p.type == "number":
                v = float(v)
            elif p.type == "boolean":
                v = v if isinstance(v, bool) else str(v).lower() in ("1", "true", "yes")
            else:
                v = v if isinstance(v, str) else json.dumps(v)
        except (TypeError, ValueError):
            continue
        out[p.name] = v
    return out


def missing_required(spec: ToolSpec, args: dict[str, Any]) -> list[str]:
    return [p.name for p in spec.params if p.required and not str(args.get(p.name, "")).strip()]


def fallback_arguments(spec: ToolSpec, query: str) -> dict[str, Any] | None:
    """When the model named a tool but did not call it: fill a tool that takes no required
    argument, or exactly one required text argument (the lookup Phase 1 described)."""
    required = [p for p in spec.params if p.required]
    if not required:
        return {}
    if len(required) == 1 and required[0].type == "string" and query.strip():
        return {required[0].name: query.strip()}
    return None


def run(
    spec: ToolSpec,
    args: dict[str, Any],
    ctx: ToolContext,
    timeout: float,
    cancel: Cancel | None = None,
) -> ToolRun:
    """Run one tool on a thread of its own, waiting at most ``timeout`` seconds, or until the
    turn is cancelled (raises Cancelled): a tool that hangs never holds the turn, nor the tools
    of later turns. A tool still running when its turn ends can no longer touch memory (its
    ``ctx.user_store`` is the turn's scope, closed with the turn)."""
    t0 = time.perf_counter()
    args = clean_arguments(spec, args)
    missing = missing_required(spec, args)
    if missing:
        return ToolRun(
            spec.key,
            args,
            {"error": f"missing argument: {', '.join(missing)}"},
            False,
            (time.perf_counter() - t0) * 1000,
        )
    try:
        fn = resolve(spec)
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        threading.Thread(
            target=_call, args=(future, fn, ctx, args), name=f"tatlock-tool-{spec.key}", daemon=True
        ).start()
        woken = threading.Event()
        future.add_done_callback(lambda _: woken.set())
        unregister = cancel.on_cancel(woken.set) if cancel is not None else (lambda: None)
        try:
            woken.wait(timeout)
        finally:
            unregister()
        if cancel is not None and cancel.cancelled and not future.done():
            raise Cancelled("")
        result = future.result(timeout=0)
        ok = not (isinstance(result, dict) and "error" in result)
    except concurrent.futures.TimeoutError:
        result, ok = {"error": f"the tool {spec.key} took longer than {timeout:g} s"}, False
    except Cancelled:
        raise
    except Exception as exc:  # a broken tool must never break the turn
        result, ok = {"error": f"the tool {spec.key} failed: {type(exc).__name__}: {exc}"}, False
    return ToolRun(spec.key, args, redacted(result), ok, (time.perf_counter() - t0) * 1000)


def _call(
    future: concurrent.futures.Future[Any], fn: Any, ctx: ToolContext, args: dict[str, Any]
) -> None:
    try:
        result = fn(ctx=ctx, **args)
    except BaseException as exc:
        # (SystemExit from a tool ends nothing but the tool)
        future.set_exception(
            exc if isinstance(exc, Exception) else RuntimeError(f"{type(exc).__name__}: {exc}")
        )
    else:
        future.set_result(result)


def redacted(result: Any) -> Any:
    """``result`` with secret-shaped text withheld, and a note saying so when anything was."""
    try:
        clean = scrub(result)
    except RecursionError:  # a pathologically nested result: keep only its shape
        return {"error": "the tool returned a result too deeply nested to read"}
    if clean != result and isinstance(clean, dict):
        clean["redacted"] = REDACTED_NOTE
    return clean


def result_text(run_: ToolRun) -> str:
    text = json.dumps(run_.result, ensure_ascii=False, default=str)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + " …(truncated)"
    return text
