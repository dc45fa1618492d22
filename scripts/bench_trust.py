#!/usr/bin/env python3
"""The cost of the trust layer, which runs on every turn, every tool result and every start:

- ``text.inert`` on long text (everything the commands print goes through it);
- ``redact.redact`` on a typical tool result and on a long prompt (every debug-log event);
- ``privacy.check`` at start with many debug logs in the data folder;
- the analyze_file path decision (``bounds``), once per call, and its look at every file in
  tatlock's folders (a hard link to one of them is refused by device and inode);
- ``secrets.known_values`` at open, in a fresh process (keyring import and backend detection).

    scripts/bench trust [--logs 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))

from tatlock import bounds, privacy  # noqa: E402
from tatlock.config import Paths  # noqa: E402
from tatlock.redact import redact  # noqa: E402
from tatlock.text import inert  # noqa: E402


def timed(fn, repeat: int) -> float:
    """Median milliseconds of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs)


def row(what: str, ms: float, size: str = "") -> None:
    print(f"{what:<58} {size:>10} {ms:>9.2f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--logs", type=int, default=2000, help="debug logs in the data folder for privacy.check"
    )
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()

    prose = ("The butler keeps a calm house; Maria's birthday is on the 3rd of May. " * 15_000)[
        :1_000_000
    ]
    dirty = ("colour \x1b[31mred\x1b[0m and a NUL \x00 here. " * 25_000)[:1_000_000]
    tool_result = (
        "Server notes line with words and numbers 12345 and a path /home/x/file.txt\n" * 160
    )[:12_000]
    print(f"{'what':<58} {'size':>10} {'median':>12}")
    row("inert, ordinary prose (no change)", timed(lambda: inert(prose), a.repeat), "1 MB")
    row("inert, escapes every 40 characters", timed(lambda: inert(dirty), a.repeat), "1 MB")
    row("redact, a typical tool result", timed(lambda: redact(tool_result), a.repeat), "12 KB")
    row(
        "redact, a long prompt (debug-log event)",
        timed(lambda: redact(prose[:200_000]), a.repeat),
        "200 KB",
    )

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        logs = home / "logs" / "conversations"
        logs.mkdir(parents=True)
        for i in range(a.logs):
            (logs / f"alice-{i}.jsonl").write_text("{}\n")
        os.chmod(home, 0o755)
        paths = Paths(home, home, home / "logs")
        t0 = time.perf_counter()
        notice = privacy.check(paths)
        first = (time.perf_counter() - t0) * 1000
        row(f"privacy.check, first start ({a.logs} loose logs)", first, "")
        print(f"    notice: {notice}")
        row(
            f"privacy.check, later starts ({a.logs} private logs)",
            timed(lambda: privacy.check(paths), a.repeat),
        )

        docs = home / "Documents"
        docs.mkdir()
        (docs / "letter.txt").write_text("x")
        roots = [bounds.real(docs)]
        row(
            "bounds: roots + refusal for one analyze_file call",
            timed(
                lambda: bounds.refusal(
                    bounds.real(docs / "letter.txt"), bounds.roots_from(None) + roots
                ),
                a.repeat,
            ),
        )
        row(
            f"bounds.own_files for one analyze_file call ({a.logs} logs)",
            timed(lambda: bounds.own_files([home, home, home / "logs"]), a.repeat),
        )

    code = (
        "import time; t0 = time.perf_counter(); from tatlock import secrets; secrets.known_values(); "
        "print((time.perf_counter() - t0) * 1000)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
            ).stdout
        )
        for _ in range(a.repeat)
    ]
    backend = subprocess.run(
        [sys.executable, "-c", "import keyring; print(type(keyring.get_keyring()).__module__)"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout.strip()
    row(f"secrets.known_values in a fresh process ({backend})", statistics.median(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
