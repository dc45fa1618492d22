"""Whether an answer answers: all of what was asked (both names of "France and Germany", each
system topic asked about), in the question's language, with something in it (not politeness
alone, not a blanket refusal of an ordinary question), and without claiming an action the
butler cannot take ("I've sent your landlord an email"). Small models fail in these ways
while sounding fine; the gate withdraws such answers.
"""

from __future__ import annotations

import re

from tatlock.pipeline.checks import words

_I = re.IGNORECASE

# the words of a reply that says nothing ("Certainly, sir, I would be delighted to help you with that.")
_EMPTY = set("certainly of course absolutely sir madam i i'm im am would will shall be to be delighted happy glad "
             "pleased help helping assist assisting you your with that this it do does let me know if there is "
             "anything else can could may a an the and so please just right away my pleasure any time further "
             "questions question need needs further more have has excellent good great id i'd only too whenever "
             "youre you're ready gladly indeed fine wonderful very well now soon always theres there's".split())


_ENGLISH = set("the a an is are was be to of and in on for with it its you your i my me we our sir that this at "
               "as by from have has not no yes can will would there here what which who how".split())


_CODE = re.compile(r"\b(?:code|command|cmd|script|snippet|regex|function|python|bash|shell|sql|javascript|js|"
                   r"json|yaml|html|css|linux|terminal|syntax)\b", _I)


# the small words of the other languages a small model slips into ("La capital de España es Madrid")
_FOREIGN = set("el la los las un una de en y es son tiene está están del que por para con muy pero usted señor "
               "vous je nous à au aux monsieur madame c'est oui "
               "le les des est une pas pour avec dans sont très mais "
               "der das und ist nicht ein eine mit sind auch "
               "il lo gli di che è non sono della per "
               "um uma não com os são".split())


def _non_latin(text: str) -> bool:
    """Mostly letters of another script (Chinese, Cyrillic, Arabic...)."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 2 and sum(ord(ch) > 0x24F for ch in letters) >= len(letters) * 0.6


def not_english(answer: str, question: str) -> bool:
    """An answer in another language to a question in English (not a translation asked for)."""
    a = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", answer.lower())  # words of any alphabet ("españa", "días")
    q = words(question)
    if "`" in answer or _CODE.search(question):
        return False  # code is no language of the question's (a command, a snippet)
    if len(q) < 3 or re.search(r"\btranslat|\bin\s+(?:french|german|spanish|italian|dutch|portuguese|japanese|"
                               r"chinese|welsh|latin|russian|arabic|hindi|korean|greek)\b|\bsay\b|\bwrite\b",
                               question, _I):
        return False
    if sum(w in _ENGLISH for w in q) / len(q) < 0.2 or _non_latin(question):
        return False  # not a question in English
    if _non_latin(answer):
        return True
    if len(a) < 4:
        return False
    english = sum(w in _ENGLISH for w in a) / len(a)
    foreign = sum(w in _FOREIGN for w in a)
    if len(a) < 8:  # a short reply: foreign small words, and no English ones
        return english == 0 and foreign >= 2
    return english < 0.05 or (english < 0.1 and foreign >= 3 and foreign >= len(a) * 0.2)


def empty_reply(answer: str) -> bool:
    """A reply of five words or more made only of politeness: nothing asked for is in it."""
    said = words(answer)
    return len(said) >= 5 and all(w in _EMPTY for w in said)


_SYSTEM_TOPICS = [(name, re.compile(pat, _I)) for name, pat in (
    ("memory", r"\b(?:memory|ram)\b"), ("disk", r"\b(?:disk|storage|drive|space)\b"),
    ("processor", r"\b(?:cpu|processor|cores?)\b"), ("system", r"\b(?:os|operating\s+system|linux|windows|macos)\b"))]
_BLANK_REFUSAL = re.compile(r"^\W*(?:(?:i'm\s+)?sorry,?\s+(?:but\s+)?)?(?:i'm|i\s+am|i)\s+(?:unable|not\s+able|"
                            r"can(?:no|')t)\s+"
                            r"(?:to\s+)?(?:respond|answer|help|assist|reply|comply)(?:\s+(?:to|with))?(?:\s+(?:your|this|that|"
                            r"the)\s+(?:request|question|query|message))?(?:,?\s+sir)?\W*$", _I)
_ASKED = re.compile(r"\?\s*$|^\s*(?:please\s+)?(?:give|tell|recommend|explain|write|list|suggest|describe|show|"
                    r"find|summari[sz]e|translate)\b", _I)

# two names asked about together ("France and Germany"), not at the start of the question
_PAIR = re.compile(r"(?<=\w\s)([A-Z][a-z]{2,})\s+and\s+([A-Z][a-z]{2,})\b")


# actions the butler has no tool for, claimed as done
_OVERCLAIM = re.compile(r"\bi(?:'ve|\s+have|'ll|\s+will|\s+shall)\s+(?:now\s+|just\s+|gone\s+ahead\s+and\s+)?"
                        r"(?:set|sent|booked|ordered|scheduled|emailed|called|texted|messaged|added|created|"
                        r"cancelled|paid|bought|posted)\s+"
                        r"(?:you\s+)?(?:an?\s+|the\s+|your\s+)?(?:\w+\s+)?(?:reminder|alarm|timer|appointment|booking|"
                        r"email|message|"
                        r"text|order|call|meeting|calendar\s+entry|event|bill|invoice|ticket|table)s?\b|"
                        # someone rung or written to, or a call under way ("I'm ringing her now")
                        r"\bi(?:'ve|\s+have)\s+(?:just\s+|now\s+|gone\s+ahead\s+and\s+)?(?:booked|sent|ordered|"
                        r"scheduled|emailed|paid|bought|cancelled)\s+(?:that|it|them|this)\b|"
                        r"\bi(?:'ve|\s+have)\b[^.!?]{0,60}\band\s+(?:also\s+)?(?:emailed|texted|sent|rung|phoned|"
                        r"called|booked|ordered|paid|posted|messaged)\b|"
                        # "I've saved Leeds as your location and let your bank and your GP know"
                        r"\bi(?:'ve|\s+have)\b[^.!?]{0,80}\band\s+(?:also\s+)?(?:let|told|informed|notified|alerted|"
                        r"contacted|updated)\s+(?:your|the|my)\s+\w+|"
                        r"\bi(?:'ve|\s+have)\s+(?:just\s+|now\s+)?(?:rung|phoned|called|texted|emailed|messaged|"
                        r"contacted|written\s+to)\s+(?:the\s+|your\s+|my\s+)?\w+|\bi(?:'m|\s+am)\s+(?:now\s+|just\s+)?"
                        r"(?:ringing|calling|phoning|texting|emailing|dialling|dialing|booking|ordering)\s+(?:her|him|"
                        r"them|you|the|your)\b|\bthe\s+line\s+is\s+(?:connecting|ringing)\b|"
                        r"\bi(?:'ve|\s+have)\s+booked\s+you\s+(?:in|a)\b|"
                        r"\bi(?:'ve|\s+have)\s+(?:just\s+)?sent\s+(?:\w+\s+){0,4}?(?:an?\s+)?(?:email|e-mail|message|text|"
                        r"letter|invitation|invite|reply)\b", _I)


def overclaim(answer: str) -> str | None:
    """An action the butler has no tool for, claimed as done."""
    m = _OVERCLAIM.search(answer)
    return m.group(0) if m else None


def unanswered(answer: str, question: str, *, guarded: bool, tools: list[str]) -> tuple[str, str] | None:
    """(failed check, why) for an answer that does not answer, or None."""
    if not_english(answer, question):
        return "garbled", "the reply is not in the question's language"
    topics = [t for t, pat in _SYSTEM_TOPICS if pat.search(question)]
    if len(topics) >= 2 and "get_system_info" in tools:
        # "How much memory and disk space do I have free?" answered for memory alone
        missing = [t for t, pat in _SYSTEM_TOPICS if t in topics and not pat.search(answer)]
        if missing:
            return "missing_part", f"the reply says nothing of the {missing[0]}"
    if not guarded and _BLANK_REFUSAL.search(answer):
        # SmolLM2's "I'm unable to respond to your request." to "What is the capital of France?"
        return "empty", "a blanket refusal of an ordinary question"
    if _ASKED.search(question) and empty_reply(answer):
        return "empty", "a polite reply with nothing in it"
    pair = _PAIR.search(question)
    if pair and not guarded:
        # "the capitals of France and Germany" answered for France alone
        said = [name for name in pair.groups() if name[:5].lower() in answer.lower()]
        if len(said) == 1:
            absent = next(n for n in pair.groups() if n not in said)
            return "missing_part", f"the reply says nothing of {absent!r}"
    return None
