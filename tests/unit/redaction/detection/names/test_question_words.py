"""Issue #29 (ADR 0041): an interrogative of another language opening a question is no name, over languages,
frames and names; the same word before an English verb, or inside a sentence, still is."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.ner import plausible_span

OPENERS = ("Kim był", "Kim była", "Quem foi", "Quando foi", "¿Quién fue", "¿Qué descubrió", "Chi era", "Wer war",
           "Wann wurde", "Wie hoch ist", "Ist", "Qui était", "Wie was", "Kdo byl", "Jak wysokie są", "Co napisał")
NAMES = ("Bolesław Skrzetuszewicz", "Ottone Brancalupi", "Wendelin Ruckteschell", "Armandine Quélennec")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(OPENERS), st.sampled_from(NAMES), st.booleans())
def test_an_interrogative_opening_a_question_is_cut_from_the_name(opener: str, name: str, whole: bool):
    text = f"{opener} {name}?"
    start = text.index(opener.lstrip("¿"))
    if whole:  # NER read the opener and the name as one span: the name is left
        assert plausible_span(text, start, text.index("?")) == (text.index(name), text.index("?"))
    else:  # NER read the opener alone
        first = opener.lstrip("¿").split()[0]
        assert plausible_span(text, start, start + len(first)) is None


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(("Kim", "Chi", "Jak")), st.sampled_from(("called me", "said no", "was late", "wrote back")))
def test_the_same_word_before_an_english_verb_is_a_name(word: str, rest: str):
    text = f"{word} {rest} about the invoice."
    assert plausible_span(text, 0, len(word)) == (0, len(word))
    inner = f"Yesterday {word} {rest}."
    assert plausible_span(inner, 10, 10 + len(word)) == (10, 10 + len(word))
