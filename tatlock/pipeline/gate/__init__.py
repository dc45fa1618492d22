"""The quality gate: judges an answer against a narrow brief (the question, the persona, the
facts and tool results the model was given, the clock), by an ordered list of named checks
whose patterns are rules with their own examples. It judges only: the quality phase
(``pipeline/quality.py``) asks the model again or for its check, and replaces what fails.

    brief = Brief("What is the capital of France?", persona=..., findings=[Finding.of(...)],
    clock=now)
    verdict = check("Paris, sir.", brief)               # APPROVED | FALLBACK (typed) | UNSURE
    gate = StreamGate(brief); shown = gate.feed(piece)  # the same checks on a stream
"""

from tatlock.pipeline.gate.brief import Brief, Context, Finding
from tatlock.pipeline.gate.checks import CHECKS, STREAM, Check, check
from tatlock.pipeline.gate.known import Known, carries, in_hand
from tatlock.pipeline.gate.stream import StreamGate
from tatlock.pipeline.gate.verdict import (
    QUALITY_SCHEMA,
    TYPES,
    Repair,
    Verdict,
    fallback_reply,
    parse_model_verdict,
    repair_for,
)

__all__ = [
    "CHECKS",
    "QUALITY_SCHEMA",
    "STREAM",
    "TYPES",
    "Brief",
    "Check",
    "Context",
    "Finding",
    "Known",
    "Repair",
    "StreamGate",
    "Verdict",
    "carries",
    "check",
    "fallback_reply",
    "in_hand",
    "parse_model_verdict",
    "repair_for",
]
