"""What a question asks for: one reader of questions, used by the answers composed from facts
(pipeline/compose.py: a name, the clock, this computer's cores, what the user told...) and by the
gate's checks of whether an answer answers (pipeline/gate/answers.py: a number, a when, a yes or
no, an explanation, both names of a pair, each part of this computer asked about). Each rule
carries examples it must match and near misses it must not (tests/unit/test_rulebook.py).

The parts of this computer a question asks about are one set of rules, labelled
``system.<part>`` (cores, memory, disk, os): compose answers each part from the system report,
and the gate checks that an answer to a question of two parts says something of each.
"""

from __future__ import annotations

from tatlock.pipeline.rulebook import Rule, Rulebook

ASKS = Rulebook(
    "asks",
    [
        # -- what the butler's facts answer (pipeline/compose.py) --
        Rule(
            "asks.name",
            "name",
            r"\b(?:(?:{your})\s+name|(?:what|how)\s+(?:do|should|shall|can|may)\s+(?:i|we)\s+(?:call|address)\s+(?:{you})|"
            r"what\s+(?:are|r)\s+(?:{you})\s+called|(?:{you})(?:'re|\s+are|\s+r)\s+called|\byou?r\s+called\b|"
            r"who\s+(?:are\s+(?:{you})\b(?!\s+(?:talking|speaking|referring))|am\s+i\s+(?:talking|speaking|chatting)\s+(?:to|with)|"
            r"is\s+this|'?s\s+this))",
            (
                "What's your name?",
                "sorry whats ur name again?",
                "what do I call you?",
                "Who am I talking to, exactly?",
                "remind me what you're called",
                "sorry, remind me what your called again",  # "your" for "you're"
                "Who are you?",
            ),
            (
                "What's my name?",
                "who are you talking about?",
                "what is the name of that song?",
                "your call is important to us",
            ),
        ),
        Rule(
            "asks.nature",
            "nature",
            r"\bwhat\s+(?:even\s+|exactly\s+)?(?:are|r)\s+(?:{you})\b(?!\s+(?:doing|up\s+to|called|having|thinking|"
            r"reading|watching|saying|able|good|capable|going|into|working|like|made|for))|\bare\s+(?:{you})\s+(?:a\s+(?:bot|robot|person|human|computer|machine|program)|"
            r"human|real|alive|a\s+real|running)\b|\b(?:{you})\s+running\s+on\b",
            (
                "what even are you?",
                "Are you a robot?",
                "Are you running on some company's server or on this machine?",
            ),
            ("what are you doing later?", "are you free on Friday?", "What are you able to do?"),
        ),
        Rule(
            "asks.capabilities",
            "capabilities",
            r"\bwhat\s+(?:else\s+)?(?:can|could)\s+(?:{you})\s+(?:actually\s+|really\s+)?(?:do|help)\b|"
            r"\bwhat\s+are\s+(?:{you})\s+(?:able\s+to|good\s+at|capable\s+of)\b|\b(?:{your})\s+(?:abilities|capabilities|skills)\b|"
            r"\bhow\s+can\s+(?:{you})\s+help\b",
            ("What can you do?", "what can you actually do for me?", "what are your capabilities?"),
            ("what can you tell me about Rome?", "what can I do about my cough?"),
        ),
        # whether the butler can do something ("could u read a txt file?"): with an ability its
        # tools give named, what it can do answers it when the model's answer fails
        Rule(
            "asks.can_you",
            "can_you",
            r"\b(?:can|could|would|will)\s+(?:{you})\b(?!\s+(?:please\s+)?(?:tell|give|explain|list|"
            r"describe|recommend|suggest|write))|\b(?:are|r)\s+(?:{you})\s+(?:able|capable)\b|"
            r"\bpossible\s+for\s+(?:{you})\b|\b(?:{you})\s+(?:able\s+to|capable\s+of)\b",
            (
                "could u read a txt file on my computer if i give you the path",
                "Would it be possible for you to open it and read it?",
                "Are you able to look things up on the internet?",
                "can u look stuff up on the internet for me",
            ),
            ("Could you tell me the capital of France?", "can I read it?", "Is it possible?"),
        ),
        # a question about what the user told: their own things ("my sister", "our anniversary") or
        # what they said ("did I say"), not advice ("what should I cook?", "how do I fix...")
        Rule(
            "asks.told",
            "told",
            r"\b(?:what|what's|whats|where|where's|wheres|when|when's|whens|who|who's|whos|which|how)\b[^.!?]{0,160}?"
            r"(?:\b(?:my|our|mine)\b|\b(?:did|do|am|have|was)\s+i\b(?!\s+(?:need|have\s+to|fix|make|get|go|start|stop|"
            r"cook|write|spell|say\s+(?:in|hello|thanks|goodbye)))|\bi\s+(?:told|said|mentioned))|"
            r"\b(?:remember|recall)\b[^.!?]{0,160}\b(?:my|our|what\s+i|where\s+i|when\s+i|who\s+i)\b|"
            r"\bi\s+(?:told|said\s+to)\s+(?:{you})\b|"
            # "Did I ever tell you what I'm allergic to?", "have I mentioned which hotel we booked?"
            r"\b(?:did|have|had)\s+i\s+(?:ever\s+|already\s+|just\s+|even\s+)?(?:(?:tell|told)\s+(?:{you})|"
            r"(?:say|said|mention|mentioned)\s+(?:what|which|where|when|who|how|my|our))\b",
            (
                "Did I ever tell you what I'm allergic to?",
                "have I told you my new address yet",
                "did i mention which hotel we booked?",
                "What did I say my sister is called?",
                "what am I allergic to?",
                "whens my dentist appt",
                "which football team do I support?",
                "when's our wedding anniversary?",
                "where do i work, do u remember",
                "Where did I park? I literally just told you",
            ),
            (
                "what should I cook tonight?",
                "how do I fix a puncture?",
                "What is the capital of France?",
                "who wrote Hamlet?",
                "did I say that right in French?",
                "did I tell the truth, do you think?",
                "Have I told them about the party yet?",
            ),
        ),
        # a question of several parts: facts answer one part at most, so nothing is composed
        Rule(
            "asks.more",
            "more",
            r"\b(?:and|also|then|plus)\s+(?:tell|what|what's|whats|how|who|where|when|which|can|could|would|give|show|"
            r"explain|describe|write|find|recommend|suggest)\b|\?[^?]+\?",
            (
                "Who made you, and tell me about Paris?",
                "What's the date? And what's the weather like?",
            ),
            ("What's the date and time?", "Who am I talking to, exactly?"),
        ),
        Rule(
            "asks.cores",
            "system.cores",
            r"\b(?:cores|cpus?|processors?|threads)\b",
            ("How many CPU cores does this computer have?", "cpu cores?"),
            ("a core belief", "apple core"),
        ),
        Rule(
            "asks.memory",
            "system.memory",
            r"\b(?:memory|ram|gigs)\b(?!\s+(?:lane|of\s+(?:my|our|the)))",
            ("How much memory does this computer have?", "hw much ram have i got"),
            ("a memory of my father",),
        ),
        Rule(
            "asks.disk",
            "system.disk",
            r"\b(?:disk|hard\s+drive|storage|(?:space|room)\s+(?:is\s+)?(?:free|left))\b|\bfree\s+space\b",
            ("how much free disk space is left?", "is my hard drive nearly full?"),
            ("a long drive",),
        ),
        Rule(
            "asks.os",
            "system.os",
            r"\b(?:operating\s+system|os|linux|mac\s*os)\b|\b(?:windows|mac)\s+or\b|\bor\s+(?:windows|mac)\b|"
            r"\b(?:is\s+(?:this|it)|running)\s+(?:windows|mac)\b",
            ("what operating system is this computer running?", "is this windows or mac or linux"),
            ("the windows of the house",),
        ),
        # -- the form of answer a question asks for (the gate's checks, pipeline/gate/answers.py) --
        Rule(
            "ask.code",
            "code",
            r"\b(?:code|command|cmd|script|snippet|regex|function|python|bash|shell|sql|javascript|"
            r"js|json|yaml|html|css|linux|terminal|syntax)\b",
            ("Write a bash command to list files",),
            ("Who wrote it?",),
        ),
        Rule(
            "ask.language",
            "language",
            r"\btranslat|\bin\s+(?:french|german|spanish|italian|dutch|portuguese|japanese|chinese|mandarin|welsh|"
            r"latin|russian|arabic|hindi|korean|greek)\b|\bsay\b|\bwrite\b|\blanguage\b|\bcharacters?\b",
            ("Translate 'good morning' into German", "How do you say thanks in Japanese?"),
            ("What is the capital?",),
        ),
        # a question that asks for information (not a request about how to answer: "Could you keep
        # it
        # short?")
        Rule(
            "ask.info",
            "info",
            r"^\W*(?:so\s+|and\s+|but\s+|ok\w*,?\s+|hey,?\s+|please,?\s+)?(?:what|who|whom|whose|which|when|where|why|"
            r"how|tell|give|explain|list|describe|recommend|suggest|name|define|summari[sz]e|translate|find|show)\b|"
            r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|give|explain|list|describe|recommend|suggest|"
            r"find|show|write|name|summari[sz]e)\b",
            (
                "What is the capital of France?",
                "Could you tell me a joke?",
                "Give me a rhyme for moon",
            ),
            ("Could you keep it short?", "Thanks, that's all"),
        ),
        Rule(
            "ask.number",
            "number",
            r"\bhow\s+(?:many|much|far|long|old|tall|high|big|deep|heavy|often|fast)\b|\bwhat\s+(?:year|time|"
            r"percentage|temperature|number|age)\b|\bwhen\b|(?<!\d)\d+\s*(?:[-+*/x×]|times|plus|minus|divided)\s*\d+|"
            r"\bsquare\s+root\b|\bconvert\b|\bin\s+(?:miles|kilometres|kilometers|fahrenheit|celsius|pounds|kilos)\b|"
            r"\bwhat(?:'s|\s+is)\s+\d|\d\s*%|\bper\s*cent\b|(?<!\d)\d+\s*(?:[-+*/x×^]|times|plus|minus|divided\s+by|of)\s*\d|"
            r"\bwhat(?:'s|\s+is)\s+the\s+(?:speed|distance|weight|height|length|population|temperature|size|depth|"
            r"boiling|melting|freezing|cost|price)\b",
            (
                "How many legs does a spider have?",
                "What is 12 times 12?",
                "Convert 10 km to miles",
                "What's 15% of 80?",
            ),
            (
                "What is the capital of France?",
                "Who wrote Hamlet?",
                "What's the name of that speed skater?",
            ),
        ),
        # a question whose answer is no number: a person, a place, a reason, a name, a word
        Rule(
            "ask.not_number",
            "not_number",
            r"^\W*(?:who|whom|whose|where|why)\b|\bwhat(?:'s|\s+is|\s+are)\s+(?:the\s+|a\s+)?(?:capital|name|colou?r|"
            r"meaning|opposite|synonym|plural|difference|chemical\s+symbol)\b|\bhow\s+do\s+(?:i|you|we)\b|"
            r"\bwhat\s+language\b",
            ("Who wrote Romeo and Juliet?", "What is the capital of France?", "How do I make tea?"),
            (
                "What is six times seven?",
                "Which year did the war end?",
                "What's the atomic number of gold?",
            ),
        ),
        # a question of when: its answer is a time, a date, a season or a year, not a bare small
        # number
        Rule(
            "ask.when",
            "when",
            r"^\W*(?:so\s+|and\s+|but\s+)?when\b|\bwhat\s+(?:month|season|year)\b",
            ("When should I plant tulip bulbs?", "What month do swallows leave?"),
            ("How long until tea?", "Say when"),
        ),
        Rule(
            "ask.measure",
            "measure",
            r"\bwhat(?:'s|\s+is)\s+the\s+(?:speed|distance|weight|height|length|population|"
            r"temperature|size|depth|boiling|melting|freezing)\b",
            ("What's the speed of light?",),
            ("What's the name?",),
        ),
        Rule(
            "ask.how_many",
            "how_many",
            r"\bhow\s+(?:many|much)\b",
            ("How many legs?",),
            ("How long should I boil it?",),
        ),
        Rule(
            "ask.how_long",
            "how_long",
            r"\bhow\s+long\s+(?:do|does|should|will|would|did|can|to|must)\b",
            ("How long do I boil an egg for a runny yolk?", "how long should I rest the dough"),
            ("How long is the Nile?", "How long ago was it?"),
        ),
        Rule(
            "ask.content",
            "explain",
            r"\b(?:tell|give|write|compose)\s+(?:me\s+)?(?:a|an|some)\s+(?:[\w-]+\s+){0,2}?(?:joke|story|poem|limerick|note|letter|"
            r"recipe|riddle|summary|description|fact|tips?)\b",
            ("Tell me a joke.", "Write a short thank-you note to my neighbour."),
            ("Give me a word that rhymes",),
        ),
        Rule(
            "ask.quantity",
            "quantity",
            r"\bhow\s+(?:long|far|much\s+(?:does|do|is)|big|heavy|tall|high|deep|old|fast)\b",
            ("How long should I boil pasta?", "How far is the Moon?"),
            ("How many legs?",),
        ),
        Rule(
            "ask.explain",
            "explain",
            r"^\W*(?:why|explain|describe|summari[sz]e)\b|\bhow\s+(?:do|does|did|can|could|should|would)\b"
            r"(?!\s+(?:you|i|we|one)\s+(?:say|spell|pronounce|write|translate|call)\b)|"
            r"\bwhat(?:'s|\s+is)\s+the\s+difference\b|\btips?\b|\bwhat\s+does\b.*\bmean\b",
            ("Why is the sky blue?", "How do I make tea?", "Any tips for sleeping better?"),
            (
                "How many legs?",
                "Suggest a name for a cat",
                "How do you say 'good morning' in Spanish?",
            ),
        ),
        Rule(
            "ask.choice",
            "choice",
            r"\b\w+\s+or\s+(?:an?\s+|the\s+)?\w+(?:\s+(?:right\s+now|now|today|tonight|"
            r"then|please|sir|here|there|at\s+the\s+moment))?\s*\??\s*$|\bwhich\b|\beither\b",
            (
                "Is a tomato a fruit or a vegetable?",
                "Which is bigger?",
                "Is it morning or afternoon right now?",
            ),
            ("What is the capital of France?",),
        ),
        Rule(
            "ask.yes_no",
            "yes_no",
            r"^\W*(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|has|have|"
            r"had)\b",
            ("Is Paris the capital of France?", "Do I need an umbrella?"),
            ("What is it?",),
        ),
        # two names asked about together ("France and Germany"), not at the start of the question
        Rule(
            "ask.pair",
            "pair",
            r"(?<=\w\s)([A-Z][a-z]{2,})\s+and\s+([A-Z][a-z]{2,})\b",
            ("What are the capitals of France and Germany?",),
            ("Romeo and Juliet was written by?",),
            flags=0,
        ),
    ],
)

# the parts of this computer, as the gate names one an answer left out
SYSTEM_PARTS = {
    "system.cores": "processor",
    "system.memory": "memory",
    "system.disk": "disk",
    "system.os": "system",
}
