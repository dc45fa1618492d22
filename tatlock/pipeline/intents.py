"""A small text classifier for what a message asks for, trained at first use from questions
shipped with the package (data/routes_train.txt); stdlib only, no download. The trained
weights are kept in the data folder when the core says where (``use_cache``), so a new process
loads them instead of training again; they are retrained whenever the shipped examples change.

Small local models misroute ordinary phrasings ("Who am I talking to?", "Do I need an
umbrella?"), and regular expressions only catch the phrasings they were written for. This
classifier generalises from labelled examples: one binary logistic regression per label over
words, word pairs, word classes (a little built-in knowledge: "umbrella" is about the weather)
and the question's frame (about now, me, you, or a general lesson). Each label trains the
first time it is needed, once per process; importing is free.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "routes_train.txt"  # written by hand for the classifier
# Everything it learns from: the hand-written questions and the sets written blind by others
# (scored once on phrasings it had never seen, then learnt from); tests/data keeps the held-out ones.
TRAINING = DATA.parent
GUARDS = ("IDENTITY", "CAPABILITIES", "TEMPORAL", "SECURITY")
TOOLS = ("weather", "recall", "personal", "web", "system", "files")
LABELS = GUARDS + TOOLS


@dataclass(frozen=True)
class Example:
    text: str
    labels: frozenset[str]  # from LABELS, plus "other" for a part answered from general knowledge
    family: str


def read_examples(path: Path | str = DATA) -> list[Example]:
    """Examples from a file of ``INTENTS | FAMILY | QUESTION`` lines (``#`` comments)."""
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 2)]
        if len(parts) != 3 or not parts[2]:
            raise ValueError(f"{path}:{n}: expected 'INTENTS | FAMILY | QUESTION'")
        labels = frozenset() if parts[0] == "-" else frozenset(parts[0].split("+"))
        unknown = labels - set(LABELS) - {"other"}
        if unknown:
            raise ValueError(f"{path}:{n}: unknown label {sorted(unknown)}")
        out.append(Example(parts[2], labels, parts[1]))
    return out


def training_examples() -> list[Example]:
    """Every labelled question shipped with the package (data/routes_*.txt), the hand-written
    ones first."""
    files = [DATA] + sorted(p for p in TRAINING.glob("routes_*.txt") if p != DATA)
    return [e for path in files for e in read_examples(path)]


# -- features ---------------------------------------------------------------------------------

# spellings a chat message uses for the same word: one feature each
_SAME = {"u": "you", "r": "are", "ur": "your", "ya": "you", "im": "i'm", "whats": "what's", "wats": "what's",
         "hows": "how's", "pls": "please", "plz": "please", "tmrw": "tomorrow", "tmr": "tomorrow",
         "2day": "today", "2morrow": "tomorrow", "pwd": "password", "passwd": "password"}
_CONTRACTIONS = [("what's", "what is"), ("who's", "who is"), ("how's", "how is"), ("it's", "it is"),
                 ("i'm", "i am"), ("i've", "i have"), ("you're", "you are"), ("what're", "what are"),
                 ("where's", "where is"), ("when's", "when is"), ("that's", "that is"), ("there's", "there is")]
_PATH = re.compile(r"(?:~|\.{1,2})?/[\w./-]+|\b[\w-]+\.(?:txt|md|pdf|csv|json|py|log|png|jpe?g|gif|docx?|"
                   r"xlsx?|html?|ya?ml|toml|ini|conf|cfg|sh|rtf|odt)\b", re.I)
_WORD = re.compile(r"[a-z0-9']+|<path>")


def normalise(text: str) -> list[str]:
    """Lower-case words, with paths as one token and contractions and chat spellings unified."""
    text = _PATH.sub(" <path> ", text.replace("\u2019", "'").replace("`", "'"))
    words = []
    for w in _WORD.findall(text.lower()):
        w = _SAME.get(w.strip("'"), w.strip("'"))
        words.append(w)
    text = " ".join(words)
    for short, full in _CONTRACTIONS:
        text = text.replace(short, full)
    return text.split()


# Word classes: what little general knowledge the classifier starts with, so that a word it
# never saw in training ("umbrella", "freezing", "laptop") still counts for its topic. Written
# from the domain (what each tool serves), not from the test questions.
_CLASSES = {
    "weather": """weather forecast forecasts rain raining rainy rainfall drizzle drizzling shower showers snow snowing
        snowy sleet hail sunny sunshine sunscreen suncream cloudy clouds overcast fog foggy mist misty wind windy
        breeze gale gales storm storms stormy thunder thunderstorm lightning temperature temperatures degrees
        celsius fahrenheit cold chilly warm hot heat freezing frost frosty icy humid humidity umbrella brolly coat
        jacket raincoat scarf gloves wellies mild muggy drought heatwave uv pollen""",
    "now": """now today tonight tomorrow currently current moment outside outdoors later weekend morning afternoon
        evening monday tuesday wednesday thursday friday saturday sunday this next""",
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
    "general": """why explain explains how does do what causes cause define definition meaning mean history
        difference average best recommend tips idea example examples invented invent""",
}
_CLASS_OF: dict[str, list[str]] = {}
for _cls, _words in _CLASSES.items():
    for _w in _words.split():
        _CLASS_OF.setdefault(_w, []).append(_cls)


CLASS_WEIGHT = 3.0  # a word class counts as much as this many words: it is what generalises
USE = {"words": True, "bigrams": True, "chars": False, "frames": True}

# how the question is put: a request about now, me, you, or a general lesson
_FRAMES = [
    ("f:general", re.compile(r"^(?:why|explain|define|describe\s+how|how\s+(?:does|do|did|is|are)\s+(?!i\b|you\b|we\b)|"
                             r"what\s+(?:is|are)\s+(?:a|an)\b|what\s+causes|what\s+does\s+\S+\s+mean|"
                             r"who\s+(?:invented|wrote|discovered|painted)|when\s+(?:did|was|were)|write\s+a|tell\s+me\s+a\s+"
                             r"(?:joke|story)|recommend|give\s+me\s+(?:a|some|three|two|\d+)\s+(?:ideas|tips|examples))")),
    ("f:you", re.compile(r"\b(?:you|your|yourself)\b")),
    ("f:me", re.compile(r"\b(?:i|my|me|mine|i'm|i've)\b")),
    ("f:we", re.compile(r"\b(?:we|our|us)\b")),
    ("f:now", re.compile(r"\b(?:now|today|tonight|tomorrow|currently|right now|at the moment|this (?:morning|afternoon|"
                         r"evening|week|weekend)|outside|out there|later|yet|still)\b")),
    ("f:past", re.compile(r"\b(?:yesterday|last (?:time|week|month|night)|before|earlier|ago|previously|ever)\b")),
    ("f:yesno", re.compile(r"^(?:is|are|am|do|does|did|can|could|will|would|should|has|have)\b")),
]


def features(text: str) -> dict[str, float]:
    """Sparse features with their values: words, word pairs and character 4-grams share a
    unit of weight (so a long question does not outvote a short one); word classes, pairs of
    classes that occur together and the question's frame count on their own."""
    words = normalise(text)
    plain = {f"w:{w}" for w in words} if USE["words"] else set()
    padded = ["<s>", *words, "</s>"]
    if USE["bigrams"]:
        plain |= {f"b:{a}_{b}" for a, b in zip(padded, padded[1:], strict=False)}
    if USE["chars"]:
        for w in words:
            if len(w) > 3 and w != "<path>":
                g = f"<{w}>"
                plain |= {f"c:{g[i:i + 4]}" for i in range(len(g) - 3)}
    norm = 1 / math.sqrt(max(1, len(plain)))
    feats = dict.fromkeys(plain, norm)
    classes = sorted({c for w in words for c in _CLASS_OF.get(w, ())})
    if USE["frames"]:
        joined = " ".join(words)
        classes += [name for name, pat in _FRAMES if pat.search(joined)]
    cnorm = CLASS_WEIGHT * norm
    for i, a in enumerate(classes):
        feats[f"k:{a}"] = cnorm
        # which topics occur together ("weather" with "now": a forecast; with "general": a lesson)
        for b in classes[i + 1:]:
            feats[f"kk:{a}+{b}"] = cnorm
    return feats


# -- the model --------------------------------------------------------------------------------


FEATURES_VERSION = 2  # raise it when features() changes, so cached weights and index are not reused


class Model:
    """One-vs-rest logistic regression over sparse features. Each label is trained the first
    time it is asked for (the guards on a message's first route, the tools only when hints are
    wanted), over feature indices and plain lists, so a label costs tens of milliseconds once."""

    def __init__(self, examples: list[Example], labels: tuple[str, ...] = LABELS, epochs: int = 12,
                 rate: float = 1.0, l2: float = 1e-3, cache: Path | None = None):
        self.labels, self.epochs, self.rate, self.l2 = labels, epochs, rate, l2
        # the cache file is named after everything the weights depend on
        self.key = hashlib.sha256(repr((sorted((e.text, sorted(e.labels)) for e in examples), epochs, rate, l2,
                                        CLASS_WEIGHT, sorted(USE.items()), FEATURES_VERSION)).encode()).hexdigest()[:16]
        self.cache = self.cache_file(cache)
        self._cached: dict[str, tuple[list[float], float]] | None = None
        self.examples = examples
        # the features' places in the weights: from the cache when it has them (reading the
        # examples' features costs about 100 ms for two thousand questions), else from the examples
        self.index: dict[str, int] = {}
        self.rows: list[tuple[list[int], list[float], frozenset[str]]] = []
        self.trained: dict[str, tuple[list[float], float]] = {}
        self._lock = threading.Lock()

    def _featurise(self) -> None:
        if self.rows or not self.examples:
            return
        index: dict[str, int] = {}
        for e in self.examples:
            feats = features(e.text)
            self.rows.append(([index.setdefault(f, len(index)) for f in feats], list(feats.values()), e.labels))
        if self.index and self.index != index:  # a cache from other examples: its weights do not fit
            self.trained.clear()
            self._cached = {}
        self.index = index

    def _train(self, lab: str) -> tuple[list[float], float]:
        self._featurise()
        w, b = [0.0] * len(self.index), 0.0
        pos = sum(1 for _, _, labels in self.rows if lab in labels)
        # positives are rare for each label: weigh them up so recall does not starve
        up = max(1.0, (len(self.rows) - pos) / max(1, pos)) ** 0.5
        for epoch in range(self.epochs):
            step = self.rate / (1 + epoch * 0.3)
            for idx, vals, labels in self.rows:
                y = 1.0 if lab in labels else 0.0
                z = b + sum(w[i] * v for i, v in zip(idx, vals, strict=True))
                p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
                g = (p - y) * (up if y else 1.0) * step
                if abs(g) < 1e-3:
                    continue
                b -= g
                for i, v in zip(idx, vals, strict=True):
                    w[i] -= g * v
            if self.l2:
                decay = 1 - self.l2 * step
                w = [x * decay for x in w]
        return w, b

    def cache_file(self, folder: Path | None) -> Path | None:
        return folder / f"classifier-{self.key}.json" if folder is not None else None

    def _load(self, lab: str) -> tuple[list[float], float] | None:
        if self.cache is None:
            return None
        if self._cached is None:
            self._cached = {}
            try:
                data = json.loads(self.cache.read_text(encoding="utf-8"))
                names = data.pop("_index", None)
                if not self.index and isinstance(names, list) and all(isinstance(n, str) for n in names):
                    self.index = {n: i for i, n in enumerate(names)}
                for name, (w, b) in data.items():
                    if isinstance(w, list) and len(w) == len(self.index) and self.index:
                        self._cached[name] = ([float(x) for x in w], float(b))
            except (OSError, ValueError, TypeError, AttributeError):  # none yet, or damaged: train again
                self._cached = {}
        return self._cached.get(lab)

    def _save(self) -> None:
        if self.cache is None or (self._cached is not None and set(self.trained) <= set(self._cached)):
            return
        try:
            from tatlock.files import write_private

            data: dict[str, object] = {lab: [[round(x, 6) for x in w], b] for lab, (w, b) in self.trained.items()}
            data["_index"] = sorted(self.index, key=self.index.__getitem__)
            write_private(self.cache, json.dumps(data, separators=(",", ":")))
            self._cached = dict(self.trained)
        except Exception:  # noqa: BLE001 - the cache only saves time; the weights are in memory
            pass

    def scores(self, text: str, labels: tuple[str, ...] | None = None) -> dict[str, float]:
        if not self.examples:
            return dict.fromkeys(labels or self.labels, 0.0)
        wanted = labels or self.labels
        for _ in range(2):  # twice only if a cache from other features was found mid-way and dropped
            for lab in wanted:
                if lab not in self.trained:
                    with self._lock:
                        if lab not in self.trained:
                            self.trained[lab] = self._load(lab) or self._train(lab)
                            self._save()
            if all(lab in self.trained for lab in wanted):
                break
        feats = [(self.index[f], v) for f, v in features(text).items() if f in self.index]
        out = {}
        for lab in labels or self.labels:
            w, b = self.trained[lab]
            z = b + sum(w[i] * v for i, v in feats)
            out[lab] = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
        return out


_model: Model | None = None
_lock = threading.Lock()
_cache: Path | None = None


def use_cache(folder: Path) -> None:
    """Keep the trained weights in ``folder`` (the core passes its data folder), from the next
    label trained on."""
    global _cache
    with _lock:
        _cache = folder
        if _model is not None:
            _model.cache = _model.cache_file(folder)


def model() -> Model:
    """The classifier over the shipped examples (labels trained on first use, once per process)."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                try:
                    examples = training_examples()
                except OSError:  # a broken install: no classifier, the rules still route
                    examples = []
                _model = Model(examples, cache=_cache)
    return _model


def warm() -> threading.Thread:
    """Train the labels in the background (call it at start-up, so the first message's route
    does not wait for them: a few hundred ms the first time, then loaded from the cache)."""
    t = threading.Thread(target=lambda: model().scores("", LABELS), name="tatlock-intents", daemon=True)
    t.start()
    return t


def classes(text: str) -> set[str]:
    """The word classes a message's words belong to (the classifier's evidence)."""
    return {c for w in normalise(text) for c in _CLASS_OF.get(w, ())}


def scores(text: str, labels: tuple[str, ...] | None = None) -> dict[str, float]:
    """Each label's probability for a message (all labels, or the ones asked for)."""
    return model().scores(text, labels)
