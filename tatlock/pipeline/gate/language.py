"""Whether an answer is in the question's language all the way through: a reply that switches to
Chinese mid-way, or answers an English question in Spanish or German ("La fotosíntesis es...",
"Die Weihnachtsmärkte in Manchester laufen vom 7. November..."). A translation or another
language asked for, code, and a foreign word or two are fine.
"""

from __future__ import annotations

from tatlock.pipeline.gate.text import words
from tatlock.pipeline.rulebook import lazy

ENGLISH = set(
    "the a an is are was be to of and in on for with it its you your i my me we our sir that this "
    "at "
    "as by from have has not no yes can will would there here what which who how can't "
    "i'll i'm it's "
    "that's don't won't thanks thank just so but very all do get got some well".split()
)
# the small words of the other languages a small model slips into ("La capital de España es Madrid")
FOREIGN = set(
    "el la los las un una de en y es son tiene está están del que por para con muy pero usted señor "
    "vous je nous à au aux monsieur madame c'est oui le les des est une pas pour avec "
    "dans sont très mais "
    "der das und ist nicht ein eine mit sind auch il lo gli di che è non sono della per "
    "um uma não com os são het een van uw niet ik zijn meneer ook maar wat voor met "
    "et du une bon mon ma mes ce cette qui sur voilà die den dem des vom zum zur bis für "
    "auf von ich wir sie "
    "sich oder wird werden haben dieser diese".split()
)


def _letters(text: str) -> list[str]:
    return [ch for ch in text if ch.isalpha()]


def _foreign_script(text: str) -> int:
    """Letters of another script than Latin (Chinese, Cyrillic, Arabic...)."""
    return sum(ord(ch) > 0x24F for ch in _letters(text))


_CLAUSES = lazy(r"(?<=[.!?。！？,;:])\s*|\n+")
_ANY_WORD = lazy(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def not_english(answer: str, question: str) -> str | None:
    """Why an answer to a question in English is not in English, all of it or from some point
    on (a reply that switches to Chinese mid-way), or None. Code and a foreign word or two are
    fine; the caller leaves alone a question that asks for another language or for code."""
    q = words(question)
    if "`" in answer or len(q) < 3:
        return None
    if sum(w in FOREIGN for w in q) > sum(w in ENGLISH for w in q) or _foreign_script(question):
        # not a question in English ("Explain photosynthesis briefly." is one, with no small words)
        return None
    letters = _letters(answer)
    other = _foreign_script(answer)
    if other >= 6 or (len(letters) >= 2 and other >= len(letters) * 0.6):
        return "the reply turns to another script"
    own = set(q)  # the question's own words are the question's language ("Buffalo buffalo ...")
    a = _ANY_WORD.findall(answer.lower())
    if len(a) >= 4:
        english = sum(w in ENGLISH or w in own for w in a) / len(a)
        foreign = sum(w in FOREIGN for w in a)
        if len(a) < 8 and english == 0 and foreign >= 2:
            return "the reply is not in the question's language"
        if (
            len(a) >= 8
            and foreign >= 2
            and (english < 0.05 or (english < 0.1 and foreign >= 3 and foreign >= len(a) * 0.2))
        ):
            return "the reply is not in the question's language"
        # names and the question's own words apart ("Die Weihnachtsmärkte in Manchester laufen vom
        # 7. November ...")
        plain = sum(w in ENGLISH and w not in own and w not in ("sir", "madam") for w in a)
        if len(a) >= 8 and foreign >= 3 and foreign >= 2 * max(plain, 1):
            return "the reply is not in the question's language"
    for sentence in _CLAUSES.split(answer):  # a sentence or a clause in another language, mid-way
        s = _ANY_WORD.findall(sentence.lower())
        if len(s) >= 6 and not any(w in ENGLISH for w in s) and sum(w in FOREIGN for w in s) >= 3:
            return "the reply turns to another language mid-way"
    return None
