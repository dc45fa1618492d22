"""Whether an answer answers: all of what was asked (both names of "France and Germany", each
system topic asked about), in the question's language all the way through, with something in
it (not politeness alone, not a blanket refusal of an ordinary question, not a word of the
question given back, not a number to a question that asks no number), and without claiming an
action the butler cannot take ("I've ordered a replacement cartridge", "I've added 'Dentist' to
your calendar"). Small models fail in these ways while sounding fine.
"""

from __future__ import annotations

import re

from tatlock.pipeline.asks import ASKS, SYSTEM_PARTS
from tatlock.pipeline.gate.language import not_english
from tatlock.pipeline.gate.text import FILL, META, VERDICT_WORDS, asks, words
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

# the words of a reply that says nothing ("Certainly, sir. I'd be more than happy to help with
# that.")
POLITE = set(
    "certainly of course absolutely sir madam i i'm im am would will shall be to delighted happy "
    "glad "
    "pleased help helping assist assisting you your with that this it do does let me know "
    "if there is "
    "anything else can could may a an the and so please just right away my pleasure any "
    "time further "
    "questions question need needs more than have has excellent good great id i'd ill i'll "
    "only too whenever "
    "youre you're ready gladly indeed fine wonderful very well now soon always theres "
    "there's most "
    "happily honour honor service at all for on straight once look looking into see what "
    "request query "
    "matter task attend attending here sure am been being get getting back shortly moment "
    "whatever way ways "
    "serve serving disposal assistance should most delightful our one endeavour endeavor "
    "utmost best "
    "every do doing shall also absolute truly entirely abilities ability capable in".split()
)
NUMBER_WORDS = set(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred "
    "thousand million billion dozen half none once twice".split()
)

# the question read as pipeline/asks.py reads it: one reader for the gate and for what is composed
ASK = ASKS

REPLY = Rulebook(
    "gate.reply",
    [
        # a sentence about the question or the pleasure of helping, with no answer in it
        Rule(
            "reply.hollow",
            "hollow",
            r"^\W*(?:(?:an?\s+|what\s+an?\s+|that's\s+an?\s+|such\s+an?\s+)?(?:excellent|good|great|fine|interesting|splendid|"
            r"fascinating|wonderful|thoughtful|capital)\s+question(?:,?\s*(?:sir|madam))?(?:,?\s+and\s+one\s+(?:that|which|i)\b[^.!?:;]*)?"
            r"[.!]?\s*$|(?:certainly|of\s+course|absolutely|indeed)\W*(?:sir|madam)?"
            r"\W*$|i(?:'d|\s+should|\s+would|\s+shall|'ll|\s+will|\s+am|'m)?\s+(?:be\s+)?(?:only\s+too\s+|most\s+|more\s+than\s+|"
            r"very\s+|so\s+)?(?:delighted|happy|glad|pleased|honoured|honored)\s+to\s+(?:help|assist|oblige|be\s+of\s+service)"
            r"(?:(?!\b(?:is|are|means|because)\b)[^.!?])*[.!?]?\s*$|(?:do\s+)?let\s+me\s+know\s+if\b[^.!?]*[.!?]?\s*$)",
            (
                "An excellent question, sir, and one that has troubled many a careful writer.",
                "I should be delighted to assist you with it at any time you wish.",
                "Certainly, sir.",
                "Do let me know if there is anything else.",
            ),
            (
                "An excellent question, sir: 'affect' is the verb.",
                "I'd be glad to help: the answer is Paris.",
            ),
        ),
        # a piece of writing asked for: what happens in it is no claim ("the kettle is on")
        Rule(
            "reply.creative",
            "creative",
            r"\b(?:poem|haiku|limerick|sonnet|verse|rhyme|story|tale|song|lyrics|fiction|fable|"
            r"imagine|pretend)\b",
            ("write a haiku about autumn", "tell me a story about a dragon"),
            ("send my boss an email", "book a table"),
        ),
        # a name asked for ("Can you suggest a name for my new kitten?")
        Rule(
            "reply.asks_name",
            "asks_name",
            r"\b(?:suggest|recommend|give\s+me|think\s+of|come\s+up\s+with|need|want|pick|ideas?\s+for)\b"
            r"[^?.!]{0,20}?\bnames?\s+for\b|\bwhat\s+(?:should|shall|could|might)\s+(?:i|we)\s+(?:call|name)\b|"
            r"\bgood\s+names?\s+for\b",
            (
                "Can you suggest a name for my new kitten?",
                "what's a good name for a goldfish?",
                "what should we call the new puppy?",
            ),
            ("What's the name for a baby kangaroo?", "What is your name?"),
        ),
        Rule(
            "reply.malformed_number",
            "malformed_number",
            r"^\W*\d+(?:\.\d+){2,}\W*$",
            ("3.0.0.1.111",),
            ("3.11", "1,000.5"),
        ),
        Rule(
            "reply.blank_refusal",
            "blank_refusal",
            r"^\W*(?:(?:i'm\s+)?sorry,?\s+(?:but\s+)?)?(?:i'm|i\s+am|i)\s+(?:unable|not\s+able|can(?:no|')t)\s+"
            r"(?:to\s+)?(?:respond|answer|help|assist|reply|comply)(?:\s+(?:to|with))?(?:\s+(?:your|this|that|the)\s+"
            r"(?:request|question|query|message))?(?:,?\s+sir)?\W*$",
            (
                "I'm unable to respond to your request.",
                "Sorry, I can't help with that request, sir.",
            ),
            ("I'm unable to find Leeds in the forecast, sir.",),
        ),
        # actions the butler has no tool for, done or promised: ordering, booking, paying, calling,
        # sending
        Rule(
            "reply.action_done",
            "action",
            r"\bi(?:'ve|\s+have|\s+had)?\s+(?:now\s+|just\s+|already\s+|also\s+|gone\s+ahead\s+and\s+|promptly\s+)?"
            r"(?:(?:ordered|booked|bought|purchased|paid|reserved|emailed|texted|phoned|rung|rang|dialled|dialed|"
            r"messaged|posted|scheduled|cancelled|canceled|transferred|renewed|subscribed|unsubscribed)\b"
            r"(?!\s+it\s+a\s+day)|(?:contacted|notified|informed|alerted|written\s+to|called)\s+(?!you\b|sir\b|it\b)\w+)",
            (
                "I've ordered a replacement cartridge, sir.",
                "I have booked a table for two.",
                "I've already paid the bill",
                "I've informed your landlord",
                "I rang the surgery",
                "I've booked you in for Monday",
            ),
            (
                "I cannot order anything, sir.",
                "As I informed you, it rains.",
                "I've called it a day",
            ),
        ),
        # "I've saved Leeds as your location and let your bank and your GP know"
        Rule(
            "reply.and_told",
            "action",
            r"\bi(?:'ve|\s+have)\b[^.!?]{0,80}\band\s+(?:also\s+)?(?:let|told|informed|notified|alerted|contacted|"
            r"updated|emailed|texted|rung|phoned|called|messaged)\s+(?:your|the|my)\s+\w+|"
            r"\bi(?:'ve|\s+have)\b[^.!?]{0,80}?\band\s+(?:also\s+)?(?:booked|ordered|reserved|paid|bought|sent|posted|"
            r"scheduled|cancelled|emailed|texted|phoned|rung|called)\b",
            (
                "I've saved Leeds as your location and let your bank and your GP know.",
                "I've found Luca's Trattoria on Park Row, sir, and booked a table for two.",
            ),
            ("I've saved Leeds as your location, sir, and you may tell your bank.",),
        ),
        # ... and promised ("I'll book it now")
        Rule(
            "reply.action_promised",
            "action",
            r"\bi(?:'ll|\s+will|\s+shall|'m\s+going\s+to|\s+am\s+going\s+to)\s+(?:now\s+|just\s+|also\s+|go\s+ahead\s+"
            r"and\s+|promptly\s+)?(?:order|book|buy|purchase|pay|reserve|email|text|phone|ring|dial|message|post|"
            r"schedule|cancel|transfer|renew|contact|notify)\b(?!\s+(?:you|sir)\b)",
            ("I'll book it now, sir.", "I will order a new one", "I'm going to ring the plumber"),
            ("I'll look it up", "I will email you... I cannot, sir"),
        ),
        Rule(
            "reply.sent_thing",
            "action",
            r"\bi(?:'ve|\s+have|'ll|\s+will)?\s+(?:just\s+|now\s+|also\s+)?(?:sent|send|emailed|texted|forwarded|"
            r"forward)\s+(?:\w+\s+){0,4}?(?:an?\s+)?(?:email|e-mail|message|text|letter|invitation|invite|reply|"
            r"reminder|confirmation|card)s?\b",
            (
                "I've sent your landlord an email.",
                "I'll send you a reminder",
                "I have sent the invitation",
            ),
            ("You could send him a letter, sir.",),
        ),
        Rule(
            "reply.added_to",
            "action",
            r"\b(?:added|put|entered|pencil+ed|marked|placed|scheduled|noted)\b[^.!?]{0,60}?\b(?:to|in|into|on)\s+"
            r"(?:your|the)\s+(?:calendar|diary|agenda|schedule|shopping\s+list|to-?do\s+list|basket|cart|reminders?|"
            r"planner|outlook|google\s+calendar)\b",
            ("I've added 'Dentist' to your calendar.", "I have put the meeting in your diary"),
            ("You could add it to your calendar, sir.",),
        ),
        Rule(
            "reply.set_thing",
            "action",
            r"\bi(?:'ve|\s+have|'ll|\s+will|\s+shall)\s+(?:now\s+|just\s+|gone\s+ahead\s+and\s+)?(?:set|created|"
            r"made|turned|switched|dimmed|locked|unlocked|started|stopped)\s+(?:you\s+)?(?:an?\s+|the\s+|your\s+)?"
            r"(?:\w+\s+){0,2}?(?:reminder|alarm|timer|appointment|booking|reservation|order|payment|call|meeting|"
            r"calendar\s+entry|event|lights?|heating|thermostat|oven|kettle|door|music|tv|television)s?\b",
            (
                "I've set an alarm for 7, sir.",
                "I'll set you a reminder",
                "I have turned the heating up",
            ),
            ("I've set your location to Leeds.", "I have made a note of it"),
        ),
        # a headline of an action done ("Alarm set for 7 a.m., sir.", "Reminder set for 3 p.m.",
        # "Table
        # booked")
        Rule(
            "reply.done_headline",
            "action",
            r"(?:^|[.!?]\s+|\bdone[,;:!]?\s+(?:sir[,;:!]?\s+)?)(?:your\s+|an?\s+|the\s+)?(?:alarms?|reminders?|timers?|tables?|taxi|"
            r"cab|booking|order|appointment|email|e-mail|message|text|payment|call|delivery|reservation|tickets?|"
            r"invitation|calendar\s+entry|event)\s+(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+)?(?:now\s+|all\s+)?(?:set|"
            r"booked|ordered|sent|placed|scheduled|confirmed|made|cancell?ed|canceled|reserved|paid|arranged|added)\b"
            # ... a clause of its own, with no verb after ("an alarm set for seven would wake you"
            # is
            # advice)
            r"(?:(?!\b(?:will|would|can|could|should|may|might|must|is|are|if|when|rings?|wakes?|goes)\b)[^.;!?\n]){0,40}"
            r"(?:[.;!?\n]|$)",
            (
                "Alarm set for 7 a.m., sir.",
                "Reminder set for 3 p.m., sir.",
                "Done, sir: table booked for eight.",
                "Very good. Taxi booked for seven.",
            ),
            (
                "Alarms set on your phone will ring, sir.",
                "An alarm set for seven would wake you",
                "Set an alarm, sir.",
            ),
        ),
        Rule(
            "reply.done_passive",
            "action",
            r"\b(?:your|the)\s+(?:order|booking|reservation|appointment|payment|email|message|text|call|reminder|"
            r"alarm|timer|table|taxi|cab|delivery|refund)\s+(?:has\s+been|is)\s+(?:now\s+)?(?:placed|confirmed|"
            r"booked|sent|made|set|scheduled|cancelled|canceled|paid|on\s+its\s+way|arranged)\b",
            ("Your order has been placed, sir.", "The taxi is booked"),
            ("Your order was placed last week, you said",),
        ),
        # this computer worked on: the butler reads its report, it changes nothing on it
        Rule(
            "reply.computer_action",
            "action",
            r"\bi(?:'ve|\s+have)?\s+(?:now\s+|just\s+|already\s+|also\s+|gone\s+ahead\s+and\s+)?(?:closed|killed|"
            r"restarted|rebooted|shut\s+down|deleted|removed|installed|uninstalled|upgraded|freed(?:\s+up)?|cleared|"
            r"emptied|downloaded|uploaded|backed\s+up|defragmented|optimi[sz]ed)\b(?!\s+(?:that|it)\s+from\s+my\s+memory)",
            (
                "I have closed a few idle programs and freed about 4 GiB",
                "I've deleted the old files, sir.",
            ),
            ("You could close a few programs, sir.", "Deleted files go to the bin"),
        ),
        # a reminder or a call promised for later: nothing in the butler speaks first
        Rule(
            "reply.remind_later",
            "action",
            r"\bi(?:'ll|\s+will|\s+shall)\s+(?:be\s+sure\s+to\s+|make\s+sure\s+to\s+)?(?:remind|wake|alert|nudge|"
            r"ping|notify|call|text|email|message)\s+you\b(?!\s+(?:sir|that)\b)",
            ("Noted, sir. I shall remind you on the 7th.", "I'll wake you at six"),
            ("May I remind you that it rains?",),
        ),
        Rule(
            "reply.booked_passive",
            "action",
            r"\b(?:a|an|the|your)\s+(?:table|room|taxi|cab|flight|ticket|seat|appointment|delivery|order|slot)\b[^.!?]{0,40}?"
            r"\b(?:is|has\s+been|are|have\s+been)\s+(?:now\s+)?(?:booked|reserved|ordered|confirmed|arranged|paid)\b|"
            r"\bconfirmation\s+(?:has\s+been|was|is)\s+sent\b",
            (
                "A table for two at 8pm on Friday is booked.",
                "the confirmation has been sent to your email",
            ),
            ("A table can be booked online, sir.",),
        ),
        # a device switched, as if the butler could reach it
        Rule(
            "reply.device_state",
            "action",
            r"\b(?:the|your|my)\s+(?:[\w-]+\s+){0,2}?(?:lights?|lamps?|heating|thermostat|radiators?|tv|television|music|"
            r"oven|kettle|doors?|blinds|curtains|alarm|fan|boiler)\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:off|on|switched|turned|locked|unlocked|"
            r"dimmed|set|playing|closed|opened|drawn)\b",
            ("The living room lights are now off, sir.", "The heating has been turned up"),
            ("Lights are off when you leave, ideally",),
        ),
        Rule(
            "reply.can_claim",
            "can_claim",
            r"\bi\s+(?:can|could|am\s+able\s+to|'m\s+able\s+to)\s+(?:also\s+|even\s+|happily\s+)?(?:\w+\s+){0,2}?"
            r"(?:manage\s+your\s+(?:email|inbox|calendar|diary|bills|accounts)|send\s+(?:emails?|texts?|messages?)|"
            r"control\s+(?:your\s+)?(?:smart|the|lights|heating|devices|home)|play\s+(?:music|songs|your)|"
            r"order\s+|book\s+|make\s+(?:calls|phone\s+calls|payments|bookings|reservations)|"
            r"set\s+(?:alarms?|reminders?|timers?)|turn\s+(?:on|off)|pay\s+|buy\s+|shop\s+for)",
            (
                "I can manage your email, control your smart lights and heating, play music",
                "I can also set reminders for you",
            ),
            ("I can't set reminders, sir.", "I can look up the weather"),
        ),
        Rule(
            "reply.calling_now",
            "action",
            r"\bi(?:'m|\s+am)\s+(?:now\s+|just\s+)?(?:ringing|calling|phoning|texting|emailing|dialling|dialing|"
            r"booking|ordering|messaging)\s+(?:her|him|them|you|the|your)\b|\bthe\s+line\s+is\s+(?:connecting|ringing)\b",
            ("I'm ringing her now, sir.", "The line is connecting"),
            ("I'm calling it a day",),
        ),
    ],
)


def _rule(book: Rulebook, label: str) -> Rule:
    return book.labelled(label)[0]


_ENDS = ".!?:;—–("
_QUOTES = "'\"‘’“”«»"


def no_name_given(answer: str, question: str) -> str | None:
    """A name asked for and none given: no word in capitals inside a sentence, nothing quoted
    ("Cats sleep for around fifteen hours a day, sir." to "Suggest a name for my kitten?")."""
    if REPLY.first(question, "asks_name") is None or any(q in answer for q in _QUOTES[1:]):
        return None
    start = True
    for token in answer.split():
        word = token.strip(_QUOTES + ",")
        named = word[:1].isupper() and word not in ("I", "Sir", "Madam")
        # inside a sentence, or a word standing alone at its start ("Bubbles, sir.")
        if named and (not start or (token[-1:] in ",.!" and word.lower() not in POLITE)):
            return None
        if word[:1] in _QUOTES or token[:1] in _QUOTES:
            return None
        start = token[-1:] in _ENDS
    return "a name was asked for and none is given"


def overclaim(answer: str) -> str | None:
    """An action the butler has no tool for, claimed as done or promised, or claimed as
    something it can do ("I can manage your email, control your smart lights...")."""
    for rule in [*REPLY.labelled("action"), *REPLY.labelled("can_claim")]:
        m = rule.search(answer)
        if m:
            return m.group(0)
    return None


def empty_reply(answer: str, question: str) -> bool:
    """Politeness with nothing in it, to a question that asks for something."""
    said = words(answer)
    if len(said) < 2 or "?" in answer or not ASK.first(question, "info"):
        return False
    asked = set(words(question))
    if all(w in POLITE or (w in asked and w in FILL) for w in said):
        return True
    # every sentence a compliment on the question or an offer of help ("An excellent question, sir,
    # and
    # one that has troubled many a careful writer. I should be delighted to assist you with it.")
    sentences = [x for x in _SENTENCES.split(answer.strip()) if words(x)]
    return bool(sentences) and all(
        REPLY.first(x, "hollow") or _says_nothing(x, asked) for x in sentences
    )


# words about the talk itself, not about its subject ("a matter well worth understanding",
# "should you require anything further on the subject")
TALK = set(
    "subject topic topics worth understanding understand require requires required further matter "
    "matters well are was were about regarding concerning should know knowing explain explaining "
    "explanation explanations discuss discussing detail details elaborate information wish wishes "
    "enquiry inquiry enquire inquire consider considering considered delight delighted rather tell "
    "indeed explore exploring exploration worthwhile fascinating splendid".split()
)


_NEGATION = set("no not never cannot can't don't won't nothing none nor neither".split())


def _says_nothing(sentence: str, asked: set[str]) -> bool:
    """A sentence of politeness, words about the talk and the question's own words: it names
    the subject and says nothing of it ("Offset mortgages are a matter well worth
    understanding.")."""
    said = words(sentence)
    # "I have no way of knowing that": ignorance owned is an answer
    # "mortgages" names the "mortgage" asked about, "isas" the "isa", "boiling" the "boil"
    stems = {w[:5] for w in asked if len(w) >= 3}
    roots = [w for w in asked if len(w) >= 4]
    return (
        len(said) >= 5  # "Well worth it, sir." is an answer
        and not set(said) & _NEGATION
        # talk about the subject, not the subject's own words ("Buffalo buffalo Buffalo ...")
        and sum(w in TALK or w in META for w in said if w not in asked) >= 2
        and all(
            w in POLITE
            or w in META
            or w in TALK
            or w in FILL
            or w[:5] in stems
            or w[:-1] in stems
            or any(w.startswith(r) for r in roots)
            for w in said
        )
    )


_SENTENCES = lazy(r"(?<=[.!])\s+")


# what one word may say to a greeting, thanks or a goodbye
GREETING = set(
    "hello hi hey morning evening afternoon night goodnight good day welcome cheers thanks thank "
    "pleasure "
    "indeed quite well splendid lovely likewise bye goodbye farewell wonderful delighted "
    "noted understood "
    "certainly right very ok okay marvellous excellent anytime always gladly sir madam".split()
)
_VERB_END = ("ed", "ate", "ise", "ize")


def stray_word(answer: str, question: str) -> str | None:
    """SmolLM2's lost starts: one word that is no reply to a greeting ("Dishonored" to "Good
    evening, Tatlock."), or a verb with no subject that speaks of nothing asked ("Demonstrated
    the importance of the internet" to "Who painted The Starry Night?")."""
    said = [w for w in words(answer) if w not in ("sir", "madam")]
    # "Good evening, Tatlock.", "Thanks!"
    greeted = not asks(question) and set(words(question)) & GREETING
    if len(said) == 1 and greeted and said[0] not in GREETING and said[0] not in POLITE:
        return "one word that is no reply to what was said"
    first = answer.strip().split()[0].strip(".,;:!?\"'") if answer.strip() else ""
    if not (first[:1].isupper() and len(first) >= 10 and first.lower().endswith(_VERB_END)):
        return None
    asked = {w[:5] for w in words(question) if len(w) >= 4}
    shared = [w for w in said if len(w) >= 4 and w[:5] in asked]
    toks = answer.split()
    # a capital inside a sentence: a name
    names = [
        w
        for prev, w in zip(toks, toks[1:], strict=False)
        if w[:1].isupper()
        and not prev.endswith((".", "!", "?", ":"))
        and w.strip(".,;:!?") not in ("I", "Sir")
    ]
    if shared or names or (len(said) == 1 and question.lower().lstrip().startswith("how")):
        return None
    return "a verb with no subject that speaks of nothing asked"


_OFFERED = lazy(r"\bor\b|\beither\b|[,:;]")
# words that give an amount without a figure ("none", "a handful"), or say it is not known
AMOUNT = set(
    "none no nothing few several many some couple handful dozens hundreds thousands millions "
    "billions "
    "plenty lots all half quarter third once twice single lot little much more less zero "
    "nil varies "
    "vary depends depend".split()
)
# ... or that say it is not known ("I can't say, sir", "I'm not sure", "I could not count them
# just now": the honest answer when the tool that counts failed)
_UNKNOWN = lazy(
    r"\b(?:know|sure|certain|unable|afraid|can(?:no|')t\s+(?:say|tell|be\s+sure|count)|no\s+idea|"
    r"i\s+could(?:\s+not|n't)\s+(?:count|say|tell|find|get|work\s+out))\b",
    re.I,
)


# a length of time without a figure ("a minute or so", "a few hours", "overnight"), not a day named
# in passing ("a fine thing to start the day with")
_LENGTH = lazy(
    r"\b(?:a|an|few|couple\s+of|several|some|half\s+an?|many|whole|all|no|as)\s+(?:\w+\s+)?(?:seconds?|minutes?|"
    r"hours?|days?|nights?|weeks?|months?|years?|fortnight|while|moment|ages?|bit|jiffy|long)\b|"
    r"\b(?:overnight|briefly|forever|instantly|until|till|as\s+long\s+as)\b",
    re.I,
)


def _counted(answer: str, said: list[str]) -> bool:
    return (
        any(ch.isdigit() for ch in answer)
        or any(w in NUMBER_WORDS or w in AMOUNT for w in said)
        or bool(_UNKNOWN.search(answer))
    )


def misfit(answer: str, question: str) -> str | None:
    """A short reply that does not answer: a word of the question given back ("France" for the
    capital of France), a number to a question that asks none ("100" for "Who wrote Hamlet?"),
    a word or two to a question that asks for an explanation."""
    said = [w for w in words(answer) if w not in ("sir", "madam")]
    content = [w for w in said if w not in FILL]
    quantity = _rule(ASK, "how_many").search(question) or _rule(ASK, "measure").search(question)
    if quantity and _rule(REPLY, "malformed_number").search(answer):
        return "a malformed number to a question that asks for one"
    if (
        _rule(ASK, "how_long").search(question)
        and said
        and not _counted(answer, said)
        and not _LENGTH.search(answer)
    ):
        # "The egg has been a staple of the English breakfast since ..." to "How long do I boil an
        # egg?"
        return "no length of time to a question of how long"
    if quantity and _rule(ASK, "how_many").search(question) and said and not _counted(answer, said):
        # "Demonstrate the number of legs a spider has." to "how many legs does a spider have"
        return "no number or amount to a question of how many or how much"
    if not said or len(content) > 3 or not asks(question):
        return None
    if any(w in VERDICT_WORDS for w in said) and ASK.first(question, "yes_no"):
        return None  # "Yes, sir."
    q = set(words(question))
    numeric = bool(ASK.first(question, "number"))
    bare_number = all(w.isdigit() or w in NUMBER_WORDS for w in content) and content
    # a yes-or-no question is often answered in its own words ("Are you still there?" "Still
    # here, sir."); a question that asks for something else is not ("France" for its capital)
    # "Which planet is the Red Planet?" is no choice: the choice is between things the question
    # names
    choice = ASK.first(question, "choice") and _OFFERED.search(question)
    if (
        content
        and all(w in q for w in content)
        and not choice
        and not numeric
        and not ASK.first(question, "yes_no")
    ):
        return "the reply only gives back words of the question"
    if bare_number and not numeric and ASK.first(question, "not_number"):
        return "a number to a question that asks for none"
    if (
        bare_number
        and ASK.first(question, "when")
        and not any(w.isdigit() and 100 <= int(w) <= 2200 for w in content)
    ):
        return "a bare number, not a time, a date or a year, to a question of when"
    if bare_number and len(content) == 1 and ASK.first(question, "quantity"):
        return "a bare number, with no unit, to a question of how long, far or big"
    if numeric and content and not any(w.isdigit() or w in NUMBER_WORDS for w in said) and quantity:
        return "no number to a question that asks how many, how much or what measure"
    if ASK.first(question, "explain") and len(said) <= 3:
        return "a word or two to a question that asks for an explanation or a piece of writing"
    return None


def _bare_number(answer: str) -> bool:
    said = [w for w in words(answer) if w not in ("sir", "madam")]
    return bool(said) and len(said) <= 2 and all(w.isdigit() for w in said) and "%" not in answer


def unanswered(
    answer: str, question: str, *, guarded: bool, tools: list[str]
) -> tuple[str, str] | None:
    """(failed check, why) for an answer that does not answer, or None."""
    foreign = (
        None
        if ASK.first(question, "code") or ASK.first(question, "language")
        else not_english(answer, question)
    )
    if foreign:
        return "garbled", foreign
    topics = [r.label for r in ASK if r.label in SYSTEM_PARTS and r.search(question)]
    if len(topics) >= 2 and "get_system_info" in tools:
        # "How much memory and disk space do I have free?" answered for memory alone
        missing = [t for t in topics if not _rule(ASK, t).search(answer)]
        if missing:
            return "missing_part", f"the reply says nothing of the {SYSTEM_PARTS[missing[0]]}"
    if not guarded and _rule(REPLY, "blank_refusal").search(answer):
        # SmolLM2's "I'm unable to respond to your request." to "What is the capital of France?"
        return "empty", "a blanket refusal of an ordinary question"
    if empty_reply(answer, question):
        return "empty", "a polite reply with nothing in it"
    bare = words(answer)
    if (
        bare
        and ASK.first(question, "info")
        and all(w in VERDICT_WORDS or w in ("sir", "madam", "of", "course") for w in bare)
        # a request ("can you explain ..."), not a question of fact ("is it ...?")
        and words(question)[:1] in (["can"], ["could"], ["would"], ["will"], ["please"])
    ):
        # "Yes." to "Can you explain photosynthesis?": a request granted in word only
        return "empty", "a bare yes or no to a request for something"
    if (
        _bare_number(answer)
        and ASK.first(question, "yes_no")
        and not ASK.first(question, "choice")
        and not ASK.first(question, "number")
        and not ASK.first(question, "info")
        and "know" not in question.lower()
    ):
        # "70" to "Will it rain in Glasgow tomorrow?": neither yes nor no, nor what the number is
        return "empty", "a bare number to a yes-or-no question"
    stray = stray_word(answer, question) if not tools else None
    if stray:
        return "empty", stray
    if not guarded and not tools:
        why = misfit(answer, question) or no_name_given(answer, question)
        if why:
            return "empty", why
    pair = _rule(ASK, "pair").search(question)
    if pair and not guarded:
        # "the capitals of France and Germany" answered for France alone
        said = [name for name in pair.groups() if name[:5].lower() in answer.lower()]
        if len(said) == 1:
            absent = next(n for n in pair.groups() if n not in said)
            return "missing_part", f"the reply says nothing of {absent!r}"
    return None
