"""What tatlock knows about its owner and their world: facts, kept without the model's help.

One model: a **fact** is the current value of one thing about someone, kept under a key
("location", "sister.name", "allergy", "tom.allergy", "routine.swim"), with whom it is about
("owner", "owner's sister", "Tom", "Tom's dog"), who said it, in which message, and how it was
learnt (``hand``: ``tatlock var set`` or the API; ``tool``: the model called
``set_personal_variable``; ``heard``: read from a message by the extractor). The personal
variables of earlier versions are facts about the owner. A new value for a key supersedes the
old one, which is kept as history (``store/facts.py``).

Here: reading a stored message for facts and keeping them (:func:`keep_from`, at the step where
the question is stored: a millisecond or so), the line that tells the user what was kept
(:func:`acknowledge`), the facts block of the prompt (:func:`block`), and which kept facts
answer a question (:func:`answering`).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from tatlock.memory.fact_extract import MULTI, Heard, extract
from tatlock.memory.tokens import Estimator
from tatlock.store.user import MAX_VAR_KEY, Message, UserStore, Variable

log = logging.getLogger(__name__)

FACTS_SHARE = 0.12  # of the context budget, at most, for the facts block
MAX_NOTED = 3  # facts named in the acknowledgement; more are counted


@dataclass(frozen=True)
class Noted:
    """One fact kept from a message: ``status`` "new", "changed" (``before`` replaced) or "same"."""

    fact: Variable
    status: str
    before: str | None = None


# -- keeping -----------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", text.lower()))


def key_of(about: str, attribute: str, topic: str = "") -> str:
    """The key a fact is kept under: "allergy" (the owner's), "sister.name", "tom.allergy",
    "tom.dog.name", "routine.swim"."""
    parts = [] if about == "owner" else [_slug(p) for p in re.split(r"'s\s+", about)]
    if parts and parts[0] == "owner":
        parts = parts[1:]
    parts += [_slug(attribute)] + ([_slug(topic)] if topic else [])
    return ".".join(p for p in parts if p)[:MAX_VAR_KEY].rstrip("._")


def _subject(h: Heard, base: str, current: list[Variable], owner: str) -> str:
    """Whom a heard fact is about, from the speaker's point of view: "owner's sister" when the
    owner says "my sister"; a name already known as someone's name is that someone."""
    if not h.about:
        return base
    if h.about[0].islower():
        return f"{base}'s {h.about}"
    name = h.about.casefold()
    if name == owner.casefold() or name == owner.split()[0].casefold():
        return "owner"
    for f in current:  # "Ella's 10 now", when Ella is the owner's daughter
        if (f.attribute or "") == "name" and f.value.casefold() == name and f.about != "owner":
            return f.about
    return h.about


def _merge(old: str | None, h: Heard) -> str:
    """A several-valued fact ("allergy"): the new value added, the one it corrects taken out."""
    items = [x.strip() for x in (old or "").split(",") if x.strip()]
    if h.drop:
        items = [
            x
            for x in items
            if h.drop.casefold() not in x.casefold() and x.casefold() not in h.drop.casefold()
        ]
    if not any(x.casefold() == h.value.casefold() for x in items):
        items.append(h.value)
    return ", ".join(items)


def _said_before(store: UserStore, message: Message) -> str:
    """The same person's message just before this one in the conversation (who "she" is)."""
    if message.message_number <= 1:
        return ""
    earlier = store.messages(
        message.conversation_id, max(1, message.message_number - 4), message.message_number - 1
    )
    mine = [m for m in earlier if m.role == "user" and m.author_id == message.author_id]
    return mine[-1].content if mine else ""


def keep_from(
    store: UserStore, message: Message, *, owner: str, known_secrets: tuple[str, ...] = ()
) -> list[Noted]:
    """Read a stored message for facts and keep them, attributed to its author (a guest's
    statement is theirs: "I'm allergic to shellfish" from Tom is Tom's allergy). Never raises:
    a fact that cannot be kept is logged, and the turn goes on."""
    if message.role != "user" or message.author_is_bot:
        return []
    speaker = None if message.is_anchor else message.author_name
    try:
        heard = extract(
            message.content,
            speaker=speaker,
            known_secrets=known_secrets,
            before=_said_before(store, message),
        )
        if not heard:
            return []
        base = "owner" if message.is_anchor else message.author_name
        current = store.vars()
        by_key = {v.key: v for v in current}
        said: list[Variable] = []  # kept from this message so far ("my sister Maria's birthday")
        noted: list[Noted] = []
        for h in heard:
            about = _subject(h, base, said + current, owner)
            attribute = f"{h.attribute} ({h.topic.replace('_', ' ')})" if h.topic else h.attribute
            key = key_of(about, h.attribute, h.topic)
            old = by_key.get(key)
            value = _merge(old.value if old else None, h) if h.attribute in MULTI else h.value
            # "rebooked in Craster instead": the same trip, elsewhere
            if h.rule == "trip-place" and old:
                value = _moved(old.value, h.value)
            kept = store.set_var(
                key,
                value,
                author_id=message.author_id,
                source_message_id=message.message_id,
                about=about,
                attribute=attribute,
                author_name=message.author_name,
                origin="heard",
                statement=message.content[:500],
            )
            by_key[key] = kept.fact
            said.append(kept.fact)
            noted.append(Noted(kept.fact, kept.status, kept.before))
        return noted
    except Exception:
        log.exception("facts could not be kept from message %s", message.message_id)
        return []


def _moved(trip: str, place: str) -> str:
    """ "cottage in Bamburgh from 28 December to 2 January" moved to Craster: the place replaced,
    the dates kept (a trip with no place in it becomes the new place)."""
    m = re.search(r"\b(?:in|at|near|on|to) ((?:[A-Z][\w'-]+)(?:[ -][A-Z][\w'-]+)*)", trip)
    if m and not m.group(1).split()[0].lower().startswith(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    ):
        return trip[: m.start(1)] + place + trip[m.end(1) :]
    if re.match(r"^[A-Z][\w'-]*\b", trip):  # "Crete on the 3rd of June": the place first
        return re.sub(r"^[A-Z][\w'-]*(?:[ -][A-Z][\w'-]+)*", place, trip, count=1)
    return place


# -- saying it ---------------------------------------------------------------------------------


def subject_label(about: str, owner: str) -> str:
    """ "owner's sister" -> "Hannah's sister"."""
    return owner + about[5:] if about == "owner" or about.startswith("owner's ") else about


def line(fact: Variable, owner: str) -> str:
    """One fact as the prompt and the panes show it: "Hannah's sister's name: Harriet"."""
    what = fact.attribute or fact.key.replace("_", " ")
    return f"{subject_label(fact.about, owner)}'s {what}: {fact.value}"


def _to_speaker(about: str, speaker_base: str, owner: str) -> str:
    """Whose, as said to the speaker: "your", "your sister's", "Tom's", "Hannah's"."""
    if about == speaker_base:
        return "your"
    if about.startswith(speaker_base + "'s "):
        return "your " + about[len(speaker_base) + 3 :] + "'s"
    return subject_label(about, owner) + "'s"


def _second_person(text: str) -> str:
    swaps = {
        "i": "you",
        "i'm": "you're",
        "im": "you're",
        "i've": "you've",
        "my": "your",
        "me": "you",
        "we": "you",
        "we're": "you're",
        "our": "your",
        "us": "you",
        "mine": "yours",
        "am": "are",
    }
    return re.sub(
        r"\b(?:i'm|i've|im|i|my|me|we're|we|our|us|mine|am)\b",
        lambda m: swaps.get(m.group().lower(), m.group()),
        text,
        flags=re.I,
    )


# attributes kept under a verb (memory/fact_table.py), said as a sentence: (to you, of another)
_VERB_ATTRIBUTES = {
    "grew up in": ("grew up in", "grew up in"),
    "from": ("are from", "is from"),
    "plays": ("play", "plays"),
    "dislikes": ("dislike", "dislikes"),
}


def acknowledge(noted: list[Noted], *, speaker_is_owner: bool, speaker: str, owner: str) -> str:
    """The short line that tells the user what was kept: "(noted: your sister's name is
    Harriet)"; a change says what it replaced. Empty when nothing new was kept."""
    base = "owner" if speaker_is_owner else speaker
    said = []
    for n in noted:
        if n.status == "same":
            continue
        f = n.fact
        what = (f.attribute or f.key).split(" (")[0]
        if what in ("routine", "note"):
            text = _second_person(f.value)
            if (
                what == "routine"
                and f.about == base
                and re.match(r"[a-z]", text)
                and not re.match(r"(?:your|the|a|an)\b|\w+ing\b", text)
            ):
                text = "you " + text  # "swim at Kirkstall on Tuesdays": the speaker's own habit
        # "you grew up in Aberdeen", not "your grew up in is Aberdeen"
        elif what in _VERB_ATTRIBUTES:
            whose = _to_speaker(f.about, base, owner)
            you = whose == "your"
            subject = "you" if you else whose.removesuffix("'s")
            text = f"{subject} {_VERB_ATTRIBUTES[what][0 if you else 1]} {f.value}"
        else:
            whose = _to_speaker(f.about, base, owner)
            text = (
                f"{whose} {what} {'are' if what.endswith('s') and what != 'address' else 'is'} "
                f"{f.value}"
            )
        if n.status == "changed" and n.before and what not in ("routine", "note"):
            text += f" (was {n.before})"
        said.append(text)
    if not said:
        return ""
    more = f"; and {len(said) - MAX_NOTED} more" if len(said) > MAX_NOTED else ""
    return "(noted: " + "; ".join(said[:MAX_NOTED]) + more + ")"


# the first word of a sentence that asks for a piece of work (as_answer)
_TASK_VERBS = set(
    "suggest write draft give tell find recommend make plan help explain translate list show "
    "summarise summarize compose create book order send call text email remind check what how "
    "which who where when why can could would".split()
)


def as_answer(noted_line: str, message: str) -> str:
    """The answer when the model's failed and what the user said was kept: the acknowledgement
    itself ("Very good, $sir: noted that your dentist is Dr Okafor."), not an apology that asks
    them to say again what is already kept. A message with more in it than the statement (a
    question, a second sentence: "I'm vegetarian. Suggest a dinner.") also says the rest went
    unanswered. ``$sir`` is the persona's form of address (pipeline/voice.py)."""
    said = noted_line.strip().removeprefix("(noted: ").removesuffix(")")
    line = f"Very good, $sir: noted that {said}."
    sentences = [s for s in re.split(r"[.!?;]+(?:\s|$)", message.strip()) if s.strip()]
    # a sentence that asks for something ("Suggest a dinner.", "Help me plan a party for my
    # sister Harriet"), not one about keeping it ("Keep that in mind if I ask about medicines.")
    asks = any((re.findall(r"[a-z']+", s.lower()) or [""])[0] in _TASK_VERBS for s in sentences)
    if "?" in message or asks:
        line += " My answer to the rest went astray, $sir; would you ask me that again?"
    return line


# -- using it ----------------------------------------------------------------------------------

# words a question uses for what a fact is kept under
_SYNONYMS = {
    "called": "name",
    "call": "name",
    "named": "name",
    "names": "name",
    "live": "location",
    "lives": "location",
    "living": "location",
    "where": "location",
    "home": "location",
    "town": "location",
    "city": "location",
    "part": "location",
    "area": "location",
    "allergic": "allergy",
    "allergies": "allergy",
    "mustn't": "allergy",
    "eat": "diet",
    "work": "job",
    "works": "job",
    "do": "job",
    "employer": "job",
    "born": "birthday",
    "birthdays": "birthday",
    "married": "anniversary",
    "wedding": "anniversary",
    "drive": "car",
    "drives": "car",
    "vehicle": "car",
    "brew": "tea",
    "cuppa": "tea",
    "support": "team",
    "follow": "team",
    "football": "team",
    "pool": "swim",
    "swimming": "swim",
    "swims": "swim",
    "old": "age",
    "age": "age",
    "mum": "mother",
    "mom": "mother",
    "dad": "father",
    "kids": "children",
    "husband's": "husband",
    "wife's": "wife",
    "sister's": "sister",
    "brother's": "brother",
    "passport": "passport",
    "expires": "expiry",
    "run": "expiry",
    "mobile": "phone",
    "medicine": "allergy",
    "medicines": "allergy",
    "meds": "medication",
    "pills": "medication",
}
_STOP = frozenset(
    """
a an the of to in on at for and or is are was be my our your his her their its it i me we us he she they them with
from by as that this what whats what's who whos who's when whens when's which how does did do again remember tell
you know can could would should will me please again say said told there here any about have has had just so now
""".split()
)


def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9']+", text.lower()):
        w = w.strip("'")
        if w.endswith("'s"):
            w = w[:-2]
        if not w or w in _STOP:
            continue
        out.add(_SYNONYMS.get(w, w))
        if len(w) > 4 and w.endswith("s"):
            out.add(w[:-1])
    return out


def answering(
    facts: list[Variable], question: str, *, owner: str, speaker: str | None = None, limit: int = 5
) -> list[Variable]:
    """The kept facts that answer ``question`` best, best first (none when nothing in the
    question points at a fact). ``speaker``: a guest asking, so that "my" is theirs. Plain
    word overlap between the question and each fact's subject, attribute and value, the
    question's words mapped to the words facts are kept under ("called" -> name, "live" -> home)."""
    q = _words(question)
    mine = "owner" if speaker is None else speaker
    owner_words = {w.casefold() for w in owner.split()}
    asks_owner = bool(owner_words & q) or (
        bool(re.search(r"\b(?:my|me|i|am)\b", question, re.I)) and speaker is None
    )
    scored = []
    for f in facts:
        subject = subject_label(f.about, owner)
        words = _words(
            f"{subject} {f.attribute or ''} {f.key.replace('.', ' ').replace('_', ' ')} {f.value}"
        )
        common = q & words
        if not common:
            continue
        score = float(len(common))
        about_words = _words(f.about.replace("owner", ""))
        score += 1.5 * len(q & about_words)  # the person asked about
        if f.about == mine or (asks_owner and f.about.startswith("owner")):
            score += 0.5
        if about_words and not (q & about_words) and not (q & _words(f.value)):
            score -= 1.0  # "my sister" asked, this is the dog's
        if score >= 1.0:
            scored.append((score, f.updated_at, f))
    scored.sort(key=lambda x: x[1], reverse=True)  # the newest first among equals
    scored.sort(key=lambda x: -x[0])
    return [f for _, _, f in scored[:limit]]


def block(
    facts: list[Variable],
    *,
    owner: str,
    question: str = "",
    budget_tokens: int = 4096,
    estimator: Estimator | None = None,
) -> str:
    """The facts block of the prompt: every kept fact, one a line, in a fixed order (by whom,
    then key), so that the block stays byte-identical from turn to turn and the server's
    prompt cache reuses it. When they do not fit their share of the context, the ones that
    answer the question come first, then the newest (the block then changes with the question)."""
    if not facts:
        return ""
    est = estimator or Estimator()
    room = int(budget_tokens * FACTS_SHARE)
    head = (
        f"## What you have been told (kept facts: {owner} is the owner; the newest value of each)\n"
    )
    lines = {f.key: "- " + line(f, owner) for f in facts}
    chosen = list(facts)
    if est.text(head + "\n".join(lines.values())) > room:
        first = answering(facts, question, owner=owner, limit=10) if question else []
        rest = sorted(
            (f for f in facts if f not in first), key=lambda f: f.updated_at, reverse=True
        )
        chosen, used = [], est.text(head)
        for f in first + rest:
            cost = est.text(lines[f.key]) + 1
            if used + cost > room:
                continue
            chosen.append(f)
            used += cost
    chosen.sort(key=lambda f: (f.about != "owner", f.about, f.key))
    return head + "\n".join(lines[f.key] for f in chosen)
