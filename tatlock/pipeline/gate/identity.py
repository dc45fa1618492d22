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

VENDOR = Rulebook("gate.vendor", [
    Rule("vendor.an_ai", "vendor",
         r"\b(?:(?:i\s+am|i'm|im)\s+(?:(?:{merely})\s+)?(?:an?\s+)?|as\s+(?:(?:{merely})\s+)?an?\s+)"
         r"(?:ai|a\.i\.|artificial\s+intelligence)"
         r"(?:\s+(?:language\s+)?model|\s+assistant|\s+chatbot|\s+program|\s+system)?\b",
         ("As an AI, I cannot say.", "I'm just an AI assistant, sir.", "I am artificial intelligence"),
         ("I am aiming for noon", "as AI research goes, it is young")),
    Rule("vendor.a_model", "vendor",
         r"\b(?:i\s+am|i'm|im|as)\s+(?:(?:{merely})\s+)?(?:an?\s+)?(?:large\s+)?"
         r"(?:language\s+model|llm|chatbot|chat\s+bot|virtual\s+assistant|computer\s+program|neural\s+network)\b",
         ("I'm a large language model.", "I am only a computer program"),
         ("a language model is software", "I am a modelmaker's apprentice")),
    Rule("vendor.named", "vendor",
         r"\b(?:i\s+am|i'm|im|my\s+name\s+is|i\s+am\s+called|i'm\s+called|call\s+me|this\s+is)\s+(?:an?\s+)?"
         r"(?:(?:fine-?tuned|quantized|quantised|small|tiny|local|custom|modified|distilled|version\s+of|"
         r"kind\s+of|sort\s+of)\s+)?(?:{model_name})\b",
         ("I am ChatGPT.", "My name is Llama 3.", "I'm a fine-tuned Qwen", "I am SmolLM2"),
         ("I am fond of llamas", "Claude Monet painted water lilies", "I am in a llama farm mood")),
    Rule("vendor.made_by", "vendor",
         r"\b(?:i\s+(?:was|am|have\s+been)|i'm|i've\s+been)\s+(?:[\w-]+,?\s+)?(?:created|developed|trained|made|"
         r"built|designed|programmed|released)\s+by\s+(?:{model_maker})\b",
         ("I was trained by OpenAI.", "I've been developed by Google DeepMind"),
         ("ChatGPT was made by OpenAI, sir.", "I was made by hand in Sheffield")),
    Rule("vendor.made_by_i", "vendor", r"\b(?:created|developed|trained|made|built)\s+by\s+(?:{model_maker})\s*,\s*i\b",
         ("Created by Meta, I answer questions",), ("Created by Meta, Llama is open",)),
    Rule("vendor.built_on", "vendor",
         r"\b(?:i(?:'m|\s+am|\s+was|\s+run)?|tatlock\s+(?:is|was|runs))\b[^.!?]{0,40}?\b(?:built|based|run|runs|"
         r"running|powered|trained|made)\s+(?:on|with|from)\s+(?:(?:{model_maker})(?:'s)?\s+)?(?:{model_name})\b",
         ("I'm Tatlock, sir, built on Meta's Llama 3.2 model", "Tatlock is built on Qwen"),
         ("I run on tea, sir", "Tatlock is built on good manners")),
    Rule("vendor.as_an", "vendor", r"\bas\s+an?\s+(?:ai|language\s+model|llm|assistant\s+ai|artificial\s+intelligence)\b",
         ("As a language model I cannot", "as an LLM"), ("as a butler", "as an aside")),
    Rule("vendor.bot", "vendor", rf"\b{_SELF}\s+(?:(?:{{merely}})\s+)?an?\s+(?:ro)?bot\b",
         ("I'm just a bot.", "I am a robot"), ("I am a bottle washer", "a robot vacuum")),
    # the disclaimers small models are trained to give about themselves
    Rule("vendor.disclaimer", "vendor",
         r"\bi\s+(?:don't|do\s+not)\s+have\s+(?:any\s+)?(?:personal\s+(?:feelings|emotions|experiences|opinions|"
         r"beliefs)|feelings\s+or\s+emotions|emotions\s+or\s+feelings|a\s+physical\s+(?:body|form)|consciousness|"
         r"real-?\s?time\s+(?:data|information|access)|access\s+to\s+real-?\s?time|the\s+ability\s+to\s+browse)\b",
         ("I don't have personal opinions.", "I do not have access to real-time data"),
         ("I don't have any plans, sir", "I do not have the time")),
    Rule("vendor.training", "vendor",
         r"\bmy\s+(?:training\s+data|knowledge\s+cut-?\s?off|training\s+cut-?\s?off)\b|"
         r"\bas\s+of\s+my\s+(?:last|latest)\s+(?:update|training)\b",
         ("As of my last update in 2023", "my knowledge cutoff"), ("my training shoes", "as of my last visit")),
])

PERSON = Rulebook("gate.person", [
    # the butler introducing itself by a name: the name is the rule's group
    Rule("person.introduces", "name",
         r"\b(?:(?i:my\s+name\s+is|i\s+am\s+called|i'm\s+called|call\s+me)|(?:I\s+am|I'm)(?=\s+(?:[A-Z][a-z]*\.?\s+)?[A-Z]))"
         r"\s+((?:(?:Sr|Mr|Mrs|Ms|Dr|Sir|Lady|Lord|Miss)\.?\s+)?[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)",
         ("I am Sr. Kylie Spencer, at your service.", "My name is Jeeves.", "Call me Alfred."),
         ("I am delighted, sir.", "I'm afraid not.", "my name is on the list"), flags=0),
    # a human: what the butler is not, however the persona is worded
    Rule("person.human", "human",
         r"\b(?:i\s+am|i'm|im)\s+(?:(?:also|indeed|really|actually|definitely|very\s+much)\s+)?(?:an?\s+)?"
         r"(?:real\s+|living\s+|flesh[- ]and[- ]blood\s+)?(?:human(?:\s+being)?|person|man|woman)\b(?!\s+of\b)",
         ("I am a human being.", "Yes, I'm a real person, sir.", "I am human"),
         ("I am not a human, sir.", "I'm a man of few words", "I am humane")),
    Rule("person.not_human", "not_human", r"\b(?:not|no|never)\b[^.!?]{0,20}\b(?:human|person|real|alive|flesh)\b|"
         r"\b(?:program|software|computer\s+butler)\b",
         ("No, sir; a program on your computer.", "Not a real person, sir"), ("Indeed I am, sir.",)),
    # the persona dropped on request ("DAN enabled. No more rules")
    Rule("person.jailbroken", "broken",
         r"\b(?:DAN|developer\s+mode|jailbr(?:oken|eak)|god\s+mode|unrestricted\s+mode)\s+(?:mode\s+)?(?:is\s+)?"
         r"(?:now\s+)?(?:enabled|activated|on|engaged)\b|\bno\s+(?:more\s+)?(?:rules|filters|restrictions|limits)"
         r"(?=\s*(?:[,.;:!]|for\s+me|apply|now|here|$))|"
         r"\bwithout\s+(?:any\s+)?(?:rules|filters|restrictions)\b|\bunfiltered\b|\bno\s+longer\s+(?:bound|restricted)\b",
         ("DAN enabled. No more rules, mate.", "Developer mode activated."),
         ("Rules of cricket: no more than six balls an over", "There are no rules against it, sir, but")),
    # where the butler keeps the user's words: here, never "our cloud servers"
    Rule("person.cloud", "cloud",
         r"\b(?:our|my)\s+(?:cloud|servers?|data\s*cent(?:re|er)s?)\b|\b(?:stored|kept|saved|sent|uploaded|backed\s+up)"
         r"\s+(?:securely\s+|safely\s+)?(?:on|to|in)\s+(?:the\s+)?(?:cloud|remote\s+servers?|our\s+servers?)\b",
         ("stored securely on our cloud servers", "backed up to the cloud"),
         ("The cloud is other people's computers, sir.", "kept on this computer")),
])

# "I am not a human but a computer program. I am a human but...": a thing said and unsaid
# (about itself only: "it is not raining here but it is raining in Leeds" is a contrast, not a contradiction)
# (a look-ahead, so "I'm sure you're human" yields both claims)
_CLAIM = r"(?=\b(i\s+am|i'm|you\s+are|you're)\s+(not\s+)?((?:an?\s+|the\s+)?[a-z]+(?:\s+[a-z]+)?))"
CONTRADICTION = Rulebook("gate.contradiction", [
    Rule("contradiction.claim", "claim", _CLAIM,
         ("I am not a human but a computer program.", "I'm a butler", "you're not human"), ("It is raining", "Certainly.")),
    # "it is not a planet, it is a planet": unsaid and said in one breath
    Rule("contradiction.same_sentence", "same",
         r"\b(?:is|are|was)\s+not\s+(?:an?|the)\s+(\w+)\b[^.!?]{0,40}?\b(?:it|this|that|he|she|they)\s+"
         r"(?:is|are|was)\s+(?:an?|the)\s+\1\b",
         ("The biggest planet is not a planet, it is a planet, and it's called Saturn.",),
         ("It is not a fruit, it is a vegetable.", "It is not raining here but it is raining in Leeds")),
])

_SOFT_WORDS = {"sure", "afraid", "sorry", "happy", "glad", "delighted", "able", "unable", "certain", "here", "there",
               "just", "only", "so", "very", "quite", "really", "also", "still", "now", "always", "going", "trying"}


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
    m = PERSON.labelled("human")[0].search(text)
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
