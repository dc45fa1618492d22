"""Issue 20's numbers about the code itself, so they can be re-measured after any merge.

Prints, for `tatlock/` (and the long-line share for `tests/` and `scripts/` too): lines over
100 characters, the share of function-local names that are a single letter, `Any` per 1,000
lines, module names used in more than one package, the longest functions and the most branching
ones (McCabe-style: one plus each branch point), and `noqa` comments.

    .venv/bin/python scripts/code_stats.py [--top 8] [--json]

Standard library only (ast), so it runs on any checkout without the project installed.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 100
# names a reader never has to decode: the throwaway and the loop conventions of the language
PLAIN_SINGLE = {"_"}
BRANCHES = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.ExceptHandler,
    ast.With,
    ast.AsyncWith,
    ast.IfExp,
    ast.comprehension,
    ast.Assert,
    ast.match_case,
)


@dataclass
class Tree:
    """What one folder adds up to."""

    files: int = 0
    lines: int = 0
    long_lines: int = 0
    locals_total: int = 0
    locals_single: int = 0
    single_examples: Counter[str] = field(default_factory=Counter)
    any_count: int = 0
    noqa: int = 0
    functions: list[tuple[int, int, str]] = field(default_factory=list)  # (lines, branches, name)


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if ".venv" not in path.parts)


def bound_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names bound inside one function (its parameters and locals), not in nested functions."""
    names: set[str] = set()
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        names.add(argument.arg)
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            names.add(extra.arg)
    names -= {"self", "cls"}
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue  # counted as a function of its own (lambdas: their parameters are inline)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        pending.extend(ast.iter_child_nodes(node))
    return names


def branch_count(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    count = 1
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, BRANCHES):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        pending.extend(ast.iter_child_nodes(node))
    return count


def measure(folder: Path) -> Tree:
    tree = Tree()
    for path in python_files(folder):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree.files += 1
        tree.lines += len(lines)
        tree.long_lines += sum(len(line) > LIMIT for line in lines)
        tree.noqa += sum("# noqa" in line for line in lines)
        module = ast.parse(text, filename=str(path))
        tree.any_count += sum(
            1
            for node in ast.walk(module)
            if (isinstance(node, ast.Name) and node.id == "Any")
            or (isinstance(node, ast.Attribute) and node.attr == "Any")
        )
        # string annotations ("dict[str, Any]") are not Name nodes: count them from the text
        tree.any_count += sum(
            len(re.findall(r"\bAny\b", node.value))
            for node in ast.walk(module)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"[\w\[\], .|]*\bAny\b[\w\[\], .|]*", node.value)
        )
        relative = path.relative_to(ROOT)
        for node in ast.walk(module):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            names = bound_names(node)
            tree.locals_total += len(names)
            singles = [name for name in names if len(name) == 1 and name not in PLAIN_SINGLE]
            tree.locals_single += len(singles)
            tree.single_examples.update(singles)
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            tree.functions.append((length, branch_count(node), f"{relative}:{node.name}"))
    return tree


def repeated_modules(folder: Path) -> dict[str, list[str]]:
    places: dict[str, list[str]] = defaultdict(list)
    for path in python_files(folder):
        if path.name == "__init__.py":
            continue
        places[path.stem].append(str(path.parent.relative_to(ROOT)))
    return {name: sorted(where) for name, where in sorted(places.items()) if len(where) > 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=8, help="how many functions to list")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options = parser.parse_args()
    report: dict[str, object] = {}
    for name in ("tatlock", "tests", "scripts"):
        tree = measure(ROOT / name)
        entry: dict[str, object] = {
            "files": tree.files,
            "lines": tree.lines,
            f"lines_over_{LIMIT}": tree.long_lines,
            f"lines_over_{LIMIT}_pct": round(100 * tree.long_lines / max(tree.lines, 1), 2),
            "local_names": tree.locals_total,
            "single_letter_locals": tree.locals_single,
            "single_letter_pct": round(100 * tree.locals_single / max(tree.locals_total, 1), 2),
            "any_per_1000_lines": round(1000 * tree.any_count / max(tree.lines, 1), 2),
            "noqa_comments": tree.noqa,
        }
        if name == "tatlock":
            entry["any_count"] = tree.any_count
            entry["single_letter_most_used"] = tree.single_examples.most_common(8)
            entry["longest_functions"] = sorted(tree.functions, reverse=True)[: options.top]
            entry["most_branching"] = sorted(
                tree.functions, key=lambda item: (item[1], item[0]), reverse=True
            )[: options.top]
            entry["functions_over_100_lines"] = sum(item[0] > 100 for item in tree.functions)
            repeated = repeated_modules(ROOT / name)
            entry["module_names_repeated"] = len(repeated)
            entry["repeated"] = repeated
        report[name] = entry
    if options.json:
        print(json.dumps(report, indent=1))
        return
    for name, entry in report.items():
        assert isinstance(entry, dict)
        print(f"== {name}/")
        for key, value in entry.items():
            if isinstance(value, list) and value and isinstance(value[0], tuple | list):
                print(f"  {key}:")
                for item in value:
                    print("    " + "  ".join(str(part) for part in item))
            elif isinstance(value, dict):
                print(f"  {key}:")
                for module, where in value.items():
                    print(f"    {module}: {', '.join(where)}")
            else:
                print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
