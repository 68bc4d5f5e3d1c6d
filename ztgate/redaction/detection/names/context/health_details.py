"""A health detail the text ties to a private person: a diagnosis, a condition, an allergy or a medication and its
dose, after a health verb whose subject is the writer, a relative, a named person or a patient ("my mother was
diagnosed with ...", "Ana takes 20 mg atorvastatin", "he is allergic to penicillin"), or in a record's health field
beside a person ("Patient: ... / Meds: sertraline 50 mg"), or listed after a patient's name ("patient X, 71,
hypertension"). HIPAA counts health information about an identified person as PHI (ADR 0027).

The tie decides, never the term: "What are the symptoms of type 2 diabetes?", "How does atorvastatin work?",
"Can you be allergic to penicillin?" and "people with coeliac disease" name no private person and stay. The span
is the condition's or the medication's words (with its dose), not the verb nor the time after it."""

from __future__ import annotations

import bisect
import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.wordlists import COMMON_SENTENCE_STARTS, FUNCTION_WORDS, words

ENTITY = "HEALTH_DETAIL"
HEALTH_TERMS = words("health_terms")
# A condition's word by its ending (arthritis, fibrosis, anaemia, carcinoma, neuropathy, neuralgia, -allergie).
_CONDITION_SUFFIX = re.compile(r"(?i)(?:itis|osis|oses|aemia|emia|ämie|oma|pathy|algia|plegia|allergie|allergy|"
                               r"krankheit|erkrankung|spasms?|ectomy|otomy|ostomy|plasty|trophy|paresis|penia)$")
# A generic head that names a condition or an operation after a part of the body or a sense ("macular
# degeneration", "hip resurfacing", "ACL reconstruction", "kidney failure", "hearing loss"; ADR 0047): neither
# word alone is one ("our roof resurfacing", "a hearing").
_BODY = (r"hip|knee|heart|brain|back|spine|spinal|eye|eyes|macular|retinal|kidney|renal|liver|lung|bowel|bladder|"
         r"shoulder|joint|nerve|acl|cruciate|ligament|cartilage|disc|hearing|sight|vision|cognitive|cardiac|"
         r"pulmonary|cerebral|thyroid|valve|cornea|corneal|gastric|hernia|cataract")
_BODY_HEADS = (r"degeneration|resurfacing|reconstruction|replacement|impairment|loss|failure|damage|surgery|"
               r"transplant|insufficiency|fusion|repair|decline|operation")
_BODY_CONDITION = re.compile(rf"(?i)\b(?:{_BODY})(?:[ \t\-]+[^\W\d_]+)?[ \t\-]+(?:{_BODY_HEADS})\b")

_W = r"[^\W\d_][^\W_]*(?:['’\-][^\W_]+)*"          # a word (letters, then letters or digits, inner ' and -)
_TOKEN = rf"(?:{_W}|\d+(?:[.,]\d+)?[^\W_]*)"   # a word or a number ("type 1 diabetes", "COVID-19")
_DOSE = r"\d+(?:[.,]\d+)?[ \t]?(?:mg|mcg|µg|μg|IU|iu|units?|mmol|puffs?|tablets?|drops?)\b"
# A medication: a dose and a drug word (either order), or a drug word by its stem (USAN stems: -statin, -pril ...).
_DRUG_STEM = (r"(?i:insulin|aspirin|paracetamol|acetaminophen|lithium|methotrexate|morphine|codeine|tramadol|"
              r"sertraline|(?:es)?citalopram)|[A-Za-z]{3,}(?:statin|pril|sartan|olol|dipine|prazole|tidine|cillin|mycin|cycline|floxacin|azole|"
              r"vir|mab|nib|gliptin|glitazone|formin|oxetine|oxine|pam|lam|triptan|profen|sone|olone|tropin|"
              r"thyroxine|parin|farin|xaban|gatran|butamol|terol|sonide|asone|tiapine|peridone|azepine|lukast)")
# A device a drug is taken with, before the drug's name in Romance languages ("un inalatore di beclometasone").
_DEVICE = r"inhaler|inalatore|inhalateur|inhalador|inalador|inhalator|spray|pen|penna|stylo|pluma|caneta"
_MEDICATION = (rf"(?:{_DOSE}(?:[ \t]+of)?[ \t]+{_W}|{_W}(?:[ \t]+{_W})?[ \t]+{_DOSE}|"
               rf"(?<![\w\-]){_DRUG_STEM}\b)")
# A condition's phrase after its verb: up to six words, "and"/"or"/commas inside, up to a clause's end or a word
# that opens what follows it (a time, a place, a reason).
_STOP = (r"(?:since|in|at|on|of|about|regarding|to|into|like|than|last|this|when|after|before|during|so|but|because|which|who|that|while|for|from|"
         r"yesterday|today|recently|ago|and[ \t]+(?:I|we|he|she|they|was|is|has|had|wants|needs|can|will|"
         r"would|asked|now|then)|seit|letzte[nms]?|im|desde|el[ \t]+año|depuis|l['’]an|dall['’]|da|mit|with|"
         r"und[ \t]+(?:ich|er|sie)|y[ \t]+(?:yo|él|ella)|et[ \t]+(?:je|il|elle)|e[ \t]+(?:io|lui|lei))\b")
_STOP = f"(?i:{_STOP})"
_SEP = r"(?:[ \t]+|,[ \t]*(?=(?:and|or)\b))"
_PHRASE = rf"(?P<what>(?!{_STOP}){_TOKEN}(?:{_SEP}(?!{_STOP}){_TOKEN}){{0,6}}?)"
_END = r"(?=[ \t]*(?:[.,;:!?()\[\]\n]|$)|[ \t]+" + _STOP + ")"

_CONDITION_CUES = (
    r"diagnosed[ \t]+(?:with|as[ \t]+having)|got[ \t]+a[ \t]+diagnosis[ \t]+of|received[ \t]+a[ \t]+diagnosis[ \t]+of|"
    r"tested[ \t]+positive[ \t]+for|suffer(?:s|ed|ing)?[ \t]+from|(?:treated|treatment)[ \t]+for|"
    r"recovering[ \t]+from|allergic[ \t]+to|an[ \t]+allergy[ \t]+to|intolerant[ \t]+to|"
    r"allergisch[ \t]+(?:gegen|auf)|leidet[ \t]+(?:an|unter)|diagnostiziert[ \t]+mit|"
    r"al[ée]rgic[oa][ \t]+a|diagnosticad[oa][ \t]+(?:con|de)|padece(?:[ \t]+de)?|"
    r"allergique[ \t]+(?:à|aux?)|diagnostiqu[ée]e?[ \t]+(?:avec|d['’]une?|d['’])|souffre[ \t]+d['’e]|"
    r"allergic[oa][ \t]+(?:a|al|alla|ai)|soffre[ \t]+di|allergisk[ \t]+mot|"
    r"atteinte?s?[ \t]+(?:de|d['’]|du|des)|afectad[oa][ \t]+(?:de|por)|affett[oa][ \t]+da|erkrankt[ \t]+an|"
    r"portador(?:a)?[ \t]+de|sofre[ \t]+de|sofferente[ \t]+di|lijdt[ \t]+aan|lider[ \t]+av|cierpi[ \t]+na|trpí")
_CONDITION = re.compile(rf"(?i:\b(?:{_CONDITION_CUES}))[ \t]+{_PHRASE}{_END}")
_MEDICATION_CUE = re.compile(
    rf"(?i:\b(?:takes|taking|take|took|is[ \t]+on|am[ \t]+on|are[ \t]+on|['’]s[ \t]+on|['’]m[ \t]+on|been[ \t]+on|"
    rf"was[ \t]+(?:put|started)[ \t]+on|started(?:[ \t]+on)?|prescribed|uses|using|carry|carries|carrying|"
    rf"needs|relies[ \t]+on|nimmt|toma|prend|prende|tar|usa|usa[ \t]+un|utilise|gebruikt|"
    rf"(?<=and[ ])on|(?<=and[ ])takes|(?<=und[ ])nimmt|(?<=y[ ])toma|(?<=et[ ])prend|(?<=e[ ])prende|(?<=e[ ])toma))"
    rf"[ \t]+(?:(?i:a|an|un|una|une|een|ein(?:en)?|um|uma)[ \t]+)?(?:(?i:{_DEVICE})[ \t]+(?i:of|di|de|du|con|van|mit)"
    rf"[ \t]+)?(?P<what>{_MEDICATION})")
_HAS = re.compile(rf"(?i:\b(?:has|have|['’]s[ \t]+got|has[ \t]+got|had|hat|hatte|tiene|tenía|har|tem|têm|tinha|ha|hanno|"
                  rf"aveva|heeft)(?:[ \t]+(?:had|been|got))?)"
                  rf"[ \t]+(?:(?i:a|an|eine?n?|una?|une?)[ \t]+)?{_PHRASE}{_END}")
# A person named by a condition after a copula ("he is diabetic", "ist Diabetiker", "è celiaca", "es asmático"),
# and a mobility or medical aid the person uses or lives with ("has been a wheelchair user", "is on dialysis",
# "sitzt im Rollstuhl"): the word is the detail.
_COPULA = (r"is|am|are|was|were|['’]s|['’]m|been|ist|bin|war|es|soy|está|era|fue|est|suis|était|è|sono|era|é|sou|"
           r"está|är|var|er|jest|je|byl[ao]?")
_CONDITION_PERSON = (r"diabet|diabét|epilept|epilett|epilépt|asthmat|astmát|asmát|zöliak|celiac|coeliac|celíac|cœliaque|"
                     r"coeliaque|haemophil|hemophil|emofil|hémophil|hemofíl|bipolar|autist|dyslex|dislessic|disléxic|"
                     r"anorex|anoréx|schizophren|esquizofr|schizofren|paraplegi|paraplégi|tetraplegi|tétraplégi|"
                     r"quadriplegi|seropositiv|sieropositiv|hiv-positiv|immunocompromised|immunosuppressed|"
                     r"allergiker|insulinpflichtig|insulino-?dépendant|insulinodependiente|insulino-?dipendente")
# A sense or a mobility impaired, said of the person after a copula ("I'm hearing impaired", "is partially sighted
# and hard of hearing"; ADR 0047).
_IMPAIRED = (r"(?:hearing|visually|sight|vision|mobility|speech|cognitively|partially|severely)[ \t\-]+impaired|"
             r"partially[ \t]+sighted|hard[ \t]+of[ \t]+hearing|registered[ \t]+blind|non-?verbal|"
             r"(?:partially|profoundly|completely)[ \t]+(?:deaf|blind)")
_IS_CONDITION = re.compile(
    rf"(?i:\b(?:{_COPULA}))[ \t]+(?:(?i:also|now|severely|mildly|very)[ \t]+)?(?:(?i:a|an|ein|eine|un|une|uno|una|"
    rf"um|uma|en|ett)[ \t]+)?(?P<what>(?i:{_CONDITION_PERSON})[^\W\d_]*|(?i:{_IMPAIRED}))(?![\w\-])")
_AID = (r"wheelchair(?:[ \t]+user)?|hearing[ \t]+aids?|cochlear[ \t]+implants?|insulin[ \t]+pump|pacemaker|dialysis|"
        r"colostomy(?:[ \t]+bag)?|stoma|crutches|oxygen[ \t]+therapy|rollstuhl(?:fahrer(?:in)?)?|dialyse|"
        r"fauteuil[ \t]+roulant|silla[ \t]+de[ \t]+ruedas|diálisis|sedia[ \t]+a[ \t]+rotelle|dialisi|"
        r"cadeira[ \t]+de[ \t]+rodas|diálise|rolstoel|rullstol")
_USES_AID = re.compile(
    rf"(?i:\b(?:{_COPULA}|uses|used|using|has|had|have|needs|in|on|im|auf|en|em|na|in|su|sitzt[ \t]+im|usa|utilise|"
    rf"usa|braucht|nutzt|heeft|zit[ \t]+in|använder))[ \t]+(?:(?i:a|an|the|ein(?:en)?|einem|un|una|uma|une|een|en)[ \t]+)?"
    rf"(?P<what>(?i:{_AID}))(?![\w\-])")
# A second condition after the time of the first ("has a pacemaker since 2021 and type 2 diabetes").
_AND_AFTER_TIME = re.compile(
    rf"[ \t]+(?i:since|for|from|in|seit|desde|depuis|da|dal|dalla|sinds|sedan|od)[ \t]+[^,.;:\n]{{1,25}}?"
    rf"[ \t]+(?i:and|und|y|e|et|en|och|og|i|a)[ \t]+(?:(?i:a|an|has|had|has[ \t]+had|tem|tiene|hat|ha|a)[ \t]+)?"
    rf"{_PHRASE}{_END}")

# A condition one lives with ("my wife lives with multiple sclerosis", "living with type 1 diabetes"), and a further
# condition listed after a detail found ("a wheelchair user, cerebral palsy", "partially sighted and hard of
# hearing"): read only where the phrase is a condition (``_a_condition``, ``_IMPAIRED``; ADR 0047).
_LIVES_WITH = re.compile(rf"(?i:\b(?:lives|live|living|lived|has[ \t]+lived|coping|copes|diagnosed)[ \t]+with)"
                         rf"[ \t]+(?:(?i:a|an)[ \t]+)?{_PHRASE}{_END}")
_NEXT_ITEM = re.compile(rf"[ \t]*(?:,|;|[ \t]and|[ \t]&)[ \t]*(?:(?i:also|and|has|had|a|an)[ \t]+)?"
                        rf"(?:(?P<impaired>(?i:{_IMPAIRED}))(?![\w\-])|{_PHRASE}{_END})")

# Record fields that hold a health detail; the value is the field's, to the line's end or a bracket.
_FIELD = re.compile(
    r"(?:^|(?<=[;|])|(?<=[.;|][ \t]))[ \t]*(?:[-*•][ \t]*)?(?i:diagnosis|diagnoses|dx|conditions?|"
    r"medical[ \t]+(?:conditions?|history)|current[ \t]+medications?|medications?|meds|prescriptions?|"
    r"(?:known[ \t]+)?allerg(?:y|ies)|intolerances?|diagnose[n]?|medikamente|medikation|allergien|allergie|"
    r"vorerkrankungen|diagnóstico|medicación|medicamentos|alergias|diagnostic|traitement|médicaments|diagnosi|"
    r"farmaci|terapia|medisiner|allergier)[ \t]*[:：][ \t]*(?P<what>[^\n(\[;]{2,80}?)[ \t]*(?=[\n(\[;]|$)",
    re.MULTILINE)

# Who the verb is about. Read at the end of the clause before the cue (after its auxiliaries and adverbs): the
# writer, he or she, a possessive and one or two nouns with an optional name ("my son", "our daughter Inka"), a
# patient or a name. Generic subjects ("you", "people", "someone", "a patient", "patients") tie to no one.
_POSSESSIVE = (r"my|our|his|her|their|meu|minha|meus|minhas|nosso|nossa|mijn|onze|mein|meine|meinem|meiner|meines|unser|unsere|mi|mis|nuestr[oa]s?|mon|ma|mes|"
               r"notre|nos|mio|mia|mia|miei|mie|nostr[oaie]|min|mitt|mine|vår|vårt")
_NAME = r"[A-ZÀ-ÖØ-Þ][^\W\d_]+(?:['’\-][^\W\d_]+)*"
_PARTICLE = r"(?:van|von|de|da|di|du|del|der|den|le|la|bin|al|dos|das)"
_TIE = re.compile(
    rf"(?:(?<![\w'’])(?:I|I['’]m|I['’]ve|we|We|he|He|she|She|ich|Ich|je|Je|j['’]|io|Io|yo|Yo|jeg|Jeg)"
    rf"|(?<![\w'’])(?i:{_POSSESSIVE})[ \t]+(?:[a-zà-ÿœæ0-9][\w\-]*[ \t]+)?[a-zà-ÿœæ][\w\-]*(?:[ \t]+{_NAME}){{0,3}}"
    rf"|(?<![\w'’])(?<!a )(?<!A )(?<!any )(?<!each )(?<!every )(?:(?i:the|my|our)[ \t]+)?(?:[Pp]atient|[Pp]asienten|[Pp]atientin|[Pp]aciente)(?:[ \t]+{_NAME}){{0,3}}"
    rf"|(?P<name>{_NAME}(?:[ \t]+(?:{_PARTICLE}[ \t]+)?{_NAME}){{0,3}}))$")
_AUX = re.compile(
    r"(?i:(?:[ \t]+|^)(?:was|is|has|have|had|been|being|got|gets|get|am|are|were|just|recently|also|already|finally|"
    r"now|currently|still|newly|officially|severely|badly|mildly|very|really|then|ever|always|usually|often|"
    r"wurde|ist|"
    r"hat|fue|es|est|a|été|è|ha|è stato|stata|ble|er|har))*[ \t]*$")
_APPOSITION = re.compile(r",[ \t]*[^,\n]{1,40},[ \t]*$")    # "Amparo Q., 58, is on", "my partner, Sigvart E.,"
_WHO = re.compile(r"(?i:,?[ \t]*(?:who|which|der|die|que|qui|che|som))[ \t]*$")
# A question or a condition about the subject ("Can I take ...", "If my son is allergic ...") states no fact.
_QUESTION = re.compile(r"(?i)(?:^|[ \t])(?:can|could|should|shall|may|might|would|will|do|does|did|if|whether|"
                       r"is[ \t]+it|are|am)[ \t]+(?:I|we|you|he|she|they|one|someone|my|people)\b")
# A second predicate of the same subject ("has asthma and was prescribed ..."): the subject is before the first.
_FIRST_VERB = re.compile(r"(?i)[ \t,]+(?:has|have|had|is|was|were|are|['’]s|takes|took|got|gets|suffers|tested|"
                         r"lives|needs|uses|hat|ist|wurde|tiene|es|est|a|è)\b")
# A sentence that opens as a question ("Did Van Gogh suffer from ...", "Why was X diagnosed with ...").
_INTERROGATIVE = re.compile(r"(?i)(?:did|does|do|is|was|were|has|had|have|can|could|would|why|how|what|when|which|"
                            r"who|whose|where|wie|warum|hatte|war|pourquoi|comment|por[ \t]+qué|cómo|perché|come)\b")
_WINDOW = 90
_CLAUSE_END = re.compile(r"[.!?;:\n—–]|\s-\s")
_NOT_A_NAME = COMMON_SENTENCE_STARTS | FUNCTION_WORDS | frozenset(
    "people patients children kids adults someone anyone everyone nobody somebody many most some women men "
    "doctors you they it this that".split())

# A person's record beside a health field: a person's label, a relation, the writer.
_RECORD_PERSON = re.compile(
    rf"(?im)^[ \t]*(?:patient|patient name|name|full name|guest|client|resident|child|pupil|student|nom|nombre|"
    rf"navn|pasient|paziente|patientin|titular|ospite|gast|teilnehmer(?:in)?)[ \t]*[:：]|"
    rf"\b(?:patient[ \t]+{_NAME}|(?i:{_POSSESSIVE})[ \t]+[a-zà-ÿ]+|I['’]m|I[ \t]+am|my[ \t]+name)")
_RECORD_REACH = 400


def _tied(text: str, cue_start: int) -> bool:
    """Whether the clause before ``cue_start`` has a private person as the health verb's subject."""
    start = max(0, cue_start - _WINDOW)
    before = text[start:cue_start]
    ends = list(_CLAUSE_END.finditer(before))
    if ends:
        before = before[ends[-1].end():]
    sentence = before.lstrip()
    if _QUESTION.search(before):
        return False
    before = _AUX.sub("", before.rstrip())
    if re.search(r"(?i)(?:^|[ \t,])(?:and|und|y|et|e|og)$", before):
        first = _FIRST_VERB.search(before)
        before = before[:first.start()] if first else ""
    for strip in (_WHO, _APPOSITION, _AUX):
        before = strip.sub("", before).rstrip()
    m = _TIE.search(before)
    if m is None:
        return False
    name = m.group("name")
    if name is not None:
        # A name alone ties only in a statement: a question about a named person asks about a public one as
        # often ("Did Van Gogh suffer from epilepsy?").
        head = name.split()[0]
        return head.casefold() not in _NOT_A_NAME and not _INTERROGATIVE.match(sentence)
    return True


def _a_condition(phrase: str) -> bool:
    """Whether a phrase after "has" or a patient's name is a condition (a health word, a condition's ending, a
    part of the body and a generic head)."""
    return _BODY_CONDITION.search(phrase) is not None or any(
        w.casefold().strip("’'") in HEALTH_TERMS or _CONDITION_SUFFIX.search(w)
        for w in re.findall(r"[^\W\d_][\w'’\-]*", phrase) for w in (w, *w.split("-")))


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The phrase without its leading article, a second predicate ("... and walks slowly") or trailing function
    words; None when nothing is left."""
    value = text[start:end]
    for m in re.finditer(r"[ \t,]+(?:and|und|y|et|e|og)[ \t]+([^\W\d_]+)", value):
        word = m.group(1)
        if (re.search(r"(?:[^siu]s|ed)$", word) and word.casefold() not in HEALTH_TERMS
                and not _CONDITION_SUFFIX.search(word)):
            end = start + m.start()
            break
    value = text[start:end]
    lead = re.match(r"(?i)(?:a|an|the|eine?n?|una?|une?|le|la|les|el|los|las|il|lo)[ \t]+", value)
    if lead:
        start += lead.end()
    while True:
        value = text[start:end].rstrip(" \t,.;:")
        end = start + len(value)
        last = re.search(r"[ \t](\w+)$", value)
        if last and last.group(1).casefold() in FUNCTION_WORDS and last.group(1).casefold() not in {"a", "i"}:
            end = start + last.start()
            continue
        break
    return (start, end) if end > start else None


class HealthDetailRecognizer(ContextRule):
    NAME = "HealthDetailRecognizer"
    SCORE = 0.8
    ENTITIES = (ENTITY,)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []

        def take(start: int, end: int) -> None:
            span = _trim(text, start, end)
            if span is not None:
                out.append((span[0], span[1], ENTITY))

        for m in _CONDITION.finditer(text):
            if _tied(text, m.start()):
                take(m.start("what"), m.end("what"))
        for m in _MEDICATION_CUE.finditer(text):
            if _tied(text, m.start()):
                take(m.start("what"), m.end("what"))
        for m in _HAS.finditer(text):
            if _a_condition(m.group("what")) and _tied(text, m.start()):
                take(m.start("what"), m.end("what"))
        for pattern in (_IS_CONDITION, _USES_AID):
            for m in pattern.finditer(text):
                # "Roosevelt's wheelchair" is a possessive, not "he's in a wheelchair"
                possessive = pattern is _USES_AID and re.match(r"['’]s[ \t]+\S+$", m.group()) is not None
                if _tied(text, m.start()) and not possessive and not re.match(r"[ \t]+to\b", text[m.end():]):
                    take(m.start("what"), m.end("what"))
        for m in _LIVES_WITH.finditer(text):
            if _a_condition(m.group("what")) and _tied(text, m.start()):
                take(m.start("what"), m.end("what"))
        for _, end, _ in list(out):
            second = _AND_AFTER_TIME.match(text, end)
            if second is not None and _a_condition(second.group("what")):
                take(second.start("what"), second.end("what"))
        pending = [end for _, end, _ in out]
        while pending:
            item = _NEXT_ITEM.match(text, pending.pop())
            if item is None:
                continue
            group = "impaired" if item.group("impaired") else "what"
            if group == "impaired" or _a_condition(item.group("what")):
                before = len(out)
                take(item.start(group), item.end(group))
                pending += [end for _, end, _ in out[before:]]
        persons: list[int] | None = None   # where a person's record evidence starts, read once, only if needed
        for m in _FIELD.finditer(text):
            if persons is None:
                persons = [p.start() for p in _RECORD_PERSON.finditer(text)]
            i = bisect.bisect_left(persons, m.start() - _RECORD_REACH)
            if i < len(persons) and persons[i] <= m.end() + _RECORD_REACH:
                take(m.start("what"), m.end("what"))
        out += self._patient_list(text)
        return out

    @staticmethod
    def _patient_list(text: str) -> list[Span]:
        """The condition items of a comma list after a patient's name ("Patient X, 71, hypertension, on ...")."""
        out: list[Span] = []
        for m in _PATIENT_LIST.finditer(text):
            pos = m.end()
            for item in re.finditer(r"[ \t]*([^,.;\n]{1,40})(?:,|(?=[.;\n]|$))", text[pos:pos + 200]):
                phrase = item.group(1)
                medication = _ON_MEDICATION.match(phrase)
                if medication:
                    out.append((pos + item.start(1) + medication.start("what"),
                                pos + item.start(1) + medication.end("what"), ENTITY))
                elif _a_condition(phrase):
                    out.append((pos + item.start(1), pos + item.end(1), ENTITY))
                elif not re.fullmatch(r"[\w \t\-/]+", phrase):
                    break
        return out


_ON_MEDICATION = re.compile(rf"(?i:on|takes?|taking)[ \t]+(?P<what>{_MEDICATION})")
_PATIENT_LIST = re.compile(rf"(?<![\w'’])(?i:patient)[ \t]*:?[ \t]+{_NAME}(?:[ \t]+{_NAME}){{0,3}}[ \t]*,")
