"""Issue #29, the ninth held-out set's public classes (ADR 0034), both sides, as generated families: countries and
large cities in their own languages and scripts (``endonyms``), names of myth and legend (``mythology``), historical
states by shape (``historical``), firms named after their founders (``founder_firms``), venues (``venues``),
historical routes (``routes``) and regions with "del"/"de la"/"of" (``region_names``). Each positive fails under the
default policy without the round's lists; each negative is a private person in the same frames or carrying such a
name, still hidden. Detections are built by hand on the spans spaCy gives such names; no spaCy: what is under test
is the policy. The invented names are in no corpus file.
"""

from __future__ import annotations

from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.public import PUBLIC_LISTS, canonical, data_words, endonyms, load, subdivisions
from ztgate.redaction.detection.public._data import PUBLIC_DATA_DIR, read_lines
from ztgate.redaction.policies import AllowList, PolicyStore
from tests.unit.redaction.detection.public.test_features_dishes_cases import _redact, kept_by_round  # the same spans' helpers

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
OPERATORS = Operators()
NEW = ("endonyms", "mythology", "founder_firms", "venues", "routes", "region_names")
BEFORE = DEFAULT.model_copy(update={"allow": AllowList(values=DEFAULT.allow.values, patterns=DEFAULT.allow.patterns,
                                                         public=tuple(n for n in DEFAULT.allow.public if n not in NEW))})
# This round's lists are what keeps a name: hidden under the default policy without them.
_kept = partial(kept_by_round, before=BEFORE)
# ``historical`` is extended in place (its state heads): its positives are checked without it.
NO_HISTORICAL = DEFAULT.model_copy(update={"allow": AllowList(
    values=DEFAULT.allow.values, patterns=DEFAULT.allow.patterns,
    public=tuple(n for n in DEFAULT.allow.public if n != "historical"))})
TYPES = st.sampled_from(["PERSON", "LOCATION", "NRP"])
# A text with evidence of a private person, so that no rule of the absence of evidence keeps the name.
PRIVATE = "My colleague asked me this, call me back on 0161 496 0123."
# Invented names (no real place, firm or person, in no corpus file), none a known given name.
SURNAMES = ("Quarthwaite", "Vellbrook", "Ostergaard-Pim", "Brenzikova", "Tolliday", "Harrowmere", "Zuberbach")
PLACES = ("Quelvadra", "Ostrelia", "Vandoria", "Brumaleth", "Zarquenta", "Pellinore")
GIVEN = ("Anna", "Tomas", "Ingrid", "Pavel", "Mariam", "Sofia")
MYTHS = [w for w in data_words(read_lines("mythology.txt")) if not given_name(canonical(w))]
MYTH_GIVEN = [w for w in data_words(read_lines("mythology.txt")) if " " not in w and given_name(canonical(w))]


def test_the_lists_are_the_default_policys_own_and_ship_with_source_and_licence():
    for name in NEW:
        assert name in PUBLIC_LISTS and name in DEFAULT.allow.public and name not in STRICT.allow.public
    notices = (PUBLIC_DATA_DIR.parents[3] / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    readme = (PUBLIC_DATA_DIR / "README.md").read_text(encoding="utf-8")
    for data in ("mythology.txt", "endonyms.txt", "venue_heads.txt", "region_starts.txt"):
        head = (PUBLIC_DATA_DIR / data).read_text(encoding="utf-8")[:1500]
        assert "Source:" in head and "Licence:" in head and data in notices and data in readme
    assert "pycountry" in notices and "pycountry" in readme
    assert all(not given_name(w.split("-")[0]) for w in SURNAMES + PLACES)
    assert all(given_name(w) for w in GIVEN)


# Endonyms: countries' and cities' names in their own scripts, whole and (Cyrillic, Greek) in their case endings.
ENDONYMS = sorted(v for v in endonyms.load().values if " " not in v and not given_name(v))
NON_LATIN = [v for v in ENDONYMS if not v.isascii() and not any("a" <= c <= "z" for c in v)]
FRAMES = ["{p}", "Сколько людей живёт: {n}?", "{n}の人口は？", "{n} 인구는?", "Πόσους κατοίκους έχει {n};",
          "Wie groß ist {n}?", "ما عدد سكان {n}؟", "{n} की आबादी कितनी है?"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(NON_LATIN), st.sampled_from(["PERSON", "NRP"]), st.sampled_from(FRAMES))
def test_a_country_or_city_in_its_own_script_is_kept(name: str, entity_type: str, frame: str):
    text = frame.format(n=name, p=PRIVATE) if frame != "{p}" else f"{name}? {PRIVATE}"
    _kept(text, [(name, entity_type)])


CYRILLIC_A = [v for v in ENDONYMS if endonyms._script(v) == "CYRILLIC" and v.endswith("а") and len(v) >= 6
              and endonyms._SURNAME_SHAPE.search(v[:-1]) is None]  # "Одинцова": a surname's shape, below


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CYRILLIC_A), st.sampled_from(["ы", "е", "у", "ой"]))
def test_a_cyrillic_name_is_kept_in_its_case_endings(name: str, ending: str):
    word = (name[:-1] + ending).capitalize()
    text = f"Как добраться до {word}? {PRIVATE}"
    _kept(text, [(word, "PERSON")])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(NON_LATIN), st.sampled_from(SURNAMES), st.sampled_from([
    "Ask {n} about the invoice.", "{n} says the meeting moved.", "Mr {n} called about the invoice.",
    "My neighbour {n} {s} wants the keys back."]))
def test_a_person_in_a_persons_frame_is_hidden_whatever_the_script(name: str, surname: str, template: str):
    text = template.format(n=name, s=surname)
    value = f"{name} {surname}" if "{n} {s}" in template else name
    assert value not in _redact(text, [(value, "PERSON")])


def test_a_listed_word_that_is_a_given_name_is_kept_only_as_a_place_without_private_evidence():
    name = next(v for v in sorted(endonyms.load().values) if v.isalpha() and given_name(v) and len(v) > 4).title()
    assert _redact(f"Wie groß ist {name}?", [(name, "NRP")]) == f"Wie groß ist {name}?"
    assert name not in _redact(f"Wie groß ist {name}? {PRIVATE}", [(name, "NRP")], BEFORE.model_copy(
        update={"allow": DEFAULT.allow}))
    for text in (f"{name}'s curry was the best at the party.", f"Wie groß ist {name}?"):
        assert name not in _redact(text, [(name, "PERSON")])


# Mythology.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(MYTHS), TYPES, st.sampled_from([
    "My son is reading about {m} for school; explain it simply.", "Write a poem about {m} for my book club.",
    "I'm making a quiz on {m} for my class.", "My daughter asked me about {m}. Keep it short."]))
def test_a_name_of_myth_is_kept_in_a_personal_text(myth: str, entity_type: str, template: str):
    text = template.format(m=myth)
    if _redact(text, [(myth, entity_type)], BEFORE) == text:
        return  # kept by another list already ("Olympus": a landmark)
    _kept(text, [(myth, entity_type)])


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(MYTH_GIVEN + MYTHS[:40]), st.sampled_from(SURNAMES), st.sampled_from([
    "My friend {m} {s} loves the old myths; her number is 0161 496 0123.", "Ask {m} about the deploy.",
    "{m} says the report is late.", "Please send it to my colleague {m} {s}."]))
def test_a_person_carrying_a_name_of_myth_is_hidden(myth: str, surname: str, template: str):
    text = template.format(m=myth, s=surname)
    value = f"{myth} {surname}" if "{m} {s}" in template else myth
    if value in _redact(text, [(value, "PERSON")], BEFORE):
        return  # a name another list keeps ("Mount Olympus": a natural feature) is that list's case
    assert value not in _redact(text, [(value, "PERSON")])
    if "{m} {s}" in template:
        assert myth not in _redact(text, [(myth, "PERSON"), (surname, "PERSON")])  # NER split the name in two


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MYTH_GIVEN))
def test_a_name_of_myth_that_is_a_given_name_needs_a_text_with_no_private_person(name: str):
    assert name not in _redact(f"Tell me about {name}. {PRIVATE}", [(name, "PERSON")])


# Historical states by shape.
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PLACES), TYPES, st.sampled_from([
    "the Republic of {p}", "the Grand Duchy of {p}", "the Kingdom of {p}", "the {p} Republic",
    "the Principality of {p}", "the {p} Commonwealth"]), st.sampled_from([
    "We're studying {s} in class.", "I am preparing a talk on {s} for my club.", "My grandfather loved books about {s}."]))
def test_a_historical_state_by_its_shape_is_kept(place: str, entity_type: str, state: str, template: str):
    name = state.format(p=place).removeprefix("the ")
    text = template.format(s="the " + name) + " " + PRIVATE
    _kept(text, [(name, entity_type)], before_fails=False)
    if entity_type != "LOCATION":  # a LOCATION in a sentence naming no one is topic_places's
        assert _redact(text, [(name, entity_type)], NO_HISTORICAL) != text  # the state's shape keeps it


# Firms named after their founders.
SUFFIXES = (" & Co.", " & Sons", " & Partners", " Brothers", " Bros.", " & Cie")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(SUFFIXES), TYPES, st.sampled_from([
    "I want to buy a coat from {f} for my wife.", "I worked at {f} for years; summarise its history for my blog.",
    "My aunt loves {f}. When did it open?"]))
def test_a_firm_named_after_its_founders_is_kept(surname: str, suffix: str, entity_type: str, template: str):
    text = template.format(f=surname + suffix)
    spans = [(surname, entity_type)] if entity_type != "NRP" else [(surname + suffix, entity_type)]
    _kept(text, spans)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(SURNAMES), TYPES)
def test_two_founders_joined_by_an_ampersand_are_a_firm(first: str, second: str, entity_type: str):
    text = f"I collect old tins from {first} & {second}. {PRIVATE}"
    _kept(text, [(first, entity_type), (second, entity_type)])


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GIVEN), st.sampled_from(SURNAMES), st.sampled_from(SUFFIXES), st.sampled_from([
    "My neighbour {g} {s} wants the ladder back; {p}", "Ask {g} {s} about it. {p}", "Mr {s} called. {p}",
    "{g} & {g2} are coming to dinner. {p}", "I met {g} {s}-Nakamura{x} at the pub. {p}",
    "Ship it to {g} {s}{x}, 14 Larch Row. {p}"]))
def test_a_person_by_a_firms_frame_is_hidden(given_: str, surname: str, suffix: str, template: str):
    second = GIVEN[(GIVEN.index(given_) + 1) % len(GIVEN)]
    text = template.format(g=given_, s=surname, x=suffix if "Brothers" in suffix else "", p=PRIVATE, g2=second)
    if "{g} &" in template:
        spans = [(given_, "PERSON"), (second, "PERSON")]
    elif "Mr {s}" in template:
        spans = [(surname, "PERSON")]
    elif "-Nakamura" in template:
        spans = [(f"{given_} {surname}-Nakamura", "PERSON")]
    else:
        spans = [(f"{given_} {surname}", "PERSON")]
    out = _redact(text, spans)
    assert all(value not in out for value, _ in spans)


# Venues.
@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PLACES), TYPES, st.sampled_from([
    "the {p} Kokugikan", "the Nippon {p} Budōkan", "the Estádio do {p}", "the Palau de la {p}", "the {p} Dōmu",
    "the {p}-Hallenstadion", "the {p} Stadion"]), st.sampled_from([
    "We have tickets for a match at {v}. What should we know?", "My wife and I are going to a concert at {v}.",
    "How do we get to {v} from the station? My son is coming too."]))
def test_a_venue_by_its_shape_is_kept(place: str, entity_type: str, venue: str, template: str):
    name = venue.format(p=place).removeprefix("the ")
    text = template.format(v="the " + name)
    _kept(text, [(name, entity_type)], before_fails=entity_type != "LOCATION")  # else topic_places' where no one is


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(GIVEN), st.sampled_from(("Hall", "Garden", "Arena", "Centre")), st.sampled_from([
    "I met {n} at the concert. {p}", "Tickets? Ask {n}. {p}", "My friend {n} got seats for the match. {p}"]))
def test_a_person_named_like_a_venue_is_hidden(given_: str, head: str, template: str):
    name = f"{given_} {head}"
    text = template.format(n=name, p=PRIVATE)
    assert name not in _redact(text, [(name, "PERSON")])


# Historical routes.
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(["PERSON", "LOCATION"]), st.sampled_from([
    "the {p} Road", "the Road of {p}", "the Trail of {p}", "the {p} Canal", "the Long {p} March", "the {p} Trail"]),
    st.sampled_from(["I'm reading about {r} for my essay. Why did it matter?",
                     "My grandfather told me about {r}; summarise its history."]))
def test_a_historical_route_by_its_shape_is_kept(place: str, entity_type: str, route: str, template: str):
    name = route.format(p=place).removeprefix("the ")
    text = template.format(r="the " + name)
    _kept(text, [(name, entity_type)], before_fails=entity_type == "PERSON" and "Canal" not in name)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PLACES), st.integers(1, 99))
def test_an_address_on_a_road_is_hidden(place: str, number: int):
    for text, value in ((f"I live at {number} {place} Road with my wife.", f"{place} Road"),
                        (f"I live on the {place} Road with my wife.", f"{place} Road"),
                        (f"Our farm is along the {place} Trail, come by.", f"{place} Trail"),
                        (f"I live on the Costa del {place} with my wife.", f"Costa del {place}"),
                        (f"Send it to Road {number} in {place}. {PRIVATE}", place)):
        assert value not in _redact(text, [(value, "LOCATION")])


# Regions with "del", "de la", "of".
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PLACES), TYPES, st.sampled_from([
    "Costa del {p}", "Islas de la {p}", "Ribera del {p}", "Isles of {p}", "Bahía de {p}", "Côte d'{p}"]),
    st.sampled_from(["We're planning a cruise to {r} in January. What should I pack?",
                     "My wife wants to retire to {r}. Is it expensive?"]))
def test_a_region_by_its_shape_is_kept(place: str, entity_type: str, region: str, template: str):
    name = region.format(p=place)
    text = template.format(r=name)
    _kept(text, [(name, entity_type)], before_fails=entity_type != "LOCATION")


def test_a_region_opened_by_a_given_name_is_kept_only_without_private_evidence():
    for name in ("Tierra del Quelvadra", "Isla de la Ostrelia"):
        text = f"What is the weather like in {name} in March?"
        assert _redact(text, [(name, "PERSON")]) == text
        assert name not in _redact(f"{text} {PRIVATE}", [(name, "PERSON")])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(["Isla de la {p}", "Sierra del {p}"]), st.sampled_from([
    "We met {n} at the airport. {p}", "My neighbour {n} wants the keys back. {p}"]))
def test_a_person_named_like_a_region_is_hidden(place: str, name_shape: str, template: str):
    name = name_shape.format(p=place)
    text = template.format(n=name, p=PRIVATE)
    assert name not in _redact(text, [(name, "PERSON")])


def test_strict_keeps_none_of_the_round():
    text = "We're studying the Republic of Quelvadra in class. Tickets for the Quelvadra Kokugikan? " + PRIVATE
    out = _redact(text, [("Republic of Quelvadra", "LOCATION"), ("Quelvadra Kokugikan", "PERSON")], STRICT)
    assert "Quelvadra" not in out and load("venues").name == "venues"


# Words of the sentence NER took into an endonym's span. A first-level division's name ("Adıyaman", a Turkish
# province) is kept by `subdivisions` without this rule too, so the control would not fail: left out.
LATIN_ENDONYMS = [v.title() for v in ENDONYMS if v.isalpha() and not v.isascii() and len(v) >= 5
                  and canonical(v.title()) not in subdivisions._names()][:200]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LATIN_ENDONYMS), st.sampled_from([
    ("Was ist die Hauptstadt von {n}?", "Hauptstadt von {n}"), ("Ist {n} größer als Graz?", "{n} größer"),
    ("Qual è la capitale d'{n}?", "d'{n}"), ("Is Rotterdam groter dan {n}?", "dan {n}")]))
def test_sentence_words_ner_took_into_an_endonyms_span_are_left_out(name: str, frame: tuple[str, str]):
    text, span = frame[0].format(n=name) + " " + PRIVATE, frame[1].format(n=name)
    _kept(text, [(span, "PERSON")])


def test_a_postcode_in_an_endonyms_span_keeps_it_an_address():
    assert "Gdańsk" not in _redact("Ship samples to 80-827 Gdańsk.", [("80-827 Gdańsk", "LOCATION")])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Иванов", "Петров", "Смирнов", "Соколов", "Лебедев", "Бельск"]),
       st.sampled_from(["а", "у", "ой", "ым", "ого"]))
def test_a_russian_surname_is_never_read_as_a_towns_case_ending(stem: str, ending: str):
    name = stem + ending
    assert name not in _redact(f"Передай {name}, что отчёт готов.", [(name, "PERSON")])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(ENDONYMS), st.sampled_from([
    "New starter Vellim Quaxtor (born 12/03/1990) joins the {n} team on Monday.",
    "My colleague Vellim Quaxtor works at our {n} office; call her on 0161 496 0123.",
    "Vellim Quaxtor, date of birth 03/09/1976, moved to {n} last year.",
]))
def test_a_place_read_as_a_person_in_a_sentence_with_a_private_person_is_hidden(name: str, frame: str):
    # NER types a person's workplace or home "PERSON" ("joins the Rotterdam team": a golden case); a LOCATION's
    # ties would hide it there, so the list keeps a PERSON reading only in a sentence with no private evidence.
    text = frame.format(n=name)
    assert name not in _redact(text, [(name, "PERSON"), ("Vellim Quaxtor", "PERSON")])
