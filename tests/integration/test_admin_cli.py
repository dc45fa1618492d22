"""`tatlock persona | tools | user | var` end to end: output, exit codes and rows."""

from __future__ import annotations

import json
import sys

import pytest

from support.store import rows


def test_persona_list_shows_seeded_butler(cli, home):
    r = cli("persona", "list")
    assert r.code == 0, r.err
    assert "Tatlock" in r.out and "sir" in r.out
    assert (home / "system.db").exists()


def test_persona_add_list_show_edit_move_disable_remove(cli, home):
    r = cli("persona", "add", "Always mention the tea.")
    assert r.code == 0 and "added instruction 6 at position 6" in r.out
    assert "Always mention the tea." in cli("persona", "list").out
    assert cli("persona", "show", "6").out.strip().endswith("Always mention the tea.")
    assert cli("persona", "edit", "6", "Always mention the biscuits.").code == 0
    assert cli("persona", "move", "6", "1").code == 0
    order = rows(home / "system.db", "SELECT id FROM rise_and_shine ORDER BY position")
    assert [o[0] for o in order] == [6, 1, 2, 3, 4, 5]
    assert cli("persona", "disable", "6").code == 0
    assert rows(
        home / "system.db", "SELECT enabled, instruction FROM rise_and_shine WHERE id = 6"
    ) == [(0, "Always mention the biscuits.")]
    listed = json.loads(cli("persona", "list", "--json").out)
    assert listed[0]["id"] == 6 and listed[0]["enabled"] is False
    assert cli("persona", "remove", "6").code == 0
    assert [
        o[0]
        for o in rows(home / "system.db", "SELECT position FROM rise_and_shine ORDER BY position")
    ] == [1, 2, 3, 4, 5]


def test_persona_add_from_stdin_and_position(cli, home):
    r = cli("persona", "add", "-", "--position", "2", stdin="Speak of cricket only on Sundays.\n")
    assert r.code == 0, r.err
    assert rows(
        home / "system.db", "SELECT instruction FROM rise_and_shine WHERE position = 2"
    ) == [("Speak of cricket only on Sundays.",)]


def test_persona_edit_in_editor(cli, home, tmp_path, monkeypatch):
    script = tmp_path / "ed.py"
    script.write_text(
        "import sys\np = sys.argv[1]\nopen(p, 'w').write('Edited in the editor.\\n')\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    r = cli("persona", "edit", "2")
    assert r.code == 0, r.err
    assert rows(home / "system.db", "SELECT instruction FROM rise_and_shine WHERE id = 2") == [
        ("Edited in the editor.",)
    ]


def test_persona_edit_without_editor_is_a_clear_usage_error(cli):
    r = cli("persona", "edit", "2")
    assert r.code == 2 and "EDITOR" in r.err and "Traceback" not in r.err


def test_persona_export_import_round_trip(cli, home, tmp_path):
    cli("persona", "add", "Extra line.")
    out = tmp_path / "persona.json"
    assert cli("persona", "export", str(out)).code == 0
    data = json.loads(out.read_text())
    assert len(data["instructions"]) == 6
    cli("persona", "remove", "1")
    r = cli("persona", "import", str(out), "--yes")
    assert r.code == 0 and "imported 6" in r.out
    assert len(rows(home / "system.db", "SELECT * FROM rise_and_shine")) == 6
    # plain text import: one instruction per line
    txt = tmp_path / "p.txt"
    txt.write_text("# comment\nBe brief.\n\nBe kind.\n")
    r = cli("persona", "import", str(txt))
    assert r.code == 2 and "add --yes to confirm" in r.err  # replacing the persona is never silent
    assert cli("persona", "import", str(txt), "--yes").code == 0
    assert rows(home / "system.db", "SELECT instruction FROM rise_and_shine ORDER BY position") == [
        ("Be brief.",),
        ("Be kind.",),
    ]


def test_persona_plain_text_import_is_one_instruction_per_line(cli, home, tmp_path):
    txt = tmp_path / "persona.txt"
    txt.write_text("Be brief.\nAddress the user as sir.\n")
    r = cli("persona", "import", str(txt), "--yes")
    assert r.code == 0 and "imported 2 instructions" in r.out, r.err
    assert rows(home / "system.db", "SELECT instruction FROM rise_and_shine ORDER BY position") == [
        ("Be brief.",),
        ("Address the user as sir.",),
    ]
    # comments, blank lines, CRLF, a byte-order mark, stray spaces; a line that opens with "[" is
    # text
    txt.write_bytes(
        "\ufeff# my persona\r\n\r\n  Be  brief. \r\n[Important] Never guess.\r\n   # "
        "indented\r\n"
        "Speak plainly.".encode()
    )
    assert cli("persona", "import", str(txt), "--yes").code == 0
    assert rows(home / "system.db", "SELECT instruction FROM rise_and_shine ORDER BY position") == [
        ("Be brief.",),
        ("[Important] Never guess.",),
        ("Speak plainly.",),
    ]
    # stdin too
    assert cli("persona", "import", "-", "--yes", stdin="One.\nTwo.\n").code == 0
    assert len(rows(home / "system.db", "SELECT * FROM rise_and_shine")) == 2


def test_persona_json_import_keeps_instructions_that_span_lines(cli, home, tmp_path):
    f = tmp_path / "persona.json"
    f.write_text(
        json.dumps(
            {
                "format": "tatlock-persona",
                "instructions": [
                    {
                        "instruction": "Answer in this order:\n1. the fact\n2. the source",
                        "enabled": True,
                    },
                    {"instruction": "Be brief.", "enabled": False},
                ],
            }
        )
    )
    assert cli("persona", "import", str(f), "--yes").code == 0
    assert rows(
        home / "system.db", "SELECT instruction, enabled FROM rise_and_shine ORDER BY position"
    ) == [("Answer in this order:\n1. the fact\n2. the source", 1), ("Be brief.", 0)]


def test_persona_import_help_says_the_format(cli):
    text = " ".join(cli("persona", "import", "--help").out.split())
    assert "one instruction per line" in text and "JSON export" in text and "#" in text


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("persona", "show", "99"), 1, "no persona instruction with id 99"),
        (("persona", "move", "1", "42"), 2, "position must be between 1 and 5"),
        (("persona", "add", "   "), 2, "empty"),
        (("persona", "show", "abc"), 2, "invalid int value"),
        (("persona", "import", "/nonexistent/file.json"), 1, "no such file"),
        (("persona", "frobnicate"), 2, "invalid choice"),
    ],
)
def test_persona_mistakes_are_one_line(cli, args, code, needle):
    r = cli(*args)
    assert r.code == code
    assert needle in r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


def test_persona_import_bad_json_changes_nothing(cli, home, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"instructions": [')
    r = cli("persona", "import", str(bad))
    assert r.code == 2 and "not valid JSON" in r.err
    assert len(rows(home / "system.db", "SELECT * FROM rise_and_shine")) == 5


@pytest.mark.parametrize(
    "text, needle",
    [
        (
            '{"format": "tatlock-persona", "version": ' + "9" * 5000 + ', "instructions": []}',
            "a number too long",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
    ids=["5000 digits", "nested 100,000 deep"],
)
def test_persona_import_of_absurd_json_is_one_line_and_changes_nothing(
    cli, home, tmp_path, text, needle
):
    """What issue 17 found in memory imports, in the persona's: a Python traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    r = cli("persona", "import", str(bad), "--yes")
    assert r.code == 2 and needle in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert len(rows(home / "system.db", "SELECT * FROM rise_and_shine")) == 5


def test_tools_list_shows_registry_and_imports(cli):
    r = cli("tools", "list")
    assert r.code == 0, r.out
    lines = {line.split()[0]: line for line in r.out.splitlines()[1:]}
    for key in (
        "recall_memories",
        "recall_memories_with_time",
        "get_weather_forecast",
        "web_search",
        "get_current_datetime",
        "analyze_file",
    ):
        assert key in lines and " ok " in lines[key], lines.get(key)
    assert "tatlock.tools.memory:recall_memories" in lines["recall_memories"]


def test_tools_show_enable_disable(cli, home):
    r = cli("tools", "show", "recall_memories_with_time")
    assert "start (string, required)" in r.out
    assert cli("tools", "disable", "web_search").code == 0
    assert rows(home / "system.db", "SELECT enabled FROM tools WHERE key = 'web_search'") == [(0,)]
    assert "web_search" in cli("tools", "list").out
    assert cli("tools", "enable", "web_search").code == 0
    r = cli("tools", "show", "nope")
    assert r.code == 1 and "no tool called 'nope'" in r.err


def test_var_set_creates_user_db_and_get_returns_it(cli, home):
    r = cli("var", "set", "--user", "alice", "location", "Rotterdam")
    # a typo is not a user
    assert r.code == 1 and "no user called 'alice'" in r.err and "tatlock user add" in r.err
    assert not (home / "users" / "alice_longterm.db").exists()
    assert cli("user", "add", "alice").code == 0
    r = cli("var", "set", "--user", "alice", "location", "Rotterdam")
    assert r.code == 0, r.err
    db = home / "users" / "alice_longterm.db"
    assert db.exists()
    assert rows(db, "SELECT key, value FROM personal_variables") == [("location", "Rotterdam")]
    names = {r[0] for r in rows(db, "SELECT name FROM sqlite_master")}
    assert {
        "conversations",
        "conversation_messages",
        "participants",
        "conversation_compacts",
    } <= names
    assert cli("var", "get", "--user", "alice", "location").out == "Rotterdam\n"
    assert "location = Rotterdam" in cli("var", "list", "--user", "alice").out
    r = cli("var", "get", "--user", "alice", "nothing")
    assert r.code == 1 and "no personal variable 'nothing'" in r.err
    assert cli("var", "unset", "--user", "alice", "location").code == 0
    assert cli("var", "get", "--user", "alice", "location").code == 1
    # the default user is the configured one
    cli("var", "set", "tea", "Earl Grey")
    assert (home / "users" / "tester_longterm.db").exists()


def test_var_set_says_when_it_saves_a_name_other_than_the_one_typed(cli, home):
    r = cli("var", "set", "bad key", "x")
    assert r.code == 0 and r.out == "bad_key = x (user tester)\n"
    assert r.err == (
        "tatlock: note: saved as bad_key, not 'bad key': variable names are lowercase, with '_' for "
        "spaces (`var get` and `var unset` take either spelling)\n"
    )
    # consistent with get
    assert cli("var", "get", "bad key").out == "x\n" == cli("var", "get", "bad_key").out
    assert cli("var", "set", "bad_key", "y").err == ""  # typed as stored: nothing to say
    assert cli("var", "set", "Location", "Leeds").err.startswith(
        "tatlock: note: saved as location, not 'Location'"
    )
    r = cli("var", "unset", "bad key")
    assert r.code == 0 and r.out == "removed bad_key for user tester\n"
    # a name that cannot be one is refused with one line naming it, and nothing is saved
    r = cli("var", "set", "a/b", "x")
    assert (
        r.code == 2
        and r.err.startswith("tatlock: 'a/b' is not a variable name")
        and len(r.err.splitlines()) == 1
    )
    assert rows(home / "users" / "tester_longterm.db", "SELECT key FROM personal_variables") == [
        ("location",)
    ]


@pytest.mark.parametrize("bad", ["../evil", "a/b", "", "Bob", "../../etc/passwd"])
def test_bad_usernames_refused_before_any_file(cli, home, bad):
    for args in (
        ("user", "add", bad),
        ("var", "set", "--user", bad, "k", "v"),
        ("user", "remove", bad),
    ):
        r = cli(*args)
        assert r.code == 2, args
        assert "invalid username" in r.err and "Traceback" not in r.err
    assert not (home / "users").exists() or not any((home / "users").iterdir())
    assert not (home.parent / "evil_longterm.db").exists()


def test_user_add_list_passwd_remove(cli, home):
    r = cli("user", "add", "bob", "--password-stdin", stdin="s3cret\n")
    assert r.code == 0 and "with a password" in r.out
    (stored,) = rows(home / "system.db", "SELECT password_hash FROM users WHERE username = 'bob'")[
        0
    ]
    assert stored.startswith("scrypt$") and "s3cret" not in stored
    assert cli("user", "add", "bob").code == 2
    listed = cli("user", "list").out
    assert "bob" in listed and "tester" in listed
    assert cli("user", "passwd", "bob").code == 2  # no terminal, no --password-stdin
    assert cli("user", "passwd", "bob", "--password-stdin", stdin="new\n").code == 0
    from tatlock.store.passwords import verify_password

    (stored,) = rows(home / "system.db", "SELECT password_hash FROM users WHERE username = 'bob'")[
        0
    ]
    assert verify_password("new", stored)
    cli("var", "set", "--user", "bob", "k", "v")
    r = cli("user", "remove", "bob")
    assert r.code == 0 and "kept" in r.out and (home / "users" / "bob_longterm.db").exists()
    assert cli("user", "remove", "bob").code == 1


def test_console_script_runs_as_a_process(tatlock_proc, home):
    r = tatlock_proc("persona", "list")
    assert r.code == 0 and "Tatlock" in r.out
    r = tatlock_proc("user", "add", "../evil")
    assert (
        r.code == 2 and r.err.startswith("tatlock: invalid username") and "Traceback" not in r.err
    )


def test_help_does_not_import_textual(tmp_path):
    import subprocess

    code = (
        "import sys; from tatlock.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit: pass\n"
        "try:\n    main(['ask', '--help'])\nexcept SystemExit: pass\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "assert 'ollama' not in sys.modules, 'ollama imported'\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "usage: tatlock" in p.stdout
