#!/usr/bin/env python3
"""What `tatlock memory import` costs, and what it costs a turn writing beside it:

- a memory export of ``--messages`` messages (in ``--conversations`` conversations) is imported
  into an empty home by the real command, in its own process: wall time and peak memory;
- meanwhile another process stores a message every ``--every`` seconds, as a turn stores its
  question (``UserStore.add_message``, BEGIN IMMEDIATE): how long each waited for the lock,
  and whether any failed;
- the peak memory of checking a file that is ``--blank`` MB of whitespace.

    scripts/bench import [--messages 400000] [--conversations 1] [--every 0.5] [--blank 500]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT))

EXE = str(Path(sys.executable).parent / "tatlock")

PROBE = r"""
import json, sys, time
from tatlock.config import load
from tatlock.store.user import Author, UserStore

every, stop = float(sys.argv[1]), sys.argv[2]
store = UserStore.open(load().paths, "bench")
conv = store.create_conversation("probe", "cli")
waits, failures = [], []
import os
while not os.path.exists(stop):
    t0 = time.monotonic()
    try:
        store.add_message(conv.id, "user", "and now?", Author("bench", "Bench", is_anchor=True))
        waits.append(time.monotonic() - t0)
    except Exception as exc:  # the failure the issue saw: busy after 10 s, the question lost
        failures.append(f"{type(exc).__name__}: {exc}")
    time.sleep(every)
print(json.dumps({"waits": waits, "failures": failures}))
"""


def export_file(path: Path, messages: int, conversations: int) -> int:
    """Write an export of ``messages`` messages; returns its size in bytes."""
    per = max(1, messages // conversations)
    mid = 0
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"format": "tatlock-memory", "version": 1, "conversations": [\n')
        for c in range(conversations):
            conv = {
                "id": c + 1,
                "title": f"Bench {c + 1}",
                "room_id": f"room-{c + 1}",
                "interface": "matrix",
                "started_at": "2025-01-01T00:00:00+00:00",
                "last_activity": "2025-06-01T00:00:00+00:00",
            }
            fh.write(
                ("," if c else "")
                + f'{{"uid": "bench-{c}", "conversation": {json.dumps(conv)}, "messages": [\n'
            )
            for n in range(1, per + 1):
                mid += 1
                m = {
                    "message_id": mid,
                    "message_number": n,
                    "role": "user" if n % 2 else "assistant",
                    "author_id": "@maria:example.org" if n % 2 else "tatlock",
                    "author_name": "Maria" if n % 2 else "Tatlock",
                    "reply_to": mid - 1 if n % 2 == 0 else None,
                    "content": f"Message {n} about the leek soup, the greengrocer and the tulip bulbs, number {mid}.",
                    "timestamp": "2025-03-01T12:00:00+00:00",
                    "metadata": {},
                }
                fh.write(("," if n > 1 else "") + json.dumps(m) + "\n")
            fh.write("]}\n")
        fh.write("]}\n")
    return path.stat().st_size


def run_import(env: dict[str, str], path: Path) -> tuple[float, float, int, str, str]:
    """Wall seconds, peak resident MB, exit code, stdout and stderr of one `tatlock memory
    import` process (its own peak, from wait4)."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([EXE, "memory", "import", str(path)], env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return wall, usage.ru_maxrss / 1024, p.returncode, out.read().strip(), err.read().strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=400_000)
    ap.add_argument("--conversations", type=int, default=1)
    ap.add_argument(
        "--every", type=float, default=0.5, help="seconds between the other process's writes"
    )
    ap.add_argument(
        "--blank", type=int, default=500, help="MB of whitespace for the memory check (0: skip)"
    )
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        home = t / "home"
        home.mkdir(mode=0o700)
        env = {
            **os.environ,
            "TATLOCK_HOME": str(home),
            "TATLOCK_USER": "bench",
            "TATLOCK_TIER": "low",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        }
        subprocess.run(
            [EXE, "var", "list"], env=env, capture_output=True, check=True
        )  # makes the memory
        path = t / "memory.json"
        size = export_file(path, a.messages, a.conversations)
        print(
            f"export: {a.messages:,} messages in {a.conversations} conversation(s), {size / 2**20:.0f} MB"
        )

        stop = t / "stop"
        probe = subprocess.Popen(
            [sys.executable, "-c", PROBE, str(a.every), str(stop)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.5)  # the prober is writing before the import starts
        result: dict = {}
        th = threading.Thread(target=lambda: result.update(r=run_import(env, path)))
        th.start()
        th.join()
        stop.touch()
        out, _ = probe.communicate(timeout=60)
        wall, peak, code, stdout, stderr = result["r"]
        print(
            f"import: {wall:.1f} s wall, peak resident {peak:.0f} MB, exit {code}: {stdout} {stderr}".rstrip()
        )
        probed = json.loads(out)
        waits = sorted(w * 1000 for w in probed["waits"])
        if waits:
            print(
                f"another process's writes during the import: {len(waits)}, failed {len(probed['failures'])}; "
                f"waited median {statistics.median(waits):.0f} ms, p95 {waits[int(len(waits) * 0.95)]:.0f} ms, "
                f"max {waits[-1]:.0f} ms"
            )
        for f in probed["failures"][:3]:
            print(f"  failed: {f}")

        if a.blank:
            blank = t / "blank.json"
            with blank.open("wb") as fh:
                chunk = b" " * (1 << 20)
                for _ in range(a.blank):
                    fh.write(chunk)
                fh.write(b"{}")
            wall, peak, code, _, stderr = run_import(env, blank)
            print(
                f"checking {a.blank} MB of whitespace: {wall:.1f} s, peak resident {peak:.0f} MB, "
                f"exit {code}: {stderr}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
