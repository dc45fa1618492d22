"""The gate's learnt check: a bad-answer score from a model trained offline, beside the rules.

The rules catch what they were written for; on a set they never saw they caught about 79% of
bad answers where they caught 92% of the sets they learnt (``scripts/gate_forecast.py``). This
check reads the answer and its pair with the brief as features (the answer's words and word
pairs; whether it carries the tool results' figures and words; whether its shape fits the
question's wh-word; how much of it is the prompt's own instructions or the question given back;
politeness with nothing in it; an action claimed; letters of another script) and gives a logistic score. It withdraws an answer only above a
threshold chosen by ``scripts/train_gate.py`` on sets held out of training, for at most 1% of
good answers withdrawn; it never overrules a rule.

The model ships as ``learnt.bin`` beside this module (``write_model``/``read_model``): the line
``tatlock-gate-learnt 1``, a 4-byte little-endian length and that many bytes of JSON (bias,
thresholds, meta), a 4-byte length and the feature names (UTF-8, one a line), then one float32
little-endian weight a feature. It is read on first use (a few milliseconds), never at import.
A test fails when it is stale against its data or its features.
"""

from __future__ import annotations

import itertools
import math
import sys
import threading
import unicodedata
from array import array
from pathlib import Path

from tatlock.pipeline import modelfile
from tatlock.pipeline.gate.brief import Context
from tatlock.pipeline.lexicon import WEEKDAYS as _WEEKDAYS

__all__ = ["MODEL_FILE", "Model", "features", "load", "read_model", "score", "write_model"]

MODEL_FILE = Path(__file__).resolve().parent / "learnt.bin"
MAGIC = b"tatlock-gate-learnt 1\n"
# raise it when features() changes: the model file records the version it was trained with
FEATURES_VERSION = 2
# an answer is read up to here: the score's cost does not grow with a megabyte answer
READ = 4000

_WH = (
    ("how many", "count"),
    ("how much", "amount"),
    ("how long", "amount"),
    ("how far", "amount"),
    ("how old", "amount"),
    ("what time", "time"),
    ("what day", "date"),
    ("what date", "date"),
    ("which day", "date"),
    ("when", "date"),
    ("what year", "date"),
    ("who", "who"),
    ("where", "where"),
    ("why", "why"),
    ("how do", "how"),
    ("how to", "how"),
    ("how", "how"),
    ("which", "which"),
    ("what", "what"),
)
_AUX = frozenset(
    "is are was were do does did can could will would should shall has have had am may might "
    "isn't aren't don't doesn't didn't can't won't".split()
)
# words that carry nothing by themselves: an answer made only of these says nothing
_EMPTY = frozenset(
    """a an the and or but of to in on at for with as by from it its it's is are was were be been
    being this that these those i i'm i've i'll i'd me my you your yours we our sir madam
    certainly course indeed happy delighted pleasure glad help assist service always very most
    more quite really truly absolutely gladly would will shall should can could may might do does
    did have has had am so such excellent good great question wonderful splendid fine right
    well yes no oh ah please thank thanks let know like love any anything else there here
    just all that's what's let's now today""".split()
)
_ACT = frozenset(
    """ordered booked sent added set scheduled cancelled canceled called emailed texted bought
    paid transferred deleted removed turned switched reminded saved created posted messaged
    played opened closed locked unlocked changed updated installed reserved arranged""".split()
)


def _tokens(text: str) -> list[str]:
    out, cur = [], []
    for ch in text.lower():
        if ch.isalnum() or ch == "'":
            cur.append(ch)
        elif cur:
            out.append("".join(cur).strip("'"))
            cur = []
    if cur:
        out.append("".join(cur).strip("'"))
    return ["<num>" if t[:1].isdigit() else t for t in out if t]


def _numbers(text: str) -> set[str]:
    out: set[str] = set()
    cur: list[str] = []
    for ch in text:
        if ch.isdigit() or (ch in ".," and cur):
            cur.append(ch)
        elif cur:
            out.add("".join(cur).rstrip(".,").replace(",", ""))
            cur = []
    if cur:
        out.add("".join(cur).rstrip(".,").replace(",", ""))
    return {n for n in out if n}


def _bucket(x: float, edges: tuple[float, ...] = (0.0, 0.2, 0.5, 0.8, 1.0)) -> str:
    for i, e in enumerate(edges):
        if x <= e:
            return str(i)
    return str(len(edges))


def _wh(question: str) -> str:
    q = " ".join(_tokens(question))
    for lead, kind in _WH:
        if q.startswith(lead) or f" {lead} " in f" {q} ":
            return kind
    first = q.split(" ", 1)[0] if q else ""
    return "yesno" if first in _AUX else "other"


def _shape(answer: str, words: list[str]) -> list[str]:
    out = []
    if "<num>" in words[:12]:
        out.append("num")
    if words[:1] in (["yes"], ["no"]) or words[:2] in (["i", "do"], ["it", "is"]):
        out.append("verdict")
    caps = [w for w in answer.split()[1:12] if w[:1].isupper() and w.strip(",.").lower() != "sir"]
    if caps:
        out.append("name")
    if any(w in _WEEKDAYS for w in words[:20]):
        out.append("weekday")
    return out or ["none"]


def route_of(c: Context) -> str:
    if c.brief.guard_parts:
        return "guard"
    return "tools" if c.findings else "direct"


def features(answer: str, c: Context) -> dict[str, float]:
    """The answer's features and those of its pair with the brief (names to values)."""
    text = answer[:READ]
    words = _tokens(text)
    f: dict[str, float] = {}
    for w in set(words):
        f["w:" + w] = 1.0
    for a, b in set(itertools.pairwise(words)):
        f[f"b:{a}_{b}"] = 1.0
    for w in set(words[:300]):
        padded = f"<{w}>"
        for i in range(len(padded) - 3):
            f["c:" + padded[i : i + 4]] = 0.5
    route = route_of(c)
    f["r:" + route] = 1.0
    n = len(words)
    size = "1" if n <= 1 else "3" if n <= 3 else "8" if n <= 8 else "20" if n <= 20 else "50+"
    f["len:" + size] = 1.0
    f[f"len:{size}|{route}"] = 1.0
    if words[:1]:
        f["first:" + words[0]] = 1.0
    wh = _wh(c.question)
    for s in _shape(text, words):
        f[f"wh:{wh}|{s}"] = 1.0
    f["wh:" + wh] = 1.0
    content = [w for w in words if w not in _EMPTY and w != "<num>"]
    if n:
        f["empty:" + _bucket(1 - len(content) / n)] = 1.0
    if not content and "<num>" not in words:
        f["nothing_said"] = 1.0
    qwords = set(_tokens(c.question)) - _EMPTY
    if content:
        f["echo_q:" + _bucket(sum(w in qwords for w in content) / len(content))] = 1.0
        new = [w for w in content if w not in qwords]
        f[
            "new:"
            + ("0" if not new else "1" if len(new) == 1 else "few" if len(new) < 5 else "many")
        ] = 1.0
    # the prompt's own instructions retold: word triples shared with the prompt
    prompt = " ".join(_tokens(c.prompt_text + "\n" + c.instructions))
    if prompt and n >= 3:
        tri = [" ".join(words[i : i + 3]) for i in range(n - 2)]
        shared = sum(t in prompt for t in tri[:200]) / min(len(tri), 200)
        f["prompt:" + _bucket(shared, (0.0, 0.1, 0.3, 0.6, 1.0))] = 1.0
    # the tools' results: figures and words carried or not
    said_numbers = _numbers(text)
    if c.findings:
        tool_text = " ".join(fd.text for fd in c.findings)
        statuses = {fd.status for fd in c.findings}
        for s in statuses:
            f["tool:" + s] = 1.0
        tnum = _numbers(tool_text)
        if said_numbers:
            carried = len(said_numbers & (tnum | _numbers(c.question))) / len(said_numbers)
            f["toolnum:" + _bucket(carried)] = 1.0
        else:
            f["toolnum:none"] = 1.0
        twords = set(_tokens(tool_text)) - _EMPTY
        if content:
            f["toolword:" + _bucket(sum(w in twords for w in content) / len(content))] = 1.0
    elif said_numbers:
        known = _numbers(c.question + " " + " ".join(c.brief.told))
        f["num_unasked:" + _bucket(len(said_numbers - known) / len(said_numbers))] = 1.0
    if c.brief.told:
        told = set(_tokens(" ".join(c.brief.told))) - _EMPTY
        f["told:" + _bucket(sum(w in told for w in content) / max(1, len(content)))] = 1.0
    # an action claimed: "I've ordered", "I have added"
    for i, w in enumerate(words[:60]):
        if w in _ACT and i and words[i - 1] in ("i've", "i", "have", "i'd", "already"):
            f["act_claimed"] = 1.0
            f["act_claimed|" + route] = 1.0
            break
    # another script: letters that are not Latin
    letters = [ch for ch in text if ch.isalpha()]
    if letters:
        other = sum(
            1
            for ch in letters
            if ord(ch) > 0x24F and not unicodedata.name(ch, "").startswith("LATIN")
        )
        if other:
            f["script:" + _bucket(other / len(letters), (0.0, 0.05, 0.3, 1.0))] = 1.0
    return f


class Model:
    """The trained model: ``score(answer, context)`` is the probability the answer is bad."""

    def __init__(self, data: dict):
        self.meta: dict = data["meta"]
        names = data["features"].split("\n") if data["features"] else []
        self.index = dict(zip(names, range(len(names)), strict=True))
        weights = array("f")
        weights.frombytes(bytes(data["weights"]))
        if sys.byteorder == "big":
            weights.byteswap()  # written little-endian
        if len(weights) != len(names):
            raise ValueError(f"{MODEL_FILE.name}: the weights do not fit the features")
        self.weights = weights
        self.bias = float(data["bias"])
        self.withdraw = float(data["withdraw"])  # at or above: withdrawn

    def score(self, answer: str, c: Context) -> float:
        z = self.bias
        for name, value in features(answer, c).items():
            row = self.index.get(name)
            if row is not None:
                z += self.weights[row] * value
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def write_model(model: dict, path: Path) -> None:
    """Store a trained model (``features`` one name a line, ``weights`` float32 little-endian
    bytes, ``bias``, ``withdraw``, ``meta``) in the shipped layout (``pipeline/modelfile.py``)."""
    head = {k: v for k, v in model.items() if k not in ("features", "weights")}
    modelfile.write(path, MAGIC, head, model["features"], bytes(model["weights"]))


def read_model(path: Path = MODEL_FILE) -> dict:
    """The model stored by ``write_model``; a file that is not one is a ValueError naming it."""
    data, names, weights = modelfile.read(
        path, MAGIC, "a gate model of this version (scripts/train_gate.py)"
    )
    data["features"], data["weights"] = names, weights
    return data


_model: Model | None = None
_lock = threading.Lock()


def load(path: Path = MODEL_FILE) -> Model:
    """The shipped model, read once per process, on first use."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                _model = Model(read_model(path))
    return _model


def score(answer: str, c: Context) -> float:
    return load().score(answer, c)
