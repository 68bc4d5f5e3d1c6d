"""Issue #29, ADR 0044, both sides, as generated families: a figure in a ruler's, an instrument's or a lone "Who
was" frame (``topic_figures``, accented full names in ``encyclopedic_persons``), a named site or garden by its
head in ten languages (``named_sites``), a firm named after a person in a firm's frame (``eponymous_firms``); and
the private side: a private person in the same frames, beside private evidence, after a relation or as the owner
of a family firm (``OwnedFirmRecognizer``), still hidden. Detections are built by hand on the spans spaCy gives
such names (no spaCy: what is under test is the policy). The invented names are in no corpus file."""

from __future__ import annotations

from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.code_identifiers import given_name
from ztgate.redaction.detection.names.context import CONTEXT_RULES
from ztgate.redaction.detection.names.context.owned_firms import OwnedFirmRecognizer
from ztgate.redaction.detection.public import PUBLIC_LISTS, load
from ztgate.redaction.detection.public._data import PUBLIC_DATA_DIR
from ztgate.redaction.policies import AllowList, PolicyStore
from tests.unit.redaction.detection.public.test_features_dishes_cases import _redact, kept_by_round  # the same spans' helpers

STORE = PolicyStore.load()
DEFAULT, STRICT = STORE.get("default"), STORE.get("strict")
NEW = ("topic_figures", "named_sites", "eponymous_firms")
BEFORE = DEFAULT.model_copy(update={"allow": AllowList(values=DEFAULT.allow.values, patterns=DEFAULT.allow.patterns,
                                                         public=tuple(n for n in DEFAULT.allow.public if n not in NEW))})
_kept = partial(kept_by_round, before=BEFORE)


def _new(text: str, value: str, entity_type: str) -> bool:
    """Whether the round's lists alone keep the span: no older list or frame holds it (``knowledge_requests``
    keeps a name asked about in a text with no private person, ``topic_places`` a place in a sentence naming no
    one, ``foreign_questions`` a thing asked about in another language)."""
    start = text.index(value)
    return not any(load(n).holds_at(text, start, start + len(value), entity_type) for n in BEFORE.allow.public)


TYPES = st.sampled_from(["PERSON", "LOCATION", "NRP"])

# Invented one-word figures (no known given name) and invented given names.
FIGURES = ("Vashtaroka", "Kelmurandis", "Ozymantor", "Tiruvenkash", "Hadrabalos", "Quenthelrix")
GIVEN = ("Tomasz", "Anna", "Cyrus", "Laura")
RULER_FRAMES = ("What happened during the reign of {n}?", "How far did the empire of {n} reach?",
                "Describe the conquests of {n}.", "Who ruled after the dynasty of {n} fell?",
                "What did {n}'s edicts say?", "How far did {n}'s conquests reach?", "When did {n}'s reign end?")
INSTRUMENT_FRAMES = ("What was {n}'s pendulum meant to show?", "How accurate was {n}'s marine chronometer?",
                     "What did {n}'s expedition find?", "Why did {n}'s Antarctic expedition fail?",
                     "Who was {n}?", "Who was {n}, and why does it matter?")
# Private evidence about the name, and a relation or a title before it.
EVIDENCE = (" She is my neighbour and her number is 07700 900 318.", " Email him at k.lorr@example.org, he owes me.")
PRIVATE_FRAMES = ("My neighbour {n}'s telescope is broken, can you fix it?", "Mr {n}'s expedition leaves Monday.",
                  "My uncle {n}'s reign as club treasurer ended badly.", "Ask {n} about the pendulum clock.",
                  "During the reign of my boss {n} nothing worked.", "Who was {n}? My neighbour, she says.")


def test_the_lists_are_the_default_policys_own_and_ship_with_source_and_licence():
    for name in NEW:
        assert name in PUBLIC_LISTS and name in DEFAULT.allow.public and name not in STRICT.allow.public
    notices = (PUBLIC_DATA_DIR.parents[3] / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    readme = (PUBLIC_DATA_DIR / "README.md").read_text(encoding="utf-8")
    head = (PUBLIC_DATA_DIR / "site_heads.txt").read_text(encoding="utf-8")[:1500]
    assert "Source:" in head and "Licence:" in head and "site_heads.txt" in notices
    assert all(f"`{name}`" in readme for name in NEW) and OwnedFirmRecognizer in CONTEXT_RULES
    assert not any(given_name(n) for n in FIGURES + SURNAMES) and all(given_name(n) for n in GIVEN)
    # Statements, and questions beside another sentence's private person: no older list keeps these.
    for text, value in (("The Brannagh workshop made jewelled eggs for the tsars.", "Brannagh"),
                        ("The Quelvadra Formation yields dinosaur bones.", "Quelvadra Formation"),
                        ("What was Vashtaroka's pendulum meant to show?", "Vashtaroka"),
                        ("How far did the empire of Vashtaroka reach? My landlord keeps asking.", "Vashtaroka")):
        assert _new(text, value, "PERSON")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FIGURES), st.sampled_from(INSTRUMENT_FRAMES), TYPES)
def test_a_figure_in_an_instruments_or_a_lone_who_was_frame_is_kept(name: str, frame: str, entity_type: str):
    # "expedition" is one of ``knowledge_requests``' words: kept before in a text with no private person
    text = frame.format(n=name)
    _kept(text, [(name, entity_type)], before_fails=_new(text, name, entity_type))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FIGURES + GIVEN), st.sampled_from(RULER_FRAMES), TYPES,
       st.sampled_from((" My landlord keeps asking.", " My daughter has a quiz on it tomorrow.")))
def test_a_name_in_a_rulers_frame_is_kept_beside_another_sentences_private_person(name: str, frame: str,
                                                                                  entity_type: str, other: str):
    _kept(frame.format(n=name) + other, [(name, entity_type)], before_fails=entity_type != "LOCATION")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(FIGURES + GIVEN), st.sampled_from(INSTRUMENT_FRAMES), st.sampled_from(EVIDENCE))
def test_a_name_in_the_same_frames_beside_private_evidence_is_hidden(name: str, frame: str, evidence: str):
    text = frame.format(n=name) + evidence
    assert name not in _redact(text, [(name, "PERSON")])


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(FIGURES + GIVEN), st.sampled_from(PRIVATE_FRAMES), st.sampled_from(["PERSON", "NRP"]))
def test_a_private_person_after_a_relation_or_a_title_is_hidden(name: str, frame: str, entity_type: str):
    assert name not in _redact(frame.format(n=name), [(name, entity_type)])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GIVEN), st.sampled_from(INSTRUMENT_FRAMES[-2:]))
def test_who_was_a_given_name_is_hidden_where_the_text_names_a_private_person(name: str, frame: str):
    text = frame.format(n=name) + " My sister wants to know."
    assert name not in _redact(text, [(name, "PERSON")])


# Accented and hyphenated given names: a full name in the encyclopedic frames.
ACCENTED = ("Ödvin Szerelmeyi", "Évariste-Honoré Quillebœuf", "Łucjan Wężykowski", "Émeric du Montfaucq",
            "Ágota Kerényházi", "Jean-Sévère d'Aubrac")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ACCENTED), st.sampled_from(("Who was {n}?", "What did {n} discover?",
                                                     "What did {n} translate in 1745?", "Tell me about {n}.")))
def test_an_accented_or_hyphenated_full_name_is_a_full_name(name: str, frame: str):
    text = frame.format(n=name)
    assert _redact(text, [(name, "PERSON")]) == text
    assert name not in _redact(text + " His number is 06 71 84 29 53.", [(name, "PERSON")])


# Named sites and gardens by their heads.
PLACES = ("Quelvadra", "Ostrelia", "Brumaleth", "Zarquenta", "Tarnowiec")
SITE_FRAMES = ("Which fossils were dug up in the {p} Formation?", "Why is the {p} Shale famous?",
               "What is the {p} Pit known for?", "What trees grow in the {p} Arboretum?",
               "When was the {p} Botanical Garden founded?", "Quando foi inaugurado o Jardim Botânico de {p}?",
               "¿Dónde está el Jardín Botánico de {p}?", "¿Qué pinturas hay en la Cueva de {p}?",
               "Di provinsi mana Kepulauan {p} berada?", "Was wurde in der {p}höhle gefunden?",
               "In welchem Bundesland liegt die {p}-Höhle?", "Que trouve-t-on dans la grotte de {p} ?",
               "The {p} Formation yields dinosaur bones.", "Die {p}höhle ist eine Tropfsteinhöhle.",
               "O Jardim Botânico de {p} tem uma estufa de vidro.")


def _site(frame: str, place: str) -> str:
    """The span spaCy gives the site: its name with the head, without "the"."""
    text = frame.format(p=place)
    for head in ("Formation", "Shale", "Pit", "Arboretum", "Botanical Garden", "höhle", "-Höhle"):
        if f"{place}{head}" in text or f"{place} {head}" in text:
            return f"{place}{head}" if f"{place}{head}" in text else f"{place} {head}"
    for start in ("la grotte de", "Jardim Botânico de", "Jardín Botánico de", "Cueva de", "Kepulauan"):
        if start in text:
            return f"{start} {place}"
    raise AssertionError(frame)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(SITE_FRAMES), st.sampled_from(["PERSON", "LOCATION"]))
def test_a_named_site_or_garden_is_kept_by_its_head(place: str, frame: str, entity_type: str):
    text = frame.format(p=place)
    site = _site(frame, place)
    _kept(text, [(site, entity_type)], before_fails=_new(text, site, entity_type))


SURNAMES = ("Brannagh", "Pettigrove", "Wrzesniakow", "Quastelmann")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(("Shale", "Pit", "Cave", "Formation")),
       st.sampled_from(("My colleague Jordan {n} {h} is off today.", "Ask Marta {n} {h} about the invoice.",
                        "Mr {n} {h} called twice.", "{n} {h} says the meeting moved.")))
def test_a_person_whose_name_ends_in_a_sites_head_is_hidden(surname: str, head: str, template: str):
    text = template.format(n=surname, h=head)
    value = text[text.index(surname) - (7 if "Jordan" in text else 6 if "Marta" in text else 0):
                 text.index(head) + len(head)]
    assert surname not in _redact(text, [(value.strip(), "PERSON")])


# Firms named after a person.
FIRM_FRAMES = ("What did the {n} workshop make for the tsars?", "Why is {n} pottery famous?",
               "What style are {n} glass vases?", "When was the {n} porcelain factory founded?",
               "Miről híres a {n}-cég?", "Mikor alapították a {n}-gyárat?", "Wann wurde die Firma {n} gegründet?",
               "Quand la maison {n} a-t-elle été fondée ?", "Quando fu fondata la manifattura {n}?",
               "Who designed for the House of {n}?", "The {n} workshop made jewelled eggs for the tsars.",
               "Die Firma {n} stellt seit 1880 Teddybären her.", "A {n}-gyár Pécsett működött.")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(FIRM_FRAMES), TYPES)
def test_a_firm_named_after_a_person_is_kept_in_a_firms_frame(name: str, frame: str, entity_type: str):
    text = frame.format(n=name)
    _kept(text, [(name, entity_type)], before_fails=_new(text, name, entity_type))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from((
    "My uncle's company {n} pottery went bankrupt.", "My neighbour {n}'s workshop is noisy.",
    "Ask {n} about the glass order.", "Mr {n} porcelain collection is for sale.",
    "Why is the Tom {n} workshop closed?", "What did the {n} workshop make? Its owner is my cousin, 07700 900 771.",
    "The {n} family runs our corner shop.", "A {n}-család Pécsen él.")))
def test_a_private_persons_firm_or_name_in_the_same_frames_is_hidden(name: str, frame: str):
    assert name not in _redact(frame.format(n=name), [(name, "PERSON")])


OWNED = ("My uncle's company {n} & Sons went bankrupt.", "His firm, {n} Brothers, sells tiles.",
         "Mein Onkel hat eine Firma, {n} & Söhne, in Giengen.", "Mon voisin a son entreprise {n} Frères à Lyon.",
         "Our family business {n} & Co. is for sale.", "Sarah's company {n} and Daughters opened in May.")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(OWNED))
def test_the_surname_of_someones_family_firm_is_a_person(name: str, frame: str):
    text = frame.format(n=name)
    found = [text[a:b] for a, b, _ in OwnedFirmRecognizer().find(text)]
    assert found == [name]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SURNAMES), st.sampled_from(("Why is {n} & Sons famous?", "The company {n} Brothers was sold.",
                                                   "When was {n} & Co. founded?")))
def test_a_firm_that_is_no_ones_in_the_text_is_not_a_person(name: str, frame: str):
    assert OwnedFirmRecognizer().find(frame.format(n=name)) == []
