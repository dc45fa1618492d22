"""Fixed facts the gate holds an answer to, as tables: the capital of every country (a small
model says "Toronto", "Zurich", or gives the country back), the planets in order from the Sun,
and the chemical symbols of the common elements. A question about one of them is answered
right only if the answer names it; anything else in such an answer is left to the other checks.

Where a country has more than one capital, every one stands ("Pretoria" or "Cape Town").
"""

from __future__ import annotations

import re
import unicodedata

from tatlock.pipeline.rulebook import Rule, Rulebook

# country (as people type it) -> its capitals
CAPITALS: dict[str, tuple[str, ...]] = {
    "afghanistan": ("Kabul",),
    "albania": ("Tirana",),
    "algeria": ("Algiers",),
    "andorra": ("Andorra la Vella",),
    "angola": ("Luanda",),
    "argentina": ("Buenos Aires",),
    "armenia": ("Yerevan",),
    "australia": ("Canberra",),
    "austria": ("Vienna",),
    "azerbaijan": ("Baku",),
    "bahamas": ("Nassau",),
    "bahrain": ("Manama",),
    "bangladesh": ("Dhaka",),
    "barbados": ("Bridgetown",),
    "belarus": ("Minsk",),
    "belgium": ("Brussels",),
    "belize": ("Belmopan",),
    "benin": ("Porto-Novo", "Cotonou"),
    "bhutan": ("Thimphu",),
    "bolivia": ("Sucre", "La Paz"),
    "bosnia": ("Sarajevo",),
    "bosnia and herzegovina": ("Sarajevo",),
    "botswana": ("Gaborone",),
    "brazil": ("Brasília",),
    "brunei": ("Bandar Seri Begawan",),
    "bulgaria": ("Sofia",),
    "burkina faso": ("Ouagadougou",),
    "burundi": ("Gitega", "Bujumbura"),
    "cambodia": ("Phnom Penh",),
    "cameroon": ("Yaoundé",),
    "canada": ("Ottawa",),
    "cape verde": ("Praia",),
    "chad": ("N'Djamena",),
    "chile": ("Santiago",),
    "china": ("Beijing",),
    "colombia": ("Bogotá",),
    "costa rica": ("San José",),
    "croatia": ("Zagreb",),
    "cuba": ("Havana",),
    "cyprus": ("Nicosia",),
    "czech republic": ("Prague",),
    "czechia": ("Prague",),
    "denmark": ("Copenhagen",),
    "djibouti": ("Djibouti",),
    "dominican republic": ("Santo Domingo",),
    "ecuador": ("Quito",),
    "egypt": ("Cairo",),
    "el salvador": ("San Salvador",),
    "england": ("London",),
    "eritrea": ("Asmara",),
    "estonia": ("Tallinn",),
    "eswatini": ("Mbabane", "Lobamba"),
    "ethiopia": ("Addis Ababa",),
    "fiji": ("Suva",),
    "finland": ("Helsinki",),
    "france": ("Paris",),
    "gabon": ("Libreville",),
    "gambia": ("Banjul",),
    "georgia": ("Tbilisi",),
    "germany": ("Berlin",),
    "ghana": ("Accra",),
    "greece": ("Athens",),
    "guatemala": ("Guatemala City",),
    "guinea": ("Conakry",),
    "guyana": ("Georgetown",),
    "haiti": ("Port-au-Prince",),
    "honduras": ("Tegucigalpa",),
    "hungary": ("Budapest",),
    "iceland": ("Reykjavík",),
    "india": ("New Delhi",),
    "indonesia": ("Jakarta",),
    "iran": ("Tehran",),
    "iraq": ("Baghdad",),
    "ireland": ("Dublin",),
    "israel": ("Jerusalem",),
    "italy": ("Rome",),
    "ivory coast": ("Yamoussoukro", "Abidjan"),
    "jamaica": ("Kingston",),
    "japan": ("Tokyo",),
    "jordan": ("Amman",),
    "kazakhstan": ("Astana",),
    "kenya": ("Nairobi",),
    "kosovo": ("Pristina",),
    "kuwait": ("Kuwait City",),
    "kyrgyzstan": ("Bishkek",),
    "laos": ("Vientiane",),
    "latvia": ("Riga",),
    "lebanon": ("Beirut",),
    "lesotho": ("Maseru",),
    "liberia": ("Monrovia",),
    "libya": ("Tripoli",),
    "liechtenstein": ("Vaduz",),
    "lithuania": ("Vilnius",),
    "luxembourg": ("Luxembourg",),
    "madagascar": ("Antananarivo",),
    "malawi": ("Lilongwe",),
    "malaysia": ("Kuala Lumpur", "Putrajaya"),
    "maldives": ("Malé",),
    "mali": ("Bamako",),
    "malta": ("Valletta",),
    "mauritania": ("Nouakchott",),
    "mauritius": ("Port Louis",),
    "mexico": ("Mexico City",),
    "moldova": ("Chișinău", "Chisinau"),
    "monaco": ("Monaco",),
    "mongolia": ("Ulaanbaatar", "Ulan Bator"),
    "montenegro": ("Podgorica",),
    "morocco": ("Rabat",),
    "mozambique": ("Maputo",),
    "myanmar": ("Naypyidaw", "Nay Pyi Taw"),
    "burma": ("Naypyidaw", "Nay Pyi Taw"),
    "namibia": ("Windhoek",),
    "nepal": ("Kathmandu",),
    "netherlands": ("Amsterdam",),
    "holland": ("Amsterdam",),
    "new zealand": ("Wellington",),
    "nicaragua": ("Managua",),
    "niger": ("Niamey",),
    "nigeria": ("Abuja",),
    "north korea": ("Pyongyang",),
    "north macedonia": ("Skopje",),
    "northern ireland": ("Belfast",),
    "norway": ("Oslo",),
    "oman": ("Muscat",),
    "pakistan": ("Islamabad",),
    "panama": ("Panama City",),
    "papua new guinea": ("Port Moresby",),
    "paraguay": ("Asunción",),
    "peru": ("Lima",),
    "philippines": ("Manila",),
    "poland": ("Warsaw",),
    "portugal": ("Lisbon",),
    "qatar": ("Doha",),
    "romania": ("Bucharest",),
    "russia": ("Moscow",),
    "rwanda": ("Kigali",),
    "saudi arabia": ("Riyadh",),
    "scotland": ("Edinburgh",),
    "senegal": ("Dakar",),
    "serbia": ("Belgrade",),
    "sierra leone": ("Freetown",),
    "singapore": ("Singapore",),
    "slovakia": ("Bratislava",),
    "slovenia": ("Ljubljana",),
    "somalia": ("Mogadishu",),
    "south africa": ("Pretoria", "Cape Town", "Bloemfontein"),
    "south korea": ("Seoul",),
    "korea": ("Seoul",),
    "south sudan": ("Juba",),
    "spain": ("Madrid",),
    "sri lanka": ("Sri Jayawardenepura Kotte", "Kotte", "Colombo"),
    "sudan": ("Khartoum",),
    "suriname": ("Paramaribo",),
    "sweden": ("Stockholm",),
    "switzerland": ("Bern", "Berne"),
    "syria": ("Damascus",),
    "taiwan": ("Taipei",),
    "tajikistan": ("Dushanbe",),
    "tanzania": ("Dodoma",),
    "thailand": ("Bangkok",),
    "togo": ("Lomé",),
    "trinidad and tobago": ("Port of Spain",),
    "tunisia": ("Tunis",),
    "turkey": ("Ankara",),
    "türkiye": ("Ankara",),
    "turkmenistan": ("Ashgabat",),
    "uganda": ("Kampala",),
    "ukraine": ("Kyiv", "Kiev"),
    "united arab emirates": ("Abu Dhabi",),
    "uae": ("Abu Dhabi",),
    "united kingdom": ("London",),
    "uk": ("London",),
    "britain": ("London",),
    "great britain": ("London",),
    "united states": ("Washington",),
    "usa": ("Washington",),
    "america": ("Washington",),
    "the united states": ("Washington",),
    "uruguay": ("Montevideo",),
    "uzbekistan": ("Tashkent",),
    "vatican city": ("Vatican City",),
    "venezuela": ("Caracas",),
    "vietnam": ("Hanoi",),
    "wales": ("Cardiff",),
    "yemen": ("Sanaa", "Sana'a"),
    "zambia": ("Lusaka",),
    "zimbabwe": ("Harare",),
}

# the planets from the Sun; an answer that lists three or more to a question of their order keeps it
PLANETS = ("mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune")

# element -> symbol (the elements people ask about)
SYMBOLS: dict[str, str] = {
    "hydrogen": "H",
    "helium": "He",
    "lithium": "Li",
    "carbon": "C",
    "nitrogen": "N",
    "oxygen": "O",
    "fluorine": "F",
    "neon": "Ne",
    "sodium": "Na",
    "magnesium": "Mg",
    "aluminium": "Al",
    "aluminum": "Al",
    "silicon": "Si",
    "phosphorus": "P",
    "sulphur": "S",
    "sulfur": "S",
    "chlorine": "Cl",
    "argon": "Ar",
    "potassium": "K",
    "calcium": "Ca",
    "titanium": "Ti",
    "chromium": "Cr",
    "manganese": "Mn",
    "iron": "Fe",
    "cobalt": "Co",
    "nickel": "Ni",
    "copper": "Cu",
    "zinc": "Zn",
    "arsenic": "As",
    "bromine": "Br",
    "krypton": "Kr",
    "silver": "Ag",
    "tin": "Sn",
    "iodine": "I",
    "xenon": "Xe",
    "tungsten": "W",
    "platinum": "Pt",
    "gold": "Au",
    "mercury": "Hg",
    "lead": "Pb",
    "radon": "Rn",
    "radium": "Ra",
    "uranium": "U",
    "plutonium": "Pu",
}

# how many: (the words a question names, the right counts); a question that names them all and asks
# how many is answered with one of the counts
COUNTS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (("continents",), (7,)),
    # (not "days in a year": "days left in the year" is no count)
    (("days", "leap", "year"), (366,)),
    (("oceans",), (5,)),
    (("planets",), (8,)),
    (("legs", "spider"), (8,)),
    (("legs", "insect"), (6,)),
    (("legs", "ant"), (6,)),
    (("legs", "octopus"), (8,)),
    (("arms", "octopus"), (8,)),
    (("hearts", "octopus"), (3,)),
    (("sides", "triangle"), (3,)),
    (("sides", "square"), (4,)),
    (("sides", "pentagon"), (5,)),
    (("sides", "hexagon"), (6,)),
    (("sides", "heptagon"), (7,)),
    (("sides", "octagon"), (8,)),
    (("sides", "nonagon"), (9,)),
    (("sides", "decagon"), (10,)),
    (("bones", "adult"), (206,)),
    (("bones", "human"), (206,)),
    (("teeth", "adult"), (32,)),
    (("players", "football"), (11,)),
    (("players", "soccer"), (11,)),
    (("players", "cricket"), (11,)),
    (("players", "rugby", "union"), (15,)),
    (("players", "netball"), (7,)),
    (("keys", "piano"), (88,)),
    (("cards", "deck"), (52,)),
    (("cards", "pack"), (52,)),
    (("strings", "guitar"), (6,)),
    (("strings", "violin"), (4,)),
    (("squares", "chess"), (64,)),
    (("pieces", "chess"), (32,)),
    (("colours", "rainbow"), (7,)),
    (("colors", "rainbow"), (7,)),
    (("days", "leap"), (366,)),
    (("weeks", "year"), (52,)),
    (("months", "year"), (12,)),
    (("states", "us"), (50,)),
    (("states", "united", "states"), (50,)),
    (("states", "america"), (50,)),
    (("days", "week"), (7,)),
    (("hours", "day"), (24,)),
    (("minutes", "hour"), (60,)),
    (("seconds", "minute"), (60,)),
    (("countries", "uk"), (4,)),
    (("countries", "united", "kingdom"), (4,)),
    (("letters", "alphabet"), (26,)),
    (("players", "basketball"), (5,)),
    (("players", "hockey"), (11, 6)),
    (("wives", "henry"), (6,)),
)
_COUNT_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty-four": 24,
    "twenty-six": 26,
    "thirty-two": 32,
    "fifty": 50,
    "fifty-two": 52,
    "sixty": 60,
    "sixty-four": 64,
    "eighty-eight": 88,
}

REFERENCE = Rulebook(
    "gate.reference",
    [
        Rule(
            "reference.asks_capital",
            "asks_capital",
            r"\bcapital\s+(?:city\s+)?(?:of|in)\s+(?:the\s+)?([a-zà-ÿ' "
            r"]{2,40}?)\s*(?:[?.!,]|$|\s+(?:is|and|please|sir))|"
            r"(?<!['’])\b(?!(?:what|who|where|that|it|there|here|he|she|let)['’]s)((?:[a-zà-ÿ]+\s){0,2}[a-zà-ÿ]+)"
            r"(?:['’]s|s['’])\s+capital\b",
            (
                "What's the capital of Australia?",
                "capital of canada",
                "What is Spain's capital?",
                "Capital city of New Zealand, please",
            ),
            ("What's capital gains tax?", "Is London a capital?"),
        ),
        Rule(
            "reference.asks_symbol",
            "asks_symbol",
            r"\b(?:chemical\s+)?symbol\s+(?:of|for)\s+([a-z]+)\b|\b([a-z]+)'s\s+(?:chemical\s+)?symbol\b",
            ("What's the chemical symbol for gold?", "symbol of iron", "What is gold's symbol?"),
            ("What does the symbol mean?",),
        ),
        Rule(
            "reference.how_many",
            "how_many",
            r"\bhow\s+many\b",
            ("How many continents are there?",),
            ("How much is it?",),
        ),
        Rule(
            "reference.hedge",
            "hedge",
            r"\b(?:depends|if\s+you\s+count|some\s+say|it\s+varies|disputed|debated)\b",
            ("seven, or six if you count the Americas as one", "it depends on the code"),
            ("seven, sir",),
        ),
        Rule(
            "reference.which_country",
            "which_country",
            r"\b(?:which|what)\s+country\b",
            ("Which country is famous for the Eiffel Tower?",),
            ("Which city is the Eiffel Tower in?",),
        ),
        Rule(
            "reference.asks_order",
            "asks_order",
            r"\b(?:in\s+order|order\s+from|from\s+the\s+sun|closest\s+to\s+furthest)\b",
            ("Name the planets in order from the Sun",),
            ("What order should I cook these in?",),
        ),
    ],
)


def _plain(text: str) -> str:
    """Lower case without accents ("Brasília" -> "brasilia")."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c)
    )


def _said(name: str, answer: str) -> bool:
    return f" {_plain(name)} " in f" {' '.join(_plain(answer).replace('-', ' ').split())} ".replace(
        ",", " "
    ).replace(".", " ").replace("'s", " ").replace("!", " ").replace(";", " ").replace(":", " ")


def _counts(question: str) -> tuple[int, ...] | None:
    """The well-known count a "how many" question asks for (a spider's legs), or None."""
    if not REFERENCE.labelled("how_many")[0].search(question):
        return None
    q = set(_plain(question).replace("'", " ").replace("?", " ").split())
    if re.search(r"\d", question) or q & set(_COUNT_WORDS):
        return None  # "... three spiders ...?" is a sum
    for names, counts in COUNTS:
        if not all(n in q or n + "s" in q for n in names):
            continue
        if len(names) == 1 and not re.search(
            rf"\bhow\s+many\s+{names[0]}\s+(?:are\s+there|is\s+there|exist|"
            r"(?:are\s+)?(?:there\s+)?(?:in|on)\s+(?:the\s+)?(?:world|earth|"
            r"solar\s+system))",
            question,
            re.I,
        ):
            continue  # "How many planets have rings?" asks something else
        return tuple(counts)
    return None


def known(question: str) -> str | None:
    """The answer these tables give to the question (a country's capital, an element's symbol,
    a well-known count), as said to the user; None for any other question."""
    right = wrong("", question)
    if right and right.startswith(("the capital of ", "the symbol for ")):
        return right[0].upper() + right[1:] + ", $sir."
    counts = _counts(question)
    return f"{counts[0]}, $sir." if counts else None


def wrong(answer: str, question: str) -> str | None:
    """An answer to a question whose answer is one of these tables', without it: the capital, the
    symbol, the planets' order."""
    rule = REFERENCE.labelled("asks_capital")[0]
    # "Is Paris the capital of France?" names its answer: "Yes, sir." is one
    m = (
        rule.search(question)
        if not re.match(r"\W*(?:is|are|was|isn't|wasn't)\b", question, re.I)
        else None
    )
    if m:
        said = _plain((m.group(1) or m.group(2) or "").strip()).split()
        # the country is the last words before "'s capital" ("so what is spain's capital")
        country = next(
            (" ".join(said[-k:]) for k in (3, 2, 1) if " ".join(said[-k:]) in CAPITALS), ""
        )
        capitals = CAPITALS.get(country)
        if capitals and not any(_said(c.replace("-", " "), answer) for c in capitals):
            return f"the capital of {country.title()} is {capitals[0]}"
    m = REFERENCE.labelled("asks_symbol")[0].search(question)
    if m:
        element = (m.group(1) or m.group(2) or "").lower()
        symbol = SYMBOLS.get(element)
        if symbol and not any(w.strip(".,;:!'\"()") == symbol for w in answer.split()):
            return f"the symbol for {element} is {symbol}"
    counts = _counts(question)
    if counts and not REFERENCE.labelled("hedge")[0].search(answer):
        counted = {int(w) for w in re.findall(r"\b\d{1,4}\b", answer)} | {
            n for w, n in _COUNT_WORDS.items() if re.search(rf"\b{w}\b", answer, re.I)
        }
        if counted and not counted & set(counts):
            return f"there are {counts[0]}"
    if REFERENCE.labelled("which_country")[0].search(question):
        # a capital for the country it is the capital of ("Paris" to "Which country...?")
        cities = {_plain(c) for cs in CAPITALS.values() for c in cs} - set(CAPITALS)
        content = [
            w
            for w in _plain(answer).replace(",", " ").replace(".", " ").split()
            if w not in ("sir", "the")
        ]
        if content and " ".join(content) in cities:
            return f"{answer.strip()!r} is a city, not a country"
    if REFERENCE.labelled("asks_order")[0].search(question):
        said = [p for p in (_plain(w).strip(".,;:!()") for w in answer.split()) if p in PLANETS]
        named = list(dict.fromkeys(said))
        if len(named) >= 3 and named != sorted(named, key=PLANETS.index):
            return "the planets are not in their order from the Sun"
    return None
