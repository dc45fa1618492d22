"""List what ruff cannot fix by itself as per-file ignores in pyproject.toml, so the check is
green after a mechanical step (scripts/habits_finish.sh) and what is left stays in sight.

The ignores go in a marked block of [tool.ruff.lint.per-file-ignores], rewritten on each run
from the block as it was and ruff's findings now: running it twice changes nothing, and a
file's line goes once its findings are fixed and the line deleted by hand.

    .venv/bin/python scripts/ruff_exceptions.py [PATH ...]   (default: tatlock tests scripts)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "# BEGIN remaining exceptions written by scripts/habits_finish.sh"
END = "# END remaining exceptions"
ANCHOR = "[tool.ruff.lint.per-file-ignores]\n"


def findings(paths: list[str]) -> list[dict[str, object]]:
    ruff = ROOT / ".venv" / "bin" / "ruff"
    done = subprocess.run(
        [str(ruff), "check", "--exit-zero", "--output-format", "json", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def main() -> int:
    paths = sys.argv[1:] or ["tatlock", "tests", "scripts"]
    pyproject = ROOT / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    block = re.search(rf"(?ms)^{re.escape(BEGIN)}.*?^{re.escape(END)}\n", text)
    codes: dict[str, set[str]] = {}
    if block:
        kept = tomllib.loads(re.sub(r"(?m)^#.*\n", "", block.group(0)))
        for name, listed in kept.items():
            codes.setdefault(name, set()).update(listed)
    left = findings(paths)
    for finding in left:
        name = Path(str(finding["filename"])).resolve().relative_to(ROOT).as_posix()
        codes.setdefault(name, set()).add(str(finding["code"]))
    if not codes:
        print("ruff: nothing left that it cannot fix")
        return 0
    lines = [
        BEGIN,
        "# (issue 20): what ruff could not fix by itself after the merge; fix a file's findings,",
        "# then delete its line",
        *(f'"{name}" = {json.dumps(sorted(found))}' for name, found in sorted(codes.items())),
        END,
    ]
    new_block = "\n".join(lines) + "\n"
    if block:
        text = text.replace(block.group(0), new_block)
    elif ANCHOR in text:
        text = text.replace(ANCHOR, ANCHOR + new_block, 1)
    else:
        print(
            "ruff_exceptions: pyproject.toml has no [tool.ruff.lint.per-file-ignores]",
            file=sys.stderr,
        )
        return 2
    pyproject.write_text(text, encoding="utf-8")
    print(
        f"pyproject.toml: {len(left)} finding(s) ruff cannot fix, in {len(codes)} file(s), "
        "listed as remaining exceptions"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
