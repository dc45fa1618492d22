"""How the TUI is started: bare `tatlock` opens it in a terminal and falls back to the line chat
for pipes; `tatlock tui --help` and the other commands never import Textual; a --user that
does not exist is one line before the screen changes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from tatlock.cli import main
code = None
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({'code': code, 'textual': sorted(m for m in sys.modules if m.split('.')[0] == 'textual')}),
      file=sys.stderr)
"""


def probe(*argv: str) -> dict:
    p = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=60
    )
    return json.loads(p.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [("--help",), ("tui", "--help"), ("chat", "--help")])
def test_help_never_imports_textual(argv):
    report = probe(*argv)
    assert report["code"] == 0 and report["textual"] == []


def test_bare_tatlock_in_a_terminal_opens_the_tui_and_pipes_get_the_chat(cli, monkeypatch):
    import tatlock.commands.chat as chat
    import tatlock.commands.tui as tui

    ran = []
    monkeypatch.setattr(tui, "run", lambda args: ran.append(("tui", args.new, args.user)) or 0)
    monkeypatch.setattr(chat, "run", lambda args: ran.append(("chat", args.new, args.user)) or 0)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli(tty=True).code == 0
    assert cli(tty=False).code == 0  # stdin piped
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert cli(tty=True).code == 0  # stdout piped
    assert ran == [("tui", False, None), ("chat", False, None), ("chat", False, None)]
    assert cli("tui", "--new", "--user", "tester").code == 0
    assert ran[-1] == ("tui", True, "tester")


def test_tui_with_an_unknown_user_is_one_line_before_the_screen_changes(tatlock_proc):
    r = tatlock_proc("tui", "--user", "nobody")
    assert r.code == 1 and r.out == ""
    assert (
        r.err.startswith("tatlock: there is no user called 'nobody'")
        and len(r.err.splitlines()) == 1
    )


def test_tui_with_a_bad_setting_is_one_line(tatlock_proc, home):
    (home / "config.toml").write_text("theme = 3\n")
    r = tatlock_proc("tui")
    assert (
        r.code != 0
        and r.err.startswith("tatlock: ")
        and "theme" in r.err
        and len(r.err.splitlines()) == 1
    )
