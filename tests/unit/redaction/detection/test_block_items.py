"""A private person's contact, booking or signature block: its other items are private too (issue #29).

Seen: a block that already held a detected name and a phone number or an e-mail address let national
postcodes ("D02 X285", "SW1A 1AA", "C.P. 06700", "NSW 2000", a six-digit Russian one, "〒150-0002"), identifiers
named by an acronym ("RUT 12.345.678-5", "NHI ZAC5361"), references with slashes ("REF 2024/118/B"), dates after
"geb." and other birth cues, a member's four-digit number and the block's small town reach the model.

Generated families, the items drawn apart from any corpus: each item kind in blocks of six layouts (one line of
comma items, a signature's lines, a pipe-separated line, a booking sentence) and of several languages' labels,
with the person and the contact value before or after the item -> the item is reported with its type. The same
items with no person, with no contact value, or in another paragraph -> not reported; the same shapes in
everyday questions (a postcode asked about, "Flight 2024/118", a year, a model number) -> untouched through the
real analyzer and the default policy. ``block_items`` is tested on detections built by hand (the anchors a
recognizer would give); the end-to-end tests run the production analyzer, where a date after a birth cue of any
of the languages is the pattern tier's (``date_of_birth_*``: "geb.", "fødd", "nacido el" joined its cues), block
or not.
"""

from __future__ import annotations


from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.block_items import BLOCK_RECOGNIZER, block_items
from ztgate.redaction.detection.patterns.national_ids import es_dni, nl_bsn
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection

DEFAULT = PolicyStore.load().get("default")
OPERATORS = Operators()

_SYLLABLES = ["kal", "ten", "brun", "vo", "rsk", "ha", "de", "rup", "mei", "lo", "zan", "tir", "mor", "quil"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())
GIVEN = st.sampled_from(["Anna", "Siobhan", "Ramón", "Hannelore", "Tane", "Liam", "Yuki", "Ingrid", "Olu", "Mateo"])
_DIGIT = st.sampled_from("0123456789")


def _digits(n: int) -> st.SearchStrategy[str]:
    return st.lists(_DIGIT, min_size=n, max_size=n).map("".join)


_EIR_LETTERS = "ACDEFHKNPRTVWXY"
_UK_END = "ABDEFGHJLNPQRSTUWXYZ"
# (kind, value strategy, entity type): the item's text as a block writes it, and the part that must be reported.
EIRCODE = st.tuples(st.sampled_from(_EIR_LETTERS), _digits(2), st.sampled_from(_EIR_LETTERS),
                    _digits(3)).map(lambda t: f"{t[0]}{t[1]} {t[2]}{t[3]}")
UK = st.tuples(st.sampled_from(["SW", "M", "EC", "B", "LS", "G", "N"]), st.integers(1, 20), _digits(1),
               st.sampled_from(_UK_END), st.sampled_from(_UK_END)).map(lambda t: f"{t[0]}{t[1]} {t[2]}{t[3]}{t[4]}")
MEXICO = _digits(5).map(lambda d: f"C.P. {d}")
AUSTRALIA = st.tuples(st.sampled_from(["NSW", "VIC", "QLD", "TAS", "ACT"]), st.integers(800, 7999)).map(
    lambda t: f"{t[0]} {t[1]:04d}")
RUSSIA = st.integers(101000, 692999).map(str)
JAPAN = st.tuples(_digits(3), _digits(4)).map(lambda t: f"〒{t[0]}-{t[1]}")
POSTCODES = st.one_of(EIRCODE, UK, MEXICO, AUSTRALIA, RUSSIA, JAPAN)

RUT = st.tuples(st.integers(5, 25), _digits(3), _digits(3), st.sampled_from("0123456789K")).map(
    lambda t: f"{t[0]}.{t[1]}.{t[2]}-{t[3]}")
NHI = st.tuples(st.lists(st.sampled_from("ABCDEFGHJKLMNPQRSTUVWXYZ"), min_size=3, max_size=3).map("".join),
                _digits(4)).map(lambda t: t[0] + t[1])
ACRONYM_IDS = st.one_of(RUT.map(lambda v: ("RUT", v)), NHI.map(lambda v: ("NHI", v)),
                        _digits(7).map(lambda d: ("PPS", d + "T")), _digits(9).map(lambda d: ("BSN", d)),
                        _digits(8).map(lambda d: ("DNI", d + "Z")))
# Outside a block, an identifier whose check digits hold after its own label is the national-identifier
# catalogue's anywhere (rules/national_ids.yaml, ADR 0020): a DNI whose letter is its mod-23 letter, a BSN
# passing the elfproef; those draws are left to test_national_id_catalogue.py.
_CHECKED_AFTER_LABEL = {"DNI": es_dni, "BSN": nl_bsn}
BARE_ACRONYM_IDS = ACRONYM_IDS.filter(lambda pair: pair[0] != "RUT").filter(
    lambda pair: pair[0] not in _CHECKED_AFTER_LABEL or not _CHECKED_AFTER_LABEL[pair[0]](pair[1]))
REFS = st.tuples(st.integers(2015, 2030), st.integers(1, 999), st.sampled_from(["", "/B", "/K", "/7"])).map(
    lambda t: f"{t[0]}/{t[1]}{t[2]}")
REF_LABELS = st.sampled_from(["REF", "Ref.", "Ref:", "Booking ref:", "Reference", "Az.", "Aktenzeichen",
                              "Expediente", "Réf."])
MEMBER = st.integers(1000, 9999).filter(lambda n: not 1900 <= n <= 2099).map(str)
MEMBER_LABELS = st.sampled_from(["Member", "member", "Customer", "customer no.", "Member #", "Kunde", "Mitglied",
                                 "Socio", "Client", "Loyalty no."])
DATES = st.tuples(st.integers(1, 28), st.integers(1, 12), st.integers(1930, 2005)).map(
    lambda t: f"{t[0]:02d}.{t[1]:02d}.{t[2]}")
BARE_MEMBER_LABELS = st.sampled_from(["Member", "member", "Customer", "Kunde", "Mitglied", "Socio", "Client"])
# Not "b.": at a line's start it is an enumeration's letter, refused on purpose (date_of_birth_after_b).
BIRTH_CUES = st.sampled_from(["geb.", "geboren am", "née le", "born", "DOB", "DOB:", "d.o.b.", "fødd",
                              "født", "nacido el", "nata il"])


@st.composite
def items(draw: st.DrawFn, *, births: bool = False, bare: bool = False) -> tuple[str, str, str]:
    """(item text, the value that must be reported, its entity type); a date after a birth cue only with
    ``births`` (the pattern tier's, anywhere: the end-to-end tests); with ``bare`` a record noun has no number
    marker (with one, "customer no. 1000" is the pattern tier's ``labelled_id_marked`` anywhere) and no RUT (a
    RUT after its label is the pattern tier's ``national_id_cl_rut`` anywhere when its check digit holds)."""
    kind = draw(st.sampled_from(["postcode", "acronym", "ref", "member"] + ["birth"] * births))
    if kind == "postcode":
        value = draw(POSTCODES)
        return value, value, "LOCATION"
    if kind == "acronym":
        label, value = draw(BARE_ACRONYM_IDS if bare else ACRONYM_IDS)
        return f"{label} {value}", value, "ID_NUMBER"
    if kind == "ref":
        value = draw(REFS)
        return f"{draw(REF_LABELS)} {value}", value, "ID_NUMBER"
    if kind == "member":
        value = draw(MEMBER)
        return f"{draw(BARE_MEMBER_LABELS if bare else MEMBER_LABELS)} {value}", value, "ID_NUMBER"
    value = draw(DATES)
    return f"{draw(BIRTH_CUES)} {value}", value, "DATE_OF_BIRTH"


CONTACTS = st.one_of(
    st.tuples(_WORD, _WORD).map(lambda t: (f"{t[0].lower()}.{t[1].lower()}@example.org", "EMAIL_ADDRESS")),
    st.tuples(_digits(3), _digits(4)).map(lambda t: (f"+353 1 {t[0]} {t[1]}", "PHONE_NUMBER")))
LAYOUTS = [
    "{a}, {b}, {c}",
    "Best regards,\n{a}\n{b}\n{c}",
    "{a} | {b} | {c}",
    "Booking\n{a}. {b}. {c}.",
    "Kind regards\n\n{a}\n{b}, {c}",
    "Guest:\n{a}; {b}; {c}",
]


def _build(layout: str, name: str, item: str, contact: str, order: int) -> str:
    parts = [[name, item, contact], [item, name, contact], [name, contact, item]][order]
    return layout.format(a=parts[0], b=parts[1], c=parts[2])


def _anchors(text: str, name: str, contact: str, kind: str) -> list[Detection]:
    n, c = text.index(name), text.index(contact)
    return [Detection("PERSON", n, n + len(name), 0.9, "GazetteerRecognizer"),
            Detection(kind, c, c + len(contact), 0.95, "phone_international" if kind == "PHONE_NUMBER" else
                      "email_address")]


def _reported(found: list[Detection], text: str) -> set[tuple[str, str]]:
    return {(d.entity_type, text[d.start:d.end]) for d in found}


BLOCKS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, item=items(), contact=CONTACTS, layout=st.sampled_from(LAYOUTS),
       order=st.integers(0, 2))
# Drawn on the merge of the block's national-layout phones: the RUT after its acronym was read as a phone.
@example(given_name="Anna", surname="Kalkal", item=("RUT 12.000.000-K", "12.000.000-K", "ID_NUMBER"),
         contact=("+353 1 000 0004", "PHONE_NUMBER"), layout="{a}, {b}, {c}", order=0)
def test_every_item_kind_in_a_block_is_reported_with_its_type(given_name, surname, item, contact, layout, order):
    name = f"{given_name} {surname}"
    text = _build(layout, name, item[0], contact[0], order)
    found = block_items(text, _anchors(text, name, *contact))
    assert all(d.recognizer == BLOCK_RECOGNIZER for d in found)
    assert any(d.entity_type == item[2] and item[1] in text[d.start:d.end] for d in found), (text, found)


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, item=items(), contact=CONTACTS, layout=st.sampled_from(LAYOUTS),
       order=st.integers(0, 2), which=st.sampled_from(["no person", "no contact", "low score"]))
def test_the_same_items_without_a_person_and_a_contact_are_not_reported(given_name, surname, item, contact, layout,
                                                                        order, which):
    name = f"{given_name} {surname}"
    text = _build(layout, name, item[0], contact[0], order)
    person, value = _anchors(text, name, *contact)
    anchors = {"no person": [value], "no contact": [person],
               "low score": [Detection(person.entity_type, person.start, person.end, 0.3, person.recognizer),
                             value]}[which]
    assert block_items(text, anchors) == []


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, item=items(), contact=CONTACTS, town=_WORD)
def test_an_item_in_another_paragraph_or_far_away_is_not_reported(given_name, surname, item, contact, town):
    name = f"{given_name} {surname}"
    for text in (f"{name}, {contact[0]}\n\nQuestion about {town}: what is {item[0]} for?",
                 f"{name}, {contact[0]}. " + "The weather was fine all week long. " * 12 + f"What is {item[0]}?"):
        found = block_items(text, _anchors(text, name, *contact))
        assert not any(item[1] in text[d.start:d.end] for d in found), (text, found)


STREETS = st.tuples(st.integers(2, 120), _WORD, st.sampled_from(["Road", "Street", "Lane", "Avenue"]))


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, street=STREETS, town=_WORD, contact=CONTACTS,
       postcode=st.sampled_from(["", " D02 X285", " 3800", " SW1A 1AA"]), multiline=st.booleans())
def test_the_address_lines_town_is_reported(given_name, surname, street, town, contact, postcode, multiline):
    name = f"{given_name} {surname}"
    address = f"{street[0]} {street[1]} {street[2]}"
    sep = "\n" if multiline and not postcode else ", "
    text = f"{name}\n{address}{sep}{town}{postcode}\n{contact[0]}"
    s = text.index(address)
    anchors = [*_anchors(text, name, *contact),
               Detection("LOCATION", s, s + len(address), 0.8, "street_address_number_first")]
    assert ("LOCATION", town) in _reported(block_items(text, anchors), text), text


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, town=_WORD, contact=CONTACTS,
       line=st.sampled_from(["{town} {pc}", "{pc} {town}", "{pc}, {town}"]),
       postcode=st.one_of(EIRCODE, UK, JAPAN, MEXICO, RUSSIA))
def test_the_town_beside_a_postcode_is_reported(given_name, surname, town, contact, line, postcode):
    name = f"{given_name} {surname}"
    text = f"{name}, {line.format(town=town, pc=postcode)}, {contact[0]}"
    reported = _reported(block_items(text, _anchors(text, name, *contact)), text)
    assert ("LOCATION", town) in reported and any(postcode in v for _, v in reported), (text, reported)


def test_a_country_or_a_region_after_a_postcode_is_not_a_locality():
    text = "Anna Kalten, Kirchweg 4, NSW 2000, Australia, anna@example.org"
    found = _reported(block_items(text, _anchors(text, "Anna Kalten", "anna@example.org", "EMAIL_ADDRESS")), text)
    assert ("LOCATION", "NSW 2000") in found and not any("Australia" in v for _, v in found)


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, contact=CONTACTS,
       clean=st.sampled_from(["Flight 2024/118 leaves at 9.", "In 2019 we moved.", "Buy the Model X285 kit.",
                              "Room 4821 is on floor 3.", "It has 2000 users.", "Staff 2025 retreat.",
                              "The version v3.2 is out.", "Order 12 pizzas.", "Table 4 is free.",
                              "Certified to ISO 9001.", "Runs on an RTX 4090.", "Room 4090, Sales Manager."]))
def test_ordinary_numbers_inside_a_block_stay(given_name, surname, contact, clean):
    """Inside a block, numbers that no label or shape makes an item (a flight, a year, a count, a room) stay."""
    name = f"{given_name} {surname}"
    text = f"{name}, {contact[0]}. {clean}"
    assert block_items(text, _anchors(text, name, *contact)) == [], text


# --- end to end: the production analyzer and the default policy ---------------------------------

E2E = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
E2E_LAYOUTS = ["Best regards,\n{a}\n{b}\n{c}", "Contact: {a}, {b}, {c}", "{a} | {b} | {c}"]


@E2E
@given(given_name=st.sampled_from(["Anna", "Maria", "Thomas", "Sarah", "Peter"]), surname=_WORD,
       item=items(births=True),
       contact=CONTACTS, layout=st.sampled_from(E2E_LAYOUTS))
def test_block_items_do_not_reach_the_model(redaction_analyzer, given_name, surname, item, contact, layout):
    name = f"{given_name} {surname}"
    text = layout.format(a=name, b=item[0], c=contact[0])
    out = redact(text, redaction_analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text
    assert item[1] not in out and contact[0] not in out, (text, out)


QUESTIONS = ["What area does the postcode {v} cover?", "Is {v} a valid code?", "Why is {v} written that way?",
             "Explain the format of {v}.", "Our new office is at {v}; which city is that?"]


@E2E
@given(item=items(bare=True), frame=st.sampled_from(QUESTIONS))
def test_the_same_items_in_everyday_text_reach_the_model(redaction_analyzer, item, frame):
    text = frame.format(v=item[0])
    out = redact(text, redaction_analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text
    assert item[1] in out, (text, out)


def test_the_issues_shapes_outside_a_block_stay(redaction_analyzer):
    for text in ["What is the postcode D02 X285 for? Flight 2024/118 was delayed.",
                 "In 2019 the model X285 launched in NSW 2000.",
                 "Which district has the postcode SW1A 1AA, and who lives at 10 Downing Street?",
                 "Ask the desk about REF 2024/118/B.", "Is 〒150-0002 in Shibuya?"]:
        out = redact(text, redaction_analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text
        for value in ("D02 X285", "2024/118", "2019", "X285", "NSW 2000", "SW1A 1AA", "150-0002"):
            if value in text:
                assert value in out, (text, out)


@E2E
@given(cue=BIRTH_CUES, date=DATES, frame=st.sampled_from(["{c} {d}", "Hannelore Kalmor ({c} {d}) wrote to us.",
                                                          "Patient, {c} {d}, seen today."]))
def test_a_date_after_a_birth_cue_of_any_language_is_a_date_of_birth(redaction_analyzer, cue, date, frame):
    text = frame.format(c=cue, d=date)
    assert any(d.entity_type == "DATE_OF_BIRTH" and text[d.start:d.end] == date
               for d in redaction_analyzer.analyze(text)), text


@BLOCKS
@given(given_name=GIVEN, surname=_WORD, postcode=st.one_of(JAPAN, EIRCODE, UK), contact=CONTACTS)
def test_an_item_that_a_longer_person_span_only_touches_is_still_reported(given_name, surname, postcode, contact):
    """spaCy may read "Anna Berg\\n〒" as the name: the postcode is reported, and the overlap rule downstream
    merges the two into one span, so no digit of it is left out."""
    name = f"{given_name} {surname}"
    text = f"Best regards,\n{name}\n{postcode}\n{contact[0]}"
    person, value = _anchors(text, name, *contact)
    swallowing = Detection("PERSON", person.start, person.end + 2, 0.85, "SpacyRecognizer")
    found = block_items(text, [person, swallowing, value])
    assert ("LOCATION", postcode) in _reported(found, text), text
    whole = Detection("LOCATION", text.index(postcode), text.index(postcode) + len(postcode), 0.9, "x")
    assert block_items(text, [person, value, whole]) == []  # a value already found whole is not reported twice
