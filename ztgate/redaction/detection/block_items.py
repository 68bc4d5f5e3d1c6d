"""The other items of a contact block: what a private person's contact, booking or signature block holds besides
the name and the contact value that the recognizers already found.

A **block**: one paragraph's stretch around a detected PERSON and a contact or identity value (e-mail, phone,
street address, national or record identifier) within ``PAIR_REACH`` characters, widened by ``WINDOW`` either
side. Inside one only, national postcodes and the address's locality (``LOCATION``), identifiers after a label
(``ID_NUMBER``), digit groups a numbering plan reads as a national-layout phone (``PHONE_NUMBER``: "688 41 27
93") and a given name coordinated with the block's person ("for Jürgen and Heike Oberländer": ``PERSON``) are
reported (``BLOCK_RECOGNIZER``, tied to a person by construction). A **record row**: one line of three cells or
more (commas, semicolons, tabs, bars) holding a contact or identity value, standing alone (no line of as many
separators beside it): its whole past dates are the person's (``DATE_OF_BIRTH``); in a table the header decides
(``names/context/birth_columns``). Shapes, what is left out and why: docs/security.md ("The items of a private
person's contact block"). Linear: the anchors are sorted once, each block read by bounded regexes."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Sequence

from ztgate.redaction.detection.patterns.validators import date_of_birth, phone_any
from ztgate.redaction.detection.wordlists import FUNCTION_WORDS, TECHNICAL_WORDS
from ztgate.redaction.types import Detection

BLOCK_RECOGNIZER = "ContactBlockItemRecognizer"
SCORE = 0.85
# A person and a contact value at most this far apart (characters) make a block.
PAIR_REACH = 240
# How far a block reaches beyond its person and contact value, either side.
WINDOW = 160
# The detections that anchor a block must pass the default threshold on their own.
MIN_ANCHOR_SCORE = 0.5

_CONTACT_TYPES = frozenset({"EMAIL_ADDRESS", "PHONE_NUMBER", "US_SSN", "IBAN_CODE", "CREDIT_CARD"})
# Identifiers that anchor a block: a national identifier after its label, a record's number after its label.
_ID_ANCHOR_RULES = ("national_id_", "labelled_id_", "reference_after_label", "RecordColumnRecognizer")
_ADDRESS_RULES = ("street_address", "po_box", "thai_moo_address", "postcode_")

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")

_STATES = r"NSW|VIC|QLD|TAS|ACT|NT|SA|WA|A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]"
_CAP_WORD = r"[A-ZÀ-ÖØ-ÞĀ-ſА-ЯЁΑ-Ω][\w'’\-]{1,30}"
_PARTICLE = r"(?:de|del|la|le|les|du|des|di|da|am|an|der|im|upon|on|en|sur|y)"
# A town: one to four capitalised words, name particles between them ("Ciudad de México", "Stratford upon Avon").
_TOWN = rf"{_CAP_WORD}(?:[ \-](?:{_PARTICLE}[ \-])?{_CAP_WORD}){{0,3}}"

# Postcodes by shape (case-sensitive where capitals are the shape).
_POSTCODE = re.compile(
    r"(?P<jp>〒[ ]?\d{3}-?\d{4})"
    r"|(?P<cp>\b[Cc]\.?[ ]?[Pp]\.?[ ]?\d{5}\b)"
    rf"|(?P<state>\b(?:{_STATES})[ ]+\d{{4,5}}(?:-\d{{4}})?\b)"
    r"|(?P<eir>\b(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ ]?[0-9AC-FHKNPRTV-Y]{4}\b)"
    r"|(?P<uk>\b[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?[ ]?\d[ABD-HJLNP-UW-Z]{2}\b)"
    r"|(?P<ca>\b[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ ]?\d[ABCEGHJ-NPRSTV-Z]\d\b)"
    r"|(?P<nl>\b[1-9]\d{3}[ ]?(?!SA|SD|SS)[A-Z]{2}\b)"
    r"|(?P<num>(?<![\w.,/+\-])(?:\d{5}-\d{3}|\d{4}-\d{3}|\d{2}-\d{3}|\d{4,6})(?![\w/+\-]|[.,]\d))")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A number before these is a count, not a postcode.
_COUNTED = re.compile(r"[ ]+(?:[a-z]|\d)")

# Labels: acronyms naming a national identifier, references, person-record nouns.
_ACRONYM_ID = re.compile(
    r"\b(?P<label>[A-Z]{2,5})\b\.?(?:[ ]?(?:no\.?|nr\.?|#|:))?[ ]?(?P<value>[A-Z0-9](?:[A-Z0-9./\-]{2,22})[A-Z0-9])\b")
_NOT_ID_LABELS = frozenset({"TEL", "FAX", "MOB", "PH", "CP", "PO", "BOX", "APT", "UNIT", "NO", "NR", "ST", "RD",
                            "AVE", "DOB", "GEB", "AM", "PM", "UTC", "GMT", "CET", "EST", "PST",
                            "ISO", "DIN", "IEC", "RFC", "EN", "ANSI", "IEEE", "ASTM", "BS"})
_REF_LABEL = (r"ref(?:erence)?|réf(?:érence)?|referencia|riferimento|booking(?:[ ](?:ref(?:erence)?|code|no|number))?"
              r"|reservation|reserva|localizador|confirmation|order|invoice|file|case|claim|policy|dossier|expediente"
              r"|aktenzeichen|az\.|buchungsnummer|vorgang")
_RECORD_NOUN = (r"member(?:ship)?|customer|client|loyalty|account|patient|student|employee|staff|badge|"
                r"socio|cliente|adhérent|membre|mitglied|kunde|tessera|kundennummer|mitgliedsnummer|kundennr|"
                r"personalnummer|número[ ]de[ ]socio|numéro[ ]de[ ]client")
_LABELLED = re.compile(
    rf"(?i)(?<![^\W\d_])(?P<label>{_REF_LABEL}|{_RECORD_NOUN})\.?"
    r"(?P<marker>[ ]?(?:no\.?|nr\.?|n[°º]\.?|num(?:ber)?\.?|#|id|code|number|nummer|numéro|número))?"
    r"[ ]?[:#]?[ ]?(?P<value>(?=[\w/.\-]{0,30}\d)[A-Za-z0-9](?:[A-Za-z0-9/.\-]{0,30}[A-Za-z0-9])?)(?![\w/])")
_VERSION = re.compile(r"(?i)v\d")
# Digit groups as a national numbering plan writes a number: an optional area code in brackets, then two to five
# groups ("688 41 27 93", "(11) 98734-2216", "30 412 7785"); ``phone_any`` decides whether a plan has the number.
_PHONE_ITEM = re.compile(r"(?<![\w+\-./,])(?:\(\d{1,4}\)[ ]?)?\d{2,5}(?:[ .\-]\d{2,5}){1,4}(?![\w]|[.\-/,]\d)")
_MIN_PHONE_DIGITS = 8
# A given name, a conjunction, then the block's person ("Jürgen and Heike Oberländer", "Ana y Luis Pérez").
_COORDINATED = re.compile(r"(?P<name>[A-ZÀ-ÖØ-ÞĀ-ſ][a-zß-öø-ÿĀ-ſ'’\-]{1,30})[ ](?:and|&|und|et|y|e|och|og|en|i)[ ]$")
# A record row's cells: separators, and a whole calendar date in a cell.
_ROW_SEPARATORS = ",;\t|"
_CELL_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./\-]\d{1,2}[./\-]\d{4}")
_ROW_REACH = 240

_TOWN_AFTER = re.compile(rf"(?P<comma>,)?[ ](?P<town>{_TOWN})")
_TOWN_BEFORE = re.compile(rf"(?P<town>{_TOWN})[ ]$")
_ITEM_TOWN = re.compile(rf"[ \t]*(?P<town>{_TOWN})[ \t]*(?=$|[,;|\n])")
_LABEL_WORDS = frozenset({"Tel", "Phone", "Mobile", "Mob", "Fax", "Email", "E-mail", "Mail", "Member", "Ref", "REF",
                          "Customer", "Client", "Guest", "Booking", "Contact", "Address", "Patient", "Name", "Date",
                          "Regards", "Best", "Kind", "Thanks", "Cheers", "Sincerely", "Web", "Website", "Order",
                          "Room", "Suite", "Floor", "Level", "Apt", "Flat", "Unit", "Box", "Office", "Ext", "Building",
                          "Gate", "Seat", "Table", "Flight", "Train", "Platform", "Code", "PIN", "Pin", "Ticket",
                          "Invoice", "Case", "File", "Account", "Version", "Model", "Year", "Page", "Since", "Until"})


def block_items(text: str, detections: Sequence[Detection]) -> list[Detection]:
    """The items of every contact block of ``text`` (module doc) that no detection covers whole yet (one that
    covers part of an item, spaCy's "Anna Berg\n〒", is merged with it by the overlap rule downstream)."""
    taken = _Spans((d.start, d.end) for d in detections)
    rows = _row_dates(text, detections, taken)
    blocks = _blocks(text, detections)
    if not blocks:
        return rows
    persons = sorted((d.start, d.end) for d in detections if d.entity_type == "PERSON" and d.score >= MIN_ANCHOR_SCORE)
    streets = sorted((d.start, d.end) for d in detections
                     if d.entity_type == "LOCATION" and d.recognizer.startswith("street_address"))
    out: list[Detection] = []
    for start, end in blocks:
        first = bisect.bisect_left(streets, (start, start))
        ends = [e for s, e in streets[first:bisect.bisect_left(streets, (end, end), first)]]
        out.extend(_items(text, start, end, ends, taken))
        out.extend(_coordinated_names(text, start, end, persons, taken))
    return out + rows


def _blocks(text: str, detections: Sequence[Detection]) -> list[tuple[int, int]]:
    """Each contact value with a person within PAIR_REACH in its paragraph gives a block; overlapping ones merge."""
    persons = sorted((d.start, d.end) for d in detections if d.entity_type == "PERSON" and d.score >= MIN_ANCHOR_SCORE)
    if not persons:
        return []
    contacts = sorted((d.start, d.end) for d in detections if d.score >= MIN_ANCHOR_SCORE and _is_contact(d))
    if not contacts:
        return []
    spans: list[tuple[int, int]] = []
    for c_start, c_end in contacts:
        i = bisect.bisect_left(persons, (c_start, c_start))
        near = [p for p in persons[max(0, i - 1):i + 1]
                if p[0] - PAIR_REACH <= c_end and c_start - PAIR_REACH <= p[1]]
        for p_start, p_end in near:
            low, high = min(p_start, c_start), max(p_end, c_end)
            if _PARAGRAPH_BREAK.search(text, low, high) is not None:
                continue
            spans.append((max(_paragraph_start(text, low), low - WINDOW), min(_paragraph_end(text, high), high + WINDOW)))
    return _merged(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _paragraph_start(text: str, pos: int) -> int:
    """Start of the paragraph holding pos, looking back at most WINDOW characters."""
    floor = max(0, pos - WINDOW)
    last = None
    for m in _PARAGRAPH_BREAK.finditer(text, floor, pos):
        last = m
    return last.end() if last else floor


def _paragraph_end(text: str, pos: int) -> int:
    ceiling = min(len(text), pos + WINDOW)
    m = _PARAGRAPH_BREAK.search(text, pos, ceiling)
    return m.start() if m else ceiling


def _is_contact(d: Detection) -> bool:
    return d.entity_type in _CONTACT_TYPES or (d.entity_type == "LOCATION" and d.recognizer.startswith(_ADDRESS_RULES)) or (
        d.entity_type == "ID_NUMBER" and d.recognizer.startswith(_ID_ANCHOR_RULES))


class _Spans:
    """Disjoint spans, sorted, asked whether a span overlaps or lies inside them (bisection: no scan of them all)."""

    def __init__(self, spans: Iterable[tuple[int, int]] = ()) -> None:
        self.spans = _merged(list(spans))

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.spans, (end, end))
        return i > 0 and self.spans[i - 1][1] > start

    def covers(self, start: int, end: int) -> bool:
        """Whether [start, end) lies inside the spans (one merged span holds it whole)."""
        i = bisect.bisect_left(self.spans, (start + 1, -1))  # the first span that starts after start
        return i > 0 and self.spans[i - 1][0] <= start and self.spans[i - 1][1] >= end

    def add(self, start: int, end: int) -> None:
        bisect.insort(self.spans, (start, end))


def _items(text: str, start: int, end: int, street_ends: Sequence[int], taken: _Spans) -> Iterable[Detection]:
    """The block [start, end)'s items; ``street_ends``: where its street addresses end."""
    found = _Spans()

    def add(kind: str, a: int, b: int) -> Detection | None:
        if a >= b or taken.covers(a, b) or found.overlaps(a, b):
            return None
        found.add(a, b)
        return Detection(kind, a, b, SCORE, BLOCK_RECOGNIZER)

    out: list[Detection] = []
    for m in _LABELLED.finditer(text, start, end):
        value = m.group("value")
        digits = sum(c.isdigit() for c in value)
        if not digits or _VERSION.fullmatch(value) or (m.group("marker") is None and (
                _YEAR.fullmatch(value) or (digits < 3 and not any(c.isalpha() for c in value)))):
            continue
        if m.group("label").lower() in ("order", "file", "case", "policy", "claim", "account") and not (
                m.group("marker") or "/" in value or sum(c.isdigit() for c in value) >= 4):
            continue
        d = add("ID_NUMBER", m.start("value"), m.end("value"))
        if d:
            out.append(d)
    postcodes: list[tuple[int, int]] = []
    for m in _POSTCODE.finditer(text, start, end):
        if m.lastgroup == "num" and not _numeric_postcode(text, m, start, end):
            continue
        postcodes.append((m.start(), m.end()))
    postcode_spans = _Spans(postcodes)
    for m in _ACRONYM_ID.finditer(text, start, end):
        value = m.group("value")
        if (m.group("label") in _NOT_ID_LABELS or re.fullmatch(_STATES, m.group("label")) or len(value) < 6
                or sum(c.isdigit() for c in value) < 3 or postcode_spans.overlaps(m.start(), m.end())):
            continue
        d = add("ID_NUMBER", m.start("value"), m.end("value"))
        if d:
            out.append(d)
    # After the identifiers after their own acronym ("RUT 12.000.000-K" is no phone in a national layout).
    for m in _PHONE_ITEM.finditer(text, start, end):
        if sum(c.isdigit() for c in m.group()) >= _MIN_PHONE_DIGITS and not _CELL_DATE.fullmatch(m.group()) and (
                phone_any(m.group())):
            d = add("PHONE_NUMBER", m.start(), m.end())
            if d:
                out.append(d)
    for a, b in postcodes:
        d = add("LOCATION", a, b)
        if d:
            out.append(d)
            out.extend(x for x in (add("LOCATION", *town) for town in _towns_beside(text, a, b, start, end)) if x)
    for street_end in street_ends:
        town = _next_item_town(text, street_end, end)
        if town:
            x = add("LOCATION", *town)
            if x:
                out.append(x)
    return out


def _coordinated_names(text: str, start: int, end: int, persons: Sequence[tuple[int, int]], taken: _Spans
                       ) -> list[Detection]:
    """A known given name right before "and" and one of the block's persons ("for Jürgen and Heike Oberländer"):
    the person's companion, named as the booking or the letter names them both."""
    out: list[Detection] = []
    first = bisect.bisect_left(persons, (start, start))
    for p_start, _ in persons[first:bisect.bisect_left(persons, (end, end), first)]:
        m = _COORDINATED.search(text, max(start, p_start - 40), p_start)
        if m is None or taken.overlaps(m.start("name"), m.end("name")) or not _given_name(m.group("name")):
            continue
        out.append(Detection("PERSON", m.start("name"), m.end("name"), SCORE, BLOCK_RECOGNIZER))
    return out


def _given_name(word: str) -> bool:
    """A known given name (the gazetteer's lists, as written or folded to ASCII) that is no common, technical or
    function word ("Jürgen", "Heike"; not "Will", "May", "Science")."""
    from ztgate.redaction.detection.names import gazetteer  # the gazetteer owns the lists and the ASCII fold
    from ztgate.redaction.detection.patterns import validators

    folded = word.casefold()
    if folded in validators._COMMON_WORD_NAMES or folded in TECHNICAL_WORDS or folded in FUNCTION_WORDS:  # noqa: SLF001
        return False
    names = validators._given_names()  # noqa: SLF001
    return folded in names or gazetteer.ascii_fold(folded) in names


def _row_dates(text: str, detections: Sequence[Detection], taken: _Spans) -> list[Detection]:
    """The dates of every record row (module doc) of ``text``: each contact or identity value's line, or the
    quoted string on it that holds the value, read once."""
    out: list[Detection] = []
    seen: set[tuple[int, int]] = set()
    for d in detections:
        if d.score < MIN_ANCHOR_SCORE or not _is_contact(d):
            continue
        row = _row_bounds(text, d.start, d.end)
        if row in seen:
            continue
        seen.add(row)
        a, b = row
        sep = next((c for c in _ROW_SEPARATORS if text.count(c, a, b) >= 2), None)
        if sep is None or _in_table(text, a, b, sep):
            continue
        pos = a
        for cell in text[a:b].split(sep):
            value = cell.strip(" \t\"'")
            if value and _CELL_DATE.fullmatch(value) and date_of_birth(value):
                at = pos + cell.index(value)
                if not taken.overlaps(at, at + len(value)):
                    out.append(Detection("DATE_OF_BIRTH", at, at + len(value), SCORE, BLOCK_RECOGNIZER))
            pos += len(cell) + 1
    return out


def _in_table(text: str, row_start: int, row_end: int, sep: str) -> bool:
    """Whether the row is one line of a table: the line right above or right below it has as many separators
    (a header or another row). A table's header says what each column holds ("signup", "dob":
    ``names/context/birth_columns``), and a header far above is out of a bounded look, so only a row standing
    alone (a line of prose's data, a quoted string) is read by its contact value."""
    count = text.count(sep, row_start, row_end)
    if row_start > 0 and text[row_start - 1] == "\n":
        above = text.rfind("\n", max(0, row_start - 1 - _ROW_REACH), row_start - 1) + 1
        if text.count(sep, above, row_start - 1) == count:
            return True
    if row_end < len(text) and text[row_end] == "\n":
        below = text.find("\n", row_end + 1, min(len(text), row_end + 1 + _ROW_REACH))
        below = below if below >= 0 else min(len(text), row_end + 1 + _ROW_REACH)
        if text.count(sep, row_end + 1, below) == count:
            return True
    return False


def _row_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The line around [start, end), at most _ROW_REACH characters each side, or the quoted string on it that
    holds the span."""
    a = text.rfind("\n", max(0, start - _ROW_REACH), start) + 1 or max(0, start - _ROW_REACH)
    b = text.find("\n", end, min(len(text), end + _ROW_REACH))
    b = b if b >= 0 else min(len(text), end + _ROW_REACH)
    for quote in "\"“":
        close = "”" if quote == "“" else quote
        q_open = text.rfind(quote, a, start)
        q_close = text.find(close, end, b)
        if q_open >= 0 and q_close >= 0:
            return q_open + 1, q_close
    return a, b


def _numeric_postcode(text: str, m: re.Match[str], start: int, end: int) -> bool:
    """Digits read as a postcode: beside a town or standing as an item, never a year or a count."""
    value = m.group()
    if len(value) == 4 and _YEAR.fullmatch(value):
        return False
    if _COUNTED.match(text, m.end(), min(end, m.end() + 3)):
        return False
    after = _TOWN_AFTER.match(text, m.end(), min(end, m.end() + 80))
    if after and not after.group("comma") and _is_town(after.group("town")):
        return True
    line_start = max(start, m.start() - 80)
    line_start = max(line_start, text.rfind("\n", line_start, m.start()) + 1)
    before_town = _TOWN_BEFORE.search(text[line_start:m.start()])
    if before_town and _is_town(before_town.group("town")):
        return True
    return len(value.replace("-", "")) >= 5 and _alone(text, m.start(), m.end(), start, end)


def _alone(text: str, a: int, b: int, start: int, end: int) -> bool:
    """The value is an item of its own: only separators between it and the commas or line ends around it."""
    left = text[max(start, a - 3):a]
    right = text[b:min(end, b + 3)]
    return (left == "" or left.rstrip(" \t").endswith((",", "\n", ";", "|", ".")) or left.strip(" \t") == "") and (
        right == "" or right.lstrip(" \t")[:1] in ("", ",", "\n", ";", "|", "."))


def _towns_beside(text: str, a: int, b: int, start: int, end: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    after = _TOWN_AFTER.match(text, b, min(end, b + 80))
    if after and _is_locality(after.group("town")) and (not after.group("comma") or _alone(text, a, b, start, end)):
        out.append(_without_country(text, after.start("town"), after.end("town")))
    line_start = max(start, a - 80)
    line_start = max(line_start, text.rfind("\n", line_start, a) + 1)
    before = _TOWN_BEFORE.search(text[line_start:a])
    if before and _is_locality(before.group("town")):
        out.append((line_start + before.start("town"), line_start + before.end("town")))
    return out


def _next_item_town(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """The item right after a street address: after a comma on its line, or the next line alone."""
    if pos < end and text[pos] == ",":
        m = _ITEM_TOWN.match(text, pos + 1, end)
    elif text.startswith("\n", pos):
        m = _ITEM_TOWN.match(text, pos + 1, end)
    else:
        return None
    if m is None or not _is_locality(m.group("town")):
        return None
    return m.start("town"), m.end("town")


def _without_country(text: str, a: int, b: int) -> tuple[int, int]:
    """The town without a country or region written after it on the same item ("Berlin Germany")."""
    cut = b
    for m in re.finditer(r" ", text[a:b]):
        if _public_region(text[a + m.end():b]):
            cut = a + m.start()
            break
    return a, cut


def _is_town(value: str) -> bool:
    """Capitalised words that may be a town: no label word at either end, and not an acronym ("ISO", "RTX")."""
    words = value.split()
    return bool(words) and words[0] not in _LABEL_WORDS and words[-1] not in _LABEL_WORDS and any(
        c.islower() for c in value)


def _is_locality(value: str) -> bool:
    return _is_town(value) and not _public_region(value)


@functools.cache
def _regions() -> tuple[object, ...]:
    from ztgate.redaction.detection.public import load
    return load("countries"), load("regions")


def _public_region(value: str) -> bool:
    return any(lst.has(value) for lst in _regions())  # type: ignore[attr-defined]
