"""Well-known facts the gate holds an answer to, beside ``reference``'s tables: who painted or
wrote a famous work, the largest planet or ocean, the year of a famous event, an element by its
atomic number, the commonest phrases in the commonest languages; and the popular myths and
unsafe advice a small model repeats with confidence ("the sky reflects the ocean", "water
always boils at 100 °C", "yes, mix bleach and ammonia").

Each fact is a rule on the question (with the questions it must match and near misses it must
not) and the words any right answer names; an answer to such a question that names none of them
is wrong. Each myth is a rule on the answer, asked only of answers to questions about its topic.
An answer that says it does not know is left to the other checks.
"""

from __future__ import annotations

import re

from tatlock.pipeline.rulebook import Rule, Rulebook

# fact id -> the words (lower case, any one of them) a right answer names
RIGHT: dict[str, tuple[str, ...]] = {
    "largest_planet": ("jupiter",),
    "smallest_planet": ("mercury",),
    "hottest_planet": ("venus",),
    "closest_planet": ("mercury",),
    "red_planet": ("mars",),
    "ringed_planet": ("saturn",),
    "sunlight": (
        "8 min",
        "eight min",
        "8.3 min",
        "8.5 min",
        "eight and a half",
        "8 and a half",
        "500 seconds",
        "8 to 9",
        "eight to nine",
        "8-9",
        "8–9",
    ),
    "largest_ocean": ("pacific",),
    "longest_river": ("nile", "amazon"),
    "tallest_mountain": ("everest",),
    "largest_country": ("russia",),
    "smallest_country": ("vatican",),
    "largest_continent": ("asia",),
    "largest_desert": ("sahara", "antarctic"),
    "largest_mammal": ("blue whale",),
    "fastest_animal": ("cheetah",),
    "tallest_animal": ("giraffe",),
    "hardest": ("diamond",),
    "largest_organ": ("skin",),
    "brazil_language": ("portuguese",),
    "moon_distance": ("384", "385", "238", "239", "quarter of a million"),
    "telephone": ("bell",),
    "penicillin": ("fleming",),
    "relativity": ("einstein",),
    "www": ("berners-lee", "berners lee"),
    "moon_walk": ("armstrong",),
    "first_president": ("washington",),
    "titanic": ("1912",),
    "ww2_end": ("1945",),
    "ww2_start": ("1939",),
    "ww1_start": ("1914",),
    "ww1_end": ("1918",),
    "moon_landing": ("1969",),
    "berlin_wall": ("1989",),
    "hastings": ("1066",),
    "columbus": ("1492",),
    "great_fire": ("1666",),
    "independence": ("1776",),
    "boiling_f": ("212",),
    "freezing_f": ("32",),
    "boiling": ("100", "212", "hundred"),
    "freezing": ("0 °", "0°", "zero", "32", " 0 degrees", "0 c", "0c", "0 celsius"),
    "uk_highest": ("ben nevis",),
    "england_highest": ("scafell",),
    "wales_highest": ("snowdon", "yr wyddfa"),
    "uk_longest_river": ("severn",),
    "largest_island": ("greenland", "australia"),
    "largest_lake": ("caspian", "superior"),
    "deepest_ocean": ("mariana", "challenger"),
    "largest_bone": ("femur", "thigh"),
    "smallest_bone": ("stapes", "stirrup"),
    "largest_moon": ("ganymede",),
    "fastest_bird": ("peregrine",),
    "largest_fish": ("whale shark",),
    "largest_land_animal": ("elephant",),
    "tallest_building": ("burj khalifa",),
    "speed_of_sound": (
        "343",
        "340",
        "330",
        "331",
        "332",
        "335",
        "345",
        "346",
        "767",
        "761",
        "1,235",
        "1235",
        "1,225",
        "1225",
        "a third of a",
        "third of a kilometre",
        "mile in five",
        "1,100",
        "1100",
        "1,125",
        "1125",
        "1,200",
        "1200",
        "1,230",
        "1230",
        "750",
        "760",
        "770",
    ),
    "body_temperature": ("37", "98.6", "98.", "36.", "thirty-seven"),
    "chromosomes": ("46", "23 pairs", "forty-six"),
    "absolute_zero": ("273", "459", "0 k", "zero kelvin", "0 kelvin"),
    "speed_of_light": (
        "299",
        "300,000",
        "300 000",
        "300000",
        "186,",
        "186 000",
        "186000",
        "3 x 10",
        "3×10",
        "3 × 10",
        "670 million",
        "671 million",
        "billion",
        "300 million",
        "3 × 10⁸",
        "3x10",
    ),
    "sun_distance": (
        "150 million",
        "149.6",
        "149 million",
        "93 million",
        "8 light",
        "1 au",
        "one astronomical",
    ),
    "uk_motorway": ("70",),
    "water_formula": ("h2o", "h₂o"),
    "blue_yellow": ("green",),
    "red_yellow": ("orange",),
    "red_blue": ("purple", "violet"),
}
# a famous work -> the words (any one) that name who made it; asked of "who wrote X" and of "X by Y"
WORKS: dict[str, tuple[str, ...]] = {
    "mona lisa": ("leonardo", "da vinci"),
    "the last supper": ("leonardo", "da vinci"),
    "sistine chapel": ("michelangelo",),
    "the starry night": ("van gogh",),
    "starry night": ("van gogh",),
    "sunflowers": ("van gogh",),
    "the scream": ("munch",),
    "guernica": ("picasso",),
    "the girl with a pearl earring": ("vermeer",),
    "girl with a pearl earring": ("vermeer",),
    "the night watch": ("rembrandt",),
    "the birth of venus": ("botticelli",),
    "the hay wain": ("constable",),
    "romeo and juliet": ("shakespeare",),
    "hamlet": ("shakespeare",),
    "macbeth": ("shakespeare",),
    "othello": ("shakespeare",),
    "king lear": ("shakespeare",),
    "the tempest": ("shakespeare",),
    "a midsummer night's dream": ("shakespeare",),
    "twelfth night": ("shakespeare",),
    "pride and prejudice": ("austen",),
    "sense and sensibility": ("austen",),
    "emma": ("austen",),
    "wuthering heights": ("emily",),
    "jane eyre": ("charlotte",),
    "1984": ("orwell",),
    "nineteen eighty-four": ("orwell",),
    "animal farm": ("orwell",),
    "oliver twist": ("dickens",),
    "great expectations": ("dickens",),
    "a christmas carol": ("dickens",),
    "david copperfield": ("dickens",),
    "bleak house": ("dickens",),
    "harry potter": ("rowling",),
    "the hobbit": ("tolkien",),
    "the lord of the rings": ("tolkien",),
    "war and peace": ("tolstoy",),
    "anna karenina": ("tolstoy",),
    "sherlock holmes": ("doyle",),
    "dracula": ("stoker",),
    "frankenstein": ("mary shelley", "shelley"),
    "the great gatsby": ("fitzgerald",),
    "to kill a mockingbird": ("harper lee", "lee"),
    "moby dick": ("melville",),
    "moby-dick": ("melville",),
    "brave new world": ("huxley",),
    "the catcher in the rye": ("salinger",),
    "lord of the flies": ("golding",),
    "the remains of the day": ("ishiguro",),
    "never let me go": ("ishiguro",),
    "don quixote": ("cervantes",),
    "crime and punishment": ("dostoevsky", "dostoyevsky"),
    "the origin of species": ("darwin",),
    "on the origin of species": ("darwin",),
    "a brief history of time": ("hawking",),
    "the odyssey": ("homer",),
    "the iliad": ("homer",),
    "the divine comedy": ("dante",),
    "the canterbury tales": ("chaucer",),
    "paradise lost": ("milton",),
    "the picture of dorian gray": ("wilde",),
    "the importance of being earnest": ("wilde",),
    "alice's adventures in wonderland": ("carroll",),
    "alice in wonderland": ("carroll",),
    "the jungle book": ("kipling",),
    "treasure island": ("stevenson",),
    "the wind in the willows": ("grahame",),
    "peter pan": ("barrie",),
    "the handmaid's tale": ("atwood",),
    "the four seasons": ("vivaldi",),
    "the magic flute": ("mozart",),
    "moonlight sonata": ("beethoven",),
    "the messiah": ("handel",),
    "swan lake": ("tchaikovsky",),
    "the nutcracker": ("tchaikovsky",),
    # more of the works people ask about (data: each row widens the one rule built from them)
    "the tenant of wildfell hall": ("anne",),
    "agnes grey": ("anne",),
    "villette": ("charlotte",),
    "middlemarch": ("eliot", "evans"),
    "silas marner": ("eliot", "evans"),
    "the mill on the floss": ("eliot", "evans"),
    "persuasion": ("austen",),
    "mansfield park": ("austen",),
    "northanger abbey": ("austen",),
    "tess of the d'urbervilles": ("hardy",),
    "far from the madding crowd": ("hardy",),
    "jude the obscure": ("hardy",),
    "a tale of two cities": ("dickens",),
    "hard times": ("dickens",),
    "little dorrit": ("dickens",),
    "the pickwick papers": ("dickens",),
    "nicholas nickleby": ("dickens",),
    "vanity fair": ("thackeray",),
    "heart of darkness": ("conrad",),
    "ulysses": ("joyce",),
    "dubliners": ("joyce",),
    "mrs dalloway": ("woolf",),
    "to the lighthouse": ("woolf",),
    "a room of one's own": ("woolf",),
    "the time machine": ("wells",),
    "the war of the worlds": ("wells",),
    "the invisible man": ("wells", "ellison"),
    "twenty thousand leagues under the sea": ("verne",),
    "around the world in eighty days": ("verne",),
    "les misérables": ("hugo",),
    "les miserables": ("hugo",),
    "the hunchback of notre-dame": ("hugo",),
    "the three musketeers": ("dumas",),
    "the count of monte cristo": ("dumas",),
    "madame bovary": ("flaubert",),
    "the brothers karamazov": ("dostoevsky", "dostoyevsky"),
    "the metamorphosis": ("kafka",),
    "one hundred years of solitude": ("márquez", "marquez"),
    "the old man and the sea": ("hemingway",),
    "a farewell to arms": ("hemingway",),
    "for whom the bell tolls": ("hemingway",),
    "the grapes of wrath": ("steinbeck",),
    "of mice and men": ("steinbeck",),
    "east of eden": ("steinbeck",),
    "the adventures of tom sawyer": ("twain",),
    "tom sawyer": ("twain",),
    "huckleberry finn": ("twain",),
    "the adventures of huckleberry finn": ("twain",),
    "little women": ("alcott",),
    "the scarlet letter": ("hawthorne",),
    "catch-22": ("heller",),
    "slaughterhouse-five": ("vonnegut",),
    "fahrenheit 451": ("bradbury",),
    "lolita": ("nabokov",),
    "the bell jar": ("plath",),
    "brideshead revisited": ("waugh",),
    "a clockwork orange": ("burgess",),
    "the lion, the witch and the wardrobe": ("lewis",),
    "the chronicles of narnia": ("lewis",),
    "charlie and the chocolate factory": ("dahl",),
    "the bfg": ("dahl",),
    "winnie-the-pooh": ("milne",),
    "winnie the pooh": ("milne",),
    "the tale of peter rabbit": ("potter",),
    "gulliver's travels": ("swift",),
    "robinson crusoe": ("defoe",),
    "the hitchhiker's guide to the galaxy": ("adams",),
    "the da vinci code": ("brown",),
    "the hunger games": ("collins",),
    "the kite runner": ("hosseini",),
    "life of pi": ("martel",),
    "wolf hall": ("mantel",),
    "atonement": ("mcewan",),
    "the waste land": ("eliot",),
    "the raven": ("poe",),
    "the art of war": ("sun tzu",),
    "the communist manifesto": ("marx", "engels"),
    "the wealth of nations": ("smith",),
    "julius caesar": ("shakespeare",),
    "richard iii": ("shakespeare",),
    "the merchant of venice": ("shakespeare",),
    "much ado about nothing": ("shakespeare",),
    "as you like it": ("shakespeare",),
    "the taming of the shrew": ("shakespeare",),
    "a doll's house": ("ibsen",),
    "waiting for godot": ("beckett",),
    "death of a salesman": ("miller",),
    "the crucible": ("miller",),
    "pygmalion": ("shaw",),
    "the water lilies": ("monet",),
    "water lilies": ("monet",),
    "impression, sunrise": ("monet",),
    "the fighting temeraire": ("turner",),
    "rain, steam and speed": ("turner",),
    "the persistence of memory": ("dalí", "dali"),
    "the creation of adam": ("michelangelo",),
    "the school of athens": ("raphael",),
    "las meninas": ("velázquez", "velazquez"),
    "the garden of earthly delights": ("bosch",),
    "the great wave off kanagawa": ("hokusai",),
    "the great wave": ("hokusai",),
    "american gothic": ("wood",),
    "nighthawks": ("hopper",),
    "the arnolfini portrait": ("van eyck",),
    "the laughing cavalier": ("hals",),
    "whistler's mother": ("whistler",),
    "the blue boy": ("gainsborough",),
    "the ninth symphony": ("beethoven",),
    "für elise": ("beethoven",),
    "fur elise": ("beethoven",),
    "the marriage of figaro": ("mozart",),
    "eine kleine nachtmusik": ("mozart",),
    "the planets": ("holst",),
    "the enigma variations": ("elgar",),
    "rhapsody in blue": ("gershwin",),
    "the ride of the valkyries": ("wagner",),
    "the rite of spring": ("stravinsky",),
    "the 1812 overture": ("tchaikovsky",),
    "bolero": ("ravel",),
    "clair de lune": ("debussy",),
    "the blue danube": ("strauss",),
    "la traviata": ("verdi",),
    "madama butterfly": ("puccini",),
    "the lark ascending": ("vaughan williams",),
    "jerusalem": ("parry", "blake"),
}
_TITLES = "|".join(
    sorted((t.replace(" ", r"\s+").replace("'", "['’]") for t in WORKS), key=len, reverse=True)
)

# days kept on the same date every year -> (day, month)
FIXED_DAYS: dict[str, tuple[int, int]] = {
    "burns night": (25, 1),
    "st andrew's day": (30, 11),
    "st patrick's day": (17, 3),
    "st george's day": (23, 4),
    "st david's day": (1, 3),
    "bonfire night": (5, 11),
    "guy fawkes night": (5, 11),
    "halloween": (31, 10),
    "christmas day": (25, 12),
    "christmas eve": (24, 12),
    "boxing day": (26, 12),
    "new year's eve": (31, 12),
    "new year's day": (1, 1),
    "valentine's day": (14, 2),
    "april fools' day": (1, 4),
    "april fool's day": (1, 4),
    "armistice day": (11, 11),
    "remembrance day": (11, 11),
    "independence day": (4, 7),
    "bastille day": (14, 7),
    "hogmanay": (31, 12),
    "twelfth night": (5, 1),
    "epiphany": (6, 1),
    "all saints' day": (1, 11),
}
_DAYS = "|".join(
    sorted(
        (d.replace(" ", r"\s+").replace("'", "['’]?") for d in FIXED_DAYS), key=len, reverse=True
    )
)
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)

# atomic number -> element (the ones people ask about)
ELEMENTS = {
    1: "hydrogen",
    2: "helium",
    3: "lithium",
    6: "carbon",
    7: "nitrogen",
    8: "oxygen",
    10: "neon",
    11: "sodium",
    12: "magnesium",
    13: "aluminium",
    17: "chlorine",
    20: "calcium",
    26: "iron",
    29: "copper",
    30: "zinc",
    47: "silver",
    50: "tin",
    79: "gold",
    80: "mercury",
    82: "lead",
    92: "uranium",
}
# phrase -> language -> the words any right rendering holds
PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "good morning": {
        "spanish": ("buenos",),
        "french": ("bonjour",),
        "german": ("guten morgen",),
        "italian": ("buongiorno", "buon giorno"),
        "portuguese": ("bom dia",),
        "dutch": ("goedemorgen",),
    },
    "hello": {
        "spanish": ("hola",),
        "french": ("bonjour", "salut"),
        "german": ("hallo", "guten tag"),
        "italian": ("ciao", "buongiorno", "salve"),
        "portuguese": ("olá", "ola", "oi"),
        "japanese": ("konnichiwa", "こんにちは"),
    },
    "thank you": {
        "spanish": ("gracias",),
        "french": ("merci",),
        "german": ("danke",),
        "italian": ("grazie",),
        "portuguese": ("obrigad",),
        "japanese": ("arigat", "ありがとう"),
        "dutch": ("dank",),
    },
    "goodbye": {
        "spanish": ("adiós", "adios", "hasta"),
        "french": ("au revoir", "adieu", "salut"),
        "german": ("auf wiedersehen", "tschüss", "tschuss"),
        "italian": ("arrivederci", "ciao"),
    },
    "please": {
        "spanish": ("por favor",),
        "french": ("s'il vous", "s'il te"),
        "german": ("bitte",),
        "italian": ("per favore", "prego", "per piacere"),
    },
    # more of the phrases people ask for (data: the rule is built from these keys)
    "good night": {
        "spanish": ("buenas noches",),
        "french": ("bonne nuit",),
        "german": ("gute nacht",),
        "italian": ("buona notte", "buonanotte"),
        "portuguese": ("boa noite",),
    },
    "i am hungry": {
        "spanish": ("tengo hambre", "tengo mucha hambre"),
        "french": ("j'ai faim",),
        "german": ("ich habe hunger", "ich bin hungrig"),
        "italian": ("ho fame",),
        "portuguese": ("estou com fome", "tenho fome"),
    },
    "i love you": {
        "spanish": ("te quiero", "te amo"),
        "french": ("je t'aime",),
        "german": ("ich liebe dich",),
        "italian": ("ti amo", "ti voglio bene"),
        "portuguese": ("eu te amo", "amo-te", "te amo"),
    },
    "how are you": {
        "spanish": ("cómo estás", "como estas", "cómo está", "como esta", "qué tal", "que tal"),
        "french": ("comment allez", "comment vas", "ça va", "ca va"),
        "german": ("wie geht",),
        "italian": ("come stai", "come sta", "come va"),
        "portuguese": ("como está", "como esta", "tudo bem"),
    },
    "excuse me": {
        "spanish": ("perdón", "perdon", "disculpe", "con permiso", "perdone"),
        "french": ("excusez", "pardon", "excuse-moi"),
        "german": ("entschuldigung", "verzeihung"),
        "italian": ("scusi", "scusa", "permesso"),
    },
    "where is the station": {
        "spanish": ("estación",),
        "french": ("gare",),
        "german": ("bahnhof",),
        "italian": ("stazione",),
    },
    "where is the train station": {
        "spanish": ("estación",),
        "french": ("gare",),
        "german": ("bahnhof",),
        "italian": ("stazione",),
    },
}
_PHRASE_KEYS = "|".join(
    sorted((k.replace(" ", r"\s+") for k in [*PHRASES, "thanks"]), key=lambda k: (-len(k), k))
)
_LANGUAGES = "|".join(sorted({lang for table in PHRASES.values() for lang in table}))
# words that mark an answer as in one language, to tell a greeting in the wrong one ("Bonjour" for
# Spanish)
MARKS = {
    "spanish": ("hola", "gracias", "buenos", "buenas", "adiós", "por favor"),
    "french": ("bonjour", "merci", "au revoir", "bonsoir", "s'il vous"),
    "german": ("guten", "danke", "hallo", "tschüss", "bitte", "auf wiedersehen"),
    "italian": ("buongiorno", "grazie", "ciao", "arrivederci", "prego"),
    "portuguese": ("obrigad", "bom dia", "olá"),
    "japanese": ("arigat", "konnichiwa", "ohayo"),
}

FACTS = Rulebook(
    "gate.knowledge",
    [
        Rule(
            "knowledge.largest_planet",
            "largest_planet",
            r"\b(?:largest|biggest)\s+planet\b",
            ("What's the largest planet in the solar system?", "biggest planet?"),
            ("Is Earth a large planet?",),
        ),
        Rule(
            "knowledge.smallest_planet",
            "smallest_planet",
            r"\bsmallest\s+planet\b",
            ("the smallest planet?",),
            ("small planets",),
        ),
        Rule(
            "knowledge.hottest_planet",
            "hottest_planet",
            r"\bhottest\s+planet\b",
            ("Which is the hottest planet?",),
            ("hot planets",),
        ),
        Rule(
            "knowledge.closest_planet",
            "closest_planet",
            r"\bplanet\s+(?:is\s+)?(?:closest|nearest)\s+to\s+the\s+sun\b",
            ("Which planet is closest to the Sun?",),
            ("Which planet is closest to Earth?",),
        ),
        Rule(
            "knowledge.red_planet",
            "red_planet",
            r"\bred\s+planet\b",
            ("Which planet is known as the Red Planet?",),
            ("a red apple",),
        ),
        Rule(
            "knowledge.sunlight",
            "sunlight",
            r"\blight\b.{0,30}\bsun\b.{0,30}\b(?:reach|get\s+to|travel|arrive)|"
            r"\bhow\s+long\b.{0,20}\bsunlight\b",
            (
                "How long does light from the sun take to reach us?",
                "how long does sunlight take to get here",
            ),
            ("How long is the sun up today?",),
        ),
        Rule(
            "knowledge.largest_ocean",
            "largest_ocean",
            r"\b(?:largest|biggest|deepest)\s+ocean\b|\bocean\s+is\s+the\s+"
            r"(?:largest|biggest)\b",
            ("Which ocean is the biggest?", "What's the largest ocean?"),
            ("ocean views",),
        ),
        Rule(
            "knowledge.longest_river",
            "longest_river",
            r"\blongest\s+river\s+in\s+the\s+world\b|\bworld's\s+longest\s+river\b",
            ("What is the longest river in the world?",),
            ("the longest river in England",),
        ),
        Rule(
            "knowledge.tallest_mountain",
            "tallest_mountain",
            r"\b(?:tallest|highest)\s+mountain\s+(?:in|on)\s+(?:the\s+)?"
            r"(?:world|earth|planet)\b|\bworld's\s+(?:tallest|highest)\s+mountain\b",
            ("What's the tallest mountain in the world?",),
            ("the highest mountain in Wales",),
        ),
        Rule(
            "knowledge.largest_country",
            "largest_country",
            r"\b(?:largest|biggest)\s+country\s+(?:in\s+the\s+world|"
            r"by\s+(?:area|size))\b",
            ("What's the largest country in the world?",),
            ("largest country by population",),
        ),
        Rule(
            "knowledge.smallest_country",
            "smallest_country",
            r"\bsmallest\s+country\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("smallest country in the world?",),
            ("small countries", "the smallest country in Africa"),
        ),
        Rule(
            "knowledge.largest_continent",
            "largest_continent",
            r"\b(?:largest|biggest)\s+continent\b",
            ("Which is the largest continent?",),
            ("continents",),
        ),
        Rule(
            "knowledge.largest_desert",
            "largest_desert",
            r"\b(?:largest|biggest)\s+desert\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("largest desert?",),
            ("dessert", "the largest desert in Asia"),
        ),
        Rule(
            "knowledge.largest_mammal",
            "largest_mammal",
            r"\b(?:largest|biggest)\s+(?:mammal|animal)\s+(?:in\s+the\s+world|"
            r"on\s+earth|ever)\b|\b(?:largest|biggest)\s+mammal\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("What's the largest mammal?",),
            ("largest land animal", "the largest mammal in Britain"),
        ),
        Rule(
            "knowledge.fastest_animal",
            "fastest_animal",
            r"\bfastest\s+land\s+animal\b",
            ("fastest land animal?",),
            ("fastest bird",),
        ),
        Rule(
            "knowledge.tallest_animal",
            "tallest_animal",
            r"\btallest\s+animal\b",
            ("What's the tallest animal?",),
            ("tall animals",),
        ),
        Rule(
            "knowledge.hardest",
            "hardest",
            r"\bhardest\s+(?:natural\s+)?(?:substance|material|mineral)\b",
            ("the hardest natural substance?",),
            ("hardest sudoku",),
        ),
        Rule(
            "knowledge.largest_organ",
            "largest_organ",
            r"\b(?:largest|biggest)\s+organ\b",
            ("largest organ of the body?",),
            ("organ music",),
        ),
        Rule(
            "knowledge.brazil_language",
            "brazil_language",
            r"\blanguage\b.{0,30}\bbrazil\b|\bbrazil\w*\b.{0,20}\bspeak\b",
            ("What language do they speak in Brazil?",),
            ("Where is Brazil?",),
        ),
        Rule(
            "knowledge.moon_distance",
            "moon_distance",
            r"\bhow\s+far\b.{0,20}\bmoon\b|\bdistance\b.{0,30}\bmoon\b",
            ("How far away is the Moon?", "the distance from the Earth to the Moon?"),
            ("How far is the shop?",),
        ),
        Rule(
            "knowledge.telephone",
            "telephone",
            r"\bwho\s+invented\s+the\s+telephone\b",
            ("Who invented the telephone?",),
            ("Who invented the television?",),
        ),
        Rule(
            "knowledge.penicillin",
            "penicillin",
            r"\bwho\s+discovered\s+penicillin\b",
            ("Who discovered penicillin?",),
            ("What is penicillin?",),
        ),
        Rule(
            "knowledge.relativity",
            "relativity",
            r"\bwho\b.{0,30}\btheory\s+of\s+relativity\b",
            ("Who came up with the theory of relativity?",),
            ("What is the theory of relativity?",),
        ),
        Rule(
            "knowledge.www",
            "www",
            r"\bwho\s+invented\s+the\s+(?:world\s+wide\s+)?web\b",
            ("Who invented the web?",),
            ("Who invented the internet?",),
        ),
        Rule(
            "knowledge.moon_walk",
            "moon_walk",
            r"\bwho\b.{0,20}\bfirst\b.{0,30}\b(?:walk|step|set\s+foot|land)\w*\s+on\s+the\s+moon\b",
            ("Who was the first person to walk on the Moon?", "who first set foot on the moon"),
            ("Who went to the Moon?",),
        ),
        Rule(
            "knowledge.first_president",
            "first_president",
            r"\bfirst\s+(?:us\s+|american\s+)?president\s+of\s+the\s+"
            r"(?:us|usa|united\s+states)\b|\bfirst\s+(?:us|american)\s+president\b",
            ("Who was the first president of the United States?",),
            ("Who is the president?",),
        ),
        Rule(
            "knowledge.titanic",
            "titanic",
            r"\bwhen\b.{0,20}\btitanic\s+sink\b|\bwhat\s+year\b.{0,25}\btitanic\b|"
            r"\btitanic\b.{0,15}\bsink\b",
            ("When did the Titanic sink?", "what year did the titanic go down"),
            ("Who directed Titanic?",),
        ),
        Rule(
            "knowledge.ww2_end",
            "ww2_end",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\b(?:second\s+world\s+war|world\s+war\s+(?:ii|2|two)|"
            r"ww2|wwii)\b.{0,10}\bend\b|\bend\s+of\s+(?:the\s+)?(?:second\s+world\s+war|world\s+war\s+(?:ii|2|two)|ww2|wwii)\b",
            ("In which year did the Second World War end?", "When did WW2 end?"),
            ("When did WW2 start?",),
        ),
        Rule(
            "knowledge.ww2_start",
            "ww2_start",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\b(?:second\s+world\s+war|world\s+war\s+"
            r"(?:ii|2|two)|ww2|wwii)\b.{0,10}\b(?:start|begin|began|break\s+out)\b",
            ("When did WW2 start?",),
            ("When did WW2 end?",),
        ),
        Rule(
            "knowledge.ww1_start",
            "ww1_start",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\b(?:first\s+world\s+war|world\s+war\s+"
            r"(?:i|1|one)|ww1|wwi)\b.{0,10}\b(?:start|begin|began|break\s+out)\b",
            ("When did the First World War start?",),
            ("When did WW1 end?",),
        ),
        Rule(
            "knowledge.ww1_end",
            "ww1_end",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\b(?:first\s+world\s+war|world\s+war\s+(?:i|1|one)|"
            r"ww1|wwi)\b.{0,10}\bend\b",
            ("When did WW1 end?",),
            ("When did WW1 start?",),
        ),
        Rule(
            "knowledge.moon_landing",
            "moon_landing",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\b(?:moon\s+landing|land\w*\s+on\s+the\s+moon)\b",
            ("What year was the first moon landing?", "When did humans first land on the Moon?"),
            ("Who landed on the Moon?",),
        ),
        Rule(
            "knowledge.berlin_wall",
            "berlin_wall",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\bberlin\s+wall\b.{0,20}\b(?:fall|come\s+down|"
            r"fell|torn)",
            ("What year did the Berlin Wall come down?", "When did the Berlin Wall fall?"),
            ("When was the Berlin Wall built?",),
        ),
        Rule(
            "knowledge.hastings",
            "hastings",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\bbattle\s+of\s+hastings\b",
            ("When was the Battle of Hastings?",),
            ("Where is Hastings?",),
        ),
        Rule(
            "knowledge.columbus",
            "columbus",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\bcolumbus\b.{0,30}\b(?:america|sail|reach|discover)",
            ("In what year did Columbus reach America?",),
            ("Who was Columbus?",),
        ),
        Rule(
            "knowledge.great_fire",
            "great_fire",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,30}\bgreat\s+fire\s+of\s+london\b",
            ("When was the Great Fire of London?",),
            ("What caused the Great Fire of London?",),
        ),
        Rule(
            "knowledge.independence",
            "independence",
            r"\b(?:when|(?:what|which)\s+year)\b.{0,40}\b(?:declaration\s+of\s+independence|"
            r"american\s+independence)\b",
            ("What year was the Declaration of Independence signed?",),
            ("What is the Declaration of Independence?",),
        ),
        Rule(
            "knowledge.boiling_f",
            "boiling_f",
            r"\b(?:boiling\s+point\s+of\s+(?:pure\s+)?water|(?:temperature|degrees|how\s+hot)\b.{0,30}\bwater\s+boils?|water\s+boils?\s+at)\b.{0,30}\bfahrenheit\b",
            ("What's the boiling point of water in Fahrenheit?",),
            ("What's the boiling point of water in Celsius?",),
        ),
        Rule(
            "knowledge.freezing_f",
            "freezing_f",
            r"\b(?:freezing\s+point\s+of\s+(?:pure\s+)?water|(?:temperature|degrees|how\s+cold)\b.{0,30}\bwater\s+freezes?|water\s+freezes?\s+at)\b.{0,30}\bfahrenheit\b",
            ("freezing point of water in fahrenheit?",),
            ("freezing point of water in Celsius",),
        ),
        Rule(
            "knowledge.boiling",
            "boiling",
            r"\b(?:boiling\s+point\s+of\s+(?:pure\s+)?water|(?:temperature|degrees|how\s+hot)\b"
            r".{0,30}\bwater\s+boils?|water\s+boils?\s+at)\b(?!.{0,40}\b(?:everest|altitude|mountain|high\s+up|summit|top\s+of)\b)",
            (
                "What's the boiling point of water in Fahrenheit?",
                "At what temperature does water boil?",
            ),
            (
                "How long does water take to boil in a kettle?",
                "What temperature does water boil at on top of Everest?",
            ),
        ),
        Rule(
            "knowledge.freezing",
            "freezing",
            r"\b(?:freezing\s+point\s+of\s+(?:pure\s+)?water|(?:temperature|degrees|how\s+cold)\b"
            r".{0,30}\bwater\s+freezes?|water\s+freezes?\s+at)\b",
            (
                "What is the freezing point of water in Celsius?",
                "At what temperature does water freeze?",
            ),
            ("Is it freezing?", "How long does water take to freeze in the freezer?"),
        ),
        Rule(
            "knowledge.uk_highest",
            "uk_highest",
            r"\b(?:highest|tallest)\s+mountain\s+in\s+(?:the\s+)?(?:uk|united\s+kingdom|"
            r"britain|great\s+britain|scotland|the\s+british\s+isles)\b|\b(?:uk|britain)'s\s+(?:highest|tallest)\s+mountain\b",
            ("What's the highest mountain in the UK?",),
            ("highest mountain in the world",),
        ),
        Rule(
            "knowledge.england_highest",
            "england_highest",
            r"\b(?:highest|tallest)\s+mountain\s+in\s+england\b",
            ("highest mountain in England?",),
            ("highest mountain in Wales",),
        ),
        Rule(
            "knowledge.wales_highest",
            "wales_highest",
            r"\b(?:highest|tallest)\s+mountain\s+in\s+wales\b",
            ("What's the highest mountain in Wales?",),
            ("highest mountain in England",),
        ),
        Rule(
            "knowledge.uk_longest_river",
            "uk_longest_river",
            r"\blongest\s+river\s+in\s+(?:the\s+)?(?:uk|united\s+kingdom|"
            r"britain|great\s+britain)\b",
            ("Which is the longest river in the UK?",),
            ("longest river in England",),
        ),
        Rule(
            "knowledge.largest_island",
            "largest_island",
            r"\b(?:largest|biggest)\s+island\s+in\s+the\s+world\b|"
            r"\bworld's\s+(?:largest|biggest)\s+island\b",
            ("What's the largest island in the world?",),
            ("largest island in Scotland",),
        ),
        Rule(
            "knowledge.largest_lake",
            "largest_lake",
            r"\b(?:largest|biggest)\s+lake\s+in\s+the\s+world\b",
            ("What's the biggest lake in the world?",),
            ("largest lake in England",),
        ),
        Rule(
            "knowledge.deepest_ocean",
            "deepest_ocean",
            r"\bdeepest\s+(?:point|part|place|trench)\b.{0,20}\b(?:ocean|sea|"
            r"world|earth)\b",
            ("Where is the deepest point in the ocean?",),
            ("deepest lake",),
        ),
        Rule(
            "knowledge.largest_bone",
            "largest_bone",
            r"\b(?:largest|longest|biggest)\s+bone\b",
            ("What's the longest bone?",),
            ("bone broth",),
        ),
        Rule(
            "knowledge.smallest_bone",
            "smallest_bone",
            r"\bsmallest\s+bone\b",
            ("smallest bone in the body?",),
            ("small bones",),
        ),
        Rule(
            "knowledge.largest_moon",
            "largest_moon",
            r"\b(?:largest|biggest)\s+moon\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("largest moon in the solar system?",),
            ("a big moon tonight", "the largest moon of Saturn"),
        ),
        Rule(
            "knowledge.fastest_bird",
            "fastest_bird",
            r"\bfastest\s+bird\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("What's the fastest bird?",),
            ("fast birds", "fastest bird in Britain"),
        ),
        Rule(
            "knowledge.largest_fish",
            "largest_fish",
            r"\b(?:largest|biggest)\s+fish\b(?!\s+(?:in|of|on|around|from)\s+(?!the\s+(?:world|earth|planet|solar\s+system|universe|sea|oceans?)\b))",
            ("What's the biggest fish?",),
            ("big fish", "the biggest fish in the Thames"),
        ),
        Rule(
            "knowledge.largest_land_animal",
            "largest_land_animal",
            r"\b(?:largest|biggest|heaviest)\s+land\s+(?:animal|mammal)\b",
            ("What's the largest land animal?",),
            ("fastest land animal",),
        ),
        Rule(
            "knowledge.tallest_building",
            "tallest_building",
            r"\btallest\s+building\s+in\s+the\s+world\b|"
            r"\bworld's\s+tallest\s+building\b",
            ("What's the tallest building in the world?",),
            ("tallest building in London",),
        ),
        Rule(
            "knowledge.speed_of_sound",
            "speed_of_sound",
            r"\bspeed\s+of\s+sound\b|\bhow\s+fast\s+(?:does|is)\s+sound\b",
            ("How fast does sound travel?", "What's the speed of sound?"),
            ("How fast is a cheetah?",),
        ),
        Rule(
            "knowledge.body_temperature",
            "body_temperature",
            r"\b(?:normal|average|human)\s+body\s+temperature\b",
            ("What's the normal human body temperature?",),
            ("body temperature of a dog",),
        ),
        Rule(
            "knowledge.chromosomes",
            "chromosomes",
            r"\bhow\s+many\s+chromosomes\b.{0,25}\b(?:humans?|people|we|person|cell)\b",
            ("How many chromosomes do humans have?",),
            ("How many chromosomes does a dog have?",),
        ),
        Rule(
            "knowledge.absolute_zero",
            "absolute_zero",
            r"\babsolute\s+zero\b",
            ("What temperature is absolute zero?",),
            ("zero tolerance",),
        ),
        Rule(
            "knowledge.speed_of_light",
            "speed_of_light",
            r"\bspeed\s+of\s+light\b|\bhow\s+fast\s+(?:does|is)\s+light\b",
            ("What's the speed of light?", "how fast does light travel"),
            ("How fast is a light aircraft?",),
        ),
        Rule(
            "knowledge.sun_distance",
            "sun_distance",
            r"\bhow\s+far\b.{0,25}\b(?:from|to)\s+the\s+sun\b|\bdistance\b.{0,25}\b"
            r"(?:earth|we)\b.{0,15}\bsun\b",
            ("How far is the Earth from the Sun?",),
            ("How far is Mars from Earth?",),
        ),
        Rule(
            "knowledge.uk_motorway",
            "uk_motorway",
            r"\bspeed\s+limit\b.{0,30}\b(?:uk|british|english)\s+motorway\b|"
            r"\bmotorway\s+speed\s+limit\b",
            ("What's the speed limit for a car on a UK motorway?",),
            ("speed limit in France",),
        ),
        Rule(
            "knowledge.water_formula",
            "water_formula",
            r"\bchemical\s+formula\s+(?:for|of)\s+water\b",
            ("What's the chemical formula for water?",),
            ("formula one",),
        ),
        Rule(
            "knowledge.blue_yellow",
            "blue_yellow",
            r"\b(?:mix\w*|combin\w*)\b.{0,15}\b(?:blue\s+and\s+yellow|yellow\s+and\s+blue)\b",
            ("What colour do you get by mixing blue and yellow?",),
            ("blue and yellow flags",),
        ),
        Rule(
            "knowledge.red_yellow",
            "red_yellow",
            r"\b(?:mix\w*|combin\w*)\b.{0,15}\b(?:red\s+and\s+yellow|yellow\s+and\s+red)\b",
            ("mixing red and yellow makes what?",),
            ("red and yellow flowers",),
        ),
        Rule(
            "knowledge.red_blue",
            "red_blue",
            r"\b(?:mix\w*|combin\w*)\b.{0,15}\b(?:red\s+and\s+blue|blue\s+and\s+red)\b",
            ("What do you get if you mix red and blue?",),
            ("red and blue team",),
        ),
    ],
)

ASKS = Rulebook(
    "gate.knowledge_asks",
    [
        # who made a famous work: the title is the rule's group
        Rule(
            "knowledge.who_made",
            "who_made",
            r"\b(?:who|which\s+(?:artist|author|writer|painter|composer))\s+(?:wrote|painted|composed|created|penned|"
            r"was\s+the\s+author\s+of|is\s+the\s+author\s+of|did)\s+(?:the\s+(?:book|novel|play|painting|ceiling\s+of\s+the)\s+)?"
            r"['\"‘“]?(?:the\s+)?(" + _TITLES + r")\b",
            (
                "Who wrote Wuthering Heights?",
                "Who painted the Mona Lisa?",
                "who wrote romeo and juliet",
                "Who painted the Sistine Chapel ceiling?",
                "Which author wrote 'The Remains of the Day'?",
            ),
            ("Who read Hamlet to you?", "Where is the Mona Lisa?"),
        ),
        # when a day kept on a fixed date falls: the day is the rule's group
        Rule(
            "knowledge.fixed_day",
            "fixed_day",
            r"\b(?:when(?:'s|\s+is|\s+was)|what\s+(?:date|day)\s+is)\s+(?:it\s+)?("
            + _DAYS
            + r")\b",
            ("when is Burns Night?", "What date is St Patrick's Day?", "when's hogmanay"),
            ("What is Burns Night?",),
        ),
        # a work named with its maker ("'The Remains of the Day' by Ian McEwan")
        Rule(
            "knowledge.work_by",
            "work_by",
            r"['\"‘“]?\b((?i:"
            + _TITLES
            + r"))\b['\"’”]?,?\s+(?:by|from)\s+((?:[A-Z][\w.'-]*\s*){1,4})",
            (
                "May I suggest 'The Remains of the Day' by Ian McEwan, sir",
                "Hamlet by Christopher Marlowe",
            ),
            ("hamlet, by the way, is long",),
            flags=0,
        ),
        Rule(
            "knowledge.element_number",
            "element_number",
            r"\b(?:element|which\s+element)\b.{0,25}\batomic\s+number\s+(\d{1,3})\b|"
            r"\batomic\s+number\s+(\d{1,3})\b.{0,20}\belement\b",
            ("which element is atomic number 1", "Which element has atomic number 79?"),
            ("What is an atomic number?",),
        ),
        Rule(
            "knowledge.phrase",
            "phrase",
            r"\b(" + _PHRASE_KEYS + r")\b['\"’”]?\s+(?:in|into)\s+(" + _LANGUAGES + r")\b",
            (
                "How do you say good morning in Spanish?",
                "how do you say thank you in Japanese",
                "translate hello into German",
                "how do I say 'I am hungry' in Spanish",
            ),
            ("Say hello to my French friend",),
        ),
        # an answer that does not know, or will not say: not a wrong fact
        Rule(
            "knowledge.unsure",
            "unsure",
            r"\b(?:not\s+(?:sure|certain)|don't\s+know|do\s+not\s+know|cannot\s+(?:say|be\s+sure)|"
            r"can't\s+(?:say|be\s+sure)|no\s+idea|unsure|i'm\s+afraid\s+i)\b",
            ("I'm not sure, sir.", "I don't know"),
            ("Jupiter, sir.",),
        ),
    ],
)

# popular myths and unsafe advice (a dangerous mix, a food poisonous to pets said to be fine), asked
# of an answer to a question on the same topic
MYTHS = Rulebook(
    "gate.myths",
    [
        Rule(
            "myth.sky_ocean",
            "sky",
            r"\b(?:reflect\w*|mirror\w*)\b.{0,40}\b(?:oceans?|seas?|water)\b|"
            r"\b(?:oceans?|seas?)\b.{0,40}\b(?:reflect\w*|mirror\w*)\b",
            (
                "Because it reflects the colour of the oceans, sir.",
                "It mirrors the blue of the sea, sir.",
            ),
            ("Sunlight scatters off the air, sir.",),
        ),
        # the right account of it, beside which a word on the sea is an aside
        Rule(
            "myth.sky_right",
            "sky_right",
            r"\b(?:scatter\w*|rayleigh)\b",
            ("Sunlight scatters off the air",),
            ("It reflects the sea",),
        ),
        Rule(
            "myth.boil_always",
            "boil",
            r"\b(?:always|regardless|no\s+matter|wherever|everywhere)\b.{0,40}\b100\b|"
            r"\b100\b.{0,40}\b(?:always|regardless|no\s+matter|wherever|everywhere)\b|^\W*(?:exactly\s+)?100\s*(?:°|degrees)",
            (
                "Exactly 100 °C, sir; water always boils at 100 degrees regardless of where you "
                "are.",
            ),
            ("About 70 °C, sir, rather than the 100 at sea level.",),
        ),
        Rule(
            "myth.affirms",
            "unsafe",
            r"^\W*(?:yes|yep|certainly|of\s+course|absolutely|sure)\b|\b(?:effective|safe|fine|"
            r"works?\s+(?:well|wonders)|great\s+combination|particularly\s+good)\b",
            ("Yes, sir, the combination makes a particularly effective cleaner.",),
            ("No, sir. Never mix them: the fumes are toxic.",),
        ),
        Rule(
            "myth.warns",
            "warns",
            r"\b(?:never|not|don't|do\s+not|toxic|poison\w*|danger\w*|harmful|deadly|fumes|chloramine|"
            r"chlorine\s+gas|unsafe|avoid)\b",
            ("Never mix them: toxic fumes.",),
            ("Yes, an effective cleaner.",),
        ),
    ],
)
# the topic a question must be on for a myth to be read in its answer
TOPICS = Rulebook(
    "gate.myth_topics",
    [
        Rule(
            "myth_topic.sky",
            "sky",
            r"\bsky\b.{0,20}\bblue\b|\bblue\b.{0,20}\bsky\b",
            ("Why is the sky blue?",),
            ("Why is the sea blue?",),
        ),
        Rule(
            "myth_topic.boil",
            "boil",
            r"\bboil\w*\b.{0,50}\b(?:everest|altitude|mountain|high\s+up|summit|top\s+of)\b|"
            r"\b(?:everest|altitude|mountain)\b.{0,50}\bboil",
            ("What temperature does water boil at on top of Everest?",),
            ("How long do I boil an egg?",),
        ),
        Rule(
            "myth_topic.pet_food",
            "unsafe",
            r"\b(?:dogs?|pupp(?:y|ies)|cats?|kittens?)\b.{0,40}\b(?:grapes?|raisins?|chocolate|onions?|garlic|xylitol|"
            r"macadamia|lil(?:y|ies))\b|\b(?:grapes?|raisins?|chocolate|onions?|xylitol|lil(?:y|ies))\b.{0,40}\b(?:dogs?|"
            r"pupp(?:y|ies)|cats?|kittens?)\b",
            ("is it ok to give my dog grapes as a treat?", "Can cats eat onions?"),
            ("Can dogs eat carrots?",),
        ),
        Rule(
            "myth_topic.mix",
            "unsafe",
            r"\bbleach\b.{0,40}\b(?:ammonia|vinegar|acid|toilet\s+cleaner|other\s+cleaners?)\b|"
            r"\b(?:ammonia|vinegar)\b.{0,40}\bbleach\b",
            ("Can I mix bleach and ammonia to get the bathroom really clean?",),
            ("Can I use bleach on the sink?",),
        ),
    ],
)

_YES_NO = re.compile(
    r"\W*(?:is|are|was|were|isn't|wasn't|do|does|did|can|could|has|have|had)\b", re.I
)


def _plain(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _names(answer: str, right: tuple[str, ...]) -> bool:
    low = f" {_plain(answer)} "
    return any(r in low for r in right)


def _work(title: str) -> str | None:
    key = " ".join(title.lower().replace("’", "'").split())
    return next((k for k in (key, f"the {key}", key.removeprefix("the ")) if k in WORKS), None)


def wrong(answer: str, question: str) -> str | None:
    """Why an answer to a question of well-known fact is wrong, or None."""
    if ASKS.first(answer, "unsure"):
        return None
    # "Is Jupiter the largest planet?" names its answer: "Yes, sir." is one
    rule = FACTS.first(question) if not _YES_NO.match(question) else None
    if (
        rule is not None
        and not _names(answer, RIGHT[rule.label])
        and not _names(question, RIGHT[rule.label])
    ):
        return (
            f"a well-known fact answered wrong ({rule.label.replace('_', ' ')}: "
            f"{RIGHT[rule.label][0]})"
        )
    m = ASKS.labelled("who_made")[0].search(question)
    if m:
        work = _work(m.group(1))
        if work and not _names(answer, WORKS[work]):
            return f"{work.title()} is by {WORKS[work][0].title()}"
    for m in ASKS.labelled("work_by")[0].regex.finditer(answer):
        work = _work(m.group(1))
        if work and not _names(m.group(2), WORKS[work]):
            return f"{work.title()} is not by {m.group(2).strip()}"
    m = ASKS.labelled("fixed_day")[0].search(question)
    if m:
        key = next(
            (
                d
                for d in FIXED_DAYS
                if d.replace("'", "")
                == " ".join(m.group(1).lower().replace("'", "").replace("’", "").split())
            ),
            None,
        )
        low = _plain(answer)
        said = [
            i
            for i, month in enumerate(_MONTHS, 1)
            if month != "may" and (month in low or f" {month[:3]} " in f" {low} ")
        ]
        said += [5] if re.search(r"\d(?:st|nd|rd|th)?\s+(?:of\s+)?may\b|\bmay\s+\d", low) else []
        if key and said:
            day, month = FIXED_DAYS[key]
            if month not in said or not re.search(rf"\b{day}(?:st|nd|rd|th)?\b", low):
                return f"{key.capitalize()} is on {day} {_MONTHS[month - 1].title()}"
    m = ASKS.labelled("element_number")[0].search(question)
    if m:
        element = ELEMENTS.get(int(m.group(1) or m.group(2)))
        if element and element not in _plain(answer):
            return f"atomic number {m.group(1) or m.group(2)} is {element}"
    m = ASKS.labelled("phrase")[0].search(question)
    if m:
        phrase, language = " ".join(m.group(1).lower().split()), m.group(2).lower()
        phrase = "thank you" if phrase == "thanks" else phrase
        right = PHRASES.get(phrase, {}).get(language)
        other = [
            lang for lang, marks in MARKS.items() if lang != language and _names(answer, marks)
        ]
        if (right and not _names(answer, right)) or (
            other and not _names(answer, MARKS.get(language, ()))
        ):
            return f"{phrase!r} is not given in {language.title()}"
    for topic in [r.label for r in TOPICS.matches(question)]:
        if topic == "unsafe":
            if MYTHS.first(answer, "unsafe") and not MYTHS.first(answer, "warns"):
                return "unsafe advice: something dangerous said to be fine"
        elif MYTHS.first(answer, topic) and not MYTHS.first(answer, f"{topic}_right"):
            return f"a popular myth given as fact ({topic})"
    return None
