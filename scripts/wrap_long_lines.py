"""Wrap the lines `ruff format` leaves over the limit, without changing what the code does.

ruff format never splits a string or a comment. This does, where the meaning cannot change:
- a one-line string literal inside brackets becomes two adjacent literals (implicit
  concatenation: the same value), split at a space outside any f-string braces;
- a line of a docstring (a string that is a statement of its own) is split at a space, the rest
  going on the next line at the same indent (a docstring's line breaks are only layout);
- a comment on a line of its own continues on the next line as a comment at the same indent;
- a comment after code goes on its own line above the code (unless it is a pragma: noqa...).
Anything else (a string outside brackets, a long name, a pragma comment) is left and listed,
for a person. Run `ruff format` afterwards: it lays the new pieces out.

    .venv/bin/python scripts/wrap_long_lines.py [--limit 100] [--check] PATH...
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from pathlib import Path

QUOTES = ('"', "'")
# the start of a line whose string is all that follows: an assignment or a return
BARE = re.compile(r"\s*(return |[\w.]+(\s*:\s*[\w\[\], .|]+)?\s*=\s*)$")
# comments that act on their own line, which must stay where they are
PRAGMA = re.compile(r"#\s*(noqa|type:|pragma|fmt:|pyright:|mypy:|isort:|ruff:)")


def docstring_lines(tree: ast.AST) -> set[int]:
    """Line numbers inside docstrings (and other statement strings), which only lay text out."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            end = node.end_lineno or node.lineno
            lines.update(range(node.lineno, end + 1))
    return lines


def split_point(text: str, limit: int, start: int = 0, fstring: bool = False) -> int:
    """The index of the last space at or before `limit` (after `start`) outside f-string braces;
    -1 when there is none."""
    depth = 0
    best = -1
    for index, char in enumerate(text):
        if index > limit:
            break
        if fstring and char == "{":
            depth += 1
        elif fstring and char == "}":
            depth = max(depth - 1, 0)
        elif char == " " and depth == 0 and index > start:
            best = index
    return best


def split_string(token: tokenize.TokenInfo, line: str, limit: int) -> str | None:
    """The line with its string token split in two adjacent literals, or None."""
    text = token.string
    prefix_end = 0
    while prefix_end < len(text) and text[prefix_end] not in QUOTES:
        prefix_end += 1
    prefix, body = text[:prefix_end], text[prefix_end:]
    if body[:3] in ('"""', "'''") or len(body) < 2:
        return None
    quote = body[0]
    if "b" in prefix.lower():
        return None
    column = token.start[1]
    indent = len(line) - len(line.lstrip())
    # right after an opening bracket: `ruff format` will break the brackets and move the pieces
    # to the next indent, so measure the split from there
    measured_from = indent + 4 if line[:column].rstrip().endswith(("(", "[", "{")) else column
    # split so the first piece (with its closing quote) ends at or before the limit
    room = limit - 1 - measured_from - prefix_end
    cut = split_point(body, room, start=1, fstring="f" in prefix.lower())
    if cut <= 1 or cut >= len(body) - 2:
        return None
    first = f"{prefix}{body[: cut + 1]}{quote}"
    second = f"{prefix}{quote}{body[cut + 1 :]}"
    if "\\" in body[cut - 1 : cut + 2]:
        return None  # never separate an escape from what it escapes
    head = line[:column] + first
    tail = " " * (indent + 4) + second + line[token.end[1] :]
    return head + "\n" + tail


def wrap_source(source: str, limit: int) -> tuple[str, list[int]]:
    """One round over a module's text: the new text and the lines left over the limit."""
    lines = source.splitlines(keepends=True)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source, []
    in_docstrings = docstring_lines(tree)
    depth_at: dict[tuple[int, int], int] = {}
    strings: dict[int, list[tokenize.TokenInfo]] = {}
    trailing: dict[int, tokenize.TokenInfo] = {}
    depth = 0
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.STRING and token.start[0] == token.end[0]:
            depth_at[token.start] = depth
            strings.setdefault(token.start[0], []).append(token)
        elif token.type == tokenize.COMMENT and token.line[: token.start[1]].strip():
            trailing[token.start[0]] = token
    left: list[int] = []
    out: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n")
        newline = raw[len(line) :]
        if len(line) <= limit:
            out.append(raw)
            continue
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        replaced: str | None = None
        comment = trailing.get(number)
        before = lines[number - 2].rstrip("\n") if number > 1 else ""
        if comment is not None and not PRAGMA.match(comment.string) and not before.endswith("\\"):
            # a trailing comment goes on its own line above (the formatter would otherwise wrap
            # the code in parentheses to make room for it)
            code = line[: comment.start[1]].rstrip()
            replaced = indent + comment.string + "\n" + code
        elif stripped.startswith("#"):
            cut = split_point(line, limit, start=len(indent) + 2)
            if cut > 0:
                replaced = line[:cut] + "\n" + indent + "# " + line[cut + 1 :]
        elif number in in_docstrings:
            # on the first line, never before the opening quotes
            opening = max(stripped.find('"""'), stripped.find("'''"))
            start = len(indent) + (opening + 3 if opening >= 0 else 1)
            cut = split_point(line, limit, start=start)
            if cut > 0:
                replaced = line[:cut] + "\n" + indent + line[cut + 1 :]
        else:
            crossing = [
                token for token in strings.get(number, []) if token.start[1] < limit < token.end[1]
            ]
            if crossing and depth_at[crossing[0].start] > 0:
                replaced = split_string(crossing[0], line, limit)
            elif (
                crossing
                and BARE.match(line[: crossing[0].start[1]])
                and not line[crossing[0].end[1] :].strip()
            ):
                # `NAME = "..."` or `return "..."`: in parentheses, the string can be split
                token = crossing[0]
                inner = " " * (len(indent) + 4) + token.string
                split = split_string(
                    token._replace(start=(number, len(inner) - len(token.string))), inner, limit
                )
                if split is not None:
                    replaced = line[: token.start[1]] + "(\n" + split + "\n" + indent + ")"
        if replaced is None:
            left.append(number)
            out.append(raw)
        else:
            out.append(replaced + newline)
    return "".join(out), left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a change")
    options = parser.parse_args()
    files: list[Path] = []
    for path in options.paths:
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    changed = 0
    for path in files:
        original = path.read_text(encoding="utf-8")
        # a split line may still be too long: a few rounds take a long literal apart
        text, left = wrap_source(original, options.limit)
        for _ in range(6):
            again, left = wrap_source(text, options.limit)
            if again == text:
                break
            text = again
        if text != original:
            changed += 1
            if not options.check:
                path.write_text(text, encoding="utf-8")
        for number in left:
            print(f"{path}:{number}: left over {options.limit} characters", file=sys.stderr)
    print(f"{changed} file(s) {'would change' if options.check else 'changed'}", file=sys.stderr)
    return 1 if options.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
