"""`tatlock config list|get|set|unset|path|edit`: settings shown with where each comes from,
changed with the validation loading applies (a refused value writes nothing), the user's
comments and other settings kept, the file private and written whole."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from tatlock import config


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def rows(out: str) -> dict[str, tuple[str, str]]:
    """`config list` as {setting: (value, from)}."""
    lines = out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("SETTING"))
    value_at, from_at = lines[head].index("VALUE"), lines[head].index("FROM")
    return {
        ln[:value_at].strip(): (ln[value_at:from_at].strip(), ln[from_at:].strip())
        for ln in lines[head + 1 :]
        if ln[:1].isalpha() and not ln.startswith("Change")
    }


def test_config_alone_lists_every_setting_with_its_value_and_where_it_comes_from(
    cli, home, monkeypatch
):
    (home / "config.toml").write_text('model = "qwen2.5:7b"\ntimeout = 30\n')
    monkeypatch.setenv("TATLOCK_TIMEOUT", "45")
    r = cli("config")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == f"config file: {home / 'config.toml'}"
    table = rows(r.out)
    assert set(table) == set(config.Config.ENV)  # every setting, none missing
    assert table["model"] == ("qwen2.5:7b", "config.toml")
    assert table["timeout"] == ("45", "environment (TATLOCK_TIMEOUT); config.toml says 30")
    assert table["user"] == ("tester", "environment (TATLOCK_USER)")
    assert table["backend"] == ("ollama", "default")
    assert table["compact_interval"] == ("40", "default: hardware tier low")
    assert table["api_key"][0] == "-"
    assert cli("config", "list").out == r.out
    listed = json.loads(cli("config", "list", "--json").out)
    assert {
        "name": "model",
        "value": "qwen2.5:7b",
        "from": "config.toml",
        "environment": "TATLOCK_MODEL",
    } in listed


def test_the_api_key_is_never_shown_nor_written_to_the_file(cli, home, monkeypatch):
    monkeypatch.setenv("TATLOCK_API_KEY", "sk-very-secret-123")
    for args in (("config",), ("config", "list", "--json"), ("config", "get", "api_key")):
        r = cli(*args)
        assert "sk-very-secret" not in r.out + r.err, args
    assert rows(cli("config").out)["api_key"] == ("(set, hidden)", "environment (TATLOCK_API_KEY)")
    r = cli("config", "set", "api_key", "sk-other")
    assert (
        r.code == 2
        and "`tatlock secret set api_key`" in r.err
        and len(r.err.strip().splitlines()) == 1
    )
    assert not (home / "config.toml").exists()


def test_set_writes_a_private_file_and_get_reads_it_back(cli, home):
    r = cli("config", "set", "model", "qwen2.5:7b")
    assert r.code == 0, r.err
    assert r.out == f'model = "qwen2.5:7b" in {home / "config.toml"}\n'
    assert (home / "config.toml").read_text() == 'model = "qwen2.5:7b"\n'
    assert mode(home / "config.toml") == 0o600
    assert cli("config", "get", "model").out == "qwen2.5:7b\n"
    assert cli("config", "set", "compact_interval", "12").code == 0
    assert cli("config", "set", "timeout", "2.5").code == 0
    # a negative number is a value, not an option
    assert cli("config", "set", "keep_alive", "-1").code == 0
    assert config.load().compact_interval == 12 and config.load().timeout == 2.5
    assert config.load().keep_alive == "-1"
    assert cli("config", "get", "compact_interval").out == "12\n"
    # defaults are read through, and a setting with none says so (exit 1)
    assert cli("config", "get", "context_size").out == "4096\n"
    r = cli("config", "get", "vision_model")
    assert r.code == 1 and r.out == "" and "vision_model is not set" in r.err


@pytest.mark.parametrize(
    "name, value, env",
    [
        ("compact_interval", "1", "TATLOCK_COMPACT_INTERVAL"),
        ("compact_interval", "ten", "TATLOCK_COMPACT_INTERVAL"),
        ("timeout", "0", "TATLOCK_TIMEOUT"),
        ("timeout", "nan", "TATLOCK_TIMEOUT"),
        ("tier", "huge", "TATLOCK_TIER"),
        ("backend", "claude", "TATLOCK_BACKEND"),
        ("model", "two words", "TATLOCK_MODEL"),
        ("base_url", "ftp://example.org", "TATLOCK_BASE_URL"),
        ("timezone", "Mars/Olympus", "TATLOCK_TIMEZONE"),
        ("user", "Not Valid", "TATLOCK_USER"),
        ("allowed_paths", "/no/such/folder", "TATLOCK_ALLOWED_PATHS"),
        ("theme", "bad\x1b[31m", "TATLOCK_THEME"),
    ],
)
def test_a_bad_value_is_refused_with_the_line_loading_gives_and_nothing_is_written(
    cli, home, monkeypatch, name, value, env
):
    before = '# mine\nkeep_alive = "5m"  # keep\n'
    (home / "config.toml").write_text(before)
    r = cli("config", "set", name, value)
    assert r.code == 2 and r.out == ""
    assert (home / "config.toml").read_text() == before
    # no temporary file left
    assert not [p for p in home.iterdir() if p.name not in ("config.toml",)]
    # the very line loading gives for a config.toml holding that value
    (home / "config.toml").write_text(before + f"{name} = {config.toml_value(name, [value])}\n")
    loading = cli("memory", "stats")
    assert loading.code == 2
    assert r.err == loading.err.split(" (`tatlock config edit`")[0] + "\n"
    assert f"{name} must be" in r.err and len(r.err.strip().splitlines()) == 1
    # and the same rule as the environment's
    (home / "config.toml").write_text(before)
    monkeypatch.setenv(env, value)
    from_env = cli("memory", "stats")
    assert from_env.code == 2 and r.err.split(f"{name} must be")[1] in from_env.err


def test_set_and_unset_keep_comments_other_settings_and_tables(cli, home):
    text = (
        '# my settings\nmodel = "qwen2.5:7b"  # the big one\n\n# folders\nallowed_paths = [\n  '
        '".",\n'
        '  "~",\n]\ntimeout = 60\n'
    )
    (home / "config.toml").write_text(text)
    assert cli("config", "set", "model", "llama3.2:3b").code == 0
    assert cli("config", "set", "allowed_paths", ".", str(home.parent)).code == 0
    assert (home / "config.toml").read_text() == (
        f'# my settings\nmodel = "llama3.2:3b"  # the big one\n\n# folders\nallowed_paths = [".", '
        f'"{home.parent}"]\ntimeout = 60\n'
    )
    assert config.load().allowed_paths == (".", str(home.parent))
    r = cli("config", "unset", "model")
    assert r.code == 0 and r.out == (
        f"removed model from {home / 'config.toml'}; now llama3.2:3b (default: hardware tier low)\n"
    )
    assert (home / "config.toml").read_text() == (
        f'# my settings\n\n# folders\nallowed_paths = [".", "{home.parent}"]\ntimeout = 60\n'
    )
    r = cli("config", "unset", "model")
    assert r.code == 0 and "model is not set in" in r.out and "nothing changed" in r.out
    assert cli("config", "set", "tier", "low").code == 0
    # the environment still wins, and says so
    assert config.load().source["tier"] == "$TATLOCK_TIER"
    assert (
        "TATLOCK_TIER is set in the environment and wins" in cli("config", "set", "tier", "low").err
    )


def test_a_file_already_broken_elsewhere_is_named_and_left_alone(cli, home):
    (home / "config.toml").write_text('tier = "huge"\n')
    r = cli("config", "set", "model", "qwen2.5:7b")
    assert r.code == 2 and "tier = 'huge'" in r.err
    assert (home / "config.toml").read_text() == 'tier = "huge"\n'
    r = cli("config")  # every other command names the fix
    assert r.code == 2 and "`tatlock config edit`" in r.err and len(r.err.strip().splitlines()) == 1
    assert cli("config", "unset", "tier").code == 0  # the way out
    assert (home / "config.toml").read_text() == ""
    (home / "config.toml").write_text("tier = \n")
    r = cli("config", "set", "model", "x")
    assert (
        r.code == 2
        and "not valid TOML" in r.err
        and (home / "config.toml").read_text() == "tier = \n"
    )


def test_unknown_settings_and_misuse_are_one_line(cli, home):
    r = cli("config", "set", "moddel", "x")
    assert (
        r.code == 2
        and r.err
        == "tatlock: unknown setting 'moddel' (did you mean model? `tatlock config` lists them "
        "all)\n"
    )
    r = cli("config", "get", "nothing")
    assert r.code == 2 and "unknown setting 'nothing'" in r.err
    r = cli("config", "set", "model", "a", "b")
    assert r.code == 2 and "model takes one value" in r.err
    r = cli("config", "set", "model")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert not (home / "config.toml").exists()


def test_path_says_where_the_file_is(cli, home):
    r = cli("config", "path")
    assert r.code == 0 and r.out == f"{home / 'config.toml'}\n" and "does not exist yet" in r.err
    (home / "config.toml").write_text("")
    assert cli("config", "path").err == ""
    help_text = cli("config", "--help").out
    assert f"config.toml is {home / 'config.toml'}." in " ".join(help_text.split())


@pytest.fixture
def editor(tmp_path, monkeypatch):
    """$EDITOR: a script that replaces the file with the next of the texts given to it."""
    texts = tmp_path / "texts"
    texts.mkdir()
    script = tmp_path / "ed.py"
    script.write_text(
        "import sys, pathlib\n"
        f"d = pathlib.Path({str(texts)!r})\n"
        "nxt = sorted(d.iterdir())\n"
        "pathlib.Path(sys.argv[1]).write_text(nxt[0].read_text() if nxt else "
        "pathlib.Path(sys.argv[1]).read_text())\n"
        "nxt and nxt[0].unlink()\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")

    def queue(*contents: str) -> None:
        for n, text in enumerate(contents):
            (texts / f"{n:02d}").write_text(text)

    return queue


def test_edit_saves_a_valid_file_privately(cli, home, editor):
    (home / "config.toml").write_text("# mine\n")
    os.chmod(home / "config.toml", 0o644)
    editor('# mine\nmodel = "qwen2.5:7b"\n')
    r = cli("config", "edit")
    assert r.code == 0 and r.out == f"saved {home / 'config.toml'}\n"
    assert (home / "config.toml").read_text() == '# mine\nmodel = "qwen2.5:7b"\n'
    assert mode(home / "config.toml") == 0o600
    editor()  # saved as it was
    assert cli("config", "edit").out == f"{home / 'config.toml'} unchanged\n"


def test_edit_keeps_the_old_file_when_the_new_one_is_invalid(cli, home, editor):
    (home / "config.toml").write_text('model = "qwen2.5:7b"\n')
    editor('model = "two words"\n')
    r = cli("config", "edit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "model must be a model name" in r.err and "config.toml was not changed" in r.err
    assert (home / "config.toml").read_text() == 'model = "qwen2.5:7b"\n'
    kept = home / "config.toml.rejected"
    # the edit is not lost
    assert kept.read_text() == 'model = "two words"\n' and mode(kept) == 0o600
    editor("this is = not [toml\n")
    r = cli("config", "edit")
    assert r.code == 2 and "not valid TOML" in r.err
    assert (home / "config.toml").read_text() == 'model = "qwen2.5:7b"\n'
    assert not list(home.glob(".config.*"))  # no temporary file left behind


def test_edit_on_a_terminal_offers_to_edit_again(cli, home, editor):
    editor('tier = "huge"\n', 'tier = "medium"\n')
    r = cli("config", "edit", stdin="y\n", tty=True)
    assert r.code == 0, r.err
    assert "tier must be low, medium, high or auto" in r.err
    assert (home / "config.toml").read_text() == 'tier = "medium"\n'


def test_edit_without_an_editor_says_what_to_do(cli, home):
    r = cli("config", "edit")
    assert (
        r.code == 2 and "$VISUAL or $EDITOR" in r.err and "`tatlock config set NAME VALUE`" in r.err
    )


def test_config_as_a_process_imports_no_textual(tatlock_proc, home):
    r = tatlock_proc("config", "set", "backend", "openai")
    assert r.code == 0, r.err
    assert "`tatlock config set base_url URL`" in r.err  # what to do next
    r = tatlock_proc("config", "get", "backend")
    assert r.out == "openai\n"


def test_a_symlinked_config_file_stays_a_symlink(cli, home, tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "tatlock.toml").write_text("# kept in git\n")
    (home / "config.toml").symlink_to(dotfiles / "tatlock.toml")
    assert cli("config", "set", "model", "qwen2.5:7b").code == 0
    assert (home / "config.toml").is_symlink()
    assert (dotfiles / "tatlock.toml").read_text() == '# kept in git\nmodel = "qwen2.5:7b"\n'


def test_a_config_folder_that_cannot_be_made_is_one_line(cli, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the config folder should be")
    monkeypatch.setenv("TATLOCK_HOME", str(blocker / "home"))
    r = cli("config", "set", "model", "llama3.2:3b")
    assert r.code == 2 and r.err.startswith("tatlock: cannot read") and len(r.err.splitlines()) == 1
    assert "Not a directory" in r.err
    assert blocker.read_text() == "a file where the config folder should be"
