"""Messages a rule must read in linear time: long runs of one kind of character, and each of the
rule's own examples said over and over. A pattern that backtracks over such a run (``\\d+`` with no
start, ``[^.!?]*`` from every question word) takes hours on a megabyte, and Python's regular
expressions hold the GIL while they run, so the whole of tatlock stops with it."""

from __future__ import annotations

import random
import string


def runs(length: int) -> dict[str, str]:
    rng = random.Random(1)
    return {
        "spaces": " " * length,
        "newlines": "\n" * length,
        "blank lines": " \n" * (length // 2),
        "tabs": " \t" * (length // 2),
        "digits": "".join(rng.choice(string.digits) for _ in range(length)),
        "base64": "".join(
            rng.choice(string.ascii_letters + string.digits + "+/") for _ in range(length)
        ),
        "a a": "a " * (length // 2),
        "1.1.": "1." * (length // 2),
        "a, a,": "a, " * (length // 3),
        "a-a-": "a-" * (length // 2),
        "'a'a": "'a" * (length // 2),
        "- - ": "- " * (length // 2),
        "####": "#" * length,
        "****": "*" * length,
        ": : ": ": " * (length // 2),
        "words": " ".join(
            rng.choice(
                [
                    "the",
                    "a",
                    "my",
                    "what",
                    "is",
                    "I",
                    "you",
                    "1",
                    "Harriet",
                    "and",
                    "remember",
                    "how",
                    "do",
                    "in",
                    "Tom",
                    "New",
                    "York",
                ]
            )
            for _ in range(length // 4)
        ),
    }


def said_over(example: str, length: int) -> list[str]:
    """The example over and over, whole and without its last word (so it never completes)."""
    out = [(example + " ") * (length // (len(example) + 1) + 1)]
    head = example.split()[:-1]
    if head:
        out.append((" ".join(head) + " ") * (length // (len(example) + 1) + 1))
    return out
