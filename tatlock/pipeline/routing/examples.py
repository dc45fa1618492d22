"""Labelled messages: the ``LABELS | ID | MESSAGE`` files the route classifier is trained from
(``tests/data/routes/learn/``) and the sets it is measured on (``tests/data/routes/heldout/``,
and any file given to ``scripts/bench routes --set``). They live in the repository, not in the
wheel: the product ships only the trained model (``classifier.bin``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY")
TOOLS = ("weather", "recall", "personal", "web", "system", "files")
LABELS = GUARDS + TOOLS
OTHER = "other"  # a further part answered from general knowledge (a guard's question is then MIXED)


@dataclass(frozen=True)
class Example:
    text: str
    labels: frozenset[str]  # from LABELS, plus "other"
    family: str  # the writer's id for the kind of message (its set and slug)
    source: str = ""  # the file it came from (the classifier's folds never split a file)


def read_examples(path: Path | str) -> list[Example]:
    """Examples from a file of ``LABELS | ID | MESSAGE`` lines (``#`` comments, ``-`` ordinary)."""
    path = Path(path)
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 2)]
        if len(parts) != 3 or not parts[2]:
            raise ValueError(f"{path}:{n}: expected 'LABELS | ID | MESSAGE'")
        labels = (
            frozenset() if parts[0] == "-" else frozenset(p.strip() for p in parts[0].split("+"))
        )
        unknown = labels - set(LABELS) - {OTHER}
        if unknown:
            raise ValueError(
                f"{path}:{n}: unknown label {', '.join(sorted(unknown))} (known: "
                f"{', '.join(LABELS)}, "
                f"{OTHER}, -)"
            )
        out.append(Example(parts[2], labels, parts[1], path.stem))
    return out


def read_folder(folder: Path | str) -> list[Example]:
    """Every ``routes_*.txt`` of a folder, in name order."""
    return [e for path in sorted(Path(folder).glob("routes_*.txt")) for e in read_examples(path)]


def digest(examples: list[Example]) -> str:
    """The labelled data as a digest (texts and labels, in order; comments and ids do not count):
    the shipped model records the digest it was trained on, so a test sees when it is stale."""
    import hashlib

    h = hashlib.sha256()
    for e in examples:
        h.update(f"{'+'.join(sorted(e.labels)) or '-'}|{e.text}\n".encode())
    return h.hexdigest()[:16]
