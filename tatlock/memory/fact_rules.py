"""The fact extractor's rule builders (what a rule keeps from a match) and the shapes its
patterns are made of; the table of rules is ``memory/fact_table.py``.

A rule matches inside one sentence (``memory/fact_extract.py`` splits the message, drops questions,
secrets and anything imagined first). Patterns are compiled case-insensitive; a rule that
needs a proper name checks the capital itself (``_named``), so "my sister is called Harriet"
keeps Harriet and "my sister is called back" keeps nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tatlock.memory import fact_words as W
from tatlock.memory.query import WEEKDAYS

MAX_VALUE = 120
# attributes that hold several values at once: a new one adds to them (unless it corrects one)
MULTI_WORDS = frozenset({"allergy", "condition", "languages"})


@dataclass(frozen=True)
class Heard:
    """One fact read from a message. ``about`` is relative to whoever wrote it: "" themselves,
    a lowercase relation ("sister", "dog") or a capitalised name ("Ellie")."""

    about: str
    attribute: str
    value: str
    rule: str
    topic: str = ""  # what a routine or a note is about: part of its key ("swim")
    correction: bool = False  # said as a change of something known ("actually", "not X any more")
    drop: str = ""  # a value this statement says is wrong or over ("sulfa drugs, not penicillin")


# -- shapes ------------------------------------------------------------------------------------

# rules are compiled case-insensitive: a capital that matters is asked for with (?-i:...)
UP = "(?-i:[A-ZÀ-Ý])"
NAME = r"(?-i:[A-ZÀ-Ý][a-zà-ÿ]+(?:[-'][A-ZÀ-Ý]?[a-zà-ÿ]+)?)"
PLACE = (
    rf"(?-i:(?:St\.? |Saint |Great |Little |North |South |East |West |New |Old |Upper |Lower "
    rf")?{NAME}"
    rf"(?:(?: |-)(?:upon|on|le|de|under|in|by|of|the)(?: |-){NAME}|[ -]{NAME}){{0,3}})"
)
MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
MONTH = rf"(?:{MONTHS}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?"
DAYNAMES = "|".join(WEEKDAYS)
DAY = rf"(?:{DAYNAMES}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
ORD = r"\d{1,2}(?:st|nd|rd|th)?(?!\d)"  # "March 2027" is a month and a year, not March 20
DATE = (
    rf"(?:(?:{DAY}),? )?(?:the )?(?:{ORD}(?: of)? {MONTH}(?:,? \d{{4}})?|{MONTH} (?:the "
    rf")?{ORD}(?:,? \d{{4}})?"
    rf"|{MONTH} \d{{4}}|(?:next|this) {DAY}\b|{DAY} the {ORD}|the {ORD}\b)"
)
TIME = r"(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}[:.]\d{2}|noon|midday)"
PROVIDERS = (
    r"dentist|doctor|doctor's|gp|hospital|vet|optician|hairdresser|barber|physio|nurse|clinic|surgery"
    r"|consultant|dental|eye test|smear "
    r"test|scan|mri|x-ray|check-up|checkup|hygienist|orthodontist"
)
# a date with its month ("the 3rd of June", "28 December"): a trip is not "Tesco on Monday"
DATE_M = rf"(?:the )?(?:{ORD}(?: of)? {MONTH}|{MONTH} (?:the )?{ORD})"
STAYS = (
    r"cottage|hotel|holiday|villa|caravan|lodge|cabin|chalet|apartment|airbnb|b&b|trip|break|week "
    r"away"
    r"|weekend away|holiday let|glamping|campsite|cruise"
)
RECUR = (
    rf"\bevery (?:other |single |second "
    rf")?(?:{DAY}|day|week|weekend|morning|evening|night|month|year"
    rf"|fortnight|\d+ (?:days|weeks|months))\b|\b(?:{DAYNAMES})s\b|\b(?:{DAYNAMES}) "
    rf"(?:mornings|evenings|"
    rf"nights|afternoons)\b"
    rf"|\beach {DAY}\b|\b(?:first|second|third|last|1st|2nd|3rd) {DAY} of (?:the|every|each) "
    rf"month\b"
    r"|\bnightly\b|\bfortnightly\b|\bon weekdays\b"
)

REL = "(?:" + "|".join(re.escape(w) for w in sorted(W.RELATIONS, key=len, reverse=True)) + ")"
PET = (
    "(?:"
    + "|".join(re.escape(w) for w in sorted({**W.PETS, **W.BREEDS}, key=len, reverse=True))
    + ")"
)
WHO = rf"(?:{REL}|{PET})"
MY = r"(?:my|our|me)"  # "me mum", in the north

# capitalised words that are not names
NOT_NAMES = frozenset(
    {
        *(m.capitalize() for m in MONTHS.split("|")),
        *(d.capitalize() for d in DAYNAMES.split("|")),
        "I",
        "Im",
        "She",
        "He",
        "They",
        "It",
        "We",
        "You",
        "The",
        "A",
        "An",
        "And",
        "But",
        "So",
        "Is",
        "Was",
        "Has",
        "Had",
        "Not",
        "Just",
        "Also",
        "Mr",
        "Mrs",
        "Ms",
        "Dr",
        "Christmas",
        "Easter",
        "Today",
        "Tomorrow",
        "Yesterday",
        "Tonight",
        "This",
        "That",
        "There",
        "Here",
        "Oh",
        "Ok",
        "Okay",
        "Lol",
        "Who",
        "Which",
        "Now",
        "Back",
        "Home",
        "Please",
        "Thanks",
        "Actually",
        "Called",
        "Named",
        "Still",
        "Again",
        "Too",
        "Away",
        "Out",
        "Off",
        "Up",
        "On",
        # what opens a sentence before a comma and is no one's name ("Sorry, my mum is calling")
        "Sorry",
        "Look",
        "Listen",
        "Well",
        "Yes",
        "No",
        "Yeah",
        "Nah",
        "Right",
        "Hey",
        "Hi",
        "Hello",
        "Morning",
        "Cheers",
        "Anyway",
        "Honestly",
        "Great",
        "Brilliant",
        "Lovely",
        "Wow",
        "Ugh",
        "God",
        "Bless",
        "Thank",
        "Fine",
        "Sure",
        *(w.capitalize() for w in W.NATIONALITIES),
        *(w.capitalize() for w in W.RELIGIONS),
    }
)

# a capitalised first word that does not begin a proper value
_NOT_PROPER = frozenset(
    {
        "I",
        "Im",
        "She",
        "He",
        "They",
        "It",
        "We",
        "You",
        "The",
        "A",
        "An",
        "And",
        "But",
        "So",
        "This",
        "That",
        "There",
        "Here",
        "Oh",
        "Ok",
        "Okay",
        "Lol",
        "My",
        "Our",
        "Not",
        "Just",
        "Also",
    }
)

_FILLER = re.compile(
    r"(?:,?\s*\b(?:btw|by the way|lol|lmao|haha|tbh|fyi|to be honest|just so you know|for the "
    r"record|if anyone asks"
    r"|if you care(?: about that sort of thing)?|if that helps.*|if you need .*|in case .*|if i "
    r"ever ask|anyway"
    r"|though|honestly|now|don't judge|obviously|i suppose|i guess|still|at the moment|these "
    r"days|any ?more"
    r"|from now on|as well|too|please|thanks)\b|\s*(?:x+|!+|\.+|\?+))+\s*$",
    re.I,
)
_CUT = re.compile(
    r"(?:,|;| - | — | – |\(| and (?:i|we|he|she|they|it|you|that's)\b| but | so | because | which "
    r"| when | as | cos | coz | although | whereas | if | though | otherwise | who | "
    r"anyway| "
    r"lol\b| since | i )",
    re.I,
)


def clean(value: str, *, cut: bool = True) -> str:
    """A value as kept: one clause, without the chat around it."""
    v = " ".join(value.split())
    if cut:
        m = _CUT.search(v)
        if m and m.start() > 0:
            v = v[: m.start()]
    prev = None
    while prev != v:
        prev = v
        v = _FILLER.sub("", v).strip(" ,.;:!-—")
    return v[:MAX_VALUE].strip()


def who(word: str) -> str:
    """A relation or a pet as kept: "mum" -> "mother", "puppy" -> "dog", "beagle" -> "dog"."""
    w = " ".join(word.lower().split())
    return W.RELATIONS.get(w) or W.PETS.get(w) or W.BREEDS.get(w) or w


def named(text: str | None) -> str | None:
    """A proper name as written (each word capitalised, none a month, a pronoun...), else None."""
    if not text:
        return None
    words = re.sub(r"'s$", "", text.strip()).split()
    while words and words[-1] in NOT_NAMES:
        words.pop()
    if not words or words[0] in NOT_NAMES or not all(w[0].isupper() for w in words):
        return None
    return " ".join(words)


def _has(value: str) -> bool:
    return bool(re.search(r"[a-z0-9]", value, re.I))


# -- what a rule keeps -------------------------------------------------------------------------

Build = Callable[[re.Match, str], list[Heard]]


def rel_name(m: re.Match, s: str) -> list[Heard]:
    name = named(m.group("name"))
    return [Heard(who(m.group("rel")), "name", name, "relation-name")] if name else []


def rel_names(m: re.Match, s: str) -> list[Heard]:
    names = [
        n for n in (named(x) for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("name"))) if n
    ]
    if len(names) < 2:
        return []
    return [Heard(who(m.group("rel")), "names", " and ".join(names), "relation-names")]


def breed(m: re.Match, s: str) -> list[Heard]:
    word = m.group("value").lower()
    if word not in W.BREEDS:
        return []
    # "\0pet": the pet named before (extract.py)
    return [Heard("\0pet", "breed", word, "pet-breed")]


def medication(m: re.Match, s: str) -> list[Heard]:
    drug = m.group("drug").lower()
    if drug in (
        "about",
        "holiday",
        "leave",
        "call",
        "nights",
        "days",
        "duty",
        "board",
        "track",
        "hold",
        "strike",
        "benefits",
        "furlough",
        "course",
        "diet",
        "trial",
    ):
        return []
    return [
        Heard(
            "",
            "medication",
            clean(m.group(0)[m.start("value") - m.start() :], cut=False),
            "medication",
            topic=drug,
        )
    ]


def pet_name(m: re.Match, s: str) -> list[Heard]:
    name = named(m.group("name"))
    if name is None:
        return []
    kind = m.group("rel").lower()
    out = [Heard(who(kind), "name", name, "pet-name")]
    if kind in W.BREEDS:
        out.append(Heard(who(kind), "breed", kind, "pet-breed"))
    return out


def attr(
    attribute: str, *, cut: bool = True, proper: bool = False, about: str | None = None
) -> Build:
    """Keep group ``value`` as ``attribute`` ("{what}" in it is the group ``what``); ``proper``:
    the value must start with a capital (a place, a team, a person)."""

    def build(m: re.Match, s: str) -> list[Heard]:
        value = clean(m.group("value"), cut=cut)
        if not _has(value) or (
            proper and (not value[0].isupper() or value.split()[0] in _NOT_PROPER)
        ):
            return []
        gd = m.groupdict()
        whom = who(gd[about]) if about and gd.get(about) else ""
        what = (gd.get("what") or "").lower()
        what = "GP" if what == "gp" else what
        return [Heard(whom, attribute.format(what=what).strip(), value, attribute)]

    return build


def allergy(m: re.Match, s: str) -> list[Heard]:
    raw = re.sub(r"^(?:the |a |an |all |any |most |to )+", "", clean(m.group("value")), flags=re.I)
    raw = re.sub(r"\s+not\b.*$", "", raw, flags=re.I)
    if not raw or raw.split()[0].lower() in W.NOT_ALLERGENS or len(raw.split()) > 4:
        return []
    gd = m.groupdict()
    whom = who(gd["rel"]) if gd.get("rel") else ""
    d = re.search(
        r"\bnot (?:to )?(?P<d>[\w -]+?)(?=[,.;!]|$| i | we | you )", s[m.start("value") :], re.I
    )
    return [Heard(whom, "allergy", raw, "allergy", drop=clean(d.group("d")) if d else "")]


# a subject other than the speaker right before a diet word: a name (not "I"), he/she/they, or
# "my son", "his wife"; then the verb ("went", "is", "has gone", "turned", "became", "is now")
_OTHERS_DIET = re.compile(
    r"(?:\b(?:[Hh]e|[Ss]he|[Tt]hey)|\b(?!I\b|(?:We|And|So|Now|Also|Since|Then|Still)\b)[A-Z][a-z]+"
    r"|\b(?i:my|his|her|their|our) [a-z]+)"
    r"(?:'s| is| was| has| have| went| turned| became| eats)(?: (?:gone|been|now|become|turned|"
    r"fully|strictly|mostly|completely|also|too))*(?: an?)? $"
)
# what it must catch and must not: the speaker's own diet stays theirs
OTHERS_DIET_EXAMPLES = ("Eirik went ", "my son is ", "She's gone ", "his wife has been strictly ")
OTHERS_DIET_NEAR_MISSES = ("I went ", "I'm ", "We went ", "Since January I am ", "As a ")


def diet(m: re.Match, s: str) -> list[Heard]:
    kept = []
    for d in re.finditer(
        r"\b(?P<d>" + "|".join(re.escape(w) for w in W.DIETS) + r")\b(?P<after> "
        r"[\w-]+)?",
        s,
        re.I,
    ):
        after = (d.group("after") or "").strip().lower()
        before = s[max(0, d.start() - 30) : d.start()].lower()
        if after in W.DIET_DISHES or re.search(
            r"\b(?:not|no longer|n't|never)\b(?: \w+){0,2} ?$", before
        ):
            continue
        # "Eirik went vegetarian", "my son is vegan now", "she's gone vegan": someone else's diet,
        # not the speaker's (the extractor does not know whose, so it keeps none)
        if _OTHERS_DIET.search(s[max(0, d.start() - 40) : d.start()]):
            continue
        # "I went vegan for a month once but gave up"
        if re.search(r"\bused to\b", before) or re.search(
            r"\b(?:once|gave (?:it )?up|for a (?:day|week|month|year|while|bit)|didn't "
            r"last|back then|years ago"
            r"|at uni|as a kid)\b",
            s[d.end() :],
            re.I,
        ):
            continue
        kept.append(Heard("", "diet", W.DIETS[d.group("d").lower()], "diet"))
    return kept[-1:]  # "not vegetarian any more, pescatarian now": the last one said stands


def condition(m: re.Match, s: str) -> list[Heard]:
    word = " ".join(m.group("c").lower().split())
    value = W.CONDITIONS.get(word, word)
    extra = (m.groupdict().get("extra") or "").strip()
    return [Heard("", "condition", f"{value} {extra}".strip(), "condition")]


def job(m: re.Match, s: str) -> list[Heard]:
    title = clean(m.group("job"), cut=False)
    words = title.lower().split()
    if not words or len(words) > 5 or re.sub(r"s$", "", words[-1]) not in W.JOBS:
        return []
    gd = m.groupdict()
    whom = who(gd["rel"]) if gd.get("rel") else ""  # "my husband Tom is a nurse": his job
    out = [Heard(whom, "job", title, "job")]
    where = gd.get("where")
    if where and clean(where):
        out.append(Heard(whom, "employer", clean(where), "job-employer"))
    return out


def home(m: re.Match, s: str) -> list[Heard]:
    place = clean(m.group("place"), cut=False)
    if not place or place.split()[0] in NOT_NAMES:
        return []
    rel = m.groupdict().get("rel")
    return [Heard(who(rel) if rel else "", "location", place, "home")]


def moving(m: re.Match, s: str) -> list[Heard]:
    """ "Rachel's moving to Glasgow", "Rachel's taken the job in Glasgow, she's moving up there":
    where someone named now lives (the name is matched to a relation when it is known)."""
    name, place = named(m.group("name")), clean(m.group("place"), cut=False)
    if (
        not name
        or not place
        or name.lower().endswith("ing")
        or re.sub(r"s$", "", place.split()[0]) in NOT_NAMES
    ):
        return []  # "Swimming's moved to Tuesdays" is a routine
    return [Heard(name, "location", place, "moving", correction=True)]


def car(m: re.Match, s: str) -> list[Heard]:
    value = clean(m.group("car"))
    words = [w.lower().strip(",.()") for w in value.split()]
    if not any(w in W.CAR_MAKES or w in W.CAR_MODELS for w in words):
        return []  # a car is named by its make or model: "a red Fiat 500", "the grey Skoda Octavia"
    return [Heard("", "car", re.sub(r"^(?:new|brand new) ", "", value, flags=re.I), "car")]


def phone(m: re.Match, s: str) -> list[Heard]:
    value = clean(m.group("value"))
    if not any(p in value.lower() for p in W.PHONES):
        return []
    gd = m.groupdict()
    return [Heard(who(gd["rel"]) if gd.get("rel") else "", "phone", value, "phone")]


def age(m: re.Match, s: str) -> list[Heard]:
    n = int(m.group("age"))
    if not 0 < n < 120:
        return []
    gd = m.groupdict()
    if gd.get("name"):
        whom = named(gd["name"])
        if whom is None:
            return []
    else:
        whom = who(gd["rel"]) if gd.get("rel") else ""
    return [Heard(whom, "age", str(n), "age")]


def dated(attribute: str) -> Build:
    def build(m: re.Match, s: str) -> list[Heard]:
        gd = m.groupdict()
        whom = ""
        if gd.get("rel"):
            whom = who(gd["rel"])
        elif gd.get("name"):
            whom = named(gd["name"]) or ""
            if not whom:
                return []
        value = clean(m.group("value"))
        if not re.search(rf"\d|{MONTH}|{DAY}", value, re.I):
            return []
        return [
            Heard(whom, attribute.format(what=(gd.get("what") or "").lower()), value, attribute)
        ]

    return build


def support(m: re.Match, s: str) -> list[Heard]:
    team = clean(m.group("team"), cut=False)
    team = re.sub(r"\s+(?:through and through|since .*|have done.*)$", "", team, flags=re.I)
    if not named(team.split()[0] if team else None) or not team[0].isupper():
        return []
    return [Heard("", "team", team, "support")]


def favourite(m: re.Match, s: str) -> list[Heard]:
    what = " ".join(m.group("what").lower().split())
    value = clean(m.group("value"))
    if (
        not _has(value)
        or what in ("thing", "part", "bit", "hobby")
        or value.lower().startswith(("being", "when"))
    ):
        return []
    return [Heard("", f"favourite {what}", value, "favourite")]


def appointment(m: re.Match, s: str) -> list[Heard]:
    """ "I've got the dentist on 4 November at 10:40": kept under what it is with ("dentist
    appointment"), so the next word on it ("the dentist has moved me to 6 November") replaces it."""
    what = re.sub(r"'s$", "", m.group("what").lower())
    what = {"doctor": "doctor", "gp": "GP", "dental": "dentist", "checkup": "check-up"}.get(
        what, what
    )
    value = clean(m.group("value"), cut=False)
    return [Heard("", "appointment", value, "appointment", topic=what)] if value else []


def fixed(attribute: str, value: str) -> Build:
    return lambda m, s: [Heard("", attribute, value, attribute)]
