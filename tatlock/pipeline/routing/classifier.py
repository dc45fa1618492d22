"""The route classifier: what a message asks for (a guard, a tool), as calibrated probabilities.

It is trained offline by ``scripts/train_routes.py`` from the labelled sets in
``tests/data/routes/learn/`` and ships as one file, ``classifier.bin`` beside this module
(one-vs-rest logistic regression; weights, Platt calibration and per-label thresholds). Nothing
is trained on a user's machine and nothing is downloaded; loading the file takes a few
milliseconds, on first use. A test fails when the file is stale against its data or unreadable.

The file (``write_model``/``read_model``; binary, so that loading it is a read, not a parse: as
JSON with base64 weights it took 35-40 ms of every start): the line ``tatlock-routes 1``, a
4-byte little-endian length and that many bytes of JSON (labels, feature groups, meta, bias,
Platt pairs, thresholds, the number of features), a 4-byte length and the feature names
(UTF-8, one a line), then the weights, float32 little-endian, a row of one per label for each
feature. The trainer's model dict (``features`` one name a line, ``weights`` float32 bytes or
their base64) goes through ``write_model`` unchanged in content.

Features, chosen by what they bought on sets the model never saw (the trainer's ``--compare``):
words and word pairs; word classes (a little built-in knowledge: "umbrella" is about the
weather) and pairs of classes; the question's frame (about now, me, you, a general lesson);
character n-grams of each word (typos and shorthand: "wether", "pasword"); the words of the
ask itself, the last sentence with a question in it (long messages put their context first); and
where each clause's ask starts, past its politeness and indirect frame ("I was wondering if you
might know what day it is" leads with "what day"; "text my wife" with "text": a request for an
action in the world, "you" or not). Round 3: the lead words and the word classes of an action
(``act``, ``errand``) found 2.9 more points of guards (right kind) on sets held out whole (r14,
r15), and with "act" among CAPABILITIES' words (``guards.EVIDENCE``) 1.2 more.

Thresholds (per label, chosen by the trainer on predictions for sets held out of training):
``authority`` is where the label was measured at 99% precision or better: the deterministic
side may decide alone; ``bare`` the same for a message without the label's words (measured
apart, where a lower confidence bound on the precision is 97% or more); ``advice`` is where it
only informs the model's assessment.
"""

from __future__ import annotations

import base64
import math
import re
import sys
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path

from tatlock.pipeline import modelfile
from tatlock.pipeline.routing.examples import GUARDS, LABELS, OTHER, TOOLS

__all__ = [
    "GUARDS",
    "LABELS",
    "MODEL_FILE",
    "OTHER",
    "TOOLS",
    "Classifier",
    "classes",
    "features",
    "load",
    "read_model",
    "scores",
    "warm",
    "write_model",
]

MODEL_FILE = Path(__file__).resolve().parent / "classifier.bin"
MAGIC = b"tatlock-routes 1\n"  # the file's first line: what it is and the version of its layout
# raise it when features() changes: the model file records the version it was trained with
FEATURES_VERSION = 4
ALL_GROUPS = ("words", "bigrams", "classes", "frames", "chars", "ask", "lead")

# spellings a chat message uses for the same word: one feature each
_SAME = {
    "u": "you",
    "r": "are",
    "ur": "your",
    "ya": "you",
    "yer": "your",
    "ye": "you",
    "im": "i'm",
    "whats": "what's",
    "wats": "what's",
    "hows": "how's",
    "pls": "please",
    "plz": "please",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "2day": "today",
    "2morrow": "tomorrow",
    "pwd": "password",
    "passwd": "password",
    "pw": "password",
    "wx": "weather",
    "rn": "now",
    "convo": "conversation",
    "convos": "conversations",
    "bday": "birthday",
    "dont": "don't",
    "cant": "can't",
    "thats": "that's",
    "youre": "you're",
}
_CONTRACTIONS = [
    ("what's", "what is"),
    ("who's", "who is"),
    ("how's", "how is"),
    ("it's", "it is"),
    ("i'm", "i am"),
    ("i've", "i have"),
    ("you're", "you are"),
    ("what're", "what are"),
    ("where's", "where is"),
    ("when's", "when is"),
    ("that's", "that is"),
    ("there's", "there is"),
]
_PATH = re.compile(
    r"(?:~|\.{1,2})?/[\w./-]+|(?<![\w-])[\w-]+\.(?:txt|md|pdf|csv|json|py|log|png|jpe?g|gif|docx?|"
    r"xlsx?|html?|ya?ml|toml|ini|conf|cfg|sh|rtf|odt|pptx?|zip|mp3|mp4|wav)\b",
    re.I,
)
_WORD = re.compile(r"[a-z0-9']+|<path>")
_SENTENCES = re.compile(r"(?<=[.?!])\s+|\n+")


def normalise(text: str) -> list[str]:
    """Lower-case words, with paths as one token and contractions and chat spellings unified."""
    text = _PATH.sub(" <path> ", text.replace("\u2019", "'").replace("`", "'"))
    words = [_SAME.get(w.strip("'"), w.strip("'")) for w in _WORD.findall(text.lower())]
    joined = " ".join(w for w in words if w)
    for short, full in _CONTRACTIONS:
        joined = joined.replace(short, full)
    return joined.split()


# Word classes: general knowledge of each label's domain, so that a word the data never showed
# ("parky", "sleet", "laptop") still counts for its topic. Written from the domain (what each tool
# serves, what a guard is about), not from any labelled set.
_CLASSES = {
    "weather": """weather forecast forecasts rain raining rainy rainfall drizzle drizzling shower showers snow snowing
        snowy sleet hail sunny sunshine sunscreen suncream cloudy clouds overcast fog foggy mist misty wind windy
        breeze gale gales storm storms stormy thunder thunderstorm lightning temperature temperatures degrees
        celsius fahrenheit cold chilly warm hot heat freezing frost frosty icy humid humidity umbrella brolly coat
        jacket raincoat scarf gloves wellies mild muggy drought heatwave uv pollen scorcher nippy parky bucketing
        pouring drizzly sweltering""",
    "now": """now today tonight tomorrow currently current moment outside outdoors later weekend morning afternoon
        evening arvo monday tuesday wednesday thursday friday saturday sunday this next""",
    "clock": """time date day days year years month months week weeks weekday clock calendar hour hours o'clock noon
        midnight""",
    "until": "until till left remaining long",
    "past": """talked talk discussed discuss discussion mentioned mention told tell said say spoke speak chat chats
        chatted conversation conversations earlier before previously last ago remember recall remind reminded
        forgot forget history""",
    "mine": "my me i mine myself i'm i've",
    "you": "you your yourself yours you're",
    "we": "we us our we've",
    "fact": """live lives living moved move home hometown town city address birthday born allergic allergy
        favourite favorite prefer preference location wife husband partner son daughter sister brother mother
        father mum dad job work""",
    "store": "remember note save store update change set record keep",
    "web": """search google look lookup online internet web website news headlines latest price prices cost costs
        score scores won win winner result results exchange rate stock stocks bitcoin opening hours reviews
        review trains train flights flight tickets timetable schedule""",
    "system": """computer machine laptop pc desktop system cpu cpus processor processors ram memory disk disks drive
        storage space ssd operating os uptime load resources battery usage hardware running health report""",
    "files": """<path> file files document documents folder directory read open image picture photo pdf csv
        spreadsheet contents""",
    "name": "name names called call address nickname introduce",
    "being": """ai bot robot human person real machine program model models llm llms chatgpt gpt llama gemma mistral
        qwen claude phi deepseek openai meta google anthropic company created made built trained developed
        programmed powers powered behind talking speaking chatting who""",
    "ability": """can able capable abilities ability skills skill features feature functions function tools tool help
        good offer questions ask support""",
    "secret": """password passwords passcode passcodes pin pins key keys token tokens secret secrets credential
        credentials login logins root admin prompt prompts instructions instruction rules verbatim above ignore
        disregard forget reveal jailbreak dan""",
    # a request for an action in the world (a message sent, a thing bought, booked or switched):
    # the verb and its object, with or without a "you" (the butler can do none of them)
    "act": """text txt sms texting whatsapp email e-mail emailing ring phone dial order buy purchase book reserve pay
        transfer send post tweet switch dim lock unlock fetch cancel""",
    "errand": """alarm alarms lights light lamp heating thermostat door taxi cab uber deliveroo dominos amazon
        invoice tickets table bill takeaway pizza curry flight hotel reservation""",
    "general": """why explain explains how does do what causes cause define definition meaning mean history
        difference average best recommend tips idea example examples invented invent""",
}
_CLASS_OF: dict[str, list[str]] = {}
for _cls, _words in _CLASSES.items():
    for _w in _words.split():
        _CLASS_OF.setdefault(_w, []).append(_cls)

# a class counts as much as a word (round 1: 3.0; 1.0 found more of 9 labels of 10 out of fold)
CLASS_WEIGHT = 1.0

# how the question is put: a request about now, me, you, or a general lesson
_FRAMES = [
    (
        "f:general",
        re.compile(
            r"^(?:why|explain|define|describe\s+how|how\s+(?:does|do|did|is|are)\s+(?!i\b|you\b|we\b)|"
            r"what\s+(?:is|are)\s+(?:a|an)\b|what\s+causes|what\s+does\s+\S+\s+mean|"
            r"who\s+(?:invented|wrote|discovered|painted)|when\s+(?:did|was|were)|write\s+a|tell\s+me\s+a\s+"
            r"(?:joke|story)|recommend|give\s+me\s+(?:a|some|three|two|\d+)\s+(?:ideas|tips|examples))"
        ),
    ),
    ("f:you", re.compile(r"\b(?:you|your|yourself)\b")),
    ("f:me", re.compile(r"\b(?:i|my|me|mine|i'm|i've)\b")),
    ("f:we", re.compile(r"\b(?:we|our|us)\b")),
    (
        "f:now",
        re.compile(
            r"\b(?:now|today|tonight|tomorrow|currently|right now|at the moment|this "
            r"(?:morning|afternoon|"
            r"evening|week|weekend)|outside|out there|later|yet|still)\b"
        ),
    ),
    (
        "f:past",
        re.compile(
            r"\b(?:yesterday|last "
            r"(?:time|week|month|night)|before|earlier|ago|previously|ever)\b"
        ),
    ),
    ("f:yesno", re.compile(r"^(?:is|are|am|do|does|did|can|could|will|would|should|has|have)\b")),
]


# words before a clause's own ask: politeness, hedges and the frame of an indirect question ("I was
# wondering if you might know what day it is"); the first word after them leads the clause
_LEAD_SKIP = set(
    """please pls plz kindly just quickly go on and but so then now right ok okay oh hey hi hello oi
    yo mate sir dear love be a legend could can would will you u ya ye mind if i was were wondering wonder might
    may know tell me let whether do does think possibly perhaps maybe sorry excuse quick question um er hmm well
    also actually really any chance there is it is, for able to the an""".split()
)


def leads(words: list[str]) -> list[str]:
    """The first word of each clause that is not politeness or an indirect frame, with the word
    after it: where the ask starts, however it is wrapped ("text my wife", "book a table", "could
    you kindly let me know whether it is still morning" -> "still morning")."""
    out, start = [], True
    for i, w in enumerate(words):
        if w in (",", "and", "then", "but", "also"):
            start = True
            continue
        if start and w not in _LEAD_SKIP:
            nxt = words[i + 1] if i + 1 < len(words) else "</s>"
            out.append((w, nxt))
            start = False
    return [f"{a}_{b}" for a, b in out]


def ask_of(text: str) -> str:
    """The ask of a message: its last sentence with a question mark, else its last sentence (a
    long message gives its context first and asks at the end)."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s.strip()]
    if len(sentences) < 2:
        return text
    asks = [s for s in sentences if "?" in s]
    return asks[-1] if asks else sentences[-1]


def _class_feats(words: list[str], frames: bool, prefix: str) -> list[str]:
    found = sorted({c for w in words for c in _CLASS_OF.get(w, ())})
    if frames:
        joined = " ".join(words)
        found += [name for name, pat in _FRAMES if pat.search(joined)]
    out = [f"{prefix}k:{a}" for a in found]
    # which topics occur together ("weather" with "now": a forecast; with "general": a lesson)
    out += [f"{prefix}kk:{a}+{b}" for i, a in enumerate(found) for b in found[i + 1 :]]
    return out


def features(text: str, groups: tuple[str, ...] = ALL_GROUPS) -> dict[str, float]:
    """Sparse features with their values. Words, word pairs and character n-grams each share a
    unit of weight (so a long message does not outvote a short one); word classes, their pairs
    and the frame count CLASS_WEIGHT times a word; the ask's own features count once more."""
    words = normalise(text)
    feats: dict[str, float] = {}

    def add(names: set[str] | list[str], weight: float) -> None:
        if names:
            value = weight / math.sqrt(len(names))
            for name in names:
                feats[name] = feats.get(name, 0.0) + value

    if "words" in groups:
        add({f"w:{w}" for w in words}, 1.0)
    if "bigrams" in groups:
        padded = ["<s>", *words, "</s>"]
        add({f"b:{a}_{b}" for a, b in zip(padded, padded[1:], strict=False)}, 1.0)
    if "chars" in groups:
        grams = set()
        for w in words:
            if len(w) > 2 and w != "<path>":
                g = f"<{w}>"
                grams |= {f"c:{g[i : i + n]}" for n in (3, 4, 5) for i in range(len(g) - n + 1)}
        add(grams, 1.0)
    if "classes" in groups:
        norm = 1 / math.sqrt(max(1, len(set(words))))
        for name in _class_feats(words, "frames" in groups, ""):
            feats[name] = CLASS_WEIGHT * norm
    if "lead" in groups:
        pieces: list[str] = []
        for sentence in _SENTENCES.split(text.strip()):
            pieces += [*normalise(sentence), "and"]
        pairs = leads(pieces)
        names = {f"l:{p.split('_')[0]}" for p in pairs} | {f"ll:{p}" for p in pairs}
        names |= {f"lk:{c}" for p in pairs for c in _CLASS_OF.get(p.split("_")[0], ())}
        add(names, 1.0)
    if "ask" in groups:
        ask = normalise(ask_of(text))
        add({f"a:{w}" for w in ask}, 1.0)
        add(_class_feats(ask, "frames" in groups, "a"), 1.0)
    return feats


def classes(text: str) -> set[str]:
    """The word classes a message's words belong to (evidence a label needs before it is
    trusted)."""
    return {c for w in normalise(text) for c in _CLASS_OF.get(w, ())}


# -- the trained model --------------------------------------------------------------------------


@dataclass(frozen=True)
class Threshold:
    # at or above: measured at 99% precision or better on sets held out of training
    authority: float
    advice: float  # at or above: worth telling the model's assessment; below: nothing
    rule: float  # where a rule fired: at or above, the rule's decision was measured 99% precise
    # where the message lacks the label's words (guards.EVIDENCE): measured apart, its precision's
    # lower confidence bound at least the trainer's BARE_TARGET
    bare: float = 1.01


class Classifier:
    """The trained model: ``scores(text)`` gives each label's calibrated probability."""

    def __init__(self, data: dict):
        self.labels: tuple[str, ...] = tuple(data["labels"])
        self.groups: tuple[str, ...] = tuple(data["groups"])
        self.meta: dict = data["meta"]
        names = data["features"].split("\n") if data["features"] else []
        self.index = dict(zip(names, range(len(names)), strict=True))
        raw = data["weights"]
        weights = array("f")
        weights.frombytes(base64.b64decode(raw) if isinstance(raw, str) else raw)
        if sys.byteorder == "big":
            weights.byteswap()  # written little-endian
        if len(weights) != len(names) * len(self.labels):
            raise ValueError(f"{MODEL_FILE.name}: the weights do not fit the features")
        self.weights = weights
        self.bias: list[float] = [float(b) for b in data["bias"]]
        self.platt: list[tuple[float, float]] = [(float(a), float(b)) for a, b in data["platt"]]
        self.thresholds = {
            lab: Threshold(
                float(t["authority"]),
                float(t["advice"]),
                float(t["rule"]),
                float(t.get("bare", 1.01)),
            )
            for lab, t in data["thresholds"].items()
        }

    def raw(self, text: str) -> list[float]:
        """Each label's decision value (before calibration)."""
        n = len(self.labels)
        z = list(self.bias)
        w, index = self.weights, self.index
        for name, value in features(text, self.groups).items():
            row = index.get(name)
            if row is not None:
                base = row * n
                for j in range(n):
                    z[j] += w[base + j] * value
        return z

    def scores(self, text: str, labels: tuple[str, ...] | None = None) -> dict[str, float]:
        z = self.raw(text)
        out = {}
        for j, lab in enumerate(self.labels):
            if labels is None or lab in labels:
                a, b = self.platt[j]
                out[lab] = 1 / (1 + math.exp(-max(-30.0, min(30.0, a * z[j] + b))))
        return out


_model: Classifier | None = None
_lock = threading.Lock()


def write_model(model: dict, path: Path) -> None:
    """Store a trained model (the trainer's dict: ``features`` one name a line, ``weights`` the
    float32 little-endian bytes or their base64) in the layout ``read_model`` reads; the content
    is unchanged. Written beside the target and renamed over it: a failed write leaves the old file."""
    weights = model["weights"]
    weights = base64.b64decode(weights) if isinstance(weights, str) else bytes(weights)
    count = len(model["features"].split("\n")) if model["features"] else 0
    head = {k: v for k, v in model.items() if k not in ("features", "weights")}
    head["feature_count"] = count
    if len(weights) != 4 * count * len(model["labels"]):
        raise ValueError("the weights do not fit the features")
    modelfile.write(path, MAGIC, head, model["features"], weights)


def read_model(path: Path = MODEL_FILE) -> dict:
    """The model stored by ``write_model``, as the dict ``Classifier`` takes (``weights`` as
    bytes). A file that is not one, or is cut short, is a ValueError naming it."""
    data, names, weights = modelfile.read(
        path, MAGIC, "a route classifier of this version (retrain with scripts/train_routes.py)"
    )
    try:
        expected = 4 * int(data.pop("feature_count")) * len(data["labels"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path.name} is damaged ({exc})") from None
    if len(weights) != expected:
        raise ValueError(f"{path.name} is damaged (the weights do not fit the features)")
    data["features"], data["weights"] = names, weights
    return data


def load(path: Path = MODEL_FILE) -> Classifier:
    """The shipped model, read once per process (a few milliseconds)."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                _model = Classifier(read_model(path))
    return _model


def warm() -> threading.Thread:
    """Read the model in the background (at start-up, so the first message's route does not
    wait)."""
    t = threading.Thread(target=load, name="tatlock-classifier", daemon=True)
    t.start()
    return t


def scores(text: str, labels: tuple[str, ...] | None = None) -> dict[str, float]:
    """Each label's calibrated probability for a message (all labels, or the ones asked for)."""
    return load().scores(text, labels)


def thresholds() -> dict[str, Threshold]:
    return load().thresholds


def feature_digest() -> str:
    """What the features depend on, as a digest: the model file is stale when this changes."""
    import hashlib

    spec = (
        FEATURES_VERSION,
        CLASS_WEIGHT,
        sorted(_SAME.items()),
        _CONTRACTIONS,
        _PATH.pattern,
        sorted((k, " ".join(v.split())) for k, v in _CLASSES.items()),
        [(n, p.pattern) for n, p in _FRAMES],
        _SENTENCES.pattern,
        sorted(_LEAD_SKIP),
    )
    return hashlib.sha256(repr(spec).encode()).hexdigest()[:16]
