"""A contact value ties a public name to a person only within its sentence (`person_ties`, `contacts_in_sentence`):
the questions of a prompt keep their countries and cities when the private person's contact stands in another
sentence, and a contact line still ties its place. Generated family; the production analyzer and default policy."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate_bench.utility_bench import ztgate_redactor

REDACT = ztgate_redactor("default")
PLACES = st.sampled_from(["France", "Japan", "Brazil", "Kenya", "Canada", "Paris", "Tokyo", "Nairobi"])
QUESTIONS = st.sampled_from(["What is the capital of {p}?", "How many people live in {p}?",
                             "What language is spoken in {p}?", "Why is {p} famous?"])
CONTACTS = st.sampled_from(["Write to anna.berg@example.org.", "My phone is +44 20 7946 0958.",
                            "Call me on +1 415 555 0134!", "My e-mail: k.osei@example.net."])
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(place=PLACES, question=QUESTIONS, contact=CONTACTS, first=st.booleans())
def test_a_question_keeps_its_public_place_beside_a_contact_in_another_sentence(place, question, contact, first):
    parts = [question.format(p=place), contact]
    text = " ".join(reversed(parts) if first else parts)
    out = REDACT(text)
    assert place in out, (text, out)
    assert "@example" not in out and "7946" not in out and "555 0134" not in out, (text, out)


@SETTINGS
@given(place=PLACES, value=st.sampled_from(["anna.berg@example.org", "+44 20 7946 0958", "+1 415 555 0134"]))
def test_a_contact_in_the_place_s_own_sentence_still_ties_it(place, value):
    text = f"Anna Berg, {place}, {value}"
    out = REDACT(text)
    assert place not in out and value not in out, (text, out)
