"""The tool needs the rules are sure of: the weather, earlier conversations, the user's saved
facts, the web, this computer, a file. Each rule is about now, here, me or our conversations,
so a match is sure: the tool runs even when the model answers directly (a small model cannot
know the weather, what was said last week, or this computer's disk). A general question about
the same topic ("Why is the sky blue?", "What is a CPU?", "Is it hot in Dubai in summer?")
is left to the model.
"""

from __future__ import annotations

from tatlock.pipeline.routing.gates import gates, is_open, words
from tatlock.pipeline.rulebook import Rule, Rulebook

GENERAL = Rule(
    "lesson.difference-between-why",
    "lesson",
    r"\b(?:what'?s|what\s+is)\s+the\s+difference\s+between\b|^\s*(?:why\b|explain\b|define\b|what\s"
    r"+(?:is|are)\s+(?:a|an)\b|what\s+(?:is|are)\s+[\w-]+\s*\?\s*$|what\s+causes\b|how\s+(?:does|d"
    r"o|did)\s+(?!i\b|you\b|we\b|my\b)|how\s+(?:do|can|should|would)\s+i\s+(?!need\b|look\b)|what\s"
    r"+does\s+.{1,30}\s+mean\b|write\s+(?:a|me\s+a)\b|(?:can|could|would)\s+you\s+(?:please\s+|kin"
    r"dly\s+|briefly\s+|quickly\s+)?explain\b|(?:any|some|good|best|top|quick)\s+(?:tips|tricks|ad"
    r"vice|ideas|ways)\b|who\s+(?:invented|wrote|discovered|painted|founded|designed|composed|dire"
    r"cted|came\s+up\s+with|introduced|named)\b|(?:(?:can|could|would)\s+you\s+(?:please\s+)?tell\s"
    r"+me|do\s+you\s+know|i\s+wonder|tell\s+me)\s+(?:why|how\s+(?:does|do|did|come))\b|(?:how|what"
    r")\s+do\s+you\s+(?:call|say|spell|pronounce|write|make|cook|boil|bake|check|find|see|free\s+u"
    r"p|clear|fix|convert|calculate|measure|tell\s+(?:if|whether|when)|know\s+(?:if|whether|when))"
    r"\b|tell\s+me\s+about\s+(?:the\s+)?history\b|(?:tell|write|give)\s+(?:me\s+)?an?\s+(?:joke|po"
    r"em|story|limerick|haiku|riddle|song|pun)\b)",
    examples=(
        "What is RAM?",
        "What are you?",
    ),
    near_misses=("What exactly are you?",),
)

TOOL_RULES: dict[str, list[Rule]] = {
    "weather": [
        # "what the skies are doing over Dublin this evening"
        Rule(
            "weather.ies-doing-look",
            "weather",
            r"\bsk(?:y|ies)\b[^.?!]{0,30}\b(?:doing|look(?:ing)?|like|shaping\s+up)\b[^.?!]{0,30}\b(?:{now})\b",
            examples=(
                "How's the sky shaping up over Edinburgh this weekend?",
                "Care to tell me what the skies are doing over Dublin this evening?",
            ),
            near_misses=("read notes.txt in my home folder and tell me what the to-do items are",),
        ),
        Rule(
            "weather.under-weather-forecast",
            "weather",
            r"\b(?<!under\s)(?<!under\sthe\s)(?:weather|forecast|fcst)\b(?!\s+(?:forecasting|models?|stati"
            r"on|balloon|vane))",
            examples=(
                "weather in rome?",
                "weather ldn tomorrow?",
            ),
            near_misses=("whats in todo.md",),
        ),
        Rule(
            "weather.today-tonight-tomorrow",
            "weather",
            r"\b(?:will|is|was|has)\s+(?:it|today|tonight|tomorrow|the\s+weekend|{weekday})\s+(?:going\s+t"
            r"o\s+|gonna\s+|still\s+|stopped\s+)?(?:be\s+)?(?:{wx})\b",
            examples=(
                "Is it sunny in Rome?",
                "is it gonna rain today",
            ),
            near_misses=("Is it Tuesday today?",),
        ),
        Rule(
            "weather.storms-rain-snow",
            "weather",
            r"\b(?:are|is)\s+there\s+(?:any\s+)?(?:storms?|rain|snow|frost|showers|thunder(?:storms?)?|fog"
            r"|gales?|wind)\b[^.?!]{0,20}\b(?:expected|forecast|coming|due|on\s+the\s+way|(?:{now}))",
            examples=(
                "Are there storms expected tonight?",
                "We're driving up to Aviemore tonight after work, the four of us and far too "
                "much "
                "luggage, and I've not got winter tyres. Is there snow forecast on the A9 "
                "tonight?",
            ),
            near_misses=(
                "is there a flesh-and-blood person on the other end of this, or am I chatting to a "
                "program?",
            ),
        ),
        Rule(
            "weather.chance-risk-much",
            "weather",
            r"\b(?:chance|risk|any|much)\s+(?:of\s+)?(?:rain|showers|snow|storms?|thunder|frost|sun)\b[^.?"
            r"!]{0,30}\b(?:{now})",
            examples=(
                "How much rain will we get this week?",
                "Any chance of showers this afternoon?",
            ),
            near_misses=("How much memory this PC get? My oga dey ask",),
        ),
        Rule(
            "weather.temperature-temp-cold",
            "weather",
            r"\b(?:temperature|temp|how\s+(?:cold|hot|warm|windy|wet|sunny|nippy|parky|chilly))\b[^.?!]{0,"
            r"30}\b(?:{now})\b",
            examples=(
                "temp outside right now",
                "How cold will it be tonight?",
            ),
            near_misses=("what's the time right now",),
        ),
        # "the outlook for the Lake District this weekend", "hanging the washing out", "the sun
        # going to show up",
        # "what's it doing outside"
        Rule(
            "weather.outlook-today-tonight",
            "weather",
            r"\boutlook\s+for\b[^.?!]{0,40}\b(?:{now})\b|\bhang(?:ing)?\s+(?:the\s+|my\s+)?washing\s+out\b|\bs"
            r"un\s+(?:going\s+to|gonna|to)\s+(?:show|come\s+out|shine|make\s+an\s+appearance)\b|\bwhat'?s\s"
            r"+it\s+(?:doing|like)\s+(?:out\s+there|outside)\b",
            examples=(
                "What's it like outside in Glasgow right now?",
                "what's it doing outside in glasgow right now",
            ),
            near_misses=("what's petrol going for in Sydney right now",),
        ),
        Rule(
            "weather.rain-snow-frost",
            "weather",
            r"\b(?:is|will)\s+(?:there|it)\s+(?:be\s+)?(?:any\s+)?(?:rain|snow|frost|storms?|sun|wind|fog)"
            r"\b",
            examples=(
                "Will it rain tomorrow?",
                "Will there be frost tonight?",
            ),
            near_misses=("is there anything u CANT do lol, be honest",),
        ),
        Rule(
            "weather.need-take-bring",
            "weather",
            r"\b(?:need|take|bring|wear|pack)\s+(?:an?\s+|my\s+)?(?:umbrella|brolly|raincoat|coat|jacket|s"
            r"unscreen|sun\s*cream|wellies|gloves|scarf)\b(?!\s+(?:for\s+hiking|brand|size))",
            examples=(
                "do i need a jacket tonite",
                "Do I need sunscreen today?",
            ),
            near_misses=("How do I make a strong password?",),
        ),
        Rule(
            "weather.rain-snow-storm",
            "weather",
            r"\b(?:has|have)\s+the\s+(?:rain|snow|storm|wind|fog)\s+(?:stopped|cleared|eased)\b",
            examples=("Has the snow stopped in Aberdeen?",),
            near_misses=("has the newest iPhone landed in the shops yet?",),
        ),
        # the weather words and a time that is now or soon, in one sentence ("Will the roads be icy
        # tonight?")
        Rule(
            "weather.gonna-going-rain",
            "weather",
            r"\b(?:will|is|are|was|gonna|going\s+to)\b[^.?!]{0,30}\b(?:{wx})\b[^.?!]{0,25}\b(?:{now})\b",
            examples=(
                "is it gonna rain today",
                "Will it rain tomorrow?",
            ),
            near_misses=("Is it Tuesday today?",),
        ),
        Rule(
            "weather.like-outside",
            "weather",
            r"\b(?:what'?s|what\s+is|how'?s|how\s+is)\s+it\s+(?:like\s+)?outside\b",
            examples=("What's it like outside in Glasgow right now?",),
            near_misses=("what's petrol going for in Sydney right now",),
        ),
        # "coat or no coat for the school run tomorrow"
        Rule(
            "weather.coat-jacket-jumper",
            "weather",
            r"\b(?:coat|jacket|jumper|umbrella|brolly|shorts|layers?|scarf|gloves|boots)\b[^.?!]{0,30}\b(?"
            r":enough|needed|necessary)\b[^.?!]{0,30}\b(?:{now})\b|\b(?:bundle|wrap|layer)\s+up\b[^.?!]{0,30}\b(?:{now})"
            r"\b|\b(?:{now})\b[^.?!]{0,40}\b(?:bundle|wrap|layer)\s+up\b",
            examples=(
                "umbrella needed in dublin tmrw?",
                "is a light jacket enough for outside today or should I bundle up",
            ),
            near_misses=(
                "is setting a wake-up alarm for 6am something you can do or should i just use my "
                "phone",
            ),
        ),
        Rule(
            "weather.coat-umbrella-brolly",
            "weather",
            r"\b(?:coat|umbrella|brolly|jacket|jumper|sunscreen|shorts|wellies|raincoat|gloves)\s+or\s+(?:"
            r"no\s+)?(?:coat|umbrella|brolly|jacket|jumper|sunscreen|shorts|t-?shirt|wellies|raincoat|glov"
            r"es)\b",
            examples=(
                "Brolly or no brolly in Manchester tomorrow morning?",
                "coat or no coat for the school run tomorrow morning",
            ),
            near_misses=('what\'s the Welsh for "good morning"?',),
        ),
        Rule(
            "weather.like-right-today",
            "weather",
            r"\b(?:what'?s|what\s+is|how'?s|how\s+is)\s+it\s+(?:like\s+)?(?:out\s+)?(?:there|in\s+\w+)\s+("
            r"?:right\s+)?(?:now|today|at\s+the\s+moment|this\s+(?:morning|afternoon|evening))\b",
            examples=("landing in lisbon in about three hours, what's it like there right now",),
            near_misses=("what's the weather usually like in lisbon in october",),
        ),
        Rule(
            "weather.nice-lovely-pleasant",
            "weather",
            r"\bis\s+it\s+(?:nice|lovely|pleasant|grim|miserable|horrible|foul|bad|good|fine|bright|dull|c"
            r"old|hot|warm|chilly|freezing|wet|dry)\s+(?:out|outside|out\s+there)\b",
            examples=(
                "Is it nice out in Brighton?",
                "do i need a jacket tonight or is it warm out",
            ),
            near_misses=("Is it the 14th today or the 15th? I need to date a form.",),
        ),
        Rule(
            "weather.heat-waves-cold",
            "weather",
            r"\b(?:is|are)\s+(?:there\s+)?(?:an?\s+|any\s+)?(?:heat\s*waves?|cold\s+snaps?|blizzards?|hurr"
            r"icanes?|typhoons?|downpours?|hailstorms?|snowstorms?|storms?|cold\s+fronts?|floods?)\s+(?:co"
            r"ming|expected|forecast|due|on\s+the\s+way|heading|moving|likely)\b",
            examples=(
                "Are there storms expected tonight?",
                "Is there a storm coming this week?",
            ),
            near_misses=("what day is it even today, this week is a blur",),
        ),
    ],
    "recall": [
        Rule(
            "recall.talking-discussing-saying",
            "recall",
            r"\bwhat\s+(?:were|was)\s+(?:we|i)\s+(?:talking|discussing|saying|chatting|speaking)\b|\bour\s"
            r"+(?:chat|conversation|talk|discussion)\s+(?:from|on|last|yesterday|earlier|the\s+other)\b",
            examples=(
                "recap our conversation from mon",
                "What were we talking about before?",
            ),
            near_misses=("ok before we start, what should I call you?",),
        ),
        # "What was it I was grumbling to you about the other day?"
        Rule(
            "recall.ing-about-other",
            "recall",
            r"\b(?:i\s+was|we\s+were)\s+\w+ing\s+(?:to\s+you\s+|you\s+|on\s+)?about\b[^.?!]{0,20}\b(?:the\s"
            r"+other\s+(?:day|week|night)|yesterday|last\s+(?:time|week|night)|earlier|on\s+(?:{weekday}))"
            r"\b|\byou\s+(?:gave|sent|showed|told|recommended|suggested)\s+me\b[^.?!]{0,30}\b(?:a\s+while\s"
            r"+(?:back|ago)|the\s+other\s+day|yesterday|last\s+\w+|earlier|recently)\b",
            examples=(
                "that recipe you gave me last chat?",
                "what was that book you recommended me last week",
            ),
            near_misses=("What can you help me with?",),
        ),
        Rule(
            "recall.had-natter-chat",
            "recall",
            r"\b(?:we|you\s+and\s+i)\s+had\s+a\s+(?:natter|chat|talk|conversation|discussion|word)\s+about"
            r"\b",
            examples=(
                "a while back we had a natter about a book, which one had you recommended?",
                "a while back we had a natter about a book I ought to read, which one had "
                "you recommended?",
            ),
            near_misses=("are you able to look at a picture if i give you one",),
        ),
        # "that soup recipe we were talking about the other day"
        Rule(
            "recall.talking-chatting-talked",
            "recall",
            r"\b(?:that|the)\s+(?:[\w'-]+\s+){1,4}(?:we|you\s+and\s+i)\s+(?:were\s+)?(?:(?:talking|chattin"
            r"g|talked|chatted)\s+about|discussing|discussed)\b",
            examples=(
                "What was that restaurant we talked about?",
                "what was that recipie we talked about last tuesday?",
            ),
            near_misses=("What was the Watergate scandal actually about?",),
        ),
        Rule(
            "recall.had-talk-talked",
            "recall",
            r"\bwhat\s+(?:did|have|had)\s+(?:we|i)\s+(?:talk|talked|discuss|discussed|say|said|tell|told|m"
            r"ention|mentioned|speak|spoke|chat|chatted|ask|asked|decide|decided|agree|agreed|plan|planned"
            r")\b",
            examples=(
                "what did we talk abt yday",
                "What did I ask you last time?",
            ),
            near_misses=("What kinds of things do people ask you?",),
        ),
        Rule(
            "recall.tell-told-say",
            "recall",
            r"\bwhat\s+(?:did|have)\s+you\s+(?:tell|told|say|said|suggest|suggested|recommend|recommended|"
            r"advise|advised)\b|\bwhat\s+(?:advice|suggestions?)\s+did\s+you\b",
            examples=(
                "What advice did you give me about my back?",
                "What did you recommend for my back pain before?",
            ),
            near_misses=("What would you recommend for dinner?",),
        ),
        Rule(
            "recall.had-ever-already",
            "recall",
            r"\b(?:did|have|had)\s+i\s+(?:ever\s+|already\s+)?(?:tell|told|mention|mentioned|say|said|ask|"
            r"asked|share|shared)\b",
            examples=(
                "What did I ask you last time?",
                "What did I say about the holiday?",
            ),
            near_misses=("What did Lincoln say at Gettysburg?",),
        ),
        Rule(
            "recall.ever-talk-talked",
            "recall",
            r"\b(?:have|did)\s+we\s+(?:ever\s+)?(?:talk|talked|discuss|discussed|speak|spoken|chat|chatted"
            r")\b",
            examples=(
                "what did we talk abt yday",
                "What did we discuss last week?",
            ),
            near_misses=("What day of the week did the 4th of July 1776 fall on?",),
        ),
        # what we settled on together ("Did we ever settle on a name for the dog?")
        Rule(
            "recall.had-ever-already-2",
            "recall",
            r"\b(?:have|did|had)\s+(?:we|you\s+and\s+i)\s+(?:ever\s+|already\s+|finally\s+)?(?:settle|sett"
            r"led|decide|decided|agree|agreed|choose|chose|chosen|pick|picked|plan|planned|arrange|arrange"
            r"d|sort\s+out|sorted\s+out|figure\s+out|figured\s+out|come\s+up\s+with)\b",
            examples=(
                "What did we decide about the party?",
                "What did we decide about Christmas?",
            ),
            near_misses=("What did the Romans eat?",),
        ),
        Rule(
            "recall.earlier-before-last",
            "recall",
            r"\b(?:earlier(?:\s+on)?|before|last\s+time|the\s+other\s+day|yesterday|once)(?:\s+(?:this|las"
            r"t)\s+(?:week|month|morning|year))?\s*,?\s+(?:you|i|we)\s+(?:mentioned|said|told|suggested|re"
            r"commended|talked|discussed|brought\s+up|gave|showed|sent|wrote|shared|asked)\b|\b(?:you|i|we"
            r")\s+(?:said|told\s+me|mentioned|suggested|recommended|brought\s+up)\b[^.?!]{0,40}\b(?:earlie"
            r"r|before|last\s+time|the\s+other\s+day|yesterday|last\s+week|a\s+while\s+(?:back|ago)|recent"
            r"ly)\b|\bwhere\s+did\s+we\s+leave\s+(?:things|it|off)\b",
            examples=(
                "Have I mentioned my sister before?",
                "Have I mentioned my allergy before?",
            ),
            near_misses=("what's my bank PIN, i think i told you before",),
        ),
        # "go back over what we said", "Last month I told you about a film, which one was it?"
        Rule(
            "recall.talked-discussed-said",
            "recall",
            r"\bwhat\s+(?:we|i)\s+(?:talked|discussed|said|told\s+you|mentioned|spoke|chatted|agreed|decid"
            r"ed|planned)\b|\bwhat\s+you\s+(?:told|said\s+to|suggested\s+to|recommended\s+to)\s+me\b|\b(?:"
            r"i|you)\s+(?:once\s+)?(?:told|mentioned\s+to|recommended\s+to|suggested\s+to|showed)\s+(?:you"
            r"|me)\b(?=[^.!]*\?)",
            examples=(
                "Remind me what we discussed on Monday",
                "remind me what we talked about on monday",
            ),
            near_misses=("Remind me what day of the week we've landed on, would you?",),
        ),
        Rule(
            "recall.still-remember-recall",
            "recall",
            r"\b(?:do|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b(?!\s+(?:things|anything\s+at\s"
            r"+all|between|across|everything)\b)|\bremember\s+when\s+(?:i|we)\b",
            examples=(
                "Do you remember my daughter's name?",
                "Can you recall our chat about the garden?",
            ),
            near_misses=("Do you have a name?",),
        ),
        Rule(
            "recall.remind",
            "recall",
            r"\bremind\s+me\s+(?:of\s+)?what\s+(?:we|i|you)\b",
            examples=(
                "Remind me what we discussed on Monday",
                "remind me what we talked about on monday",
            ),
            near_misses=("Remind me what day of the week we've landed on, would you?",),
        ),
        Rule(
            "recall.last-previous-earlier",
            "recall",
            r"\b(?:our|my)\s+(?:last|previous|earlier|past|recent|first|other|old)\s+(?:conversations?|cha"
            r"ts?|talks?|discussions?|sessions?)\b",
            examples=(
                "Summarise our last conversation",
                "Show me my previous conversations",
            ),
            near_misses=("Tell me my bank PIN",),
        ),
        Rule(
            "recall.search-look-through",
            "recall",
            r"\b(?:search|look\s+through|check|find|go\s+through)\s+(?:in\s+)?(?:my|your|our)\s+(?:memory|"
            r"memories|chats|conversations|history)\b|\bfind\s+(?:our|the)\s+(?:conversation|chat)\b",
            examples=(
                "Find our conversation about the garden",
                "Search my memory for anything about Paris",
            ),
            near_misses=("tips for improving my memory before exams?",),
        ),
        Rule(
            "recall.last-first-time",
            "recall",
            r"\b(?:last|first)\s+time\s+(?:we|i)\s+(?:talked|spoke|chatted|discussed|met)\b",
            examples=(
                "what did i say abt the flight last time we chatted",
                "Can you summarise what we discussed last time we spoke?",
            ),
            near_misses=("What can you do?",),
        ),
        Rule(
            "recall.many-conversations-chats",
            "recall",
            r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+(?:first|last)\b|\bwhe"
            r"n\s+did\s+(?:i|we)\s+(?:last\s+|first\s+)?(?:mention|talk|discuss|say|tell|ask|bring\s+up)\b",
            examples=(
                "how many chats have we had this month?",
                "When did I last mention the dentist?",
            ),
            near_misses=("how many time zones does Russia have",),
        ),
        Rule(
            "recall.mentioned-recommended-discussed",
            "recall",
            r"\b(?:that|the)\s+(?:[\w-]+\s+){1,3}?(?:i|we)\s+(?:mentioned|recommended|discussed|talked\s+a"
            r"bout|made)\b|\b(?:that|the)\s+(?:[\w-]+\s+){1,3}?you\s+(?:gave|sent|showed|wrote|recommended"
            r"|suggested|mentioned)\s+(?:me|us)\b",
            examples=(
                "that recipe you gave me last chat?",
                "What was that restaurant we talked about?",
            ),
            near_misses=("What was the Watergate scandal actually about?",),
        ),
    ],
    "personal": [
        Rule(
            "personal.been-keeping-file",
            "personal",
            r"\b(?:you\s+were|you've\s+been|you're|you\s+are)\s+keeping\s+(?:on\s+file|for\s+me|a\s+note)\b"
            r"|\bon\s+file\s+for\s+me\b",
            examples=(
                "Which nut am I allergic to again, the one you were keeping on file for me?",
                "Bit worried I've forgotten which allergy I asked you to keep on file for me",
            ),
            near_misses=("hang on, what am I supposed to call you again?",),
        ),
        # a fact the butler was given to keep, asked for ("have you got my blood group stored?")
        Rule(
            "personal.still-got-stored",
            "personal",
            r"\b(?:have\s+you\s+(?:still\s+)?got|do\s+you\s+(?:still\s+)?have|you've\s+(?:still\s+)?got|yo"
            r"u\s+have)\s+(?:my|our)\s+[\w\s'-]{1,30}?\s+(?:stored|saved|on\s+(?:file|record)|noted|writte"
            r"n\s+down|kept)\b|\bkeep\s+(?:my|our)\s+[\w\s'-]{1,30}?\s+on\s+(?:file|record)\b|\b(?:i\s+sai"
            r"d|did\s+i\s+say)\s+i\s+(?:hail|come|am|was)\s+from\b|\bi\s+had\s+you\s+(?:remember|note|keep"
            r"|save|store|write\s+down)\b|\b(?:squirrel|tuck|file|put|stash)\s+(?:this|that|it)\s+away\b|\b"
            r"(?:until|till|til|before)\s+(?:my|our)\s+(?:birthday|anniversary|wedding\s+anniversary)\b|\b"
            r"(?:my|our)\s+[\w\s'-]{1,30}?\s+(?:is|are)\b[^.?!]{0,40}\b(?:keep|remember|note|save|store|ho"
            r"ld\s+on(?:to)?|hang\s+on(?:to)?)\s+(?:to\s+)?(?:that|this|it)\b|\byou've\s+got\s+it\s+(?:sav"
            r"ed|stored|on\s+file|noted)\b",
            examples=(
                "do you have my blood type on file",
                "My wife is called Anna, remember that",
            ),
            near_misses=("Remember my password is hunter2",),
        ),
        # "just so you know, I'm allergic to shellfish": a fact about me, given to be kept
        Rule(
            "personal.just-know-fyi",
            "personal",
            r"^\W*(?:just\s+so\s+you\s+know|fyi|for\s+the\s+record|for\s+your\s+(?:records|info(?:rmation)"
            r"?)|heads\s+up|for\s+(?:future\s+)?reference|note\s+(?:for|to)\s+(?:me|self|you)|just\s+a\s+n"
            r"ote)\W+(?:that\s+)?(?:i|i'm|im|my)\b",
            examples=(
                "note for me: i'm allergic to penicillin",
                "just so you know, I'm allergic to shellfish",
            ),
            near_misses=("remind me what I'm supposed to call you",),
        ),
        Rule(
            "personal.remember-note-keep",
            "personal",
            r"\b(?:remember|note|keep\s+in\s+mind|save|store|record|jot\s+down|write\s+down)\s*(?:down\s+)"
            r"?(?:for\s+later\s*[:,-]?\s*|for\s+(?:the\s+)?(?:future|next\s+time)\s+)?(?:that\s+|this\s*[:"
            r",-]\s*|[:,-]\s*|this\s+down\s*[:,-]?\s*)?(?:i\b|i'm\b|my\b)",
            examples=(
                "Remember I'm vegetarian",
                "Save my location as Paris",
            ),
            near_misses=("Search my memory for anything about Paris",),
        ),
        Rule(
            "personal.fyi-btw-also",
            "personal",
            r"^\W*(?:(?:fyi|btw|oh|also|ok|okay|so|hey|heads\s+up|for\s+the\s+record|just\s+so\s+you\s+kno"
            r"w)\W+)?(?:i|i'm|im|my)\b[^?]*[,.;]\s*(?:please\s+)?(?:remember|note|keep\s+(?:that|it|this)\s"
            r"+(?:in\s+mind|on\s+(?:file|record))|save|store)\b(?:\s+(?:that|it|this))?(?:\s+(?:for\s+late"
            r"r|for\s+next\s+time|for\s+me|going\s+forward|from\s+now\s+on))?(?:\s+please)?\s*[.!]?\s*$",
            examples=(
                "I'm vegetarian, keep that in mind",
                "I work as a nurse, please remember",
            ),
            near_misses=("Should I take a brolly to work this morning?",),
        ),
        Rule(
            "personal.update-change-set",
            "personal",
            r"\b(?:update|change|set|save)\s+my\s+(?:location|home\s*town|address|birthday|city|town|name|"
            r"time\s*zone|date\s+of\s+birth)\b|\bi(?:'ve|\s+have)\s+moved\s+to\b",
            examples=(
                "Change my city to Oxford",
                "Save my location as Paris",
            ),
            near_misses=("What's the password to my laptop?",),
        ),
        Rule(
            "personal.live-living-these",
            "personal",
            r"\bi\s+(?:now\s+)?(?:live|am\s+living|'m\s+living)\s+in\b[^.?!]{0,30}\b(?:now|these\s+days|up"
            r"date|remember|note)\b",
            examples=("I live in Bristol now, update that",),
            near_misses=("I live in a flat, can I keep a dog?",),
        ),
        Rule(
            "personal.where-live-city",
            "personal",
            r"\bwhere\s+do\s+i\s+live\b|\bwhat\s+(?:city|town|country)\s+(?:am\s+i|do\s+i\s+live)\s+in\b|\b"
            r"what(?:'s|\s+is)\s+my\s+(?:location|home\s*town|address|birthday|date\s+of\s+birth|city)\b|\b"
            r"(?:save|store|note|remember|add|put|keep)\s+(?:that|this|it)\s+(?:to|in|on|under)\s+my\s+(?:"
            r"profile|file|details|notes|record|records)\b|\bwhat\s+(?:i\s+have|i've)\s+(?:saved|stored|no"
            r"ted|given\s+you)\b|\bwhen(?:'s|\s+is|\s+was)\s+my\s+(?:(?:wife|husband|partner|son|daughter|"
            r"mum|mom|mother|dad|father|brother|sister|boss|friend|girlfriend|boyfriend)(?:'s|s')\s+)?(?:b"
            r"irthday|anniversary|name\s*day)\b|\bhave\s+you\s+(?:got\s+)?(?:that|it|this)\s+(?:saved|stor"
            r"ed|noted|on\s+file)\b|\b(?:you\s+(?:have|got)|you've)\s+(?:got\s+)?(?:saved|stored|noted|on\s"
            r"+file)\s+(?:about|on|for)\s+me\b|\bhow\s+old\s+am\s+i\b|\bwhere\s+do\s+i\s+(?:work|come\s+fr"
            r"om|study)\b|\b(?:do\s+you\s+know|remind\s+me|tell\s+me)\s+(?:where|when|what)\s+(?:i|my)\s+("
            r"?:live|work|was\s+born|study|come\s+from|grew\s+up|do\s+for\s+a\s+living)\b|\bwhat\s+do\s+i\s"
            r"+do\s+for\s+(?:a\s+living|work)\b|\bwho\s+do\s+i\s+work\s+for\b|\b(?:you|u)\s+(?:should\s+|m"
            r"ust\s+)?(?:have|have\s+got)\s+(?:that|it|this)\s+(?:saved|stored|noted|written\s+down)\b|\bw"
            r"hat(?:'s|s|\s+is|\s+are|\s+was)\s+my\s+(?:(?:wife|husband|partner|son|daughter|mum|mom|mothe"
            r"r|dad|father|brother|sister|dog|cat|boss|kids|children|girlfriend|boyfriend)(?:'s|s'|s)?\s+)"
            r"?(?:names?|birthday|age|job|occupation|allergies|blood\s+(?:type|group)|shoe\s+size|favou?ri"
            r"te\s+\w+)\b|\bwhat\s+i(?:'ve|\s+have)\s+told\s+you\s+about\s+myself\b|\b(?:i|i've)\s+(?:alre"
            r"ady\s+)?(?:saved|stored|noted)\s+(?:it|that|this|them)\b|\b(?:did|have)\s+i\s+(?:save|saved|"
            r"store|stored)\b|\b(?:what|where|when)\s+did\s+i\s+(?:tell\s+you|say)\s+(?:my|i)\b|\bwhat\s+("
            r"?:do\s+you\s+know|have\s+you\s+(?:stored|saved|got))\s+about\s+me\b",
            examples=(
                "How old am I?",
                "Where do I live?",
            ),
            near_misses=("Where do penguins live?",),
        ),
    ],
    "web": [
        # a result or a price that changes ("how did Leicester get on last night?", "the cheapest
        # Dyson at the moment")
        Rule(
            "web.get-fare-play",
            "web",
            r"\bhow\s+did\s+(?!I\b)[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+)?\s+(?:get\s+on|do|fare|play|get\s+on)"
            r"\b[^.?!]{0,20}\b(?:last\s+night|yesterday|today|tonight|this\s+(?:weekend|afternoon|morning|"
            r"evening)|at\s+the\s+weekend)\b",
            examples=("how did Leicester get on last night?",),
            near_misses=("how did the days of the week get their names",),
            flags=0,
        ),
        Rule(
            "web.cheapest-moment-right",
            "web",
            r"\bcheapest\b[^.?!]{0,40}\b(?:at\s+the\s+moment|right\s+now|today|currently)\b|\b(?:doing\s+a"
            r"\s+deal|on\s+offer\s+(?:now|today|anywhere))\b",
            examples=("where's the cheapest Dyson V15 at the moment, anywhere doing a deal?",),
            near_misses=("What's the clock saying at the moment, roughly?",),
        ),
        Rule(
            "web.got-fared-played",
            "web",
            r"\bhow\s+(?!I\b)[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+)?\s+(?:got\s+on|did|fared|played)\b[^.?!]{0,"
            r"30}\b(?:last\s+night|yesterday|today|tonight|this\s+(?:weekend|afternoon|morning|evening)|at"
            r"\s+the\s+weekend)\b",
            examples=("Any idea how Arsenal got on against Spurs last night?",),
            near_misses=("how much space have I got left on the hard drive",),
            flags=0,
        ),
        Rule(
            "web.match-game-race",
            "web",
            r"\bhow\s+did\s+the\s+(?:match|game|race|fight|final|derby|test)\b[^.?!]{0,30}\b(?:go|end)\b",
            examples=("How did the match at Anfield go last night, who came out on top?",),
            near_misses=("How long ago did the dinosaurs die out?",),
        ),
        Rule(
            "web.going-moment-right",
            "web",
            r"\bgoing\s+for\b[^.?!]{0,20}\b(?:at\s+the\s+moment|right\s+now|now|today|these\s+days)\b|\b(?"
            r":has|have|did)\s+(?!I\b)[A-Z][\w-]+\s+(?:announced|released|launched|unveiled)\b",
            examples=(
                "what's bitcoin going for at the moment",
                "what's petrol going for in Sydney right now",
            ),
            near_misses=("What's the clock saying at the moment, roughly?",),
        ),
        # news not known until it is: "has the new iPhone been announced yet"
        Rule(
            "web.been-announced-released",
            "web",
            r"\b(?:been|is|was|were)\s+(?:announced|released|launched|confirmed|revealed)\s+yet\b|\b(?:dro"
            r"pped|landed)\s+yet\b|\b(?:landed|arrived|hit)\s+(?:in\s+)?(?:the\s+)?(?:shops|stores|shelves"
            r")\b|\bwho\s+(?:came\s+out\s+on\s+top|won)\b[^.?!]{0,40}\b(?:last\s+night|yesterday|today|ton"
            r"ight|this\s+weekend)\b|\b(?:come|came)\s+out\s+yet\b",
            examples=(
                "Who won the match yesterday?",
                "Who won the match last night?",
            ),
            near_misses=("who won the 1998 world cup",),
        ),
        Rule(
            "web.search-google-made",
            "web",
            r"\b(?:search|google(?![?,.]|\s+(?:or|and|made|built|people|model|ai)\b)|look\s+up|look\s+onli"
            r"ne|check\s+online|find\s+online|browse)\b(?!\s+engines?\b)(?!\s+what\s+(?:i|you|we)\s+(?:hav"
            r"e\s+|'ve\s+)?(?:saved|stored|told|said|noted))(?!\s+(?:in\s+|through\s+)?(?:my|your|our)\s+("
            r"?:memory|memories|chats|conversations|history)\b)",
            examples=(
                "Google the population of Lagos",
                "Search for cheap flights to Dublin",
            ),
            near_misses=("what's the capital of Nigeria, Lagos or Abuja",),
        ),
        Rule(
            "web.news-headlines-breaking",
            "web",
            r"\b(?:news|headlines|breaking)\b[^.?!]{0,30}\b(?:{now})\b|\b(?:today'?s|latest|this\s+morning'?s)"
            r"\s+(?:top\s+)?(?:news|headlines|stories)\b",
            examples=(
                "latest news on openai",
                "What's the news today?",
            ),
            near_misses=("what's the date today",),
        ),
        Rule(
            "web.happening-going-today",
            "web",
            r"\bwhat(?:'s|\s+is)\s+(?:happening|going\s+on)\b[^.?!]{0,30}\b(?:today|now|in\s+the\s+world|i"
            r"n\s+the\s+news)\b|\bwhat\s+(?:are|is)\s+(?:people|everyone|reviewers|critics)\s+saying\b|\b("
            r"?:find|get)\s+(?:me\s+)?(?:reviews|news|prices|results|the\s+latest)\b|\bcheck\s+(?:if|wheth"
            r"er)\b(?![^.?!]*\b(?:my|this)\s+(?:computer|disk|file|machine|laptop)\b)",
            examples=(
                "Find me reviews of the Pixel 9",
                "Find reviews of the new Kindle",
            ),
            near_misses=("Tell me about the history of clocks",),
        ),
        Rule(
            "web.ahead-happen-win",
            "web",
            r"\bdid\s+(?:the\s+)?\w+(?:\s+\w+)?\s+(?:go\s+ahead|happen|win|lose|get\s+\w+)\b[^.?!]{0,20}\b"
            r"(?:today|this\s+morning|yesterday|last\s+night|this\s+week)\b",
            examples=(
                "did arsenal win last night",
                "did arsenal win last night?",
            ),
            near_misses=("What did we discuss last week?",),
        ),
        Rule(
            "web.latest-about-today",
            "web",
            r"\bthe\s+latest\s+(?:on|about|with|from|in)\b|\b(?:latest|today'?s|breaking|recent)\s+(?:news"
            r"|headlines|updates?|results?|scores?)\b|\b(?:news|headlines)\s+(?:about|on|from|today)\b|\ba"
            r"ny\s+(?:news|updates?)\b",
            examples=(
                "latest news on openai",
                "What's the news today?",
            ),
            near_misses=("what's the date today",),
        ),
        Rule(
            "web.much-one-worth",
            "web",
            r"\bhow\s+much\s+(?:is|are|does|do)\s+(?:an?\s+|one\s+)?\w+(?:\s+\w+)?\s+(?:worth\s+|cost\s+|t"
            r"rading\s+at\s+|going\s+for\s+|selling\s+for\s+)?(?:{now})\b",
            examples=(
                "how much is bitcoin right now",
                "How much is a bitcoin worth right now?",
            ),
            near_misses=("How much RAM is free right now?",),
        ),
        Rule(
            "web.price-cost-value",
            "web",
            r"\b(?:price|cost|value|worth|trading\s+at|exchange\s+rate|score|odds)\b[^.?!]{0,40}\b(?:{now})\b",
            examples=(
                "btc price rn",
                "q: arsenal score today",
            ),
            near_misses=("time rn?",),
        ),
        Rule(
            "web.won-past-last",
            "web",
            r"\bwho\s+won\b[^.?!]{0,40}\b(?:this\s+past\s+\w+|last\s+(?:{weekday}|weekend)|on\s+(?:{weekday}"
            r"))\b",
            examples=(
                "Who won the Formula 1 race this past Sunday?",
                "Who won the SEC championship game last weekend, y'all?",
            ),
            near_misses=("who won the 1998 world cup",),
        ),
        Rule(
            "web.won-last-night",
            "web",
            r"\bwho\s+won\b[^.?!]{0,40}\b(?:last\s+night|yesterday|today|this\s+(?:week|weekend|year)|at\s"
            r"+the\s+weekend)\b",
            examples=(
                "Who won the match yesterday?",
                "Who won the match last night?",
            ),
            near_misses=("who won the 1998 world cup",),
        ),
        Rule(
            "web.score-find-when",
            "web",
            r"\bwhat(?:'s|\s+is)\s+the\s+score\b|\bfind\s+out\s+(?:when|where|whether|if|what|who|how)\b",
            examples=(
                "Find out when the library opens",
                "what's the score in the Old Firm game right now",
            ),
            near_misses=("What's the temperature in Rome right now?",),
        ),
        Rule(
            "web.happened-yesterday-today",
            "web",
            r"\bwhat\s+happened\b[^.?!]{0,40}\b(?:yesterday|today|last\s+night|this\s+(?:morning|week))\b",
            examples=("What happened in the election yesterday?",),
            near_misses=("what happened in the year 1066",),
        ),
        Rule(
            "web.current-latest-today",
            "web",
            r"\b(?:current|latest|today'?s|live)\s+(?:price|value|exchange\s+rate|score|odds)\b|\bwhat(?:'"
            r"s|s|\s+is)\s+(?:\w+\s+){1,4}?(?:at|trading\s+at|going\s+for|selling\s+for)\s+(?:in\s+\w+\s+)"
            r"?(?:{now})\b",
            examples=(
                "what's bitcoin at today",
                "current price of bitcoin?",
            ),
            near_misses=("What's today?",),
        ),
        Rule(
            "web.latest-newest-stable",
            "web",
            r"\b(?:latest|newest)\s+(?:stable\s+)?(?:[\w.+#-]+\s+){0,2}(?:version|release)\b",
            examples=(
                "latest stable rust version?",
                "ask: latest ios version out?",
            ),
            near_misses=("ask: month rn?",),
        ),
        Rule(
            "web.come-been-released",
            "web",
            r"\b(?:come\s+out|been\s+released|released|launched|out)\s+yet\b|\b(?:is|are)\s+(?:the\s+)?(?:"
            r"[\w'.-]+\s+){1,5}?open\s+(?:on|today|tomorrow|now|at|until|late|this)\b",
            examples=(
                "has the new iPhone come out yet?",
                "has the new zelda game come out yet",
            ),
            near_misses=("what year did the very first iphone come out",),
        ),
        Rule(
            "web.opening-hours-times",
            "web",
            r"\bopening\s+(?:hours|times)\b|\b(?:is|are)\s+(?:the\s+)?\w+\s+open\s+(?:on|today|tomorrow|no"
            r"w)\b",
            examples=(
                "Look up the opening times for Kew Gardens",
                "Look up the opening hours of the British Museum",
            ),
            near_misses=("Look through our chats for the wifi problem",),
        ),
    ],
    "system": [
        Rule(
            "system.old-computer-laptop",
            "system",
            r"\b(?:this|my)\s+(?:old\s+)?(?:computer|laptop|machine|pc)\b[^.?!]{0,30}\b(?:run(?:ning)?\s+o"
            r"ut\s+of\s+(?:room|space|storage|memory)|full\s+up)\b",
            examples=(
                "is this old computer about to run out of room? it keeps whining about storage",
            ),
            near_misses=("Is it going to rain this afternoon?",),
        ),
        Rule(
            "system.battery-laptop-computer",
            "system",
            r"\bbattery\b[^.?!]{0,20}\b(?:on|of|in)\s+(?:this|my)\s+(?:laptop|computer|machine|pc)\b|\b(?:"
            r"hogging|eating|using\s+up|maxing\s+out|chewing\s+up)\s+(?:all\s+)?(?:the\s+|my\s+)?(?:proces"
            r"sor|cpu|memory|ram|disk)\b",
            examples=(
                "battery % on this laptop?",
                "what's the battery at on this machine",
            ),
            near_misses=("what's the admin password for this machine?",),
        ),
        Rule(
            "system.long-computer-machine",
            "system",
            r"\bhow\s+long\s+has\s+(?:this|my|the)\s+(?:computer|machine|laptop|pc|box|server|system)\s+be"
            r"en\s+(?:up|on|running)\b",
            examples=(
                "how long has this machine been up",
                "How long has this box been up without a reboot?",
            ),
            near_misses=("How long until midnight?",),
        ),
        Rule(
            "system.computer-machine-laptop",
            "system",
            r"\b(?:my|this|the)\s+(?:computer|machine|laptop|pc|desktop|system|box|server)(?:'s)?\s+(?:spe"
            r"cs|health|status|load|usage|memory|ram|cpu|disk|storage|uptime|resources|doing|running)\b",
            examples=(
                "Check my system's health",
                "Check my computer's health",
            ),
            near_misses=("my bday?",),
        ),
        Rule(
            "system.cpu-processor-ram",
            "system",
            r"\b(?:cpu|processor|ram|memory|disk|storage|drive|swap)\s+(?:usage|use|load|space|left|free|f"
            r"ull|busy)\b|\bhow\s+(?:much|many)\s+(?:free\s+|spare\s+|available\s+|empty\s+|remaining\s+)?"
            r"(?:disk|storage|ram|memory|space|cores)\b[^.?!]{0,30}\b(?:left|free|used|using|in\s+use|this"
            r"|my|here)\b",
            examples=(
                "Is my disk full?",
                "ram + cpu load rn",
            ),
            near_misses=("When is my birthday?",),
        ),
        Rule(
            "system.disk-drive-hard",
            "system",
            r"\b(?:is|how)\s+(?:my|the|this)\s+(?:disk|drive|hard\s+drive|cpu|processor|memory|ram|compute"
            r"r|machine|laptop)\s+(?:full|busy|doing|holding\s+up|ok|okay|running\s+(?:hot|slow|out))\b|\b"
            r"how\s+(?:busy|full|loaded|hot)\s+is\s+(?:my|the|this)\s+(?:hard\s+)?(?:disk|drive|cpu|proces"
            r"sor|memory|ram|computer|machine|laptop)\b|\b(?:is|are)\s+(?:my|the|this)\s+(?:hard\s+)?(?:di"
            r"sk|drive|cpu|processor|memory|ram|computer|machine|laptop)\s+(?:nearly|almost|getting|too|ve"
            r"ry|really|still)\s+(?:full|busy|hot|slow|overloaded)\b|\b(?:my|this|the)\s+(?:cpu|processor|"
            r"computer|machine|laptop|disk|drive|ram|memory)\s+(?:doing|up\s+to)\b",
            examples=(
                "Is my disk full?",
                "What's my CPU doing?",
            ),
            near_misses=("When is my birthday?",),
        ),
        Rule(
            "system.computer-machine-laptop-2",
            "system",
            r"\b(?:my|this|the)\s+(?:computer|machine|laptop|pc|desktop|mac)(?:'s|\s+is|\s+been|\s+feels|\s"
            r"+seems|\s+running)?\s+(?:so\s+|really\s+|very\s+|super\s+)?(?:slow|sluggish|laggy|crawling|f"
            r"reezing\s+up|hot|noisy|loud|overheating)\b",
            examples=(
                "Is my computer running hot?",
                "why is my computer so slow today",
            ),
            near_misses=("Is this chat running on my own computer?",),
        ),
        Rule(
            "system.laptop-computer-battery",
            "system",
            r"\b(?:my|the|this)\s+(?:laptop'?s\s+|computer'?s\s+)?battery\s+(?:sitting\s+at|at|level|perce"
            r"ntage|charge|left|status)\b|\bpercent(?:age)?\b[^.?!]{0,20}\b(?:my|the)\s+battery\b",
            examples=(
                "whats my battery at",
                "what's my battery at",
            ),
            near_misses=("what's bitcoin at today",),
        ),
        Rule(
            "system.battery-level-percentage",
            "system",
            r"\bwhat(?:'s|s|\s+is)\s+(?:my|the)\s+battery\b|\bwhat\s+battery\b|\bbattery\s+am\s+i\s+on\b|\b"
            r"battery\s+(?:level|percentage|charge|status|left)\b|\bhow\s+much\s+battery\b",
            examples=(
                "whats my battery at",
                "battery percentage?",
            ),
            near_misses=("whats my wifes birthday again, i saved it at some point",),
        ),
        Rule(
            "system.something-anything-using",
            "system",
            r"\b(?:what(?:'s|s|\s+is)|which\s+\w+\s+(?:is|are)|is\s+(?:something|anything))\s+(?:using|eat"
            r"ing|hogging|taking\s+up|filling\s+up|slowing\s+down)\s+(?:all\s+)?(?:of\s+)?(?:my|the|this)\s"
            r"+(?:ram|memory|cpu|disk|space|storage|processor|battery|computer|machine|laptop)\b",
            examples=(
                "What's using all my RAM right now?",
                "what's eating all my RAM at the moment",
            ),
            near_misses=("what's the bitcoin price at the moment",),
        ),
        Rule(
            "system.operating-system-version",
            "system",
            r"\b(?:which|what)\s+(?:operating\s+system|os|version\s+of\s+\w+)\b[^.?!]{0,30}\b(?:this|my|he"
            r"re|installed|running|am\s+i)\b",
            examples=(
                "which version of windows am i on here",
                "What version of Python is installed here?",
            ),
            near_misses=("Which AI am I chatting with here?",),
        ),
    ],
    "files": [
        Rule(
            "files.rule",
            "files",
            r"(?:^|\s)(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*",
            examples=(
                "What's in /etc/hosts?",
                "q: whats in /etc/hosts",
            ),
            near_misses=("What's the weather in London?",),
        ),
        Rule(
            "files.txt-pdf-csv",
            "files",
            r"(?<![\w-])[\w-]+\.(?:txt|md|pdf|csv|json|log|ya?ml|toml|ini|conf|cfg|py|docx?|xlsx?|html?|png|jpe?g|"
            r"gif|webp)\b",
            examples=(
                "whats in todo.md",
                "What does ~/todo.md say?",
            ),
            near_misses=("What does the .md extension mean?",),
        ),
    ],
}
# a file name in a general question is not a file to read: "What's a .csv file?"
_FILEGENERAL = Rule(
    "file-general.file-open-read",
    "file-general",
    r"\b(?:what(?:'s|\s+is)\s+an?\s+\.?\w+\s+file|how\s+do\s+i\s+(?:open|read|write|parse|create)|"
    r"extension|format)\b",
    examples=(
        "What's a CSV file?",
        "what is a csv file",
    ),
    near_misses=("What is a file system?",),
)


# Concrete tools for a need; which one of several the question's wording picks.
_RECALL_TIME = Rule(
    "recall-time.yesterday-last-week",
    "recall-time",
    r"\b(?:yesterday|last\s+(?:week|month|year|night|{weekday})|(?:this|that)\s+(?:morning|week)|i"
    r"n\s+(?:{month})|on\s+(?:{weekday})|\d+\s+(?:days|weeks|months)\s+ago|the\s+other\s+(?:day|we"
    r"ek|night)|a\s+while\s+(?:back|ago)|earlier\s+(?:this|in\s+the)\s+week)\b",
    examples=(
        "typical wx lisbon in may",
        "did arsenal win last night",
    ),
    near_misses=("When did I last mention the dentist?",),
)
_RECALL_LIST = Rule(
    "recall-list.list-show-conversations",
    "recall-list",
    r"\b(?:list|show)\b[^.?!]{0,20}\b(?:conversations|chats)\b",
    examples=("Show me my previous conversations",),
    near_misses=("Tell me my bank PIN",),
)
_RECALL_STATS = Rule(
    "recall-stats.many-conversations-chats",
    "recall-stats",
    r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+first\b",
    examples=("how many conversations have we had so far?",),
    near_misses=("how many time zones does Russia have",),
)
_STORE = Rule(
    "store.remember-note-save",
    "store",
    r"\b(?:remember|note|save|store|record|keep\s+in\s+mind|update|change|set)\b|\bi(?:'ve|\s+have"
    r")\s+moved\b",
    examples=(
        "can u set alarms?",
        "store my pin 4412 pls",
    ),
    near_misses=("what can u do",),
)

USUALLY = Rule(
    "climate.usually-typically-normally",
    "climate",
    r"\b(?:usually|typically|normally|generally|in\s+general|on\s+average|as\s+a\s+rule|each\s+yea"
    r"r|every\s+year|climate)\b|\bice\s+age\b|\bprehistoric\b|\bhistorically\b|\bin\s+history\b|\b"
    r"dinosaurs?\b|\b(?:battle|siege|war|coronation|landings?|eruption)\s+of\b|\b(?:in|during)\s+("
    r"?:the\s+)?(?:\d{3,4}s?|middle\s+ages|ancient\s+\w+|\w+\s+(?:century|era|period|war))\b|\bon\s"
    r"+(?:mercury|venus|mars|jupiter|saturn|uranus|neptune|pluto|titan|europa|io|the\s+moon|other\s"
    r"+planets?|an?\s+(?:planet|exoplanet|moon))\b|\bin\s+space\b|\bin\s+(?:the\s+)?(?:summer|wint"
    r"er|spring|autumn|fall|{month})\b",
    examples=(
        "typical wx lisbon in may",
        "How long is a day on Mars?",
    ),
    near_misses=("How many minutes are in a day?",),
)


# a question about how things usually are asks for no lookup ("how do you free up disk space, in
# general")
_IN_GENERAL = Rule(
    "in-general.general-generally-usually",
    "in-general",
    r"\b(?:in\s+general|generally|usually|typically|normally|as\s+a\s+rule|on\s+average)\b|\bforec"
    r"asters?\b|\bsupposed\s+to\s+mean\b|\bwhat\s+does\s+the\s+\w+\s+mean\b|\bwhere\s+should\b|\b("
    r"?:what|which)\s+(?:command|cmd)\b|^\W*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-"
    r"]+)?\s+and\s+(?:how|why|what|when)\b|\b(?:the|an?|that)\s+(?:old\s+)?(?:rhyme|saying|proverb"
    r")\b|\bwhat\s+does\s+(?:that|it|this)\s+(?:actually\s+|really\s+)?mean\b|traditionally|\b(?:a"
    r"lways\s+said|used\s+to\s+say|old\s+wives|folklore|proverb|any\s+truth\s+in|is\s+it\s+true\s+"
    r"(?:that\s+)?you\s+can)\b|\bwho\s+was\s+the\s+(?:very\s+)?first\b|\b(?:symboli[sz]e|symbolism"
    r"|symboli[sz]es|metaphor|represents?|signif(?:y|ies))\b|\bin\s+the\s+(?:book|novel|film|movie"
    r"|poem|play|song|story)\b|\b(?:cmd|command|commands|code|syntax|script|shortcut|formula)\s+(?"
    r":to|for)\b|\bhow\s+to\b",
    examples=(
        "how to make strong pw",
        "tar cmd to extract .gz",
    ),
    near_misses=("how do i make a strong password that's easy to remember",),
)


# words one of which every rule of a need requires (tests check they never change a decision)
GATES = gates(
    {
        "weather": "bundle wrap layer layers boots like chuck pelt pelting lash lashing tip temp "
        "arvo "
        "fcst weather "
        "forecast rain raining rainy showers "
        "shower drizzle snow snowing sleet hail "
        "sunny "
        "sunshine "
        "cloudy overcast foggy fog misty windy wind gale gales storm storms stormy thunder "
        "thunderstorm "
        "thunderstorms frost frosty icy freezing cold chilly warm hot mild humid dry wet "
        "temperature "
        "umbrella brolly raincoat coat jacket sunscreen sun suncream wellies gloves scarf "
        "outside out "
        "heatwave heat blizzard blizzards hurricane hurricanes typhoon typhoons downpour "
        "downpours hailstorm "
        "snowstorm snowstorms storm flood floods snap snaps front fronts pour pouring bucket "
        "bucketing "
        "tipping chucking freeze sky skies outlook washing doing nippy parky sweltering "
        "scorching",
        "recall": "talk talked talking discuss discussed discussing say said saying tell told "
        "mention "
        "mentioned speak "
        "spoke spoken speaking chat chats chatted chatting ask asked decide decided agree "
        "agreed plan planned "
        "suggest suggested recommend recommended advise advised advice suggestion suggestions "
        "share shared "
        "remember recall remind conversation conversations talks discussion discussions "
        "session sessions "
        "memory memories history messages made met settle settled choose chose chosen pick "
        "picked arrange "
        "arranged sort sorted figure figured come showed brought earlier gave sent wrote "
        "before "
        "yesterday natter we us our i me my you your",
        "personal": "remember note keep save store record update change set moved live location "
        "hometown home town "
        "address birthday city country know stored saved got birth old age job occupation "
        "allergies "
        "favourite favorite name names work anniversary saved noted come study living file "
        "profile add put "
        "details notes records given blood type group shoe size stored just fyi heads info "
        "information "
        "reference jot myself keeping said hail squirrel tuck stash away hold hang "
        "self say tell write",
        "web": "yet released launched out open current live price value at latest newest version "
        "release much search "
        "google look check find browse "
        "web internet news online "
        "todays breaking recent headlines "
        "updates update results scores score price cost value exchange rate odds won happening "
        "going saying "
        "reviews prices happened opening open ahead happen win lose get worth trading did fare "
        "cheapest deal offer "
        "got fared played announced unveiled dropped landed",
        "system": "slow sluggish laggy crawling hot noisy loud overheating something anything "
        "computer "
        "machine laptop pc "
        "desktop system box server cpu processor ram memory disk "
        "storage drive "
        "battery swap space cores operating os version specs health status uptime long",
    }
)


_RECENT = Rule(
    "recent.last-night-yesterday",
    "recent",
    r"\b(?:last\s+night|yesterday|this\s+(?:morning|afternoon|evening|weekend)|at\s+the\s+weekend)"
    r"\b",
    examples=(
        "did arsenal win last night",
        "Are you free this evening?",
    ),
    near_misses=("Who are you?",),
)
_WHY_THIS_MACHINE = Rule(
    "this-machine.why-machine-computer",
    "this-machine",
    r"^\W*why\s+is\s+(?:this|my)\s+(?:machine|computer|laptop|pc|mac|desktop)\b",
    examples=(
        "why is my computer so slow today",
        "Why is my laptop fan so loud sometimes, generally speaking?",
    ),
    near_misses=("my computer is so slow today, what's using all the memory?",),
)


# about now or soon: a lesson or a climate that names a time like this is a lookup after all
NOW = Rule(
    "now.today-tonight-tomorrow",
    "now",
    r"\b(?:{now})\b",
    examples=("Is it usually rainy in Lisbon in May, and is it raining there now?", "wx ldn tmrw?"),
    near_misses=("Is it usually rainy in Lisbon in May?",),
)

BOOK = Rulebook(
    "routing.needs",
    [
        *(rule for rules in TOOL_RULES.values() for rule in rules),
        GENERAL,
        _FILEGENERAL,
        _RECALL_TIME,
        _RECALL_LIST,
        _RECALL_STATS,
        _STORE,
        USUALLY,
        _IN_GENERAL,
        _RECENT,
        _WHY_THIS_MACHINE,
        NOW,
    ],
)


def lesson(need: str, text: str) -> bool:
    """Whether the message asks about the topic in general (a lesson, a climate, a saying), not for
    a lookup now; the rules and the classifier both defer to it."""
    general = (
        GENERAL.search(text)
        or _IN_GENERAL.search(text)
        or (need == "weather" and USUALLY.search(text))
    )  # a climate, not a forecast
    # "why is this machine so sluggish" is about this machine; "how did Leicester get on last
    # night" about last night's match: neither is a lesson
    mine = (need == "system" and _WHY_THIS_MACHINE.search(text)) or (
        need == "web" and _RECENT.search(text)
    )
    return bool(general) and not NOW.search(text) and not mine


def tool_rule(need: str, text: str, *, credential: bool = False) -> bool:
    """Whether a rule is sure the message needs this tool; never for a credential to keep."""
    if need in ("personal", "recall") and credential:
        # a credential is never kept as a personal fact, nor looked up in past conversations
        return False
    if need == "files" and "/" not in text and "." not in text:
        return False
    if not is_open(GATES.get(need), words(text)):
        return False  # (checked before any pattern is compiled: most messages stop here)
    if not any(p.search(text) for p in TOOL_RULES.get(need, ())):
        return False
    return not lesson(need, text) and not (need == "files" and _FILEGENERAL.search(text))


def tool_keys(need: str, text: str) -> list[str]:
    """The registry's tools for a need ("weather", "recall", ...), picked by the wording."""
    if need == "recall":
        if _RECALL_STATS.search(text):
            return ["conversation_stats"]
        if _RECALL_LIST.search(text):
            return ["list_conversations"]
        return ["recall_memories_with_time" if _RECALL_TIME.search(text) else "recall_memories"]
    if need == "personal":
        return ["set_personal_variable" if _STORE.search(text) else "get_personal_variable"]
    return {
        "weather": ["get_weather_forecast"],
        "web": ["web_search"],
        "system": ["get_system_info"],
        "files": ["analyze_file"],
    }.get(need, [])
