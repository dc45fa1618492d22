"""An almanac the gate holds answers to, table by table: who invented or first did a thing, the
year of a famous event and the day of some, a country's currency and its language, and a capital
named in passing ("Peru's capital is Cusco"). Each table is asked by one rule whose pattern is built from the
table's keys, so a new row is data, not a new expression; its examples are in the rule.

An answer to such a question must name what the table holds (any of its spellings); one that
says it does not know is left to the other checks.
"""

from __future__ import annotations

import re

from tatlock.pipeline.gate.reference import CAPITALS, _plain, _said
from tatlock.pipeline.rulebook import Rule, Rulebook

# who invented, discovered or first did it -> the words (any one) that name them
FIRSTS: dict[str, tuple[str, ...]] = {
    "the light bulb": ("edison", "swan"),
    "the lightbulb": ("edison", "swan"),
    "the television": ("baird", "farnsworth"),
    "the radio": ("marconi", "tesla"),
    "the printing press": ("gutenberg",),
    "the aeroplane": ("wright",),
    "the airplane": ("wright",),
    "the steam engine": ("watt", "newcomen", "savery"),
    "the jet engine": ("whittle", "ohain"),
    "the telephone": ("bell",),
    "the world wide web": ("berners",),
    "the web": ("berners",),
    "the smallpox vaccine": ("jenner",),
    "vaccination": ("jenner",),
    "dynamite": ("nobel",),
    "the periodic table": ("mendeleev", "mendeleyev"),
    "x-rays": ("röntgen", "roentgen", "rontgen"),
    "penicillin": ("fleming",),
    "gravity": ("newton",),
    "the theory of evolution": ("darwin", "wallace"),
    "evolution": ("darwin", "wallace"),
    "the theory of relativity": ("einstein",),
    "relativity": ("einstein",),
    "the structure of dna": ("watson", "crick", "franklin"),
    "dna": ("watson", "crick", "franklin", "miescher"),
    "radium": ("curie",),
    "the telescope": ("lippershey", "galileo"),
    "the computer": ("babbage", "turing"),
    "the pendulum clock": ("huygens",),
    "the hovercraft": ("cockerell",),
    "the cat's eye": ("shaw",),
}
# the first person to ... -> who
FIRST_PEOPLE: dict[str, tuple[str, ...]] = {
    "walk on the moon": ("armstrong",),
    "set foot on the moon": ("armstrong",),
    "on the moon": ("armstrong",),
    "land on the moon": ("armstrong",),
    "fly solo across the atlantic": ("lindbergh",),
    "swim the channel": ("webb",),
    "run a four-minute mile": ("bannister",),
    "run a mile in under four minutes": ("bannister",),
    "reach the south pole": ("amundsen",),
    "reach the north pole": ("peary", "henson", "cook", "amundsen", "byrd"),
    "circumnavigate the globe": ("magellan", "elcano"),
    "sail around the world": ("magellan", "elcano"),
    "go to space": ("gagarin",),
    "go into space": ("gagarin",),
    "man in space": ("gagarin",),
    "person in space": ("gagarin",),
    "woman in space": ("tereshkova",),
    "climb everest": ("hillary", "tenzing"),
    "climb mount everest": ("hillary", "tenzing"),
    "woman to win a nobel prize": ("curie",),
    "female prime minister": ("thatcher",),
    "woman prime minister": ("thatcher",),
    "president of the united states": ("washington",),
    "us president": ("washington",),
    "american president": ("washington",),
}
# a famous event -> its year
YEARS: dict[str, str] = {
    "the french revolution": "1789",
    "the magna carta": "1215",
    "magna carta": "1215",
    "the spanish armada": "1588",
    "the battle of waterloo": "1815",
    "waterloo": "1815",
    "the battle of trafalgar": "1805",
    "trafalgar": "1805",
    "the gunpowder plot": "1605",
    "d-day": "1944",
    "pearl harbor": "1941",
    "pearl harbour": "1941",
    "chernobyl": "1986",
    "the chernobyl disaster": "1986",
    "9/11": "2001",
    "the september 11 attacks": "2001",
    "the nhs": "1948",
    "the hindenburg disaster": "1937",
    "the battle of britain": "1940",
    "the moon landing": "1969",
    "the first moon landing": "1969",
    "the battle of hastings": "1066",
    "the great fire of london": "1666",
    "the russian revolution": "1917",
    "the wall street crash": "1929",
    "the fall of the berlin wall": "1989",
    "the brexit referendum": "2016",
    "the coronation of queen elizabeth ii": "1953",
    # more of the events people ask the year of (one year each: a war or a wall that was built
    # and fell has two, and is left out)
    "the battle of the somme": "1916",
    "the battle of bosworth": "1485",
    "the battle of agincourt": "1415",
    "the battle of stamford bridge": "1066",
    "the battle of culloden": "1746",
    "the battle of gettysburg": "1863",
    "the american declaration of independence": "1776",
    "the declaration of independence": "1776",
    "the sinking of the titanic": "1912",
    "the titanic sink": "1912",
    "the great plague of london": "1665",
    "the act of union": "1707",
    "the abolition of the slave trade": "1807",
    "the armistice": "1918",
    "ve day": "1945",
    "the assassination of jfk": "1963",
    "the assassination of president kennedy": "1963",
    "the first world cup": "1930",
    "england win the world cup": "1966",
    "england won the world cup": "1966",
    "decimalisation": "1971",
    "the general strike": "1926",
    "the suez crisis": "1956",
    "the cuban missile crisis": "1962",
    "the first man in space": "1961",
    "the great exhibition": "1851",
    "the dissolution of the monasteries": "1536",
    "the restoration": "1660",
    "the glorious revolution": "1688",
    "the boston tea party": "1773",
    "the storming of the bastille": "1789",
}
# a famous event -> the day and month it fell on (asked "when exactly", "what date"); one that
# spans a night or is kept on different days (the moon landing, VJ Day) is left out
DATES: dict[str, tuple[int, int]] = {
    "the battle of hastings": (14, 10),
    "the battle of waterloo": (18, 6),
    "the battle of trafalgar": (21, 10),
    "the battle of stamford bridge": (25, 9),
    "the battle of bosworth": (22, 8),
    "the battle of agincourt": (25, 10),
    "d-day": (6, 6),
    "the d-day landings": (6, 6),
    "pearl harbor": (7, 12),
    "pearl harbour": (7, 12),
    "the attack on pearl harbor": (7, 12),
    "the armistice": (11, 11),
    "ve day": (8, 5),
    "the fall of the berlin wall": (9, 11),
    "the assassination of jfk": (22, 11),
    "the assassination of president kennedy": (22, 11),
    "the storming of the bastille": (14, 7),
    "the gunpowder plot": (5, 11),
    "the great fire of london": (2, 9),
    "the signing of the magna carta": (15, 6),
    "the magna carta": (15, 6),
    "the declaration of independence": (4, 7),
    "the american declaration of independence": (4, 7),
    "the september 11 attacks": (11, 9),
    "the chernobyl disaster": (26, 4),
    "the brexit referendum": (23, 6),
    "decimal day": (15, 2),
    "the coronation of queen elizabeth ii": (2, 6),
    "the coronation of king charles iii": (6, 5),
}
# a country -> its currency (any of the words)
CURRENCIES: dict[str, tuple[str, ...]] = {
    "japan": ("yen",),
    "the uk": ("pound", "sterling"),
    "britain": ("pound", "sterling"),
    "england": ("pound", "sterling"),
    "scotland": ("pound", "sterling"),
    "wales": ("pound", "sterling"),
    "the us": ("dollar",),
    "the usa": ("dollar",),
    "america": ("dollar",),
    "the united states": ("dollar",),
    "switzerland": ("franc",),
    "china": ("yuan", "renminbi"),
    "india": ("rupee",),
    "russia": ("rouble", "ruble"),
    "sweden": ("krona", "kronor"),
    "denmark": ("krone", "kroner"),
    "norway": ("krone", "kroner"),
    "poland": ("złoty", "zloty"),
    "turkey": ("lira",),
    "mexico": ("peso",),
    "brazil": ("real", "reais"),
    "south africa": ("rand",),
    "australia": ("dollar",),
    "canada": ("dollar",),
    "new zealand": ("dollar",),
    "south korea": ("won",),
    "korea": ("won",),
    "israel": ("shekel",),
    "thailand": ("baht",),
    "vietnam": ("dong",),
    "hungary": ("forint",),
    "czechia": ("koruna", "crown"),
    "the czech republic": ("koruna", "crown"),
    "iceland": ("króna", "krona"),
    **{
        c: ("euro",)
        for c in (
            "france",
            "germany",
            "spain",
            "italy",
            "ireland",
            "the netherlands",
            "holland",
            "portugal",
            "greece",
            "austria",
            "belgium",
            "finland",
            "croatia",
            "estonia",
            "latvia",
            "lithuania",
            "luxembourg",
            "malta",
            "cyprus",
            "slovakia",
            "slovenia",
        )
    },
}
# a country -> the language(s) any right answer names
LANGUAGES: dict[str, tuple[str, ...]] = {
    "brazil": ("portuguese",),
    "portugal": ("portuguese",),
    "austria": ("german",),
    "germany": ("german",),
    "mexico": ("spanish",),
    "argentina": ("spanish",),
    "colombia": ("spanish",),
    "peru": ("spanish",),
    "chile": ("spanish",),
    "spain": ("spanish", "castilian"),
    "egypt": ("arabic",),
    "the netherlands": ("dutch",),
    "holland": ("dutch",),
    "iran": ("persian", "farsi"),
    "israel": ("hebrew",),
    "japan": ("japanese",),
    "china": ("mandarin", "chinese"),
    "france": ("french",),
    "italy": ("italian",),
    "greece": ("greek",),
    "sweden": ("swedish",),
    "norway": ("norwegian",),
    "denmark": ("danish",),
    "finland": ("finnish", "swedish"),
    "poland": ("polish",),
    "russia": ("russian",),
    "turkey": ("turkish",),
    "switzerland": ("german", "french"),
    "belgium": ("dutch", "flemish", "french"),
    "canada": ("english", "french"),
    "india": ("hindi", "english"),
    "south korea": ("korean",),
    "vietnam": ("vietnamese",),
    "thailand": ("thai",),
    "hungary": ("hungarian",),
}


def _alts(keys: object) -> str:
    # longest first, ties by text: a set's order differs per process, and the pattern must not
    # (the compiled-pattern cache is keyed by the pattern's source)
    return "|".join(
        sorted(
            (re.escape(str(k)).replace(r"\ ", r"\s+").replace("'", "['’]?") for k in keys),  # type: ignore[attr-defined]
            key=lambda alt: (-len(alt), alt),
        )
    )


_NO_THE = lambda table: {k.removeprefix("the ") for k in table}  # noqa: E731 - "who invented penicillin", "the telephone"

ALMANAC = Rulebook(
    "gate.almanac",
    [
        Rule(
            "almanac.invented",
            "invented",
            r"\bwho\s+(?:first\s+)?(?:invented|discovered|came\s+up\s+with|created|developed|built)\s+(?:the\s+)?("
            + _alts(_NO_THE(FIRSTS))
            + r")\b",
            (
                "Who invented the light bulb?",
                "who discovered penicillin",
                "Who came up with the theory of evolution?",
            ),
            ("Who invented the wheel?", "Where was penicillin discovered?"),
        ),
        Rule(
            "almanac.first",
            "first",
            r"\bwho\s+(?:was|were)\s+the\s+first\s+(?:person\s+|man\s+|woman\s+|human\s+|people\s+)?(?:to\s+)?("
            + _alts(FIRST_PEOPLE)
            + r")\b",
            (
                "Who was the first person to walk on the moon?",
                "who was the first woman in space",
                "Who was the first female prime minister?",
                "Who was the first woman to win a Nobel Prize?",
            ),
            ("Who was the first to arrive?",),
        ),
        Rule(
            "almanac.year",
            "year",
            r"\b(?:when|(?:what|which)\s+year|in\s+(?:what|which)\s+year)\b[^?]{0,25}?\b("
            + _alts(YEARS)
            + r")\b",
            (
                "When was the Battle of Waterloo?",
                "What year did the French Revolution start?",
                "when was D-Day",
            ),
            ("Who won at Waterloo?",),
        ),
        Rule(
            "almanac.date",
            "date",
            r"\b(?:when|(?:what|which)\s+(?:date|day)|on\s+(?:what|which)\s+(?:date|day))\b[^?]{0,25}?\b("
            + _alts(DATES)
            + r")\b",
            (
                "when exactly was the battle of hastings?",
                "What date was D-Day?",
                "On what date did the storming of the Bastille happen?",
            ),
            ("Who won the battle of Hastings?",),
        ),
        Rule(
            "almanac.currency",
            "currency",
            r"\b(?:currency|money)\b[^?]{0,25}?\b(?:in|of|does|do|is)\s+(?:they\s+(?:use\s+)?in\s+)?("
            + _alts(CURRENCIES)
            + r")\b|"
            r"\b(" + _alts(CURRENCIES) + r")(?:'s|s')\s+currency\b",
            (
                "What currency does Japan use?",
                "what's the currency of Switzerland",
                "What money do they use in Poland?",
            ),
            ("How do I change currency?",),
        ),
        Rule(
            "almanac.language",
            "language",
            r"\blanguages?\b[^?]{0,30}?\b(?:in|of|does|do)\s+(" + _alts(LANGUAGES) + r")\b|"
            r"\bwhat\s+do\s+(?:they|people)\s+speak\s+in\s+(" + _alts(LANGUAGES) + r")\b",
            (
                "What language is spoken in Austria?",
                "what do they speak in Brazil",
                "Which language do people speak in Iran?",
            ),
            ("What language is this?",),
        ),
        # a capital named in passing ("Peru's capital is Cusco", "Lima, the capital of Peru")
        Rule(
            "almanac.capital_said",
            "capital_said",
            r"\bcapital\s+(?:city\s+)?of\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})\s+(?:is|was)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})|"
            r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})(?:'s|’s)\s+capital(?:\s+city)?\s+(?:is|was)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})",
            ("the capital of Chile is Buenos Aires", "Peru's capital is Cusco, sir"),
            ("the capital is large",),
            flags=0,
        ),
        Rule(
            "almanac.unsure",
            "unsure",
            r"\b(?:not\s+(?:sure|certain)|don't\s+know|do\s+not\s+know|no\s+idea|unsure|"
            r"cannot\s+say|can't\s+say)\b",
            ("I'm not sure, sir.",),
            ("Edison, sir.",),
        ),
    ],
)


_MONTHS = tuple(
    "january february march april may june july august september october november december".split()
)


def _day_months(text: str) -> set[tuple[int, int]]:
    """The (day, month) dates a text names ("the 25th of September", "October 14")."""
    low = _plain(text).replace(",", " ").replace(".", " ").split()
    out = set()
    for i, w in enumerate(low):
        if w in _MONTHS:
            month = _MONTHS.index(w) + 1
            for near in (
                low[i - 1] if i else "",
                low[i - 2] if i > 1 and low[i - 1] == "of" else "",
                low[i + 1] if i + 1 < len(low) else "",
            ):
                digits = near.rstrip("stndrh")
                if digits.isdigit() and 1 <= int(digits) <= 31:
                    out.add((int(digits), month))
    return out


def _key(table: dict, said: str) -> str | None:
    key = " ".join(_plain(said).replace("’", "'").split())
    return next((k for k in (key, f"the {key}", key.removeprefix("the ")) if k in table), None)


def _names(answer: str, right: tuple[str, ...]) -> bool:
    low = _plain(answer)
    return any(_plain(r) in low for r in right)


def wrong(answer: str, question: str) -> str | None:
    """Why an answer to a question the almanac holds is wrong, or None."""
    for said in ALMANAC.labelled("capital_said")[0].regex.finditer(answer):
        country, city = (
            (said.group(1), said.group(2)) if said.group(1) else (said.group(3), said.group(4))
        )
        capitals = CAPITALS.get(_plain(country))
        if capitals and not any(_said(c.replace("-", " "), city) for c in capitals):
            return f"the capital of {country} is {capitals[0]}, not {city}"
    if ALMANAC.first(answer, "unsure") or re.match(
        r"\W*(?:is|are|was|were|isn't|wasn't|do|does|did|can|could|has|have"
        r"|had)\b",
        question,
        re.I,
    ):
        return None  # "Did Edison invent the light bulb?" names its answer: "Yes, sir." is one
    for label, table in (
        ("invented", FIRSTS),
        ("first", FIRST_PEOPLE),
        ("currency", CURRENCIES),
        ("language", LANGUAGES),
    ):
        m = ALMANAC.labelled(label)[0].search(question)
        key = _key(table, next(g for g in m.groups() if g)) if m else None
        if key and not _names(answer, table[key]) and not _names(question, table[key]):
            return f"{label}: {key} is {table[key][0].title()}"
    m = ALMANAC.labelled("date")[0].search(question)
    key = _key(DATES, m.group(1)) if m else None
    if key:
        day, month = DATES[key]
        days = _day_months(answer)
        if days and (day, month) not in days:
            return f"{key} was on {day} {_MONTHS[month - 1].title()}"
    m = ALMANAC.labelled("year")[0].search(question)
    key = _key(YEARS, m.group(1)) if m else None
    years = re.findall(r"\b1\d{3}\b|\b20\d{2}\b", answer)
    if key and years and YEARS[key] not in years:
        return f"{key} was in {YEARS[key]}"
    return None
