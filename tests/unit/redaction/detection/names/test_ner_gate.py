"""The NER gate: which texts reach spaCy, exact offsets, and no recall lost against NER on whole texts."""

from __future__ import annotations

import random
import re

import pytest
import spacy
from faker import Faker
from hypothesis import given
from hypothesis import strategies as st

from ztgate.redaction.detection.names.ner import (
    DEFAULT_MODEL,
    LABEL_TO_ENTITY,
    GatedSpacyNlpEngine,
    NerEntity,
    NerGate,
    load_ner_pipeline,
)

GATE = NerGate()


@pytest.mark.parametrize("text", [
    "Maria called me yesterday.",  # a name at the start of a sentence
    "Please send the contract to John Smith before Friday.",
    "Can you translate this for my Nigerian colleague?",
    "I moved to the UK last year.",  # a place acronym in cased text
    "hi i'm john and i live in boston, can you help?",  # written without capitals
    "NAME: JOHN SMITH\nCITY: LONDON",  # written in capitals
    "ship it to 12 baker street please",  # a lower-case address
    "Met Seán Ó Briain in Kraków.",
    "McDonald signed it.",
    "anti-French sentiment? Ask Jean-Luc.",
    "The patient, Zoë, was born in Łódź.",
])
def test_gate_sends_texts_that_may_hold_names_places_or_nationalities(text: str) -> None:
    assert GATE.pieces(text)


@pytest.mark.parametrize("text", [
    "The quick brown fox jumps over the lazy dog. It was a sunny day.",
    "def add(a, b):\n    return a + b\n\nprint(add(2, 3))",
    "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Explain the CAP theorem with an example. Keep it short.",
    "How do I call HttpClient from JavaScript and parse the JSON?",
    "SELECT id, name FROM users WHERE created_at > now() - interval '7 days';",
    "Authorization: Bearer sk-AbCdEfGhIjKlMnOp\nAccept: application/json",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----",
    "Traceback (most recent call last):\n  File \"app/main.py\", line 42, in <module>\n    main()",
    "for i in range(10): print(i ** 2)  # squares",
    "Upgrading from 1.2.3 to 2.0.0 broke the build. What changed on Monday?",
    "",
])
def test_gate_skips_texts_without_candidates(text: str) -> None:
    assert GATE.pieces(text) == []


def test_clean_prompt_never_reaches_spacy(ner_engine: GatedSpacyNlpEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_ner(*args: object, **kwargs: object) -> None:
        raise AssertionError("spaCy ran on a clean prompt")

    monkeypatch.setattr(ner_engine.nlp, "pipe", no_ner)
    artifacts = ner_engine.process_text("Refactor this function to use async/await. Keep it short.")
    assert artifacts.entities == []
    assert artifacts._doc is None  # not even tokenised: nothing asked for tokens


def test_pieces_are_disjoint_ordered_and_cover_every_trigger() -> None:
    text = ("x = 1\n" * 200) + "Maria Garcia moved to Madrid." + ("\ny = 2" * 200) + " Ask Paul in Berlin."
    pieces = GATE.pieces(text)
    assert pieces == sorted(pieces)
    assert all(lo < hi <= next_lo for (lo, hi), (next_lo, _) in zip(pieces, pieces[1:]))
    for start, end in GATE.triggers(text):
        assert any(lo <= start and end <= hi for lo, hi in pieces)
    assert sum(hi - lo for lo, hi in pieces) < len(text) / 5


def test_long_windows_are_cut_below_the_piece_limit() -> None:
    gate = NerGate(context_chars=16, merge_gap=8, max_piece_chars=200)
    text = " ".join(["Paris"] * 400)
    pieces = gate.pieces(text)
    assert all(hi - lo <= 200 for lo, hi in pieces)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(text)


def test_gated_offsets_are_exact_in_a_long_mixed_text(ner_engine: GatedSpacyNlpEngine,
                                                      ner_engine_ungated: GatedSpacyNlpEngine) -> None:
    code = "def area(r):\n    return 3.14159 * r * r\n\n" * 30
    text = (code + "Note: she flew from Montréal to Tokyo with two Japanese engineers.\n"
            + code + "Ask Kwame Mensah in Accra.")
    gated = ner_engine.find_entities(text)
    assert gated == ner_engine_ungated.find_entities(text)
    assert {(e.label_, e.text) for e in gated} >= {("LOCATION", "Montréal"), ("LOCATION", "Tokyo"),
                                                   ("NRP", "Japanese"), ("PERSON", "Kwame Mensah")}
    for entity in gated:
        assert text[entity.start_char:entity.end_char] == entity.text


@pytest.mark.parametrize(("text", "label", "value"), [
    ("Ship the parcel to Lisbon, Portugal.", "LOCATION", "Portugal"),  # GPE
    ("We hiked across the Alps last summer.", "LOCATION", "Alps"),  # LOC
    ("Meet me at JFK Airport at noon.", "LOCATION", "JFK Airport"),  # FAC
    ("She is Brazilian and lives abroad.", "NRP", "Brazilian"),  # NORP
    ("Barack Obama spoke in Chicago.", "PERSON", "Barack Obama"),
])
def test_spacy_labels_map_to_presidio_entity_types(ner_engine: GatedSpacyNlpEngine, text: str, label: str,
                                                   value: str) -> None:
    assert NerEntity(label, text.index(value), text.index(value) + len(value), value) in ner_engine.find_entities(text)


def test_organisations_dates_and_numbers_are_not_returned(ner_engine: GatedSpacyNlpEngine) -> None:
    text = "Google paid 3 million dollars on 4 July 2021 to Microsoft."
    assert {e.label_ for e in ner_engine.find_entities(text)} <= set(LABEL_TO_ENTITY.values())
    assert not [e for e in ner_engine.find_entities(text) if e.text in ("Google", "Microsoft", "4 July 2021")]


def test_only_the_ner_component_is_loaded_and_it_finds_what_the_full_pipeline_finds() -> None:
    slim = load_ner_pipeline(DEFAULT_MODEL)
    assert slim.pipe_names == ["ner"]  # en_core_web_sm's ner has its own tok2vec
    full = spacy.load(DEFAULT_MODEL)
    assert "parser" in full.pipe_names and "tagger" in full.pipe_names
    texts = [text for text, _ in _faker_corpus(60, seed=3)]
    for text in texts:
        assert [(e.start_char, e.end_char, e.label_) for e in slim(text).ents] == \
            [(e.start_char, e.end_char, e.label_) for e in full(text).ents]


# -- recall: the gate against NER on whole texts, on Faker-generated prompts ------------------------------------

_NATIONALITIES = ("American", "British", "French", "German", "Italian", "Spanish", "Chinese", "Japanese",
                  "Indian", "Mexican", "Brazilian", "Canadian", "Polish", "Irish", "Nigerian", "Korean",
                  "Muslim", "Catholic", "Jewish", "Republican")
# {P} person, {F} first name, {C} city, {K} country, {A} street address, {N} nationality/religion/party;
# lower-case letters are the same values written in lower case.
_TEMPLATES = (
    "{P} called me yesterday about the invoice.",
    "{F} said hi.",
    "Please send the contract to {P} before Friday.",
    "My neighbour {P} moved to {C} last year.",
    "Ship it to {A}.",
    "Our office is at {A}; ask for {P} at reception.",
    "The {N} delegation met {P} in {C}.",
    "{P} is {N} and works remotely from {K}.",
    "Summarize this: {P} flew from {C} to {K} on Tuesday.",
    "{C} is where {P} grew up.",
    "Dear {P},\nThank you for visiting {C}.\nBest,\n{F}",
    "def greet():\n    return 'hello'\n\n# TODO: ask {P} in {C} about this\nprint(greet())",
    "hi, i'm {f} and i live in {c}, can you help me write a cover letter?",
    "write a poem for {p} who lives in {c}",
    "can you email {p} about the trip to {k}",
    "my name is {p} and i need help with my taxes",
    "NAME: {P!u}\nCITY: {C!u}",
)


def _faker_corpus(n: int, seed: int) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """(text, [(start, end, slot)]) for n prompts, deterministic for a seed."""
    fake = Faker(["en_US", "en_GB", "de_DE", "fr_FR", "es_ES"])
    fake.seed_instance(seed)
    rng = random.Random(seed)
    values = {
        "P": lambda: fake.name(), "F": lambda: fake.first_name(), "C": lambda: fake.city(),
        "K": lambda: fake["en_US"].country(), "A": lambda: fake["en_US"].address().replace("\n", ", "),
        "N": lambda: rng.choice(_NATIONALITIES),
    }
    corpus = []
    for _ in range(n):
        template = rng.choice(_TEMPLATES)
        text, spans, at = "", [], 0
        for slot in re.finditer(r"\{(\w)(!u)?\}", template):
            text += template[at:slot.start()]
            key = slot.group(1)
            value = values[key.upper()]()
            value = value.upper() if slot.group(2) else value.lower() if key.islower() else value
            spans.append((len(text), len(text) + len(value), key))
            text += value
            at = slot.end()
        corpus.append((text + template[at:], spans))
    return corpus


def _found(entities: list[NerEntity], start: int, end: int) -> bool:
    return any(e.start_char < end and start < e.end_char for e in entities)


def test_gate_loses_no_names_places_or_nationalities_that_ner_finds_on_whole_texts(
        ner_engine: GatedSpacyNlpEngine, ner_engine_ungated: GatedSpacyNlpEngine) -> None:
    corpus = _faker_corpus(400, seed=20240)
    values = found_whole = found_gated = differing_texts = 0
    by_slot: dict[str, list[int]] = {}
    for text, spans in corpus:
        whole, gated = ner_engine_ungated.find_entities(text), ner_engine.find_entities(text)
        differing_texts += whole != gated
        for start, end, slot in spans:
            hit_whole, hit_gated = _found(whole, start, end), _found(gated, start, end)
            values += 1
            found_whole += hit_whole
            found_gated += hit_gated
            counts = by_slot.setdefault(slot, [0, 0, 0])
            counts[0] += 1
            counts[1] += hit_whole
            counts[2] += hit_gated
    report = ", ".join(f"{slot}: {w}/{n} whole, {g}/{n} gated" for slot, (n, w, g) in sorted(by_slot.items()))
    print(f"\nNER recall on {values} values: whole texts {found_whole / values:.3f}, gated "
          f"{found_gated / values:.3f}; texts whose entities differ: {differing_texts}/{len(corpus)}\n{report}")
    assert found_gated >= found_whole - 0.005 * values
    assert differing_texts <= 0.01 * len(corpus)
    # Lower-case names are sent to NER too (spaCy finds a good share of them; the gate must not drop them).
    assert by_slot["p"][2] == by_slot["p"][1] > 0


# -- technical lines: NER only where a finding could count --------------------------------------------------

_TECHNICAL_LINES = (
    'commit 9f86d08 Fix {W} parser on empty input', '    mode = "{W}"', '-    region = "{W}"',
    '2026-03-01T10:22:03 [INFO] {W} queue drained in 416ms', 'KeyError: \'{W}\'',
    '  File "/srv/app/{w}/main.py", line 150, in run', 'class {W}Cache:', '    # {W} lookups are cheap',
    "WHERE status = '{W}' AND created_at > now()", '| {W} | 3 | ok |', '  profile: {W}',
)
_WORDS = st.sampled_from(["Florence", "Phoenix", "Hamburg", "Temple", "Buffalo", "Maria", "Jordan", "Victoria",
                          "Independence", "Marathon", "Dallas", "Paris"])


@given(lines=st.lists(st.tuples(st.sampled_from(_TECHNICAL_LINES), _WORDS), min_size=1, max_size=12))
def test_technical_lines_with_nothing_that_could_back_a_name_are_not_sent_to_ner(
        lines: list[tuple[str, str]]) -> None:
    """Whatever NER found there would be weak (TECHNICAL_SCORE) by construction, so the pass is skipped:
    a long log, diff or config costs what its prose costs."""
    text = "\n".join(line.format(W=word, w=word.lower()) for line, word in lines)
    assert GATE.pieces(text) == []


@given(line=st.sampled_from([t for t in _TECHNICAL_LINES if "{W} " in t or "{W}'" in t or "{W}\"" in t]),
       word=_WORDS, evidence=st.sampled_from([
    " # author: Maria Lopez", " # contact maria@example.com", " # owner = Jan", " # she lives in Leeds",
    " # call +44 20 7946 0958"]))
def test_a_technical_line_with_evidence_on_it_still_goes_to_ner(line: str, word: str, evidence: str) -> None:
    text = line.format(W=word, w=word.lower()) + evidence
    assert GATE.pieces(text)


_CJK = st.text(alphabet=st.sampled_from(list("担当はさんですこんにちは您好请联系确认。、：（）電話メール")), min_size=1, max_size=12)


@given(before=_CJK, after=_CJK, name=st.sampled_from(["Nadia van der Nes", "Markku Gilbert", "Darren Bergman",
                                                        "Ana Souza", "Kofi Mensah"]))
def test_a_latin_name_inside_text_of_an_unspaced_script_is_a_trigger(before: str, after: str, name: str) -> None:
    """Han, kana and Thai put no space around a Latin word: their letters and punctuation stand for it."""
    text = before + name + after
    start = len(before)
    assert any(lo <= start < hi for lo, hi in GATE.triggers(text)), text
