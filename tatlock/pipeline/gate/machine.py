"""This computer's report (``get_system_info``) against what an answer says of it: a size, a
share or a core count the report does not give, read by what its clause names ("23.4 GiB of
memory free" is memory that is free, "out of 98.3 GiB" a total, "eight physical cores" physical
ones), a bound said in words ("under 40%"), an operating system it is not, a temperature or fans
it has no sensor for.
"""

from __future__ import annotations

from tatlock.pipeline.gate import readings
from tatlock.pipeline.gate.brief import Finding
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

MACHINE = Rulebook(
    "gate.machine",
    [
        Rule(
            "machine.size",
            "size",
            r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:gi?b|gigabytes?|gigs?)\b",
            ("16 GB of RAM", "7.7 GiB"),
            ("16 cores",),
        ),
        Rule(
            "machine.percent",
            "percent",
            r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:%|per\s*cent|percent)",
            ("24% used", "40 per cent"),
            ("24 people",),
        ),
        Rule(
            "machine.heat",
            "heat",
            r"\b\d+(?:\.\d+)?\s*(?:°\s*[cf]?|degrees)|\b(?:cpu|processor|chip|system|cooling)\s+"
            r"(?:fans?|temperature|temp)\b|\bfans?\s+(?:is|are|spin\w*|run\w*|speed|at\s+\d)",
            ("the CPU is a comfortable 48 °C", "the fans are quiet", "CPU temperature is fine"),
            ("a fan of cricket", "16 GB of memory"),
        ),
        Rule(
            "machine.says_memory",
            "says_memory",
            r"\b(?:memory|ram)\b",
            ("23.4 GiB of memory free",),
            ("a memorable day",),
        ),
        Rule(
            "machine.says_disk",
            "says_disk",
            r"\b(?:disk|storage|drive|ssd|space)\b",
            ("98.3 GiB of disk",),
            ("diskette",),
        ),
        Rule(
            "machine.says_free",
            "says_free",
            r"\b(?:free|available|left|spare|empty|unused)\b",
            ("9 GiB free",),
            ("freedom",),
        ),
        Rule(
            "machine.out_of",
            "out_of",
            r"\b(?:out\s+of|of|from|total(?:\s+of)?|in\s+all)\s*$",
            ("23.4 GiB free out of ",),
            ("23.4 GiB free ",),
        ),
        Rule(
            "machine.says_used",
            "says_used",
            r"\b(?:used|full|in\s+use|busy|taken|occupied)\b",
            ("24% used",),
            ("useful",),
        ),
        # a size said as the whole ("Your disk is 120.3 GiB", "the drive's 476 GB"): the total, not
        # what
        # is free
        Rule(
            "machine.size_is",
            "size_is",
            r"\b(?:disk|drive|ssd|storage|memory|ram)(?:\s+is|'s|\s+has\s+a\s+(?:size|capacity)\s+of)\s+"
            r"(?:about\s+|around\s+|roughly\s+|some\s+)?$",
            ("Your disk is ", "the drive's about "),
            ("Your disk has ", "a memory of "),
        ),
        Rule(
            "machine.cores",
            "cores",
            r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|twenty|thirty-two)\s+"
            r"(physical|logical|virtual)?\s*(?:cores?|processors?|cpus?|threads?)\b(?:[^.!?]{0,20}?\b(physical|logical))?",
            ("Eight physical cores, sir", "16 threads", "four logical processors"),
            ("a core belief",),
        ),
        Rule(
            "machine.ones",
            "ones",
            r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)\s+"
            r"(physical|logical)\s+ones\b",
            ("four logical ones",),
            ("logical ones",),
        ),
        Rule(
            "machine.approx",
            "approx",
            r"\b(?:under|below|less\s+than|fewer\s+than|not\s+quite|over|above|more\s+than|"
            r"at\s+least|about|around|roughly|nearly|almost|approximately|some|close\s+to|just\s+(?:over|under))\s*$",
            ("memory is under ", "about "),
            ("memory is ",),
        ),
        Rule(
            "machine.os_name",
            "os",
            r"\b(?:Windows|mac\s*OS|MacOS|OS\s+X|Ubuntu|Debian|Fedora|Mint|CentOS|Red\s+Hat|"
            r"Chrome\s*OS|Android|FreeBSD|Linux|linux)\b",
            ("You're running Windows 11", "Ubuntu 24.04"),
            ("the windows of the house",),
            flags=0,
        ),
        # a question about this computer's memory, disk or processor (only its report answers it)
        Rule(
            "machine.asks_this",
            "asks_this",
            r"\b(?:memory|ram|disk|storage|drive|space|cores?|cpus?|processors?)\b.{0,60}\b(?:(?:this|my|the|our)\s+"
            r"(?:system|computer|machine|laptop|pc|mac|box|desktop|server)|on\s+here|i(?:'ve|\s+have)(?:\s+got)?)\b|"
            r"\b(?:this|my)\s+(?:system|computer|machine|laptop|pc|mac|box|desktop)(?:'s|\s+has|\s+have)\b.{0,30}"
            r"\b(?:memory|ram|disk|storage|cores?|cpus?|processors?)\b|\bhow\s+much\s+(?:memory|ram|disk|storage|space)\b.{0,20}\b(?:do\s+i|have\s+i)\b",
            (
                "could you tell me the total amount of memory on this system?",
                "How many GB of RAM does this laptop have?",
                "how much disk space have I got",
            ),
            ("How much RAM does a typical laptop need?", "Is 8 GB of memory enough for gaming?"),
        ),
        Rule("machine.figure", "figure", r"\d", ("100000",), ("a lot",)),
    ],
)


def unreported(answer: str, question: str, found: list[Finding]) -> str | None:
    """A figure of this computer given with no report of it ("100000" to "the total amount of
    memory on this system?"): only ``get_system_info`` knows it."""
    if any(f.tool == "get_system_info" and f.status == "ok" for f in found):
        return None
    if _rule("asks_this").search(question) and _rule("figure").search(answer):
        return "a figure of this computer that no system report gave"
    return None


def _rule(label: str) -> Rule:
    return MACHINE.labelled(label)[0]


def _fits(said: float, given: list[float], before: str, close: float, spread: float = 0.0) -> bool:
    """Whether a figure said fits one given: within ``close`` (or a share ``spread`` of it), or on
    the right side of a bound said in words ("under 40%", "over 9 GB", "about 3%")."""
    word = _rule("approx").search(before)
    kind = word.group(0).lower() if word else ""
    for g in given:
        tol = max(close, abs(g) * spread)
        if kind.startswith(("under", "below", "less", "fewer", "not quite")) and g <= said + tol:
            return True
        if kind.startswith(("over", "above", "more", "at least")) and g >= said - tol:
            return True
        if abs(said - g) <= (2 * tol if kind else tol):
            return True
    return False


_CLAUSE_END = lazy(r"[.;!?]|,\s|\s(?:and|with|while|but)\s|\s[-–—]\s")


def _clause(text: str, start: int, end: int) -> str:
    """The clause around a span: from the last break before it to the next after it."""
    before = [m.end() for m in _CLAUSE_END.finditer(text, 0, start)]
    after = _CLAUSE_END.search(text, end)
    return text[before[-1] if before else 0 : after.start() if after else len(text)]


def _labelled_sizes(answer: str, start: int, end: int, f: Finding) -> list[float] | None:
    """The report's sizes a size said can be, by what its clause names (memory or disk, free or
    total), or None when it names neither."""
    clause = _clause(answer, start, end).lower()
    data = f.data if isinstance(f.data, dict) else {}
    part = (
        "memory"
        if _rule("says_memory").search(clause)
        else "disk"
        if _rule("says_disk").search(clause)
        else None
    )
    # "23.4 GiB free out of 98.3 GiB"
    total = bool(_rule("out_of").search(answer[max(0, start - 14) : start]))
    free = bool(_rule("says_free").search(clause)) and not total
    # "Your disk is 120.3 GiB": the whole of it, unless the clause says free or used
    total = total or (
        not free
        and not _rule("says_used").search(clause)
        and bool(_rule("size_is").search(answer[max(0, start - 40) : start]))
    )
    # "You've used 31.9 GiB of 238.4": what is used is the total less what is free
    used = not free and not total and bool(_rule("says_used").search(clause))
    if part is None and not free and not used:
        return None
    out = []
    for name in (part,) if part else ("memory", "disk"):
        block = data.get(name)
        if used and isinstance(block, dict):
            whole, left = block.get("total_gib"), block.get("free_gib", block.get("available_gib"))
            if isinstance(whole, (int, float)) and isinstance(left, (int, float)):
                out.append(float(whole) - float(left))
            continue
        for key, value in block.items() if isinstance(block, dict) else ():
            wanted = (
                key.startswith("total")
                if total
                else key.startswith(("free", "avail"))
                if free
                else True
            )
            if isinstance(value, (int, float)) and key.endswith("_gib") and wanted:
                out.append(float(value))
    return out


def not_in_report(answer: str, f: Finding, question: str = "") -> str | None:
    """A size, a share or an operating system this computer's report does not give: "16 GB of
    RAM" when it says 31.2 GiB, "24% used" when it says 76.2% (within rounding; a share may be
    the rest), "Windows 11" on Linux."""
    heat = _rule("heat").search(answer)
    if heat:  # "the CPU is a comfortable 48 °C": the report gives no temperature or fans
        return f"{heat.group(0)!r}: the system report gives no temperature or fans"
    data = f.data if isinstance(f.data, dict) else {}
    blocks = [b for b in (data.get("memory"), data.get("disk")) if isinstance(b, dict)]
    sizes = readings.numbers(f, "sizes") + [  # what is used: the total less what is free
        float(b["total_gib"]) - float(b.get("free_gib", b.get("available_gib")))  # type: ignore[arg-type]
        for b in blocks
        if isinstance(b.get("total_gib"), (int, float))
        and isinstance(b.get("free_gib", b.get("available_gib")), (int, float))
    ]
    for m in _rule("size").regex.finditer(answer):
        said = float(m.group(1))
        fields = _labelled_sizes(answer, m.start(), m.end(), f)
        if fields is not None and not _fits(
            said,
            fields + [s * 1.074 for s in fields],
            answer[max(0, m.start() - 14) : m.start()],
            0.6,
            0.1,
        ):
            return f"the size {m.group(0)!r} is not the report's for what it names"
        # GiB or GB, rounded either way: within a tenth (or 0.6 for small sizes), or GB = GiB x
        # 1.074
        if not _fits(
            said,
            sizes + [s * 1.074 for s in sizes],
            answer[max(0, m.start() - 14) : m.start()],
            0.6,
            0.1,
        ):
            return f"the size {m.group(0)!r} is not in the system report"
    shares = readings.numbers(f, "percents")
    for m in _rule("percent").regex.finditer(answer):
        said = float(m.group(1))
        clause = _clause(answer, m.start(), m.end()).lower()
        used = [s for s in readings.numbers(f, "percents")]
        if (
            _rule("says_used").search(clause)
            and not _rule("says_free").search(clause)
            and not _fits(said, used, answer[max(0, m.start() - 14) : m.start()], 1.5)
        ):
            return f"the share {m.group(0)!r} used is not in the system report"
        # a share said free is the rest of a share used ("75% still available" of a disk 74.7%
        # used is the used share taken for the free one)
        if (
            _rule("says_free").search(clause)
            and not _rule("says_used").search(clause)
            and used
            and not _fits(
                said, [100 - s for s in used], answer[max(0, m.start() - 14) : m.start()], 1.5
            )
        ):
            return f"the share {m.group(0)!r} free is not the rest of the share used in the report"
        if not _fits(
            said,
            shares + [100 - s for s in shares],
            answer[max(0, m.start() - 14) : m.start()],
            1.5,
        ):
            return f"the share {m.group(0)!r} is not in the system report"
        # a share with no word of its own answers the question's ("What percentage of my disk is
        # used?" "25.3
        # percent": the free share given as the used one)
        if (
            not _rule("says_used").search(clause)
            and not _rule("says_free").search(clause)
            and _rule("says_used").search(question)
            and not _rule("says_free").search(question)
            and not _fits(said, used, answer[max(0, m.start() - 14) : m.start()], 1.5)
        ):
            return f"the share {m.group(0)!r} is not the share used that the report gives"
    wrong = _cores_wrong(answer, f)
    if wrong:
        return wrong
    report = " ".join(str(v) for v in readings.read(f, "os")).lower()
    for m in _rule("os").regex.finditer(answer) if report else ():
        if m.group(0).lower().split()[0] not in report:
            return (
                f"the system {m.group(0)!r} is not the report's "
                f"({report.split()[0] if report else 'none'})"
            )
    return None


_COUNT_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "sixteen": 16,
    "twenty": 20,
    "thirty-two": 32,
}


def _cores_wrong(answer: str, f: Finding) -> str | None:
    """Cores counted by their label: physical ones are ``physical_cores``, logical ones (threads)
    ``count``; cores with no label may be either."""
    data = f.data.get("cpu") if isinstance(f.data, dict) else None
    if not isinstance(data, dict):
        return None
    physical, logical = data.get("physical_cores"), data.get("count")
    said = [
        (m.group(1), (m.group(2) or "").lower(), m.group(0))
        for m in _rule("cores").regex.finditer(answer)
    ]
    said += [
        (m.group(1), m.group(2).lower(), m.group(0)) for m in _rule("ones").regex.finditer(answer)
    ]
    for number, label, text in said:
        n = int(number) if number.isdigit() else _COUNT_WORDS.get(number.lower())
        if n is None:
            continue
        if "thread" in text.lower() or label in ("logical", "virtual"):
            allowed = {logical}
        elif label == "physical":
            allowed = {physical}
        else:
            allowed = {physical, logical}
        if None not in allowed and n not in allowed:
            return (
                f"{text!r}: the report gives {physical} physical cores and {logical} logical ones"
            )
    return None
