"""Private values of the classes still reaching the model on the seen held-out sets (issue #29, ADR 0040): health
details as noun phrases and adjectives of the person, chat handles with no cue word, Greek street addresses, and
national identifiers with a check digit the catalogue lacked (their families are the catalogue's,
test_national_id_catalogue.py).

Generated families, both sides, drawn apart from utility-tune-16.jsonl (invented syllable names, sampled frames,
languages and heads): each found (recognizer or pattern level) and not reaching the model (production analyzer,
default policy); the look-alikes (a disease or an aid as a topic or a public person's, a decorator, a dotted code
path, a street as a topic) not found, and kept.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import _WORD, _found, _out
from ztgate.redaction.detection.names.context.health_phrases import HealthPhraseRecognizer
from ztgate.redaction.detection.patterns.scanner import PatternScanner

FAST = settings(max_examples=30, deadline=None)
E2E = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
SCAN = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_NAME = st.tuples(_WORD, _WORD).map(lambda t: f"{t[0].capitalize()} {t[1].capitalize()}-{t[1][::-1].capitalize()}")

# --- health details as a noun phrase of the person -------------------------------------------------------------
HEADS = {"en": ["hip operation", "knee surgery", "stroke", "early-onset dementia", "wheelchair", "heart attack",
                "kidney transplant", "meningitis", "hearing aid"],
         "de": ["Schlaganfall", "Herzinfarkt", "Rollstuhl", "Hüft-OP"], "fr": ["AVC", "fauteuil roulant", "opération"],
         "es": ["operación de cadera", "marcapasos", "ictus"], "it": ["intervento", "demenza", "ictus"],
         "nl": ["herseninfarct", "rolstoel", "beroerte"]}
OWN = {"en": ["Since my {h}, {n} drives me to work.", "I'll bring my {h}; {n} can book.",
              "My aunt {n} called; her {h} was last spring.", "We visited {n} after our {h}."],
       "de": ["Seit meinem {h} hilft mir {n}.", "Mein Vater {n} kommt; sein {h} war im Mai."],
       "fr": ["Depuis mon {h}, {n} m'aide.", "Ma mère {n} vient ; son {h} date de mai."],
       "es": ["Desde mi {h}, {n} me ayuda.", "Mi madre {n} viene; su {h} fue en mayo."],
       "it": ["Dopo il mio {h}, {n} mi aiuta.", "Mia nonna {n} viene; il suo {h} è recente."],
       "nl": ["Sinds mijn {h} helpt {n} mij.", "Mijn oom {n} komt; zijn {h} was in mei."]}
LANG = st.sampled_from(sorted(HEADS))


@st.composite
def owned_health(draw: st.DrawFn) -> tuple[str, str]:
    lang = draw(LANG)
    head = draw(st.sampled_from(HEADS[lang]))
    return draw(st.sampled_from(OWN[lang])).format(h=head, n=draw(_NAME)), head


@FAST
@given(case=owned_health())
@example(case=("Seit meinem Hüft-OP hilft mir Anna Berg-Greb.", "Hüft-OP"))  # a head joined by a hyphen
def test_a_possessed_health_phrase_is_found(case: tuple[str, str]) -> None:
    text, head = case
    assert any(head in value for value in _found(HealthPhraseRecognizer(), text)), text


ADJECTIVES = ["partially deaf in one ear", "type 1 diabetic", "coeliac", "allergic to penicillin", "epileptic",
              "deaf"]
ADJ_FRAMES = ["Guests: {n} ({a}), and me.", "My partner {n}: {a} since age 9.", "My son {n}, {a}, starts school.",
              "My grandfather {n} is profoundly {a}.", "Ma fille {n}, {a}, vient."]


@FAST
@given(n=_NAME, a=st.sampled_from(ADJECTIVES), frame=st.sampled_from(ADJ_FRAMES))
def test_a_condition_adjective_of_a_named_person_is_found(n: str, a: str, frame: str) -> None:
    text = frame.format(n=n, a=a)
    if "profoundly" in frame and not a.startswith("deaf"):
        text = text.replace("profoundly ", "")
    found = _found(HealthPhraseRecognizer(), text)
    assert any(a.split()[-1] in value for value in found), text


TOPICS = ["How did Stephen Hawking control his wheelchair?", "What are the early warning signs of a stroke?",
          "Why is Franklin D. Roosevelt's wheelchair rarely seen in photographs?",
          "My condition for signing is a raise.", "Is my replacement card on its way?", "Which museums are wheelchair "
          "accessible?", "Who has Lyme disease more often, children or adults?", "Did Beethoven go deaf?",
          "Wie erkennt man einen Schlaganfall?", "¿Qué es un ictus?", "Was Van Gogh's illness epilepsy?",
          "How long does recovery from a hip operation take?", "Hoe herken je een beroerte?"]


@pytest.mark.parametrize("text", TOPICS)
def test_a_health_topic_or_a_public_persons_aid_is_not_found(text: str) -> None:
    assert _found(HealthPhraseRecognizer(), text) == [], text


@E2E
@given(case=owned_health())
def test_a_possessed_health_phrase_does_not_reach_the_model(redaction_analyzer, case: tuple[str, str]) -> None:
    text, head = case
    assert head not in _out(redaction_analyzer, text), text


@pytest.mark.parametrize("text", TOPICS[:6])
def test_a_health_topic_is_kept(redaction_analyzer, text: str) -> None:
    assert _out(redaction_analyzer, text) == text


# --- handles with no cue word, Greek streets -------------------------------------------------------------------
@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _values(scanner: PatternScanner, text: str, rule: str) -> list[str]:
    return [text[d.start:d.end] for d in scanner.scan(text) if d.recognizer == rule]


_HANDLE = st.one_of(st.tuples(_WORD, st.integers(1, 99)).map(lambda t: f"{t[0]}{t[1]}"),
                    st.tuples(_WORD, _WORD).map(lambda t: f"{t[0]}_{t[1]}"),
                    st.tuples(_WORD, _WORD).map(lambda t: f"{t[0].capitalize()}.{t[1].capitalize()}"))
MENTIONS = ["Settling a bet with @{h}: who won?", "Asking for a friend who goes by @{h} on Slack.",
            "thanks @{h} for the tip!", "Wette mit @{h}: wer hat recht?", "Merci à @{h} pour le lien."]


@SCAN
@given(h=_HANDLE, frame=st.sampled_from(MENTIONS))
def test_a_mentioned_handle_is_found(scanner: PatternScanner, h: str, frame: str) -> None:
    text = frame.format(h=h)
    assert _values(scanner, text, "handle_mentioned") == [f"@{h}"], text


@SCAN
@given(h=_HANDLE.filter(lambda h: "." not in h), how=st.sampled_from(["sig", "from"]),
       dash=st.sampled_from(["—", "–", "--", "~"]), label=st.sampled_from(["From", "Von", "Από", "De"]))
def test_a_signed_or_sending_handle_is_found(scanner: PatternScanner, h: str, how: str, dash: str, label: str) -> None:
    if how == "sig":
        text, rule = f"Is the Danube longer than the Rhine?\nThanks!\n{dash} {h}", "handle_signature"
    else:
        text, rule = f"{label}: {h}\nTo: me\n\nIs the Danube longer?", "handle_message_sender"
    assert _values(scanner, text, rule) == [h], text


CODE = ["What does the @property decorator do, and @staticmethod?", "How does @lru_cache work in Python?",
        "Use @pytest.mark.parametrize here.", "Flask uses @app.route('/') for it.", "the @login_required decorator",
        "Bump @types/node to 20.", "Email me at nobody@example.org today.", "- item_one\n- item_two",
        "From: the 1990s to now", "— 2024", "The @Override annotation in Java."]


@pytest.mark.parametrize("text", CODE)
def test_decorators_paths_and_lists_are_no_handles(scanner: PatternScanner, text: str) -> None:
    found = [d for d in scanner.scan(text) if d.recognizer in {"handle_mentioned", "handle_signature",
                                                                 "handle_message_sender"}]
    assert found == [], text


_GREEK = st.sampled_from(["Σκουφά", "Νίκης", "Αγίου Δημητρίου", "Ερμού", "Πατησίων", "Τσιμισκή", "Κηφισίας"])
_KIND = st.sampled_from(["Οδός", "Οδ.", "Λεωφόρος", "Λεωφ.", "Πλατεία"])


@SCAN
@given(kind=_KIND, street=_GREEK, number=st.integers(1, 350), code=st.integers(10000, 85999))
def test_a_greek_street_and_postcode_is_found(scanner: PatternScanner, kind: str, street: str, number: int,
                                              code: int) -> None:
    pc = f"{str(code)[:3]} {str(code)[3:]}"
    text = f"Στείλτε το στη διεύθυνση {kind} {street} {number}, {pc} Αθήνα."
    assert _values(scanner, text, "street_address_greek") == [f"{kind} {street} {number}, {pc}"], text


@pytest.mark.parametrize("text", ["Η οδός Ερμού είναι εμπορικός δρόμος.", "Πότε χτίστηκε ο Παρθενώνας;",
                                  "Η Λεωφόρος Κηφισίας είναι μεγάλη."])
def test_a_greek_street_as_a_topic_is_not_found(scanner: PatternScanner, text: str) -> None:
    assert _values(scanner, text, "street_address_greek") == [], text
