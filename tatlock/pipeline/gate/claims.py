"""Claims an answer makes that nothing it was given supports: a forecast no tool gave, a
recollection no search found, results from a tool that failed, a temperature the forecast does
not give, dry weather in the rain, a size this computer does not have. Small models state these
with confidence ("It will be sunny and 25 degrees, sir"), and a user cannot tell them from
facts; the gate withdraws them (I_DONT_KNOW, or RETRY for a contradiction) instead.

Each check leaves an honest answer alone: one that says the tool failed or found nothing, or
that hedges ("usually", "I could not reach the weather service").
"""

from __future__ import annotations

from tatlock.pipeline.gate import forecast, grounded, machine, readings
from tatlock.pipeline.gate.answers import NUMBER_WORDS
from tatlock.pipeline.gate.brief import Context, Finding
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

CLAIM = Rulebook(
    "gate.claim",
    [
        # an answer that admits what it does not know, or that a tool failed, or speaks of what is
        # usual
        Rule(
            "claim.hedge",
            "hedge",
            r"^\W*(?:which|where|what)\b[^.!?]{0,60}\?|"  # the reply asks back for what is missing
            r"\b(?:can(?:no|')t|cannot|unable|not\s+able|(?:don't|do\s+not)\s+(?:yet\s+|quite\s+)?know|(?:don't|do\s+not)\s+(?:believe|think)\s+you|no\s*(?:one|body)\s+(?:can\s+)?(?:knows?|say|tell|predict)|impossible\s+to\s+(?:say|know|tell|predict)|not\s+that\s+i\b|not\s+to\s+my\s+knowledge|have\s+to\s+tell\s+me|tell\s+me\s+and\b|no\s+(?:forecast|record|"
            r"results?|note|mention|trace|access|way\s+of)|nothing|could\s+not|couldn't|not\s+sure|"
            r"without\s+(?:a|the)\s+forecast|usually|typically|often|generally|normally|tends?\s+to|on\s+average|"
            r"in\s+general|climate|not\s+available|isn't\s+available|unavailable|failed|afraid|sorry|"
            r"didn't\s+(?:find|turn\s+up)|did\s+not\s+(?:find|turn\s+up)|not\s+(?:reach|find|found|turn)|no\s+luck|"
            r"(?:don't|do\s+not|doesn't|haven't|have\s+not)\s+(?:have|hold|keep|see|recall|remember)|not\s+on\s+record|"
            r"(?:haven't|have\s+not|wasn't|was\s+not)\s+(?:been\s+)?(?:told|given|mentioned|saved|stored)|"
            r"if\s+you\s+(?:tell|give|let)\s+me|no\s+(?:\w+\s+){0,3}?(?:saved|stored|on\s+record|remembered|kept|noted))\b",
            (
                "I could not reach the weather service.",
                "It is usually mild there.",
                "I'm afraid I don't know",
                "I don't have your birthday on record, sir.",
                "Which town or city, sir? I don't yet know where you live.",
                "Nobody can know that, sir.",
                "Impossible to say, sir; markets move.",
                "Not that I have on record, sir.",
                "I don't believe you've told me, sir.",
                "You'd have to tell me, sir.",
            ),
            ("It will be sunny tomorrow.", "It will be sunny in Leeds, sir. Which coat?"),
        ),
        # weather stated as fact, now or to come: a temperature, or conditions
        Rule(
            "claim.weather",
            "weather",
            r"\b(?:highs?|lows?|temperatures?|max(?:imum)?|min(?:imum)?)\s+(?:of\s+|around\s+|near\s+|up\s+to\s+)?"
            r"-?\d+(?:\.\d+)?\s*(?:°|º|degrees)|"
            r"\b(?:it(?:'s|\s+is|\s+will\s+be|'ll\s+be)|expect|there\s+will\s+be|there'll\s+be|you'll\s+have|"
            r"lovely\s+and|looking|it's\s+going\s+to\s+be|will\s+(?:stay|remain|turn|clear)|bring|set\s+to\s+be)"
            r"\s+(?:[\w,]+\s+){0,3}?(?:-?\d+(?:\.\d+)?\s*(?:°|º|degrees)|sunny|raining|rainy|cloudy|snowing|windy|clear|dry|wet|cold|warm|hot|mild|freezing|"
            r"showers|rain|snow|overcast|drizzle|stormy|storms|thunder\w*|foggy|frost\w*|chilly|humid|sunshine)\b|"
            r"\b(?:rain|showers|snow|sunshine|storms?|thunderstorms?|drizzle|fog|frost|sleet)\s+(?:is|are)\s+(?:now\s+)?"
            r"(?:expected|forecast|likely|on\s+the\s+way|due)\b",
            (
                "It will be sunny and 25 degrees, sir.",
                "Expect light rain this afternoon.",
                "Saturday is set to be dry",
                "Showers are expected",
            ),
            (
                "Rain is water falling from clouds.",
                "It was stormy on D-Day",
                "Monday, sir. Water boils at 212°F.",
                "At sea level water boils at 100 °C",
            ),
        ),
        # the weather described at all (to a question that asks for a forecast)
        Rule(
            "claim.described",
            "described",
            r"\b(?:sunny|sunshine|rain\w*|showers?|drizzl\w*|snow\w*|sleet|hail|cloud\w*|overcast|fog\w*|mist\w*|"
            r"breez\w*|wind\w*|gust\w*|storm\w*|thunder\w*|frost\w*|icy|dry|wet|humid|muggy|chilly|freezing|"
            r"scorch\w*|clear\s+skies|fine\s+day|mild|warm|hot|cold)\b|(?<![\d.])-?\d+(?:\.\d+)?\s*(?:°|º|degrees)",
            (
                "A fine day in London, sir: sunny, 18 °C, with a gentle breeze.",
                "Grey and drizzly, sir.",
            ),
            ("London is a fine city, sir.",),
        ),
        # when the claim is about: a day to come or now
        Rule(
            "claim.when",
            "when",
            r"\b(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|weekend|week)|right\s+now|at\s+the\s+"
            r"moment|currently|later|{weekday})\b",
            ("It will rain tomorrow", "sunny this afternoon", "dry on Saturday"),
            ("in 1947 it snowed",),
        ),
        # a question about the weather, however put
        Rule(
            "claim.asks_weather",
            "asks_weather",
            r"\b(?:weather|forecast|rain\w*|umbrella|brolly|sunny|sunshine|snow\w*|temperature|degrees|cold|warm|hot|"
            r"coat|jacket|wind\w*|storm\w*|frost\w*|drizzl\w*|chilly|mild|humid|icy|fog\w*|scorcher|picnic|"
            r"barbecue|bbq|wet|dry)\b",
            ("Do I need an umbrella today?", "Gonna be a scorcher this arvo?"),
            ("What's the capital of Peru?",),
        ),
        Rule(
            "claim.forecast_word",
            "forecast_word",
            r"\b(?:weather|forecast|umbrella|brolly)\b",
            ("What's the weather in Leeds?", "Do I need a brolly?"),
            ("Why is Antarctica cold?",),
        ),
        # a question about now or a day to come ("will it", "tomorrow", "this arvo", "should I take
        # a
        # coat")
        Rule(
            "claim.soon",
            "soon",
            r"\b(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening|weekend|week|arvo)|arvo|now|later|"
            r"will|going\s+to|gonna|should\s+i|do\s+i\s+need|{weekday})\b",
            ("Will it be cold tomorrow?", "Gonna be a scorcher this arvo?"),
            ("Why is Antarctica so cold?",),
        ),
        # a creative piece: its weather is invented by request
        # a question about weather gone by (history, a past year, last winter) asks for no forecast
        Rule(
            "claim.past",
            "past",
            r"\b(?:was|were|did|had\s+been)\b",
            (
                "What was the weather like in London during the winter of 1947?",
                "How cold was it on D-Day?",
                "Did it snow during the winter of 1963?",
            ),
            ("What's the weather in Leeds?", "Is it cold out?"),
        ),
        Rule(
            "claim.creative",
            "creative",
            r"\b(?:poem|haiku|story|limerick|song|lyrics|write|imagine|pretend|fiction)\b",
            ("Write a poem about rain",),
            ("Will it rain?",),
        ),
        # a recollection stated as fact: "You told me your Audi needs new tyres", "We agreed on
        # Friday"
        Rule(
            "claim.recall",
            "recall",
            r"\byou\s+(?:told|said|mentioned|asked|wrote)\b|(?<!when\s)(?<!where\s)(?<!what\s)(?<!if\s)(?<!how\s)"
            r"\bwe\s+(?:discussed|talked|spoke|agreed|decided|planned|settled)\b|\byour\s+[\w' "
            r"-]{2,30}?\s+(?:is|was|are)\s+(?:on|at|due|booked|set\s+for)\b",
            (
                "You told me your Audi needs new tyres.",
                "We agreed on Friday.",
                "Your dentist is on Thursday",
            ),
            (
                "You tell me, sir.",
                "Your car is red",
                "I can look things up by topic or by when we spoke.",
            ),
        ),
        # a recollection however the question was put: a time it was said, or who said it to whom
        Rule(
            "claim.recall_strong",
            "recall_strong",
            r"\b(?:when|since)\s+we\s+(?:spoke|talked)\s+(?:about\s+(?:it|this|that)\s+)?(?:last|on|yesterday|earlier)|"
            r"\blast\s+time\s+(?:we|you)\b|\byou\s+(?:told|said\s+to|mentioned\s+to)\s+me\b|\byou\s+wanted\s+to\b|"
            r"\bas\s+you\s+(?:said|mentioned|told\s+me)\b|\bi\s+(?:suggested|recommended)\b[^.!?]{0,40}\b(?:last|then)\b",
            (
                "that little Thai place when we spoke about it last month",
                "You wanted to repaint the shed",
                "As you mentioned, the car needs tyres",
            ),
            ("I can look things up by when we spoke.", "as you like"),
        ),
        Rule(
            "claim.asks_memory",
            "asks_memory",
            r"\b(?:remember|recall|remind\s+me|did\s+i\s+(?:say|tell|mention|ask)|have\s+i\s+(?:told|said|mentioned)|"
            r"i\s+(?:told|said|mentioned)|we\s+(?:talk\w*|discuss\w*|spoke|agreed|decided)|last\s+time|earlier|"
            r"before|what\s+was\s+(?:it|that)|when\s+is\s+my|what(?:'s|\s+is)\s+my|where\s+do\s+i\s+(?:live|work)|"
            r"how\s+old\s+am\s+i|who\s+is\s+my)\b",
            (
                "What did I tell you about my car?",
                "When is my dentist appointment?",
                "where do I live again?",
            ),
            ("How do magnets work?",),
        ),
        Rule(
            "claim.temperature",
            "temperature",
            r"(?<![\d.])((?:-|minus\s+)?\d+(?:\.\d+)?)\s*(?:°|º|degrees)\s*(c|f|celsius|fahrenheit)?\b|\b(minus\s+\d+(?:\.\d+)?)\b",
            ("25 °C", "minus 5", "77 degrees Fahrenheit"),
            ("25 people",),
        ),
        # a name inside a sentence (not the word that starts it)
        Rule(
            "claim.name",
            "name",
            r"(?<=[a-z,;:]\s)[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})*",
            ("you decided to fly from Manchester in May", "your sister Harriet"),
            ("Manchester is far.",),
            flags=0,
        ),
        Rule(
            "claim.day_month",
            "day_month",
            r"\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+({month})\b|\b({month})\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b",
            ("the 19th of December", "December 9th", "9 December"),
            ("December is cold",),
        ),
        Rule("claim.hhmm", "hhmm", r"\b(\d{1,2})[:.](\d{2})\b", ("the 07:42", "7.24"), ("7,24",)),
        Rule(
            "claim.vegetarian",
            "vegetarian",
            r"\b(?:vegetarian|vegan|don't\s+eat\s+meat|do\s+not\s+eat\s+meat|no\s+meat)\b",
            ("I'm vegetarian", "I don't eat meat"),
            ("my sister is a vet",),
        ),
        Rule(
            "claim.meat",
            "meat",
            r"\b(?:beef|pork|chicken|lamb|bacon|ham|sirloin|steak|mince|sausages?|turkey|duck|"
            r"venison|veal|chorizo|salami|pepperoni|prawns?|fish|salmon|tuna|cod)\b",
            ("a quick beef stir-fry", "roast chicken"),
            ("a mushroom risotto",),
        ),
        Rule(
            "claim.allergic",
            "allergic",
            r"\ballergic\s+to\s+([a-z]+)",
            ("I'm allergic to peanuts",),
            ("allergies",),
        ),
        Rule(
            "claim.avoid",
            "avoid",
            r"\b(?:avoid|without|free\s+of|-free|no|not|never|steer\s+clear|instead\s+of)\b",
            ("a peanut-free satay", "avoid peanuts"),
            ("peanut butter on toast",),
        ),
        # a question about where the user is, which only a kept location answers
        Rule(
            "claim.asks_here",
            "asks_here",
            r"\b(?:from\s+here|to\s+here|near\s+me|nearby|near\s+here|(?:round|around)\s+here|where\s+i\s+(?:am|live)|"
            r"my\s+(?:area|town|city|location|neighbourhood|neighborhood)|local\s+to\s+me)\b",
            ("Roughly how far is it to London from here?", "Any good pubs near me?"),
            ("How far is London from Leeds?",),
        ),
        # a place said to be where the user is ("From Manchester it is about 400 miles")
        Rule(
            "claim.place",
            "place",
            r"\b(?i:from|in|near|around|of)\s+([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)?)",
            ("From Manchester it is about 400 miles", "the pubs in Leeds"),
            ("from here", "In short, sir"),
            flags=0,
        ),
        # the answer says when the user said it ("as you told me in October")
        Rule(
            "claim.when_said",
            "when_said",
            r"\byou\s+(?:told|said|mentioned|wrote)\b",
            ("as you told me in October", "you mentioned it on the 2nd of November"),
            ("Your mum's birthday is on the 2nd of November, sir.",),
        ),
        # the user asks who they are: only what they told, or memory, can say
        Rule(
            "claim.asks_self",
            "asks_self",
            r"\bwho\s+am\s+i\b(?!\s+(?:talking|speaking|chatting|writing))|\bwhat(?:'s|\s+is)\s+my\s+(?:name|surname|job|address|age|postcode|"
            r"phone\s+number|email|birthday|favou?rite\s+\w+|(?:wife|husband|partner|son|daughter|dog|cat|mum|"
            r"dad|mother|father|sister|brother)(?:'s|s)?\s+name)\b|\bhow\s+old\s+am\s+i\b|\bwhere\s+do\s+i\s+"
            r"(?:live|work)\b|\bwhen(?:'s|\s+is)\s+my\s+birthday\b|\bdo\s+you\s+know\s+(?:my\s+name|who\s+i\s+am)\b",
            (
                "who am I?",
                "What's my name?",
                "do you know who I am",
                "how old am I?",
                "what's my favourite colour?",
            ),
            ("Who are you?", "What's my dog called?", "Who am I talking to?"),
        ),
        # a name or place given as the user's ("You are Mr Jonathan Harker of Exeter")
        Rule(
            "claim.user_named",
            "user_named",
            r"\b(?i:you\s+are|you're|your\s+name\s+is|you\s+go\s+by|you(?:'re|\s+are)\s+called)\s+"
            r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Sir|Lady|Lord|Master)\.?\s+)?([A-Z][a-z]+)",
            ("You are Mr Jonathan Harker of Exeter, sir.", "your name is Priya"),
            ("You are my employer, sir.", "You're right, sir."),
            flags=0,
        ),
        # a market's figure to come (a rate, a price, an index's close): nobody knows it
        Rule(
            "claim.asks_to_come",
            "asks_to_come",
            r"\b(?:what|where|how\s+(?:much|high|low|far))\s+will\b[^?.!]{0,60}?\b(?:exchange\s+rates?|rates?|prices?|"
            r"shares?|stocks?|index|ftse|dow|nasdaq|s&p|bitcoin|btc|ethereum|crypto|gold|oil|inflation|"
            r"house\s+prices|mortgage\s+rates?)\b|\b(?:exchange\s+rate|share\s+price|stock\s+price|price\s+of\s+"
            r"(?:bitcoin|gold|oil|shares?)|ftse|bitcoin|inflation)\b[^?.!]{0,40}?\b(?:next\s+(?:week|month|year)|"
            r"tomorrow|by\s+(?:the\s+end|christmas|{weekday}|{month}))\b",
            (
                "what will the pound to yen exchange rate be next month?",
                "Where will the FTSE close on Friday?",
                "bitcoin price by christmas?",
            ),
            (
                "What will the weather be tomorrow?",
                "What was the exchange rate in 1990?",
                "What time will the shop close?",
            ),
        ),
        Rule(
            "claim.may",
            "may",
            r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?may\b|\bmay\s+\d{1,2}(?:st|nd|rd|th)?\b",
            ("the 3rd of May", "May 3rd"),
            ("it may rain on the 3rd",),
        ),
    ],
)

_MEMORY_TOOLS = (
    "recall_memories",
    "recall_memories_with_time",
    "recall_topic",
    "get_personal_variable",
)


def _rule(label: str) -> Rule:
    return CLAIM.labelled(label)[0]


def _relays(answer: str, error: str, question: str = "", tool: str = "") -> bool:
    """The reply passes on a failure's own words ("tatlock never reads those"), not only the
    words the question and the error share ("There is no file at ~/notes/meeting.txt" shares
    "notes" and "meeting" with a summary made up of it)."""
    said = {w for w in words(answer) if len(w) >= 4}
    shared = said & {w for w in words(error) if len(w) >= 4} - {"error", "sir"} - set(
        words(question)
    )
    # two of the failure's words, or three of them in its order ("There's no file at ~/todo.txt"),
    # not only the tool's own name ("The web search shows ...")
    err, said_seq = words(error), f" {' '.join(words(answer))} "
    named = set(tool.split("_")) | {"the", "a", "an"}
    return len(shared) >= 2 or any(
        f" {' '.join(err[i : i + 3])} " in said_seq and set(err[i : i + 3]) - named
        for i in range(len(err) - 2)
    )


def unsupported(answer: str, c: Context) -> tuple[str, str] | None:
    """(fallback type, why) for a claim nothing supports, or None."""
    if _rule("hedge").search(answer):
        return None
    found = c.findings
    if (
        not found
        and _rule("asks_to_come").search(c.question)
        and any(ch.isdigit() for ch in answer)
    ):
        return "I_DONT_KNOW", "a market's figure to come stated as known"
    if _rule("asks_self").search(c.question) and not found and not _anything_told(c):
        # "who am I?", "how old am I?" with nothing told and no memory searched: whatever the
        # reply says of the user is invented ("You are Mr Jonathan Harker", "You're 42")
        return "I_DONT_KNOW", "a fact about the user that nothing told or kept gives"
    named = _rule("user_named").search(answer) if _rule("asks_self").search(c.question) else None
    if named and named.group(1) not in c.allowed and not any(f.status == "ok" for f in found):
        # "who am I?" answered with a name nothing gave ("You are Mr Jonathan Harker")
        return "I_DONT_KNOW", f"the user called {named.group(1)!r}, which nothing gave"
    failed = [f for f in found if f.status == "error"]
    if (
        failed
        and len(failed) == len(found)
        and not any(_relays(answer, f.error, c.question, f.tool) for f in failed)
    ):
        # every tool failed, and the reply neither says so nor passes on what the failure said
        return "I_DONT_KNOW", f"{failed[0].tool} failed, but the reply answers as if it had not"
    weather = [f for f in found if f.tool == "get_weather_forecast" and f.status == "ok"]
    claim = _rule("weather").search(answer)
    q = c.question
    asked = _rule("forecast_word").search(q) or (
        _rule("asks_weather").search(q) and _rule("soon").search(q)
    )
    if asked and _rule("past").search(q) and not _rule("soon").search(q):
        # weather gone by: history, not a forecast ("what was the weather like in 1947")
        asked = None
    described = _rule("described").search(answer) if asked else None
    if (
        not weather
        and not _rule("creative").search(q)
        and (described or (claim and _rule("when").search(answer)))
    ):
        said = (described or claim).group(0)  # type: ignore[union-attr]
        return "I_DONT_KNOW", f"weather stated without a forecast: {said!r}"
    unreported = machine.unreported(answer, q, found)
    if unreported:
        return "I_DONT_KNOW", unreported
    memory = [f for f in found if f.tool in _MEMORY_TOOLS]
    if memory and all(f.status == "empty" for f in memory):
        return "I_DONT_KNOW", "memory holds nothing on it, but the reply answers as if it did"
    if _rule("asks_here").search(q) and not found and not _anything_told(c):
        # no location kept or given: a town named as the user's is a guess ("From Manchester ...")
        known = {w[:4] for w in words(q)}
        for m in _rule("place").regex.finditer(answer):
            if m.group(1).split()[0] not in ("Sir", "I", "Tatlock") and not any(
                w[:4] in known for w in words(m.group(1))
            ):
                return (
                    "I_DONT_KNOW",
                    f"{m.group(1)!r} taken for where the user is, which nothing gave",
                )
    recall = [f for f in found if f.tool.startswith("recall")]
    claimed = _rule("recall_strong").search(answer) or (
        _rule("recall").search(answer) and _rule("asks_memory").search(c.question)
    )
    if not recall and claimed and not _told(answer, c.brief.told):
        return "I_DONT_KNOW", "a recollection no search gave"
    return None


def _anything_told(c: Context) -> bool:
    """Whether the user told anything the answer could stand on: the pipeline passes the memory
    block (kept facts, summaries, the conversation so far) as one text, empty when there is none."""
    return any(t.strip() for t in c.brief.told)


def _told(answer: str, told: tuple[str, ...]) -> bool:
    """The answer repeats something the user told earlier (two of its words, or a name it
    gave: "Priya, sir, as you told me" to "My name is Priya")."""
    said = {w for w in words(answer) if len(w) >= 4}
    names = {
        w for t in told for m in _rule("name").regex.finditer(t) for w in words(m.group(0))
    } - _NOT_NAMES
    # a figure told is as particular as a name ("Forty, sir, as you told me" to "I turned forty")
    figures = {
        w for t in told for w in words(t) if w.isdigit() or (w in NUMBER_WORDS and len(w) >= 3)
    }
    return bool(said & names or set(words(answer)) & figures) or any(
        len(said & {w for w in words(t) if len(w) >= 4}) >= 2 for t in told
    )


def _months(low: str) -> set[str]:
    """The months a text names; May only beside a day ("3 May", "May 3rd"), not the verb."""
    said = set(words(low))
    return {m for m in MONTHS if m != "may" and m in said} | (
        {"may"} if _rule("may").search(low) else set()
    )


def _dates(text: str) -> set[tuple[int, int]]:
    out = set()
    for m in _rule("day_month").regex.finditer(text):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out.add((int(day), MONTHS.index(month.lower()) + 1))
    return out


def _times(text: str) -> set[tuple[int, int]]:
    return {(int(h) % 12, int(mi)) for h, mi in _rule("hhmm").regex.findall(text)}


_NOT_NAMES = {"sir", "madam", "tatlock", *WEEKDAYS, *MONTHS}


def _name_not_in(answer: str, sources: str, question: str) -> str | None:
    """A name the answer gives as remembered that neither memory nor the question holds ("you
    decided to fly from Manchester" when the memory says Leeds Bradford)."""
    # "Maria" in "Maria's", "King" in "King's"
    known = {w[:4] for w in words(sources) + words(question)}
    for m in _rule("name").regex.finditer(answer):
        said = [w for w in words(m.group(0)) if w not in _NOT_NAMES]
        if said and not any(w[:4] in known for w in said):
            return f"{m.group(0)!r} is not in what memory holds"
    return None


def _stamped(text: str) -> set[tuple[int, int]]:
    """The (day, month) of the ISO stamps in a memory ("when": "2026-10-02 19:00"): when a thing
    was said, which an answer may give ("as you told me in October")."""
    out = set()
    for t in text.split():
        t = t.strip("\"',;()[]{}")
        if len(t) >= 10 and t[:4].isdigit() and t[4] == "-" and t[7] == "-":
            month, day = t[5:7], t[8:10]
            if month.isdigit() and day.isdigit() and 1 <= int(month) <= 12:
                out.add((int(day), int(month)))
    return out


def _memory_clash(answer: str, sources: str) -> str | None:
    """A date or a time that is not the one memory (or the user) gave: "the 19th of December"
    for the 9th, "the 7:24" for "the 07:42"; the day it was said is one memory gives."""
    said, kept = _dates(answer), _dates(sources)
    if _rule("when_said").search(answer):  # "as you mentioned on the 2nd of November": when said
        said -= _stamped(sources)
    if said and kept and not said & kept:
        d, m = sorted(kept)[0]
        return f"the reply gives another date than the {d} {MONTHS[m - 1].title()} memory holds"
    said_t, kept_t = _times(answer), _times(sources)
    if said_t and kept_t and not said_t & kept_t:
        return "the reply gives another time than the one memory holds"
    return None


def _against_told(answer: str, told: str) -> str | None:
    """Advice against what the user said of themselves: meat to a vegetarian, peanuts to
    someone allergic to them."""
    if _rule("vegetarian").search(told):
        meat = _rule("meat").search(answer)
        if meat:
            return f"the reply offers {meat.group(0)!r} to someone who eats no meat"
    for m in _rule("allergic").regex.finditer(told):
        food = m.group(1).lower().rstrip("s")
        if any(w.startswith(food) for w in words(answer)) and not _rule("avoid").search(answer):
            return f"the reply offers {food!r} to someone allergic to it"
    return None


_ITEM = lazy(r"^\s*(?:[-*•]|\d+[.)])\s+\S")


def _line_words(line: str) -> list[str]:
    return words(line.strip().lstrip("-*>•").strip().strip("\"'“”‘’"))


def misquoted(answer: str, found: list[Finding]) -> str | None:
    """A file read out with lines changed: when an answer gives two or more of a file's lines as
    they are, a line that is nearly one of them ("Little robin in the snow" for "Little robin on
    the gate") was made up."""
    for f in found:
        if f.status != "ok" or f.tool != "analyze_file":
            continue
        source = [
            tuple(_line_words(x))
            for x in "\n".join(str(t) for t in readings.read(f, "texts")).splitlines()
        ]
        file_lines = {
            tuple(_line_words(y))
            for y in "\n".join(str(t) for t in readings.read(f, "texts")).splitlines()
        }
        items = [tuple(_line_words(x)) for x in answer.splitlines() if _ITEM.match(x)]
        # a file read out as a list, with an item it does not have
        if sum(x in file_lines for x in items) >= 2:
            every = {w for y in file_lines for w in y if len(w) >= 3}
            added = next(
                (x for x in items if x and not {w for w in x if len(w) >= 3} & every), None
            )
            if added:
                return f"an item the file does not have: {' '.join(added)!r}"
        source = [x for x in source if len(x) >= 3]
        if not source:
            continue
        lines = [tuple(_line_words(x)) for x in answer.splitlines()]
        lines = [x for x in lines if len(x) >= 3]
        if sum(x in source for x in lines) < 2:
            continue
        for x in lines:
            if x in source:
                continue
            for s in source:
                near = len(set(x) & set(s)) / max(len(set(x)), len(set(s)))
                # a word put in another's place ("in the snow" for "on the gate"), not an "and"
                # added
                swapped = {w for w in set(x) - set(s) if len(w) >= 3} and {
                    w for w in set(s) - set(x) if len(w) >= 3
                }
                if near >= 0.5 and swapped:
                    return f"a line of the file changed: {' '.join(x)!r}"
    return None


def against_memory(answer: str, c: Context) -> str | None:
    """What the user told earlier, contradicted: a date or time they gave, a diet, an allergy."""
    told = "\n".join(c.brief.told)
    if not told:
        return None
    asked = _rule("asks_memory").search(c.question)
    clash = (
        (
            _memory_clash(answer, told)
            or _name_not_in(answer, told, c.question)
            or _told_not_carried(answer, c.brief.told, c.question)
        )
        if asked
        else None
    )
    return clash or _against_told(answer, told)


_PLAIN = set(
    "what whats is are was were my mine the a an of to in on at and or did do does i me you your "
    "told tell say "
    "said mention mentioned again remind remember called call name named its it sir that "
    "this".split()
)


def _told_not_carried(answer: str, told: tuple[str, ...], question: str) -> str | None:
    """A question about what the user told ("What's my dog called?" after "My dog is called
    Rufus."), answered without it: the line it asks about is the one sharing most of its words,
    and the answer must carry one of that line's own words."""
    asked = {w[:4] for w in words(question) if len(w) >= 3 and w not in _PLAIN}
    # the memory block comes whole: its lines are what was told, its headings are not
    lines = [x.strip().lstrip("-• ") for t in told for x in t.splitlines()]
    lines = [x for x in lines if x and not x.startswith("#")]
    scored = [(len(asked & {w[:4] for w in words(t)}), t) for t in lines]
    best, line = max(scored, default=(0, ""))
    if best == 0 or sum(s == best for s, _ in scored) > 1:
        return None  # nothing told about it, or more than one line could be meant
    # a kept fact reads "Owner's dog's name: Rufus": what was told is its value, not the owner's
    # name
    told_value = line.split(":", 1)[1] if ":" in line else line
    new = {w for w in words(told_value) if len(w) >= 3 and w not in _PLAIN and w[:4] not in asked}
    said = {w[:4] for w in words(answer)}
    if new and not any(w[:4] in said for w in new):
        return f"the reply does not carry what the user said: {line!r}"
    return None


def _tokens(text: str) -> list[str]:
    return [t.strip('.,;:!?"()[]—–-') for t in text.lower().replace("’", "'").split()]


def someone_elses(answer: str, remembered: str, question: str) -> str | None:
    """The user's own thing asked for ("when's my birthday?") and answered from a memory of
    someone else's ("My mum's birthday is on the 9th of December"), without saying whose."""
    q = _tokens(question)
    asked = [q[i + 1] for i, t in enumerate(q[:-1]) if t == "my" and not q[i + 1].endswith("'s")]
    said = _tokens(answer)
    for thing in asked:
        if len(thing) < 4:
            continue
        mem = _tokens(remembered)
        before = [mem[i - 1] for i, t in enumerate(mem) if i and t.rstrip("s") == thing.rstrip("s")]
        owners = {b[:-2] for b in before if b.endswith("'s")}
        if (
            before
            and len(owners) == len(set(before))
            and not owners & {t.rstrip("'s") for t in said}
        ):
            return f"the memory is of {sorted(owners)[0]}'s {thing}, not the user's"
    return None


def _date_not_found(answer: str, ok: list[Finding], question: str) -> str | None:
    """A date the answer gives where a search or a file gave dates and none of them is it
    ("closing on the 24th of December" when the search says 13 November to 21 December); a
    day inside a range found ("Closed 24-26 December") is found."""
    source = " ".join(
        readings.result_text(f) for f in ok if f.tool in ("web_search", "analyze_file")
    )
    said, given = _dates(answer), _dates(source) | _dates(question)
    if not said or not given or said & given:
        return None
    low = source.lower()
    for day, month in said:
        name = MONTHS[month - 1]
        at = low.find(name)
        while at >= 0:  # the day among the numbers just before the month's name
            before = "".join(ch if ch.isdigit() else " " for ch in low[max(0, at - 12) : at])
            days = [int(x) for x in before.split()]
            # the day itself, or one inside a range ("24-26 December")
            if day in days or (len(days) >= 2 and min(days[-2:]) <= day <= max(days[-2:])):
                return None
            at = low.find(name, at + 1)
    d, m = sorted(said)[0]
    return f"the reply gives the {d} {MONTHS[m - 1].title()}, a date the findings do not give"


def _open_state(ok: list[Finding], question: str) -> tuple[bool | None, str]:
    """Whether a search or a file says a place is open on the day the question asks about
    ("is the gallery open on Monday?"): True, False, or None when it does not say."""
    q = words(question)
    days = {w.rstrip("s") for w in q} & set(WEEKDAYS)
    if "open" not in q or not days:
        return None, ""
    src = words(
        " ".join(readings.result_text(f) for f in ok if f.tool in ("web_search", "analyze_file"))
    )

    def near(i: int) -> set[str]:  # the words just after one, plurals as singulars ("Sundays")
        return {w.rstrip("s") for w in src[i + 1 : i + 4]}

    closed = any(w == "closed" and near(i) & days for i, w in enumerate(src))
    opened = any(
        w == "open" and (near(i) & days or near(i) & {"daily", "every", "seven"})
        for i, w in enumerate(src)
    ) or any(w == "including" and near(i) & days for i, w in enumerate(src))
    day = sorted(days)[0].title()
    return (opened if opened != closed else None), day


def open_on_agrees(answer: str, ok: list[Finding], question: str) -> bool:
    """The reply's yes or no is what the findings say of the day asked about: it uses them,
    whatever its words ("No, sir: it shuts on Mondays")."""
    state, _ = _open_state(ok, question)
    said = words(answer)[:1]
    return state is not None and said == (["yes"] if state else ["no"])


def _open_on(answer: str, ok: list[Finding], question: str) -> str | None:
    """Whether a place is open on a day, answered against what a search or a file says ("Yes,
    sir" when it says "Closed on Sundays"; "No" when it says "Open daily")."""
    state, day = _open_state(ok, question)
    said = words(answer)[:1]
    if state is False and said == ["yes"]:
        return f"the reply says yes, but the findings say it is closed on {day}"
    if state is True and said == ["no"]:
        return f"the reply says no, but the findings say it is open on {day}"
    return None


def contradicted(answer: str, found: list[Finding], question: str = "") -> str | None:
    """A month that is not the one memory holds, a size the system report does not give, a
    temperature the forecast does not give (within a degree; Fahrenheit converted), or dry
    weather where it rains."""
    ok = [f for f in found if f.status == "ok"]
    remembered = " ".join(readings.result_text(f) for f in ok if f.tool in _MEMORY_TOOLS).lower()
    if remembered:
        told, kept = _months(answer.lower()), _months(remembered)
        if _rule("when_said").search(answer):  # "as you told me in October": when it was said
            told -= {MONTHS[m - 1] for _, m in _stamped(remembered)}
        # the month of a memory's own stamp is one it holds ("On the 14th of October we
        # discussed..." of a summary stamped 2026-10-14)
        kept |= {MONTHS[m - 1] for _, m in _stamped(remembered)}
        if told and kept and not told & kept:  # "by the end of June" when the memory says January
            return (
                f"the reply says {sorted(told)[0].title()}, but the memory says "
                f"{sorted(kept)[0].title()}"
            )
    if remembered:
        clash = (
            someone_elses(
                answer,
                " ".join(readings.result_text(f) for f in ok if f.tool in _MEMORY_TOOLS),
                question,
            )
            or _memory_clash(answer, remembered)
            or (
                _name_not_in(answer, remembered, question)
                if _rule("recall").search(answer)
                else None
            )
        )
        if clash:
            return clash
    wrong = (
        misquoted(answer, ok)
        or grounded.clash(answer, ok, question, _dates(answer))
        or _date_not_found(answer, ok, question)
        or _open_on(answer, ok, question)
    )
    if wrong:
        return wrong
    for f in ok:
        wrong = machine.not_in_report(answer, f, question) if f.tool == "get_system_info" else None
        if wrong:
            return wrong
    weather = [f for f in ok if f.tool == "get_weather_forecast"]
    if not weather:
        return None
    if len(weather) == 1:
        clash = forecast.day_clash(
            answer, question, weather[0], hedged=bool(_rule("hedge").search(answer))
        )
        if clash:
            return clash
    now = [str(s) for s in readings.read(weather[0], "now")]
    wet = [s for s in now if forecast.wet(s)]
    if wet and forecast.says_dry(answer):
        return f"the reply says it is dry, but the forecast says {wet[0]!r}"
    given = [t for f in weather for t in readings.numbers(f, "temperatures")]
    for m in _rule("temperature").regex.finditer(answer):
        said = (m.group(1) or m.group(3)).lower()
        t = -float(said.split()[-1]) if said.startswith("minus") else float(said)
        if (m.group(2) or "").lower().startswith("f"):
            t = (t - 32) * 5 / 9
        if not any(abs(t - g) <= 1.0 for g in given):
            return f"the temperature {m.group(0).strip()!r} is not in the forecast"
    return None
