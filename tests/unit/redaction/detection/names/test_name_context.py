"""Context, not lists, decides (issue 12): names and places caught by what surrounds them, and clean technical
text - whose capitalised words may be town names - left alone. Through the production Analyzer (every
recognizer), judged at the default policy threshold."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection import text_shape
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names import gazetteer
from ztgate.redaction.detection.wordlists import FIELD_LABELS
from ztgate.redaction.types import NER_ENTITY_TYPES

THRESHOLD = 0.5  # policies/default.yaml's default_threshold


def _names_and_places(analyzer: Analyzer, text: str) -> set[tuple[str, str]]:
    return {(d.entity_type, text[d.start:d.end]) for d in analyzer.analyze(text)
            if d.entity_type in NER_ENTITY_TYPES and d.score >= THRESHOLD}


def _covered(analyzer: Analyzer, text: str, value: str) -> bool:
    """Every character of value (its first occurrence) lies inside a detection at the threshold."""
    start = text.index(value)
    spans = [(d.start, d.end) for d in analyzer.analyze(text) if d.score >= THRESHOLD]
    return all(any(a <= i < b for a, b in spans) for i in range(start, start + len(value)))


# Invented words no list holds: syllables, capitalised.
_SYLLABLES = ["qar", "niv", "ost", "rod", "vel", "bru", "zan", "tek", "mor", "lio", "dra", "pes", "kul", "wen"]
invented = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())


@pytest.mark.parametrize(("text", "value"), [
    ("My aunt lives in Qarnivel now and loves it.", "Qarnivel"),
    ("We moved to Ostrodby last spring.", "Ostrodby"),
    ("The team is based in Velbruzan, near the coast.", "Velbruzan"),
    ("I'm from Tekmorlio, a small place.", "Tekmorlio"),
    ("Thanks,\nQarnivel", "Qarnivel"),
    ("Best regards,\nOstrod Velbru", "Ostrod Velbru"),
    ("Dear Zantek,\nthe invoice is attached.", "Zantek"),
    ("def f():\n    # TODO(qarnivel): remove once the export lands\n    pass", "qarnivel"),
    ("Subject: Contract renewal - Ostrod Velbru\n\nHello,", "Ostrod Velbru"),
    ("From: Ostrod Velbru <ov@example.com>", "Ostrod Velbru"),
    ("    Reviewed-by: Ostrod Velbru", "Ostrod Velbru"),
    ("id,name,town\n1,Ostrod Velbru,Qarnivel\n", "Qarnivel"),
    ("INSERT INTO people (full_name, city) VALUES ('Ostrod Velbru', 'Qarnivel');", "Ostrod Velbru"),
    ("Please ask Will Turner about the lease.", "Will Turner"),
    ("Rose Tyler called about the lease.", "Rose Tyler"),
    ("I met Pieter van der Berg at the fair.", "Pieter van der Berg"),
    ("Send it to Gabriel García Márquez today.", "Gabriel García Márquez"),
    ("The lead is Mary Smith-Jones now.", "Mary Smith-Jones"),
    ("请联系John Smith确认订单。", "John Smith"),
    ("Пожалуйста, свяжитесь с Ostrod Velbru по адресу.", "Ostrod Velbru"),
    ("يرجى التواصل مع Maria Kowalski على الرقم", "Maria Kowalski"),
    ("住所: Lisbon", "Lisbon"),
    ("Wohnort: Qarnivel", "Qarnivel"),
    ("Adress: Storgatan 3, Turin", "Storgatan 3"),
    ("Nombre: Ostrod Velbru\nCiudad: Qarnivel", "Ostrod Velbru"),
    ("Teléfono: 4155550123", "4155550123"),
    ("電話番号：4155550123", "4155550123"),
])
def test_names_and_places_in_their_context_are_caught(redaction_analyzer: Analyzer, text: str, value: str) -> None:
    assert _covered(redaction_analyzer, text, value), text


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(place=invented, cue=st.sampled_from(["lives in", "moved to", "is based in", "grew up in", "was born in"]),
       tail=st.sampled_from([".", " last year.", ", near the river.", " with her kids."]))
def test_an_unlisted_place_after_a_strong_cue_is_caught(redaction_analyzer: Analyzer, place: str, cue: str,
                                                        tail: str) -> None:
    text = f"My cousin {cue} {place}{tail}"
    assert _covered(redaction_analyzer, text, place), text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=st.sampled_from(sorted(FIELD_LABELS)), colon=st.sampled_from([":", ": ", " : ", "："]),
       value=st.sampled_from(["Ostrod Velbru", "+44 20 7946 0958", "Qarnivel", "ov@example.com"]),
       before=st.sampled_from(["", "Ostrod Velbru\n", "Kontakt\n"]))
@example(label="tél", colon=".: ", value="Ostrod Velbru", before="Ostrod Velbru\n")  # spaCy's "Ostrod Velbru\nTél"
@example(label="oggetto", colon=":", value="Ostrod Velbru", before="")  # spaCy's "Oggetto:Ostrod Velbru"
@example(label="cel.", colon=": ", value="Ostrod Velbru", before="")  # spaCy's "Cel" before ".: "
def test_a_field_label_is_never_a_name_or_a_place(redaction_analyzer: Analyzer, label: str, colon: str, value: str,
                                                 before: str) -> None:
    """Labels of contact blocks in any language ("Anschrift:", "Teléfono:", "電話:") that NER took for names."""
    text = f"{before}{label.capitalize()}{colon}{value}\n"
    start = len(before)
    hit = [d for d in redaction_analyzer.analyze(text) if d.entity_type in NER_ENTITY_TYPES and d.score >= THRESHOLD
           and d.start < start + len(label) and d.end > start]
    assert hit == [], (text, [(d.entity_type, text[d.start:d.end]) for d in hit])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(given_name=invented, surname=invented, label=invented, dot=st.sampled_from(["", "."]),
       colon=st.sampled_from([":", ": ", " : ", "："]), value=st.sampled_from(["+44 20 7946 0958", "Qarnivel", "x"]))
def test_a_name_span_never_crosses_a_line_break_into_a_labelled_line(
        redaction_analyzer: Analyzer, given_name: str, surname: str, label: str, dot: str, colon: str,
        value: str) -> None:
    """Whatever the label's word (on no list), no NER finding runs from a name over the line break into it."""
    text = f"{given_name} {surname}\n{label}{dot}{colon}{value}\n"
    brk = text.index("\n")
    crossing = [d for d in redaction_analyzer.analyze(text) if d.entity_type in NER_ENTITY_TYPES
                and d.start < brk < d.end]
    assert crossing == [], (text, [(d.entity_type, text[d.start:d.end]) for d in crossing])


def _towns() -> list[str]:
    """Single-word towns of the gazetteer that are also capitalised words of technical text."""
    gaz = gazetteer.load()
    return sorted(n for n in gaz.places if n.isalpha() and n.isascii() and 4 <= len(n) <= 9
                  and n[0].isupper() and n[1:].islower())[:4000]


_TOWNS = st.sampled_from(_towns())
_SHA = st.text(alphabet="0123456789abcdef", min_size=7, max_size=7)


@st.composite
def technical_text(draw: st.DrawFn) -> str:
    """Clean technical text whose capitalised words are town names: git logs and status, diffs, stack
    traces, code, SQL, YAML, tables, logs."""
    w, v = draw(_TOWNS), draw(_TOWNS)
    shape = draw(st.integers(0, 8))
    if shape == 0:
        return "".join(f"{draw(_SHA)} {m}\n" for m in (f"Fix {w} parser on empty input", f"Bump {v} to 2.1",
                                                         f"{w}: retry on timeout", f"Merge branch '{v.lower()}'"))
    if shape == 1:
        return (f"diff --git a/app.py b/app.py\n@@ -1,3 +1,3 @@\n-    mode = \"{w}\"\n+    mode = \"{v}\"\n"
                f"     # {v} mode batches writes\n")
    if shape == 2:
        return (f"Traceback (most recent call last):\n  File \"/srv/{w.lower()}/main.py\", line 3, in run\n"
                f"    {w}Loader().load()\nKeyError: '{v}'\n")
    if shape == 3:
        return f"class {w}Cache:\n    # {w} lookups are cheap; see {v} for the slow path\n    pass\n"
    if shape == 4:
        return f"SELECT id FROM orders WHERE status = '{w}' ORDER BY id;\n-- {v} rows come from the nightly job\n"
    if shape == 5:
        return f"service:\n  name: {w.lower()}-api\n  profile: {w}\n  fallback: {v}\n"
    if shape == 6:
        return f"| job | status |\n|---|---|\n| {w} | passed |\n| {v} | failed |\n"
    if shape == 7:
        return f"2025-10-02T12:39:04Z INFO [{w}Worker] {v} queue drained in 12ms\n"
    return f"On branch {w.lower()}\nChanges not staged for commit:\n  modified:   docs/{v}.md\n"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=technical_text())
def test_clean_technical_text_comes_back_unchanged(redaction_analyzer: Analyzer, text: str) -> None:
    assert _names_and_places(redaction_analyzer, text) == set(), text


@pytest.mark.parametrize(("text", "technical"), [
    ("ccd268a Bump Nice to 2.0", True),
    ("-    mode = \"Bath\"", True),
    ("  File \"/srv/app.py\", line 3, in run", True),
    ("2025-10-02T12:39:04Z WARN [X] Sparta queue", True),
    ("| Bath | passed | 69s |", True),
    ("SELECT id FROM t;", True),
    ("She lives in Haderup now.", False),
    ("[10:02] <lee> Rose Tyler is on call", False),
    ("Subject: Contract renewal - Beyler Manole", False),
    ("Dear Rose,", False),
    ("use std::vector<Row> rows;", True),
    ("Ticket: Rose Tyler's printer at 2001:db8:85a3::8a2e:370:7334 drops jobs, office in Bath.", False),
    ("route traffic via fe80::1 until Rose is back", False),
])
def test_technical_lines_are_told_from_prose(text: str, technical: bool) -> None:
    assert text_shape.technical_line(text, len(text) // 2) is technical


@given(address=st.ip_addresses(v=6), name=st.sampled_from(["Rose Tyler", "Ostrod Velbru"]),
       before=st.sampled_from(["the printer at ", "route via ", "ping "]),
       after=st.sampled_from([" drops jobs, says ", " until ", ", ask "]))
def test_an_ipv6_address_in_a_sentence_leaves_it_prose(address, name: str, before: str, after: str) -> None:
    """Any IPv6 address (compressed "::" included) is a value in prose, not a C++ or Rust path."""
    text = f"Ticket: {before}{address.compressed}{after}{name} today."
    assert not text_shape.technical_line(text, text.index(name))


@given(left=st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
       right=st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True))
def test_a_path_with_a_letter_past_hex_stays_code(left: str, right: str) -> None:
    if not any(c in "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ_" for c in left + right):
        return  # all hex on both sides: an address's shape, not this test's
    text = f"call {left}::{right} here"
    assert text_shape.technical_line(text, 2)


def test_evidence_on_a_technical_line() -> None:
    line = "1,Victor Turner,Cardiff,646-61-1181"
    assert text_shape.has_evidence(line, 2, 15, "PERSON")  # an SSN on the same line
    assert text_shape.has_evidence("author: Rose Tyler", 8, 18, "PERSON")  # a field label
    assert not text_shape.has_evidence("ccd268a Bump Nice to 2.0", 13, 17, "LOCATION")


def test_handles_that_are_tickets_are_not_names(redaction_analyzer: Analyzer) -> None:
    text = "# TODO(PROJ-123): drop this\n# FIXME(docker): pin it"
    assert _names_and_places(redaction_analyzer, text) == set()


def test_whole_name_grows_over_surnames_but_not_across_a_line() -> None:
    assert text_shape.whole_name("Maria Lopez\nAndersen", 0, 11) == (0, 11)
    text = "Ask Jan van der Berg now"
    assert text[slice(*text_shape.whole_name(text, 4, 7))] == "Jan van der Berg"
