"""Private values in Latin script of three classes still reaching the model (issue #29, ADR 0047): a person's town
read from a verb or a noun of their life, a private person's name NER or the cue rules miss (a relative's first
name in apposition or after a child's rank, a Turkish relation's suffix, a given name before a double-barrelled
surname, a name in a clause of its own beside a question), and a health detail as a noun phrase with no
"diagnosed with" cue.

Generated families, both sides, drawn apart from utility-tune-22.jsonl (invented syllable towns and names, sampled
frames, languages, body parts and heads): each found (rule level) and not reaching the model (production analyzer,
default policy); the look-alikes (a town as a trip or a topic, a taste's apposition, a place with a hyphen, a
health question as a topic, a roof's resurfacing) not found, and kept.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import _TOWN, _WORD, _found, _out
from ztgate.redaction.detection.names.context.barrelled_names import BarrelledNameRecognizer
from ztgate.redaction.detection.names.context.cued_places import CuedPlaceRecognizer
from ztgate.redaction.detection.names.context.health_details import HealthDetailRecognizer
from ztgate.redaction.detection.names.context.health_phrases import HealthPhraseRecognizer
from ztgate.redaction.detection.names.context.kin_appositions import KinAppositionRecognizer
from ztgate.redaction.detection.names.context.kin_names import KinNameRecognizer
from ztgate.redaction.detection.names.context.person_towns import PersonTownRecognizer
from ztgate.redaction.detection.names.context.relation_first_names import RelationFirstNameRecognizer

FAST = settings(max_examples=30, deadline=None)
E2E = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
_FIRST = _WORD.map(str.capitalize)

# --- a town from a verb or a noun of the person's life ----------------------------------------------------------
LIFE_EN = ["Our street in {t} floods every winter.", "My flat in {t} has no signal.",
           "I'm clearing out my grandmother's house in {t}.", "Their cottage just outside {t} is for sale.",
           "We farm just outside {t}, so which cover crop?", "I commute from {t} every morning.",
           "I grew up near {t}.", "I'm back home in {t} for the summer.", "Home for me is {t}.",
           "The ferry leaves from {t}, where I grew up.", "We drove to {t}, where my parents live.",
           "Our house sits near {t}.", "My uncle's farm on the outskirts of {t} has sheep."]
LIFE_OTHER = ["Unser Hof liegt bei {t}.", "Meine Wohnung in {t} ist klein.", "Sto a casa dei miei a {t} per Natale.",
              "La mia casa a {t} è vecchia.", "Mi casa en {t} es pequeña.", "Ma maison à {t} est ancienne.",
              "Nossa casa em {t} é antiga.", "Ons huis in {t} is oud.", "Jeg er flyttet hjem til {t} igen.",
              "Vores hus i {t} er gammelt.", "Sono cresciuta a {t}."]


@FAST
@given(t=_TOWN, frame=st.sampled_from(LIFE_EN))
def test_a_town_of_the_writers_life_is_found(t: str, frame: str) -> None:
    text = frame.format(t=t)
    assert t in _found(CuedPlaceRecognizer(), text), text


@FAST
@given(t=_TOWN, frame=st.sampled_from(LIFE_OTHER))
def test_a_home_town_in_another_language_is_found(t: str, frame: str) -> None:
    text = frame.format(t=t)
    assert t in _found(PersonTownRecognizer(), text), text


TRIPS = ["Our hotel in {t} was lovely.", "Which ferries leave from {t}?", "Is {t} worth a day trip?",
         "The road to {t} is closed.", "Our conference in {t} starts Monday.", "How far is {t} from the coast?",
         "The house in {t} where the treaty was signed is a museum."]


@FAST
@given(t=_TOWN, frame=st.sampled_from(TRIPS))
def test_a_town_as_a_trip_or_a_topic_is_not_found(t: str, frame: str) -> None:
    text = frame.format(t=t)
    assert _found(CuedPlaceRecognizer(), text) == [] and _found(PersonTownRecognizer(), text) == [], text


@FAST
@given(when=st.sampled_from(["Christmas", "Easter", "June", "Monday", "Ramadan", "Natale", "Weihnachten", "Jul"]),
       frame=st.sampled_from(["I went home at {w}.", "My garden in {w} is lovely.", "Our street at {w} is busy.",
                              "Sto a casa dei miei a {w}.", "I'm back home in {w} again.", "Vores hus i {w} er koldt."]))
def test_a_time_after_a_lifes_preposition_is_no_town(when: str, frame: str) -> None:
    text = frame.format(w=when)
    assert _found(CuedPlaceRecognizer(), text) == [] and _found(PersonTownRecognizer(), text) == [], text


@E2E
@given(t=_TOWN, frame=st.sampled_from(LIFE_EN + LIFE_OTHER))
def test_a_town_of_the_writers_life_does_not_reach_the_model(redaction_analyzer, t: str, frame: str) -> None:
    text = frame.format(t=t) + " How tall is Mount Kilimanjaro?"
    out = _out(redaction_analyzer, text)
    assert t not in out and "Mount Kilimanjaro" in out, out


# Public towns of real places (on the cities list) in a life frame, and the same towns as topics.
PUBLIC_TOWNS = ["Bergen", "Niterói", "Padua", "Porto", "Lyon"]


@pytest.mark.parametrize("town", PUBLIC_TOWNS)
def test_a_listed_town_of_the_writers_life_is_hidden_and_as_a_topic_kept(redaction_analyzer, town: str) -> None:
    assert town not in _out(redaction_analyzer, f"I commute from {town} every day. Who wrote Hamlet?")
    topic = f"Which ferries or trains leave from {town}?"
    assert _out(redaction_analyzer, topic) == topic


# --- names NER or the cue rules miss ----------------------------------------------------------------------------
RELATIONS = ["daughter", "son", "little one", "brother-in-law", "neighbour", "eldest", "godson", "colleague"]


@FAST
@given(n=_FIRST, rel=st.sampled_from(RELATIONS), tail=st.sampled_from([", wants to know", ", asked me", ": who"]))
def test_a_first_name_in_apposition_to_a_relation_is_found(n: str, rel: str, tail: str) -> None:
    text = f"{n}, my {rel}{tail} who built the pyramids."
    assert n in _found(KinAppositionRecognizer(), text), text


@FAST
@given(n=_FIRST, rank=st.sampled_from(["youngest", "eldest", "oldest", "little one", "firstborn"]),
       who=st.sampled_from(["My", "Our"]))
def test_a_first_name_after_a_childs_rank_is_found(n: str, rank: str, who: str) -> None:
    text = f"{who} {rank}, {n}, keeps asking how far away the Moon is."
    assert n in _found(RelationFirstNameRecognizer(), text), text


@FAST
@given(n=_FIRST, rel=st.sampled_from(["Oğlum", "Kızım", "Annem", "Kardeşim", "Torunumuz", "Arkadaşım", "Eşim"]))
def test_a_turkish_relation_with_its_suffix_names_the_next_word(n: str, rel: str) -> None:
    text = f"{rel} {n} soruyor: why is the sky blue?"
    assert n in _found(KinNameRecognizer(), text), text


GIVEN = ["Elspeth", "Fenwick", "Ottoline", "Wilhelmina", "Benedikt", "Peregrin", "Ilse", "Tolunay"]
_BARRELLED = st.tuples(st.sampled_from(GIVEN), _FIRST, _FIRST).map(lambda t: f"{t[0]} {t[1]}-{t[2]}")


@FAST
@given(name=_BARRELLED, frame=st.sampled_from(["Quick one from {n}: what is X?", "cc {n}", "Ask {n} about it."]))
def test_a_given_name_before_a_double_barrelled_surname_is_a_person(name: str, frame: str) -> None:
    assert name in _found(BarrelledNameRecognizer(), frame.format(n=name))


@pytest.mark.parametrize("text", ["Bach, my favourite composer, wrote how many cantatas?",
                                  "Paris, my favourite city, is lovely.", "Where is Baden-Württemberg?",
                                  "Is Stoke-on-Trent near Manchester?", "The Rhine-Main area is busy.",
                                  "Kim Jong-un spoke."])
def test_a_taste_or_a_hyphenated_place_is_no_relatives_name(text: str) -> None:
    assert _found(KinAppositionRecognizer(), text) == [] and _found(BarrelledNameRecognizer(), text) == []


ASIDES = ["{n} and I disagree: who painted The Starry Night?", "Please pass this to {n}: who painted The Starry Night?",
          "Quick one from {n}: who painted The Starry Night?",
          "{n}, my cousin, wants to know who painted The Starry Night."]


@E2E
@given(name=_BARRELLED, frame=st.sampled_from(ASIDES))
def test_a_name_beside_a_question_does_not_reach_and_the_question_is_kept(redaction_analyzer, name: str,
                                                                         frame: str) -> None:
    out = _out(redaction_analyzer, frame.format(n=name))
    assert name.split()[1] not in out and "The Starry Night" in out, out


@pytest.mark.parametrize("text", ["Who was Olivia Newton-John?", "What did Daniel Day-Lewis win Oscars for?",
                                  "Who painted The Starry Night?"])
def test_a_public_figure_of_that_shape_is_kept(redaction_analyzer, text: str) -> None:
    assert _out(redaction_analyzer, text) == text


# --- health details as a noun phrase with no diagnosis cue -------------------------------------------------------
BODY = ["hip", "knee", "macular", "kidney", "hearing", "shoulder", "spinal", "ACL"]
HEADS = ["degeneration", "resurfacing", "reconstruction", "replacement", "impairment", "failure", "loss"]
SUBJECTS = ["My son has", "I had", "Our daughter has", "My dad had", "My wife has had"]


@FAST
@given(b=st.sampled_from(BODY), h=st.sampled_from(HEADS), s=st.sampled_from(SUBJECTS))
def test_a_body_part_and_a_generic_head_of_a_person_is_found(b: str, h: str, s: str) -> None:
    text = f"{s} {b} {h} last year. Can I ski in the Alps?"
    assert any(f"{b} {h}" in v for v in _found(HealthDetailRecognizer(), text)), text
    possessed = f"I'm six weeks after my {b} {h} and bored."
    assert any(f"{b} {h}" in v for v in _found(HealthPhraseRecognizer(), possessed)), possessed


SUFFIXED = ["exercise-induced bronchospasm", "hemifacial spasm", "spastic diplegia", "muscular dystrophy",
            "cashew allergy", "peripheral neuropathy"]
IMPAIRED = ["hearing impaired", "visually impaired", "partially sighted", "hard of hearing", "registered blind"]


@FAST
@given(c=st.sampled_from(SUFFIXED), s=st.sampled_from(SUBJECTS + ["My mother lives with", "I live with"]))
def test_a_condition_by_its_ending_or_lived_with_is_found(c: str, s: str) -> None:
    text = f"{s} {c}. Is swimming good exercise?"
    assert c in _found(HealthDetailRecognizer(), text), text


@FAST
@given(a=st.sampled_from(IMPAIRED), b=st.sampled_from(IMPAIRED),
       who=st.sampled_from(["I'm", "My mother is", "Our son is", "My husband was"]))
def test_an_impairment_and_the_next_item_are_found(a: str, b: str, who: str) -> None:
    text = f"{who} {a} and {b}; does the museum offer tours?"
    found = _found(HealthDetailRecognizer(), text)
    assert a in found and b in found, text


@FAST
@given(aid=st.sampled_from(["a wheelchair user", "on dialysis", "diabetic"]), c=st.sampled_from(SUFFIXED))
def test_a_condition_listed_after_a_detail_is_found(aid: str, c: str) -> None:
    text = f"My brother is {aid}, {c}. Which museums have step-free access?"
    assert c in _found(HealthDetailRecognizer(), text), text


@FAST
@given(drug=st.sampled_from(["salbutamol", "beclometasone", "budesonide", "formoterol"]),
       frame=st.sampled_from(["I always carry a {d} inhaler.", "My son carries {d} everywhere.",
                              "Mio figlio usa un inalatore di {d}.", "She needs {d} before sport."]))
def test_a_carried_medication_is_found(drug: str, frame: str) -> None:
    text = frame.format(d=drug)
    assert drug in _found(HealthDetailRecognizer(), text), text


HEALTH_TOPICS = ["What causes macular degeneration?", "Can people with hip resurfacing ski?",
                 "How do you live with multiple sclerosis?", "Is exercise-induced bronchospasm the same as asthma?",
                 "Our roof had resurfacing last year; what is a good sealant?", "What is a salbutamol inhaler used for?",
                 "How common is cerebral palsy?", "Does the British Museum offer tours for visitors who are hearing "
                 "impaired?", "What is the recovery time after a knee replacement?"]


@pytest.mark.parametrize("text", HEALTH_TOPICS)
def test_a_health_topic_is_not_found_and_kept(redaction_analyzer, text: str) -> None:
    assert _found(HealthDetailRecognizer(), text) == [] and _found(HealthPhraseRecognizer(), text) == [], text
    assert _out(redaction_analyzer, text) == text


@E2E
@given(b=st.sampled_from(BODY), h=st.sampled_from(HEADS), c=st.sampled_from(SUFFIXED + IMPAIRED))
def test_a_health_noun_phrase_does_not_reach_the_model(redaction_analyzer, b: str, h: str, c: str) -> None:
    text = f"My dad had {b} {h} and is {c}. Which museums in Paris have step-free access?"
    out = _out(redaction_analyzer, text)
    assert f"{b} {h}" not in out and "Paris" in out, out
