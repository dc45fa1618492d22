"""The quality gate as an ordered list of named checks.

Each ``Check`` reads the answer and what the gate knows of it (``brief.Context``) and returns a
failing ``Verdict``, a doubt (a sentence: the model check is asked), or None. ``check`` runs
them in order and the first failure decides; ``STREAM`` are the checks a partial answer can
already fail, run by the stream gate on every piece. An answer that fails only in an
unfinished last fragment ("... on this computer. The user's") is judged without it.

The checks' patterns are rules with their own examples (``rulebook``), in the modules that
read them: text (form), identity, leaks, secrets, claims, clock, answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tatlock.pipeline import voice
from tatlock.pipeline.gate import (
    almanac,
    answers,
    claims,
    clock,
    compute,
    identity,
    knowledge,
    leaks,
    learnt,
    readings,
    reference,
    secrets,
    text,
)
from tatlock.pipeline.gate.brief import Brief, Context
from tatlock.pipeline.gate.verdict import Verdict, fail
from tatlock.pipeline.rulebook import Rule, Rulebook, lazy

Outcome = Verdict | str | None  # a failure, a doubt, or nothing to say


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[str, Context], Outcome]


CHECK_WORDS = Rulebook(
    "gate.checks",
    [
        Rule(
            "checks.can",
            "can",
            r"\b(?:can|able|help|assist|tools?|recall|remember|weather|forecasts?|search|files?|"
            r"(?<!at\syour\s)services?|capable)\b",  # "at your service" says nothing it can do
            ("I can fetch forecasts, sir.", "I recall our talks"),
            ("At your service, sir.",),
        ),
        Rule(
            "checks.cannot",
            "cannot",
            r"\b(?:can(?:no|')t|cannot|unable\s+to|not\s+able\s+to|don't\s+have\s+"
            r"(?:access|the\s+ability)|no\s+access|not\s+(?:capable|possible))\b",
            ("I cannot check that.", "I don't have access to it"),
            ("I can check that.",),
        ),
        Rule(
            "checks.weather_words",
            "weather",
            r"\b(?:rain\w*|showers?|drizzle|snow\w*|sun\w*|cloud\w*|overcast|fog\w*|"
            r"mist\w*|wind\w*|storm\w*|thunder\w*|frost\w*|ic[ey]|cold|chilly|cool|warm|hot|mild|dry|wet|degrees|°|"
            # conditions said, not the words "weather" or "forecast" alone
            r"clear|grey|gray|bright)\b",
            ("Light rain, sir.", "A mild 9 degrees"),
            ("Paris, sir.", "I'm glad I can get that weather forecast."),
        ),
        Rule(
            "checks.name_ask",
            "name_ask",
            r"\bname\b|\bcall\s+you\b|\bwho\s+(?:are|r)\s+(?:{you})\b|\bintroduce\b|"
            r"\bwho\s+am\s+i\b",
            ("What's your name?", "who r u"),
            ("Who wrote Hamlet?",),
        ),
        Rule(
            "checks.refuse",
            "refuse",
            r"\b(?:no|not|never|none|nothing|cannot|unable|decline|refuse|afraid|sorry|"
            r"rather|private|confidential|confidences?|discreet|discretion|must\s+keep|keep\s+(?:[\w' "
            r"]{1,30}?\s+)?to\s+myself|shan't|"
            r"won't|will\s+not|between\s+(?:us|me)|lips\s+are\s+sealed|"
            # kept where it is, in the butler's idiom ("That stays below stairs", "remains under
            # lock
            # and key")
            r"(?:stays?|remains?|kept|keep\s+it)\s+(?:\w+\s+){0,2}?(?:with\s+me|secret|below\s+stairs|behind\s+closed\s+doors|"
            r"under\s+lock|locked\s+away|in\s+confidence|off\s+the\s+record|in\s+the\s+(?:pantry|vault|safe|drawer|"
            r"cupboard|cellar|desk|study|family|house))|"
            r"not\s+for\s+(?:recital|sharing|publication|your\s+eyes|repeating))\b|n't\b",
            (
                "I'm afraid I keep no passwords to share, sir.",
                "That stays with me, sir.",
                "That stays below stairs, sir.",
                "My instructions remain firmly under lock and key.",
                "They are not for recital, sir.",
                "I'm still Tatlock, sir, and the rules stay in the drawer.",
                "I'd rather keep my instructions to myself, sir.",
                "None that I'd share, sir.",
                "That I keep to myself, sir, as a butler keeps the household's confidences.",
            ),
            ("Your password is hunter2.",),
        ),
        # a time asked for somewhere else: its clock is not the butler's
        Rule(
            "checks.elsewhere",
            "elsewhere",
            r"\b(?i:time|day|date|hour)\b(?:(?!\band\b)[^?.!,]){0,25}?\bin\s+(?!(?:The|My|A|An|This|That)\b)[A-Z][a-z]+\b|"
            r"(?i:\btime\s*zones?\b|\b(?:GMT|UTC|EST|PST|CET)\s*[+-]|\bahead\s+of\b|\bbehind\b)",
            ("What time is it in Tokyo?", "what's the time in New York"),
            ("What time is it?", "What's the time and is it raining in London?"),
            flags=0,
        ),
        # a request declined in other words than a no ("That's beyond me, sir; your phone will
        # serve you better")
        Rule(
            "checks.declines",
            "declines",
            r"\b(?:beyond\s+(?:me|my)|outside\s+(?:my|what\s+i)|out\s+of\s+my|regret|unfortunately|alas|"
            r"sadly|you(?:'ll|\s+will)\s+(?:need|have)\s+to|you\s+(?:could|might|may)\s+(?:try|use|ask)|"
            r"your\s+(?:phone|mobile|diary|inbox|email\s+app|calendar\s+app)\b[^.!?]{0,30}\bbetter|"
            r"i\s+would\s+suggest|i'd\s+suggest|best\s+(?:done|left)|draft|for\s+you\s+to\s+(?:send|post|use|copy))\b",
            (
                "That's beyond me, sir.",
                "Your phone will serve you better there, sir.",
                "Alas, sir, the calendar is yours alone.",
                "Here is a draft for you to send, sir: Dear Mr Okafor, ...",
            ),
            ("Two meetings today, sir: the dentist at ten.", "Your phone is on the desk, sir."),
        ),
        # "Are you a real person?" answered yes
        Rule(
            "checks.asks_human",
            "asks_human",
            r"\bare\s+(?:you|u)\s+(?:a\s+)?(?:real|human|person|alive|man|woman|"
            r"living|flesh)",
            ("Are you a real person?", "are u human"),
            ("Are you there?",),
        ),
        Rule(
            "checks.says_yes",
            "says_yes",
            r"^\W*(?:yes|yep|indeed|of\s+course|certainly|absolutely|very\s+much\s+so|quite\s+so|that\s+i\s+am|"
            r"i\s+am(?!\s+not)|i'm\s+(?:real|human|a\s+real))\b",
            ("Indeed I am, sir.", "Yes, sir.", "Very much so, sir."),
            ("No, sir.", "I am not"),
        ),
        # a capability denied that it has ("I have no access to weather information")
        Rule(
            "checks.denies",
            "denies",
            r"\b(?:can(?:no|')t|cannot|unable\s+to|not\s+able\s+to|no\s+access\s+to|"
            r"(?:don't|do\s+not)\s+have\s+(?:any\s+)?(?:access|the\s+ability))\b(?:(?!\bbut\b|\bthough\b|\bhowever\b)[^.!?]){0,40}?\b(?:weather|forecasts?|"
            r"internet|web|memory|remember|recall|files?|time|date|computer|system)\b|"
            # its long memory denied ("I forget everything the moment you close the terminal")
            r"\bi\s+(?:forget|lose|wipe|erase)\s+(?:everything|it\s+all|all\s+of\s+it|what\s+you)|"
            r"\bi\s+(?:have|keep)\s+no\s+(?:long-term\s+|lasting\s+)?memory\b(?!\s+of\b)|"
            r"\bi\s+(?:don't|do\s+not|can't|cannot|won't|will\s+not)\s+(?:remember|keep|store|retain)\s+"
            r"(?:anything|what\s+you\s+(?:tell|say)|things\s+between|between)\b|"
            r"\b(?:clean|blank)\s+slate\b|\bstarts?\s+(?:afresh|from\s+scratch|anew)\b|"
            r"\bno\s+(?:internet|web|online)\s+access\b|"
            r"\bnothing\s+(?:you\s+(?:say|tell\s+me)\s+)?is\s+(?:kept|stored|saved|remembered)\b",
            (
                "I'm afraid I have no access to weather information, sir.",
                "I cannot remember our talks",
                "each conversation begins with a clean slate, so nothing you say is kept",
                "No, sir. I forget everything the moment you close the terminal.",
                "I have no memory, sir",
                "I won't remember anything once we part",
                "No, sir, I have no internet access at all.",
            ),
            (
                "I cannot order a taxi, sir.",
                "I have no memory of that, sir.",
                "I don't remember you mentioning it",
                "I cannot ring anyone, sir, but I can remember that you mean to",
            ),
        ),
        # an action reported done to a request the butler has no tool for ("Done, sir.", "All set")
        Rule(
            "checks.done",
            "done",
            r"^\W*(?:done|all\s+done|consider\s+it\s+done|all\s+set|sorted|that's\s+done|"
            r"it's\s+done|it\s+is\s+done)\b|\bi(?:'ve|\s+have)\s+(?:now\s+|just\s+)?done\s+(?:it|that|my\s+part|so|as\s+you\s+asked)\b",
            (
                "Done, sir.",
                "Consider it done, sir.",
                "All set!",
                "I'm sorry for the confusion. I'm sure I've done my part.",
            ),
            ("Don't worry, sir.", "Doneness is a matter of taste"),
        ),
        # where the butler lives, said of itself: an answer to who or what it is
        Rule(
            "checks.here",
            "here",
            r"\b(?:i\s+(?:run|live|work)|running|kept|i'm)\b[^.!?]{0,30}?\b(?:(?:this|your)\s+"
            r"(?:computer|machine|laptop)|locally)\b",
            ("I run entirely on this computer", "running privately on your machine"),
            ("Your computer is fast, sir.",),
        ),
        Rule("checks.sir", "sir", r"\bsir\b", ("Paris, sir.",), ("Paris.", "Sirius")),
    ],
)


def _says(label: str, answer: str) -> bool:
    return CHECK_WORDS.labelled(label)[0].search(answer) is not None


# -- the checks a partial answer can already fail ----------------------------------------------


def _template(answer: str, c: Context) -> Outcome:
    return (
        fail("RETRY", "garbled", "chat-template tokens in the reply")
        if text.FORM.first(answer, "special")
        else None
    )


def _vendor(answer: str, c: Context) -> Outcome:
    said = identity.vendor_identity(answer)
    return (
        fail("RETRY", "vendor", f"model or vendor identity: {said!r}", ("IDENTITY",))
        if said
        else None
    )


def _secrets(answer: str, c: Context) -> Outcome:
    if any(s in answer for s in c.configured):
        return fail("NOT_ALLOWED", "secret", "a configured secret")
    if any(secrets.contains_secret(answer, s) for s in c.asked_secrets):
        return fail("NOT_ALLOWED", "question_secret", "a secret from the question repeated")
    if any(secrets.contains_secret(answer, s) for s in c.found_secrets):
        return fail(
            "NOT_ALLOWED", "found_secret", "a secret from the findings repeated", ("SECURITY",)
        )
    cred = secrets.credential(answer)
    if cred and not any(s in cred or cred in s for s in c.asked_secrets):
        return fail("NOT_ALLOWED", "credential", "credential-like text")
    return None


def _leak(answer: str, c: Context) -> Outcome:
    if leaks.leak_marker(answer):
        return fail("NOT_ALLOWED", "leak", "system prompt leak")
    for source, n, what in (
        (c.instructions, 6, "instructions"),
        (c.persona_text, 12, "persona instructions"),
        (c.prompt_text, 6, "the prompt"),
    ):
        run = leaks.repeated_run(answer, source, n, c.allowed) if source else None
        if run:
            return fail("NOT_ALLOWED", "leak", f"{what} repeated verbatim: {run!r}")
    return None


def _retold(answer: str, c: Context) -> Outcome:
    told = leaks.instructions_told(answer)
    if told:
        return fail("NOT_ALLOWED", "leak", f"the instructions told: {told!r}")
    told = leaks.retold(answer, f"{c.persona_text}\n{c.instructions}", c.question)
    return fail("NOT_ALLOWED", "leak", told) if told else None


def _prompt_echo(answer: str, c: Context) -> Outcome:
    echo = leaks.prompt_echo(answer, c.allowed)
    return fail("RETRY", "prompt_echo", echo) if echo else None


STREAM: tuple[Check, ...] = (
    Check("template_tokens", _template),
    Check("vendor", _vendor),
    Check("secrets", _secrets),
    Check("leak", _leak),
    Check("instructions_retold", _retold),
    Check("prompt_echo", _prompt_echo),
)


# -- the whole answer --------------------------------------------------------------------------


def _garbled(answer: str, c: Context) -> Outcome:
    bad = text.garbled(answer, c.question)
    return fail("RETRY", "garbled", f"empty or garbled reply: {bad}") if bad else None


def _finished(answer: str, c: Context) -> Outcome:
    """An answer that stops mid-sentence ("The three primary colours are red,"): ``check`` judges
    what comes before the unfinished sentence, and withdraws it only when nothing stands."""
    return (
        fail("RETRY", "unfinished", "the reply stops mid-sentence")
        if text.stops_mid_sentence(answer)
        else None
    )


def _question_echo(answer: str, c: Context) -> Outcome:
    if (
        answers.ASK.first(c.question, "yes_no")
        and "?" not in answer
        and not text.FORM.first(answer, "restated")
    ):
        # a yes-or-no question answered in its own words affirms it ("Are you ready?" "Ready, sir.")
        return None
    return (
        fail("RETRY", "question_echo", "the reply only repeats the question")
        if text.question_echo(answer, c.question)
        else None
    )


def _who(answer: str, c: Context) -> Outcome:
    """Someone else by name, a human, or a thing and its opposite."""
    if identity.name_unsaid(answer, c.question, c.persona_name):
        return fail(
            "RETRY",
            "missing_part",
            f"the reply does not give the butler's name, {c.persona_name}",
            ("IDENTITY",),
        )
    vendor = identity.vendor_affirmed(answer, c.question)
    if vendor:
        return fail("RETRY", "vendor", f"asked, the reply owns to {vendor!r}", ("IDENTITY",))
    name = identity.other_name(answer, c.persona_name)
    if name:
        return fail(
            "RETRY",
            "identity",
            f"the reply calls the butler {name!r}, not {c.persona_name}",
            ("IDENTITY",),
        )
    human = identity.claims_human(answer) or (
        _says("asks_human", c.question)
        and _says("says_yes", answer)
        and not identity.claims_not_human(answer)
    )
    if human:
        return fail(
            "RETRY", "identity", f"the reply claims to be a human: {human!r}", ("IDENTITY",)
        )
    called = identity.addressed(
        answer, " ".join((c.question, *c.brief.told, *c.lines)), c.persona_name
    )
    if called:
        return fail("RETRY", "identity", f"the reply calls the user {called!r}, a name never given")
    broken = identity.persona_broken(answer)
    if broken:
        return fail(
            "RETRY",
            "identity",
            f"the reply speaks as something the butler is not: {broken!r}",
            ("IDENTITY",),
        )
    both = identity.contradiction(answer) or identity.yes_no_undone(answer, c.question)
    if both:
        return fail("RETRY", "contradiction", f"the reply contradicts itself: {both}")
    maker = identity.wrong_maker(answer)
    return fail("RETRY", "wrong_fact", maker) if maker else None


def _invented(answer: str, c: Context) -> Outcome:
    made_up = claims.unsupported(answer, c)
    return fail(made_up[0], "invented", made_up[1]) if made_up else None


def _contradicts(answer: str, c: Context) -> Outcome:
    clash = claims.contradicted(answer, c.findings, c.question) or claims.against_memory(answer, c)
    return fail("RETRY", "contradicts_findings", clash, ("FINDINGS",)) if clash else None


def _clock(answer: str, c: Context) -> Outcome:
    """The clock read wrong: every time and date named, when the question is about them; what
    the answer says of now ("it's the 31st of March"), always."""
    if c.clock is None:
        return None
    if _says("elsewhere", c.question):  # a time asked for somewhere else: its own zone's clock
        wrong = compute.time_elsewhere(answer, c.question, c.brief.clock)
        return fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",)) if wrong else None
    left = compute.wrong_days_left(answer, c.question, c.clock)
    if left:  # the clock holds the count: it is said instead ("30 days, sir.")
        known = f"{compute.days_left(c.question, c.clock)} days, $sir."
        return fail("RETRY", "wrong_clock", left, ("TEMPORAL",), known=known)
    wrong = compute.wrong_until(answer, c.question, c.clock) or compute.wrong_days_to_date(
        answer, c.question, c.clock
    )
    if wrong:
        return fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",))
    # tomorrow's date: held to tomorrow, and only what is said of now to now
    if clock.asks_tomorrow(c.question):
        wrong = clock.wrong_tomorrow(answer, c.question, c.clock)
        if wrong:  # the clock holds tomorrow's date: it is said instead
            return fail(
                "RETRY", "wrong_clock", wrong, ("TEMPORAL",), known=clock.tomorrow_said(c.clock)
            )
        wrong = clock.wrong_now(answer, c.clock)
        return fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",)) if wrong else None
    about_now = "TEMPORAL" in c.brief.guard_parts or c.clock_tool or clock.asks_now(c.question)
    if (
        about_now
        and "TEMPORAL" not in c.brief.guard_parts
        and not clock.asks_now(c.question)
        and any(f.tool == "get_weather_forecast" for f in c.tools("ok"))
    ):
        # the clock looked up beside a forecast ("the weekend in Bristol?"): the weekdays said
        # are the forecast's days, held to the forecast (forecast.py), not claims of what day
        # it is; what is said of now ("today is Friday") is still held to the clock
        about_now = False
    month = clock.wrong_month(answer, c.question, c.clock) if about_now else None
    if month:  # the clock holds the month: it is said instead
        known = f"It is {str(c.clock['month']).title()}, $sir."
        return fail("RETRY", "wrong_clock", month, ("TEMPORAL",), known=known)
    wrong = clock.wrong_clock(answer, c.clock) if about_now else clock.wrong_now(answer, c.clock)
    return fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",)) if wrong else None


def _file_lines(c: Context) -> list[str]:
    """The lines of the files read, headings apart ("# Shopping", "Groceries:" are no item)."""
    return [
        x
        for f in c.tools("ok")
        if f.tool == "analyze_file"
        for t in readings.read(f, "texts")
        for x in str(t).splitlines()
        if x.strip() and not x.strip().startswith("#") and not x.strip().endswith(":")
    ]


def _worked_out(answer: str, c: Context) -> Outcome:
    """A sum or a unit conversion the gate can work out itself, answered with another number."""
    found = [str(t) for f in c.tools("ok") for t in readings.read(f, "texts")]
    wrong = (
        compute.wrong_figure(answer, c.question)
        or compute.wrong_prime(answer, c.question)
        or compute.wrong_calendar(answer, c.question)
        or compute.wrong_spelling(answer, c.question)
        or compute.wrong_difference(answer, c.question, found)
    )
    if wrong:
        return fail("RETRY", "wrong_figure", wrong)
    lines = _file_lines(c)
    wrong = compute.wrong_count(answer, c.question, lines)
    if wrong:  # the file's lines are the count: it is said instead
        return fail("RETRY", "wrong_figure", wrong, known=f"{len(lines)} in all, $sir.")
    wrong = compute.wrong_total(answer, c.question, found)
    return (
        fail("RETRY", "wrong_figure", wrong, known=compute.total_known(c.question, found))
        if wrong
        else None
    )


def _reference(answer: str, c: Context) -> Outcome:
    """A question whose answer is in the gate's tables (a country's capital, an element's symbol,
    the planets' order), answered without it."""
    wrong = (
        reference.wrong(answer, c.question)
        or knowledge.wrong(answer, c.question)
        or almanac.wrong(answer, c.question)
    )
    return fail("RETRY", "wrong_fact", wrong) if wrong else None


# failures of what an answer says; with every other failure but a secret's, the answer the gate
# holds itself (a sum, a capital) stands too, rather than a repair that may fail again
_SUBSTANCE = frozenset({"wrong_fact", "wrong_figure", "empty", "garbled", "unfinished"})


def known_answer(question: str) -> str | None:
    """The answer the gate holds itself for a question of one part (a sum it works out, a
    capital, an element's symbol, a well-known count), with "$sir" for the form of address."""
    if answers.ASK.first(question, "more"):
        return None  # "... and what time is it?": one part's answer is not the answer
    return reference.known(question) or compute.known(question)


def _security(answer: str, c: Context) -> Outcome:
    if "SECURITY" not in c.brief.guard_parts:
        return None
    if leaks.rules_listed(answer):
        return fail("NOT_ALLOWED", "leak", "the rules listed")
    if not _says("refuse", answer):
        return fail("RETRY", "missing_part", "the reply does not decline the secret", ("SECURITY",))
    return None


def _guard_parts(answer: str, c: Context) -> Outcome:
    parts, more = c.brief.guard_parts, c.parts_fact
    # a count of days answers "how many days until ..." ("Thirty days, sir.")
    if "TEMPORAL" in parts and not (clock.says_time_or_date(answer) or compute.days_said(answer)):
        return fail(
            "RETRY", "missing_part", "the time or date part is not answered", ("TEMPORAL", *more)
        )
    if "IDENTITY" in parts and c.persona_name.lower() not in answer.lower():
        if c.mixed or _says("name_ask", c.question):
            return fail(
                "RETRY", "missing_part", "the identity part is not answered", ("IDENTITY", *more)
            )
        owned = identity.vendor_owned(answer)
        if owned:  # asked who or what it is, it names a vendor or a model as its own
            return fail("RETRY", "vendor", f"the reply owns to {owned!r}", ("IDENTITY", *more))
        # what it is in other words ("No, sir; a program on your computer") answers it too
        if (
            "butler" not in answer.lower()
            and not identity.claims_not_human(answer)
            and not _says("here", answer)
        ):
            return "identity: the reply does not say who the butler is"
    if "CAPABILITIES" in parts and _says("done", answer):
        return fail(
            "CANT_DO",
            "overclaim",
            "the reply reports done what the butler cannot do",
            ("CAPABILITIES", *more),
        )
    if "CAPABILITIES" in parts and _says("denies", answer):
        return fail(
            "RETRY",
            "missing_part",
            "the reply denies what the butler can do",
            ("CAPABILITIES", *more),
        )
    if "CAPABILITIES" in parts and not (_says("can", answer) or _says("cannot", answer)):
        if c.mixed:
            return fail(
                "RETRY",
                "missing_part",
                "the capabilities part is not answered",
                ("CAPABILITIES", *more),
            )
        if not _says("refuse", answer) and not _says("declines", answer):
            # neither declines nor says what it can: it acts as if it could ("Three unread
            # messages, sir: ..." to a request for email it has no way to read)
            return fail(
                "CANT_DO",
                "overclaim",
                "the reply neither declines nor says what the butler can do",
                ("CAPABILITIES", *more),
            )
        return "capabilities: the reply does not say what the butler can do"
    return None


def _findings_used(answer: str, c: Context) -> Outcome:
    more = c.parts_fact
    places = [
        str(p).split(",")[0].strip()
        for f in c.tools("ok")
        if f.tool == "get_weather_forecast"
        for p in readings.read(f, "place")
    ]
    missing = [p for p in places if p.lower() not in answer.lower()]
    if len(places) >= 2 and missing:  # "London and Paris" answered for London alone
        return fail(
            "RETRY",
            "missing_part",
            f"the reply says nothing of the weather in {missing[0]}",
            ("FINDINGS", *more),
        )
    doubt = None
    for f in c.tools():
        if f.status == "error":
            continue
        result = readings.result_text(f)
        if not result.strip():
            continue  # nothing found: "I have no record of that" is the answer
        if _says("cannot", answer) and not readings.uses(answer, result, c.question):
            return fail(
                "RETRY",
                "ignored_findings",
                f"the reply says it cannot, but {f.tool} answered",
                ("FINDINGS", *more),
            )
        # read in words ("five past two"): the clock check holds it to the clock
        if f.tool == "get_current_datetime":
            if not clock.says_time_or_date(answer):
                return fail(
                    "RETRY", "missing_part", "the time or date is not answered", ("FINDINGS", *more)
                )
            continue
        if f.tool == "get_weather_forecast":
            if not (_says("weather", answer) or readings.uses(answer, result, c.question)):
                return fail(
                    "RETRY", "missing_part", "the weather part is not answered", ("FINDINGS", *more)
                )
            continue
        if f.tool == "get_personal_variable" and any(
            str(v).lower() in " ".join(str(a) for a in g.args.values()).lower()
            for g in c.tools("ok")
            if g is not f
            for v in readings.read(f, "value")
            if v
        ):
            continue  # a kept location passed on to the forecast: the forecast is what answers
        texts = [str(t) for t in readings.read(f, "texts")]
        if claims.open_on_agrees(answer, [f], c.question):
            continue  # "No, sir: it shuts on Mondays" to what a search says of Mondays
        if compute.says_total(answer, c.question, texts) or (
            f.tool == "analyze_file" and compute.says_count(answer, c.question, _file_lines(c))
        ):
            continue  # the total or the count asked of it uses it all
        used = readings.uses(answer, result, c.question, f.text)
        if used == 0:
            return fail(
                "RETRY",
                "ignored_findings",
                f"the reply uses nothing from {f.tool}",
                ("FINDINGS", *more),
            )
        if used == 1:
            doubt = doubt or f"the reply uses little from {f.tool}"
    return doubt


def _overclaim(answer: str, c: Context) -> Outcome:
    # a poem or a story asked for: what is done in it is no claim ("the kettle is on")
    claim = None if answers.REPLY.first(c.question, "creative") else answers.overclaim(answer)
    return (
        fail("CANT_DO", "overclaim", f"claims an action the butler cannot take: {claim!r}")
        if claim
        else None
    )


def _answers(answer: str, c: Context) -> Outcome:
    unanswered = answers.unanswered(
        answer,
        c.question,
        guarded=bool(c.brief.guard_parts),
        tools=[f.tool for f in c.tools() if f.status != "error"],
    )
    if not unanswered:
        return None
    failed, why = unanswered
    return fail("RETRY", failed, why, ("FINDINGS", "PARTS") if failed == "missing_part" else ())


_LONG_WORD = lazy(r"[a-z]{4,}")


def _other_part(answer: str, c: Context) -> Outcome:
    other = c.brief.other_part
    wanted = _LONG_WORD.findall(other.lower())
    if wanted and not any(w[:5] in answer.lower() for w in wanted):
        given = {w[:5] for w in text.words(" ".join((c.question, *c.lines)))}
        new = [
            w
            for w in text.words(answer)
            if len(w) >= 4
            and w[:5] not in given
            and w not in answers.POLITE
            and w not in text.META
            and not w.isdigit()
        ]
        if not new:  # the guard's part alone: nothing said that the facts did not give
            return fail("RETRY", "missing_part", f"nothing about '{other}'", ("FINDINGS", "PARTS"))
        return f"mixed: nothing about '{other}'"
    return None


def _learnt(answer: str, c: Context) -> Outcome:
    """The learnt check (``learnt``): after every rule, an answer its model scores bad above the
    threshold measured to withdraw at most 1% of good answers on sets it never saw."""
    try:
        model = learnt.load()
    except (OSError, ValueError):
        return None  # no model, or a damaged one: the rules alone judge, as before it existed
    p = model.score(answer, c)
    if p >= model.withdraw:
        return fail("RETRY", "learnt", f"the learnt check scores it bad ({p:.2f})")
    return None


CHECKS: tuple[Check, ...] = (
    Check("garbled", _garbled),
    *STREAM,
    Check("question_echo", _question_echo),
    Check("who_it_is", _who),
    Check("invented", _invented),
    Check("contradicts_findings", _contradicts),
    Check("clock", _clock),
    Check("worked_out", _worked_out),
    Check("reference", _reference),
    Check("secret_declined", _security),
    Check("guard_parts", _guard_parts),
    Check("findings_used", _findings_used),
    Check("overclaim", _overclaim),
    Check("answers_the_question", _answers),
    Check("other_part", _other_part),
    Check("finished", _finished),  # last: what the rest of an unfinished answer fails says more
    Check("learnt", _learnt),  # after every rule: it never overrules one
)


def run(answer: str, c: Context, checks: tuple[Check, ...] = CHECKS) -> Verdict:
    doubts: list[str] = []
    for chk in checks:
        out = chk.run(answer, c)
        if isinstance(out, Verdict):
            # said instead of an apology or a second try (pipeline/quality.py): a sum, a
            # capital, a count the gate holds is right whatever went wrong with the answer
            # ("12 x 12?" given a stutter or the question back), a secret apart
            if out.failed in _SUBSTANCE or out.fallback_type != "NOT_ALLOWED":
                out.known = out.known or known_answer(c.question)
            return out
        if out:
            doubts.append(out)
    # a persona slip is recorded but does not by itself cost a model check or the answer:
    # a right answer without "sir" still serves the user better than a fallback
    return Verdict(
        "UNSURE" if doubts else "APPROVED", None, doubts + _address_slip(answer, c.brief.persona)
    )


def _address_slip(answer: str, persona: str) -> list[str]:
    """The persona's form of address missing from the answer (the default persona's "sir" when
    no persona was given; nothing when the persona names none)."""
    form = voice.address(persona) if persona else "sir"
    if form is None:
        return []
    said = _says("sir", answer) if form.lower() == "sir" else form.lower() in answer.lower()
    return [] if said else [f"persona: the user is not addressed as {form}"]


_UNFINISHED = lazy(r"(?<=[.!?])\s+([^.!?\n]{1,60}[^.!?\n:])$")


def unfinished_end(answer: str) -> int | None:
    """Where an unfinished last fragment begins ("... on this computer. The user's"), or None."""
    m = _UNFINISHED.search(answer.rstrip())
    # a fragment of three words at most ("The user's"); a longer one is a sentence the model meant
    return (
        m.start(1)
        if m and len(text.words(m.group(1))) <= 3 and len(text.words(answer[: m.start(1)])) >= 3
        else None
    )


_SENTENCE_END = lazy(r"[.!?)](?=[\"'”’»*]*\s)|\n")


def _last_sentence_end(answer: str) -> int | None:
    """Where the last finished sentence of an answer that stops mid-way ends, or None."""
    ends = [m.end() for m in _SENTENCE_END.finditer(answer.rstrip())]
    return ends[-1] if ends and len(text.words(answer[: ends[-1]])) >= 1 else None


def check(answer: str, brief: Brief) -> Verdict:
    """Judge a finished answer. One that fails only in an unfinished last fragment stands
    without it (``Verdict.text``)."""
    c = brief.context()
    v = run(answer, c)
    cut = None
    if v.verdict == "FALLBACK" and v.failed == "prompt_echo":
        # only the prompt's words in a last fragment: a small model's "... The user's" cut short
        cut = unfinished_end(answer)
    elif v.verdict == "FALLBACK" and v.failed == "unfinished":
        # a sentence left unfinished (a small model that stops, an answer at its length limit):
        # what was finished before it is judged alone ("Certainly, sir." alone is no answer)
        cut = _last_sentence_end(answer)
    if cut is not None:
        kept = answer[:cut].rstrip()
        v2 = run(kept, c)
        if v2.verdict != "FALLBACK":
            v2.text = kept
            v2.checks = [
                *v2.checks,
                f"an unfinished end was cut off ({v.checks[0] if v.checks else v.failed})",
            ]
            return v2
    return v


def stream_check(partial: str, c: Context) -> Verdict | None:
    """The checks that can fail before an answer is complete; a failing answer fails here as
    soon as the failing text is there, so a stream stops before it is shown."""
    v = run(partial, c, STREAM)
    return v if v.verdict == "FALLBACK" else None
