"""`scripts/bench pipeline --local-llm [URL]`: the pipeline against a real small model.

SmolLM2-135M served by llama.cpp's llama-server (OpenAI-compatible API; start it with
../shared/tools/local-llm start). Reports, per route:

* the route taken, model calls, the gate's verdict and the answer;
* Phase 1's prompt tokens, the tokens the server actually evaluated (llama-server's
  ``timings.prompt_n``: fewer when its prompt cache reused a byte-identical prefix), and the
  tokens of JSON the model generated before the answer began;
* the time from the turn's start to the first answer token, and to its end;
* a follow-up turn in the same conversation: prompt tokens against evaluated tokens.

Then the first-byte race: the first answer byte of the real `tatlock ask "What is the capital
of France?"` process on a terminal (a pty), against the first token of a bare streaming client
process (curl) asking the same server the same question: medians of N, after a warm-up.
The weather tool talks to the loopback weather fake (tests/support/fake_web.py).
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

QUESTIONS = [  # (label, question, follow-up)
    ("capital", "What is the capital of France?", "And what is the capital of Germany?"),
    ("name", "What's your name?", "And what can you do?"),
    ("time", "What time is it?", "And what day is it today?"),
    ("weather", "What's the weather in London today?", "And tomorrow?"),
    ("mixed", "What's your name and what's the weather in London today?", "Thank you."),
]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def f0(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def table(headers: list[str], rows: list[list[Any]]) -> None:
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def env_for(home: Path, url: str, model: str, timeout: float, weather_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TATLOCK_", "OLLAMA_"))}
    env.update(
        TATLOCK_HOME=str(home),
        TATLOCK_USER="bench",
        TATLOCK_TIER="low",
        TATLOCK_BACKEND="openai",
        TATLOCK_BASE_URL=url,
        TATLOCK_MODEL=model,
        TATLOCK_TIMEOUT=str(timeout),
        TATLOCK_GEOCODING_URL=weather_url,
        TATLOCK_OPEN_METEO_URL=weather_url + "/",
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    return env


def one_turn(butler: Any, text: str, **kw: Any) -> dict[str, Any]:
    from tatlock.events import (
        AnswerToken,
        ErrorEvent,
        ModelCall,
        PhaseFinished,
        ToolCalled,
        TurnFinished,
    )

    t0 = time.perf_counter()
    first = None
    calls: list[Any] = []
    json_before = None
    tools: list[str] = []
    final: Any = None
    for ev in butler.turn(text, **kw):
        if isinstance(ev, AnswerToken) and first is None:
            first = time.perf_counter()
        elif isinstance(ev, ModelCall):
            calls.append(ev)
        elif isinstance(ev, PhaseFinished) and ev.phase == "assess":
            json_before = ev.detail.get("json_before_answer")
        elif isinstance(ev, ToolCalled):
            tools.append(ev.name)
        elif isinstance(ev, (TurnFinished, ErrorEvent)):
            final = ev
    end = time.perf_counter()
    p1 = next((c for c in calls if c.phase == "assess"), None)
    return {
        "route": getattr(final, "route", None),
        "guard": getattr(final, "guard", None),
        "quality": getattr(final, "quality", None),
        "answer": getattr(final, "answer", "") or "",
        "error": final.message if isinstance(final, ErrorEvent) else None,
        "calls": len(calls),
        "tools": tools,
        "first_ms": (first - t0) * 1000 if first else None,
        "total_ms": (end - t0) * 1000,
        "p1_prompt": p1.prompt_tokens if p1 else None,
        "p1_evaluated": p1.evaluated_tokens if p1 else None,
        "json_before_answer": json_before,
        "prompt": sum(c.prompt_tokens or 0 for c in calls),
        "evaluated": sum(c.evaluated_tokens or 0 for c in calls),
    }


def routes_table(
    url: str, model: str, runs: int, timeout: float, weather_url: str
) -> dict[str, Any]:
    import tatlock

    out: dict[str, Any] = {}
    for label, question, follow in QUESTIONS:
        rows = []
        for i in range(runs):
            with tempfile.TemporaryDirectory(prefix="tatlock-bench-local-") as tmp:
                os.environ.update(env_for(Path(tmp), url, model, timeout, weather_url))
                with tatlock.open() as butler:
                    first = one_turn(butler, question)
                    second = one_turn(butler, follow)
            rows.append({"first": first, "follow": second})
            log(
                f"  {label} run {i + 1}: {first['route']}/{first['guard'] or '-'} {first['quality']}, first answer "
                f"token {f0(first['first_ms'])} ms, P1 {first['p1_prompt']} prompt / {first['p1_evaluated']} "
                f"evaluated; follow-up {second['prompt']} prompt / {second['evaluated']} evaluated"
            )
        out[label] = {"question": question, "follow_up": follow, "runs": rows}
    return out


def tatlock_first_byte(
    url: str, model: str, home: Path, question: str, timeout: float
) -> float | None:
    """Seconds from spawning `tatlock ask` on a pty to the first byte it writes to stdout."""
    exe = str(Path(sys.executable).parent / "tatlock")
    env = env_for(home, url, model, timeout, "http://127.0.0.1:9")
    master, slave = pty.openpty()
    t0 = time.perf_counter()
    p = subprocess.Popen(
        [exe, "ask", question],
        stdout=slave,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    first = None
    try:
        while True:
            r, _, _ = select.select([master], [], [], timeout)
            if not r:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            if first is None and chunk.strip():
                first = time.perf_counter() - t0
    finally:
        os.close(master)
        p.wait(timeout=timeout)
    return first


BARE_CLIENT = """
import json, sys, httpx
body = {"model": "local", "stream": True, "max_tokens": 64, "messages": [{"role": "user", "content": sys.argv[2]}]}
with httpx.stream("POST", sys.argv[1] + "/chat/completions", json=body, timeout=120) as r:
    for line in r.iter_lines():
        if line.startswith("data:") and '"content":"' in line and '"content":""' not in line:
            sys.stdout.write(line + "\\n")
            sys.stdout.flush()
"""


def bare_first_token(
    url: str, question: str, timeout: float, *, curl: bool = False
) -> float | None:
    """Seconds from spawning a bare streaming client process to the first content token it
    receives (the question alone, no system prompt, no schema): Python with httpx, as tatlock
    is, or curl."""
    body = json.dumps(
        {
            "model": "local",
            "stream": True,
            "max_tokens": 64,
            "messages": [{"role": "user", "content": question}],
        }
    )
    argv = (
        [
            "curl",
            "-sN",
            f"{url}/chat/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            body,
        ]
        if curl
        else [sys.executable, "-c", BARE_CLIENT, url, question]
    )
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first = None
    assert p.stdout is not None
    for line in p.stdout:
        if line.startswith(b"data:") and b'"content":"' in line and b'"content":""' not in line:
            first = time.perf_counter() - t0
            break
    p.kill()
    p.wait()
    return first


def first_byte_race(url: str, model: str, n: int, timeout: float) -> dict[str, Any]:
    question = "What is the capital of France?"
    with tempfile.TemporaryDirectory(prefix="tatlock-bench-race-") as tmp:
        home = Path(tmp)
        tatlock_first_byte(
            url, model, home, question, timeout
        )  # warm-up: the home, the server's cache
        bare_first_token(url, question, timeout)
        ours, bare, curl = [], [], []
        for i in range(n):
            a = tatlock_first_byte(url, model, home, question, timeout)
            b = bare_first_token(url, question, timeout)
            c = bare_first_token(url, question, timeout, curl=True)
            log(
                f"  race {i + 1}: tatlock ask first answer byte {f0(a and a * 1000)} ms, bare Python client first "
                f"token {f0(b and b * 1000)} ms, curl {f0(c and c * 1000)} ms"
            )
            for xs, x in ((ours, a), (bare, b), (curl, c)):
                if x is not None:
                    xs.append(x * 1000)
    mo, mb = median(ours), median(bare)
    return {
        "tatlock_ms": ours,
        "bare_ms": bare,
        "curl_ms": curl,
        "tatlock_median_ms": mo,
        "bare_median_ms": mb,
        "curl_median_ms": median(curl),
        "ratio": (mo / mb) if mo and mb else None,
    }


def run(url: str, *, runs: int, race: int, timeout: float, as_json: bool) -> int:
    import httpx

    from support.fake_web import FakeWeb

    try:
        models = httpx.get(f"{url}/models", timeout=5).json().get("data") or []
    except (httpx.HTTPError, ValueError) as exc:
        log(
            f"bench: no OpenAI-compatible model server answers at {url} ({type(exc).__name__}).\n"
            "  Start the small local model with `../shared/tools/local-llm start`, or give its URL."
        )
        return 2
    model = (models[0].get("id") if models else None) or "local"
    if not shutil.which("curl"):
        log("bench: the first-byte race needs curl for the bare client")
        return 2
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    saved = dict(os.environ)
    with FakeWeb() as web:
        try:
            log(f"local-llm: {url}, {runs} run(s) per question")
            results = routes_table(url, model, runs, timeout, web.url)
        finally:
            os.environ.clear()
            os.environ.update(saved)
    log(f"first-byte race: {race} runs each")
    race_result = first_byte_race(url, model, race, timeout)
    print(f"tatlock pipeline against a real small model: {model} at {url}")
    print(
        f"(load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, on {os.cpu_count()} CPUs;"
        f" {runs} run(s) per question, each in a fresh TATLOCK_HOME)"
    )
    print()
    rows = []
    for label, r in results.items():
        for i, x in enumerate(r["runs"], 1):
            a, b = x["first"], x["follow"]
            rows.append(
                [
                    label,
                    i,
                    f"{a['route']}/{a['guard'] or '-'}",
                    a["calls"],
                    ",".join(a["tools"]) or "-",
                    a["quality"] or ("ERROR " + str(a["error"])[:40]),
                    a["p1_prompt"] or "-",
                    a["p1_evaluated"] if a["p1_evaluated"] is not None else "-",
                    a["json_before_answer"] if a["json_before_answer"] is not None else "-",
                    f0(a["first_ms"]),
                    f0(a["total_ms"]),
                    f"{b['prompt']}/{b['evaluated']}",
                    (b["quality"] or "ERROR"),
                ]
            )
    table(
        [
            "question",
            "run",
            "route taken",
            "calls",
            "tools",
            "gate",
            "P1 prompt",
            "P1 evaluated",
            "JSON before",
            "1st answer ms",
            "total ms",
            "follow-up prompt/evaluated",
            "follow-up gate",
        ],
        rows,
    )
    print(
        "  (P1 = Phase 1, the assessment; evaluated = tokens the server had to evaluate, the rest came from its"
    )
    print(
        "   prompt cache; JSON before = tokens generated before the answer began; a guard the rules are sure of"
    )
    print("   skips Phase 1; follow-up = every call of a second turn in the same conversation)")
    print()
    print("answers (last run):")
    for label, r in results.items():
        x = r["runs"][-1]["first"]
        print(f"  {label:<8} {' '.join((x['answer'] or x['error'] or '').split())[:150]}")
    print()
    mo, mb, ratio = (
        race_result["tatlock_median_ms"],
        race_result["bare_median_ms"],
        race_result["ratio"],
    )
    print(
        f'first-byte race, warm, medians of {race}: `tatlock ask "What is the capital of France?"` first answer '
        f"byte {f0(mo)} ms; a bare streaming client process (Python + httpx) first token {f0(mb)} ms; ratio "
        f"{'-' if ratio is None else f'{ratio:.1f}x'} (goal <= 8x); curl {f0(race_result['curl_median_ms'])} ms"
    )
    print(
        f"  tatlock: {[round(x) for x in race_result['tatlock_ms']]} ms; bare Python: "
        f"{[round(x) for x in race_result['bare_ms']]} ms; curl: {[round(x) for x in race_result['curl_ms']]} ms"
    )
    print(f"\ntotal run: {time.perf_counter() - t0:.1f} s")
    if as_json:
        print(json.dumps({"routes": results, "race": race_result}, default=str))
    return 0
