"""Facts a person states about themselves and their world, read from one message by rules: no
model, well under a millisecond a message (``scripts/bench facts``).

"My sister is called Harriet", "I'm allergic to penicillin", "we live in Headingley", "I drive a
red Fiat 500", "remember that the router is in the hallway cupboard": each becomes a
:class:`Heard` (whom it is about, relative to the speaker; what; the value). The rules
(``memory/fact_rules.py``, their words in ``memory/fact_words.py``) are written for precision
first, because a wrongly kept fact is worse than a missed one: the model still reads the
conversation and recall still searches it, so a missed fact is not lost.

Never read as a fact: questions, requests to make something ("translate 'I am a vegetarian'"),
anything imagined, quoted, told of a film or a stranger, or joked about, and any message that
looks like it holds a secret (a password, a PIN, a code, a card number): such a message keeps
nothing at all.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tatlock.memory import fact_words as W
from tatlock.memory.fact_rules import (
    DATE,
    DAYNAMES,
    MULTI_WORDS,
    MY,
    NAME,
    NOT_NAMES,
    PET,
    PROVIDERS,
    RECUR,
    REL,
    TIME,
    Heard,
    car,
    clean,
    named,
    who,
)
from tatlock.memory.fact_table import compiled
from tatlock.redact import redact

# compiled once per install (tatlock.regexcache)
from tatlock.regexcache import compile as compile_re

__all__ = ["MULTI", "Heard", "extract", "secret"]

MAX_CHARS = 1500  # a longer message is a document or pasted material, not a statement about a life
# attributes that hold several values at once: a new one adds to them (unless it corrects one)
MULTI = MULTI_WORDS

_SECRET = compile_re(rf"\b(?:{W.SECRET_WORDS})\b", re.I)
_NOT_SECRET = compile_re(rf"\b(?:{W.NOT_SECRET})\b", re.I)
_UNREAL = compile_re(W.UNREAL, re.I)
# a card, account or one-time number; dates and times are shorter
_DIGITS = compile_re(r"\d(?:[ -]?\d){5,}")
_QUOTED = compile_re(r"(?<!\w)'[^']{3,}'(?!\w)|\"[^\"]{3,}\"")
_REMEMBER = compile_re(
    r"^(?:(?:ok(?:ay)?|right|also|and|oh|please|pls|hey|so|quick "
    r"one)[,.!:]?\s+)*(?:(?:can|could|would|will) "
    r"you (?:please )?)?"
    r"(?:please )?(?:remember|note(?: down)?|make a note|take a note|put it in your memory|save "
    r"this|keep in mind"
    r"|bear in mind|for the record|fyi|just so you know|don't forget|do not forget|remind me "
    r"that|write (?:this|"
    r"that) down"
    r"|log that|store this)(?: (?:down|this|that))?(?: for "
    r"me)?\s*(?:that|this|:|,|-)?\s+(?P<body>.+)$",
    re.I,
)
_ASKED = compile_re(
    r"[\s,]+(?:if i (?:ever )?(?:ask|forget)|in case i (?:ask|forget)|for when i "
    r"(?:ask|"
    r"forget))\b.*$",
    re.I,
)
_CORRECTION = compile_re(
    r"\b(?:actually|correction|no longer|any ?more|changed?|moved|update|instead|sorry|typo|mixed "
    r"(?:them|it|that) up"
    r"|from now on|after all|i said|gave up|switched|traded in|sold the|not \w+ now)\b|, "
    r"not\b|\bnot \w+,",
    re.I,
)
# "asking whether I'm allergic to anything", "if I'm free": what follows is not stated as true
_CONDITIONAL = compile_re(r"\b(?:whether|if)\b.*$", re.I)
# "Pescatarian, I suppose." "Vegan now.": a diet said alone, after the sentence that led to it
_DIET_ALONE = compile_re(
    rf"^(?:so |now )?(?P<d>{'|'.join(re.escape(w) for w in W.DIETS)})(?:,? (?:i suppose|i "
    rf"guess|"
    r"now|these days|technically|mostly|basically|really|then|officially|from "
    r"now on))*\W*$",
    re.I,
)
# "... Biscuit to the vet. He's our beagle": the name said just before is the pet's
# "she's been my wife for 12 years" after "Maria and I had dinner": the name said just before
_IS_MY = compile_re(
    rf"^(?:and |oh |yeah |well )?(?:he|she|it)(?:'s| is|'s been| has been) "
    rf"(?:(?P<own>{MY}|the family's) (?:\w+ )?|an? )(?P<kind>{PET}|{REL})\b",
    re.I,
)
# "The dentist rang ... It's now 6 November at 3pm.": the appointment named in the message moved
_NOW_ON = compile_re(
    rf"^(?:it's|it is|that's|that is) (?:now |been moved to |moved to )(?:on "
    rf")?(?P<value>{DATE}"
    rf"(?:,? at {TIME})?)",
    re.I,
)
# "no chicken at all for him", "he can't have dairy": what someone just named must not eat
_NOT_FOR = compile_re(
    r"\bno (?P<food>[a-z]+(?: [a-z]+)?) (?:at all |whatsoever )?for (?:him|her)\b"
    r"|\b(?:he|she) (?:can't|cannot|can not|mustn't|must not|shouldn't|isn't "
    r"allowed to) (?:have|eat)"
    r" (?:any )?(?P<food2>[a-z]+(?: [a-z]+)?)\b",
    re.I,
)
# "Car's making a funny noise." / "It's a 2014 Toyota Corolla": the car spoken of is the speaker's
_IT_IS_CAR = compile_re(
    r"^(?:it's|it is|its) (?:a|an) (?P<car>(?:[\w-]+ ){0,3}(?-i:[A-Z0-9])[\w-]*"
    r"(?: (?-i:[A-Z0-9])[\w-]*){0,2}(?: "
    r"(?:estate|hatchback|ev|hybrid|electric|van))?)",
    re.I,
)
_APPOSITION = compile_re(rf"\b{MY} (?P<rel>{REL}),? (?P<name>{NAME})(?![\w'])", re.I)
_INTERROGATIVE = compile_re(
    r"^(?:\w+,\s*)?(?:what|what's|whats|who|who's|whose|when|when's|where|where's|why|how|which|is|are|am|was|were|do"
    r"|does|did|can|could|should|would|will|shall|have|has|any|anything)\b",
    re.I,
)


def secret(text: str, known: tuple[str, ...] = ()) -> bool:
    """True when a message looks like it carries a secret: nothing in it is kept as a fact."""
    if _SECRET.search(_NOT_SECRET.sub(" ", text)) or _DIGITS.search(text):
        return True
    return redact(text, known) != text


def _unreal(text: str, stated: str) -> bool:
    """A task ("Write a poem ...") or anything imagined, joked or told of others in what is
    ``stated`` (the message without its questions)."""
    first = re.match(r"\W*([a-z]+)\W*([a-z0-9]*)", text.lower())
    if first and first.group(1) in W.TASK_OPENERS:
        # "Book a table", "Plan my week": a task; "Book club tonight", "List price went up": not
        if (
            first.group(1) not in W.NOUN_OPENERS
            or first.group(2) in W.TASK_OBJECTS
            or first.group(2).isdigit()
        ):
            return True
    return bool(_UNREAL.search(stated))


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+|\n+|\s+[—–]\s+|\s+-\s+|\.\.\.+\s*|(?<=\))\s+", text)
    return [p.strip() for p in parts if p and p.strip()]


def _question(sentence: str) -> bool:
    s = sentence.strip()
    if _INTERROGATIVE.match(s):
        return True
    return s.endswith("?") and not re.search(r"\b(?:i|i'm|im|my|we|we're|our)\b", s, re.I)


def _intro(text: str, speaker: str | None) -> str:
    """A guest's "Rosa here," / "Hi, it's Tom." / "This is Margaret, Paul's mother." taken off:
    the name is already the message's author."""
    if not speaker:
        return text
    first = re.escape(speaker.split()[0])
    m = re.match(
        rf"^\W*(?:(?:hi|hello|hey|hiya|salaam|ciao|morning|yo|ok)\W+)*(?:(?:it's|its|this is|i'm|i "
        rf"am|"
        rf"im|me)\s+)?"
        rf"{first}\b(?:\s*\([^)]*\))?(?:\s+(?:here|typing|again))?\s*(?:[,.!:;—–-]+\s*|\s+(?=i\b|i'm|"
        rf"im\b|my\b))",
        text,
        re.I,
    )
    return text[m.end() :] if m else text


def _routine(sentence: str, message: str = "") -> Heard | None:
    """ "I swim at Kirkstall on Tuesdays and Thursdays at 6:30", "Our cleaner Maria comes
    Wednesdays 10 till 12", "Swimming's moved to Mondays and Wednesdays": a habit, keyed by
    what it is (so the next word on it replaces it)."""
    clause = next((c for c in _CLAUSES.split(sentence) if c and re.search(RECUR, c, re.I)), None)
    if clause is None or re.search(
        r"\b(?:last|yesterday|ago|was|were|did|went|had)\b", clause, re.I
    ):
        return None
    s = re.sub(r"^(?:and|also|so|oh|but|then)\W+", "", clause.strip(), flags=re.I)
    m = re.match(
        rf"^(?:(?:{DAYNAMES})s\s+)?(?:i|we)(?:'ve| have)?(?: "
        rf"(?:usually|always|normally|still|also|"
        rf"both|only|now))?"
        rf" (?P<verb>[a-z]+)(?: (?P<obj>[a-z]+ing))?\b",
        s,
        re.I,
    )
    if m:
        verb = m.group("verb").lower()
        if verb in (
            "am",
            "'m",
            "m",
            "will",
            "would",
            "might",
            "could",
            "should",
            "can",
            "need",
            "want",
            "think",
            "hope",
            "wish",
            "like",
            "love",
            "hate",
        ):
            return None
        topic = (m.group("obj") or verb) if verb in ("go", "do", "get", "take") else verb
        # "swim at Kirkstall on Tuesdays": the speaker's habit
        doing = clean(s[m.start("verb") :], cut=False)
        return Heard("", "routine", doing, "routine", topic=_stem(topic))
    m = re.match(
        rf"^(?:{MY}|the kids'|(?:{MY} )?(?P<rel>{REL})'s) (?:(?P<rel2>{REL}) )?(?:{NAME} "
        rf")?(?P<what>[a-z]+)",
        s,
        re.I,
    )
    if m and m.group("what").lower() not in ("is", "are", "was", "were", "has", "have"):
        whom = who(m.group("rel")) if m.group("rel") else ""
        what = m.group("rel2") or m.group("what")
        return Heard(whom, "routine", clean(s, cut=False), "routine", topic=_stem(what))
    m = re.match(r"^(?P<act>[a-z]+ing)(?:'s| has| is)(?: now)? (?:moved|changed|switched)", s, re.I)
    if m:
        return Heard(
            "",
            "routine",
            clean(s, cut=False),
            "routine",
            topic=_stem(m.group("act")),
            correction=True,
        )
    if re.match(r"^(?:now )?(?:it's|it is|that's|they're|it'll be)\b", s, re.I):
        # "Change of plan on the swimming: ... so it's Mondays and Wednesdays at 6:30 from now on"
        act = [
            a
            for a in re.findall(r"\b([a-z]{3,}ing)\b", message.lower())
            if a not in _NOT_ACTIVITIES
        ]
        if act:
            when = re.sub(r"^(?:now )?(?:it's|it is|that's|they're|it'll be)\s+", "", s, flags=re.I)
            return Heard(
                "",
                "routine",
                f"{act[0]} {clean(when, cut=False)}",
                "routine",
                topic=_stem(act[0]),
                correction=True,
            )
    return None


_NOT_ACTIVITIES = frozenset(
    """
morning evening nothing something anything everything thing during ring sing bring king spring string evening
ceiling building wedding pudding darling sibling ping wing sling cling sting
""".split()
)


_CLAUSES = compile_re(
    r",\s+|;\s+|:\s+|(?<!\s)\s+(?:but|so|because|since|though|although|whereas|otherwise)\s+", re.I
)


def _stem(word: str) -> str:
    w = who(word.lower())
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        if len(w) > 2 and w[-1] == w[-2]:
            w = w[:-1]
    return re.sub(r"(?<=[a-z]{3})s$", "", w)


def _note(body: str) -> Heard | None:
    """What someone asked to have remembered that no rule reads: kept as they said it, keyed by
    what it is about ("the wifi router is in the hallway cupboard" -> note on the wifi router)."""
    text = clean(re.sub(r"\s+if i (?:ever )?ask.*$", "", body, flags=re.I), cut=False)
    m = re.match(
        r"^(?P<subject>.{3,60}?)\s+(?:is|are|'s|has|have|was|goes|lives|comes|keeps|holds|"
        r"needs)\b",
        text,
        re.I,
    )
    if not m or "?" in body or _question(text) or re.match(r"^(?:to|me|you|i said)\b", text, re.I):
        return None
    subject = re.sub(r"^(?:the|my|our|a|an)\s+", "", m.group("subject"), flags=re.I)
    return Heard(
        "",
        "note",
        text,
        "note",
        topic=_stem("_".join(re.findall(r"[a-z0-9]+", subject.lower())[:3])),
    )


_PRONOUN_FACTS = [
    (compile_re(r"\b(?:[Ss]he|[Hh]e)(?:'s| is) (?:a|an) (?P<job>(?:[a-z-]+ ){0,2}[a-z-]+)"), "job"),
    (
        compile_re(
            r"\b(?:she|he)(?:'s| is) (?P<age>\d{1,2})\b(?! "
            r"?(?:%|minutes|mins|hours|km|miles|kg|pm|"
            r"am))",
            re.I,
        ),
        "age",
    ),
    (
        compile_re(
            r"\b(?:[Ss]he|[Hh]e)(?:'s| is) (?:the one |still |now )?in (?P<place>[A-Z][\w'-]+(?: "
            # not a school year, a class or a room: "she's in Year 3", "he's in Room 12"
            r"[A-Z][\w'-]+)?)\b(?!\s*\d)"
        ),
        "location",
    ),
]


def _antecedent_facts(sentence: str, antecedent: str) -> list[Heard]:
    """ "my mum lives in Cork, she's 78": the pronoun is the relation named just before."""
    out = []
    for pattern, attribute in _PRONOUN_FACTS:
        m = pattern.search(sentence)
        if m:
            value = m.group(1)
            if attribute == "location" and not named(value):
                continue
            if attribute == "job":  # "he's a dentist", not "he's a nightmare"
                value = clean(value, cut=True)
                if re.sub(r"s$", "", value.lower().split()[-1] if value else "") not in W.JOBS:
                    continue
            out.append(Heard(antecedent, attribute, value, f"{attribute}-pronoun"))
    return out


_PHONE_MODEL = compile_re(
    rf"\b(?:(?P<pre>\w+) )?(?:the |my |an? )?(?P<p>(?:{'|'.join(W.PHONES)})(?: "
    rf"(?-i:[A-Z0-9])"
    r"[\w+]*){0,2})",
    re.I,
)


def _phone_named(body: str) -> Heard | None:
    """ "My phone's nearly dead. Does the Pixel 8 fast-charge ...?": the phone the speaker
    speaks of as theirs is the model named in the same message (not one they would buy)."""
    if not re.search(r"\bmy phone\b", body, re.I):
        return None
    for m in _PHONE_MODEL.finditer(body):
        before = body[max(0, m.start() - 25) : m.start()].lower()
        if re.search(
            r"\b(?:get|getting|buy|buying|new|or|than|vs|versus|upgrade|switch|like|want|wants|"
            r"should)\b",
            before + " " + (m.group("pre") or "").lower(),
        ):
            return None
        return Heard("", "phone", m.group("p"), "phone-named")
    return None


def _last_name(sentence: str) -> str:
    """The last capitalised word of a sentence that can be a name (not its first word, not a
    month, a day, a pronoun...): "Took Biscuit to the vet" -> "Biscuit"."""
    names = [w for w in re.findall(rf"(?<=\s)({NAME})(?![\w'])", sentence) if w not in NOT_NAMES]
    first = re.match(rf"^({NAME}) and (?:I|i|me)\b", sentence)  # "Maria and I had dinner"
    if not names and first and first.group(1) not in NOT_NAMES:
        names = [first.group(1)]
    return names[-1] if names else ""


def extract(
    text: str, *, speaker: str | None = None, known_secrets: tuple[str, ...] = (), before: str = ""
) -> list[Heard]:
    """The facts ``text`` states. ``speaker``: the author's name when it is a guest, so that
    their self-introduction ("Rosa here, ...") is not read as a fact. ``before``: what the same
    person said just before, for whom "she" is ("Maria and I had dinner" / "she's been my wife
    for 12 years")."""
    if not text or len(text) > MAX_CHARS:
        return []
    text = " ".join(
        text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').split()
    )
    if secret(text, known_secrets):
        return []
    text = _intro(text, speaker)
    remembered: re.Match[str] | None = _REMEMBER.match(text)
    body = remembered.group("body") if remembered else text
    asked = _ASKED.search(body)  # "the router is in the hallway cupboard if I ever ask"
    if asked:
        body = body[: asked.start()]
    said = body if remembered or asked else text
    # "Should I book it?" after "My car's the grey Skoda Octavia": a question's doubt is its own
    stated = (
        " ".join(x for x in _sentences(said) if not _question(x))
        if len(_sentences(said)) > 1
        else said
    )
    if _unreal(said, stated or said):
        return []
    body = _QUOTED.sub(" ", body)
    correction = bool(_CORRECTION.search(body))
    heard: list[Heard] = []
    antecedent = ""
    # the last proper name of the sentence before (not its first word)
    prior = _sentences(" ".join(before.split())) if before and len(before) <= MAX_CHARS else []
    last_name = next((n for n in map(_last_name, reversed(prior)) if n), "")
    for sentence in _sentences(body):
        sentence = sentence.strip()
        rel = list(re.finditer(rf"\b{MY} (?P<rel>{REL})\b", sentence, re.I))
        if _question(sentence) and not remembered:
            antecedent = who(rel[-1].group("rel")) if rel else antecedent
            # "Can you text my sister Rachel?": a request that names someone still says who they are
            for m in _APPOSITION.finditer(sentence):
                name = named(m.group("name"))
                if name:
                    heard.append(Heard(who(m.group("rel")), "name", name, "relation-name"))
            last_name = _last_name(sentence)
            continue
        sentence = _CONDITIONAL.sub("", sentence).strip()
        found: list[Heard] = []
        pet = _IS_MY.match(sentence)
        kind = pet.group("kind").lower() if pet else ""
        if pet and last_name and (kind in W.PETS or kind in W.BREEDS):
            found.append(Heard(who(kind), "name", last_name, "pet-name"))
            if kind in W.BREEDS:
                found.append(Heard(who(kind), "breed", kind, "pet-breed"))
        # a relation is said as "my wife", not "a wife"
        elif pet and last_name and pet.group("own"):
            found.append(Heard(who(kind), "name", last_name, "relation-name"))
        it_car = _IT_IS_CAR.match(sentence)
        if it_car and re.search(r"\b(?:my |the |our )?car\b", f"{before} {body}", re.I):
            found += [replace(h, rule="car-it") for h in car(it_car, sentence)]
        banned = _NOT_FOR.search(sentence)
        if banned and last_name:  # "Biscuit ... so no chicken at all for him from now on"
            food = clean(banned.group("food") or banned.group("food2"), cut=True).lower()
            if food and food.split()[0] not in (
                "more",
                "longer",
                "idea",
                "way",
                "time",
                "point",
                "need",
                "reason",
            ):
                found.append(Heard(last_name, "food restriction", "no " + food, "not-for"))
        diet_alone = _DIET_ALONE.match(sentence)
        if diet_alone:
            found.append(Heard("", "diet", W.DIETS[diet_alone.group("d").lower()], "diet"))
        moved = _NOW_ON.match(sentence)
        provider = re.search(rf"\b(?:the|my) (?P<what>{PROVIDERS})\b", body, re.I)
        if moved and provider:
            what = re.sub(r"'s$", "", provider.group("what").lower())
            found.append(
                Heard(
                    "",
                    "appointment",
                    clean(moved.group("value"), cut=False),
                    "appointment",
                    topic={"gp": "GP", "dental": "dentist"}.get(what, what),
                    correction=True,
                )
            )
        last_name = _last_name(sentence)
        for name, pattern, build in compiled():
            for m in pattern.finditer(sentence):
                found += [replace(h, rule=name) for h in build(m, sentence)]
        if antecedent and not rel:
            found += _antecedent_facts(sentence, antecedent)
        if rel:
            found += _antecedent_facts(sentence[rel[-1].end() :], who(rel[-1].group("rel")))
            antecedent = who(rel[-1].group("rel"))
        habit = _routine(sentence, body)
        if habit:
            found.append(habit)
        heard += found
    phone = _phone_named(body)
    if phone and not any(h.attribute == "phone" and not h.about for h in heard):
        heard.append(phone)
    pets = [h.about for h in heard if h.about in W.PETS.values()]
    heard = [
        replace(h, about=pets[-1]) if h.about == "\0pet" and pets else h
        for h in heard
        if h.about != "\0pet" or pets
    ]
    if (remembered or asked) and not heard:
        note = _note(body)
        if note:
            heard.append(note)
    out: dict[tuple[str, str, str], Heard] = {}
    for h in heard:
        if h.value and (h.about, h.attribute, h.topic) not in out:
            out[(h.about, h.attribute, h.topic)] = replace(h, correction=h.correction or correction)
    return list(out.values())
