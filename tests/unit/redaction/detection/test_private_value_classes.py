"""Private values that reached the model under the default policy (issue #29, seen on utility-holdout-6): chat
handles and user names, phones in national layouts inside a person's block, references after their labels,
cells of a table of persons' records typed by their header, a given name coordinated with a person, flats and
buildings, dates in a record row and spaced dates after birth cues.

Generated families, both sides, drawn apart from any corpus (the syllables, cues and layouts are this file's):
each class in several wordings -> the value does not reach the model; the everyday look-alikes of each class
(decorators, bots' and teams' @mentions, a service speaking in a log, ticket, issue, PR, build, order and invoice
numbers, versions, ISBNs, model numbers, a product table, timestamps, a date with no birth cue) -> the text is
unchanged. Through the production analyzer and the default policy, as a request goes.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.block_items import block_items
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.types import Detection

DEFAULT = PolicyStore.load().get("default")
OPERATORS = Operators()
E2E = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])

_SYLLABLES = ["vor", "ta", "mek", "ilo", "sun", "dra", "pe", "kas", "lun", "bri", "zo", "hem"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map("".join)
_NAME_WORD = _WORD.map(str.capitalize)
_DIGITS = st.integers(0, 10**6).map(str)


def _out(analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text


# --- handles ----------------------------------------------------------------------------------------------
USER_NAMES = st.tuples(_WORD, st.sampled_from(["_", ".", ""]), _WORD, st.integers(1, 2015)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]}{t[3]}")
HANDLE_FRAMES = [
    "Asking for a friend on WeChat {h}, who wants to know why the sky is blue.",
    "My Telegram: @{h}. Why is the sky blue?",
    "(Discord username {h}) Why is the sky blue?",
    "my Instagram handle is {h}; why is the sky blue?",
    "I'm @{h} on the forum. Why is the sky blue?",
    "add me: @{h} - why is the sky blue?",
    "[09:14] @{h}: why is the sky blue?",
    "My daughter ('{h}' online) asked why the sky is blue.",
    "Reach me on Skype, Skype id {h}. Why is the sky blue?",
]


@E2E
@given(handle=USER_NAMES, frame=st.sampled_from(HANDLE_FRAMES))
def test_a_handle_after_its_cue_does_not_reach_the_model(redaction_analyzer, handle, frame):
    text = frame.format(h=handle)
    assert handle not in _out(redaction_analyzer, text), text


HANDLE_LOOKALIKES = [
    "In Python, what does @property do, and when do I need @{w}.setter?",
    "What is the difference between @dataclass(frozen=True) and @functools.cache?",
    "In Java, why does @Override matter, and what does @{w}Service inject?",
    "On GitHub, what happens if I comment '@dependabot rebase' or ping @renovate-bot?",
    "Who is notified when a PR mentions @{w}-team or @github-actions[bot]?",
    "The log reads '[10:02] @scheduler: job {d} done'; how do I parse it?",
    "Flask's @app.route('/{w}') decorator: how does it register the view?",
]


@E2E
@given(w=_WORD, d=_DIGITS, frame=st.sampled_from(HANDLE_LOOKALIKES))
@example(w="zoilo", d="1", frame=HANDLE_LOOKALIKES[0])  # a given name before a decorator's attribute (was hidden)
def test_decorators_bots_and_services_stay(redaction_analyzer, w, d, frame):
    text = frame.format(w=w, d=d)
    assert _out(redaction_analyzer, text) == text


# --- references ------------------------------------------------------------------------------------------
_CAPS = st.lists(st.sampled_from("ABCDEFGHJKLMNPQRSTUVWXYZ"), min_size=2, max_size=4).map("".join)
CODES = st.one_of(
    st.tuples(_CAPS, st.integers(1000, 9999), _CAPS).map(lambda t: f"{t[0]}-{t[1]}-{t[2]}"),
    st.tuples(_CAPS, st.integers(1995, 2024), st.integers(10000, 99999)).map(lambda t: f"{t[0]}/{t[1]}/{t[2]}"),
    st.tuples(_CAPS, _CAPS, st.integers(100000, 999999)).map(lambda t: f"{t[0]}-{t[1]}-{t[2]}"),
    st.tuples(_CAPS, st.integers(2, 9), _CAPS, st.integers(2, 9)).map(lambda t: f"{t[0]}{t[1]}{t[2]}{t[3]}"),
)
REFERENCE_FRAMES = [
    "Booking ref. for our trip: {c}. Which river runs through the city?",
    "Reservation code {c}, two nights. Which river runs through the city?",
    "policy {c}; which river runs through the city?",
    "Patient (hospital no. {c}) asks which river runs through the city.",
    "Our PNR is {c}. Which river runs through the city?",
    "confirmation number: {c} - which river runs through the city?",
    "membership no. {c}. Which river runs through the city?",
]


@E2E
@given(code=CODES, frame=st.sampled_from(REFERENCE_FRAMES))
def test_a_reference_after_its_label_does_not_reach_the_model(redaction_analyzer, code, frame):
    text = frame.format(c=code)
    assert code not in _out(redaction_analyzer, text), text


REFERENCE_LOOKALIKES = [
    "Why does ticket #{n} say the build fails?", "What changed in issue {n} and PR {n}?",
    "Build {n}.7 failed after upgrading to 4.2.{s}; why?", "Our order reference is {c}; how do I write a reminder?",
    "The invoice {c} is overdue; how do I write a reminder?", "Is ISBN 978-0-14-044913-6 a translation?",
    "Compare model {c} with the WH-1000XM5.", "Part number {c} is out of stock; what can replace it?",
    "At 14:05:33 UTC on 2024-04-08, what happened?", "The {c} firmware v2.{s} changelog mentions what?",
]


@E2E
@given(n=st.integers(100, 99999), s=st.integers(0, 30), c=CODES, frame=st.sampled_from(REFERENCE_LOOKALIKES))
def test_technical_and_business_numbers_stay(redaction_analyzer, n, s, c, frame):
    text = frame.format(n=n, s=s, c=c)
    assert _out(redaction_analyzer, text) == text


# --- tables typed by their header ------------------------------------------------------------------------
TABLE_LAYOUTS = ["{h}\n{r}", "| {h} |\n|---|---|---|\n| {r} |"]
ID_COLUMNS = ["member_id", "aadhaar", "passport_no", "patient_id", "national_id", "ssn"]


@E2E
@given(given_name=st.sampled_from(["Karin", "Diego", "Amara", "Haruto", "Lena"]), surname=_NAME_WORD,
       column=st.sampled_from(ID_COLUMNS), code=CODES, sep=st.sampled_from(["|", ",", "\t", ";"]),
       phone=st.integers(6000000, 9999999))
def test_a_record_rows_cells_take_their_type_from_the_header(redaction_analyzer, given_name, surname, column,
                                                               code, sep, phone):
    header = sep.join(["name", column, "mobile"])
    row = sep.join([f"{given_name} {surname}", code, f"0{phone // 1000} {phone % 1000:03d} 41"])
    text = f"Our club's list:\n{header}\n{row}\nWhat is the offside rule?"
    out = _out(redaction_analyzer, text)
    assert code not in out and surname not in out and f"0{phone // 1000}" not in out, (text, out)


@E2E
@given(product=st.sampled_from(["Trail Runner", "Summit Jacket", "Aero Bottle", "Desk Lamp", "Storm Shell"]),
       sku=CODES, price=st.integers(5, 999), sep=st.sampled_from(["|", ",", "\t"]),
       header=st.sampled_from([["name", "sku", "price"], ["name", "id", "price"], ["name", "model_no", "price"]]))
def test_a_product_table_stays(redaction_analyzer, product, sku, price, sep, header):
    """A table whose header names no person's identifier, phone or address: its codes and prices stay, and no
    cell is typed by the header (spaCy's own reading of a product's name, "Trail Runner" as a PERSON on main as
    well, is not this rule's)."""
    text = f"{sep.join(header)}\n{sep.join([f'{product} 3', sku, f'{price}.99'])}\nWhich is cheaper?"
    found = redaction_analyzer.analyze(text)
    out = redact(text, found, DEFAULT, None, None, None, operators=OPERATORS).text
    assert sku in out and f"{price}.99" in out, (text, out)
    assert not [d for d in found if d.recognizer == "RecordColumnRecognizer"], found


# --- a person's block: phones in national layouts, a coordinated given name, record rows ------------------
NATIONAL_PHONES = st.one_of(
    st.tuples(st.integers(11, 99), st.integers(90000, 99999), st.integers(1000, 9999)).map(
        lambda t: f"({t[0]}) {t[1]}-{t[2]}"),
    st.tuples(st.integers(600, 799), st.integers(10, 99), st.integers(10, 99), st.integers(10, 99)).map(
        lambda t: f"{t[0]} {t[1]} {t[2]} {t[3]}"),
    st.tuples(st.sampled_from([20, 30, 70]), st.integers(200, 999), st.integers(1000, 9999)).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}"),
)


def _anchors(text: str, name: str, value: str, kind: str, recognizer: str) -> list[Detection]:
    p, v = text.index(name), text.index(value)
    return [Detection("PERSON", p, p + len(name), 0.85, "SpacyRecognizer"),
            Detection(kind, v, v + len(value), 0.9, recognizer)]


@given(given_name=st.sampled_from(["Karin", "Diego", "Amara"]), surname=_NAME_WORD, phone=NATIONAL_PHONES,
       anchor=st.sampled_from([("k.x@mail.example", "EMAIL_ADDRESS", "email_address"),
                               ("123.456.789-09", "ID_NUMBER", "national_id_br_cpf")]))
def test_a_phone_in_a_national_layout_in_a_persons_block_is_reported(given_name, surname, phone, anchor):
    name = f"{given_name} {surname}"
    text = f"Hi, it's {name} again ({anchor[0]}, {phone}). Who painted the Garden of Earthly Delights?"
    found = block_items(text, _anchors(text, name, anchor[0], anchor[1], anchor[2]))
    assert ("PHONE_NUMBER", phone) in {(d.entity_type, text[d.start:d.end]) for d in found}, text


@given(given_name=st.sampled_from(["Karin", "Diego", "Amara"]), surname=_NAME_WORD,
       clean=st.sampled_from(["It was painted around 1490 - 1510.", "Tickets cost 12.50 or 15.00.",
                              "The 2019 edition has 320 pages.", "Room 4821 is on floor 3.", "ISBN 978 0 14 044913 6."]))
def test_ordinary_numbers_in_a_persons_block_are_no_phones(given_name, surname, clean):
    name = f"{given_name} {surname}"
    text = f"Hi, it's {name} again (k.x@mail.example). {clean}"
    found = block_items(text, _anchors(text, name, "k.x@mail.example", "EMAIL_ADDRESS", "email_address"))
    assert not [d for d in found if d.entity_type == "PHONE_NUMBER"], (text, found)


@given(first=st.sampled_from(["Jürgen", "Henrike", "Lucía", "Matteo", "Ingrid"]),
       given_name=st.sampled_from(["Heike", "Diego", "Amara"]), surname=_NAME_WORD,
       conj=st.sampled_from(["and", "&", "und", "y"]))
def test_a_given_name_coordinated_with_the_blocks_person_is_reported(first, given_name, surname, conj):
    name = f"{given_name} {surname}"
    text = f"Hotel confirmation for {first} {conj} {name}, Tel. +49 761 229941. Which grapes grow here?"
    found = block_items(text, _anchors(text, name, "+49 761 229941", "PHONE_NUMBER", "phone_international"))
    assert ("PERSON", first) in {(d.entity_type, text[d.start:d.end]) for d in found}, text


def test_a_common_word_before_and_is_no_companion():
    text = "Tickets for Science and Heike Lorenz, Tel. +49 761 229941."
    found = block_items(text, _anchors(text, "Heike Lorenz", "+49 761 229941", "PHONE_NUMBER", "phone_international"))
    assert not [d for d in found if d.entity_type == "PERSON"]


@given(surname=_NAME_WORD, town=_NAME_WORD, year=st.integers(1940, 2005), month=st.integers(1, 12),
       day=st.integers(1, 28), quoted=st.booleans())
def test_a_date_in_a_record_row_with_a_contact_value_is_reported(surname, town, year, month, day, quoted):
    date, phone = f"{year}-{month:02d}-{day:02d}", "+30 210 555 0101"
    row = f"{surname}, {town}, {date}, {phone}"
    text = f'The first data row is "{row}". How do I skip rows?' if quoted else f"{row}\nHow do I skip rows?"
    v = text.index(phone)
    found = block_items(text, [Detection("PHONE_NUMBER", v, v + len(phone), 0.8, "phone_international")])
    assert ("DATE_OF_BIRTH", date) in {(d.entity_type, text[d.start:d.end]) for d in found}, text


@given(year=st.integers(2015, 2024), month=st.integers(1, 12), day=st.integers(1, 28),
       column=st.sampled_from(["signup", "created", "last_order", "joined"]))
def test_a_date_under_a_header_that_names_no_birth_stays(year, month, day, column):
    """Under a header the header says what a column holds (the golden csv_export cases: a `signup` date)."""
    date = f"{year}-{month:02d}-{day:02d}"
    text = f"id,name,email,{column}\n1000,Ana Lima,ana.lima@mail.example,{date}\n"
    v = text.index("ana.lima@")
    found = block_items(text, [Detection("EMAIL_ADDRESS", v, v + len("ana.lima@mail.example"), 0.95, "email_address")])
    assert not [d for d in found if d.entity_type == "DATE_OF_BIRTH"], (text, found)


def test_a_row_of_dates_without_a_contact_value_stays():
    text = "release, 2024-04-08, v3.2, stable\nHow do I parse this?"
    assert block_items(text, []) == []


# --- spaced dates after birth cues, flats -----------------------------------------------------------------
@E2E
@given(cue=st.sampled_from(["born", "nar.", "geb.", "DOB", "date of birth:"]), day=st.integers(1, 28),
       month=st.integers(1, 12), year=st.integers(1930, 2010))
def test_a_spaced_dotted_date_after_a_birth_cue_does_not_reach_the_model(redaction_analyzer, cue, day, month, year):
    date = f"{day}. {month}. {year}"
    text = f"My grandmother ({cue} {date}) asked who composed The Bartered Bride."
    assert date not in _out(redaction_analyzer, text), text


@E2E
@given(day=st.integers(1, 28), month=st.integers(1, 12), year=st.integers(1930, 2010))
def test_a_spaced_dotted_date_without_a_birth_cue_stays(redaction_analyzer, day, month, year):
    text = f"What happened in Prague on {day}. {month}. {year}?"
    assert _out(redaction_analyzer, text) == text


@E2E
@given(unit=st.sampled_from(["Flat", "Unit", "Apartment"]), number=st.integers(1, 400), words=_NAME_WORD,
       kind=st.sampled_from(["Terrace", "Apartments", "Residency", "Towers", "Mansion"]))
def test_a_flat_and_its_building_do_not_reach_the_model(redaction_analyzer, unit, number, words, kind):
    address = f"{unit} {number}, {words} {kind}"
    text = f"Send the parcel to {address}, please. Which courier is fastest?"
    assert address not in _out(redaction_analyzer, text), text
