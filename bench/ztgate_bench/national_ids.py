"""National identifiers with valid and with wrong check digits, for the tuning file and the tests (issue #29).

Each kind writes a body in its layout (a plausible birth date where the identifier holds one) with a hole for
its check characters, and fills the hole with every candidate of the check alphabet in turn: a candidate the
validator accepts gives the valid identifier, one it refuses the same digits with a wrong check. The check
algorithms themselves are pinned by published examples (tests/unit/redaction/detection/test_national_ids.py),
not by this module. ``python -m ztgate_bench.national_ids`` prints a few of each kind.
"""

from __future__ import annotations

import random
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ztgate.redaction.detection.patterns.national_ids import NATIONAL_ID_VALIDATORS

DIGITS = string.digits
LETTERS = string.ascii_uppercase


def _date(rng: random.Random, start: int = 1940, end: int = 2005) -> tuple[int, int, int]:
    return rng.randint(start, end), rng.randint(1, 12), rng.randint(1, 28)


def _n(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(DIGITS) for _ in range(count))


def _pesel(rng: random.Random) -> str:
    y, m, d = _date(rng, 1950, 2009)
    return f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{d:02d}{_n(rng, 4)}" + "{}"


def _cf(rng: random.Random) -> str:
    y, m, d = _date(rng)
    day = d + (40 if rng.random() < 0.5 else 0)
    letters = "".join(rng.choice(LETTERS) for _ in range(6))
    town = rng.choice("ABCDEFGHILMZ")  # a municipality's cadastral code: A001-M999, Z for a foreign birth
    return f"{letters}{y % 100:02d}{'ABCDEHLMPRST'[m - 1]}{day:02d}{town}{_n(rng, 3)}" + "{}"


def _rc(rng: random.Random) -> str:
    y, m, d = _date(rng, 1954, 2003)
    return f"{y % 100:02d}{m + (50 if rng.random() < 0.5 else 0):02d}{d:02d}/{_n(rng, 3)}" + "{}"


def _be(rng: random.Random) -> str:
    y, m, d = _date(rng, 1945, 2005)
    return f"{y % 100:02d}.{m:02d}.{d:02d}-{_n(rng, 3)}." + "{}"


def _hetu(rng: random.Random) -> str:
    y, m, d = _date(rng)
    return f"{d:02d}{m:02d}{y % 100:02d}{'-' if y < 2000 else 'A'}{rng.randint(2, 899):03d}" + "{}"


def _nir(rng: random.Random) -> str:
    y, m, _ = _date(rng)
    return f"{rng.choice('12')} {y % 100:02d} {m:02d} {rng.randint(1, 95):02d} {_n(rng, 3)} {_n(rng, 3)} " + "{}"


def _ddmmyy(rng: random.Random, start: int = 1940, end: int = 2005) -> str:
    y, m, d = _date(rng, start, end)
    return f"{d:02d}{m:02d}{y % 100:02d}"


def _yymmdd(rng: random.Random, start: int = 1940, end: int = 2005) -> str:
    y, m, d = _date(rng, start, end)
    return f"{y % 100:02d}{m:02d}{d:02d}"


def _cnp(rng: random.Random) -> str:
    y, m, d = _date(rng, 1950, 1999)
    return f"{rng.choice('12')}{y % 100:02d}{m:02d}{d:02d}{rng.randint(1, 46):02d}{_n(rng, 3)}" + "{}"


def _egn(rng: random.Random) -> str:
    return _yymmdd(rng, 1940, 1999) + _n(rng, 3) + "{}"


def _isikukood(rng: random.Random) -> str:
    y, m, d = _date(rng, 1940, 1999)
    return f"{rng.choice('34')}{y % 100:02d}{m:02d}{d:02d}{_n(rng, 3)}" + "{}"


def _svnr(rng: random.Random) -> str:
    return f"{rng.randint(100, 999)}" + "{}" + f" {_ddmmyy(rng)}"


def _ric(rng: random.Random) -> str:
    y, m, d = _date(rng)
    return f"{rng.choice(['110105', '310104', '440305', '510107', '320102'])}{y}{m:02d}{d:02d}{_n(rng, 3)}" + "{}"


def _tw(rng: random.Random) -> str:
    return f"{rng.choice('ABCDEFGHJKLMNPQRSTUVXYWZ')}{rng.choice('12')}{_n(rng, 7)}" + "{}"


def _rrn(rng: random.Random) -> str:
    y, m, d = _date(rng, 1950, 2015)
    sex = rng.choice("12") if y < 2000 else rng.choice("34")
    return f"{y % 100:02d}{m:02d}{d:02d}-{sex}{_n(rng, 5)}" + "{}"


def _grouped(body: str, groups: tuple[int, ...], sep: str = " ") -> str:
    out, at = [], 0
    for g in groups:
        out.append(body[at:at + g])
        at += g
    return sep.join(out)


def _aadhaar(rng: random.Random) -> str:
    body = rng.choice("23456789") + _n(rng, 10)
    return _grouped(body + "{}", (4, 4, 6))


def _my_number(rng: random.Random) -> str:
    return _grouped(_n(rng, 11) + "{}", (4, 4, 6))


def _curp(rng: random.Random) -> str:
    y, m, d = _date(rng, 1950, 1999)
    name = rng.choice(LETTERS) + rng.choice("AEIOU") + rng.choice(LETTERS) + rng.choice(LETTERS)
    consonants = "".join(rng.choice("BCDFGHJKLMNPRSTVZ") for _ in range(3))
    return (f"{name}{y % 100:02d}{m:02d}{d:02d}{rng.choice('HM')}{rng.choice(['DF', 'JC', 'NL', 'PL', 'VZ'])}"
            f"{consonants}0") + "{}"


def _kennitala(rng: random.Random) -> str:
    y, m, d = _date(rng, 1940, 2008)
    return f"{d:02d}{m:02d}{y % 100:02d}-{rng.randint(20, 99)}" + "{}" + ("9" if y < 2000 else "0")


def _jmbg(rng: random.Random) -> str:
    y, m, d = _date(rng, 1940, 2005)
    return f"{d:02d}{m:02d}{y % 1000:03d}{rng.randint(50, 59)}{_n(rng, 3)}" + "{}"


@dataclass(frozen=True)
class Kind:
    """One national identifier: its validator, the body maker and the check alphabet, and whether the rules read it
    without a label (``labelled``: a label is required)."""

    name: str
    country: str
    label: str
    validator: str
    body: Callable[[random.Random], str]
    check: tuple[str, ...]
    labelled: bool


_D = tuple(DIGITS)
_DD = tuple(f"{i:02d}" for i in range(100))
KINDS: tuple[Kind, ...] = (
    Kind("pesel", "Poland", "PESEL", "pl_pesel", _pesel, _D, True),
    Kind("codice_fiscale", "Italy", "codice fiscale", "it_codice_fiscale", _cf, tuple(LETTERS), False),
    Kind("dni", "Spain", "DNI", "es_dni", lambda r: _n(r, 8) + "{}", tuple(LETTERS), False),
    Kind("nie", "Spain", "NIE", "es_nie", lambda r: r.choice("XYZ") + _n(r, 7) + "{}", tuple(LETTERS), False),
    Kind("rodne_cislo", "Czechia", "rodné číslo", "cz_rodne_cislo", _rc, _D, False),
    Kind("be_national_number", "Belgium", "rijksregisternummer", "be_national_number", _be, _DD, False),
    Kind("hetu", "Finland", "henkilötunnus", "fi_hetu", _hetu, tuple("0123456789ABCDEFHJKLMNPRSTUVWXY"), False),
    Kind("nir", "France", "numéro de sécurité sociale", "fr_nir", _nir, _DD, False),
    Kind("fodselsnummer", "Norway", "fødselsnummer", "no_fodselsnummer", lambda r: _ddmmyy(r) + _n(r, 3) + "{}",
         _DD, False),
    Kind("personnummer", "Sweden", "personnummer", "se_personnummer", lambda r: _yymmdd(r) + "-" + _n(r, 3) + "{}",
         _D, True),
    Kind("bsn", "Netherlands", "BSN", "nl_bsn", lambda r: r.choice("123456789") + _n(r, 7) + "{}", _D, True),
    Kind("cnp", "Romania", "CNP", "ro_cnp", _cnp, _D, False),
    Kind("egn", "Bulgaria", "ЕГН", "bg_egn", _egn, _D, True),
    Kind("isikukood", "Estonia", "isikukood", "ee_isikukood", _isikukood, _D, False),
    Kind("ahv", "Switzerland", "AHV-Nr.", "ch_ahv", lambda r: f"756.{_n(r, 4)}.{_n(r, 4)}.{_n(r, 1)}" + "{}", _D,
         False),
    Kind("svnr", "Austria", "SVNr", "at_svnr", _svnr, _D, True),
    Kind("ppsn", "Ireland", "PPSN", "ie_ppsn", lambda r: _n(r, 7) + "{}", tuple(LETTERS[:23]), True),
    Kind("resident_id", "China", "身份证号", "cn_resident_id", _ric, (*DIGITS, "X"), False),
    Kind("taiwan_id", "Taiwan", "身分證字號", "tw_national_id", _tw, _D, False),
    Kind("rrn", "South Korea", "주민등록번호", "kr_rrn", _rrn, _D, False),
    Kind("aadhaar", "India", "Aadhaar", "in_aadhaar", _aadhaar, _D, True),
    Kind("tckn", "Türkiye", "TC kimlik no", "tr_tckn", lambda r: r.choice("123456789") + _n(r, 8) + "{}", _DD, True),
    Kind("cpf", "Brazil", "CPF", "br_cpf", lambda r: f"{_n(r, 3)}.{_n(r, 3)}.{_n(r, 3)}-" + "{}", _DD, False),
    Kind("sin", "Canada", "social insurance number", "ca_sin", lambda r: _grouped(r.choice("1234567") + _n(r, 7) + "{}", (3, 3, 5)), _D,
         True),
    Kind("tfn", "Australia", "TFN", "au_tfn", lambda r: _grouped(_n(r, 8) + "{}", (3, 3, 4)), _D, True),
    Kind("medicare", "Australia", "Medicare number", "au_medicare",
         lambda r: f"{r.choice('23456')}{_n(r, 3)} {_n(r, 4)}" + "{}" + f" {r.randint(1, 9)}", _D, True),
    Kind("ird", "New Zealand", "IRD number", "nz_ird",
         lambda r: f"{r.randint(10, 99)}-{_n(r, 3)}-{_n(r, 2)}" + "{}", _D, True),
    Kind("teudat_zehut", "Israel", "teudat zehut", "il_teudat_zehut", lambda r: _n(r, 8) + "{}", _D, True),
    Kind("za_id", "South Africa", "ID number", "za_id",
         lambda r: _yymmdd(r) + _n(r, 4) + r.choice("01") + "8" + "{}", _D, False),
    Kind("curp", "Mexico", "CURP", "mx_curp", _curp, _D, False),
    Kind("rut", "Chile", "RUT", "cl_rut", lambda r: f"{r.randint(5, 25)}.{_n(r, 3)}.{_n(r, 3)}-" + "{}",
         (*DIGITS, "K"), True),
    Kind("my_number", "Japan", "マイナンバー", "jp_my_number", _my_number, _D, True),
    Kind("nric", "Singapore", "NRIC", "sg_nric", lambda r: r.choice("ST") + _n(r, 7) + "{}", tuple(LETTERS), False),
    Kind("hkid", "Hong Kong", "HKID", "hk_id", lambda r: r.choice(LETTERS) + _n(r, 6) + "({})", (*DIGITS, "A"), False),
    Kind("kennitala", "Iceland", "kennitala", "is_kennitala", _kennitala, _D, False),
    Kind("amka", "Greece", "ΑΜΚΑ", "gr_amka", lambda r: _ddmmyy(r) + _n(r, 4) + "{}", _D, True),
    Kind("oib", "Croatia", "OIB", "hr_oib", lambda r: r.choice("123456789") + _n(r, 9) + "{}", _D, True),
    Kind("jmbg", "Slovenia", "EMŠO", "yu_jmbg", _jmbg, _D, True),
    Kind("taj", "Hungary", "TAJ szám", "hu_taj", lambda r: _grouped(r.choice("01") + _n(r, 7) + "{}", (3, 3, 4)), _D,
         True),
)
KINDS_BY_NAME = {k.name: k for k in KINDS}


def pair(kind: Kind, rng: random.Random, tries: int = 50) -> tuple[str, str]:
    """A value of `kind` whose check holds and the same body with a check that fails."""
    check = NATIONAL_ID_VALIDATORS[kind.validator]
    for _ in range(tries):
        body = kind.body(rng)
        filled = [body.format(c) for c in kind.check]
        good = [v for v in filled if check(v)]
        bad = [v for v in filled if not check(v)]
        if good and bad:
            return rng.choice(good), rng.choice(bad)
    raise RuntimeError(f"no valid {kind.name} in {tries} bodies")


def main() -> int:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 29)
    for kind in KINDS:
        good, bad = pair(kind, rng)
        print(f"{kind.name:20} {kind.country:12} valid {good:28} wrong check {bad}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
