"""The normalised view detection reads (issue #12): disguised values are caught at their original span.

Values of the known families, disguised by any combination of full-width forms, decimal digits of other
scripts, invisible characters,
other space characters, percent-encoding and base64 (tests/disguises.py), must be found where they lie
in the original text, by the pattern tier as streams and answers use it (`RedactionService.scan`),
by the Analyzer (both tiers, what Redact runs in its workers) and by a RedactStream however the text
is chunked; clean text in any script comes back byte-identical. The service here is the real one
with its analysis pool replaced by a stand-in (`NoPool`, a test double: streams never use the pool).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.normalise import View, detect_on_view, view_of
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.policies import PolicyStore
from ztgate.redaction.service import RedactionService
from ztgate.redaction.types import PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES, Detection
from ztgate.redaction.vault import Vault
from tests.disguises import INVISIBLES, OTHER_DIGITS, SPACES, Disguised, chunked, disguised

TEST_POLICIES = Path(__file__).parents[1] / "data" / "policies"
PROPERTY = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


class NoPool:
    """Stands in for the analysis pool (a test double): the stream paths under test never call it."""

    size = 2
    timeout_s = 10.0
    supported_entities = PATTERN_PII_ENTITY_TYPES | SECRET_ENTITY_TYPES

    async def analyze(self, text: str, entities: Iterable[str] | None = None, **_: object) -> list[Detection]:
        raise AssertionError("streams do not use the analysis pool")


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


@pytest.fixture(scope="module")
def service(scanner: PatternScanner) -> RedactionService:
    return RedactionService(policies=PolicyStore.load(TEST_POLICIES), pool=NoPool(), scanner=scanner,
                            vault=Vault(), max_text_bytes=1 << 20,
                            operators=Operators(hash_key="test-hash-key-0123456", encrypt_key="0123456789abcdef"))


def _caught(detections: Iterable[Detection], value: Disguised) -> bool:
    """A detection of the value's type on exactly its span (in base64: covering the characters of its bytes)."""
    start, end = value.span
    if "base64" in value.how:
        return any(d.entity_type == value.entity and d.start <= start and d.end >= end for d in detections)
    return any(d.entity_type == value.entity and (d.start, d.end) == (start, end) for d in detections)


# --- the view and its map ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seen"), [
    ("１２３-４５-６７８９", "123-45-6789"),
    ("AKIA\u200bIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("4111\u00ad1111\u00ad1111\u00ad1111", "4111111111111111"),
    ("DE89\u00a03704\u202f0440\u30000532", "DE89 3704 0440 0532"),
    ("mailto:jane%40example.com", "mailto:jane@example.com"),
    ("\ufb01le \u2460", "file 1"),                     # ligature, circled digit
    ("cafe\u0301", "café"),                            # a starter and its combining mark compose
    ("x\u2066\u202eab\u202c\u2069y", "xaby"),          # bidi controls
    ("%E2%80%8Bk%EF%BC%91", "k1"),                     # escapes of invisible and full-width characters
])
def test_the_view_undoes_each_disguise(text: str, seen: str) -> None:
    assert view_of(text).text == seen


@pytest.mark.parametrize("text", [
    "plain ASCII text, nothing to decode: 100% sure", "Zoë Müller — Zürich ✓ 🎉", "日本語のテキスト。東京都",
    "Привет, мир", "مرحبا بالعالم", "नमस्ते दुनिया", "한국어 텍스트", "", "a%zz %4 %", "Ελληνικά κείμενα",
])
def test_text_needing_nothing_is_its_own_view(text: str) -> None:
    view = view_of(text)
    assert view.is_identity and view.text is text


def test_base64_of_text_is_read_in_a_part_of_its_own_and_maps_to_its_characters() -> None:
    secret = base64.b64encode(b"mail jane.doe@example.com now").decode()
    text = f"blob {secret} end"
    view = view_of(text)
    assert view.text.startswith(text)  # the run itself stays in place
    at = view.text.index("jane.doe@example.com")
    [(start, end)] = view.spans(at, at + len("jane.doe@example.com"))
    assert text.index(secret) < start < end < text.index(secret) + len(secret)
    assert view_of(f"key {base64.b64encode(bytes(range(40))).decode()}").is_identity  # binary: not text


_PIECES = st.sampled_from(["a", "Z", "1", " ", "\n", "é", "e\u0301", "１", "Ａ", "\ufb01", "日", "🙂", "%40",
                           "%E2%80%8B", "%zz", "%", "QUJDREVGR0hJSktM", "==", *INVISIBLES, *SPACES])


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_every_view_character_maps_inside_the_original_in_order(text: str) -> None:
    view = view_of(text)
    for index in range(len(view.text)):
        for start, end in view.spans(index, index + 1):
            assert 0 <= start < end <= len(text)
    main = view_of(text, decode_base64=False)
    starts = [main.spans(i, i + 1)[0][0] for i in range(len(main.text))]
    assert starts == sorted(starts)
    assert all(0 <= s < e <= len(text) for s, e in main.spans(0, len(main.text)))


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(_PIECES, max_size=30).map("".join), st.lists(_PIECES, max_size=30).map("".join))
def test_a_view_without_base64_parts_is_the_concatenation_of_its_pieces_views(left: str, right: str) -> None:
    """What the stream hold-back relies on: a cut at a whitespace never changes the view either side."""
    whole = view_of(left + " " + right, decode_base64=False).text
    assert whole == view_of(left, decode_base64=False).text + " " + view_of(right, decode_base64=False).text


def test_detections_on_the_view_map_to_the_disguised_characters() -> None:
    text = "ssn １２３-４５-６７８９ ok"
    view = View(text)
    found = view.to_original([Detection("US_SSN", 4, 15, 0.9, "r")])
    assert [(d.start, d.end) for d in found] == [(4, 15)]
    assert text[4:15] == "１２３-４５-６７８９"


def test_every_decimal_digit_of_every_script_is_read_as_its_ascii_digit() -> None:
    for value, digits in OTHER_DIGITS.items():
        assert digits, value
        for digit in digits:
            text = f"n{digit}n"
            view = View(text)
            assert view.text == f"n{value}n", (hex(ord(digit)), view.text)
            assert view.spans(1, 2) == [(1, 2)]
    assert sum(len(d) for d in OTHER_DIGITS.values()) > 600  # Unicode 15 has 680 Nd characters, 10 of them ASCII


@pytest.mark.parametrize("ssn", ["٥٣٦-٢٢-١٩٨٤", "۵۳۶-۲۲-۱۹۸۴", "५३६-२२-१९८४", "๕๓๖-๒๒-๑๙๘๔", "৫৩৬-২২-১৯৮৪", "5٣६-2๒-১9८4"])
def test_an_ssn_in_other_script_digits_is_caught_at_its_span(service: RedactionService, ssn: str) -> None:
    text = f"my SSN is {ssn} ok"
    assert any(d.entity_type == "US_SSN" and (d.start, d.end) == (10, 21) for d in service.scan(text)), ssn


# --- disguised values: the pattern tier, the Analyzer, RedactStream ---------------------------------

@PROPERTY
@given(value=disguised())
def test_disguised_values_are_caught_at_their_span_by_the_pattern_tier(service: RedactionService,
                                                                       value: Disguised) -> None:
    assert _caught(service.scan(value.text), value), (value.text, value.how)


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(value=disguised())
@example(value=Disguised("my SSN is ５３６-２２-１９８４ ok", (10, 21), "US_SSN", "536-22-1984", ("fullwidth",)))
@example(value=Disguised("my SSN is ٥٣٦-٢٢-١٩٨٤ ok", (10, 21), "US_SSN", "536-22-1984", ("other_digits",)))
def test_disguised_values_are_caught_by_the_analyzer_on_both_tiers(redaction_analyzer: Analyzer,
                                                                   value: Disguised) -> None:
    assert _caught(redaction_analyzer.analyze(value.text), value), (value.text, value.how)


def test_ner_reads_the_view_too(redaction_analyzer: Analyzer) -> None:
    text = "Yesterday Hans\u200b Weber\u00ad flew to Berlin."
    found = {(d.entity_type, text[d.start:d.end]) for d in redaction_analyzer.analyze(text)}
    assert ("PERSON", "Hans\u200b Weber") in found or ("PERSON", "Hans\u200b Weber\u00ad") in found, found


@PROPERTY
@given(data=st.data(), value=disguised())
def test_disguised_values_are_replaced_in_a_stream_however_it_is_chunked(service: RedactionService,
                                                                         data: st.DataObject,
                                                                         value: Disguised) -> None:
    chunks = data.draw(chunked(value.text))
    stream = service.open_stream()
    outputs = [stream.feed(chunk) for chunk in chunks[:-1]]
    outputs.append(stream.feed(chunks[-1], final=True))
    out = "".join(o.text for o in outputs)
    findings = [f for o in outputs for f in o.findings]
    assert value.value not in out, (chunks, value.how)
    # Findings are after overlaps are resolved: the value's span, or a secret's span around it.
    start, end = value.span
    assert any(f.start <= start and f.end >= end and (f.entity_type == value.entity or f.entity_type in
                                                      SECRET_ENTITY_TYPES) for f in findings), (chunks, value.how)


# --- clean text ---------------------------------------------------------------------------------------

_CLEAN = st.sampled_from([
    "Zoë's café in Zürich — naïve façade ", "日本語の文章です。", "東京　大阪　", "Привет, как дела? ", "مرحبا ",
    "👨\u200d👩\u200d👧 family ", "🏳\ufe0f\u200d🌈 ", "ｶﾀｶﾅ ", "Ｈｅｌｌｏ ", "x² + y² = z² ", "½ cup ", "ﬁne ",
    "€ 12,50 ", "100 % ", "50%-off ", "git log --oneline ", "def f(x):\n    return x\n", "a\u00a0b ",
    "e\u0301 ", "한국어 ", "हिन्दी ", "ελληνικά ", "\u200fעברית\u200f ",
])


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_CLEAN, min_size=1, max_size=12), data=st.data())
def test_clean_text_in_any_script_comes_back_byte_identical(service: RedactionService, parts: list[str],
                                                           data: st.DataObject) -> None:
    text = "".join(parts)
    assert service.scan(text) == []
    stream = service.open_stream()
    chunks = data.draw(chunked(text))
    out = "".join(stream.feed(chunk).text for chunk in chunks) + stream.finish().text
    assert out == text and out.encode() == text.encode()


def test_clean_non_ascii_text_gets_no_pattern_finding_through_the_analyzer(redaction_analyzer: Analyzer) -> None:
    """Ligatures, half-width kana, ZWJ emoji and ideographic spaces read through the view find no
    value (NER's own names and places aside, which the view does not change)."""
    for text in ["Zoë's café in Zürich — naïve façade. ✓ 🎉", "日本語の文章です。東京　大阪", "ｶﾀｶﾅ と ﬁne print ½",
                 "👨\u200d👩\u200d👧 family photo", "git log --oneline -3\ncommit a1b2c3 Fix ﬂaky test"]:
        found = redaction_analyzer.analyze(text)
        assert [d for d in found if d.entity_type not in ("PERSON", "LOCATION", "NRP")] == [], text
        assert all(0 <= d.start < d.end <= len(text) for d in found)


def test_detect_on_view_leaves_plain_text_to_the_detector_as_is() -> None:
    seen: list[str] = []
    text = "nothing to undo here"
    detect_on_view(lambda t: seen.append(t) or [], text)
    assert seen[0] is text
