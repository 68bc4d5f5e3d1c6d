"""NER's PERSON/LOCATION/NRP spans: technical words and code dropped, names and places kept, run-ons cut."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.ner import plausible_span
from ztgate.redaction.detection.wordlists import WRITTEN_SENTENCE_STARTS, words

# (text, span as NER gave it, what must be kept: the span itself, a part of it, or None)
CASES = [
    # names and places are kept whole
    ("Alma Mühle lives here", "Alma Mühle", "Alma Mühle"),
    ("She flew to Karachi.", "Karachi", "Karachi"),
    ("a trip to the UK", "UK", "UK"),
    ("moving to NYC soon", "NYC", "NYC"),
    ("a holiday on the Isle of Man", "Isle of Man", "Isle of Man"),
    ("talks in The Hague", "The Hague", "The Hague"),
    ("Seán O'Brien called", "Seán O'Brien", "Seán O'Brien"),
    # written without case: lower-case and short all-caps spans are names there
    ("hi i'm john from boston and i need help", "john", "john"),
    ("NAME: JOHN SMITH, CITY: ROME", "ROME", "ROME"),
    # a name run into what follows it is cut
    ("row: Maurice Bowman;PL91656043478371332842524165;EUR", "Maurice Bowman;PL91656043478371332842524165",
     "Maurice Bowman"),
    ("Ana Lima (born 1980) wrote", "Ana Lima (born", "Ana Lima"),
    # technical words, products, code and identifiers are dropped
    ("Run it in Docker first", "Docker", None),
    ("set TOKEN before the call", "TOKEN", None),
    ("then git commit the change", "git commit", None),
    ("a java.lang exception", "java.lang", None),
    ("call uuid4 for ids", "uuid4", None),
    ("commit 3f786850e387550fdab836ed7e6dc881de23001b broke it", "3f786850e387550fdab836ed7e6dc881de23001b", None),
    ("the date_of_birth column", "date_of_birth", None),
    ("upgrade node to 20", "node", None),
    ("CI is red again", "CI", None),
    ("the value is NaN here", "NaN", None),
    ("a React component", "React", None),
    ("Bonus: add tests", "Bonus", None),
    ("the Google Maps API key", "Maps API", None),
    ("run git config user.email", "git config user.email", None),
    ("mail admin@example.com now", "admin@example.com", None),
    ("open /etc/hosts first", "/etc/hosts", None),
]


@pytest.mark.parametrize(("text", "span", "kept"), CASES, ids=[c[1] for c in CASES])
def test_plausible_span_keeps_names_and_drops_technical_words(text: str, span: str, kept: str | None) -> None:
    start = text.index(span)
    result = plausible_span(text, start, start + len(span))
    if kept is None:
        assert result is None
    else:
        assert result is not None and text[result[0]:result[1]] == kept



@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(WRITTEN_SENTENCE_STARTS)), st.sampled_from(["", "1. ", "Hi. ", "Q: "]))
def test_a_hand_written_sentence_start_alone_at_a_sentence_start_is_no_name(word: str, lead: str) -> None:
    # spaCy reads a request opening a sentence as a PERSON beside a name ("Summarise what Skanderbeg did").
    text = f"{lead}{word.capitalize()} what Skanderbeg did for Albania."
    start = len(lead)
    assert plausible_span(text, start, start + len(word)) is None
    name = text.index("Skanderbeg")
    assert plausible_span(text, name, name + len("Skanderbeg")) == (name, name + len("Skanderbeg"))


@pytest.mark.parametrize("text", ["Skanderbeg did what for Albania?", "Vorquist explained the theory."])
def test_a_name_opening_a_sentence_is_still_one(text: str) -> None:
    end = text.index(" ")
    assert plausible_span(text, 0, end) == (0, end)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(w for w in words("person_key_words") | words("person_role_fields") if w.isalpha())),
       st.sampled_from(["# {k}: Platform Team <platform@example.org>\n", "{k}: Ana Lima\n", "-- {k}: infra\n"]))
def test_a_key_about_a_person_before_its_colon_is_no_name(key: str, frame: str) -> None:
    """spaCy read the key word opening a comment as a person ("# Maintainer: Packaging Team <...>")."""
    word = key.capitalize()
    text = frame.format(k=word)
    start = text.index(word)
    assert plausible_span(text, start, start + len(word)) is None, text
