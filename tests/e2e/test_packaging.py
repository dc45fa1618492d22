"""A built wheel works on its own: installed with its dependencies into a fresh virtualenv,
run from a directory far from the source tree, it answers a question; the fake servers and
tests are not in it; every package of the source tree is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_source_tree_is_listed():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "tatlock").rglob("__init__.py")
    }
    assert found | {"tatlock.prompt_texts"} == listed, (
        "update [tool.setuptools] packages in pyproject.toml"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built from a clean copy of the source: setuptools reuses a checkout's build/ folder, so files
    # deleted from the source since an earlier build would still end up in the wheel
    src = tmp_path_factory.mktemp("source") / "tatlock"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
        ),
    )
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    (whl,) = out.glob("tatlock-*.whl")
    return whl


def test_wheel_holds_the_prompts_and_migrations_and_no_test_support(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    prompts = {
        Path(n).name for n in names if n.startswith("tatlock/prompt_texts/") and n.endswith(".txt")
    }
    assert prompts == {p.name for p in (ROOT / "prompts").glob("*.txt")}
    assert "tatlock/store/migrations/user/0001_init.sql" in names
    # the route classifier, trained offline
    assert "tatlock/pipeline/routing/classifier.bin" in names
    # its labelled sets stay in tests/data
    assert not [n for n in names if Path(n).name.startswith("routes_")]
    assert "tatlock/tui/tatlock.tcss" in names  # the TUI's stylesheet, found beside app.py
    assert not [n for n in names if "fake_ollama" in n or "fake_web" in n or n.startswith("tests/")]


def test_wheel_in_a_fresh_venv_answers_from_anywhere(wheel, served, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    p = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "answer": "Paris, sir.",
                "tools": [],
                "tool_query": "",
                "topics": ["geography"],
            }
        }
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    r = subprocess.run(
        [str(venv / "bin" / "tatlock"), "ask", "What is the capital of France?"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "Paris, sir.\n"
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import tatlock; print(tatlock.__file__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    ).stdout
    assert where.startswith(str(venv)), where  # the installed copy, not the source tree
