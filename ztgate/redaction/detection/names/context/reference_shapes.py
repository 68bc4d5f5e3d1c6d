"""A person's reference by its shape after a label of any noun (issue #29, ADR 0045): "My ticket RMG-TKT-0048213",
"Ticket no. ZT-2024-11873", "Mon numéro de sinistre est SIN-88-41207", "Il mio numero di pratica è PRT-2024-0913".

``PersonIdentifierLabelRecognizer`` leaves out the nouns that number things (ticket, case, order ...), since a
tracker's "issue #5521" or a bug's key is no person's, and reads no copula of other languages. Here the value's
shape carries the weight instead: capitals and digits in two segments or more joined by dashes or slashes, one all
capitals and one of four digits or more ("RMG-TKT-0048213", "HLP-77312"), or a year and a running number
("2024-88413", "2023/45127"). Model numbers mix letters and digits in one segment ("WH-1000XM5", "SM-R400N") and
stay; standards and advisories keep their prefix (ISO, RFC, CVE, PEP ...). The shape alone is not enough (a
Jira key in a code prompt has it): a possessive of the writer's before the label (my, mon, meine, il mio, mój ...),
or a number marker after a noun that is no tracker's or software's (issue, bug, PR, build, release, version ...).
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.person_identifiers import THING_NOUNS

# Possessives of the writer or of a person (English, French, Spanish, Italian, Portuguese, German, Dutch, Polish,
# Czech, Scandinavian), with an article where the language writes one ("il mio", "o meu").
_POSSESSIVE = (r"(?:my|our|his|her|their|your|mon|ma|mes|notre|votre|son|sa|mi|mis|su|sus|nuestro|nuestra|"
               r"(?:il[ \t]+|la[ \t]+|lo[ \t]+)?(?:mio|mia|suo|sua|nostro|nostra)|(?:o[ \t]+|a[ \t]+)?(?:meu|minha|seu|sua|nosso|nossa)|"
               r"mein|meine|meinen|meinem|meiner|unser|unsere|unseren|sein|seine|ihr|ihre|mijn|onze|zijn|haar|"
               r"mój|moja|moje|mojego|mojej|můj|moje|min|mitt|mina|vores|vår|vårt)")
# Markers of a number after a label ("no.", "nr", "n°", "#", "number", and their other languages' words).
_MARKER = r"(?:no\.?|nr\.?|n[°º]\.?|n\.[°ºo]\.?|núm\.?|num\.?|number|numéro|numero|número|nummer|numer|číslo|\#)"
# Copulas between a label and its value ("is", "est", "è", "é", "es", "ist", "jest", "to", "är", "er", "lautet").
_COPULA = r"(?:is|was|est|es|è|é|era|ist|lautet|jest|to|je|är|er|=)"
_WORD = r"[^\W\d_][^\W\d_'’\-]*"
# The value: capitals and digits in segments joined by single dashes or slashes.
_VALUE = r"(?<![\w\-/])(?P<value>[A-Z0-9]+(?:[\-/][A-Z0-9]+)+)"
_TAIL = r"(?![\w@]|[.,\-/]\w)"
_OWNED = re.compile(
    rf"(?<![\w\-])(?i:{_POSSESSIVE})[ \t]+(?P<label>{_WORD}(?:[ \t]+{_WORD}){{0,2}})(?:[ \t]*{_MARKER})?"
    rf"(?:[ \t]+{_COPULA})?[ \t]*[:#]?[ \t]*{_VALUE}{_TAIL}")
_MARKED = re.compile(
    rf"(?<![\w\-])(?P<label>{_WORD}(?:[ \t]+{_WORD})?)[ \t]*(?i:{_MARKER})(?:[ \t]+(?i:{_COPULA}))?[ \t]*[:#]?[ \t]*"
    rf"{_VALUE}{_TAIL}")

# Nouns whose marked number is a tracker's, a piece of software's, a document's or a product's, not a person's.
TECHNICAL_LABELS: frozenset[str] = frozenset("""
issue issues bug bugs pr prs pull merge mr commit commits build builds release releases version versions revision
rev patch job jobs run runs task tasks pipeline sprint story epic feature change changeset cl
model models part parts sku item items product products article articles serial lot batch firmware
page pages chapter section figure fig table equation line lines step steps exercise question verse
rfc iso iec cve pep standard norm kb
config code branch key env variable api endpoint server host token tag hash sha image container cluster node
""".split())
# Prefixes of standards, advisories and specifications that share the shape ("ISO-8859-1", "CVE-2024-12345").
_STANDARD_PREFIXES = frozenset("ISO IEC EN DIN RFC CVE CWE GHSA PEP JSR IEEE ANSI ECMA BS NIST SP ASTM ITU KB MS".split())
_YEAR_SERIAL = re.compile(r"(?:19|20)\d{2}[\-/]\d{3,}(?:[\-/][A-Z0-9]+)*")


def reference_shaped(value: str) -> bool:
    """A reference's shape (module docstring): an all-capitals segment and a segment of four digits or more, or a
    year and a running number of three digits or more; no segment mixing letters and digits but a short suffix;
    no standard's prefix."""
    parts = re.split(r"[\-/]", value)
    if parts[0] in _STANDARD_PREFIXES or len(parts) > 5:
        return False
    if _YEAR_SERIAL.fullmatch(value):
        return True
    letters = [p for p in parts if p.isalpha()]
    numbers = [p for p in parts if p.isdigit()]
    mixed = [p for p in parts if not p.isalpha() and not p.isdigit()]
    return bool(letters) and any(len(p) >= 4 for p in numbers) and all(len(p) <= 3 for p in mixed)


# A business's, a place's or a tracker's counters (``THING_NOUNS``: an order, an invoice, a parcel ...) name no
# person's reference; a ticket held by the writer does ("my ticket", "support ticket no."), so it is kept.
_NOT_PERSONS = (THING_NOUNS - {"ticket", "tickets"}) | TECHNICAL_LABELS


def _technical(label: str) -> bool:
    return any(w.casefold() in _NOT_PERSONS for w in re.split(r"[ \t]+", label))


class ReferenceShapeRecognizer(ContextRule):
    NAME = "ReferenceShapeRecognizer"
    SCORE = 0.8
    ENTITIES = ("ID_NUMBER",)

    def find(self, text: str) -> list[Span]:
        out: set[Span] = set()
        for pattern in (_OWNED, _MARKED):
            for m in pattern.finditer(text):
                if _technical(m.group("label")):
                    continue
                if reference_shaped(m.group("value")):
                    out.add((m.start("value"), m.end("value"), "ID_NUMBER"))
        return sorted(out)
