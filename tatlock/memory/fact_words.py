"""The words the fact extractor (``memory/fact_extract.py``) knows, as data: who people are to the
speaker, what a diet, a condition, a job, a car or a phone is called, and the words that mark a
statement as something other than a fact about the speaker's life (a secret, a hypothesis, a
story, a joke).

Lists, not a model: each word is here because a statement about everyday life uses it, and a
word added here is a rule anyone can read. Lowercase throughout; the extractor compares
lowercased text.
"""

from __future__ import annotations

# who someone is to the speaker: the word people use -> the one a fact is kept under
RELATIONS = {
    "mum": "mother",
    "mom": "mother",
    "mam": "mother",
    "mother": "mother",
    "mummy": "mother",
    "dad": "father",
    "father": "father",
    "daddy": "father",
    "sister": "sister",
    "brother": "brother",
    "sis": "sister",
    "wife": "wife",
    "husband": "husband",
    "partner": "partner",
    "other half": "partner",
    "boyfriend": "boyfriend",
    "girlfriend": "girlfriend",
    "fiance": "fiancé",
    "fiancé": "fiancé",
    "fiancee": "fiancée",
    "fiancée": "fiancée",
    "son": "son",
    "daughter": "daughter",
    "kids": "children",
    "children": "children",
    "stepson": "stepson",
    "stepdaughter": "stepdaughter",
    "stepmum": "stepmother",
    "stepdad": "stepfather",
    "grandma": "grandmother",
    "gran": "grandmother",
    "granny": "grandmother",
    "nan": "grandmother",
    "nana": "grandmother",
    "nanna": "grandmother",
    "grandmother": "grandmother",
    "grandad": "grandfather",
    "granddad": "grandfather",
    "grandpa": "grandfather",
    "grandfather": "grandfather",
    "grandson": "grandson",
    "granddaughter": "granddaughter",
    "aunt": "aunt",
    "auntie": "aunt",
    "aunty": "aunt",
    "uncle": "uncle",
    "cousin": "cousin",
    "niece": "niece",
    "nephew": "nephew",
    "godson": "godson",
    "goddaughter": "goddaughter",
    "mother-in-law": "mother-in-law",
    "father-in-law": "father-in-law",
    "sister-in-law": "sister-in-law",
    "brother-in-law": "brother-in-law",
    "son-in-law": "son-in-law",
    "daughter-in-law": "daughter-in-law",
    "ex": "ex",
    "ex-wife": "ex-wife",
    "ex-husband": "ex-husband",
    "ex-partner": "ex-partner",
    "best friend": "best friend",
    "best mate": "best friend",
    "bestie": "best friend",
    "friend": "friend",
    "mate": "friend",
    "pal": "friend",
    "flatmate": "flatmate",
    "housemate": "housemate",
    "roommate": "flatmate",
    "neighbour": "neighbour",
    "neighbor": "neighbour",
    "next-door neighbour": "neighbour",
    "boss": "boss",
    "manager": "manager",
    "line manager": "manager",
    "colleague": "colleague",
    "cleaner": "cleaner",
    "nanny": "nanny",
    "childminder": "childminder",
    "gardener": "gardener",
    "landlord": "landlord",
    "landlady": "landlady",
    "lodger": "lodger",
    "carer": "carer",
    "godmother": "godmother",
    "godfather": "godfather",
}

# animals kept as pets: the word -> the kind a fact is kept under
PETS = {
    "dog": "dog",
    "puppy": "dog",
    "pup": "dog",
    "cat": "cat",
    "kitten": "cat",
    "horse": "horse",
    "pony": "pony",
    "rabbit": "rabbit",
    "bunny": "rabbit",
    "hamster": "hamster",
    "guinea pig": "guinea pig",
    "gerbil": "gerbil",
    "tortoise": "tortoise",
    "turtle": "turtle",
    "parrot": "parrot",
    "budgie": "budgie",
    "goldfish": "goldfish",
    "snake": "snake",
    "lizard": "lizard",
    "gecko": "gecko",
    "ferret": "ferret",
    "rat": "rat",
    "mouse": "mouse",
}

# breeds a pet is introduced by ("a cockapoo called Nacho"): breed -> kind
BREEDS = {
    **{
        b: "dog"
        for b in (
            "beagle",
            "cockapoo",
            "labrador",
            "lab",
            "spaniel",
            "cocker spaniel",
            "springer spaniel",
            "terrier",
            "border terrier",
            "jack russell",
            "westie",
            "collie",
            "border collie",
            "poodle",
            "labradoodle",
            "cavapoo",
            "dachshund",
            "sausage dog",
            "pug",
            "french bulldog",
            "frenchie",
            "bulldog",
            "greyhound",
            "whippet",
            "lurcher",
            "husky",
            "alsatian",
            "german shepherd",
            "retriever",
            "golden retriever",
            "chihuahua",
            "shih tzu",
            "schnauzer",
            "staffie",
            "staffy",
            "corgi",
            "dalmatian",
            "boxer",
            "rottweiler",
            "doberman",
            "great dane",
            "pointer",
            "setter",
            "vizsla",
            "weimaraner",
            "bichon",
            "maltese",
            "yorkie",
            "sheepdog",
            "mongrel",
            "rescue dog",
        )
    },
    **{
        b: "cat"
        for b in (
            "tabby",
            "siamese",
            "persian",
            "maine coon",
            "ragdoll",
            "bengal",
            "sphynx",
            "british shorthair",
            "moggy",
        )
    },
}

# what people are paid to do: the head noun of a job title ("primary school teacher")
JOBS = frozenset(
    """
accountant actor actress actuary administrator adviser advisor analyst anaesthetist animator apprentice archaeologist
architect archivist artist assistant astronomer auditor author baker banker barber barista barrister beautician
biologist bookkeeper bricklayer builder butcher buyer carer carpenter cashier caretaker chef chemist childminder
chiropodist civil-servant cleaner clerk coach columnist consultant controller cook coordinator copywriter
counsellor courier curator dancer decorator dentist designer detective developer dietitian director doctor
driver economist editor electrician engineer estimator executive farmer firefighter fireman fishmonger
florist gardener geologist glazier gp graphic-designer hairdresser handyman headteacher historian hygienist
illustrator inspector instructor interpreter investigator janitor jeweller joiner journalist judge labourer
landscaper lawyer lecturer librarian lifeguard locksmith manager mechanic medic microbiologist midwife miner
musician nanny negotiator nurse nutritionist officer operator optician optometrist organiser paralegal
paramedic pathologist pharmacist photographer physician physicist physio physiotherapist pilot plasterer plumber
podiatrist poet policeman policewoman porter postie postman postwoman presenter principal producer professor
programmer psychiatrist psychologist publican publisher radiographer radiologist receptionist recruiter
registrar reporter researcher retailer roofer sailor salesman saleswoman scientist secretary solicitor
singer soldier sonographer sous-chef statistician steward stewardess stockbroker student supervisor surgeon
surveyor tailor teacher technician tester therapist trader trainer translator tutor typist underwriter
vet veterinarian waiter waitress warden welder writer zookeeper governor volunteer
""".split()
)

# what a person eats or does not: the word -> the diet kept
DIETS = {
    "vegetarian": "vegetarian",
    "veggie": "vegetarian",
    "vegan": "vegan",
    "pescatarian": "pescatarian",
    "pescetarian": "pescatarian",
    "flexitarian": "flexitarian",
    "halal": "halal",
    "kosher": "kosher",
    "gluten-free": "gluten-free",
    "gluten free": "gluten-free",
    "dairy-free": "dairy-free",
    "dairy free": "dairy-free",
    "teetotal": "teetotal",
    "tee-total": "teetotal",
    "keto": "keto",
}
# nouns after a diet word that make it a dish, not a diet ("a vegetarian lasagne")
DIET_DISHES = frozenset(
    """
lasagne lasagna recipe recipes option options dish dishes meal meals food restaurant restaurants place places
menu menus version alternative alternatives burger burgers sausage sausages curry chilli pie pies cookbook
friends friend guest guests section starter starters main mains dinner lunch breakfast
""".split()
)

# lasting conditions a person has ("I'm coeliac", "I have asthma"): the words -> the condition kept
CONDITIONS = {
    "coeliac": "coeliac",
    "celiac": "coeliac",
    "diabetic": "diabetes",
    "type 1 diabetic": "type 1 diabetes",
    "type 2 diabetic": "type 2 diabetes",
    "type 1 diabetes": "type 1 diabetes",
    "type 2 diabetes": "type 2 diabetes",
    "diabetes": "diabetes",
    "asthmatic": "asthma",
    "asthma": "asthma",
    "epileptic": "epilepsy",
    "epilepsy": "epilepsy",
    "lactose intolerant": "lactose intolerance",
    "gluten intolerant": "gluten intolerance",
    "colour blind": "colour blind",
    "color blind": "colour blind",
    "colour-blind": "colour blind",
    "colourblind": "colour blind",
    "dyslexic": "dyslexia",
    "dyslexia": "dyslexia",
    "dyspraxic": "dyspraxia",
    "autistic": "autism",
    "adhd": "ADHD",
    "short-sighted": "short-sighted",
    "short sighted": "short-sighted",
    "long-sighted": "long-sighted",
    "long sighted": "long-sighted",
    "migraines": "migraines",
    "arthritis": "arthritis",
    "ibs": "IBS",
    "crohn's": "Crohn's disease",
    "hay fever": "hay fever",
    "high blood pressure": "high blood pressure",
    "a pacemaker": "a pacemaker",
    "eczema": "eczema",
    "psoriasis": "psoriasis",
    "tinnitus": "tinnitus",
    "sleep apnoea": "sleep apnoea",
    "anaemic": "anaemia",
    "hard of hearing": "hard of hearing",
    "registered blind": "registered blind",
    "in a wheelchair": "uses a wheelchair",
    "a wheelchair user": "uses a wheelchair",
}

RELIGIONS = frozenset(
    """
catholic muslim jewish hindu sikh buddhist christian anglican methodist baptist quaker atheist agnostic
mormon orthodox protestant jain pagan
""".split()
)

NATIONALITIES = frozenset(
    """
british english scottish welsh irish northern-irish american canadian australian french german spanish
italian portuguese polish dutch belgian swiss austrian swedish norwegian danish finnish icelandic greek
turkish russian ukrainian romanian bulgarian hungarian czech slovak croatian serbian lithuanian latvian
estonian indian pakistani bangladeshi sri-lankan chinese japanese korean vietnamese thai filipino
indonesian malaysian nigerian ghanaian kenyan south-african egyptian moroccan brazilian argentinian
mexican colombian chilean peruvian jamaican new-zealander kiwi
""".split()
)

CAR_MAKES = frozenset(
    """
ford vauxhall toyota honda kia skoda volkswagen vw audi bmw mercedes fiat nissan hyundai peugeot renault citroen
citroën tesla volvo mini mazda jaguar seat cupra suzuki dacia polestar mg porsche lexus subaru mitsubishi jeep
alfa land-rover range-rover byd smart saab lotus bentley ds
""".split()
)
CAR_MODELS = frozenset(
    """
octavia fabia superb kodiaq karoq golf polo passat tiguan fiesta focus kuga puma corsa astra mokka yaris corolla
prius rav4 aygo civic jazz qashqai juke leaf micra i10 i20 i30 tucson kona ioniq picanto ceed sportage niro
clio megane captur zoe 208 308 2008 3008 c3 c4 500 panda punto model3 x5 a3 a4 a1 q5 discovery defender
""".split()
)
PHONES = (
    "iphone",
    "pixel",
    "samsung",
    "galaxy",
    "motorola",
    "moto",
    "nokia",
    "oneplus",
    "xiaomi",
    "huawei",
    "sony",
    "fairphone",
    "oppo",
    "honor",
)

COLOURS = frozenset(
    """
red blue green black white grey gray silver gold yellow orange purple brown maroon navy beige bronze
""".split()
)

# words that make a message something other than a statement of lasting fact about a life
SECRET_WORDS = (
    r"passwords?|passcodes?|pass\s?phrase|pin(?:\s*(?:number|code))?|pins|login|log-in|log\s?in "
    r"details|username"
    r"|user\s?name|security (?:answer|question|code)|card (?:number|no|details)|credit card|debit "
    r"card|cvv|cvc"
    r"|sort code|account (?:number|no)|iban|api[ -]?keys?|private key|secret key|recovery "
    r"(?:code|phrase|key)"
    r"|seed phrase|one[- ]time code|otp|2fa|two[- ]factor|verification code|access "
    r"code|auth(?:entication)? code"
    r"|codes?|combination|national insurance(?: number)?|ni number|passport number|licence number"
    r"|social security|tokens?|credentials|\bsecret\b"
)
# "code" is a secret, except in these
NOT_SECRET = (
    r"post\s?codes?|zip codes?|area codes?|dress codes?|code of conduct|highway "
    r"code|bar\s?codes?|qr codes?"
)

# a message that imagines, quotes, tells a story or jokes: nothing in it is kept
UNREAL = (
    r"\bif i (?:were|was|had|won|lived|moved|get|got|ever|could|did|went)\b|\bif we "
    r"(?:were|had|won|lived|moved|ever)\b"
    r"|\bimagine\b|\bhypothetical(?:ly)?\b|\bpretend\b|(?<!i )\bsuppose\b|\bwhat if\b|\bi'd "
    r"(?:rather|buy|eat|call|get|"
    r"go|love)\b"
    r"|\bi would\b|\bwould i\b|\bshould i\b|\bshould we\b|\bthinking (?:about|of) "
    r"(?:maybe|possibly)?\b|\bmaybe i'll\b"
    r"|\bone day\b|\bwho knows\b|\bprobably not\b|\bnot sure (?:if|whether)\b|\bi wish\b|\bi "
    r"dreamt\b|\bi dreamed\b"
    r"|\bin (?:the|a|this|my) (?:book|film|movie|show|series|episode|game|novel|story|play|dream)\b"
    r"|\bcharacter\b|\bplot\b|\bstory\b|\bd&d\b|\bhoroscope\b|\baccording "
    r"to\b|\bapparently\b|\breckons\b"
    r"|\bjust kidding\b|\bonly joking\b|\bjk\b|\bhaha no\b|\bnot really\b|\bdon't really\b|\bnot "
    r"actually\b"
    r"|\bknock knock\b|\bjoke\b|\bpoem\b|\bcover letter\b|\bexample\b|\bsaying goes\b|\bsecretly\b"
    r"|\bmy (?:mate|friend|colleague|boss|neighbour)(?:'s \w+)? (?:says|said|reckons|thinks)\b"
    r"|\b(?:a|some|this) (?:guy|bloke|man|woman|lady|girl|boy|stranger|person)\b"
)
# a request to make or do something, not a statement ("Translate ...", "write me a poem about ...")
TASK_OPENERS = frozenset(
    """
translate say write sort make give tell draft pretend imagine summarise summarize rewrite spell list name
find search check calculate convert compose describe explain recommend suggest plan create generate set book
""".split()
)

# task openers that are also nouns ("Book club tonight", "Plan B is the train"): a task only when
# what follows is its object ("book a table", "plan my week", "list 5 ...")
NOUN_OPENERS = frozenset("book plan list name set sort check search find".split())
TASK_OBJECTS = frozenset(
    """
a an the me us my our your his her their them it this that these those some something me up out in everything
all any three two five ten few
""".split()
)

# after "allergic to": not an allergen ("lol I'm allergic to Mondays")
NOT_ALLERGENS = frozenset(
    """
mondays monday tuesdays fridays weekends mornings work exercise effort people you him her them it this that
life school homework cleaning housework running gyms maths meetings early
""".split()
)
