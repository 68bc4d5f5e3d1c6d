"""The writer's own town in another language, in whatever case the language puts it: a first-person verb of living,
working, studying or birth, then a preposition and a capitalised word ("живу в Костроме", "я преподаю музыку в
Костроме", "mieszkam w Płocku", "jsem z Brna", "ich wohne in Kassel", "abito a Lecco", "vivo en Teruel", "j'habite
à Niort", "moro em Braga"); or the writer's origin ("я из Твери", "родом из Вологды", "soy de Cuenca"). A place
as a topic has no such verb ("Столица России — Москва", "Qual è la capitale d'Italia?") and stays. The English
cues are ``cued_places``', the Arabic ones ``script_names``'.

In the scripts with no capitals (``other_scripts``) the cue is the writer's own frame of living, moving or origin,
and the town is the run the frame bounds: Chinese 我住在/我搬到了/我老家在 …, Japanese …に住んでいます/…に引っ越しました/
実家は…, Korean 저는 …에 살아요/…(으)로 이사했어요/… 출신, Hindi मैं … में रहता हूँ/मेरा परिवार … से है, Thai
ฉันอาศัยอยู่ที่(อำเภอ) …, Greek μένω στην …/κατάγομαι από …, Turkish …'da yaşıyorum/…'a taşındık/ailem …'tan. The
same town asked about ("부산의 인구는?", "कानपुर का इतिहास") has no such frame and stays."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.cued_places import TIME_WORDS
from ztgate.redaction.detection.names.context.script_towns import script_towns

# A capitalised word in Latin or Cyrillic script, and up to two more joined by a space or a hyphen, with the
# joiners town names carry ("nad", "na", "am", "del", "de").
_UP = "A-ZÀ-ÖØ-ÞĀ-ŽА-ЯЁІЇЄҐ"
_LOW = "a-zß-öø-ÿā-žа-яёіїєґ'’"
_WORD = rf"[{_UP}][{_LOW}]+(?:-[{_UP}]?[{_LOW}]+)*"
_TOWN = rf"({_WORD}(?:[ ](?:nad|pod|na|am|an|im|bei|del|de|di|do|da|sur|sul|upon)?[ ]?{_WORD}){{0,2}})"
_END = r"(?=$|[\s.,;:!?)»\"”’])"

# First-person verbs of residence, work, study or birth, per language; a preposition closes each cue. Up to
# 40 characters of the clause may stand between the verb and the preposition ("преподаю музыку в").
_VERBS = {
    "ru_uk": r"(?i:живу|живём|живем|проживаю|проживаем|работаю|работаем|учусь|учимся|преподаю|родился|родилась|"
             r"выросла?|переехала?|переехали|мешкаю|живу|працюю|навчаюся|навчаюсь|народився|народилася|виріс|"
             r"виросла)",
    "pl_cs": r"(?i:mieszkam|mieszkamy|pracuję|pracujemy|uczę|studiuję|urodziłem|urodziłam|wychowałem|wychowałam|"
             r"bydlím|bydlíme|žiju|žijeme|pracuji|pracuju|studuji|učím|narodil[ \t]+jsem[ \t]+se|"
             r"narodila[ \t]+jsem[ \t]+se)",
    "de": r"(?:[Ii]ch[ \t]+(?:wohne|lebe|arbeite|studiere|unterrichte)|[Ww]ir[ \t]+(?:wohnen|leben|arbeiten)|"
          r"[Ii]ch[ \t]+bin[ \t]+in)",
    "it": r"(?i:abito|abitiamo|vivo|viviamo|lavoro|insegno|studio|sono[ \t]+nat[oa]|risiedo)",
    "es": r"(?i:vivo|vivimos|trabajo|enseño|estudio|nací|resido|me[ \t]+crié)",
    "fr": r"(?i:j['’]habite|nous[ \t]+habitons|je[ \t]+vis|je[ \t]+travaille|j['’]enseigne|j['’]étudie|"
          r"je[ \t]+suis[ \t]+née?)",
    "pt": r"(?i:moro|moramos|vivo|trabalho|ensino|estudo|nasci|resido)",
    "sv": r"(?i:jag[ \t]+(?:bor|jobbar|arbetar|studerar|pluggar|undervisar|föddes|växte[ \t]+upp))",
    "nl": r"(?i:ik[ \t]+(?:woon|werk|studeer|geef[ \t]+les|ben[ \t]+geboren))",
    "it_home": r"(?i:sto|stiamo|sono[ \t]+cresciut[oa]|siamo[ \t]+cresciuti|sono[ \t]+tornat[oa]|torno|"
               r"siamo[ \t]+tornati)",
    "da_no": r"(?i:jeg[ \t]+(?:bor|arbejder|jobber|studerer|er[ \t]+født|er[ \t]+vokset[ \t]+op|voksede[ \t]+op|"
             r"er[ \t]+flyttet|har[ \t]+flyttet|flyttede|er[ \t]+oppvokst|vokste[ \t]+opp)|vi[ \t]+(?:bor|flyttede|"
             r"er[ \t]+flyttet|har[ \t]+flyttet))",
}
_PREPOSITIONS = {
    "ru_uk": r"(?:во?|у)", "pl_cs": r"(?i:we?|ve?)", "de": r"(?:in)", "it": r"(?:a|ad|in)",
    "es": r"(?:en)", "fr": r"(?:à|a|en)", "pt": r"(?:em|no|na)", "sv": r"(?:i|på)", "nl": r"(?:in|te)",
    "it_home": r"(?:a|ad|in)", "da_no": r"(?:i|på|til)",
}
_CUES = tuple(re.compile(rf"(?<!\w){_VERBS[k]}(?!\w)(?:[^.!?;\n]{{0,40}}?[ \t])?{_PREPOSITIONS[k]}[ \t]+{_TOWN}{_END}")
              for k in _VERBS)
# The writer's origin: "я из", "мы из", "родом из", "я з", "jestem z", "pochodzę z", "jsem z", "pocházím z",
# "ich komme aus", "sono di", "vengo da", "soy de", "je viens de", "sou de".
_ORIGIN = re.compile(
    rf"(?<!\w)(?:(?i:я|мы)[ \t]+(?:родом[ \t]+)?(?:из|с|з)|(?i:родом[ \t]+из)|(?i:jestem|jesteśmy|pochodzę|jsem|"
    rf"pocházím)[ \t]+(?:ze?)|(?i:(?:моя|наша)[ \t]+семья[ \t]+(?:родом[ \t]+)?(?:из|з)|мои[ \t]+родители[ \t]+"
    rf"(?:родом[ \t]+)?из|моя[ \t]+родина[ \t]+—?)|(?:[Ii]ch[ \t]+(?:komme|stamme)[ \t]+aus)|(?i:sono[ \t]+di|vengo[ \t]+da)|"
    rf"(?i:soy[ \t]+de)|(?i:je[ \t]+viens[ \t]+de)|(?i:sou[ \t]+de))[ \t]+{_TOWN}{_END}")

# A home of the writer's or a relative's and where it stands, in the languages read ("unser Hof liegt bei
# Wittmund", "la casa dei miei a Bassano", "vores hus i Hobro", "nossa casa em Itabirito", "mi piso en Olot", "ma
# maison à Paimpol", "ons huis in Zierikzee"); English homes are ``cued_places``' (ADR 0047).
_HOMES = (
    r"(?i:mein|meine|meinem|unser|unsere|unserem)[ \t]+(?i:Haus|Hof|Bauernhof|Wohnung|Garten|Dorf|Elternhaus)"
    r"(?:[ \t]+(?i:liegt|steht|ist))?[ \t]+(?:(?i:direkt|gleich|ganz)[ \t]+)?(?i:in|bei|nahe|außerhalb[ \t]+von)",
    r"(?i:(?:la[ \t]+)?(?:mia|nostra)[ \t]+casa|casa[ \t]+(?:mia|nostra|dei[ \t]+miei|di[ \t]+mi[oa][ \t]+[^\W\d_]+)|"
    r"(?:il[ \t]+)?(?:mio|nostro)[ \t]+(?:paese|appartamento|podere))[ \t]+(?i:a|ad|in|vicino[ \t]+a)",
    r"(?i:mi|nuestra|nuestro)[ \t]+(?i:casa|piso|pueblo|finca|granja)[ \t]+(?i:en|cerca[ \t]+de)",
    r"(?i:ma|notre|mon)[ \t]+(?i:maison|ferme|appartement|village)[ \t]+(?i:à|a|en|près[ \t]+de)",
    r"(?i:minha|nossa|meu|nosso)[ \t]+(?i:casa|apartamento|fazenda|sítio|bairro)[ \t]+(?i:em|no|na|perto[ \t]+de)",
    r"(?i:mijn|ons|onze)[ \t]+(?i:huis|boerderij|flat|dorp)[ \t]+(?i:in|bij)",
    r"(?i:mit|vores|mitt|vårt|vår|min)[ \t]+(?i:hus|gård|lejlighed|leilighet|lägenhet|by)[ \t]+(?i:i|på|ved|nær)",
)
_HOME_CUES = tuple(re.compile(rf"(?<!\w){home}[ \t]+{_TOWN}{_END}") for home in _HOMES)

# Someone else's town: a verb of the third person, whose subject (read in the clause before it) is a relative, a
# colleague or a pronoun for someone ("Meine Schwester arbeitet als Ärztin in Gifhorn", "mio cugino lavora come
# meccanico a Fiorano Modenese", "hij studeert in Zwolle"); a company working somewhere ("Bosch arbeitet in
# Renningen an ...") has no such subject.
_THIRD_VERBS = {
    "de": r"(?:arbeitet|wohnt|lebt|studiert|unterrichtet|lehrt)", "it": r"(?:lavora|abita|vive|studia|insegna)",
    "es": r"(?:trabaja|vive|estudia|enseña|reside)", "fr": r"(?:travaille|habite|vit|étudie|enseigne)",
    "pt": r"(?:trabalha|mora|vive|estuda|ensina|reside)", "nl": r"(?:woont|werkt|studeert|geeft[ \t]+les)",
    "sv": r"(?:bor|jobbar|arbetar|studerar|pluggar|undervisar)",
}
_THIRD_CUES = tuple(re.compile(rf"(?<!\w){_THIRD_VERBS[k]}(?!\w)(?:[^.!?;\n]{{0,40}}?[ \t])?{_PREPOSITIONS[k]}[ \t]+"
                               rf"{_TOWN}{_END}") for k in _THIRD_VERBS)
_POSSESSIVES = (r"mein|meine|meinem|sein|seine|ihr|ihre|unser|unsere|mio|mia|suo|sua|nostro|nostra|mi|mis|su|sus|"
                r"nuestro|nuestra|mon|ma|son|sa|notre|meu|minha|seu|sua|nosso|nossa|mijn|zijn|haar|onze|min|mitt|"
                r"hans|hennes|vår|vårt")
_PRONOUNS = r"er|sie|lui|lei|él|ella|il|elle|ele|ela|hij|zij|ze|han|hon"
_SUBJECT = re.compile(
    rf"(?:(?<![\w'’])(?i:{_POSSESSIVES})[ \t]+[^\W\d_]+(?:[ \t]+[{_UP}][{_LOW}]+){{0,3}}|(?<![\w'’])(?i:{_PRONOUNS})|"
    rf"(?P<given>[{_UP}][{_LOW}]+)[ \t]+[{_UP}][{_LOW}]+)[ \t]*$")
# A role of work or study with its town, when the writer or a relative is the one ("Je suis X, étudiante en droit
# à Roubaix", "Soy X, profesor de historia de Casilda"): up to three lower-case words of its field between.
_ROLES = (r"étudiante?|professeure?|enseignante?|médecin|infirmière?|estudiante|profesora?|maestra?|médic[oa]|"
          r"enfermer[oa]|studente|studentessa|insegnante|professoressa|professore|medico|infermier[ae]|"
          r"student(?:in)?|lehrer(?:in)?|ärztin|arzt|estudante|professora?|enfermeir[oa]|leraar|lerares|"
          r"verpleegkundige|lärare|läkare|sjuksköterska|studerande")
_ROLE_CUE = re.compile(rf"(?<![\w'’])(?i:{_ROLES})(?:[ \t]+[a-zà-ÿ]+){{0,3}}?[ \t]+(?:à|a|en|de|in|em|na|no|i|på|te|di|da|"
                       rf"del|aus|bei)[ \t]+{_TOWN}{_END}")
_WRITER_OR_RELATION = re.compile(
    rf"(?i)(?<![\w'’])(?:je[ \t]+suis|soy|sou|ich[ \t]+bin|sono|ik[ \t]+ben|jag[ \t]+är|jag[ \t]+heter|"
    rf"je[ \t]+m['’]appelle|me[ \t]+llamo|mi[ \t]+chiamo|chamo-me|(?:{_POSSESSIVES})[ \t]+[^\W\d_]+)(?![\w'’])")
_CLAUSE_END = re.compile(r"[.!?;\n]")


def _clause(text: str, start: int, reach: int) -> str:
    before = text[max(0, start - reach):start]
    ends = list(_CLAUSE_END.finditer(before))
    return before[ends[-1].end():] if ends else before

# Words a cue may take that are no town: days, months, languages and the like are lower case in these languages,
# so a capital is enough, except at a sentence's start; these are the capitalised look-alikes seen in mail.
_NOT_TOWNS = frozenset({"Internet", "Google", "Microsoft", "Amazon", "Python", "Java", "Excel", "Word", "Zoom",
                        "Teams", "Slack", "GitHub", "Linux", "Windows", "English", "Englisch", "Deutsch"})


class PersonTownRecognizer(ContextRule):
    NAME = "PersonTownRecognizer"
    SCORE = 0.9
    ENTITIES = ("LOCATION",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for pattern in (*_CUES, _ORIGIN, *_HOME_CUES):
            for m in pattern.finditer(text):
                first = m.group(1).split()[0]
                if first not in _NOT_TOWNS and first.casefold() not in TIME_WORDS:
                    out.append((m.start(1), m.end(1), "LOCATION"))
        for pattern in _THIRD_CUES:
            for m in pattern.finditer(text):
                subject = _SUBJECT.search(_clause(text, m.start(), 60))
                # a name's pair opens with a given name ("Rieke Hansmeier arbeitet"; "Deutsche Bahn arbeitet" is none)
                if (m.group(1).split()[0] not in _NOT_TOWNS and subject is not None
                        and (subject.group("given") is None or given_name(subject.group("given")))):
                    out.append((m.start(1), m.end(1), "LOCATION"))
        for m in _ROLE_CUE.finditer(text):
            if m.group(1).split()[0] not in _NOT_TOWNS and _WRITER_OR_RELATION.search(_clause(text, m.start(), 80)):
                out.append((m.start(1), m.end(1), "LOCATION"))
        return sorted(set(out + script_towns(text)))
