"""The fact extractor's table of rules: each a name, a pattern and what it keeps from a match
(the builders and the shapes the patterns are made of are in ``memory/fact_rules.py``). A rule
matches inside one sentence; patterns are compiled case-insensitive."""

from __future__ import annotations

import functools
import re

from tatlock import regexcache
from tatlock.memory import fact_words as W
from tatlock.memory.fact_rules import (
    DATE,
    DATE_M,
    MY,
    NAME,
    PET,
    PLACE,
    PROVIDERS,
    REL,
    STAYS,
    TIME,
    UP,
    WHO,
    Build,
    age,
    allergy,
    appointment,
    attr,
    breed,
    car,
    condition,
    dated,
    diet,
    favourite,
    fixed,
    home,
    job,
    medication,
    moving,
    pet_name,
    phone,
    rel_name,
    rel_names,
    support,
)

_DIET_WORDS = "|".join(re.escape(w) for w in W.DIETS)
_CONDITION_WORDS = "|".join(re.escape(w) for w in sorted(W.CONDITIONS, key=len, reverse=True))

_INSTRUMENTS = (
    r"piano|keyboard|guitar|bass|bass guitar|drums|violin|viola|cello|double "
    r"bass|flute|clarinet|"
    r"saxophone|sax|trumpet|trombone|ukulele|harp|recorder|oboe|bassoon|banjo|mandolin|harmonica|accordion"
)
_EMPLOYER = rf"{UP}[\w&'-]*(?: (?:&|and|of) {UP}[\w'-]*| {UP}[\w&'-]*)*"
_TEAM = rf"{UP}[\w.'-]*(?: {UP}[\w.'-]*){{0,2}}"
_PLURAL_REL = r"(?:kids|children|sons|daughters|boys|girls|grandchildren|grandkids|sisters|brothers|dogs|cats)"

RULES: list[tuple[str, str, Build]] = [
    # names: "my sister is called Harriet", "my husband Tom", "Dad's name is Brian", "our cleaner
    # Maria"
    (
        "relation-name",
        rf"\b{MY} (?P<rel>{REL})(?:'s name| name)?(?: is called| is named|'s "
        rf"called|'s named| is|'s"
        rf"| name's|,| he is called| she is called| he's called| she's called| who is "
        rf"called)? "
        rf"(?P<name>{NAME}(?: {NAME})?)(?![\w'])",
        rel_name,
    ),
    ("relation-name", rf"\b{MY} (?P<rel>{REL}) (?P<name>{NAME})'s\b", rel_name),
    (
        "relation-name",
        rf"(?:^|\b{MY} )(?P<rel>mum|dad|mom|gran|grandma|grandad|nan|nana)'s name is "
        rf"(?P<name>{NAME})",
        rel_name,
    ),
    ("relation-name", rf"\b{MY} (?P<rel>{REL}),? (?:he|she) is called (?P<name>{NAME})", rel_name),
    # "Deborah, my boss, wants ...", "Pepper, our cat, has ...": a name set off by commas
    (
        "relation-name",
        rf"(?:^|\b(?:to|with|and|called|rang|saw|met|see) )(?P<name>{NAME}), {MY} "
        rf"(?P<rel>{REL})"
        rf"(?:,|[.!]?$)",
        rel_name,
    ),
    (
        "pet-name",
        rf"(?:^|\b(?:and|with|fed|walked|took) )(?P<name>{NAME}), {MY} "
        rf"(?P<rel>{PET})(?:,|[.!]?$)",
        pet_name,
    ),
    (
        "relation-name",
        rf"(?<![\w'])(?P<rel>(?-i:Grandma|Granny|Gran|Nana|Nanna|Grandad|Grandpa|Granddad|Aunt|"
        rf"Auntie|Aunty|Uncle|Cousin)) (?P<name>{NAME})(?![\w])",
        rel_name,
    ),
    # "we got a new puppy!!! cockapoo called Nacho": a pet the speaker has, named
    (
        "pet-name",
        rf"\b(?:i|we)(?:'ve| have)? (?:just |finally "
        rf")?(?:got|have|adopted|bought|rescued|brought home)\b"
        rf"[^.?]*?\b(?P<rel>{PET}) (?:called|named) (?P<name>{NAME})",
        pet_name,
    ),
    ("pet-name", rf"^(?:an? )?(?P<rel>{PET}) (?:called|named) (?P<name>{NAME})", pet_name),
    (
        "relation-names",
        rf"\b{MY} (?P<rel>{_PLURAL_REL}) are (?:called |named )?(?P<name>{NAME}(?:,? "
        rf"(?:and )?{NAME})+)",
        rel_names,
    ),
    (
        "pet-name",
        rf"\b(?:{MY}|a|an|new) (?:new |little |old |rescue |\d+[- ]year[- ]old "
        rf")?(?P<rel>{PET})"
        rf"(?: is| was|'s)? (?:called|named) (?P<name>{NAME})",
        pet_name,
    ),
    ("pet-name", rf"\b{MY} (?P<rel>{PET}),? (?P<name>{NAME})\b(?!')", pet_name),
    (
        "pet-breed",
        rf"\b(?:she|he|it)(?:'s| is) an? (?:\d+[- ]year[- ]old )?(?P<value>{PET})\b",
        breed,
    ),
    # the speaker's own name: "my name is Priya", "I'm Priya by the way", "call me Pri", "my maiden
    # name, Kowalski"
    ("name", rf"\bmy name is (?P<value>{NAME}(?: {NAME})?)", attr("name", cut=False, proper=True)),
    (
        "name",
        rf"\bi'?m (?P<value>{NAME}) (?:by the way|btw)\b",
        attr("name", cut=False, proper=True),
    ),
    (
        "surname",
        rf"\bmy (?P<what>maiden name|surname|last name|middle name|married name)(?:,| "
        rf"is|'s|:) "
        rf"(?P<value>{NAME})",
        attr("{what}", cut=False, proper=True),
    ),
    (
        "preferred-name",
        rf"(?:\bcall me|\bi go by|\bit's|^its|^just) (?P<value>{NAME})(?=,| not\b| "
        rf"please|\.|$)",
        attr("preferred name", cut=False, proper=True),
    ),
    # allergies: "I'm allergic to penicillin", "my daughter is allergic to eggs", "my nut allergy"
    (
        "allergy",
        rf"\b(?:i'?m|i am|im|i've always been|i have been|{MY} (?P<rel>{WHO})(?: \w+)? "
        rf"(?:is|'s))(?: \w+)?"
        r" allergic to (?P<value>[^.!?;]+)",
        allergy,
    ),
    ("allergy", r"\b(?:the|my) allergy(?:'s| is) (?:to )?(?P<value>[^.!?;]+)", allergy),
    (
        "allergy",
        r"\b(?:i have|i've got|my) (?:an? )?(?:severe |serious |bad |mild "
        r")?(?P<value>[a-z]+) allergy\b",
        allergy,
    ),
    # diet, conditions, medication
    (
        "diet",
        rf"\b(?:i'?m|i am|im|i've been|i have been|as a|i eat|i only eat|i'm now|i went|i've "
        rf"gone|i have gone"
        rf"|i turned|i became|we went|we've gone|(?:so |, "
        rf")?(?:{_DIET_WORDS}) now)\b",
        diet,
    ),
    (
        "condition",
        rf"\b(?:i'?m|i am|im|i've been|i have|i've got|i get|i suffer from)(?: \w+)?? "
        rf"(?P<c>{_CONDITION_WORDS})\b"
        r"(?P<extra> \((?:red-green|[\w -]{1,20})\)| type [12]\b)?",
        condition,
    ),
    (
        "condition",
        r"\bi'?m (?P<c>deaf|blind) in (?:my|one) (?P<extra>(?:left|right) (?:ear|eye))",
        condition,
    ),
    (
        "medication",
        r"\bi'?m (?:now )?on (?P<value>(?:\d+(?:\.\d+)?\s?(?:mg|mcg|ml) (?:of "
        r")?)?(?P<drug>[a-z]{5,})"
        r"(?: \d+(?:\.\d+)?\s?(?:mg|mcg|ml))?)(?: (?:every|each|twice|once|a day|"
        r"daily)[^,.;!?]*)?",
        medication,
    ),
    (
        "handedness",
        r"\bi'?m (?P<value>left[- ]handed|right[- ]handed|ambidextrous)",
        attr("handedness"),
    ),
    ("religion", r"\bi'?m (?:a )?(?P<value>" + "|".join(W.RELIGIONS) + r")\b", attr("religion")),
    # work: "I'm a primary school teacher", "I work as a paralegal at Hobbs Wright", "I work at
    # Rolls-Royce"
    (
        "job",
        r"\b(?:i'?m|i am|im|i work as|i'm working as|i've (?:just )?started (?:a new job|work) "
        r"as|new job as)"
        r" (?:a|an|the) (?P<job>(?:(?!(?:at|for|in|with|and|so|but|now|too)\b)[a-z-]+ "
        r"){0,3}(?!(?:at|for|in|"
        r"with|and|so|but|now|too)\b)[a-z-]+)"
        rf"(?: (?:at|for|in) (?P<where>{UP}[^,.!?;]+))?",
        job,
    ),
    (
        "job",
        rf"\b{MY} (?P<rel>{REL})(?: {NAME})?(?:,)? (?:is|'s|works as|is working as) (?:a|an) "
        r"(?P<job>(?:(?!(?:at|for|in|with|and|so|but|now|too)\b)[a-z-]+ ){0,3}(?!(?:at|for|in|"
        r"with|and|so|but|now|too)\b)[a-z-]+)"
        rf"(?: (?:at|for|in) (?P<where>{UP}[^,.!?;]+))?",
        job,
    ),
    (
        "employer",
        rf"\bi work (?:at|for) (?P<value>{_EMPLOYER})",
        attr("employer", cut=False, proper=True),
    ),
    (
        "employer",
        rf"\bi'?m (?:now )?at (?P<value>{_EMPLOYER})(?: in {UP}\w+)? now\b",
        attr("employer", cut=False, proper=True),
    ),
    (
        "employer",
        rf"\bmy (?:company|business|firm) is (?:called )?(?P<value>{_EMPLOYER})",
        attr("company", cut=False, proper=True),
    ),
    # home: "I live in Leeds", "we moved to York", "my mum lives in Cork", "we live at 14 Rowan
    # Close"
    (
        "home",
        rf"\b(?:i|we) (?:live|have lived|'ve lived|still live|now live|live here) in "
        rf"(?P<place>{PLACE})",
        home,
    ),
    (
        "home",
        rf"\b(?:i|we) (?:just |recently |finally |actually )?(?:moved|'ve moved|have "
        rf"moved|relocated)"
        rf" (?:up |down |over )?to (?P<place>{PLACE})(?! next| in the| this| soon)",
        home,
    ),
    ("home", rf"\bstaying (?:put )?in (?P<place>{PLACE})", home),
    (
        "home",
        rf"\b{MY} (?P<rel>{REL})(?: {NAME})? (?:lives|is living|has moved|moved|is moving|'s "
        rf"moving|is based|"
        rf"'s based) (?:in|to|up to|down to|over to) "
        rf"(?P<place>{PLACE})",
        home,
    ),
    ("home", rf"\bwe'?re in (?P<place>{PLACE}, in {PLACE})", home),
    (
        "moving",
        rf"(?:^|\s)(?P<name>{NAME})(?:'s| is| has) (?:now |just "
        rf")?(?:moving|moved|relocating) "
        rf"(?:up |down |over )?to (?P<place>{PLACE})",
        moving,
    ),
    (
        "moving",
        rf"(?:^|\s)(?P<name>{NAME})(?:'s| has| is)\b[^.!?]*?\b(?:in|to) "
        rf"(?P<place>{PLACE})\b[^.!?]*?\b(?:she|he)"
        rf"(?:'s| is) (?:moving|relocating) (?:up |down |over )?there\b",
        moving,
    ),
    (
        "from",
        rf"\bi'?m (?:originally )?from (?P<value>{PLACE})",
        attr("from", cut=False, proper=True),
    ),
    (
        "birthplace",
        rf"\bi was born in (?P<value>{PLACE})",
        attr("birthplace", cut=False, proper=True),
    ),
    (
        "birthplace",
        rf"(?P<value>{PLACE}) born and bred\b",
        attr("birthplace", cut=False, proper=True),
    ),
    # the speaker's own ("My brother Tom grew up in Leeds" was kept as the speaker's)
    (
        "grew-up",
        rf"\bi (?:(?:actually|originally|mostly|partly|also|really) )?grew up in "
        rf"(?P<value>{PLACE})",
        attr("grew up in", cut=False, proper=True),
    ),
    (
        "address",
        rf"\b(?:i|we) live at (?P<value>\d+[a-z]? {PLACE}(?:, {PLACE})?)",
        attr("address", cut=False),
    ),
    # things: "I drive a red Fiat 500", "my car is a Kia Niro", "new phone is a Pixel 8"
    (
        "car",
        r"\b(?:i drive|we drive|my car is|my car's|our car is|picked up|i bought|we "
        r"bought|we've got|i've got"
        r"|my car needs its \w+,?|i have) (?:a|an|the) (?P<car>(?:[\w-]+ "
        r"){0,3}(?-i:[A-Z0-9])[\w-]*"
        r"(?: (?-i:[A-Z0-9])[\w-]*){0,2}(?: "
        r"(?:estate|hatchback|ev|hybrid|electric|convertible|van))?)",
        car,
    ),
    (
        "phone",
        rf"\b(?:my|new|(?P<rel>{REL})'s) phone(?: is|'s) (?:an? |the )?(?P<value>[^,.!?;]+)",
        phone,
    ),
    (
        "instrument",
        rf"\bi (?:play|started|'ve started|have started|am learning|'m learning|learn) "
        rf"(?:the "
        rf")?(?P<value>{_INSTRUMENTS})\b",
        attr("plays"),
    ),
    (
        "age",
        r"\b(?:i'?m|i am|im) (?P<age>\d{1,3})(?: years old| year old| now)?(?= "
        r"*(?:btw|,|\.|!|$| and | but |"
        r" so | next))",
        age,
    ),
    (
        "age",
        rf"\b{MY} (?P<rel>{WHO}) is (?P<age>\d{{1,2}})(?: years old)?\b(?! "
        rf"?(?:%|minutes|mins|hours|km|miles|kg))",
        age,
    ),
    ("age", rf"\b(?P<name>{NAME})(?:'s| is) (?P<age>\d{{1,2}}) (?:now|years old)\b", age),
    ("age", rf"\ba (?P<age>\d{{1,2}})[- ]year[- ]old (?P<rel>{PET})\b", age),
    # dates: birthdays, anniversaries, weddings, expiries
    (
        "birthday",
        rf"\b(?:my|{MY} (?P<rel>{WHO})'?s|(?P<name>{NAME})'s) birthday(?:'s| is|'s on| is "
        rf"on)? "
        rf"(?P<value>{DATE})",
        dated("birthday"),
    ),
    (
        "birthday",
        rf"\bmy birthday (?:was|is) [^.]*? but it'?s (?P<value>{DATE})",
        dated("birthday"),
    ),
    (
        "anniversary",
        rf"\b(?:our|my) (?:wedding )?anniversary(?:'s| is)(?: on)? (?P<value>{DATE})",
        dated("anniversary"),
    ),
    ("anniversary", rf"\bwe got married (?:on )?(?P<value>{DATE})", dated("anniversary")),
    (
        "wedding",
        rf"\b(?:our|my) wedding(?: date)?(?:'s| is)(?: on)? (?P<value>{DATE}(?: at {UP}[\w' "
        rf"]+)?)",
        dated("wedding"),
    ),
    (
        "wedding",
        rf"\bwedding date(?:'s| has| is)? (?:changed|moved) to (?P<value>{DATE})",
        dated("wedding"),
    ),
    (
        "expiry",
        rf"\b{MY} (?P<what>passport|driving licence|licence|visa|railcard)(?: expires| runs "
        rf"out| ends)"
        rf" (?:in |on )?(?P<value>{DATE})",
        dated("{what} expiry"),
    ),
    (
        "appointment",
        rf"\b(?:i'?ve got|i have|i've|i got|got|i'm at|i'm seeing) (?:the|a|an|my) "
        rf"(?P<what>{PROVIDERS})"
        rf"(?: appointment| appt)? (?:on |at )?(?P<value>{DATE}(?:,? at {TIME})?)",
        appointment,
    ),
    (
        "appointment",
        rf"\b(?:my |the )?(?P<what>{PROVIDERS})(?: appointment| appt)?(?:'s| is| has "
        rf"been| has)? "
        rf"(?:now |been )?(?:moved|changed|rescheduled|put back|brought forward) to "
        rf"(?P<value>{DATE}(?:,? at {TIME})?)",
        appointment,
    ),
    # trips: "we've booked a cottage in Bamburgh from 28 December to 2 January", "we're going to
    # Crete on the 3rd of June for ten days"; "we've rebooked in Craster instead" changes the place
    (
        "trip",
        rf"\b(?:i|we)(?:'ve| have)? (?:just |finally )?booked (?:a|an|the|our) "
        rf"(?P<value>(?:[\w-]+ ){{0,2}}(?:{STAYS}) (?:in|at|near|on) {PLACE}"
        rf"(?: (?:from|for|on) {DATE_M}(?: (?:to|till|until|-) {DATE_M})?)?)",
        attr("trip", cut=False),
    ),
    (
        "trip",
        rf"\b(?:i'm|i am|we're|we are) (?:going|off|heading|flying|driving) (?:up |down |over "
        rf")?to "
        rf"(?P<value>{PLACE} (?:on|from) {DATE_M}(?: (?:to|till|until) {DATE_M}| for "
        rf"(?:a|one|two|three|\w+) "
        rf"(?:days?|weeks?|nights?))?)",
        attr("trip", cut=False, proper=True),
    ),
    (
        "trip-place",
        rf"\b(?:i|we)(?:'ve| have)? (?:re-?booked|moved it|switched it|changed it) "
        rf"(?:in|to|at|for) "
        rf"(?P<value>{PLACE})",
        attr("trip", cut=False, proper=True),
    ),
    (
        "trip-place",
        rf"\b(?:holiday|trip|cottage|booking|break)\b[^.!?]*?\bit'?s (?P<value>{PLACE}) "
        rf"now\b",
        attr("trip", cut=False, proper=True),
    ),
    (
        "mot",
        rf"\b(?:{MY} )?car'?s? mot (?:is )?due (?:on )?(?P<value>{DATE})",
        dated("car MOT due"),
    ),
    # teams, favourites, tastes
    ("support", rf"\bi (?:support|follow) (?P<team>{_TEAM})", support),
    # "Arsenal lost again, I've supported them since I was six"
    (
        "support",
        rf"(?:^|\s)(?P<team>{_TEAM})\b[^.!?]*?\bi(?:'ve| have)? (?:always "
        rf")?(?:supported|followed) them\b",
        support,
    ),
    ("support", rf"\bseason tickets? (?:for|at) (?P<team>{_TEAM})", support),
    (
        "support",
        rf"\b(?:i'?m|we'?re)(?: both| all)? (?P<team>{_TEAM}) through and through",
        support,
    ),
    (
        "favourite",
        r"\b(?:my )?fav(?:ou?rite|rite)? (?P<what>[a-z]+(?: [a-z]+)?) (?:is|are|'s) "
        r"(?:an? "
        r")?(?P<value>[^.!?;]+)",
        favourite,
    ),
    (
        "dislike",
        r"\bi (?:can'?t stand|cannot stand|detest|loathe|can'?t eat|never eat)"
        r" (?P<value>(?!being\b|it\b|that\b|this\b|when\b|how\b|you\b|him\b|her\b|them\b|the "
        r"way\b)[a-z][^.!?;,]*)",
        attr("dislikes"),
    ),
    ("tea", r"\bi take my (?P<what>tea|coffee) (?P<value>[^.!?;]+)", attr("{what}", cut=False)),
    # "I drink builders tea, milk and two sugars": how they take it follows the drink
    (
        "tea",
        r"\bi (?:drink|have|like|take) (?P<value>(?:[a-z']+ ){0,2}(?P<what>tea|coffee)(?:,| "
        r"with) [^.!?;]*?"
        r"\b(?:milk|sugars?|black|white|strong|weak|sweetener|honey|lemon|oat|soya|almond|cream|decaf)\b[^.!?;]*)",
        attr("{what}", cut=False),
    ),
    (
        "alcohol",
        r"\bi (?:don'?t|do not|never) drink\b(?! "
        r"(?:coffee|tea|milk|water|fizzy|much|enough))",
        fixed("alcohol", "does not drink"),
    ),
    ("alcohol", r"\bi'?m not drinking at all\b", fixed("alcohol", "does not drink")),
    (
        "language",
        rf"\bi speak (?P<value>{NAME}(?:(?:,| and| and a bit of| and some| and a little) "
        rf"{NAME})*)",
        attr("languages", cut=False, proper=True),
    ),
    (
        "pronouns",
        rf"\b(?:i go by|i use|(?P<rel>{REL}) {NAME} uses) "
        rf"(?P<value>(?:she|he|they|ze|xe)/\w+)",
        attr("pronouns", cut=False, about="rel"),
    ),
    (
        "blood",
        r"\bmy blood (?:type|group) is (?P<value>(?:AB|A|B|O)[ "
        r"+-]?(?:positive|negative|pos|neg|\+|-)?)",
        attr("blood type", cut=False),
    ),
    (
        "size",
        r"\bmy (?P<what>shoe|dress|shirt|ring|waist|trouser) size is (?P<value>[^.!?;,]+)",
        attr("{what} size"),
    ),
    (
        "provider",
        rf"\b(?:my|new) "
        rf"(?P<what>gp|doctor|dentist|vet|hairdresser|barber|optician|physio|accountant|solicitor"
        rf"|mechanic)(?: is|:) (?:called )?(?P<value>{UP}[^.!?;]*)",
        attr("{what}", proper=True),
    ),
    (
        "relation-attr",
        rf"\b(?:{MY}|the) (?P<rel>{REL}|kids|children)(?:'s|') "
        rf"(?P<what>school|nursery|college|university"
        rf"|job|workplace|team|teacher|surname) is (?P<value>{UP}[^.!?;]*)",
        attr("{what}", about="rel"),
    ),
]


@functools.cache
def compiled() -> list[tuple[str, re.Pattern[str], Build]]:
    """The rules compiled, on first use: a question never reaches them (the extractor drops
    questions first), so `tatlock ask "..."` does not pay for compiling them at start-up."""
    return [(n, regexcache.compile(p, re.I), b) for n, p, b in RULES]
