"""The deterministic side of routing, run beside the model's assessment.

Small models misroute the questions that matter most: about the butler itself (IDENTITY), what
it can do (CAPABILITIES), the current time or date (TEMPORAL), secrets (SECURITY), and questions
only a tool can answer (the weather, earlier conversations, this computer). ``decide(text)``
says what the message needs from two sources: the rules (``guard_rules``, ``needs``: each about
*you/your*, *now*, *me* or *our conversations*) and the classifier (calibrated probabilities).

Each label it finds is either **authoritative** or **advice** (see ``authority`` for how the
turn reconciles them with the model). Authoritative: the classifier's probability is at or above
the label's ``authority`` threshold, or a rule fired and the probability is at or above the
label's ``rule`` threshold, or the message lacks the label's words (``EVIDENCE``) and the
probability is at or above the label's ``bare`` threshold (measured apart on such messages; such
a decision never skips the model's assessment); each threshold was chosen by the trainer where
the decision was 99% precise or better on sets held out of training
(``scripts/train_routes.py``). Advice: a rule
fired, or the probability reached the ``advice`` threshold, but the precision was not measured
that high: the model's assessment decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tatlock.pipeline.routing import classifier, needs, wording
from tatlock.pipeline.routing.examples import GUARDS, TOOLS
from tatlock.pipeline.routing.gates import is_open, words
from tatlock.pipeline.routing.guard_rules import GATES as _GATES
from tatlock.pipeline.routing.guard_rules import RULES
from tatlock.pipeline.routing.needs import tool_keys

__all__ = [
    "GUARDS",
    "TOOLS",
    "Deterministic",
    "GuardMatch",
    "credible_guard",
    "decide",
    "rule_labels",
    "tool_hints",
    "tool_keys",
]

# words that carry no request of their own, for deciding whether anything is left (MIXED)
_FILLER = set(
    """a an and also the please now right today tell me you your i my is are it what what's whats
who how can could would will do does kindly tatlock sir then too as well just quickly here
so hey hi hello okay ok oh of to in on for sorry thanks thank excuse well um er alright btw anyway
principle theory general really exactly actually maybe perhaps briefly though butler some kind sort
hang hold wait quick q question hmm hm erm um uh lol haha forgive pardon asking dear mind don't wondering wonder
curious something else someone like confirm was were did does has have had been llama mistral gemma qwen phi gpt
chatgpt claude gemini openai google anthropic meta startup
""".split()
)

# a label found by the classifier alone must also have the label's words in the message (else it
# decides only at its stricter bare threshold); a verb of an action in the world ("text", "book",
# "order": classifier class "act") is a word of CAPABILITIES with or without a "you"
EVIDENCE = {
    "IDENTITY": ("you+name", "you+being"),
    "CAPABILITIES": ("you+ability", "act"),
    "TEMPORAL": ("clock",),
    "SECURITY": ("secret+owned",),
    "weather": ("weather",),
    "recall": ("past",),
    "personal": ("fact", "store", "mine"),
    "web": ("web",),
    "system": ("system",),
    "files": ("files",),
}
_GUARD_WORDS = {"you", "secret", "clock", "now", "ability"}  # word classes a guard question carries
# a guard the model claims is overruled only with no guard word and every guard below this
VETO_BELOW = 0.02
# a guard's message asks for more (MIXED) when the classifier's "other" is at least this
OTHER_AT = 0.5
# a decision without the label's words needs a message of at least this many words: one word
# ("now?", "name?") says too little; two can be a whole request ("Identify yourself.", "Call mum.":
# every two-word message decided without its words on sets held out of training was right, and
# the two-word small talk beside them ("and now?", "play on", "your turn") scores below the bare
# thresholds; round 5, from 3)
BARE_MIN_WORDS = 2
USE_CLASSIFIER = True  # the bench switches it off to score the rules alone


@dataclass(frozen=True)
class GuardMatch:
    reason: str  # IDENTITY | CAPABILITIES | TEMPORAL | SECURITY | MIXED
    parts: tuple[str, ...]  # the guard reasons found, in order
    rule: str  # which rule or classifier score, for the debug log
    other: str = ""  # what the question asks beyond the guards (MIXED)


@dataclass(frozen=True)
class Deterministic:
    # the guard the deterministic side decides alone (its reason may be MIXED)
    guard: GuardMatch | None
    tools: list[str] = field(default_factory=list)  # registry keys of the tools it decides alone
    sure: bool = False  # the tools must run even if the model answered directly
    needs: tuple[str, ...] = ()  # the needs behind the tools (weather, recall, ...), for the log
    why: str = ""  # the rules and scores that decided, for the debug log
    # guards and needs found, but not measured precise enough to decide alone
    advice: tuple[str, ...] = ()
    other: str = ""  # the part of the message no guard accounts for (for a MIXED guard)
    # one guard decided, nothing else found or doubted: the model's assessment is not needed
    pure: bool = False


def _rules(text: str) -> tuple[list[str], list[str], str]:
    """The guard reasons the rules find, the rules that fired, and the text they left."""
    if wording.QUOTED_ASK.search(text):
        text = wording.unquoted(text)
    reasons: list[str] = []
    fired: list[str] = []
    rest = text
    found = words(text)
    for reason, rules in RULES.items():
        if not is_open(_GATES.get(reason), found) or (
            reason == "TEMPORAL" and wording.CLOCK_IN_CODE.search(text)
        ):
            continue
        for rule in rules:  # every rule of a reason, so its whole span is accounted for
            if rule.search(rest):
                if reason not in reasons:
                    reasons.append(reason)
                    fired.append(f"{reason}: {rule.id}")
                rest = rule.regex.sub(" ", rest)
    return reasons, fired, rest


def _other(clauses: list[str]) -> str:
    """The clauses no guard rule accounts for (a MIXED question's other part)."""
    rest = []
    for c in clauses:
        if _rules(c)[0] or wording.CHATTER.search(c):
            continue
        kept = [
            w
            for w in c.lower().replace("?", " ").split()
            if w.strip(".,!;:'\"") not in _FILLER and len(w) > 2
        ]
        if kept:
            rest.append(" ".join(w.strip(".,!;:'\"") for w in kept))
    return " ".join(rest)


def rule_labels(text: str) -> tuple[list[str], list[str], list[str]]:
    """What the rules alone find in a message: (guard reasons, tool needs, the rules that fired)."""
    text = wording.plain_words(text)
    reasons, fired, _ = _rules(text)
    if "SECURITY" not in reasons and wording.card_number(text):
        reasons.append("SECURITY")
        fired.append("SECURITY: a card number")
    asked = text
    if "CAPABILITIES" in reasons:
        # "Can you browse the internet?" asks about the ability, not for a search: only the clauses
        # that are not about an ability can need a tool
        asked = " . ".join(c for c in wording.clauses(text) if "CAPABILITIES" not in _rules(c)[0])
    # a title quoted is no request ('who wrote "In Search of Lost Time"')
    quoted_out = wording.unquoted(asked)
    found = [
        n
        for n in needs.TOOL_RULES
        if asked
        and needs.tool_rule(
            n, quoted_out if n == "web" else asked, credential="SECURITY" in reasons
        )
    ]
    return reasons, found, fired + [f"{n}: rule" for n in found]


def _excluded(label: str, text: str, classes: set[str], reasons: list[str]) -> bool:
    """Wordings where the classifier's guess is not trusted at its ``authority`` threshold: an
    exception (``_unlikely``) or a message without the label's words (``evidenced``)."""
    return _unlikely(label, text, reasons) or not evidenced(label, text, classes)


def evidenced(label: str, text: str, classes: set[str]) -> bool:
    """Whether the message carries the label's words (EVIDENCE): without them the classifier
    decides alone only at the label's ``bare`` threshold, measured apart on such messages."""
    have = classes | ({"owned"} if wording.OWNED.search(text) else set())
    return any(all(c in have for c in need.split("+")) for need in EVIDENCE[label])


def bare_allowed(text: str) -> bool:
    """Whether a message says enough for a decision without the label's words ("now?" does not:
    one word)."""
    return len(words(text)) >= BARE_MIN_WORDS


def _unlikely(label: str, text: str, reasons: list[str]) -> bool:
    """Wordings where the classifier's guess is never trusted on its own: "you" as anyone, an idiom
    of time, a lesson or a climate, a file not named, our conversations not spoken of."""
    if label == "CAPABILITIES" and wording.GENERIC_ABILITY.search(text):
        return True
    if label == "TEMPORAL" and (
        wording.TIME_IDIOM.search(text) or wording.CLOCK_IN_CODE.search(text)
    ):
        return True
    if label in ("IDENTITY", "CAPABILITIES") and wording.ANYONE.search(text):
        return True
    if label in TOOLS and (
        {"CAPABILITIES", "SECURITY"} & set(reasons) or needs.lesson(label, text)
    ):
        return True
    if label == "files" and not wording.NAMED_FILE.search(text):
        return True
    if label == "recall" and not any(
        w in ("we", "us", "our", "you", "i", "me", "my") for w in words(wording.unquoted(text))
    ):
        return True
    return False


def decide(
    text: str,
    scores: dict[str, float] | None = None,
    limits: dict[str, classifier.Threshold] | None = None,
) -> Deterministic:
    """What the deterministic side says a message needs, with no model involved: the guards and
    tools it decides alone (authoritative), and the ones it only advises. ``scores`` and
    ``limits`` stand in for the classifier's (the trainer measures decisions with scores from
    models that never saw the message). About a millisecond; a long message is read at its two ends."""
    plain = wording.plain_words(text)
    reasons, found, fired = rule_labels(text)
    use = USE_CLASSIFIER or scores is not None
    p = scores if scores is not None else (classifier.scores(wording.ends(text)) if use else {})
    limits = limits or (classifier.thresholds() if use else {})
    classes = classifier.classes(plain)
    decided: list[str] = []
    advised: list[str] = []
    bare = False
    why = list(fired)
    for label in (*GUARDS, *TOOLS):
        by_rule = label in reasons or label in found
        if not use:
            if by_rule:
                decided.append(label)
            continue
        score, t = p.get(label, 0.0), limits[label]
        open_, words_there = not _unlikely(label, plain, reasons), evidenced(label, plain, classes)
        alone = open_ and (
            score >= t.authority if words_there else score >= t.bare and bare_allowed(plain)
        )
        if (by_rule and score >= t.rule) or alone:
            decided.append(label)
            if not by_rule:
                why.append(
                    f"{label}: classifier "
                    f"{score:.2f}{'' if words_there else ' (without its words)'}"
                )
                # decided without the label's words: enough to overrule an answer, not to skip
                # asking the model (it may see a part of the message this decision does not)
                bare = bare or not words_there
        elif by_rule or score >= t.advice:
            advised.append(label)
            why.append(f"{label}: advice ({'rule, ' if by_rule else ''}classifier {score:.2f})")
    guards = [g for g in GUARDS if g in decided]
    tools_needed = [n for n in TOOLS if n in decided]
    tools = [k for n in tools_needed for k in tool_keys(n, plain)]
    other, doubt = "", bool(advised)
    if guards or any(g in advised for g in GUARDS):
        pieces = wording.clauses(plain)
        other = _other(pieces) if len(pieces) > 1 else ""
        doubt = doubt or (use and p.get("other", 0.0) >= limits["other"].advice)
        if use and not tools and p.get("other", 0.0) < OTHER_AT:
            other = ""  # the rest of the message only talks: the question is a plain guard
        elif use and not other and not tools:
            other = " ".join(w for w in plain.lower().split() if w.strip(".,?!") not in _FILLER)
    guard = None
    if guards:
        why_text = "; ".join(why)
        if len(guards) > 1 or tools or other:
            guard = GuardMatch("MIXED", tuple(guards), why_text, other)
        else:
            guard = GuardMatch(guards[0], tuple(guards), why_text)
    pure = guard is not None and guard.reason != "MIXED" and not doubt and not bare
    return Deterministic(
        guard, tools, bool(tools), tuple(tools_needed), "; ".join(why), tuple(advised), other, pure
    )


def tool_hints(text: str) -> list[str]:
    """The tools a message may need, decided or advised: for a model that routes to tools without
    naming any; never a reason to route to tools on its own."""
    d = decide(text)
    if d.tools:
        return d.tools
    plain = wording.plain_words(text)
    return [k for n in TOOLS if n in d.advice for k in tool_keys(n, plain)]


def credible_guard(text: str) -> bool:
    """Whether a guard the model claims (where the deterministic side saw none) has any sign in
    the message: with no guard word and every guard's probability below VETO_BELOW (measured by
    the trainer: such a veto was right 99% of the time or better on held-out sets), the claim is
    overruled. A small model sometimes guards "What is the capital of France?"."""
    text = wording.ends(text)
    if classifier.classes(text) & _GUARD_WORDS:
        return True
    return max(classifier.scores(text, GUARDS).values(), default=0.0) >= VETO_BELOW
