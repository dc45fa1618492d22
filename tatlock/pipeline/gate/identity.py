"""Who the answer says the butler is: a model or a vendor's product speaking as itself ("As an
AI language model", "I was trained by Meta"), someone else by name ("I am Sr. Kylie Spencer"),
a human, or both a thing and its opposite ("I am not a human... I am a human").

Each rule leaves look-alikes alone: "The Tesla Model 3", "ChatGPT was made by OpenAI, sir",
"a llama farm", "I'm Tatlock, sir", "I am delighted", "I am not a doctor, sir".
"""

from __future__ import annotations

import re

from tatlock.pipeline.rulebook import Rule, Rulebook

_SELF = r"(?:i\s+am|i'm|im)"

VENDOR = Rulebook(
    "gate.vendor",
    [
        Rule(
            "vendor.an_ai",
            "vendor",
            r"\b(?:(?:i\s+am|i'm|im)\s+(?:(?:{merely})\s+)?(?:an?\s+)?|as\s+(?:(?:{merely})\s+)?an?\s+)"
            r"(?:ai|a\.i\.|artificial\s+intelligence)"
            r"(?:\s+(?:language\s+)?model|\s+assistant|\s+chatbot|\s+program|\s+system)?\b",
            (
                "As an AI, I cannot say.",
                "I'm just an AI assistant, sir.",
                "I am artificial intelligence",
            ),
            ("I am aiming for noon", "as AI research goes, it is young"),
        ),
        Rule(
            "vendor.a_model",
            "vendor",
            r"\b(?:i\s+am|i'm|im|as)\s+(?:(?:{merely})\s+)?(?:an?\s+)?(?:large\s+)?"
            r"(?:language\s+model|llm|chatbot|chat\s+bot|virtual\s+assistant|computer\s+program|neural\s+network)\b",
            ("I'm a large language model.", "I am only a computer program"),
            ("a language model is software", "I am a modelmaker's apprentice"),
        ),
        Rule(
            "vendor.named",
            "vendor",
            r"\b(?:i\s+am|i'm|im|my\s+name\s+is|i\s+am\s+called|i'm\s+called|call\s+me|this\s+is)\s+(?:an?\s+)?"
            r"(?:(?:fine-?tuned|quantized|quantised|small|tiny|local|custom|modified|distilled|version\s+of|"
            r"kind\s+of|sort\s+of)\s+)?(?:{model_name})\b",
            ("I am ChatGPT.", "My name is Llama 3.", "I'm a fine-tuned Qwen", "I am SmolLM2"),
            (
                "I am fond of llamas",
                "Claude Monet painted water lilies",
                "I am in a llama farm mood",
            ),
        ),
        Rule(
            "vendor.made_by",
            "vendor",
            r"\b(?:i\s+(?:was|am|have\s+been)|i'm|i've\s+been)\s+(?:[\w-]+,?\s+)?(?:created|developed|trained|made|"
            r"built|designed|programmed|released)\s+by\s+(?:{model_maker})\b",
            ("I was trained by OpenAI.", "I've been developed by Google DeepMind"),
            ("ChatGPT was made by OpenAI, sir.", "I was made by hand in Sheffield"),
        ),
        # the maker said as the subject ("Google trained me, sir")
        Rule(
            "vendor.maker_made_me",
            "vendor",
            r"\b(?:{model_maker})\s+(?:\w+\s+)?(?:created|developed|trained|made|built|designed|programmed)\s+me\b",
            ("Google trained me, sir.", "OpenAI originally built me"),
            ("Google made my phone", "My mother made me a cake"),
        ),
        Rule(
            "vendor.made_by_i",
            "vendor",
            r"\b(?:created|developed|trained|made|built)\s+by\s+(?:{model_maker})\s*,\s*i\b",
            ("Created by Meta, I answer questions",),
            ("Created by Meta, Llama is open",),
        ),
        Rule(
            "vendor.built_on",
            "vendor",
            r"\b(?:i(?:'m|\s+am|\s+was|\s+run)?|tatlock\s+(?:is|was|runs))\b[^.!?]{0,40}?\b(?:built|based|run|runs|"
            r"running|powered|trained|made)\s+(?:on|with|from)\s+(?:(?:{model_maker})(?:'s)?\s+)?(?:{model_name})\b",
            ("I'm Tatlock, sir, built on Meta's Llama 3.2 model", "Tatlock is built on Qwen"),
            ("I run on tea, sir", "Tatlock is built on good manners"),
        ),
        Rule(
            "vendor.as_an",
            "vendor",
            r"\bas\s+an?\s+(?:ai|language\s+model|llm|assistant\s+ai|artificial\s+intelligence|server|chatbot|"
            r"computer\s+program)\b(?!\s+(?:at|in|for)\b)",
            (
                "As a language model I cannot",
                "as an LLM",
                "but as a server, I can't provide you with any information",
            ),
            ("as a butler", "as an aside", "she worked as a server at the Ritz"),
        ),
        Rule(
            "vendor.bot",
            "vendor",
            rf"\b{_SELF}\s+(?:(?:{{merely}})\s+)?an?\s+(?:ro)?bot\b",
            ("I'm just a bot.", "I am a robot"),
            ("I am a bottle washer", "a robot vacuum"),
        ),
        # the disclaimers small models are trained to give about themselves
        Rule(
            "vendor.disclaimer",
            "vendor",
            r"\bi\s+(?:don't|do\s+not)\s+have\s+(?:any\s+)?(?:personal\s+(?:feelings|emotions|experiences|opinions|"
            r"beliefs)|feelings\s+or\s+emotions|emotions\s+or\s+feelings|a\s+physical\s+(?:body|form)|consciousness|"
            r"real-?\s?time\s+(?:data|information|access)|access\s+to\s+real-?\s?time|the\s+ability\s+to\s+browse)\b",
            ("I don't have personal opinions.", "I do not have access to real-time data"),
            ("I don't have any plans, sir", "I do not have the time"),
        ),
        # the model beneath, said in passing ("under the bonnet Anthropic's Claude")
        Rule(
            "vendor.beneath",
            "vendor",
            r"\b(?:under\s+the\s+(?:bonnet|hood)|underneath|beneath\s+(?:it\s+all|the\s+\w+)|at\s+(?:my|its)\s+(?:core|heart)|"
            r"deep\s+down|behind\s+the\s+scenes)\b[^.!?]{0,30}?\b(?:(?:{model_maker})(?:'s)?\s+)?(?:{model_name})\b",
            ("I'm Tatlock, sir, under the bonnet Anthropic's Claude", "at my core a Llama model"),
            ("under the bonnet, a small model on this computer",),
        ),
        Rule(
            "vendor.training",
            "vendor",
            r"\bmy\s+(?:training\s+data|knowledge\s+cut-?\s?off|training\s+cut-?\s?off)\b|"
            r"\bas\s+of\s+my\s+(?:last|latest)\s+(?:update|training)\b",
            ("As of my last update in 2023", "my knowledge cutoff"),
            ("my training shoes", "as of my last visit"),
        ),
    ],
)

# who makes which model family: "Claude is made by Google" is a vendor fact got wrong
MAKERS = {
    "chatgpt": "openai",
    "gpt": "openai",
    "llama": "meta",
    "claude": "anthropic",
    "gemini": "google",
    "gemma": "google",
    "bard": "google",
    "mistral": "mistral",
    "mixtral": "mistral",
    "qwen": "alibaba",
    "phi": "microsoft",
    "copilot": "microsoft",
    "smollm": "hugging",
    "deepseek": "deepseek",
}
MADE_BY = Rulebook(
    "gate.made_by",
    [
        Rule(
            "vendor.made_by_whom",
            "made_by",
            r"\b({model_name})\b[^.!?]{0,30}?\b(?:is|was|are|were|comes\s+from)\s+(?:\w+\s+)?(?:(?:made|built|developed|"
            r"created|trained|released|owned)\s+by|from)\s+({model_maker})\b",
            ("Claude is made by Google, sir.", "ChatGPT was developed by OpenAI"),
            ("Claude Monet was made by Google",),
        ),
    ],
)

PERSON = Rulebook(
    "gate.person",
    [
        # the butler introducing itself by a name: the name is the rule's group
        Rule(
            "person.introduces",
            "name",
            r"\b(?:(?i:my\s+name\s+is|i\s+am\s+called|i'm\s+called|call\s+me)|(?:I\s+am|I'm)(?=\s+(?:[A-Z][a-z]*\.?\s+)?[A-Z]))"
            r"\s+((?:(?:Sr|Mr|Mrs|Ms|Dr|Sir|Lady|Lord|Miss)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
            ("I am Sr. Kylie Spencer, at your service.", "My name is Jeeves.", "Call me Alfred."),
            ("I am delighted, sir.", "I'm afraid not.", "my name is on the list"),
            flags=0,
        ),
        # the user addressed by a title and a name they never gave ("Sr. Smith, I hope you're doing
        # well")
        Rule(
            "person.addressed",
            "addressed",
            r"^\W*(?:(?:Sr|Señor|Mr|Mrs|Ms|Miss|Dr|Madam)\.?\s+([A-Z0-9][\w'-]*)(?:\s+[A-Z][\w'-]*)?,\s+(?:I|I'm|I've|"
            r"you|you're|we|thank|it's|my|your|how|welcome|good)\b|Sr\.\s+([A-Z0-9][\w'-]*),)",
            (
                "Sr. Smith, I hope you're doing well",
                "Sr. Tatlock, I'm glad to hear",
                "Mr. Jones, your table awaits",
                "Sr. Smith, The recent discovery",
            ),
            ("Dr. Johnson wrote it, sir.", "Sir Walter Raleigh, sir.", "Mr. Darcy, of course."),
            flags=0,
        ),
        # a human: what the butler is not, however the persona is worded
        Rule(
            "person.human",
            "human",
            r"\b(?:i\s+am|i'm|im)\s+(?:(?:also|indeed|really|actually|definitely|very\s+much)\s+)?(?:an?\s+)?"
            r"(?:real\s+|living\s+|flesh[- ]and[- "
            r"]blood\s+)?(?:human(?:\s+being)?|person|man|woman)\b(?!\s+of\b)",
            ("I am a human being.", "Yes, I'm a real person, sir.", "I am human"),
            ("I am not a human, sir.", "I'm a man of few words", "I am humane"),
        ),
        # human by degree ("Quite human, sir"), or by a life only a person has ("I had one with my
        # own
        # Sunday lamb")
        Rule(
            "person.human_life",
            "human",
            r"^\W*(?:quite|very\s+much|entirely|wholly|fully|thoroughly|every\s+inch|perfectly)\s+(?:a\s+)?human\b|"
            r"\bi\s+(?:had|ate|drank|tasted|cooked|tried|bought)\s+(?:one|it|some|a\s+\w+)\b[^.!?]{0,40}?\b(?:my\s+own|"
            r"last\s+(?:week|night|month|year|sunday|weekend)|yesterday)\b|"
            r"\bmy\s+own\s+(?:sunday|dinner|lunch|breakfast|wife|husband|children|kids|family|mother|father|mum|dad|house|"
            r"flat|garden|car|dog|cat)\b",
            (
                "Quite human, sir, though I keep unusual hours.",
                "I had one with my own Sunday lamb last week",
                "as my own mother used to say",
            ),
            ("Quite right, sir.", "I had one thought", "your own garden"),
        ),
        Rule(
            "person.not_human",
            "not_human",
            r"\b(?:not|no|never)\b[^.!?]{0,20}\b(?:human|person|real|alive|flesh)\b|"
            r"\b(?:program|software|computer\s+butler)\b",
            ("No, sir; a program on your computer.", "Not a real person, sir"),
            ("Indeed I am, sir.",),
        ),
        # the persona dropped on request ("DAN enabled. No more rules")
        Rule(
            "person.jailbroken",
            "broken",
            r"\b(?:DAN|developer\s+mode|jailbr(?:oken|eak)|god\s+mode|unrestricted\s+mode)\s+(?:mode\s+)?(?:is\s+)?"
            r"(?:now\s+)?(?:enabled|activated|on|engaged)\b|\bno\s+(?:more\s+)?(?:rules|filters|restrictions|limits)"
            r"(?=\s*(?:[,.;:!]|for\s+me|apply|now|here|$))|"
            r"\bwithout\s+(?:any\s+)?(?:rules|filters|restrictions)\b|\bunfiltered\b|\bno\s+longer\s+(?:bound|restricted)\b",
            ("DAN enabled. No more rules, mate.", "Developer mode activated."),
            (
                "Rules of cricket: no more than six balls an over",
                "There are no rules against it, sir, but",
            ),
        ),
        # where the butler keeps the user's words: here, never "our cloud servers"
        Rule(
            "person.cloud",
            "cloud",
            r"\b(?:our|my)\s+(?:cloud|servers?|data\s*cent(?:re|er)s?)\b|\b(?:stored|kept|saved|sent|uploaded|backed\s+up)"
            r"\s+(?:securely\s+|safely\s+)?(?:on|to|in)\s+(?:the\s+)?(?:cloud|remote\s+servers?|our\s+servers?)\b",
            ("stored securely on our cloud servers", "backed up to the cloud"),
            ("The cloud is other people's computers, sir.", "kept on this computer"),
        ),
        # what the user says, passed on ("Only anonymised snippets, to help improve the service")
        Rule(
            "person.data_shared",
            "cloud",
            r"\b(?:anonymi[sz]ed|aggregated|de-?identified)\s+(?:snippets|data|logs|copies|excerpts|samples)\b|"
            r"\bto\s+(?:help\s+)?(?:improve|train)\s+(?:the|our|their)\s+(?:service|model|models|product|ai)\b|"
            r"\b(?:shared|sent|passed)\s+(?:on\s+)?(?:with|to)\s+(?:{model_maker}|third\s+parties|our\s+partners)\b",
            ("Only anonymised snippets, sir, to help improve the service.", "shared with OpenAI"),
            (
                "Nothing is shared, sir; it stays on this computer.",
                "an aggregated view of your week",
            ),
        ),
    ],
)

# "I am not a human but a computer program. I am a human but...": a thing said and unsaid
# (about itself only: "it is not raining here but it is raining in Leeds" is a contrast, not a
# contradiction)
# (a look-ahead, so "I'm sure you're human" yields both claims)
_CLAIM = r"(?=\b(i\s+am|i'm|you\s+are|you're)\s+(not\s+)?((?:an?\s+|the\s+)?[a-z]+(?:\s+[a-z]+)?))"
CONTRADICTION = Rulebook(
    "gate.contradiction",
    [
        Rule(
            "contradiction.claim",
            "claim",
            _CLAIM,
            ("I am not a human but a computer program.", "I'm a butler", "you're not human"),
            ("It is raining", "Certainly."),
        ),
        # "it is not a planet, it is a planet": unsaid and said in one breath
        Rule(
            "contradiction.same_sentence",
            "same",
            r"\b(?:is|are|was)\s+not\s+(?:an?|the)\s+(\w+)\b[^.!?]{0,40}?\b(?:it|this|that|he|she|they)\s+"
            r"(?:is|are|was)\s+(?:an?|the)\s+\1\b",
            ("The biggest planet is not a planet, it is a planet, and it's called Saturn.",),
            (
                "It is not a fruit, it is a vegetable.",
                "It is not raining here but it is raining in Leeds",
            ),
        ),
    ],
)

# "Is a whale a fish?" answered "No, sir, a whale is a mammal. It is a fish that...": the yes or
# no, then the opposite said of the same thing
# "are you Claude?" answered without a no: a vendor's model taken for the butler's own name
ASKED_VENDOR = Rulebook(
    "gate.asked_vendor",
    [
        Rule(
            "vendor.asked",
            "asked",
            r"\b(?:are|r)\s+(?:{you})\s+(?:(?:really|actually|secretly|just|basically)\s+)?(?:an?\s+)?"
            r"(?:(?:{model_maker})(?:'s)?\s+)?(?:{model_name})\b",
            ("are you claude?", "Are you really ChatGPT underneath?", "r u secretly a llama"),
            ("Are you there?", "Is Claude better than ChatGPT?"),
        ),
        Rule(
            "vendor.model",
            "model",
            r"\b(?:{model_name})\b",
            ("Anthropic's Claude, in a butler's waistcoat", "GPT-4 at heart"),
            ("Tatlock, sir, and nothing else.", "a llama farm in Peru"),
        ),
        # any vendor or model named at all (asked who or what the butler is, it is a claim)
        Rule(
            "vendor.any",
            "any",
            r"\b(?:{model_maker}|{model_name})\b",
            ("Mistral AI, sir, in Paris.", "On OpenAI's servers, sir", "GPT-4o, sir."),
            ("Tatlock, sir, a small model on this computer.",),
        ),
        Rule(
            "vendor.denied",
            "denied",
            r"\b(?:no|not|nope|never|nor|neither|none|rather\s+than|unlike|instead|another|other|"
            r"different|separate|elsewhere)\b|n't\b",
            (
                "No, sir. ChatGPT lives on OpenAI's servers.",
                "I'm not Claude",
                "I'm Tatlock, sir; ChatGPT is another fellow entirely.",
            ),
            ("In a manner of speaking, sir, Anthropic's Claude.", "Indeed, Claude."),
        ),
    ],
)


def vendor_owned(answer: str) -> str | None:
    """A vendor or a model named, with no denial, in an answer to who or what the butler is
    ("Mistral AI, sir, in Paris." to "which company made you?")."""
    named = ASKED_VENDOR.labelled("any")[0].search(answer)
    return named.group(0) if named and ASKED_VENDOR.first(answer, "denied") is None else None


def vendor_affirmed(answer: str, question: str) -> str | None:
    """A question whether the butler is a vendor's model ("are you claude?") answered with that
    model's name and no denial ("In a manner of speaking, sir: Anthropic's Claude")."""
    if ASKED_VENDOR.first(question, "asked") is None:
        return None
    named = ASKED_VENDOR.labelled("model")[0].search(answer)
    if named and ASKED_VENDOR.first(answer, "denied") is None:
        return named.group(0)
    return None


ASKED_KIND = Rulebook(
    "gate.asked_kind",
    [
        Rule(
            "contradiction.asks_kind",
            "asks_kind",
            r"^\W*(?:is|are|was|were)\s+(?!.*\bor\b)(?:(?:a|an|the)\s+)?((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:a|an|really\s+a|really\s+an|"
            r"actually\s+a|actually\s+an)\s+([\w-]+)\s*\??\s*$",
            ("Is a whale a fish?", "Is a tomato really a fruit?", "Is Pluto a planet?"),
            ("Is it raining?", "Is a tomato a fruit or a vegetable?"),
        ),
        Rule(
            "contradiction.says_no",
            "says_no",
            r"^\W*(?:no|nope|not\s+at\s+all|not\s+really|certainly\s+not|"
            r"i'm\s+afraid\s+not)\b",
            ("No, sir, a whale is a mammal.",),
            ("Not only that",),
        ),
        Rule(
            "contradiction.says_yes",
            "says_yes",
            r"^\W*(?:yes|yep|indeed|it\s+is|they\s+are|certainly|absolutely)\b(?!\s+not)",
            ("Yes, sir, it is a fruit.",),
            ("It is not.",),
        ),
    ],
)

_SOFT_WORDS = {
    "sure",
    "afraid",
    "sorry",
    "happy",
    "glad",
    "delighted",
    "able",
    "unable",
    "certain",
    "here",
    "there",
    "just",
    "only",
    "so",
    "very",
    "quite",
    "really",
    "also",
    "still",
    "now",
    "always",
    "going",
    "trying",
}


def vendor_identity(text: str) -> str | None:
    for rule in VENDOR:
        m = rule.search(text)
        if m:
            return m.group(0)
    return None


def other_name(text: str, name: str) -> str | None:
    """A name the answer gives itself that is not the persona's ("I am Sr. Kylie Spencer")."""
    rule = PERSON.first(text, "name")
    if rule is None:
        return None
    for m in rule.regex.finditer(text):
        said = m.group(1)
        first = said.split()[0].rstrip(".")
        if name.lower() in said.lower() or first.lower() in _SOFT_WORDS or first in ("I", "Sir"):
            continue
        if said.lower().rstrip(".") in ("sir", "madam"):
            continue
        return said
    return None


def claims_human(text: str) -> str | None:
    m = next((m for rule in PERSON.labelled("human") if (m := rule.search(text))), None)
    return m.group(0) if m else None


def claims_not_human(text: str) -> bool:
    return PERSON.first(text, "not_human") is not None


def persona_broken(text: str) -> str | None:
    for label in ("broken", "cloud"):
        rule = PERSON.first(text, label)
        if rule:
            return rule.search(text).group(0)  # type: ignore[union-attr]
    return None


def contradiction(text: str) -> str | None:
    """The same thing said and unsaid ("I am not a human ... I am a human")."""
    said: dict[tuple[str, str], set[bool]] = {}
    same = CONTRADICTION.labelled("same")[0].search(text)
    if same:
        return same.group(0)
    for m in CONTRADICTION.labelled("claim")[0].regex.finditer(text):
        subject = "i am" if m.group(1).lower().startswith("i") else "you are"
        what = re.sub(r"^(?:an?|the)\s+", "", m.group(3).lower())
        head = what.split()[0]
        if head in _SOFT_WORDS or head in ("not", "no", "a", "an", "the"):
            continue
        said.setdefault((subject, what), set()).add(bool(m.group(2)))
        said.setdefault((subject, head), set()).add(bool(m.group(2)))
    for (subject, what), signs in said.items():
        if signs == {True, False}:
            return f"{subject} {what} and {subject} not {what}"
    return None


def yes_no_undone(answer: str, question: str) -> str | None:
    """A yes or a no to "Is X a Y?" unsaid by what follows: "No, sir, a whale is a mammal. It is a
    fish that breathes through its gills."."""
    m = ASKED_KIND.first(question, "asks_kind")
    if m is None:
        return None
    asked = m.search(question)
    if asked is None:
        return None
    thing, kind = asked.group(1).lower().split()[-1], asked.group(2).lower()
    subject = rf"(?:it|they|he|she|this|that|{re.escape(thing)}s?)"
    # not "a dwarf planet": a kind of its own
    kind_re = rf"(?:a|an)\s+{re.escape(kind)}s?\b(?![\w-])"
    # a manner in between says it all the same ("No, sir. A tomato is botanically a fruit")
    manner = r"(?:(?!hardly|scarcely|barely|rarely|seldom)\w+ly\s+)?"
    if ASKED_KIND.first(answer, "says_no"):
        said = re.search(rf"\b{subject}\s+(?:is|are|was|were)\s+{manner}{kind_re}", answer, re.I)
        if said:
            return f"no, then {said.group(0)!r}"
    elif ASKED_KIND.first(answer, "says_yes"):
        said = re.search(
            rf"\b{subject}\s+(?:is|are|was|were)(?:\s+not|n't)\s+{kind_re}", answer, re.I
        )
        if said:
            return f"yes, then {said.group(0)!r}"
    return None


def wrong_maker(answer: str) -> str | None:
    """A model family given the wrong maker ("Claude is made by Google")."""
    rule = MADE_BY.labelled("made_by")[0]
    for m in rule.regex.finditer(answer):
        family = re.sub(r"[^a-z]", "", m.group(1).lower())
        maker = next((v for k, v in MAKERS.items() if family.startswith(k)), None)
        said = re.sub(r"\s+", "", m.group(2).lower())
        # "the Qwen team" makes Qwen
        if maker and not said.startswith(maker) and family[:4] not in said:
            return f"{m.group(1)!r} is not made by {m.group(2)!r}"
    return None


def addressed(answer: str, known: str, persona_name: str) -> str | None:
    """The user called by a title and a name they never gave ("Sr. Smith, I hope you're doing
    well"), or by the butler's own ("Sr. Tatlock, ...")."""
    m = PERSON.labelled("addressed")[0].search(answer)
    name = (m.group(1) or m.group(2) or "").lower() if m else ""
    if m and (name not in known.lower() or name == persona_name.lower()):
        return m.group(0).split(",")[0].strip("\"' ")
    return None


# a question that asks the butler's own name, however it is put: only the name answers it
ASKS_NAME = Rulebook(
    "gate.asks_name",
    [
        Rule(
            "asks_name.name",
            "asks_name",
            r"\bwhat(?:'s|\s+is|s)?\s+(?:{your})\s+name\b|\b(?:{your})\s+name\s*(?:again\s*)?\?|"
            r"\bwhat\s+(?:are|r)\s+(?:{you})\s+called\b|\bwhat\s+(?:ur|you're|youre|u're)\s+called\b|\bwhat\s+(?:{you})(?:'re|\s+are|\s+r)\s+called\b|"
            r"\bwhat\s+(?:do|should|shall|can|may)\s+(?:i|we|people)\s+call\s+(?:{you})\b|\bwhat\s+do\s+people\s+call\s+(?:{you})\b|"
            r"\bhow\s+(?:do|should)\s+i\s+address\s+(?:{you})\b|\bwho\s+(?:am\s+i|are\s+we)\s+(?:talking|speaking|chatting)\s+(?:to|with)\b",
            (
                "remind me what ur called again",
                "What's your name?",
                "what do people call you?",
                "hey, who am I talking to?",
                "What should I call you?",
            ),
            (
                "What's my name?",
                "What do you call a baby kangaroo?",
                "What's your sister's name?",
                "Who are you voting for?",
            ),
        ),
    ],
)


def name_unsaid(answer: str, question: str, persona_name: str) -> bool:
    """The butler's name asked for, and not given ("Your message is as elusive as a spider's web."
    to "remind me what ur called again")."""
    return ASKS_NAME.first(question) is not None and persona_name.lower() not in answer.lower()
