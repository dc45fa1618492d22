#!/usr/bin/env python3
"""How long a whole `tatlock ask` process takes beside a bare ollama-client process, both against
the same instant server (the fake Ollama server over loopback, answering at once), so what is
measured is start-up and tatlock's own work: imports, opening the memory, routing, the gate.

The two run in turn (A B A B ...) after a warm-up each; the figure is the median wall time of
each and the median of the pair-by-pair ratios. The bare client imports ollama, streams one chat
reply and prints it. tatlock's modules are byte-compiled first, as an install does.

    scripts/bench startup [--runs 15] [--json]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

from support.fake_ollama import FakeOllama  # noqa: E402

QUESTION = "What is the capital of France?"
BARE = """
import sys
import ollama
client = ollama.Client(host=sys.argv[1])
for chunk in client.chat(model="llama3.2:3b", messages=[{"role": "user", "content": sys.argv[2]}], stream=True):
    sys.stdout.write(chunk.message.content or "")
sys.stdout.write("\\n")
"""


def handler(body: dict) -> object:
    props = (
        (body.get("format") or {}).get("properties", {})
        if isinstance(body.get("format"), dict)
        else {}
    )
    if "decision" in props:
        return {
            "json": {
                "decision": "DIRECT",
                "answer": "Paris, sir.",
                "topics": ["geography"],
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
            }
        }
    if "verdict" in props:
        return {"json": {"verdict": "APPROVED", "fallback_type": "NONE", "reason": "ok"}}
    return "Paris, sir."


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if r.returncode != 0 or "Paris" not in r.stdout:
        raise SystemExit(f"bench startup: {' '.join(cmd[:3])} failed: {r.stderr.strip()[-300:]}")
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="counted runs of each (default 15)")
    ap.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = ap.parse_args(argv)
    compileall.compile_dir(str(ROOT / "tatlock"), quiet=1)
    tatlock_exe = str(Path(sys.executable).parent / "tatlock")
    with (
        tempfile.TemporaryDirectory(prefix="tatlock-bench-startup-") as home,
        FakeOllama(models={"llama3.2:3b": {"context_length": 8192}}) as fake,
    ):
        fake.handler = handler
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TATLOCK_", "OLLAMA_"))}
        env.update(
            TATLOCK_HOME=home,
            TATLOCK_USER="alice",
            OLLAMA_HOST=fake.url,
            PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
        )
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        ours_cmd = [tatlock_exe, "ask", QUESTION]
        bare_cmd = [sys.executable, "-c", BARE, fake.url, QUESTION]
        timed(ours_cmd, env), timed(bare_cmd, env)  # warm-up: the memory is made, caches are filled
        ours, bare = [], []
        for _ in range(args.runs):
            ours.append(timed(ours_cmd, env))
            bare.append(timed(bare_cmd, env))
    ratios = [a / b for a, b in zip(ours, bare, strict=True)]
    result = {
        "runs": args.runs,
        "tatlock_ask_ms": round(1000 * statistics.median(ours), 1),
        "bare_client_ms": round(1000 * statistics.median(bare), 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
    }
    print(
        f"tatlock ask: {result['tatlock_ask_ms']} ms; bare ollama client: {result['bare_client_ms']} ms "
        f"(medians of {args.runs}, whole processes, instant loopback server); ratio {result['ratio']:.2f} "
        f"(pairwise median; min {result['ratio_min']:.2f}, max {result['ratio_max']:.2f})"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
