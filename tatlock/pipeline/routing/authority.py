"""How a turn reconciles the deterministic side (``guards.decide``) with the model's assessment.

The deterministic side decides alone only what it was measured to decide at 99% precision or
better on sets held out of training (``Deterministic.guard`` and ``.tools``: see ``guards``);
everything else it finds is advice. The rule, in order:

1. **Skip**: an authoritative pure guard (one reason, nothing else asked and no doubt that
   something else is) needs no assessment: the guard path answers, one model call saved.
2. **The model guards**: its guard stands. With no reason given it takes the deterministic
   reason (else MIXED); where the deterministic side decided several guards or a guard with a
   tool, the route is MIXED with those parts. One exception, the veto: a guard the model claims
   where nothing deterministic found one and the message has no sign of one (no guard word,
   every guard's probability below ``guards.VETO_BELOW``: measured right 99% of the time or
   better) is overruled, and the model's answer stands as a direct one.
3. **The model answers or wants tools**: an authoritative guard overrules it (MIXED when the
   deterministic side also needs a tool or finds another part); authoritative tools run, added
   to the model's (a direct answer becomes TOOLS_NEEDED).
4. **Advice never changes the route**: it names the likely tools when the model routes to tools
   without naming any, and the tools of a MIXED guard's other part.

With a model that routes right, only a wrong authoritative decision can make a turn end on a
wrong route; ``scripts/bench routes`` measures both a model that routes right and one that
never guards nor asks for a tool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tatlock.pipeline.routing.guards import Deterministic


@dataclass(frozen=True)
class Route:
    route: str  # DIRECT | TOOLS_NEEDED | CAPABILITY_GUARD
    guard: str | None
    source: str  # who decided: model, rules (the deterministic side), model+rules, fallback, ...


def skips_assessment(det: Deterministic) -> bool:
    """Rule 1: a pure authoritative guard answers without the model's assessment."""
    return det.pure


def reconcile(a: Any, det: Deterministic, *, credible: bool) -> Route:
    """The route of a turn from the model's assessment ``a`` (None: unreadable) and the
    deterministic side; ``credible``: whether a guard claimed by the model has any sign in the
    message (``guards.credible_guard``)."""
    rule = det.guard
    if a is None:
        if rule:
            return Route("CAPABILITY_GUARD", rule.reason, "rules")
        if det.sure:
            return Route("TOOLS_NEEDED", None, "rules")
        return Route("DIRECT", None, "fallback")  # unreadable assessment: Phase 4 answers
    if a.decision == "CAPABILITY_GUARD":
        if rule:
            several = len(rule.parts) > 1 or bool(det.tools)
            guard = "MIXED" if several or a.guard == "MIXED" else (a.guard or rule.reason)
            return Route("CAPABILITY_GUARD", guard, "model+rules")
        if not credible:
            # nothing in the message asks about the butler, the time or a secret: not a guard
            return Route(
                "TOOLS_NEEDED" if a.tools or det.sure else "DIRECT", None, "model, guard overruled"
            )
        if det.sure and a.guard != "MIXED":
            return Route("TOOLS_NEEDED", None, "model, guard overruled")  # a sure tool is no guard
        return Route("CAPABILITY_GUARD", a.guard or "MIXED", "model")
    if rule:
        return Route("CAPABILITY_GUARD", rule.reason, "rules")
    if det.sure and a.decision == "DIRECT":
        return Route("TOOLS_NEEDED", None, "model+rules")
    return Route(a.decision, None, "model")
