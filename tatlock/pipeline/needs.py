"""The tool needs the rules are sure of: the weather, earlier conversations, the user's saved
facts, the web, this computer, a file. Each rule is about now, here, me or our conversations,
so a match is sure: the tool runs even when the model answers directly (a small model cannot
know the weather, what was said last week, or this computer's disk). A general question about
the same topic ("Why is the sky blue?", "What is a CPU?", "Is it hot in Dubai in summer?")
is left to the model.
"""

from __future__ import annotations

import re

from tatlock.pipeline.patterns import I as _I
from tatlock.pipeline.patterns import Lazy as _Lazy
from tatlock.pipeline.patterns import gates, is_open, words

NOW = (r"(?:today|tonight|tomorrow|tmrw|tmr|this\s+arvo|just\s+now|now|rn|right\s+now|currently|at\s+the\s+moment|"
        r"this\s+(?:morning|afternoon|evening|week|weekend)|later|outside|out\s+there|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r"(?:next|this)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)|over\s+the\s+weekend|"
        r"this\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))")
_WX = (r"(?:rain|raining|rainy|showers?|drizzle|snow|snowing|sleet|hail|sunny|sunshine|cloudy|overcast|foggy|fog|misty|"
       r"pour(?:ing)?\s+down|bucket(?:ing)?\s+down|tip(?:ping)?\s+(?:it\s+)?down|chuck(?:ing)?\s+it\s+down|"
       r"pelt(?:ing)?\s+down|lash(?:ing)?\s+down|"
       r"windy|wind|gales?|storms?|stormy|thunder(?:storms?)?|frost|frosty|icy|freeze|freezing|cold|chilly|warm|hot|mild|"
       r"humid|dry|wet|nippy|parky|sweltering|scorching|pour(?!\s+(?:the|a|some|it|me|you|us|them|out|over|in\s+(?:the|a|some))\b))")
# A general question about a topic is not a request to look it up: "Why is the sky blue?",
# "How do weather forecasts work?", "What is a CPU?"
GENERAL = _Lazy(r"\b(?:what'?s|what\s+is)\s+the\s+difference\s+between\b|"
                 r"^\s*(?:why\b|explain\b|define\b|what\s+(?:is|are)\s+(?:a|an)\b|what\s+(?:is|are)\s+[\w-]+\s*\?\s*$|"
                 r"what\s+causes\b|how\s+(?:does|do|did)\s+"
                      r"(?!i\b|you\b|we\b|my\b)|how\s+(?:do|can|should|would)\s+i\s+(?!need\b|look\b)|"
                      r"what\s+does\s+.{1,30}\s+mean\b|write\s+(?:a|me\s+a)\b|"
                      r"(?:can|could|would)\s+you\s+(?:please\s+|kindly\s+|briefly\s+|quickly\s+)?explain\b|"
                      r"(?:any|some|good|best|top|quick)\s+(?:tips|tricks|advice|ideas|ways)\b|"
                      r"who\s+(?:invented|wrote|discovered|painted|founded|designed|composed|directed|came\s+up\s+with|"
                      r"introduced|named)\b|"
                      r"(?:(?:can|could|would)\s+you\s+(?:please\s+)?tell\s+me|do\s+you\s+know|i\s+wonder|"
                      r"tell\s+me)\s+(?:why|how\s+(?:does|do|did|come))\b|"
                      # the generic "you" of a lesson: "How do you call a group of crows?"
                      r"(?:how|what)\s+do\s+you\s+(?:call|say|spell|pronounce|write|make|cook|boil|bake|check|find|see|"
                      r"free\s+up|clear|fix|"
                      r"convert|calculate|measure|tell\s+(?:if|whether|when)|know\s+(?:if|whether|when))\b|tell\s+me\s+about\s+(?:the\s+)?history\b|"
                      # something made up about a topic asks for no lookup ("a joke about the weather")
                      r"(?:tell|write|give)\s+(?:me\s+)?an?\s+(?:joke|poem|story|limerick|haiku|riddle|song|pun)\b)",
                 _I)

TOOL_RULES: dict[str, list[_Lazy]] = {
    "weather": [
        # "what the skies are doing over Dublin this evening"
        _Lazy(rf"\bsk(?:y|ies)\b[^.?!]{{0,30}}\b(?:doing|look(?:ing)?|like|shaping\s+up)\b[^.?!]{{0,30}}\b{NOW}\b", _I),
        _Lazy(r"\b(?<!under\s)(?<!under\sthe\s)(?:weather|forecast|fcst)\b(?!\s+(?:forecasting|models?|station|"
                   r"balloon|vane))", _I),
        _Lazy(rf"\b(?:will|is|was|has)\s+(?:it|today|tonight|tomorrow|the\s+weekend|monday|tuesday|wednesday|thursday|"
                   rf"friday|saturday|sunday)\s+(?:going\s+to\s+|gonna\s+|still\s+|stopped\s+)?(?:be\s+)?{_WX}\b", _I),
        _Lazy(rf"\b(?:are|is)\s+there\s+(?:any\s+)?(?:storms?|rain|snow|frost|showers|thunder(?:storms?)?|fog|gales?|"
                   rf"wind)\b[^.?!]{{0,20}}\b(?:expected|forecast|coming|due|on\s+the\s+way|{NOW})", _I),
        _Lazy(rf"\b(?:chance|risk|any|much)\s+(?:of\s+)?(?:rain|showers|snow|storms?|thunder|frost|sun)\b"
                   rf"[^.?!]{{0,30}}\b{NOW}", _I),
        _Lazy(rf"\b(?:temperature|temp|how\s+(?:cold|hot|warm|windy|wet|sunny|nippy|parky|chilly))\b[^.?!]{{0,30}}\b{NOW}\b",
              _I),
        # "the outlook for the Lake District this weekend", "hanging the washing out", "the sun going to show up",
        # "what's it doing outside"
        _Lazy(rf"\boutlook\s+for\b[^.?!]{{0,40}}\b{NOW}\b|\bhang(?:ing)?\s+(?:the\s+|my\s+)?washing\s+out\b|"
              rf"\bsun\s+(?:going\s+to|gonna|to)\s+(?:show|come\s+out|shine|make\s+an\s+appearance)\b|"
              rf"\bwhat'?s\s+it\s+(?:doing|like)\s+(?:out\s+there|outside)\b", _I),
        _Lazy(r"\b(?:is|will)\s+(?:there|it)\s+(?:be\s+)?(?:any\s+)?(?:rain|snow|frost|storms?|sun|wind|fog)\b", _I),
        _Lazy(r"\b(?:need|take|bring|wear|pack)\s+(?:an?\s+|my\s+)?(?:umbrella|brolly|raincoat|coat|jacket|sunscreen|"
                   r"sun\s*cream|wellies|gloves|scarf)\b(?!\s+(?:for\s+hiking|brand|size))", _I),
        _Lazy(r"\b(?:has|have)\s+the\s+(?:rain|snow|storm|wind|fog)\s+(?:stopped|cleared|eased)\b", _I),
        # the weather words and a time that is now or soon, in one sentence ("Will the roads be icy tonight?")
        _Lazy(rf"\b(?:will|is|are|was|gonna|going\s+to)\b[^.?!]{{0,30}}\b{_WX}\b[^.?!]{{0,25}}\b{NOW}\b", _I),
        _Lazy(r"\b(?:what'?s|what\s+is|how'?s|how\s+is)\s+it\s+(?:like\s+)?outside\b", _I),
        # "coat or no coat for the school run tomorrow"
        _Lazy(rf"\b(?:coat|jacket|jumper|umbrella|brolly|shorts|layers?|scarf|gloves|boots)\b[^.?!]{{0,30}}\b(?:enough|"
              rf"needed|necessary)\b[^.?!]{{0,30}}\b{NOW}\b|\b(?:bundle|wrap|layer)\s+up\b[^.?!]{{0,30}}\b{NOW}\b|"
              rf"\b{NOW}\b[^.?!]{{0,40}}\b(?:bundle|wrap|layer)\s+up\b", _I),
        _Lazy(r"\b(?:coat|umbrella|brolly|jacket|jumper|sunscreen|shorts|wellies|raincoat|gloves)\s+or\s+(?:no\s+)?"
              r"(?:coat|umbrella|brolly|jacket|jumper|sunscreen|shorts|t-?shirt|wellies|raincoat|gloves)\b", _I),
        _Lazy(r"\b(?:what'?s|what\s+is|how'?s|how\s+is)\s+it\s+(?:like\s+)?(?:out\s+)?(?:there|in\s+\w+)\s+(?:right\s+)?"
              r"(?:now|today|at\s+the\s+moment|this\s+(?:morning|afternoon|evening))\b", _I),
        _Lazy(r"\bis\s+it\s+(?:nice|lovely|pleasant|grim|miserable|horrible|foul|bad|good|fine|bright|dull|"
              r"cold|hot|warm|chilly|freezing|wet|dry)\s+(?:out|outside|out\s+there)\b", _I),
        _Lazy(r"\b(?:is|are)\s+(?:there\s+)?(?:an?\s+|any\s+)?(?:heat\s*waves?|cold\s+snaps?|blizzards?|hurricanes?|"
              r"typhoons?|downpours?|hailstorms?|snowstorms?|storms?|cold\s+fronts?|floods?)\s+(?:coming|expected|"
              r"forecast|due|on\s+the\s+way|heading|moving|likely)\b", _I),
    ],
    "recall": [
        _Lazy(r"\bwhat\s+(?:were|was)\s+(?:we|i)\s+(?:talking|discussing|saying|chatting|speaking)\b|"
              r"\bour\s+(?:chat|conversation|talk|discussion)\s+(?:from|on|last|yesterday|earlier|the\s+other)\b", _I),
        # "What was it I was grumbling to you about the other day?"
        _Lazy(r"\b(?:i\s+was|we\s+were)\s+\w+ing\s+(?:to\s+you\s+|you\s+|on\s+)?about\b[^.?!]{0,20}\b(?:the\s+other\s+(?:day|"
              r"week|night)|yesterday|last\s+(?:time|week|night)|earlier|on\s+(?:monday|tuesday|wednesday|thursday|friday|"
              r"saturday|sunday))\b|\byou\s+(?:gave|sent|showed|told|recommended|suggested)\s+me\b[^.?!]{0,30}\b(?:a\s+while\s+"
              r"(?:back|ago)|the\s+other\s+day|yesterday|last\s+\w+|earlier|recently)\b", _I),
        _Lazy(r"\b(?:we|you\s+and\s+i)\s+had\s+a\s+(?:natter|chat|talk|conversation|discussion|word)\s+about\b", _I),
        # "that soup recipe we were talking about the other day"
        _Lazy(r"\b(?:that|the)\s+(?:[\w'-]+\s+){1,4}(?:we|you\s+and\s+i)\s+(?:were\s+)?(?:(?:talking|chatting|talked|"
              r"chatted)\s+about|discussing|discussed)\b", _I),
        _Lazy(r"\bwhat\s+(?:did|have|had)\s+(?:we|i)\s+(?:talk|talked|discuss|discussed|say|said|tell|told|mention|"
                   r"mentioned|speak|spoke|chat|chatted|ask|asked|decide|decided|agree|agreed|plan|planned)\b", _I),
        _Lazy(r"\bwhat\s+(?:did|have)\s+you\s+(?:tell|told|say|said|suggest|suggested|recommend|recommended|advise|"
                   r"advised)\b|\bwhat\s+(?:advice|suggestions?)\s+did\s+you\b", _I),
        _Lazy(r"\b(?:did|have|had)\s+i\s+(?:ever\s+|already\s+)?(?:tell|told|mention|mentioned|say|said|ask|asked|share|"
              r"shared)\b", _I),
        _Lazy(r"\b(?:have|did)\s+we\s+(?:ever\s+)?(?:talk|talked|discuss|discussed|speak|spoken|chat|chatted)\b", _I),
        # what we settled on together ("Did we ever settle on a name for the dog?")
        _Lazy(r"\b(?:have|did|had)\s+(?:we|you\s+and\s+i)\s+(?:ever\s+|already\s+|finally\s+)?(?:settle|settled|"
              r"decide|decided|agree|agreed|choose|chose|chosen|pick|picked|plan|planned|arrange|arranged|"
              r"sort\s+out|sorted\s+out|figure\s+out|figured\s+out|come\s+up\s+with)\b", _I),
        _Lazy(r"\b(?:earlier(?:\s+on)?|before|last\s+time|the\s+other\s+day|yesterday|once)(?:\s+(?:this|last)\s+"
              r"(?:week|month|morning|year))?\s*,?\s+(?:you|i|we)\s+"
              r"(?:mentioned|said|told|suggested|recommended|talked|discussed|brought\s+up|gave|showed|sent|wrote|"
              r"shared|asked)\b|\b(?:you|i|we)\s+(?:said|told\s+me|mentioned|"
              r"suggested|recommended|brought\s+up)\b[^.?!]{0,40}\b(?:earlier|before|last\s+time|the\s+other\s+"
              r"day|yesterday|last\s+week|a\s+while\s+(?:back|ago)|recently)\b|"
              r"\bwhere\s+did\s+we\s+leave\s+(?:things|it|off)\b", _I),
        # "go back over what we said", "Last month I told you about a film, which one was it?"
        _Lazy(r"\bwhat\s+(?:we|i)\s+(?:talked|discussed|said|told\s+you|mentioned|spoke|chatted|agreed|decided|"
              r"planned)\b|\bwhat\s+you\s+(?:told|said\s+to|suggested\s+to|recommended\s+to)\s+me\b|"
              r"\b(?:i|you)\s+(?:once\s+)?(?:told|mentioned\s+to|recommended\s+to|suggested\s+to|showed)\s+"
              r"(?:you|me)\b(?=[^.!]*\?)", _I),
        _Lazy(r"\b(?:do|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b(?!\s+(?:things|anything\s+at\s+all|"
                   r"between|across|everything)\b)|\bremember\s+when\s+(?:i|we)\b", _I),
        _Lazy(r"\bremind\s+me\s+(?:of\s+)?what\s+(?:we|i|you)\b", _I),
        _Lazy(r"\b(?:our|my)\s+(?:last|previous|earlier|past|recent|first|other|old)\s+(?:conversations?|chats?|talks?|"
                   r"discussions?|sessions?)\b", _I),
        _Lazy(r"\b(?:search|look\s+through|check|find|go\s+through)\s+(?:in\s+)?(?:my|your|our)\s+(?:memory|memories|"
                   r"chats|conversations|history)\b|\bfind\s+(?:our|the)\s+(?:conversation|chat)\b", _I),
        _Lazy(r"\b(?:last|first)\s+time\s+(?:we|i)\s+(?:talked|spoke|chatted|discussed|met)\b", _I),
        _Lazy(r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+(?:first|last)\b|"
              r"\bwhen\s+did\s+(?:i|we)\s+(?:last\s+|first\s+)?(?:mention|talk|discuss|say|tell|ask|bring\s+up)\b", _I),
        _Lazy(r"\b(?:that|the)\s+(?:[\w-]+\s+){1,3}?(?:i|we)\s+(?:mentioned|recommended|discussed|talked\s+about|"
              r"made)\b|\b(?:that|the)\s+(?:[\w-]+\s+){1,3}?you\s+(?:gave|sent|showed|wrote|recommended|suggested|"
              r"mentioned)\s+(?:me|us)\b", _I),
        _Lazy(r"\b(?:list|show)\s+(?:me\s+)?(?:our|my)\s+(?:recent\s+|past\s+|old\s+)?(?:conversations|chats)\b", _I),
    ],
    "personal": [
        _Lazy(r"\b(?:you\s+were|you've\s+been|you're|you\s+are)\s+keeping\s+(?:on\s+file|for\s+me|a\s+note)\b|"
              r"\bon\s+file\s+for\s+me\b", _I),
        # a fact the butler was given to keep, asked for ("have you got my blood group stored?")
        _Lazy(r"\b(?:have\s+you\s+(?:still\s+)?got|do\s+you\s+(?:still\s+)?have|you've\s+(?:still\s+)?got|you\s+have)\s+"
              r"(?:my|our)\s+[\w\s'-]{1,30}?\s+(?:stored|saved|on\s+(?:file|record)|noted|written\s+down|kept)\b|"
              r"\bkeep\s+(?:my|our)\s+[\w\s'-]{1,30}?\s+on\s+(?:file|record)\b|"
              r"\b(?:i\s+said|did\s+i\s+say)\s+i\s+(?:hail|come|am|was)\s+from\b|\bi\s+had\s+you\s+(?:remember|note|keep|save|"
              r"store|write\s+down)\b|\b(?:squirrel|tuck|file|put|stash)\s+(?:this|that|it)\s+away\b|"
              r"\b(?:until|till|til|before)\s+(?:my|our)\s+(?:birthday|anniversary|wedding\s+anniversary)\b|"
              r"\b(?:my|our)\s+[\w\s'-]{1,30}?\s+(?:is|are)\b[^.?!]{0,40}\b(?:keep|remember|note|save|store|hold\s+on(?:to)?|"
              r"hang\s+on(?:to)?)\s+(?:to\s+)?(?:that|this|it)\b|"
              r"\byou've\s+got\s+it\s+(?:saved|stored|on\s+file|noted)\b", _I),
        # "just so you know, I'm allergic to shellfish": a fact about me, given to be kept
        _Lazy(r"^\W*(?:just\s+so\s+you\s+know|fyi|for\s+the\s+record|for\s+your\s+(?:records|info(?:rmation)?)|"
              r"heads\s+up|for\s+(?:future\s+)?reference|note\s+(?:for|to)\s+(?:me|self|you)|just\s+a\s+note)\W+"
              r"(?:that\s+)?(?:i|i'm|im|my)\b", _I),
        _Lazy(r"\b(?:remember|note|keep\s+in\s+mind|save|store|record|jot\s+down|write\s+down)\s*(?:down\s+)?"
              r"(?:for\s+later\s*[:,-]?\s*|"
              r"for\s+(?:the\s+)?(?:future|next\s+time)\s+)?"
              r"(?:that\s+|"
              r"this\s*[:,-]\s*|[:,-]\s*|"
                   r"this\s+down\s*[:,-]?\s*)?(?:i\b|i'm\b|my\b)", _I),
        _Lazy(r"^\W*(?:(?:fyi|btw|oh|also|ok|okay|so|hey|heads\s+up|for\s+the\s+record|just\s+so\s+you\s+know)\W+)?"
              r"(?:i|i'm|im|my)\b[^?]*[,.;]\s*(?:please\s+)?(?:remember|note|keep\s+(?:that|it|this)\s+(?:in\s+mind|"
              r"on\s+(?:file|record))|save|"
                   r"store)\b(?:\s+(?:that|it|this))?(?:\s+(?:for\s+later|for\s+next\s+time|for\s+me|going\s+forward|"
                   r"from\s+now\s+on))?(?:\s+please)?\s*[.!]?\s*$", _I),
        _Lazy(r"\b(?:update|change|set|save)\s+my\s+(?:location|home\s*town|address|birthday|city|town|name|"
                   r"time\s*zone|date\s+of\s+birth)\b|\bi(?:'ve|\s+have)\s+moved\s+to\b", _I),
        _Lazy(r"\bi\s+(?:now\s+)?(?:live|am\s+living|'m\s+living)\s+in\b[^.?!]{0,30}\b(?:now|these\s+days|"
                   r"update|remember|note)\b", _I),
        _Lazy(r"\bwhere\s+do\s+i\s+live\b|\bwhat\s+(?:city|town|country)\s+(?:am\s+i|do\s+i\s+live)\s+in\b|"
                   r"\bwhat(?:'s|\s+is)\s+my\s+(?:location|home\s*town|address|birthday|date\s+of\s+birth|city)\b|"
                   r"\b(?:save|store|note|remember|add|put|keep)\s+(?:that|this|it)\s+(?:to|in|on|under)\s+my\s+"
                   r"(?:profile|file|details|notes|record|records)\b|\bwhat\s+(?:i\s+have|i've)\s+(?:saved|stored|"
                   r"noted|given\s+you)\b|"
                   r"\bwhen(?:'s|\s+is|\s+was)\s+my\s+(?:(?:wife|husband|partner|son|daughter|mum|mom|mother|dad|"
                   r"father|brother|sister|boss|friend|girlfriend|boyfriend)(?:'s|s')\s+)?(?:birthday|anniversary|"
                   r"name\s*day)\b|\bhave\s+you\s+(?:got\s+)?(?:that|it|this)\s+(?:saved|stored|noted|on\s+file)\b|"
                   r"\b(?:you\s+(?:have|got)|you've)\s+(?:got\s+)?(?:saved|stored|noted|on\s+file)\s+(?:about|on|for)\s+"
                   r"me\b|\bhow\s+old\s+am\s+i\b|"
                   r"\bwhere\s+do\s+i\s+(?:work|come\s+from|study)\b|\b(?:do\s+you\s+know|remind\s+me|tell\s+me)\s+"
                   r"(?:where|when|what)\s+(?:i|my)\s+(?:live|work|was\s+born|study|come\s+from|grew\s+up|do\s+for\s+"
                   r"a\s+living)\b|\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+living|"
                   r"work)\b|\bwho\s+do\s+i\s+work\s+for\b|\b(?:you|u)\s+(?:should\s+|must\s+)?(?:have|have\s+got)\s+"
                   r"(?:that|it|this)\s+(?:saved|stored|noted|written\s+down)\b|"
                   r"\bwhat(?:'s|s|\s+is|\s+are|\s+was)\s+my\s+(?:(?:wife|husband|partner|son|daughter|mum|mom|mother|"
                   r"dad|father|brother|sister|dog|cat|boss|kids|children|girlfriend|boyfriend)(?:'s|s'|s)?\s+)?"
                   r"(?:names?|birthday|age|job|occupation|allergies|blood\s+(?:type|group)|shoe\s+size|favou?rite\s+\w+)\b|"
                   r"\bwhat\s+i(?:'ve|\s+have)\s+told\s+you\s+about\s+myself\b|"
                   r"\b(?:i|i've)\s+(?:already\s+)?(?:saved|stored|noted)\s+(?:it|that|this|them)\b|"
                   r"\b(?:did|have)\s+i\s+(?:save|saved|store|stored)\b|\b(?:what|where|when)\s+did\s+i\s+(?:tell\s+"
                   r"you|say)\s+(?:my|i)\b|\bwhat\s+(?:do\s+you\s+know|have\s+you\s+(?:stored|saved|"
                   r"got))\s+about\s+me\b",
                   _I),
    ],
    "web": [
        # a result or a price that changes ("how did Leicester get on last night?", "the cheapest Dyson at the moment")
        _Lazy(r"\bhow\s+did\s+(?!I\b)[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+)?\s+(?:get\s+on|do|fare|play|get\s+on)\b[^.?!]{0,20}\b(?:last\s+"
              r"night|yesterday|today|tonight|this\s+(?:weekend|afternoon|morning|evening)|at\s+the\s+weekend)\b"),
        _Lazy(r"\bcheapest\b[^.?!]{0,40}\b(?:at\s+the\s+moment|right\s+now|today|currently)\b|\b(?:doing\s+a\s+deal|on\s+offer\s+"
              r"(?:now|today|anywhere))\b", _I),
        _Lazy(r"\bhow\s+(?!I\b)[A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+)?\s+(?:got\s+on|did|fared|played)\b[^.?!]{0,30}\b(?:last\s+"
              r"night|yesterday|today|tonight|this\s+(?:weekend|afternoon|morning|evening)|at\s+the\s+weekend)\b"),
        _Lazy(r"\bhow\s+did\s+the\s+(?:match|game|race|fight|final|derby|test)\b[^.?!]{0,30}\b(?:go|end)\b", _I),
        _Lazy(r"\bgoing\s+for\b[^.?!]{0,20}\b(?:at\s+the\s+moment|right\s+now|now|today|these\s+days)\b|"
              r"\b(?:has|have|did)\s+(?!I\b)[A-Z][\w-]+\s+(?:announced|released|launched|unveiled)\b", _I),
        # news not known until it is: "has the new iPhone been announced yet"
        _Lazy(r"\b(?:been|is|was|were)\s+(?:announced|released|launched|confirmed|revealed)\s+yet\b|"
              r"\b(?:dropped|landed)\s+yet\b|\b(?:landed|arrived|hit)\s+(?:in\s+)?(?:the\s+)?(?:shops|stores|shelves)\b|"
              r"\bwho\s+(?:came\s+out\s+on\s+top|won)\b[^.?!]{0,40}\b(?:last\s+night|yesterday|today|tonight|this\s+"
              r"weekend)\b|"
              r"\b(?:come|came)\s+out\s+yet\b", _I),
        _Lazy(r"\b(?:search|google(?![?,.]|\s+(?:or|and|made|built|people|model|ai)\b)|look\s+up|look\s+online|check\s+online|find\s+online|browse)\b(?!\s+engines?\b)"
              r"(?!\s+what\s+(?:i|you|we)\s+(?:have\s+|'ve\s+)?(?:saved|stored|told|said|noted))"
                   r"(?!\s+(?:in\s+|through\s+)?(?:my|your|our)\s+(?:memory|memories|chats|conversations|"
                   r"history)\b)", _I),
        _Lazy(r"\b(?:on|from)\s+the\s+(?:web|internet|news)\b", _I),
        _Lazy(rf"\b(?:news|headlines|breaking)\b[^.?!]{{0,30}}\b{NOW}\b|\b(?:today'?s|latest|this\s+morning'?s)\s+"
              r"(?:top\s+)?(?:news|headlines|stories)\b", _I),
        _Lazy(r"\bwhat(?:'s|\s+is)\s+(?:happening|going\s+on)\b[^.?!]{0,30}\b(?:today|now|in\s+the\s+world|"
                   r"in\s+the\s+news)\b|\bwhat\s+(?:are|is)\s+(?:people|everyone|reviewers|critics)\s+saying\b|"
                   r"\b(?:find|get)\s+(?:me\s+)?(?:reviews|news|prices|results|the\s+latest)\b|"
                   r"\bcheck\s+(?:if|whether)\b"
                   r"(?![^.?!]*\b(?:my|this)\s+(?:computer|disk|file|machine|laptop)\b)", _I),
        _Lazy(r"\bdid\s+(?:the\s+)?\w+(?:\s+\w+)?\s+(?:go\s+ahead|happen|win|lose|get\s+\w+)\b[^.?!]{0,20}\b"
                   r"(?:today|this\s+morning|yesterday|last\s+night|this\s+week)\b", _I),
        _Lazy(r"\bthe\s+latest\s+(?:on|about|with|from|in)\b|"
                   r"\b(?:latest|today'?s|breaking|recent)\s+(?:news|headlines|updates?|results?|scores?)\b|"
                   r"\b(?:news|headlines)\s+(?:about|on|from|today)\b|\bany\s+(?:news|updates?)\b", _I),
        _Lazy(rf"\bhow\s+much\s+(?:is|are|does|do)\s+(?:an?\s+|one\s+)?\w+(?:\s+\w+)?\s+(?:worth\s+|cost\s+|"
              rf"trading\s+at\s+|going\s+for\s+|selling\s+for\s+)?{NOW}\b", _I),
        _Lazy(rf"\b(?:price|cost|value|worth|trading\s+at|exchange\s+rate|score|odds)\b[^.?!]{{0,40}}\b{NOW}\b", _I),
        _Lazy(r"\bwho\s+won\b[^.?!]{0,40}\b(?:this\s+past\s+\w+|last\s+(?:monday|tuesday|wednesday|thursday|friday|"
              r"saturday|sunday|weekend)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b", _I),
        _Lazy(r"\bwho\s+won\b[^.?!]{0,40}\b(?:last\s+night|yesterday|today|this\s+(?:week|weekend|year)|at\s+the\s+"
                   r"weekend)\b", _I),
        _Lazy(r"\bwhat(?:'s|\s+is)\s+the\s+score\b|\bfind\s+out\s+(?:when|where|whether|if|what|who|how)\b", _I),
        _Lazy(r"\bwhat\s+happened\b[^.?!]{0,40}\b(?:yesterday|today|last\s+night|this\s+(?:morning|week))\b", _I),
        _Lazy(r"\b(?:current|latest|today'?s|live)\s+(?:price|value|exchange\s+rate|score|odds)\b|"
              rf"\bwhat(?:'s|s|\s+is)\s+(?:\w+\s+){{1,4}}?(?:at|trading\s+at|going\s+for|selling\s+for)\s+"
              rf"(?:in\s+\w+\s+)?{NOW}\b", _I),
        _Lazy(r"\b(?:latest|newest)\s+(?:stable\s+)?(?:[\w.+#-]+\s+){0,2}(?:version|release)\b", _I),
        _Lazy(r"\b(?:come\s+out|been\s+released|released|launched|out)\s+yet\b|\b(?:is|are)\s+(?:the\s+)?(?:[\w'.-]+\s+){1,5}?"
              r"open\s+(?:on|today|tomorrow|now|at|until|late|this)\b", _I),
        _Lazy(r"\bopening\s+(?:hours|times)\b|\b(?:is|are)\s+(?:the\s+)?\w+\s+open\s+(?:on|today|tomorrow|now)\b", _I),
    ],
    "system": [
        _Lazy(r"\b(?:this|my)\s+(?:old\s+)?(?:computer|laptop|machine|pc)\b[^.?!]{0,30}\b(?:run(?:ning)?\s+out\s+of\s+(?:room|"
              r"space|storage|memory)|full\s+up)\b", _I),
        _Lazy(r"\bbattery\b[^.?!]{0,20}\b(?:on|of|in)\s+(?:this|my)\s+(?:laptop|computer|machine|pc)\b|\b(?:hogging|eating|"
              r"using\s+up|maxing\s+out|chewing\s+up)\s+(?:all\s+)?(?:the\s+|my\s+)?(?:processor|cpu|memory|ram|"
              r"disk)\b", _I),
        _Lazy(r"\bhow\s+long\s+has\s+(?:this|my|the)\s+(?:computer|machine|laptop|pc|box|server|system)\s+been\s+(?:up|on|"
              r"running)\b", _I),
        _Lazy(r"\b(?:my|this|the)\s+(?:computer|machine|laptop|pc|desktop|system|box|server)(?:'s)?\s+"
                   r"(?:specs|health|status|load|usage|memory|ram|cpu|disk|storage|uptime|resources|doing|"
                   r"running)\b", _I),
        _Lazy(r"\b(?:cpu|processor|ram|memory|disk|storage|drive|swap)\s+(?:usage|use|load|space|left|free|"
              r"full|busy)\b|"
                   r"\bhow\s+(?:much|many)\s+(?:free\s+|spare\s+|available\s+|empty\s+|remaining\s+)?"
                   r"(?:disk|storage|ram|memory|space|cores)\b[^.?!]{0,30}\b(?:left|free|used|using|"
                   r"in\s+use|this|my|here)\b", _I),
        _Lazy(r"\b(?:is|how)\s+(?:my|the|this)\s+(?:disk|drive|hard\s+drive|cpu|processor|memory|ram|computer|"
                   r"machine|laptop)\s+(?:full|busy|doing|holding\s+up|ok|okay|running\s+(?:hot|slow|out))\b|"
                   r"\bhow\s+(?:busy|full|loaded|hot)\s+is\s+(?:my|the|this)\s+(?:hard\s+)?(?:disk|drive|cpu|processor|"
                   r"memory|ram|computer|machine|laptop)\b|\b(?:is|are)\s+(?:my|the|this)\s+(?:hard\s+)?(?:disk|drive|"
                   r"cpu|processor|memory|ram|computer|machine|laptop)\s+(?:nearly|almost|getting|too|very|"
                   r"really|still)\s+"
                   r"(?:full|busy|hot|slow|overloaded)\b|\b(?:my|this|the)\s+(?:cpu|processor|computer|"
                   r"machine|laptop|disk|"
                   r"drive|ram|memory)\s+(?:doing|up\s+to)\b", _I),
        _Lazy(r"\b(?:my|this|the)\s+(?:computer|machine|laptop|pc|desktop|mac)(?:'s|\s+is|\s+been|\s+feels|\s+seems|"
              r"\s+running)?\s+(?:so\s+|really\s+|very\s+|super\s+)?(?:slow|sluggish|laggy|crawling|freezing\s+up|hot|noisy|"
              r"loud|overheating)\b", _I),
        _Lazy(r"\b(?:my|the|this)\s+(?:laptop'?s\s+|computer'?s\s+)?battery\s+(?:sitting\s+at|at|level|percentage|charge|"
              r"left|status)\b|\bpercent(?:age)?\b[^.?!]{0,20}\b(?:my|the)\s+battery\b", _I),
        _Lazy(r"\bwhat(?:'s|s|\s+is)\s+(?:my|the)\s+battery\b|\bwhat\s+battery\b|\bbattery\s+am\s+i\s+on\b|\bbattery\s+(?:level|percentage|charge|status|left)\b|"
              r"\bhow\s+much\s+battery\b", _I),
        _Lazy(r"\b(?:what(?:'s|s|\s+is)|which\s+\w+\s+(?:is|are)|is\s+(?:something|anything))\s+(?:using|eating|hogging|taking\s+up|filling\s+up|"
              r"slowing\s+down)\s+(?:all\s+)?(?:of\s+)?(?:my|the|this)\s+(?:ram|memory|cpu|disk|space|storage|"
              r"processor|battery|computer|machine|laptop)\b", _I),
        _Lazy(r"\b(?:check|report\s+on|show\s+me)\s+(?:the\s+)?(?:health|status|specs?)\s+of\s+(?:my|this|the)\s+"
                   r"(?:computer|machine|laptop|system|pc)\b|\bsystem\s+(?:report|info|information|status)\b", _I),
        _Lazy(r"\b(?:which|what)\s+(?:operating\s+system|os|version\s+of\s+\w+)\b[^.?!]{0,30}\b(?:this|my|here|"
                   r"installed|running|am\s+i)\b", _I),
    ],
    "files": [
        _Lazy(r"(?:^|\s)(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*", _I),
        _Lazy(r"\b[\w-]+\.(?:txt|md|pdf|csv|json|log|ya?ml|toml|ini|conf|cfg|py|docx?|xlsx?|html?|png|jpe?g|gif|"
                   r"webp)\b", _I),
    ],
}
# a file name in a general question is not a file to read: "What's a .csv file?"
_FILEGENERAL = _Lazy(r"\b(?:what(?:'s|\s+is)\s+an?\s+\.?\w+\s+file|how\s+do\s+i\s+(?:open|read|write|parse|create)|"
                           r"extension|format)\b", _I)


# Concrete tools for a need; which one of several the question's wording picks.
_RECALL_TIME = _Lazy(r"\b(?:yesterday|last\s+(?:week|month|year|night|monday|tuesday|wednesday|thursday|friday|"
                          r"saturday|sunday)|(?:this|that)\s+(?:morning|week)|in\s+(?:january|february|march|"
                          r"april|may|june|"
                          r"july|august|september|october|november|december)|on\s+(?:monday|tuesday|wednesday|thursday|"
                          r"friday|saturday|sunday)|\d+\s+(?:days|weeks|months)\s+ago|the\s+other\s+(?:day|week|night)|"
                          r"a\s+while\s+(?:back|ago)|earlier\s+(?:this|in\s+the)\s+week)\b", _I)
_RECALL_LIST = _Lazy(r"\b(?:list|show)\b[^.?!]{0,20}\b(?:conversations|chats)\b", _I)
_RECALL_STATS = _Lazy(r"\bhow\s+many\s+(?:conversations|chats|messages)\b|\bwhen\s+did\s+we\s+first\b", _I)
_STORE = _Lazy(r"\b(?:remember|note|save|store|record|keep\s+in\s+mind|update|change|set)\b|\bi(?:'ve|"
               r"\s+have)\s+moved\b", _I)

USUALLY = _Lazy(r"\b(?:usually|typically|normally|generally|in\s+general|on\s+average|as\s+a\s+rule|each\s+year|"
                 r"every\s+year|climate)\b|"
                 # a season or a month on its own asks about a climate ("hot in Dubai in summer")
                 # the weather of history ("during the last ice age")
                 r"\bice\s+age\b|\bprehistoric\b|\bhistorically\b|\bin\s+history\b|\bdinosaurs?\b|"
                 r"\b(?:battle|siege|war|coronation|landings?|eruption)\s+of\b|"
                 r"\b(?:in|during)\s+(?:the\s+)?(?:\d{3,4}s?|middle\s+ages|ancient\s+\w+|\w+\s+(?:century|era|"
                 r"period|war))\b|"
                 # another world's weather is a lesson ("What's the weather like on Venus?")
                 r"\bon\s+(?:mercury|venus|mars|jupiter|saturn|uranus|neptune|pluto|titan|europa|io|the\s+moon|"
                 r"other\s+planets?|an?\s+(?:planet|exoplanet|moon))\b|\bin\s+space\b|"
                 r"\bin\s+(?:the\s+)?(?:summer|winter|spring|autumn|fall|january|february|march|april|may|june|july|"
                 r"august|september|october|november|december)\b", _I)


# a question about how things usually are asks for no lookup ("how do you free up disk space, in general")
_IN_GENERAL = _Lazy(r"\b(?:in\s+general|generally|usually|typically|normally|as\s+a\s+rule|on\s+average)\b|"
                    # forecasting as a trade, weather lore, the first of something ("how do weather forecasters
                    # predict rain", "red sky at night, my nan always said", "who gave the first forecast")
                    r"\bforecasters?\b|\bsupposed\s+to\s+mean\b|\bwhat\s+does\s+the\s+\w+\s+mean\b|\bwhere\s+should\b|"
                    r"\b(?:what|which)\s+(?:command|cmd)\b|"
                    # "what is swap space and how much should I give it": a term, then a lesson
                    r"^\W*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?\s+and\s+(?:how|why|what|when)\b|"
                    r"\b(?:the|an?|that)\s+(?:old\s+)?(?:rhyme|saying|proverb)\b|"
                    r"\bwhat\s+does\s+(?:that|it|this)\s+(?:actually\s+|really\s+)?mean\b|traditionally|"
                    r"\b(?:always\s+said|used\s+to\s+say|old\s+wives|folklore|proverb|any\s+truth\s+in|"
                    r"is\s+it\s+true\s+(?:that\s+)?you\s+can)\b|\bwho\s+was\s+the\s+(?:very\s+)?first\b|"
                    # the weather of a story ("what does all the stormy weather symbolise")
                    r"\b(?:symboli[sz]e|symbolism|symboli[sz]es|metaphor|represents?|signif(?:y|ies))\b|"
                    r"\bin\s+the\s+(?:book|novel|film|movie|poem|play|song|story)\b|"
                    # a how-to ("whats the cmd to check disk usage per directory on linux")
                    r"\b(?:cmd|command|commands|code|syntax|script|shortcut|formula)\s+(?:to|for)\b|\bhow\s+to\b", _I)


# words one of which every rule of a need requires (tests check they never change a decision)
GATES = gates({
    "weather": "bundle wrap layer layers boots like chuck pelt pelting lash lashing tip temp arvo fcst weather "
               "forecast rain raining rainy showers "
               "shower drizzle snow snowing sleet hail "
               "sunny "
               "sunshine "
               "cloudy overcast foggy fog misty windy wind gale gales storm storms stormy thunder thunderstorm "
               "thunderstorms frost frosty icy freezing cold chilly warm hot mild humid dry wet temperature "
               "umbrella brolly raincoat coat jacket sunscreen sun suncream wellies gloves scarf outside out "
               "heatwave heat blizzard blizzards hurricane hurricanes typhoon typhoons downpour downpours hailstorm "
               "snowstorm snowstorms storm flood floods snap snaps front fronts pour pouring bucket bucketing "
               "tipping chucking freeze sky skies outlook washing doing nippy parky sweltering scorching",
    "recall": "talk talked talking discuss discussed discussing say said saying tell told mention mentioned speak "
              "spoke spoken speaking chat chats chatted chatting ask asked decide decided agree agreed plan planned "
              "suggest suggested recommend recommended advise advised advice suggestion suggestions share shared "
              "remember recall remind conversation conversations talks discussion discussions session sessions "
              "memory memories history messages made met settle settled choose chose chosen pick picked arrange "
              "arranged sort sorted figure figured come showed brought earlier gave sent wrote before "
              "yesterday once that the about natter had",
    "personal": "remember note keep save store record update change set moved live location hometown home town "
                "address birthday city country know stored saved got birth old age job occupation allergies "
                "favourite favorite name names work anniversary saved noted come study living file profile add put "
                "details notes records given blood type group shoe size stored just fyi heads info information "
                "reference jot myself keeping said hail squirrel tuck stash away hold hang "
                "self say tell",
    "web": "yet released launched out open current live price value at latest newest version release much search "
           "google look check find browse "
           "web internet news online "
           "todays breaking recent headlines "
           "updates update results scores score price cost value exchange rate odds won happening going saying "
           "reviews prices happened opening open ahead happen win lose get worth trading did fare cheapest deal offer "
           "got fared played announced unveiled dropped landed",
    "system": "slow sluggish laggy crawling hot noisy loud overheating something anything computer machine laptop pc "
              "desktop system box server cpu processor ram memory disk "
              "storage drive "
              "battery swap space cores operating os version specs health status uptime long",
})


_RECENT = _Lazy(r"\b(?:last\s+night|yesterday|this\s+(?:morning|afternoon|evening|weekend)|at\s+the\s+weekend)\b", _I)
_WHY_THIS_MACHINE = _Lazy(r"^\W*why\s+is\s+(?:this|my)\s+(?:machine|computer|laptop|pc|mac|desktop)\b", _I)


def lesson(need: str, text: str) -> bool:
    """Whether the message asks about the topic in general (a lesson, a climate, a saying), not for
    a lookup now; the rules and the classifier both defer to it."""
    general = (GENERAL.search(text) or _IN_GENERAL.search(text)
               or (need == "weather" and USUALLY.search(text)))  # a climate, not a forecast
    # "why is this machine so sluggish" is about this machine; "how did Leicester get on last
    # night" about last night's match: neither is a lesson
    mine = (need == "system" and _WHY_THIS_MACHINE.search(text)) or (need == "web" and _RECENT.search(text))
    return bool(general) and not re.search(rf"\b{NOW}\b", text, _I) and not mine


def tool_rule(need: str, text: str, *, credential: bool = False) -> bool:
    """Whether a rule is sure the message needs this tool; never for a credential to keep."""
    if lesson(need, text):
        return False
    if need in ("personal", "recall") and credential:
        return False  # a credential is never kept as a personal fact, nor looked up in past conversations
    if need == "files" and ("/" not in text and "." not in text or _FILEGENERAL.search(text)):
        return False
    if not is_open(GATES.get(need), words(text)):
        return False
    return any(p.search(text) for p in TOOL_RULES.get(need, ()))


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
    return {"weather": ["get_weather_forecast"], "web": ["web_search"], "system": ["get_system_info"],
            "files": ["analyze_file"]}.get(need, [])
