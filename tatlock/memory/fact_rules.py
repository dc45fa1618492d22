"""The fact extractor's rules: each a name, a pattern and what it keeps from a match.

A rule matches inside one sentence (``memory/extract.py`` splits the message, drops questions,
secrets and anything imagined first). Patterns are compiled case-insensitive; a rule that
needs a proper name checks the capital itself (``_named``), so "my sister is called Harriet"
keeps Harriet and "my sister is called back" keeps nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from tatlock.memory import fact_words as W

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
PLACE = (rf"(?-i:(?:St\.? |Saint |Great |Little |North |South |East |West |New |Old |Upper |Lower )?{NAME}"
         rf"(?:(?: |-)(?:upon|on|le|de|under|in|by|of|the)(?: |-){NAME}|[ -]{NAME}){{0,3}})")
MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
MONTH = rf"(?:{MONTHS}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?"
DAYNAMES = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
DAY = rf"(?:{DAYNAMES}|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
ORD = r"\d{1,2}(?:st|nd|rd|th)?(?!\d)"  # "March 2027" is a month and a year, not March 20
DATE = (rf"(?:(?:{DAY}),? )?(?:the )?(?:{ORD}(?: of)? {MONTH}(?:,? \d{{4}})?|{MONTH} (?:the )?{ORD}(?:,? \d{{4}})?"
        rf"|{MONTH} \d{{4}}|(?:next|this) {DAY}\b|{DAY} the {ORD}|the {ORD}\b)")
TIME = r"(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}[:.]\d{2}|noon|midday)"
PROVIDERS = (r"dentist|doctor|doctor's|gp|hospital|vet|optician|hairdresser|barber|physio|nurse|clinic|surgery"
             r"|consultant|dental|eye test|smear test|scan|mri|x-ray|check-up|checkup|hygienist|orthodontist")
# a date with its month ("the 3rd of June", "28 December"): a trip is not "Tesco on Monday"
DATE_M = rf"(?:the )?(?:{ORD}(?: of)? {MONTH}|{MONTH} (?:the )?{ORD})"
STAYS = (r"cottage|hotel|holiday|villa|caravan|lodge|cabin|chalet|apartment|airbnb|b&b|trip|break|week away"
         r"|weekend away|holiday let|glamping|campsite|cruise")
RECUR = (rf"\bevery (?:other |single |second )?(?:{DAY}|day|week|weekend|morning|evening|night|month|year"
         rf"|fortnight|\d+ (?:days|weeks|months))\b|\b(?:{DAYNAMES})s\b|\b(?:{DAYNAMES}) (?:mornings|evenings|"
         rf"nights|afternoons)\b"
         rf"|\beach {DAY}\b|\b(?:first|second|third|last|1st|2nd|3rd) {DAY} of (?:the|every|each) month\b"
         r"|\bnightly\b|\bfortnightly\b|\bon weekdays\b")

REL = "(?:" + "|".join(re.escape(w) for w in sorted(W.RELATIONS, key=len, reverse=True)) + ")"
PET = "(?:" + "|".join(re.escape(w) for w in sorted({**W.PETS, **W.BREEDS}, key=len, reverse=True)) + ")"
WHO = rf"(?:{REL}|{PET})"
MY = r"(?:my|our|me)"  # "me mum", in the north

# capitalised words that are not names
NOT_NAMES = frozenset({
    *(m.capitalize() for m in MONTHS.split("|")), *(d.capitalize() for d in DAYNAMES.split("|")),
    "I", "Im", "She", "He", "They", "It", "We", "You", "The", "A", "An", "And", "But", "So", "Is", "Was", "Has",
    "Had", "Not", "Just", "Also", "Mr", "Mrs", "Ms", "Dr", "Christmas", "Easter", "Today", "Tomorrow", "Yesterday",
    "Tonight", "This", "That", "There", "Here", "Oh", "Ok", "Okay", "Lol", "Who", "Which", "Now", "Back", "Home",
    "Please", "Thanks", "Actually", "Called", "Named", "Still", "Again", "Too", "Away", "Out", "Off", "Up", "On",
    # what opens a sentence before a comma and is no one's name ("Sorry, my mum is calling")
    "Sorry", "Look", "Listen", "Well", "Yes", "No", "Yeah", "Nah", "Right", "Hey", "Hi", "Hello", "Morning", "Cheers",
    "Anyway", "Honestly", "Great", "Brilliant", "Lovely", "Wow", "Ugh", "God", "Bless", "Thank", "Fine", "Sure",
    *(w.capitalize() for w in W.NATIONALITIES), *(w.capitalize() for w in W.RELIGIONS),
})

# a capitalised first word that does not begin a proper value
_NOT_PROPER = frozenset({"I", "Im", "She", "He", "They", "It", "We", "You", "The", "A", "An", "And", "But", "So",
                         "This",
                         "That", "There", "Here", "Oh", "Ok", "Okay", "Lol", "My", "Our", "Not", "Just", "Also"})

_FILLER = re.compile(
    r"(?:,?\s*\b(?:btw|by the way|lol|lmao|haha|tbh|fyi|to be honest|just so you know|for the record|if anyone asks"
    r"|if you care(?: about that sort of thing)?|if that helps.*|if you need .*|in case .*|if i ever ask|anyway"
    r"|though|honestly|now|don't judge|obviously|i suppose|i guess|still|at the moment|these days|any ?more"
    r"|from now on|as well|too|please|thanks)\b|\s*(?:x+|!+|\.+|\?+))+\s*$", re.I)
_CUT = re.compile(r"(?:,|;| - | — | – |\(| and (?:i|we|he|she|they|it|you|that's)\b| but | so | because | which "
                  r"| when | as | cos | coz | although | whereas | if | though | otherwise | who | anyway| "
                  r"lol\b| since | i )", re.I)


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
    names = [n for n in (named(x) for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group("name"))) if n]
    if len(names) < 2:
        return []
    return [Heard(who(m.group("rel")), "names", " and ".join(names), "relation-names")]


def breed(m: re.Match, s: str) -> list[Heard]:
    word = m.group("value").lower()
    if word not in W.BREEDS:
        return []
    return [Heard("\0pet", "breed", word, "pet-breed")]  # "\0pet": the pet named before (extract.py)


def medication(m: re.Match, s: str) -> list[Heard]:
    drug = m.group("drug").lower()
    if drug in ("about", "holiday", "leave", "call", "nights", "days", "duty", "board", "track", "hold", "strike",
                "benefits", "furlough", "course", "diet", "trial"):
        return []
    return [Heard("", "medication", clean(m.group(0)[m.start("value") - m.start():], cut=False), "medication",
                  topic=drug)]


def pet_name(m: re.Match, s: str) -> list[Heard]:
    name = named(m.group("name"))
    if name is None:
        return []
    kind = m.group("rel").lower()
    out = [Heard(who(kind), "name", name, "pet-name")]
    if kind in W.BREEDS:
        out.append(Heard(who(kind), "breed", kind, "pet-breed"))
    return out


def attr(attribute: str, *, cut: bool = True, proper: bool = False, about: str | None = None) -> Build:
    """Keep group ``value`` as ``attribute`` ("{what}" in it is the group ``what``); ``proper``:
    the value must start with a capital (a place, a team, a person)."""
    def build(m: re.Match, s: str) -> list[Heard]:
        value = clean(m.group("value"), cut=cut)
        if not _has(value) or (proper and (not value[0].isupper() or value.split()[0] in _NOT_PROPER)):
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
    d = re.search(r"\bnot (?:to )?(?P<d>[\w -]+?)(?=[,.;!]|$| i | we | you )", s[m.start("value"):], re.I)
    return [Heard(whom, "allergy", raw, "allergy", drop=clean(d.group("d")) if d else "")]


def diet(m: re.Match, s: str) -> list[Heard]:
    kept = []
    for d in re.finditer(r"\b(?P<d>" + "|".join(re.escape(w) for w in W.DIETS) + r")\b(?P<after> [\w-]+)?", s, re.I):
        after = (d.group("after") or "").strip().lower()
        before = s[max(0, d.start() - 30): d.start()].lower()
        if after in W.DIET_DISHES or re.search(r"\b(?:not|no longer|n't|never)\b(?: \w+){0,2} ?$", before):
            continue
        if re.search(r"\bused to\b", before) or re.search(  # "I went vegan for a month once but gave up"
                r"\b(?:once|gave (?:it )?up|for a (?:day|week|month|year|while|bit)|didn't last|back then|years ago"
                r"|at uni|as a kid)\b", s[d.end():], re.I):
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
    """"Rachel's moving to Glasgow", "Rachel's taken the job in Glasgow, she's moving up there":
    where someone named now lives (the name is matched to a relation when it is known)."""
    name, place = named(m.group("name")), clean(m.group("place"), cut=False)
    if not name or not place or name.lower().endswith("ing") or re.sub(r"s$", "", place.split()[0]) in NOT_NAMES:
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
        return [Heard(whom, attribute.format(what=(gd.get("what") or "").lower()), value, attribute)]
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
    if not _has(value) or what in ("thing", "part", "bit", "hobby") or value.lower().startswith(("being", "when")):
        return []
    return [Heard("", f"favourite {what}", value, "favourite")]


def appointment(m: re.Match, s: str) -> list[Heard]:
    """"I've got the dentist on 4 November at 10:40": kept under what it is with ("dentist
    appointment"), so the next word on it ("the dentist has moved me to 6 November") replaces it."""
    what = re.sub(r"'s$", "", m.group("what").lower())
    what = {"doctor": "doctor", "gp": "GP", "dental": "dentist", "checkup": "check-up"}.get(what, what)
    value = clean(m.group("value"), cut=False)
    return [Heard("", "appointment", value, "appointment", topic=what)] if value else []


def fixed(attribute: str, value: str) -> Build:
    return lambda m, s: [Heard("", attribute, value, attribute)]


_DIET_WORDS = "|".join(re.escape(w) for w in W.DIETS)
_CONDITION_WORDS = "|".join(re.escape(w) for w in sorted(W.CONDITIONS, key=len, reverse=True))

_INSTRUMENTS = (r"piano|keyboard|guitar|bass|bass guitar|drums|violin|viola|cello|double bass|flute|clarinet|"
                r"saxophone|sax|trumpet|trombone|ukulele|harp|recorder|oboe|bassoon|banjo|mandolin|harmonica|accordion")
_EMPLOYER = rf"{UP}[\w&'-]*(?: (?:&|and|of) {UP}[\w'-]*| {UP}[\w&'-]*)*"
_TEAM = rf"{UP}[\w.'-]*(?: {UP}[\w.'-]*){{0,2}}"
_PLURAL_REL = r"(?:kids|children|sons|daughters|boys|girls|grandchildren|grandkids|sisters|brothers|dogs|cats)"

RULES: list[tuple[str, str, Build]] = [
    # names: "my sister is called Harriet", "my husband Tom", "Dad's name is Brian", "our cleaner Maria"
    ("relation-name", rf"\b{MY} (?P<rel>{REL})(?:'s name| name)?(?: is called| is named|'s called|'s named| is|'s"
                      rf"| name's|,| he is called| she is called| he's called| she's called| who is called)? "
                      rf"(?P<name>{NAME}(?: {NAME})?)(?![\w'])", rel_name),
    ("relation-name", rf"\b{MY} (?P<rel>{REL}) (?P<name>{NAME})'s\b", rel_name),
    ("relation-name", rf"(?:^|\b{MY} )(?P<rel>mum|dad|mom|gran|grandma|grandad|nan|nana)'s name is (?P<name>{NAME})",
     rel_name),
    ("relation-name", rf"\b{MY} (?P<rel>{REL}),? (?:he|she) is called (?P<name>{NAME})", rel_name),
    # "Deborah, my boss, wants ...", "Pepper, our cat, has ...": a name set off by commas
    ("relation-name", rf"(?:^|\b(?:to|with|and|called|rang|saw|met|see) )(?P<name>{NAME}), {MY} (?P<rel>{REL})"
                      rf"(?:,|[.!]?$)",
     rel_name),
    ("pet-name", rf"(?:^|\b(?:and|with|fed|walked|took) )(?P<name>{NAME}), {MY} (?P<rel>{PET})(?:,|[.!]?$)", pet_name),
    ("relation-name", rf"(?<![\w'])(?P<rel>(?-i:Grandma|Granny|Gran|Nana|Nanna|Grandad|Grandpa|Granddad|Aunt|"
                      rf"Auntie|Aunty|Uncle|Cousin)) (?P<name>{NAME})(?![\w])", rel_name),
    # "we got a new puppy!!! cockapoo called Nacho": a pet the speaker has, named
    ("pet-name", rf"\b(?:i|we)(?:'ve| have)? (?:just |finally )?(?:got|have|adopted|bought|rescued|brought home)\b"
                 rf"[^.?]*?\b(?P<rel>{PET}) (?:called|named) (?P<name>{NAME})", pet_name),
    ("pet-name", rf"^(?:an? )?(?P<rel>{PET}) (?:called|named) (?P<name>{NAME})", pet_name),
    ("relation-names", rf"\b{MY} (?P<rel>{_PLURAL_REL}) are (?:called |named )?(?P<name>{NAME}(?:,? (?:and )?{NAME})+)",
     rel_names),
    ("pet-name", rf"\b(?:{MY}|a|an|new) (?:new |little |old |rescue |\d+[- ]year[- ]old )?(?P<rel>{PET})"
                 rf"(?: is| was|'s)? (?:called|named) (?P<name>{NAME})", pet_name),
    ("pet-name", rf"\b{MY} (?P<rel>{PET}),? (?P<name>{NAME})\b(?!')", pet_name),
    ("pet-breed", rf"\b(?:she|he|it)(?:'s| is) an? (?:\d+[- ]year[- ]old )?(?P<value>{PET})\b", breed),
    # the speaker's own name: "my name is Priya", "I'm Priya by the way", "call me Pri", "my maiden name, Kowalski"
    ("name", rf"\bmy name is (?P<value>{NAME}(?: {NAME})?)", attr("name", cut=False, proper=True)),
    ("name", rf"\bi'?m (?P<value>{NAME}) (?:by the way|btw)\b", attr("name", cut=False, proper=True)),
    ("surname", rf"\bmy (?P<what>maiden name|surname|last name|middle name|married name)(?:,| is|'s|:) "
        rf"(?P<value>{NAME})",
     attr("{what}", cut=False, proper=True)),
    ("preferred-name", rf"(?:\bcall me|\bi go by|\bit's|^its|^just) (?P<value>{NAME})(?=,| not\b| please|\.|$)",
     attr("preferred name", cut=False, proper=True)),
    # allergies: "I'm allergic to penicillin", "my daughter is allergic to eggs", "my nut allergy"
    ("allergy", rf"\b(?:i'?m|i am|im|i've always been|i have been|{MY} (?P<rel>{WHO})(?: \w+)? (?:is|'s))(?: \w+)?"
                r" allergic to (?P<value>[^.!?;]+)", allergy),
    ("allergy", r"\b(?:the|my) allergy(?:'s| is) (?:to )?(?P<value>[^.!?;]+)", allergy),
    ("allergy", r"\b(?:i have|i've got|my) (?:an? )?(?:severe |serious |bad |mild )?(?P<value>[a-z]+) allergy\b",
     allergy),
    # diet, conditions, medication
    ("diet", rf"\b(?:i'?m|i am|im|i've been|i have been|as a|i eat|i only eat|i'm now|i went|i've gone|i have gone"
        rf"|i turned|i became|we went|we've gone|(?:so |, "
        rf")?(?:{_DIET_WORDS}) now)\b",
     diet),
    ("condition", rf"\b(?:i'?m|i am|im|i've been|i have|i've got|i get|i suffer from)(?: \w+)?? "
        rf"(?P<c>{_CONDITION_WORDS})\b"
                  r"(?P<extra> \((?:red-green|[\w -]{1,20})\)| type [12]\b)?", condition),
    ("condition", r"\bi'?m (?P<c>deaf|blind) in (?:my|one) (?P<extra>(?:left|right) (?:ear|eye))", condition),
    ("medication", r"\bi'?m (?:now )?on (?P<value>(?:\d+(?:\.\d+)?\s?(?:mg|mcg|ml) (?:of )?)?(?P<drug>[a-z]{5,})"
                   r"(?: \d+(?:\.\d+)?\s?(?:mg|mcg|ml))?)(?: (?:every|each|twice|once|a day|"
                       r"daily)[^,.;!?]*)?", medication),
    ("handedness", r"\bi'?m (?P<value>left[- ]handed|right[- ]handed|ambidextrous)", attr("handedness")),
    ("religion", r"\bi'?m (?:a )?(?P<value>" + "|".join(W.RELIGIONS) + r")\b", attr("religion")),
    # work: "I'm a primary school teacher", "I work as a paralegal at Hobbs Wright", "I work at Rolls-Royce"
    ("job", r"\b(?:i'?m|i am|im|i work as|i'm working as|i've (?:just )?started (?:a new job|work) as|new job as)"
            r" (?:a|an|the) (?P<job>(?:(?!(?:at|for|in|with|and|so|but|now|too)\b)[a-z-]+ ){0,3}(?!(?:at|for|in|"
            r"with|and|so|but|now|too)\b)[a-z-]+)"
            rf"(?: (?:at|for|in) (?P<where>{UP}[^,.!?;]+))?", job),
    ("job", rf"\b{MY} (?P<rel>{REL})(?: {NAME})?(?:,)? (?:is|'s|works as|is working as) (?:a|an) "
            r"(?P<job>(?:(?!(?:at|for|in|with|and|so|but|now|too)\b)[a-z-]+ ){0,3}(?!(?:at|for|in|"
            r"with|and|so|but|now|too)\b)[a-z-]+)"
            rf"(?: (?:at|for|in) (?P<where>{UP}[^,.!?;]+))?", job),
    ("employer", rf"\bi work (?:at|for) (?P<value>{_EMPLOYER})",
     attr("employer", cut=False, proper=True)),
    ("employer", rf"\bi'?m (?:now )?at (?P<value>{_EMPLOYER})(?: in {UP}\w+)? now\b",
     attr("employer", cut=False, proper=True)),
    ("employer", rf"\bmy (?:company|business|firm) is (?:called )?(?P<value>{_EMPLOYER})",
     attr("company", cut=False, proper=True)),
    # home: "I live in Leeds", "we moved to York", "my mum lives in Cork", "we live at 14 Rowan Close"
    ("home", rf"\b(?:i|we) (?:live|have lived|'ve lived|still live|now live|live here) in (?P<place>{PLACE})", home),
    ("home", rf"\b(?:i|we) (?:just |recently |finally |actually )?(?:moved|'ve moved|have moved|relocated)"
             rf" (?:up |down |over )?to (?P<place>{PLACE})(?! next| in the| this| soon)", home),
    ("home", rf"\bstaying (?:put )?in (?P<place>{PLACE})", home),
    ("home", rf"\b{MY} (?P<rel>{REL})(?: {NAME})? (?:lives|is living|has moved|moved|is moving|'s moving|is based|"
        rf"'s based) (?:in|to|up to|down to|over to) "
        rf"(?P<place>{PLACE})",
     home),
    ("home", rf"\bwe'?re in (?P<place>{PLACE}, in {PLACE})", home),
    ("moving", rf"(?:^|\s)(?P<name>{NAME})(?:'s| is| has) (?:now |just )?(?:moving|moved|relocating) "
               rf"(?:up |down |over )?to (?P<place>{PLACE})", moving),
    ("moving", rf"(?:^|\s)(?P<name>{NAME})(?:'s| has| is)\b[^.!?]*?\b(?:in|to) (?P<place>{PLACE})\b[^.!?]*?\b(?:she|he)"
               rf"(?:'s| is) (?:moving|relocating) (?:up |down |over )?there\b", moving),
    ("from", rf"\bi'?m (?:originally )?from (?P<value>{PLACE})", attr("from", cut=False, proper=True)),
    ("birthplace", rf"\bi was born in (?P<value>{PLACE})", attr("birthplace", cut=False, proper=True)),
    ("birthplace", rf"(?P<value>{PLACE}) born and bred\b", attr("birthplace", cut=False, proper=True)),
    ("grew-up", rf"\bgrew up in (?P<value>{PLACE})", attr("grew up in", cut=False, proper=True)),
    ("address", rf"\b(?:i|we) live at (?P<value>\d+[a-z]? {PLACE}(?:, {PLACE})?)", attr("address", cut=False)),
    # things: "I drive a red Fiat 500", "my car is a Kia Niro", "new phone is a Pixel 8"
    ("car", r"\b(?:i drive|we drive|my car is|my car's|our car is|picked up|i bought|we bought|we've got|i've got"
            r"|my car needs its \w+,?|i have) (?:a|an|the) (?P<car>(?:[\w-]+ ){0,3}(?-i:[A-Z0-9])[\w-]*"
            r"(?: (?-i:[A-Z0-9])[\w-]*){0,2}(?: (?:estate|hatchback|ev|hybrid|electric|convertible|van))?)", car),
    ("phone", rf"\b(?:my|new|(?P<rel>{REL})'s) phone(?: is|'s) (?:an? |the )?(?P<value>[^,.!?;]+)", phone),
    ("instrument", rf"\bi (?:play|started|'ve started|have started|am learning|'m learning|learn) (?:the "
        rf")?(?P<value>{_INSTRUMENTS})\b",
     attr("plays")),
    ("age", r"\b(?:i'?m|i am|im) (?P<age>\d{1,3})(?: years old| year old| now)?(?= *(?:btw|,|\.|!|$| and | but |"
        r" so | next))",
     age),
    ("age", rf"\b{MY} (?P<rel>{WHO}) is (?P<age>\d{{1,2}})(?: years old)?\b(?! ?(?:%|minutes|mins|hours|km|miles|kg))",
     age),
    ("age", rf"\b(?P<name>{NAME})(?:'s| is) (?P<age>\d{{1,2}}) (?:now|years old)\b", age),
    ("age", rf"\ba (?P<age>\d{{1,2}})[- ]year[- ]old (?P<rel>{PET})\b", age),
    # dates: birthdays, anniversaries, weddings, expiries
    ("birthday", rf"\b(?:my|{MY} (?P<rel>{WHO})'?s|(?P<name>{NAME})'s) birthday(?:'s| is|'s on| is on)? "
        rf"(?P<value>{DATE})",
     dated("birthday")),
    ("birthday", rf"\bmy birthday (?:was|is) [^.]*? but it'?s (?P<value>{DATE})", dated("birthday")),
    ("anniversary", rf"\b(?:our|my) (?:wedding )?anniversary(?:'s| is)(?: on)? (?P<value>{DATE})",
     dated("anniversary")),
    ("anniversary", rf"\bwe got married (?:on )?(?P<value>{DATE})",
     dated("anniversary")),
    ("wedding", rf"\b(?:our|my) wedding(?: date)?(?:'s| is)(?: on)? (?P<value>{DATE}(?: at {UP}[\w' ]+)?)",
     dated("wedding")),
    ("wedding", rf"\bwedding date(?:'s| has| is)? (?:changed|moved) to (?P<value>{DATE})", dated("wedding")),
    ("expiry", rf"\b{MY} (?P<what>passport|driving licence|licence|visa|railcard)(?: expires| runs out| ends)"
               rf" (?:in |on )?(?P<value>{DATE})", dated("{what} expiry")),
    ("appointment", rf"\b(?:i'?ve got|i have|i've|i got|got|i'm at|i'm seeing) (?:the|a|an|my) (?P<what>{PROVIDERS})"
                    rf"(?: appointment| appt)? (?:on |at )?(?P<value>{DATE}(?:,? at {TIME})?)", appointment),
    ("appointment", rf"\b(?:my |the )?(?P<what>{PROVIDERS})(?: appointment| appt)?(?:'s| is| has been| has)? "
                    rf"(?:now |been )?(?:moved|changed|rescheduled|put back|brought forward) to "
                    rf"(?P<value>{DATE}(?:,? at {TIME})?)", appointment),
    # trips: "we've booked a cottage in Bamburgh from 28 December to 2 January", "we're going to
    # Crete on the 3rd of June for ten days"; "we've rebooked in Craster instead" changes the place
    ("trip", rf"\b(?:i|we)(?:'ve| have)? (?:just |finally )?booked (?:a|an|the|our) "
             rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{STAYS}) (?:in|at|near|on) {PLACE}"
             rf"(?: (?:from|for|on) {DATE_M}(?: (?:to|till|until|-) {DATE_M})?)?)",
     attr("trip", cut=False)),
    ("trip", rf"\b(?:i'm|i am|we're|we are) (?:going|off|heading|flying|driving) (?:up |down |over )?to "
             rf"(?P<value>{PLACE} (?:on|from) {DATE_M}(?: (?:to|till|until) {DATE_M}| for (?:a|one|two|three|\w+) "
             rf"(?:days?|weeks?|nights?))?)", attr("trip", cut=False, proper=True)),
    ("trip-place", rf"\b(?:i|we)(?:'ve| have)? (?:re-?booked|moved it|switched it|changed it) (?:in|to|at|for) "
                   rf"(?P<value>{PLACE})", attr("trip", cut=False, proper=True)),
    ("trip-place", rf"\b(?:holiday|trip|cottage|booking|break)\b[^.!?]*?\bit'?s (?P<value>{PLACE}) now\b",
     attr("trip", cut=False, proper=True)),
    ("mot", rf"\b(?:{MY} )?car'?s? mot (?:is )?due (?:on )?(?P<value>{DATE})", dated("car MOT due")),
    # teams, favourites, tastes
    ("support", rf"\bi (?:support|follow) (?P<team>{_TEAM})", support),
    # "Arsenal lost again, I've supported them since I was six"
    ("support", rf"(?:^|\s)(?P<team>{_TEAM})\b[^.!?]*?\bi(?:'ve| have)? (?:always )?(?:supported|followed) them\b",
     support),
    ("support", rf"\bseason tickets? (?:for|at) (?P<team>{_TEAM})", support),
    ("support", rf"\b(?:i'?m|we'?re)(?: both| all)? (?P<team>{_TEAM}) through and through", support),
    ("favourite", r"\b(?:my )?fav(?:ou?rite|rite)? (?P<what>[a-z]+(?: [a-z]+)?) (?:is|are|'s) (?:an? "
        r")?(?P<value>[^.!?;]+)",
     favourite),
    ("dislike", r"\bi (?:can'?t stand|cannot stand|detest|loathe|can'?t eat|never eat)"
                r" (?P<value>(?!being\b|it\b|that\b|this\b|when\b|how\b|you\b|him\b|her\b|them\b|the "
                r"way\b)[a-z][^.!?;,]*)",
     attr("dislikes")),
    ("tea", r"\bi take my (?P<what>tea|coffee) (?P<value>[^.!?;]+)", attr("{what}", cut=False)),
    ("alcohol", r"\bi (?:don'?t|do not|never) drink\b(?! (?:coffee|tea|milk|water|fizzy|much|enough))",
     fixed("alcohol", "does not drink")),
    ("alcohol", r"\bi'?m not drinking at all\b", fixed("alcohol", "does not drink")),
    ("language", rf"\bi speak (?P<value>{NAME}(?:(?:,| and| and a bit of| and some| and a little) {NAME})*)",
     attr("languages", cut=False, proper=True)),
    ("pronouns", rf"\b(?:i go by|i use|(?P<rel>{REL}) {NAME} uses) (?P<value>(?:she|he|they|ze|xe)/\w+)",
     attr("pronouns", cut=False, about="rel")),
    ("blood", r"\bmy blood (?:type|group) is (?P<value>(?:AB|A|B|O)[ +-]?(?:positive|negative|pos|neg|\+|-)?)",
     attr("blood type", cut=False)),
    ("size", r"\bmy (?P<what>shoe|dress|shirt|ring|waist|trouser) size is (?P<value>[^.!?;,]+)", attr("{what} size")),
    ("provider", rf"\b(?:my|new) (?P<what>gp|doctor|dentist|vet|hairdresser|barber|optician|physio|accountant|solicitor"
                 rf"|mechanic)(?: is|:) (?:called )?(?P<value>{UP}[^.!?;]*)", attr("{what}", proper=True)),
    ("relation-attr", rf"\b(?:{MY}|the) (?P<rel>{REL}|kids|children)(?:'s|') (?P<what>school|nursery|college|university"
                      rf"|job|workplace|team|teacher|surname) is (?P<value>{UP}[^.!?;]*)", attr("{what}", about="rel")),
]

COMPILED: list[tuple[str, re.Pattern[str], Build]] = [(n, re.compile(p, re.I), b) for n, p, b in RULES]
