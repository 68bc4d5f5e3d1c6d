"""Private values that reached the model on utility-holdout-8 (issue #29, seen), as classes: health details tied to
a private person, licence plates after a cue or in a vehicle sentence, references after labels in other languages
and after a phrase saying where the number is held (ADR 0027).

Generated families, both sides, drawn apart from utility-tune-9.jsonl (this file's syllables, conditions, drugs,
plates and labels): each class in several wordings -> found (recognizer level) and not reaching the model (the
production analyzer, the default policy); the everyday look-alikes (a public medical question, a generic subject,
a model, part, error or flight number, a thing's number in another language) -> not found, and their words kept.
"""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import E2E, FAST, _WORD, _found, _out
from ztgate.redaction.detection.names.context.health_details import HealthDetailRecognizer
from ztgate.redaction.detection.names.context.licence_plates import LicencePlateRecognizer
from ztgate.redaction.detection.names.context.person_identifiers import PersonIdentifierLabelRecognizer

# The generated families' shared parts (the policy, the settings, invented stems, the two probes) are the seventh
# round's, so both files draw alike.
_STEM = _WORD


# --- health details tied to a person --------------------------------------------------------------------------
CONDITIONS = st.one_of(
    _STEM.map(lambda s: s + "itis"), _STEM.map(lambda s: s + "osis"),
    _STEM.map(lambda s: s.capitalize() + "'s disease"), _STEM.map(lambda s: s.capitalize() + " syndrome"),
    st.integers(1, 3).map(lambda n: f"type {n} diabetes"), st.sampled_from(["asthma", "epilepsy", "psoriasis"]))
DRUGS = st.one_of(_STEM.map(lambda s: s + "statin"), _STEM.map(lambda s: s + "pril"), _STEM.map(lambda s: s + "olol"))
DOSES = st.tuples(st.sampled_from([5, 10, 20, 40, 75, 250]), st.sampled_from(["mg", "mcg"])).map(
    lambda t: f"{t[0]} {t[1]}")
SUBJECTS = ["My mother", "Our son", "My husband Dorvel", "Her brother", "He", "She", "I", "Quenra Vaskelmoor",
            "The patient", "My patient Ilvo Brask", "Mein Vater", "Mi hija"]
CONDITION_FRAMES = ["{s} was diagnosed with {c} last year, so how do I explain it?",
                    "Why is the sky blue? {s} has been diagnosed with {c}.",
                    "{s} suffers from {c} and asked about salt.", "{s} tested positive for {c} in May."]
HAS_FRAMES = ["{s} has {c}; what should we cook?", "Tell me about Rome. {s} has {c} and walks slowly."]
ALLERGY_FRAMES = ["{s} is allergic to {a}, so plan a menu.", "Plan a menu: {s} has an allergy to {a}."]
MEDICATION_FRAMES = ["{s} takes {d} {m} every evening.", "{s} is on {m} {d} daily; is grapefruit safe?",
                     "Meds for the trip: {s} was prescribed {m} last week."]
RECORD_FRAMES = ["Patient: Quenra Vaskelmoor\nDiagnosis: {c}\n\nWhat is a normal pulse?",
                 "Name: Ilvo Brask\nMedication: {m} {d}\nAllergies: {a}\n\nHow do tides work?"]


@FAST
@given(s=st.sampled_from(SUBJECTS[:10]), c=CONDITIONS, frame=st.sampled_from(CONDITION_FRAMES))
def test_a_condition_after_a_health_verb_about_a_person_is_found(s, c, frame):
    text = frame.format(s=s, c=c)
    assert c in _found(HealthDetailRecognizer(), text), text


@FAST
@given(s=st.sampled_from(SUBJECTS[:10]), c=CONDITIONS, frame=st.sampled_from(HAS_FRAMES))
def test_a_condition_a_person_has_is_found(s, c, frame):
    text = frame.format(s=s, c=c)
    assert c in _found(HealthDetailRecognizer(), text), text


@FAST
@given(s=st.sampled_from(SUBJECTS[:10]), a=_STEM, m=DRUGS, d=DOSES,
       frame=st.sampled_from(ALLERGY_FRAMES + MEDICATION_FRAMES))
def test_an_allergy_or_a_medication_of_a_person_is_found(s, a, m, d, frame):
    text = frame.format(s=s, a=a, m=m, d=d)
    found = _found(HealthDetailRecognizer(), text)
    expected = a if "{a}" in frame else m
    assert any(expected in f for f in found), (text, found)


@FAST
@given(c=CONDITIONS, a=_STEM, m=DRUGS, d=DOSES, frame=st.sampled_from(RECORD_FRAMES))
def test_a_health_field_of_a_persons_record_is_found(c, a, m, d, frame):
    text = frame.format(c=c, a=a, m=m, d=d)
    found = _found(HealthDetailRecognizer(), text)
    for value in ([c] if "{c}" in frame else [f"{m} {d}", a]):
        assert value in found, (text, found)


@E2E
@given(s=st.sampled_from(SUBJECTS), c=CONDITIONS, m=DRUGS, d=DOSES,
       frame=st.sampled_from(CONDITION_FRAMES + MEDICATION_FRAMES))
def test_a_persons_health_detail_does_not_reach_the_model(redaction_analyzer, s, c, m, d, frame):
    text = frame.format(s=s, c=c, m=m, d=d)
    value = c if "{c}" in frame else m
    assert value not in _out(redaction_analyzer, text), text


PUBLIC_MEDICAL = ["What are the symptoms of {c}?", "How does {m} work, and is {d} a usual dose?",
                  "Why is {a} allergy so often over-diagnosed?", "Can you be allergic to {a} and to cats?",
                  "Which foods should people with {c} avoid?", "How is a patient diagnosed with {c}?",
                  "If someone is allergic to {a}, what happens?", "Can I take {m} {d} with food?",
                  "Patients who take {d} {m} should avoid what?", "People who are diagnosed with {c} often ask why.",
                  "Is it possible to be allergic to {a}?", "Doctors prescribe {m} for what?",
                  "My question is about {c}: is it inherited?", "My textbook says patients on {m} {d} bruise easily.",
                  "Did Quenra Vaskelmoor suffer from {c}, as the biography says?", "Why was Vaskelmoor diagnosed with {c}?"]


@FAST
@given(c=CONDITIONS, a=_STEM, m=DRUGS, d=DOSES, frame=st.sampled_from(PUBLIC_MEDICAL))
def test_a_public_medical_question_is_no_health_detail(c, a, m, d, frame):
    text = frame.format(c=c, a=a, m=m, d=d)
    assert _found(HealthDetailRecognizer(), text) == [], text


@E2E
@given(c=CONDITIONS, a=_STEM, m=DRUGS, d=DOSES, frame=st.sampled_from(PUBLIC_MEDICAL))
def test_a_public_medical_question_keeps_its_terms(redaction_analyzer, c, a, m, d, frame):
    text = frame.format(c=c, a=a, m=m, d=d)
    out = _out(redaction_analyzer, text)
    # The lower-case terms: a capitalised eponym ("Vortamek's disease") is NER's and the public lists' to judge.
    assert "HEALTH_DETAIL" not in out and all(v in out for v in (c, a, m, d) if v in text and v.islower()), (
        text, out)


@FAST
@given(s=st.sampled_from(SUBJECTS[:8]), stem=_STEM)
def test_having_a_thing_that_is_no_condition_is_nothing(s, stem):
    for text in (f"{s} has a {stem} for sale.", f"{s} has a question about the {stem} test.",
                 f"{s} has a failure in CI.", f"{s} takes the {stem} bus every day.", f"{s} uses 500 g flour."):
        assert _found(HealthDetailRecognizer(), text) == [], text


# --- licence plates ------------------------------------------------------------------------------------------
_L = st.sampled_from("ABCDEFGHJKLMNPRSTVWXYZ")
_C = st.sampled_from("BCDFGHJKLMNPRSTVWXYZ")  # Spain's plates have no vowels
PLATES = st.one_of(
    st.tuples(_L, _L, st.integers(100, 999), _L, _L).map(lambda t: f"{t[0]}{t[1]}-{t[2]}-{t[3]}{t[4]}"),
    st.tuples(_L, _L, st.integers(10, 99), _L, _L, _L).map(lambda t: f"{t[0]}{t[1]}{t[2]} {t[3]}{t[4]}{t[5]}"),
    st.tuples(_L, _L, _L, st.integers(10, 9999)).map(lambda t: f"{t[0]}-{t[1]}{t[2]} {t[3]}"),
    st.tuples(st.integers(1000, 9999), _C, _C, _C).map(lambda t: f"{t[0]} {t[1]}{t[2]}{t[3]}").filter(
        lambda p: not p.startswith(("19", "20"))),
)
PLATE_CUES = ["plate", "number plate", "registration", "registered as", "Kennzeichen", "matrícula", "targa",
              "immatriculation", "reg. no.", "kenteken", "车牌"]
PLATE_FRAMES = ["Where can I renew the tax? My car ({cue} {p}) is due.", "Mi coche, {cue}: {p}, está aparcado.",
                "The dealer has my details, {cue} {p}.", "{cue} {p} - how do I change the owner?"]
VEHICLE_FRAMES = ["Our van {p} was towed from the square last night.", "My car, a red hatchback, {p}, is parked outside.",
                  "Who do I call? The rental car {p} got a scratch."]


@FAST
@given(cue=st.sampled_from(PLATE_CUES), p=PLATES, frame=st.sampled_from(PLATE_FRAMES))
def test_a_plate_after_its_cue_is_found(cue, p, frame):
    text = frame.format(cue=cue, p=p)
    assert p in _found(LicencePlateRecognizer(), text), text


@FAST
@given(p=PLATES.filter(lambda p: "-" in p[:4] or p[2:4].isdigit() or " " in p[:5]), frame=st.sampled_from(VEHICLE_FRAMES))
def test_a_plate_of_a_national_layout_in_a_vehicle_sentence_is_found(p, frame):
    text = frame.format(p=p)
    assert p in _found(LicencePlateRecognizer(), text), text


@E2E
@given(cue=st.sampled_from(PLATE_CUES), p=PLATES, frame=st.sampled_from(PLATE_FRAMES))
def test_a_plate_does_not_reach_the_model(redaction_analyzer, cue, p, frame):
    text = frame.format(cue=cue, p=p)
    assert p not in _out(redaction_analyzer, text), text


MODEL_LOOKALIKES = ["What is the towing capacity of the Volvo XC{n} B5?", "Compare the BMW M{n}i and the Audi S4.",
                    "What does the error code P0{n} mean on my car?", "Is flight LH {n} usually on time?",
                    "The part number on the old filter is XS7J-{n}-AA; which oil does my car need?",
                    "I drive a 2019 BMW X5 and a Peugeot {n} GT.", "Put the hot plate {n}W on the counter.",
                    "Which plate {n} of the atlas shows the Alps?", "My car's engine code is EA{n}; is it reliable?"]


@FAST
@given(n=st.integers(100, 9999), frame=st.sampled_from(MODEL_LOOKALIKES))
def test_a_model_part_error_or_flight_number_is_no_plate(n, frame):
    text = frame.format(n=n)
    assert _found(LicencePlateRecognizer(), text) == [], text


# --- references after labels in other languages, and where the number is held --------------------------------
FOREIGN_LABELS = ["Prenotazione n.", "Abbonamento n.", "Permiso N.º", "Expediente N.º", "Tessera numero",
                  "Aktenzeichen:", "Mitgliedsnummer", "Buchungsnummer:", "N° de dossier", "numéro d'adhérent",
                  "número de afiliado", "our ref:", "Vorgangsnummer"]
HELD_AT = ["Member no. at the {w} club:", "Membership number with the {w} society:", "Case ref with my lawyer:",
           "Claim ref with my insurer:", "Member ID at the {w} gym:", "Kundennummer beim {w}:"]
CODES = st.one_of(
    st.tuples(st.sampled_from(["QX", "LM", "BRK"]), st.integers(1000, 999999)).map(lambda t: f"{t[0]}-{t[1]}"),
    st.tuples(st.integers(2019, 2026), st.sampled_from(["ZA", "KM"]), st.integers(100, 9999)).map(
        lambda t: f"{t[0]}/{t[1]}-{t[2]}"),
    st.integers(10**5, 10**9).map(str),
).filter(lambda v: len(set(v.replace(" ", ""))) > 2)
REF_FRAMES = ["{label} {code}\nWhat does a barometer measure?", "How do tides work? {label} {code}, thanks.",
              "Why is the sea salty? ({label} {code})"]


@FAST
@given(label=st.one_of(st.sampled_from(FOREIGN_LABELS), st.tuples(st.sampled_from(HELD_AT), _STEM).map(
    lambda t: t[0].format(w=t[1]))), code=CODES, frame=st.sampled_from(REF_FRAMES))
def test_a_reference_after_a_foreign_label_or_a_held_at_phrase_is_found(label, code, frame):
    text = frame.format(label=label, code=code)
    assert code in _found(PersonIdentifierLabelRecognizer(), text), text
    # and on the analyzer's NFKC view, where "N.º" reads "N.o" (normalise.py)
    assert code in _found(PersonIdentifierLabelRecognizer(), unicodedata.normalize("NFKC", text)), text


@E2E
@given(label=st.sampled_from(FOREIGN_LABELS + [h.format(w="rowing") for h in HELD_AT]), code=CODES,
       frame=st.sampled_from(REF_FRAMES))
def test_a_reference_after_a_foreign_label_does_not_reach_the_model(redaction_analyzer, label, code, frame):
    text = frame.format(label=label, code=code)
    assert code not in _out(redaction_analyzer, text), text


THING_LABELS = ["Pedido n.º", "Fattura n.", "Commande n°", "Rechnungsnummer", "Bestellung Nr.", "Ordine numero",
                "Order no. at the warehouse:", "Ticket no.", "Volo n.", "Billete n.º", "Artikel Nr.", "Version"]


@FAST
@given(label=st.sampled_from(THING_LABELS), code=CODES, frame=st.sampled_from(REF_FRAMES))
def test_a_things_number_in_another_language_is_no_persons_reference(label, code, frame):
    text = frame.format(label=label, code=code)
    assert _found(PersonIdentifierLabelRecognizer(), text) == [], text
