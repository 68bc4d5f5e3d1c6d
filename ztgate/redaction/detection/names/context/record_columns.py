"""Cells of a table of persons' records, typed by their column's header: CSV, ;- or tab-separated, or a pipe
table (``name|member_id|dob|aadhaar`` then ``Karthikeyan S|CSM-3318|1990-05-21|4821 7736 5190``), row by row
until a row has another shape (issue #29: the name, the member number and the Aadhaar number of such a row
reached the model; only the date of birth, ``birth_columns``, was found).

A header is a person's record when it names a person's identifier, phone, address or date of birth; then its
identifier, phone and address columns are reported (``ID_NUMBER``, ``PHONE_NUMBER``, ``LOCATION``) and, in a
pipe table (``csv_columns`` reads the other separators), its name columns (``PERSON``). A generic ``id``
column, a ``name`` column alone and a product table (``name | sku | price``) are no person's record and stay.
"""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.birth_columns import (BIRTH_COLUMNS, RULE_ROW, cells, column_key,
                                                                    numbered_lines)
from ztgate.redaction.detection.names.context.fields import field_kind, value_span

# Column names of a person's identifier (lower case, spaces and dashes as underscores).
ID_COLUMNS = frozenset({
    "ssn", "social_security_number", "aadhaar", "aadhar", "aadhaar_no", "aadhaar_number", "pan", "pan_no", "cpf",
    "bsn", "sin", "nin", "ni_number", "nino", "nhs_no", "nhs_number", "mrn", "medical_record_number", "passport",
    "passport_no", "passport_number", "national_id", "national_id_no", "id_card", "id_card_no", "personal_id",
    "personal_number", "personnummer", "citizen_id", "voter_id", "tax_id", "tin", "tfn", "dni", "nie", "nif",
    "curp", "rfc", "rut", "run", "hkid", "nric", "driver_license", "drivers_license", "driving_licence",
    "licence_no", "license_no", "policy", "policy_no", "policy_number", "iban", "account_no", "account_number",
    "frequent_flyer", "frequent_flyer_no", "loyalty_no", "membership", "membership_no", "membership_number",
})
# <person noun>_<id marker>: member_id, patient_no, student_number, employee_nr, customer_ref.
_PERSON_ID_COLUMN = re.compile(
    r"(?:member|customer|client|patient|student|pupil|employee|emp|staff|passenger|guest|citizen|person|"
    r"voter|tax|insured|policyholder|holder|subscriber|applicant|tenant)_?(?:id|no|nr|num|number|ref|code)")
PHONE_COLUMNS = frozenset({
    "phone", "phone_no", "phone_number", "mobile", "mobile_no", "mobile_number", "cell", "cellphone", "tel",
    "telephone", "contact_no", "contact_number", "whatsapp", "handy", "telefon", "telefono", "teléfono", "celular",
})
ADDRESS_COLUMNS = frozenset({
    "address", "home_address", "street", "street_address", "addr", "postcode", "post_code", "zip", "zip_code",
    "postal_code", "plz", "cep", "pin_code", "pincode",
})
_MAX_CELL = 80


def _column_type(key: str) -> str | None:
    if key in ID_COLUMNS or _PERSON_ID_COLUMN.fullmatch(key):
        return "ID_NUMBER"
    if key in PHONE_COLUMNS:
        return "PHONE_NUMBER"
    if key in ADDRESS_COLUMNS:
        return "LOCATION"
    return None


class RecordColumnRecognizer(ContextRule):
    NAME = "RecordColumnRecognizer"
    # Under the pattern tier's scores for laid-out phones, identifiers and e-mail (0.7-0.95) and NER's (0.85): a
    # value those already find in such a cell keeps its finding's recognizer (the golden cases record it: at 0.9
    # six csv_export phones changed recognizer); the header types the rest, above the default threshold (0.5).
    SCORE = 0.65
    ENTITIES = ("PERSON", "ID_NUMBER", "PHONE_NUMBER", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        lines = numbered_lines(text)
        index = 0
        while index < len(lines):
            _, line = lines[index]
            index += 1
            sep = next((s for s in ",;\t|" if s in line), None)
            if sep is None:
                continue
            header = cells(line, sep)
            keys = [column_key(cell) for _, cell in header]
            types = [_column_type(k) for k in keys]
            if len(header) < 2 or not (any(types) or any(k in BIRTH_COLUMNS for k in keys)):
                continue
            names = [field_kind(cell) == "PERSON" and sep == "|" for _, cell in header]
            while index < len(lines):  # rows until one has another shape
                row_start, row = lines[index]
                if sep == "|" and RULE_ROW.match(row):
                    index += 1
                    continue
                row_cells = cells(row, sep)
                if len(row_cells) != len(header):
                    break
                index += 1
                for column, (offset, cell) in enumerate(row_cells):
                    at = row_start + offset
                    if names[column]:
                        span = value_span(text, at, cell, "PERSON")
                        if span:
                            out.append(span)
                    elif (kind := types[column]) is not None:
                        span = _typed_cell(at, cell, kind)
                        if span:
                            out.append(span)
        return out


def _typed_cell(at: int, cell: str, kind: str) -> Span | None:
    """A cell's value under an identifier, phone or address column: a digit in it (an address's house number or
    postcode), no longer than a record's value; an empty or placeholder cell ("-", "n/a") is none."""
    value = cell.strip().strip("\"'")
    if not value or len(value) > _MAX_CELL or not any(c.isdigit() for c in value):
        return None
    if kind == "PHONE_NUMBER" and sum(c.isdigit() for c in value) < 6:
        return None
    start = at + cell.index(value)
    return start, start + len(value), kind
