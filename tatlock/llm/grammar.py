"""A JSON schema as a compact GBNF grammar, for llama.cpp's server.

Why: a server that turns a JSON schema into its own grammar allows whitespace anywhere, and a
small model spends it freely ("{\\n  \\"decision\\": ..."): every one of those tokens is a decode
step before the answer can start streaming. This grammar allows none, in the schema's property
order, so Phase 1's direct answer begins after the fewest tokens the format needs.

Only the subset tatlock's schemas use: objects (every property, in order), strings (enum,
maxLength), arrays (items, maxItems), integers, numbers, booleans. Anything else: None, and the
caller sends the schema as such.
"""

from __future__ import annotations

import json
from typing import Any

_CHAR = 'char ::= [^"\\\\\\x00-\\x1f] | "\\\\" ["\\\\/bfnrt]'
_SHORT = 200  # up to this many characters a string's length is bounded in the grammar itself


def _literal(text: str) -> str:
    """A GBNF literal matching ``text`` exactly."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Builder:
    def __init__(self) -> None:
        self.rules: dict[str, str] = {}

    def rule(self, name: str, body: str) -> str:
        n, i = name, 1
        while n in self.rules and self.rules[n] != body:
            i += 1
            n = f"{name}{i}"
        self.rules[n] = body
        return n

    def value(self, schema: Any, name: str) -> str | None:
        if not isinstance(schema, dict):
            return None
        kind = schema.get("type")
        if "enum" in schema and kind in (None, "string"):
            return self.rule(name, " | ".join(_literal(json.dumps(v)) for v in schema["enum"]))
        if kind == "string":
            most = schema.get("maxLength")
            reps = f"{{0,{int(most)}}}" if isinstance(most, int) and most <= _SHORT else "*"
            return self.rule(name, f'"\\"" char{reps} "\\""')
        if kind == "integer":
            return self.rule(name, '"-"? [0-9]{1,15}')
        if kind == "number":
            return self.rule(name, '"-"? [0-9]{1,15} ("." [0-9]{1,15})?')
        if kind == "boolean":
            return self.rule(name, '"true" | "false"')
        if kind == "array":
            item = self.value(schema.get("items") or {"type": "string"}, f"{name}-item")
            if item is None:
                return None
            most = schema.get("maxItems")
            more = f"{{0,{int(most) - 1}}}" if isinstance(most, int) and most >= 1 else "*"
            if isinstance(most, int) and most < 1:
                return self.rule(name, '"[]"')
            return self.rule(name, f'"[" ({item} ("," {item}){more})? "]"')
        if kind == "object":
            props = schema.get("properties") or {}
            if not props or set(schema.get("required") or props) != set(props):
                return None  # free-form or optional keys: beyond this subset
            parts = []
            for key, sub in props.items():
                rule = self.value(sub, f"{name}-{key}".replace("_", "-"))
                if rule is None:
                    return None
                parts.append(f"{_literal(json.dumps(key) + ':')} {rule}")
            body = ' "," '.join(parts)
            return self.rule(name, f'"{{" {body} "}}"')
        return None


def compact_gbnf(schema: dict[str, Any]) -> str | None:
    """The grammar of compact JSON for ``schema``, or None when it uses more than this knows."""
    b = _Builder()
    root = b.value(schema, "root")
    if root is None:
        return None
    lines = [f"{name} ::= {body}" for name, body in b.rules.items()]
    return "\n".join([*lines, _CHAR])


def prefilled(schema: dict[str, Any]) -> tuple[str, str] | None:
    """(prefix, grammar of the rest) for a server that continues an assistant message: the
    object's opening and its first key (``{"decision":"``) become prompt, evaluated in one batch,
    instead of a dozen constrained decode steps before the answer can begin. None when the
    first property is not a string."""
    props = schema.get("properties") if isinstance(schema, dict) else None
    if (
        schema.get("type") != "object"
        or not props
        or set(schema.get("required") or props) != set(props)
    ):
        return None
    first_key, first = next(iter(props.items()))
    if not isinstance(first, dict) or first.get("type", "string") != "string":
        return None
    b = _Builder()
    if "enum" in first:  # each value without its opening quote, which the prefix holds
        head = b.rule("head", " | ".join(_literal(json.dumps(v)[1:]) for v in first["enum"]))
    elif "maxLength" in first and int(first["maxLength"]) <= _SHORT:
        head = b.rule("head", f'char{{0,{int(first["maxLength"])}}} "\\""')
    else:
        head = b.rule("head", 'char* "\\""')
    parts = []
    for key, sub in list(props.items())[1:]:
        rule = b.value(sub, f"root-{key}".replace("_", "-"))
        if rule is None:
            return None
        parts.append(f"{_literal(',' + json.dumps(key) + ':')} {rule}")
    b.rules = {"root": f"{head} {' '.join(parts)} " + _literal("}"), **b.rules}
    prefix = "{" + json.dumps(first_key) + ':"'
    return prefix, "\n".join([f"{name} ::= {body}" for name, body in b.rules.items()] + [_CHAR])
