"""Public list ``encyclopedic_persons``: a person on no list who is the topic of an encyclopedic question, by
the frame of the question, never by the name: "Which/What/How many ... did NAME <verb>", "Why is NAME famous",
"What is NAME known for", "Who was (Lord/Saint/...) NAME", "Tell me about NAME", "NAME's <theory/reign/novel>",
"the physicist NAME", "a dog named NAME", "Admiral NAME" in any question, "NAME won the Nobel Prize" (the frames
in full: the patterns below). A bare first name counts only in the famous/known-for, profession, title and
"named" frames. Nothing in the paragraph around the name, or
around another mention of it, may point to a private person (``_private_context.private_evidence``), nor
anything in the text (``private_person_in_text``: "What did NAME discover in the quarterly figures?");
``person_ties`` applies on top. PERSON, and LOCATION or NRP where spaCy mistypes a full name in a frame that can
only be a person's. The default policy keeps it, strict does not. Why, and what it costs: docs/security.md
("Decision on public figures on no list"). Cue words written by hand for ztgate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public._private_context import private_evidence, private_person_in_text
from ztgate.redaction.detection.text_shape import sentence_bounds
from ztgate.redaction.detection.public.public_works import ARTWORKS

# Titles of public office or rank, rank of nobility, sainthood (not Mr/Ms/Dr: those are private evidence).
TITLES = (r"Lord|Lady|Sir|Dame|Saint|St\.?|Queen|King|President|Emperor|Empress|Pope|Prince|Princess|Tsar|Czar|"
          r"Tsarina|Sultan|Pharaoh|Chancellor|Prime\s+Minister|General|Admiral|Field\s+Marshal|Archbishop|Cardinal|"
          r"Duke|Duchess|Earl|Count|Countess|Baron|Baroness|Shah|Caliph|Khan|Senator|Governor")
_NAME = (rf"(?:(?:{TITLES})\s+)?[A-Z][\w'’.\-]*(?:\s+(?:[A-Z][\w'’.\-]*|de|da|di|del|van|von|der|den|la|le|du|bin|"
         r"ibn|al))*")
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+)"
# Other names of a list before and after the one decided ("Who were Ada Byron, Mary Somerville and ...").
_LIST_BEFORE = rf"(?:{_NAME}{_SEP})*"
_LIST_AFTER = rf"(?:{_SEP}{_NAME})*"

_WH = r"\b(?:which|what|how|when|where|why|whom|who|whose)\b"
# Verbs a question about a public figure's deeds asks with (base form after "did").
VERBS = (r"win|discover|invent|prove|disprove|formulate|compose|paint|sculpt|conquer|explore|found|establish|"
         r"pioneer|rule|reign|abolish|unify|unite|invade|coloni[sz]e|circumnavigate|assassinate|defeat|abdicate|"
         r"excavate|patent|theori[sz]e|populari[sz]e|climb|summit|command|die|perish|direct|star|sing|record|"
         r"publish|release|fly|sail|reach|set\s+foot|become\s+(?:famous|known|king|queen|emperor|empress|pharaoh|"
         r"president|pope|prime\s+minister|the\s+first)|land|orbit|walk\s+on|observe|predict|describe|classify|"
         r"translate|decipher|map|chart|survey|sign|negotiate|lose|score")
# Passive forms a history question asks with ("When was NAME crowned").
_PASSIVE = (r"crowned|assassinated|canoni[sz]ed|beatified|knighted|beheaded|executed|exiled|martyred|deposed|"
            r"overthrown|enthroned|ennobled|excommunicated|impeached|inaugurated")
# Objects of history and science: after "which/what" any verb is a deed ("Which pharaoh's tomb did ... open").
OBJECTS = (r"tombs?|pyramids?|temples?|battles?|wars?|campaigns?|empires?|kingdoms?|territor(?:y|ies)|colon(?:y|ies)|"
           r"continents?|planets?|moons?|comets?|asteroids?|galax(?:y|ies)|stars?|species|fossils?|dinosaurs?|"
           r"vaccines?|theorems?|conjectures?|equations?|paradox(?:es)?|hypothes[ie]s|treat(?:y|ies)|"
           r"expeditions?|voyages?|peaks?|summits?|majors?|grand\s+slams?|olympics?|gold\s+medals?|medals?|"
           r"nobel\s+prizes?|elements?|particles?|dynast(?:y|ies)|crusades?|revolutions?|"
           rf"{ARTWORKS}")
# A structure: "build" or "design" after it is a deed ("Which house did ... build over a waterfall").
STRUCTURES = (r"houses?|mansions?|villas?|towers?|cathedrals?|churche?s?|chapels?|palaces?|temples?|pyramids?|"
              r"tombs?|monuments?|museums?|dams?|canals?|railways?|skyscrapers?|castles?|mosques?|libraries|library|"
              r"stadiums?|observatories|observatory|bridges?|buildings?|theatres?|theaters?|gardens?|cities|city|"
              r"ships?|aircraft|planes?|engines?|machines?")
# What a possessive after the name names when it is a public figure's ("NAME's theory", "NAME's reign"); not
# the words work talk says of a colleague ("views", "ideas", "experiments", "campaigns", "contributions", "career").
POSSESSED = (r"theor(?:y|ies)|theorems?|conjectures?|hypothes[ie]s|paradox(?:es)?|principles?|equations?|"
             r"expeditions?|voyages?|reign|conquests?|legacy|discover(?:y|ies)|inventions?|"
             r"achievements?|philosophy|teachings|doctrine|dynasty|empire|presidency|papacy|"
             r"assassination|coronation|abdication|tomb|mausoleum|victor(?:y|ies)|"
             r"masterpieces?|oeuvre|poetry|writings|"
             rf"{ARTWORKS}")
# Professions of public figures for an apposition ("the Scottish physicist NAME"); no office job: "the
# developer Anna", "the engineer Tom", "the director" and "the doctor" name colleagues as often.
PROFESSIONS = (r"physicist|chemist|mathematician|astronomer|biologist|naturalist|geologist|botanist|zoologist|"
               r"economist|philosopher|theologian|historian|novelist|poet|poetess|playwright|dramatist|author|"
               r"painter|sculptor|composer|conductor|pianist|violinist|cellist|architect|explorer|navigator|"
               r"aviator|aviatrix|astronaut|cosmonaut|inventor|pharaoh|emperor|empress|king|queen|tsar|sultan|"
               r"general|admiral|conqueror|revolutionary|statesman|stateswoman|president|prime\s+minister|"
               r"chancellor|golfer|sprinter|athlete|footballer|boxer|cyclist|swimmer|tennis\s+player|chess\s+player|"
               r"grandmaster|mountaineer|filmmaker|actor|actress|singer|songwriter|rapper|guitarist|dancer|ballerina|"
               r"saint|prophet|apostle|pope|reformer|suffragette|abolitionist|pirate|emperor|warlord|scientist|"
               r"polymath|nun|monk|missionary|pilot|batsman|cricketer|quarterback|pitcher|writer|essayist|satirist|"
               r"lyricist|librettist|printmaker|engraver|physiologist|biochemist|geneticist|anthropologist|"
               r"arch(?:a)?eologist|egyptologist|pal(?:a)?eontologist|sociologist|linguist|primatologist|ethologist|"
               r"ornithologist|entomologist|microbiologist|bacteriologist|astrophysicist|cosmologist|diplomat|"
               r"dictator|monarch|ruler|shogun|samurai|chieftain|activist|suffragist|jurist|orator|tenor|soprano|"
               r"baritone|musician|bandleader|trumpeter|saxophonist|film\s+director|racing\s+driver|jockey|"
               r"typographer|type\s+designer|typeface\s+designer|punchcutter|calligrapher|type\s+founder|"
               r"(?:tennis|chess|world|olympic|boxing)\s+champion|olympian|skier|figure\s+skater|gymnast|"
               r"wrestler|fencer|rower|industrialist|tycoon|magnate|philanthropist")
_CREATURES = (r"dog|cat|horse|pony|wolf|bear|pig|rabbit|mouse|bird|dragon|robot|character|protagonist|hero|heroine|"
              r"narrator|detective|wizard|witch|boy|girl|man|woman|sailor|pirate|knight|prince|princess|giant|"
              r"orphan|creature|monster|ship|lion|whale|elf|hobbit|alien|android|captain|king|queen")
_WORK_WORDS = re.compile(r"(?i)\b(?:novels?|books?|stor(?:y|ies)|films?|movies?|plays?|series|poems?|tales?|sagas?|"
                         r"epics?|operas?|musicals?|comics?|cartoons?|shows?|fables?|myths?|legends?|sitcoms?|"
                         r"trilog(?:y|ies)|franchise)\b")
_FAMOUS = (r"famous|known|well[\s-]known|important|remembered|significant|celebrated|notable|influential|revered|"
           r"honou?red|admired|controversial|iconic|legendary|renowned|called|considered\s+(?:a|an|the)|"
           r"regarded\s+as|so\s+important")

_ASKS = re.compile(
    rf"(?i)^\W*(?:{_WH}|(?:can|could|would)\s+you\b|tell\s+(?:me|us)\b|explain\b|describe\b|compare\b|"
    r"contrast\b|summari[sz]e\b|outline\b|discuss\b|give\s+(?:me\s+)?an?\s+(?:short\s+|brief\s+)?(?:overview|"
    r"summary|biography|history|account)\b|write\s+(?:me\s+)?an?\s+(?:short\s+|brief\s+)?(?:biography|bio|profile|"
    r"essay|summary|poem)\b|in\s+(?:which|what)\b|(?:is|was|were|did|does)\b)")
_YEAR = re.compile(r"\b(?:1[0-8]\d\d|19[0-6]\d)\b|\bcentur(?:y|ies)\b|\b\d+\s*(?:BC|BCE|AD|CE)\b|\bancient\b")

_DID = re.compile(rf"(?i){_WH}[^.!?\n]{{0,100}}?\b(?:did|does|do|has|had|have|would|could|can)\s+"
                  rf"(?-i:{_LIST_BEFORE})$")
_DID_OBJECT = re.compile(rf"(?i){_WH}\s+(?:[\w'’\-]+\s+){{0,4}}?(?:{OBJECTS})\s+(?:did|does|has|had)\s+"
                         rf"(?-i:{_LIST_BEFORE})$")
_DID_STRUCTURE = re.compile(rf"(?i){_WH}\s+(?:[\w'’\-]+\s+){{0,3}}?(?:{STRUCTURES})\s+(?:did|does|has|had)\s+"
                            rf"(?-i:{_LIST_BEFORE})$")
_ADVERB = r"(?:(?:first|ever|famously|actually|finally|eventually|originally|later|once|also|still|never|really)\s+)?"
_AFTER_VERB = re.compile(rf"(?-i:{_LIST_AFTER})\s+{_ADVERB}(?i:{VERBS})\b")
_AFTER_BUILD = re.compile(rf"(?-i:{_LIST_AFTER})\s+{_ADVERB}(?i:build|design|construct|commission|found)\b")
_AFTER_ANY_VERB = re.compile(rf"(?-i:{_LIST_AFTER})\s+{_ADVERB}[a-z]+\b")
_WAS = re.compile(rf"(?i){_WH}[^.!?\n]{{0,60}}?\b(?:was|were|is)\s+(?-i:{_LIST_BEFORE})$")
_AFTER_PASSIVE = re.compile(rf"(?-i:{_LIST_AFTER})\s+(?:first\s+|finally\s+)?(?i:{_PASSIVE})\b")

_WHY = re.compile(rf"(?i)\b(?:why|how)\s+(?:is|was|are|were|did|does)\s+(?-i:{_LIST_BEFORE})$")
_AFTER_FAMOUS = re.compile(
    rf"(?-i:{_LIST_AFTER})\s+(?:(?:so|still|best|most|widely|often|now|today|considered|regarded\s+as|become|"
    rf"became|get|got)\s+)*(?i:{_FAMOUS})\b")
_KNOWN_FOR = re.compile(rf"(?i)\b(?:what|for\s+what)\s+(?:is|was|are|were)\s+(?-i:{_LIST_BEFORE})$")
_AFTER_KNOWN_FOR = re.compile(rf"(?-i:{_LIST_AFTER})\s+(?:best\s+|most\s+|mainly\s+|chiefly\s+|mostly\s+)?"
                              r"(?i:known|famous|remembered|celebrated|noted|renowned)\b")
_MADE = re.compile(rf"(?i)\bwhat\s+made\s+(?-i:{_LIST_BEFORE})$")
_WHO = re.compile(rf"(?i)\bwho\s+(?:was|were)\s+(?-i:{_LIST_BEFORE})$")
_WHO_TITLE = re.compile(rf"(?i)\bwho\s+(?:was|were|is|are)\s+(?:the\s+)?(?-i:{TITLES})\s+$")
_AFTER_WHO = re.compile(rf"(?-i:{_LIST_AFTER})\s*(?:[?!.;:]|$|,|\s+and\s+(?:what|why|how|when|where|which)\b|"
                        r"\s+(?:in|during)\s+(?:history|the\b))")
_TELL = re.compile(
    r"(?i)\b(?:tell\s+(?:me|us)\s+(?:more\s+|a\s+bit\s+|a\s+little\s+)?about|explain|describe|summari[sz]e|"
    r"outline|discuss|compare|contrast|give\s+(?:me\s+)?(?:an?\s+)?(?:short\s+|brief\s+)?(?:overview|summary|"
    r"biography|history|account)\s+of|write\s+(?:me\s+)?(?:an?\s+)?(?:short\s+|brief\s+)?(?:biography|bio|"
    r"profile|essay|summary|poem)\s+(?:of|on|about)|what\s+do\s+you\s+know\s+about|who\s+were)\s+"
    r"(?:the\s+(?:life|lives|work|works|career|legacy|discoveries|achievements|contributions|ideas|theories|"
    r"philosophy|paintings|music|reign|rule|influence|impact|biography|history|significance|importance|"
    r"rivalry|voyages|expeditions|campaigns|writings|poetry|novels|films)\s+(?:of\s+|between\s+))?"
    rf"(?-i:{_LIST_BEFORE})$")
_AFTER_TELL = re.compile(rf"(?-i:{_LIST_AFTER})\s*(?:[?!.;:]|$|,|\s+and\s+|\s+in\s+|['’]s?\s+(?i:{POSSESSED})\b)")
_AFTER_POSSESSED = re.compile(
    rf"(?-i:{_LIST_AFTER})['’]s?\s+(?:(?:most\s+|best\s+|first\s+|last\s+|early\s+|later\s+|late\s+|major\s+|"
    r"main\s+|greatest\s+|key\s+|final\s+|famous\s+|best[-\s]known\s+|scientific\s+|political\s+)+)?"
    rf"(?i:{POSSESSED})\b")
_AFTER_TITLE_WORK = re.compile(
    r"['’]s\s+[A-Z][\w'’\-]*(?:\s+(?:[A-Z][\w'’\-]*|of|the|and|a|in|on))*\s+"
    r"(?:(?:first\s+)?(?:set|about|based|written|published|released|adapted|performed|premiered|painted|composed|"
    r"filmed|staged)\b)")
_PROFESSION = re.compile(rf"(?i)\bthe\s+(?:[\w\-]+\s+){{0,2}}?(?:{PROFESSIONS})\s+(?-i:{_LIST_BEFORE})$")
_NAMED = re.compile(rf"(?i)\b(?:a|an|the)\s+(?:[\w\-]+\s+){{0,2}}?(?:{_CREATURES})\s+(?:named|called)\s+"
                    rf"(?-i:{_LIST_BEFORE})$")
_TITLE_BEFORE = re.compile(rf"(?:{TITLES})\s+$")
# Ranks no private person holds by being one (peers, knights, royalty, the church, admirals): a name after one in
# a sentence that asks is the topic of an encyclopedic question ("What did Admiral Jellicoe command?"); not "Lady",
# a courtesy title of many private persons.
RANKS = (r"Lord|Sir|Dame|Saint|St\.?|Queen|King|Emperor|Empress|Pope|Prince|Princess|Tsar|Czar|Tsarina|"
         r"Sultan|Pharaoh|Admiral|Field\s+Marshal|Archbishop|Cardinal|Duke|Duchess|Earl|Countess|Baron|Baroness|"
         r"Viscount|Marquess|Marquis|Shah|Caliph|Emir|Maharaja|Shogun|Kaiser")
_RANK_BEFORE = re.compile(rf"(?<![\w'’])(?:{RANKS})\s+$")
_RANK_IN = re.compile(rf"(?:{RANKS})\s")
# Prizes and titles that only public figures win ("the Nobel Prize", "Wimbledon", "an Olympic gold medal").
PRIZES = (r"Nobel(?:\s+(?:Peace|Memorial))?(?:\s+Prizes?)?|Pulitzers?(?:\s+Prizes?)?|(?:Man\s+)?Booker(?:\s+Prizes?)?|"
          r"Oscars?|Academy\s+Awards?|Grammys?(?:\s+Awards?)?|Emmys?(?:\s+Awards?)?|Tony\s+Awards?|Golden\s+Globes?|"
          r"BAFTAs?|Palme\s+d['’]Or|Golden\s+(?:Lion|Bear)|Fields\s+Medal|Abel\s+Prize|Turing\s+Award|Wolf\s+Prize|"
          r"Kyoto\s+Prize|Lasker\s+Award|Copley\s+Medal|Prix\s+Goncourt|Cervantes\s+Prize|Sakharov\s+Prize|"
          r"Victoria\s+Cross|Medal\s+of\s+Honou?r|Presidential\s+Medal\s+of\s+Freedom|Wimbledon|Grand\s+Slams?|"
          r"(?:US|U\.S\.|French|Australian)\s+Opens?|Ryder\s+Cup|Davis\s+Cup|Tour\s+de\s+France|"
          r"Giro\s+d['’]Italia|Ballon\s+d['’]Or|World\s+Cups?|Olympics?|Olympic\s+(?:gold|silver|bronze|medals?|"
          r"titles?|Games)|Super\s+Bowls?|Stanley\s+Cups?|World\s+Series|Champions\s+League|Formula\s+(?:One|1)|"
          r"Heisman\s+Trophy|Eurovision|Hugo\s+Awards?|Nebula\s+Awards?|Newbery\s+Medal|Caldecott\s+Medal|"
          r"world\s+(?:championships?|titles?)|heavyweight\s+(?:titles?|championships?)")
_WIN = (r"win|wins|won|winning|awarded|receive[sd]?|receiving|claim(?:ed|s)?|lift(?:ed|s)?|earn(?:ed|s)?|"
        r"(?:take|took)\s+home|collect(?:ed|s)?")
_WON_AFTER = re.compile(rf"(?-i:{_LIST_AFTER})[^.!?\n;]{{0,80}}?\b(?i:{_WIN})\b[^.!?\n]{{0,40}}?(?-i:\b(?:{PRIZES}))")
_PRIZE_BEFORE = re.compile(rf"(?-i:\b(?:{PRIZES}))[^.!?\n]{{0,60}}\b(?i:did|does|has|had)\s+(?-i:{_LIST_BEFORE})$")
_WIN_AFTER = re.compile(rf"(?-i:{_LIST_AFTER})\s+(?:ever\s+|actually\s+)?"
                        r"(?i:win|won|claim|lift|have|get|collect|earn)\b")
_THEY_WON = re.compile(rf"(?i)\b(?:he|she|they|his|her|their)\b[^.!?\n]{{0,80}}?\b(?:{_WIN})\b|"
                       rf"(?-i:\b(?:{PRIZES}))[^.!?\n]{{0,60}}\b(?i:did|does|has|had)\s+(?i:he|she|they)\s+(?i:win)\b")
_PRIZE = re.compile(rf"\b(?:{PRIZES})")
# How far the sentence after the name's is read for a pronoun's prize ("... did he win?").
NEXT_SENTENCE_REACH = 160
_TITLE_IN = re.compile(rf"(?:{TITLES})\s")
_POSSESSIVE_TITLE = re.compile(r"([^'’]+)['’]s\s+[A-Z][\w'’\-]*(?:\s+(?:[A-Z][\w'’\-]*|of|the|and|a|in|on))*")
# Capitals of the Latin scripts ("É", "Ö", "Ł"): an accented given name is a full name's word ("Ödön Lechner").
UPPER = "".join(sorted(c for c in map(chr, range(0x41, 0x250)) if c.isupper()))
_CAP = f"[{re.escape(UPPER)}]"
_FULL_NAME = re.compile(rf"{_CAP}[\w'’.\-]+(?:\s+(?:[a-z]{{1,3}}\s+|d['’])?{_CAP}[\w'’.\-]+){{1,4}}")

_SENTENCE_END = re.compile(r"[!?\n]|(?<![A-Z])(?<!\bSt)(?<!\bMt)\.(?=\s|$)")

# How far the sentence is read around the name.
SENTENCE_REACH = 200


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    return sentence_bounds(text, start, end, _SENTENCE_END, SENTENCE_REACH, with_end=True)


_ASKS_AT = re.compile(_ASKS.pattern.replace("^", "", 1))


def asks(text: str, start: int, end: int) -> bool:
    """The sentence around text[start:end] asks: a question, or a request ("Summarise ...", "Tell me about ...")."""
    lo, hi = _sentence(text, start, end)
    return _ASKS_AT.match(text, lo, hi) is not None or text[lo:hi].rstrip().endswith("?")


def in_frame(text: str, start: int, end: int, entity_type: str = "PERSON") -> bool:
    """Whether text[start:end] sits in one of the module's frames (nothing about private evidence)."""
    lo, hi = _sentence(text, start, end)
    if _ASKS.match(text, lo, hi) is None and not text[lo:hi].rstrip().endswith("?"):
        return entity_type == "PERSON" and _won_prize(text, start, end, lo, hi)
    value = text[start:end]
    if entity_type == "PERSON" and _won_prize(text, start, end, lo, hi):
        return True
    if _RANK_BEFORE.search(text, max(0, start - 30), start) is not None or _RANK_IN.match(value) is not None:
        return True  # a rank no private person holds, in a sentence that asks
    titled = _TITLE_BEFORE.search(text, max(0, start - 30), start) is not None or _TITLE_IN.match(value) is not None
    full = titled or _FULL_NAME.fullmatch(value) is not None
    if entity_type != "PERSON":
        # A place or a group's name in a person's frame only where the frame can only be a person's, and the
        # span has a full name's shape.
        if not full:
            return False
        return ((_DID.search(text, lo, start) is not None and _AFTER_VERB.match(text, end, hi) is not None)
                or (_WHO_TITLE.search(text, lo, start) is not None and _AFTER_WHO.match(text, end, hi) is not None)
                or (_PROFESSION.search(text, lo, start) is not None))
    if ((_WHY.search(text, lo, start) and _AFTER_FAMOUS.match(text, end, hi))
            or ((_KNOWN_FOR.search(text, lo, start) or _MADE.search(text, lo, start))
                and _AFTER_KNOWN_FOR.match(text, end, hi) or
                (_MADE.search(text, lo, start) and _AFTER_FAMOUS.match(text, end, hi)))
            or _PROFESSION.search(text, lo, start) is not None
            or (_NAMED.search(text, lo, start) is not None and _WORK_WORDS.search(text, lo, hi) is not None)
            or (titled and _WHO_TITLE.search(text, lo, start) and _AFTER_WHO.match(text, end, hi))):
        return True
    if not full:
        return False
    return bool(
        (_DID.search(text, lo, start) and (_AFTER_VERB.match(text, end, hi)
                                           or (_YEAR.search(text, lo, hi) and _AFTER_ANY_VERB.match(text, end, hi))))
        or (_DID_OBJECT.search(text, lo, start) and _AFTER_ANY_VERB.match(text, end, hi))
        or (_DID_STRUCTURE.search(text, lo, start) and _AFTER_BUILD.match(text, end, hi))
        or (_WAS.search(text, lo, start) and _AFTER_PASSIVE.match(text, end, hi))
        or (_WHO.search(text, lo, start) and _AFTER_WHO.match(text, end, hi))
        or (_TELL.search(text, lo, start) and _AFTER_TELL.match(text, end, hi))
        or _AFTER_POSSESSED.match(text, end, hi)
        or _AFTER_TITLE_WORK.match(text, end, hi))


def _won_prize(text: str, start: int, end: int, lo: int, hi: int) -> bool:
    """The name (a full name, or one word that is no given name) won a prize only public figures win: in its
    sentence ("NAME won the Nobel Prize", "How many Wimbledon titles did NAME win?"), or "he/she/they" did in
    the next sentence ("NAME retired young. How many Grand Slams did he win?")."""
    value = text[start:end]
    if _FULL_NAME.fullmatch(value) is None and (" " in value.strip() or given_name(value.strip("'’s"))):
        return False
    if (_WON_AFTER.match(text, end, hi) is not None
            or (_PRIZE_BEFORE.search(text, lo, start) is not None and _WIN_AFTER.match(text, end, hi) is not None)):
        return True
    if hi >= len(text) or text[hi - 1:hi] not in ".!?;" and text[hi:hi + 1] not in ".!?;":
        return False
    nxt = text[hi:min(len(text), hi + NEXT_SENTENCE_REACH)]
    cut = re.search(r"[.!?\n]\s", nxt[1:])
    nxt = nxt if cut is None else nxt[:cut.end() + 1]
    return _PRIZE.search(nxt) is not None and _THEY_WON.search(nxt) is not None


@dataclass(frozen=True, slots=True)
class EncyclopedicPersons(FramePublicList):
    """A person is kept where it is the topic of an encyclopedic question and nothing around it is private."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        # A recognizer may take a work's title in with the name ("James Joyce's Ulysses"): the name is decided,
        # and the rest must be a title's capitalised words.
        # A trailing possessive is read as the text after the name ("Alfred Wegener's" + " theory").
        inner = _POSSESSIVE_TITLE.fullmatch(text, start, end)
        name_end = start + len(inner.group(1)) if inner is not None else end
        if text.endswith(("'s", "’s"), start, name_end) and name_end - start > 2:
            name_end -= 2
        return (in_frame(text, start, name_end, entity_type) and not private_evidence(text, start, end)
                and not private_person_in_text(text, start, end))


def load() -> PublicList:
    return EncyclopedicPersons("encyclopedic_persons", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
