"""A reference after a label of any wording that names an identifier: a noun, then a number marker (number,
no., nr., ID, code, ref, reference, #), then the value ("my student ID is 3035871246", "supporter no. 00918273",
"Tenant reference TR/88213/B", "Kundennummer 448213", "número de socio 40917").

``reference_after_label`` (pii.yaml) reads the labels it lists (booking, policy, member ...); a person's
identifiers come under far more words than a list holds (student, library card, pupil, badge, matriculation,
supporter ...). The class is the label's shape, not its word: what is left out is the closed class of counters
and codes that name a thing, a place or a piece of software, not a person (an order, an invoice, a ticket, an
issue, a PR, a build, a version, a flight, an ISBN, an error, a product or a model, a postcode, a phone), and
numbers of mathematics ("prime number"). The value must look like a reference (``reference_code``: five
characters or more with a digit, not a year nor a date); digit groups split by single spaces count as one value
("library card # 2290 4418 7731")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.language_cues import (CJK_REFERENCE_LABELS, NATIONAL_ID_LABEL_ACRONYMS,
                                                                     NATIONAL_ID_LABEL_WORDS)
from ztgate.redaction.detection.patterns.validators import reference_code
from spacy.lang.en.stop_words import STOP_WORDS

from ztgate.redaction.detection.wordlists import FUNCTION_WORDS

# Nouns whose number names a thing, an event, a place or software, not a person: a business's or a tracker's
# counters, transport, publications, technical codes and infrastructure, places and phones (found by their own
# rules), and mathematics. A label whose noun (or the word before it) is one of these stays.
THING_NOUNS: frozenset[str] = frozenset("""
order orders invoice invoices receipt purchase po quote quotation shipment shipping tracking parcel package
delivery waybill consignment container cargo freight sku item items article part parts product products model
models serial? catalog catalogue batch lot stock inventory asset
ticket tickets issue issues bug bugs pr prs pull merge mr request requests commit commits build builds release
releases version versions revision rev patch job jobs run runs task tasks pipeline process pid port thread
session trace span correlation event message transaction txn error errors status exit return response http
fault warning opcode unicode ascii char character key keycode hex color colour qr bar barcode source sample
example test tests line lines page pages chapter section figure fig table equation exercise question problem
lesson step steps verse track episode volume vol edition isbn issn doi arxiv pmid patent standard rfc
cve kb
flight flights train bus route platform gate terminal seat coach carriage stop lane road highway motorway
exit junction
room floor building lab office desk
project cluster node shard worker region zone instance host server pod namespace container column row field
index hash checksum object resource subnet vpc vlan asn socket channel stream topic partition offset block sector
frame packet sequence seq firmware hardware sensor station site store branch warehouse bin shelf aisle experiment
trial grant award tender contract sprint milestone epic story feature
zip postal post postcode area country dial dialling dialing calling city region state iata icao swift bic
iban currency language locale
phone telephone tel mobile cell fax whatsapp
promo discount coupon gift offer deal referral affiliate tracking campaign
course class module unit
prime even odd random magic lucky whole real natural rational irrational complex perfect square cube
decimal binary octal hexadecimal large big small the a an this that these those its which what whose any
some each every same next last first second third new old another other one
pedido factura albarán recibo artículo pieza modelo versión billete vuelo tren página capítulo
ordine fattura ricevuta articolo pezzo modello versione biglietto volo treno pagina capitolo
commande facture reçu pièce modèle billet train chapitre
bestellung rechnung artikel modell fahrkarte flug zug seite kapitel
""".replace("?", "").split())

# A label: up to two words before the marker ("student", "library card", "health insurance"), the marker, an
# optional "is"/"was", a colon or '#', then the value: capitals, digits and single dashes or slashes, or digit
# groups split by single spaces.
_WORD = r"[^\W\d_][^\W\d_'’\-]*"
_MARKER = (r"(?:number|no\.|no|nr\.|nr|n[°º]\.?|num\.?|id|ID|code|ref\.?|reference|\#"
           r"|(?<=[ \t])(?:nro\.?|n\.[°º]\.?|n\.o\.?|n\.|núm\.?|numero|número|numéro))")
# (the analyzer reads the NFKC view, where "N.º" is "N.o": normalise.py)
# Between the marker and a colon, where the number is held ("Member no. at the music circle:", "Claim ref with my
# insurer:", "Membership number with the boat club:"): a preposition and up to four words.
_HELD_AT = rf"(?:[ \t]+(?i:at|with|for|of|from|in|on|bei|beim|für|presso|per|en|para|con|pour|chez|auprès[ \t]+de)(?:[ \t]+{_WORD}){{1,4}}[ \t]*:)?"
_VALUE = r"(?P<value>[A-Z0-9]+(?:[\-/][A-Z0-9]+)*(?:[ ]\d{3,}(?![\-/\w]))*)"
_LABEL = re.compile(
    rf"(?<![\w\-])(?P<label>(?:{_WORD}[ \t])?{_WORD})(?:['’]s)?[ \t]*(?P<marker>(?i:{_MARKER})){_HELD_AT}"
    rf"(?:[ \t]+(?i:is|was))?[ \t]*[:#]?[ \t]*{_VALUE}(?![\w@]|[.,\-/]\w)")
# Labels that are a file's or a case's reference by themselves, with no marker ("Aktenzeichen: SV-2024-08817",
# "Expediente 2023/ZA-0917", "dossier 24-ML-0912", "our ref: WQ/20431/L").
_REFERENCE_NOUNS = re.compile(
    rf"(?<![\w\-])(?P<label>(?i:aktenzeichen|geschäftszeichen|az\.|expediente|dossier|pratica|fascicolo|"
    rf"(?:our|your|my|unser|ihr|mein)[ \t]+(?:ref\.?|reference|zeichen)))(?:[ \t]+(?i:is|ist|lautet))?"
    rf"[ \t]*[:#]?[ \t]*{_VALUE}(?![\w@]|[.,\-/]\w)")
# German compounds (Kundennummer, Mitgliedsnr.) and Romance order (número de socio, numéro d'adhérent).
_COMPOUND = re.compile(
    rf"(?<![\w\-])(?P<label>{_WORD}(?i:nummer|nr\.?|-nr\.?|-id|kennung)){_HELD_AT}(?:[ \t]+(?i:ist|lautet))?[ \t]*[:#]?[ \t]*"
    rf"{_VALUE}(?![\w@]|[.,\-/]\w)")
_ROMANCE = re.compile(
    rf"(?<![\w\-])(?i:número|numero|numéro|n\.?º|nº|n°|n\.o)[ \t]+(?i:de[ \t]+|del[ \t]+|d['’][ \t]*|di[ \t]+)?"
    rf"(?P<label>[a-zà-ÿ][^\W\d_'’\-]{{2,}})[ \t]*[:#]?[ \t]+{_VALUE}(?![\w@]|[.,\-/]\w)")

# A CJK label, then a colon, a topic particle or copula (は, が, 是, 为, 為, 는, 은, 이) or a space, then the value;
# the value may be followed by CJK text at once ("KX72QD9です"), as these scripts put no space between words.
_CJK_LABEL = re.compile(
    r"(?:" + "|".join(re.escape(label).replace(r"\ ", "[ \t]?") for label in
                      sorted(CJK_REFERENCE_LABELS, key=len, reverse=True))
    + r")[ \t\u3000]*(?:[:：]|は|が|是|为|為|는|은|이|:)?[ \t\u3000]*(?:[:：][ \t\u3000]*)?"
    + r"(?P<value>[A-Za-z0-9]+(?:[\-/][A-Za-z0-9]+)*)(?![A-Za-z0-9@]|[.,\-/][A-Za-z0-9])")
# A national identifier's label, a marker or a copula, then digits (module docstring); the label stands alone
# (no letter right before it: "NIF" inside "UNIFORM" is none).
_ID_LABELS = ("|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(NATIONAL_ID_LABEL_ACRONYMS, key=len, reverse=True))
              + "|(?i:" + "|".join(re.escape(w).replace(r"\ ", r"[ \t]+")
                                   for w in sorted(NATIONAL_ID_LABEL_WORDS, key=len, reverse=True)) + ")")
_NATIONAL_LABEL = re.compile(
    rf"(?<![^\W\d_])(?:{_ID_LABELS})(?![^\W\d_])[ \t\u3000]*"
    r"(?:(?i:n\.?[º°o]\.?|nº|no\.?|nr\.?|num\.?|номер|№|είναι|é|es|ist|è|est|是|は|는|은|คือ|เลขที่|:|：|#|-)[ \t\u3000]*)?"
    r"(?:[:：][ \t\u3000]*)?(?P<value>[A-Z]{0,2}\d(?:[ \-.]?\d){5,19}[A-Z]?)(?![\w@]|[.,\-/]\d)")

# The word before the marker must be a noun of the label, not a function word ("there are no 50000 ...",
# "my number is ...": a phone's, its rules' to judge).
_NOT_NOUNS = FUNCTION_WORDS | frozenset(STOP_WORDS)


def _thing_label(label: str) -> bool:
    """Whether any word of the label is a thing's noun (``THING_NOUNS``), so the number is no person's."""
    return any(w.casefold().rstrip("’'") in THING_NOUNS for w in re.split(r"[ \t\-]+", label))


def _compound_thing(label: str) -> bool:
    """A German compound whose first part is a thing's (Bestellnummer, Rechnungsnummer, Artikelnummer ...)."""
    return re.match(r"(?i)(?:bestell|auftrags|rechnungs|artikel|teile|sach|lieferschein|sendungs|ticket|"
                    r"telefon|handy|fax|tracking|version|build|seiten|zimmer|flug|zug|post|haus)", label) is not None


def _spaced_value(value: str) -> bool:
    """A value of digit groups split by spaces counts only when every group is digits ("2290 4418 7731")."""
    return " " not in value or all(g.isdigit() for g in value.split(" "))


class PersonIdentifierLabelRecognizer(ContextRule):
    NAME = "PersonIdentifierLabelRecognizer"
    SCORE = 0.8
    ENTITIES = ("ID_NUMBER",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _LABEL.finditer(text):
            if _thing_label(m.group("label")) or m.group("label").split()[-1].casefold() in _NOT_NOUNS:
                continue
            self._take(m, out)
        for m in _COMPOUND.finditer(text):
            if not _compound_thing(m.group("label")):
                self._take(m, out)
        for m in _ROMANCE.finditer(text):
            if not _thing_label(m.group("label")):
                self._take(m, out)
        for m in _REFERENCE_NOUNS.finditer(text):
            self._take(m, out)
        for m in _CJK_LABEL.finditer(text):
            self._take(m, out)
        for m in _NATIONAL_LABEL.finditer(text):
            if len(set(re.sub(r"\D", "", m.group("value")))) > 1:  # 0000000, 111111111: an example
                out.append((m.start("value"), m.end("value"), "ID_NUMBER"))
        return out

    @staticmethod
    def _take(m: re.Match[str], out: list[Span]) -> None:
        value = m.group("value")
        if _spaced_value(value) and reference_code(value.replace(" ", "")):
            out.append((m.start("value"), m.end("value"), "ID_NUMBER"))
