"""UTF-8 byte offsets map to code-point offsets that index the Python str exactly, for any Unicode input."""

from __future__ import annotations

import random

import pytest

from ztgate.redaction.detection.patterns.catalogue import Catalogue, load_catalogue
from ztgate.redaction.detection.patterns.offsets import Utf8Offsets, encode_utf8
from ztgate.redaction.detection.patterns.scanner import PatternScanner

SAMPLES = [
    "",
    "plain ascii text",
    "emoji 😀 here",  # astral (4 bytes)
    "CJK 電話番号は 090-1234-5678 です",  # 3-byte characters
    "e\u0301 combining acute, n\u0303o",  # combining marks (2 bytes each)
    "mixed é ß ñ 😀 👩‍💻 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 end",  # ZWJ sequence and mathematical letters
    "😀😀😀",
    "\u00a0\u2028\u2029\ufeff",  # NBSP, line/paragraph separators, BOM
]


def _byte_offset(text: str, codepoint: int) -> int:
    return len(text[:codepoint].encode("utf-8"))


@pytest.mark.parametrize("text", SAMPLES)
def test_every_codepoint_boundary_maps_back_exactly(text: str) -> None:
    mapping = Utf8Offsets(text)
    boundaries = {_byte_offset(text, i): i for i in range(len(text) + 1)}
    assert mapping.codepoints(boundaries) == boundaries
    assert mapping.data == text.encode("utf-8")


def test_ascii_text_maps_by_identity() -> None:
    mapping = Utf8Offsets("hello world")
    assert mapping.is_ascii
    assert mapping.codepoints([0, 5, 11]) == {0: 0, 5: 5, 11: 11}


def test_offset_inside_a_multibyte_character_maps_to_its_end() -> None:
    text = "a😀b"  # bytes: a=0, 😀=1..4, b=5
    mapping = Utf8Offsets(text)
    assert mapping.codepoints([2, 3, 4]) == {2: 2, 3: 2, 4: 2}
    assert mapping.codepoint(5) == 2
    assert mapping.codepoint(1) == 1


def test_offset_outside_the_data_is_refused() -> None:
    with pytest.raises(ValueError):
        Utf8Offsets("é").codepoint(3)


def test_lone_surrogates_become_one_replacement_character_each() -> None:
    text = "a\ud800b\udfffc"
    data = encode_utf8(text)
    assert data.decode("utf-8") == "a\ufffdb\ufffdc"
    mapping = Utf8Offsets(text)
    assert mapping.codepoint(len(data)) == len(text)


def test_random_strings_round_trip() -> None:
    rng = random.Random(7)
    alphabet = "aZ09 .@-" + "éßñ" + "電話番号" + "😀🎉𝔘" + "\u0301\u200d"
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        mapping = Utf8Offsets(text)
        boundaries = {_byte_offset(text, i): i for i in range(len(text) + 1)}
        assert mapping.codepoints(boundaries) == boundaries


@pytest.fixture(scope="module")
def scanner(tmp_path_factory: pytest.TempPathFactory) -> PatternScanner:
    full = load_catalogue()
    rules = [full.rule(r) for r in ("email_address", "phone_us_formatted", "github_token", "ipv4_address",
                                    "password_assignment", "date_of_birth_text")]
    return PatternScanner(Catalogue.from_rules(rules), cache_dir=tmp_path_factory.mktemp("hs-cache"))


GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2z4A"

# (text, values the scanner must find, in order)
UNICODE_CASES = [
    ("😀 jane@example.com", ["jane@example.com"]),
    ("電話番号は (555) 123-4567 です、メールは jane@example.com", ["(555) 123-4567", "jane@example.com"]),
    ("café naïve ü — token " + GHP + " 🎉", [GHP]),
    ("e\u0301e\u0301 password=pa\u0301ss😀word end", ["pa\u0301ss😀word"]),  # astral and a combining mark inside
    ("𝔘𝔫𝔦 10.0.0.1 𝔠𝔬𝔡𝔢 192.168.1.1😀", ["10.0.0.1", "192.168.1.1"]),
    ("👩‍💻 born on 3 März 1985? no: born on March 3, 1985 ✓", ["March 3, 1985"]),
    ("jane@example.com😀", ["jane@example.com"]),
]


@pytest.mark.parametrize(("text", "values"), UNICODE_CASES)
def test_scanner_offsets_index_the_python_str(scanner: PatternScanner, text: str, values: list[str]) -> None:
    found = scanner.scan(text)
    assert [text[d.start:d.end] for d in found] == values
