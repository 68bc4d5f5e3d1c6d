"""National identifiers after their own label are found anywhere in a text; their bare digits without it are not.

Generated families (issue #29: "CPF 123.456.789-09", "SIN 046 454 286", "T.C. kimlik no ...", a henkilötunnus,
"PAN ABCDE1234F", a cédula, "RUT 12.345.678-5" reached the model outside a contact block): valid identifiers of
each kind, made with their check digits, after their labels and markers in sentences of several languages, are
found whole; the same identifiers with a broken check digit after the label, and the same digit shapes with no
label (orders, versions, builds, phone-like numbers in technical text) are not. The scanner runs on the
normalised view, as the analyzer runs it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.normalise import detect_on_view
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.detection.patterns.national_ids import (
    NATIONAL_ID_VALIDATORS,
    br_cpf,
    ca_sin,
    cl_rut,
    co_cedula,
    fi_hetu,
    in_pan,
    tr_tckn,
)

_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def _digit_lists(n: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(lambda d: len(set(d)) > 1)


@st.composite
def cpfs(draw: st.DrawFn) -> str:
    d = draw(_digit_lists(9))
    for n in (9, 10):
        d.append(sum(x * w for x, w in zip(d, range(n + 1, 1, -1), strict=False)) * 10 % 11 % 10)
    s = "".join(map(str, d))
    return draw(st.sampled_from((f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}", s)))


def _luhn_complete(d: list[int]) -> list[int]:
    for check in range(10):
        digits = d + [check]
        total = sum(x if i % 2 == 0 else (x * 2 - 9 if x * 2 > 9 else x * 2)
                    for i, x in enumerate(reversed(digits)))
        if total % 10 == 0:
            return digits
    raise AssertionError


@st.composite
def sins(draw: st.DrawFn) -> str:
    s = "".join(map(str, _luhn_complete(draw(_digit_lists(8)))))
    sep = draw(st.sampled_from((" ", "-", "")))
    return f"{s[:3]}{sep}{s[3:6]}{sep}{s[6:]}"


@st.composite
def tckns(draw: st.DrawFn) -> str:
    d = [draw(st.integers(1, 9))] + draw(_digit_lists(8))
    d.append((sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


@st.composite
def hetus(draw: st.DrawFn) -> str:
    born = draw(st.dates(dt.date(1920, 1, 1), dt.date(2020, 12, 31)))
    sign = draw(st.sampled_from("-YXWVU")) if born.year < 2000 else draw(st.sampled_from("ABCDEF"))
    serial = f"{draw(st.integers(2, 899)):03d}"
    head = f"{born.day:02d}{born.month:02d}{born.year % 100:02d}"
    return f"{head}{sign}{serial}{_HETU_CHECK[int(head + serial) % 31]}"


@st.composite
def pans(draw: st.DrawFn) -> str:
    letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    head = "".join(draw(st.lists(letters, min_size=3, max_size=3)))
    return f"{head}P{draw(letters)}{draw(st.integers(1, 9999)):04d}{draw(letters)}"


@st.composite
def cedulas(draw: st.DrawFn) -> str:
    n = draw(st.integers(1_000_000, 1_199_999_999).filter(lambda k: len(set(str(k))) > 1))
    return draw(st.sampled_from((f"{n:,}".replace(",", "."), str(n))))


@st.composite
def ruts(draw: st.DrawFn) -> str:
    body = draw(st.integers(1_000_000, 29_999_999).filter(lambda k: len(set(str(k))) > 1))
    total = sum(int(c) * (2 + i % 6) for i, c in enumerate(reversed(str(body))))
    check = {11: "0", 10: "K"}.get(11 - total % 11, str(11 - total % 11))
    return draw(st.sampled_from((f"{body:,}".replace(",", ".") + f"-{check}", f"{body}-{check}")))


KINDS: dict[str, tuple[Callable[[], st.SearchStrategy[str]], tuple[str, ...]]] = {
    "cpf": (cpfs, ("CPF", "CPF:", "CPF nº", "CPF n°", "cpf", "C.P.F.", "CPF número")),
    "sin": (sins, ("SIN", "SIN:", "SIN #", "social insurance number", "Social Insurance Number:", "NAS",
                   "numéro d'assurance sociale")),
    "tckn": (tckns, ("T.C. kimlik no", "TC kimlik no:", "TCKN", "TCKN:", "kimlik numarası", "Kimlik No:")),
    "hetu": (hetus, ("henkilötunnus", "Henkilötunnus:", "hetu", "HETU:", "personal identity code",
                     "personbeteckning")),
    "pan": (pans, ("PAN", "PAN:", "PAN card", "PAN no.", "PAN card no.", "permanent account number")),
    "cedula": (cedulas, ("cédula", "Cédula:", "cédula de ciudadanía", "cedula No.", "tarjeta de identidad",
                         "Tarjeta de identidad No.", "C.C.", "T.I.")),
    "rut": (ruts, ("RUT", "RUT:", "R.U.T.", "RUN", "rut", "rol único tributario")),
}
VALIDATORS = {"cpf": br_cpf, "sin": ca_sin, "tckn": tr_tckn, "hetu": fi_hetu, "pan": in_pan, "cedula": co_cedula,
              "rut": cl_rut}

SENTENCES = (
    "My {label} {id} is on the form, can you help me fill in the rest?",
    "{label} {id}",
    "Please check whether {label} {id} matches the contract.",
    "Olá, meu {label} {id} foi recusado no cadastro.",
    "Hola, mi {label} {id} no aparece en el sistema.",
    "Merhaba, {label} {id} ile kayıt olamıyorum.",
    "Hei, {label} {id} ei kelpaa lomakkeelle.",
    "The applicant wrote: {label} {id}. Is the letter fine?",
    "Write an email to HR with {label} {id} in the subject.",
)


@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _ids(scanner: PatternScanner, text: str) -> list[str]:
    return [text[d.start:d.end] for d in detect_on_view(scanner.scan, text) if d.entity_type == "ID_NUMBER"]


@st.composite
def labelled(draw: st.DrawFn) -> tuple[str, str, str]:
    kind = draw(st.sampled_from(sorted(KINDS)))
    make, labels = KINDS[kind]
    return kind, draw(st.sampled_from(labels)), draw(make())


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(item=labelled(), sentence=st.sampled_from(SENTENCES))
def test_a_national_id_after_its_label_is_found_whole(scanner: PatternScanner, item: tuple[str, str, str],
                                                      sentence: str) -> None:
    kind, label, value = item
    assert VALIDATORS[kind](value), (kind, value)
    text = sentence.format(label=label, id=value)
    assert value in _ids(scanner, text), f"{text!r}: found {_ids(scanner, text)!r}"


def _break(kind: str, value: str) -> str:
    """The same identifier with its last check character changed (a typo, an example, a surrogate)."""
    last = value[-1]
    if kind == "hetu":
        return value[:-1] + _HETU_CHECK[(_HETU_CHECK.index(last) + 1) % 31]
    if kind == "rut":
        return value[:-1] + ("0" if last == "K" else "K" if last == "9" else str(int(last) + 1))
    return value[:-1] + str((int(last) + 1) % 10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(item=labelled(), sentence=st.sampled_from(SENTENCES))
def test_a_value_failing_its_check_digits_after_the_label_stays(scanner: PatternScanner,
                                                                item: tuple[str, str, str], sentence: str) -> None:
    kind, label, value = item
    if kind in ("pan", "cedula") or "assurance" in label.casefold() or "insurance" in label.casefold():
        return  # no check digit (the shape and the label decide); a record label of labelled_id_* takes any value
    broken = _break(kind, value)
    assert not VALIDATORS[kind](broken), (kind, broken)
    text = sentence.format(label=label, id=broken)
    found = [d for d in detect_on_view(scanner.scan, text) if d.entity_type == "ID_NUMBER"]
    assert [text[d.start:d.end] for d in found if not _valid_elsewhere(kind, d.recognizer, text[d.start:d.end])] == [], text


def _read_anywhere(value: str) -> bool:
    """The digits are by chance a valid identifier of another country whose rule reads it without a label (a
    broken T.C. kimlik no that is a valid fødselsnummer: 0.26% of random 11-digit strings, ADR 0020)."""
    return any(NATIONAL_ID_VALIDATORS[name](value) for name in _UNLABELLED_VALIDATORS)


def _valid_elsewhere(kind: str, recognizer: str, value: str) -> bool:
    """Another country's rule found the broken value, valid by its own check (a henkilötunnus with a digit for its
    check character after the generic label "personal identity code" is a CPR number's layout and date: hiding it is
    a reading the label allows)."""
    other = recognizer.removeprefix("national_id_")
    validate = NATIONAL_ID_VALIDATORS.get(other)
    return other != recognizer and not other.endswith(kind) and validate is not None and validate(value)


_UNLABELLED_VALIDATORS = ("no_fodselsnummer", "ee_isikukood", "ro_cnp", "za_id", "fr_nir")


UNLABELLED = (
    "Order {id} ships on Monday.",
    "Build {id} passed; see the log.",
    "Run `make test` on commit {id} and report.",
    "The invoice {id} was paid.",
    "Tracking: {id}",
    "Set the seed to {id} for the benchmark.",
    "The sin of {id} radians is small.",
    "Bake the pan at 200 degrees; batch {id}.",
    "Version {id} of the firmware is out.",
)


def _read_without_label(kind: str, value: str) -> bool:
    """A henkilötunnus and a CPF in its own dotted layout are read anywhere (ADR 0020: their layout and check
    digits are evidence enough; test_national_id_catalogue.py holds their families)."""
    return kind == "hetu" or (kind == "cpf" and "." in value)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(item=labelled().filter(lambda item: not _read_without_label(item[0], item[2])),
       sentence=st.sampled_from(UNLABELLED))
def test_the_same_shapes_without_a_label_are_not_national_ids(scanner: PatternScanner,
                                                              item: tuple[str, str, str], sentence: str) -> None:
    _, _, value = item
    text = sentence.format(id=value)
    assert [v for v in _ids(scanner, text) if not _read_anywhere(v)] == [], text


TECHNICAL = (
    "Upgrade from {a}.{b}.{c} to {a}.{b}.{d}; the SIN function is unchanged.",
    "PAN and zoom are mapped to keys {a} and {b}.",
    "The RUT buffer holds {n} entries, run {a} of {b}.",
    "Call support on 0{a} {n} if the cedula field in the CRM form is empty.",
    "Kimlik doğrulama servisi port {n} üzerinde çalışıyor.",
    "CPF indexes were rebuilt in {n} ms on {a} nodes.",
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(TECHNICAL), a=st.integers(1, 99), b=st.integers(0, 99), c=st.integers(0, 99),
       d=st.integers(0, 99), n=st.integers(100, 9_999_999))
def test_acronym_labels_in_technical_text_find_nothing(scanner: PatternScanner, template: str, a: int, b: int,
                                                       c: int, d: int, n: int) -> None:
    text = template.format(a=a, b=b, c=c, d=d, n=n)
    assert _ids(scanner, text) == [], text


@pytest.mark.parametrize(("text", "value"), [
    ("CPF 123.456.789-09", "123.456.789-09"), ("SIN 046 454 286", "046 454 286"),
    ("T.C. kimlik no 10000000146", "10000000146"), ("henkilötunnus 131052-308T", "131052-308T"),
    ("PAN ABCDE1234F", "ABCDE1234F"), ("tarjeta de identidad 1.023.456.789", "1.023.456.789"),
    ("Su RUT 12.345.678-5, sin teléfono.", "12.345.678-5"),
])
def test_the_issue_examples_are_found(scanner: PatternScanner, text: str, value: str) -> None:
    assert value in _ids(scanner, text)
