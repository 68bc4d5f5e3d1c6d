"""Code identifiers are not persons (issue #29): a one-word NER span in code context (inline code, code
punctuation, CamelCase, a sentence about a programming language) is dropped; persons named in the same frames
stay persons. Generated families for the rule, then the production analyzer and default policy."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.code_identifiers import _given_names, code_identifier
from ztgate.redaction.policies import PolicyStore

_SYLLABLES = ["ka", "ro", "mi", "ta", "ne", "chi", "du", "se", "yo", "ri", "ba", "ko", "lu", "wen", "zha", "mar"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())
_CAMEL = st.builds(lambda a, b: a + b, _WORD, _WORD)
_LANG = st.sampled_from(["Rust", "Python", "Kotlin", "TypeScript", "Haskell", "Swift"])
_STD = st.sampled_from(["Box", "Rc", "Arc", "Vec", "Cell", "Mutex", "Option", "Deque"])
_GIVEN = st.sampled_from(sorted(n.capitalize() for n in _given_names() if n.isalpha() and n.isascii())[:5000])

CODE_FRAMES = ["Why does `{x}` not implement Send?", "let v = {x}::new(3);", "fn f(a: Vec<{x}>) {{}}",
               "In {lang}, when should I use {x} and {y}?", "Is {x} slower than {y} in {lang}?",
               "What does {x} do in this {lang} closure?"]


def _check(frame: str, x: str, y: str, lang: str, target: str) -> bool:
    text = frame.format(x=x, y=y, lang=lang)
    start = text.index(target)
    return code_identifier(text, start, start + len(target))


@settings(max_examples=80, deadline=None)
@given(frame=st.sampled_from(CODE_FRAMES), x=st.one_of(_CAMEL, _STD), y=_STD, lang=_LANG)
def test_a_type_or_identifier_in_code_context_is_not_a_name(frame: str, x: str, y: str, lang: str) -> None:
    assume(x.casefold() not in _given_names() and x != y)
    assert _check(frame, x, y, lang, x), frame.format(x=x, y=y, lang=lang)


@settings(max_examples=60, deadline=None)
@given(x=_CAMEL)
def test_camel_case_is_an_identifier_even_in_prose(x: str) -> None:
    assume(x.casefold() not in _given_names())
    assert _check("Why is {x} so slow?", x, "", "", x)


@settings(max_examples=80, deadline=None)
@given(first=_WORD, surname=_WORD, lang=_LANG, y=_STD,
       frame=st.sampled_from(["In {lang}, when should I use {x} and {y}?", "Is {x} slower than {y} in {lang}?"]))
def test_a_persons_full_name_in_a_code_question_is_still_a_name(first: str, surname: str, lang: str, y: str,
                                                               frame: str) -> None:
    assert not _check(frame, f"{first} {surname}", y, lang, f"{first} {surname}")


@settings(max_examples=80, deadline=None)
@given(given_name=_GIVEN, lang=_LANG, y=_STD,
       frame=st.sampled_from(["In {lang}, when should I use {x} and {y}?", "Is {x} slower than {y} in {lang}?"]))
def test_a_known_given_name_in_a_code_question_is_still_a_name(given_name: str, lang: str, y: str,
                                                              frame: str) -> None:
    assert not _check(frame, given_name, y, lang, given_name)


@settings(max_examples=80, deadline=None)
@given(surname=_WORD, lang=_LANG, frame=st.sampled_from([
    "In {lang}, ask Dr. {x} about the macro.", "Dear {x}, the {lang} build broke.",
    "In {lang}, {x} wrote the parser.", "Thanks {x}, the {lang} iterator works now."]))
def test_a_lone_surname_a_person_cue_backs_is_still_a_name(surname: str, lang: str, frame: str) -> None:
    assert not _check(frame, surname, "", lang, surname)


POLICY = PolicyStore.load().get("default")


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


def test_the_rust_question_reaches_the_model_whole(redaction_analyzer: Analyzer) -> None:
    for text in ["In Rust, when should I use Box and Rc?", "How do `HashMap` and `BTreeMap` differ in Rust?"]:
        assert _redacted(redaction_analyzer, text) == text


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=_WORD, surname=_WORD, lang=_LANG)
def test_a_person_in_a_code_question_is_hidden_through_the_analyzer(redaction_analyzer: Analyzer, first: str,
                                                                    surname: str, lang: str) -> None:
    text = f"In {lang}, should I use Box or Rc? Ask Dr. {first} {surname} before merging."
    assert surname not in _redacted(redaction_analyzer, text)


DATA_FRAMES = ["How do I read a CSV with {x}?", "Which library, {x} or {y}, is faster for a CSV?",
               "Install {x} and import it to load the DataFrame.", "Can {x} write Parquet files from a notebook?"]


@settings(max_examples=60, deadline=None)
@given(frame=st.sampled_from(DATA_FRAMES), x=_WORD, y=_WORD)
def test_a_lone_word_in_a_sentence_about_data_code_is_a_library(frame: str, x: str, y: str) -> None:
    # Issue #29: "read a CSV with Polars"; a word spelt like a given name is no library by these words alone.
    assume(x.casefold() not in _given_names() and x != y and x not in y and y not in x)
    assert _check(frame, x, y, "Python", x), frame.format(x=x, y=y)


@settings(max_examples=60, deadline=None)
@given(frame=st.sampled_from(DATA_FRAMES), x=_GIVEN, y=_WORD)
def test_a_given_name_or_a_cued_person_in_data_code_stays_a_person(frame: str, x: str, y: str) -> None:
    assume(x not in y and y not in x)
    assert not _check(frame, x, y, "Python", x), frame.format(x=x, y=y)
    cued = frame.replace("{x}", "Dr. {x}").format(x=y, y=x)  # a title right before a made-up word
    start = cued.index(y)
    assert not code_identifier(cued, start, start + len(y)), cued
