"""The persona's form of address ("sir", "madam", "Dr Okafor"), for the answers the butler
writes without the model: the fallbacks (prompts/fallbacks.txt) and the answers composed from
facts (prompts/composed.txt). Those templates mark where the address goes with ``$sir``; the
persona, which the user edits (`tatlock persona`), says what it is ("Address the user as
'sir'"), and where it names none the address is left out with its commas.
"""

from __future__ import annotations

import re

from tatlock.pipeline.rulebook import lazy

MARK = "$sir"
# "Address the user as "sir"", "addressing them as 'madam'", "call the user 'boss'", "Address me as
# Dr Okafor."
_WHOM = r"(?:the\s+user|the\s+owner|them|him|her|me|you|your\s+(?:master|mistress|employer|owner))"
_ADDRESS = lazy(
    rf"(?<![\w])(?P<neg>(?:not|never|don't|do\s+not|no\s+longer)\s+)?"
    rf"(?:address(?:ing|es)?|call(?:ing|s)?|refer(?:ring)?\s+to)\s+{_WHOM}\s+(?:as\s+)?"
    rf"(?:\"(?P<q1>[^\"\n]{{1,40}})\"|'(?P<q2>[^\n]{{1,40}}?)'(?!\w)|\u201c(?P<q3>[^\u201d\n]{{1,40}})\u201d"
    rf"|\u2018(?P<q4>[^\n]{{1,40}}?)\u2019(?!\w)"
    rf"|(?P<bare>(?-i:[A-Z][\w.]*)(?:\s+(?-i:[A-Z][\w.]*))?|sir|madam|ma'am|boss|mate|friend|guv))",
    re.I,
)


def address(persona: str) -> str | None:
    """The form of address the persona names (its last word on it wins: a line the user added
    later overrides the default's), or None when it names none or says not to use one."""
    found: str | None = None
    for m in _ADDRESS.finditer(persona or ""):
        if m.group("neg"):
            found = None
            continue
        quoted = m.group("q1") or m.group("q2") or m.group("q3") or m.group("q4")
        word = (quoted or (m.group("bare") or "").rstrip(".,;:!?")).strip()
        if word.lower() in ("by", "their", "his", "her", "the"):
            continue
        found = word or None
    return found


_WITH_COMMAS = lazy(r",\s*\$sir\b(?=[\s,.:;!?\"']|$)")
_LEADING = lazy(r"\$sir\b,?\s*")


def in_voice(template: str, form: str | None, *, fields_follow: bool = False) -> str:
    """``template`` with its ``$sir`` marks as the persona says: the form of address, or left
    out with the comma before it ("I don't know that, $sir, and" -> "I don't know that, and").
    ``fields_follow``: the result is a ``string.Template`` still to fill (a "$" in the form is escaped)."""
    if MARK not in template:
        return template
    if form:
        return template.replace(MARK, form.replace("$", "$$") if fields_follow else form)
    out = _WITH_COMMAS.sub("", template)
    out = _LEADING.sub("", out)
    return out[:1].upper() + out[1:]
