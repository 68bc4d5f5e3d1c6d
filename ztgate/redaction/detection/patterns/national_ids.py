"""Check-digit validators of national identifiers (issue #29): the one place their algorithms live.

Each validator takes the value a rule of ``rules/national_ids.yaml`` matched (separators included) and answers
whether its layout, its embedded date where it has one, and its check digits hold. The source of each algorithm
is named beside it. Where a checksum is weak (one check digit over a digit string that everyday numbers share),
the rule asks for a label; which rules read a value without one, and the false-positive rate of each on random
strings of its layout, are in docs/security.md and docs/adr/0020-national-identifiers.md.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

_NON_DIGITS = re.compile(r"\D")
_SEPARATORS = re.compile(r"[\s.\-/()]")


def _digits(value: str) -> str:
    return _NON_DIGITS.sub("", value)


def _compact(value: str) -> str:
    return _SEPARATORS.sub("", value).upper()


def _repeated(digits: str) -> bool:
    return len(set(digits)) == 1  # 000.000.000-00, 111 111 111: placeholders that pass some checksums


def _born(year: int, month: int, day: int) -> bool:
    """A real calendar date a living or recorded person was born on (1800 to today)."""
    try:
        born = _dt.date(year, month, day)
    except ValueError:
        return False
    return 1800 <= year and born <= _dt.date.today()


def _weighted(digits: Sequence[int], weights: Sequence[int]) -> int:
    return sum(d * w for d, w in zip(digits, weights, strict=False))


# --- check-digit schemes shared by several identifiers -------------------------------------------------------


def luhn(value: str) -> bool:
    """Luhn (ISO/IEC 7812-1 annex B, mod 10) over the digits of `value`; separators are ignored."""
    digits = _digits(value)
    if len(digits) < 2:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 4, 0, 6, 7, 8, 9, 5), (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7), (4, 0, 1, 2, 3, 9, 5, 6, 7, 8), (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2), (7, 6, 5, 9, 8, 2, 1, 0, 4, 3), (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 5, 7, 6, 2, 8, 3, 0, 9, 4), (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7), (9, 4, 5, 3, 1, 2, 6, 8, 7, 0), (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5), (7, 0, 4, 6, 9, 1, 3, 2, 5, 8))


def _verhoeff(digits: str) -> bool:
    """Verhoeff's dihedral-group check (J. Verhoeff, Error Detecting Decimal Codes, 1969)."""
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][ord(ch) - 48]]
    return c == 0


# --- Europe --------------------------------------------------------------------------------------------------

_PESEL_WEIGHTS = (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)
_PESEL_CENTURY = {0: 1900, 20: 2000, 40: 2100, 60: 2200, 80: 1800}


def pl_pesel(value: str) -> bool:
    """Poland's PESEL YYMMDDZZZXQ: a real birth date (the month carries the century: +80 1800s, +20 2000s), and
    its check digit (weights 1-3-7-9, mod 10). Source: Ustawa o ewidencji ludności (Dz.U. 2010 nr 217 poz. 1427)."""
    digits = _digits(value)
    if len(digits) != 11 or _repeated(digits):
        return False
    d = [int(c) for c in digits]
    month = int(digits[2:4])
    offset = month // 20 * 20
    if not _born(_PESEL_CENTURY.get(offset, 0) + int(digits[:2]), month - offset, int(digits[4:6])):
        return False
    return (10 - _weighted(d, _PESEL_WEIGHTS) % 10) % 10 == d[10]


# Codice fiscale: the odd-position values of DM 23/12/1976 (Ministero delle Finanze), letters and digits alike.
_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8,
                    12, 14, 16, 10, 22, 25, 24, 23), strict=True))
_CF_LAYOUT = re.compile(r"[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]")
_CF_OMOCODE = str.maketrans("LMNPQRSTUV", "0123456789")


def it_codice_fiscale(value: str) -> bool:
    """Italy's codice fiscale (persons): surname and name letters, year, month letter, day (+40 for women),
    municipality, and the check letter (odd/even position tables, mod 26), digits possibly replaced by the
    omocodia letters. Source: DM 23 dicembre 1976 (Ministero delle Finanze), art. 7."""
    code = value.upper()
    if not _CF_LAYOUT.fullmatch(code):
        return False
    day = int(code[9:11].translate(_CF_OMOCODE))
    if not (1 <= day <= 31 or 41 <= day <= 71):
        return False
    total = sum(_CF_ODD[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65) for i, c in enumerate(code[:15]))
    return chr(65 + total % 26) == code[15]


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def es_dni(value: str) -> bool:
    """Spain's DNI: eight digits and the letter of their value mod 23. Source: Real Decreto 1553/2005, art. 11."""
    code = _compact(value)
    return (len(code) == 9 and code[:8].isdigit() and not _repeated(code[:8])
            and _DNI_LETTERS[int(code[:8]) % 23] == code[8])


def es_nie(value: str) -> bool:
    """Spain's NIE: X, Y or Z (0, 1, 2), seven digits, and the DNI letter of the whole. Source: Orden INT/2058/2008."""
    code = _compact(value)
    if len(code) != 9 or code[0] not in "XYZ" or not code[1:8].isdigit():
        return False
    return _DNI_LETTERS[int(str("XYZ".index(code[0])) + code[1:8]) % 23] == code[8]


def cz_rodne_cislo(value: str) -> bool:
    """Czech and Slovak rodné číslo YYMMDD/XXXX (ten digits, from 1954): a real birth date (month +50 for women,
    +20 or +70 from 2004), and the whole divisible by 11 (or the first nine's remainder 10 and a final 0, before
    1985). Source: Zákon č. 133/2000 Sb., § 13."""
    digits = _digits(value)
    if len(digits) != 10 or _repeated(digits):
        return False
    yy, month, day = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    year = 1900 + yy if yy >= 54 else 2000 + yy
    for offset in (0, 50, 20, 70):
        if 1 <= month - offset <= 12:
            month -= offset
            break
    if not _born(year, month, day):
        return False
    return int(digits) % 11 == 0 or (int(digits[:9]) % 11 == 10 and digits[9] == "0" and year < 1985)


def be_national_number(value: str) -> bool:
    """Belgium's national register number YY.MM.DD-SSS.CC: CC is 97 minus the first nine digits mod 97 (with a 2
    before them for births from 2000); the date may be unknown (month or day 00; bis numbers add 20 or 40 to the
    month). Source: Koninklijk besluit van 3 april 1984 (Rijksregister), structure of the number."""
    digits = _digits(value)
    if len(digits) != 11 or _repeated(digits):
        return False
    month, day = int(digits[2:4]) % 20, int(digits[4:6])
    if month > 12 or day > 31 or int(digits[2:4]) > 52:
        return False
    check = int(digits[9:])
    return check in (97 - int(digits[:9]) % 97, 97 - int("2" + digits[:9]) % 97)


_HETU = re.compile(r"(\d{2})(\d{2})(\d{2})([-+A-FU-Y])(\d{3})([0-9A-Y])")
_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def fi_hetu(value: str) -> bool:
    """Finland's henkilötunnus DDMMYYCZZZQ: a real birth date, a century sign (+, -, A and the 2023 ones B-F,
    U-Y), and its check character (the nine digits mod 31). Source: Väestötietolaki 661/2009, DVV's description."""
    match = _HETU.fullmatch(value.upper())
    if not match:
        return False
    day, month, year, sign, serial, check = match.groups()
    century = 1800 if sign == "+" else 1900 if sign in "-UVWXY" else 2000
    if not _born(century + int(year), int(month), int(day)) or serial == "000":
        return False
    return _HETU_CHECK[int(day + month + year + serial) % 31] == check


def fr_nir(value: str) -> bool:
    """France's NIR (numéro de sécurité sociale): sex, year, month (01-12, 20-42 or 50+ when unknown), département
    (2A/2B for Corsica), commune, order, and the key 97 minus the thirteen digits mod 97 (2A as 19, 2B as 18).
    Source: INSEE, décret n° 82-103; the key as Ameli publishes it."""
    code = _compact(value)
    if len(code) != 15 or code[0] not in "123478":
        return False
    body = code[:13].replace("2A", "19").replace("2B", "18") if code[5:7] in ("2A", "2B") else code[:13]
    if not body.isdigit() or not code[13:].isdigit():
        return False
    month = int(code[3:5])
    if not (1 <= month <= 12 or 20 <= month <= 42 or month >= 50):
        return False
    return 97 - int(body) % 97 == int(code[13:])


def no_fodselsnummer(value: str) -> bool:
    """Norway's fødselsnummer DDMMYYIIIKK (D-numbers add 40 to the day, H-numbers 40 to the month): a real date
    and both mod-11 check digits. Source: Skatteetaten, Folkeregisteret's description of the number."""
    digits = _digits(value)
    if len(digits) != 11 or _repeated(digits):
        return False
    d = [int(c) for c in digits]
    day, month = int(digits[:2]), int(digits[2:4])
    if not _valid_day_month(day - 40 if day > 40 else day, month - 40 if month > 40 else month):
        return False
    k1 = 11 - _weighted(d, (3, 7, 6, 1, 8, 9, 4, 5, 2)) % 11
    k2 = 11 - _weighted(d, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return (k1 % 11) == d[9] and (k2 % 11) == d[10]


def _valid_day_month(day: int, month: int) -> bool:
    return _born(2000, month, day)  # 2000 is a leap year: 29 February counts


def se_personnummer(value: str) -> bool:
    """Sweden's personnummer (YY)YYMMDD-NNNC (samordningsnummer: day +60): a real date and Luhn over the ten
    digits. Source: Skatteverket, SKV 704 (Personnummer)."""
    digits = _digits(value)
    if len(digits) == 12:
        digits = digits[2:]
    if len(digits) != 10 or _repeated(digits):
        return False
    day = int(digits[4:6])
    if not _valid_day_month(day - 60 if day > 60 else day, int(digits[2:4])):
        return False
    return luhn(digits)


def dk_cpr(value: str) -> bool:
    """Denmark's CPR number DDMMYY-SSSS: a real date (the mod-11 check was given up in 2007, so none is asked).
    Source: CPR-kontoret, Personnummeret i CPR-systemet (2008)."""
    digits = _digits(value)
    return len(digits) == 10 and not _repeated(digits) and _valid_day_month(int(digits[:2]), int(digits[2:4]))


def nl_bsn(value: str) -> bool:
    """The Netherlands' BSN: nine digits passing the elfproef (weights 9..2 and -1, mod 11). Source: Wet algemene
    bepalingen burgerservicenummer; Logius, the BSN's check."""
    digits = _digits(value)
    if len(digits) != 9 or _repeated(digits):
        return False
    d = [int(c) for c in digits]
    return (_weighted(d, (9, 8, 7, 6, 5, 4, 3, 2)) - d[8]) % 11 == 0


_CNP_WEIGHTS = (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)
_CNP_CENTURY = {1: 1900, 2: 1900, 3: 1800, 4: 1800, 5: 2000, 6: 2000, 7: 1900, 8: 1900, 9: 1900}


def ro_cnp(value: str) -> bool:
    """Romania's CNP SAALLZZJJNNNC: sex and century, a real birth date, a county 01-52, and the check (weights
    279146358279, mod 11, 10 as 1). Source: Legea nr. 105/1996 and HG 839/1994 (codul numeric personal)."""
    digits = _digits(value)
    if len(digits) != 13 or digits[0] == "0":
        return False
    d = [int(c) for c in digits]
    if not _born(_CNP_CENTURY[d[0]] + int(digits[1:3]), int(digits[3:5]), int(digits[5:7])):
        return False
    if not 1 <= int(digits[7:9]) <= 52:
        return False
    check = _weighted(d, _CNP_WEIGHTS) % 11
    return (1 if check == 10 else check) == d[12]


def bg_egn(value: str) -> bool:
    """Bulgaria's EGN YYMMDDSSSC (month +20 for the 1800s, +40 from 2000): a real date and the check (weights
    2,4,8,5,10,9,7,3,6, mod 11, 10 as 0). Source: Закон за гражданската регистрация, чл. 18; ГРАО."""
    digits = _digits(value)
    if len(digits) != 10 or _repeated(digits):
        return False
    d = [int(c) for c in digits]
    month = int(digits[2:4])
    century, month = (2000, month - 40) if month > 40 else (1800, month - 20) if month > 20 else (1900, month)
    if not _born(century + int(digits[:2]), month, int(digits[4:6])):
        return False
    check = _weighted(d, (2, 4, 8, 5, 10, 9, 7, 3, 6)) % 11
    return (0 if check == 10 else check) == d[9]


def ee_isikukood(value: str) -> bool:
    """Estonia's isikukood GYYMMDDSSSC (Lithuania's asmens kodas has the same layout): sex and century 1-6, a real
    date, and the two-stage mod-11 check. Source: EVS 585:2007 (Isikukood. Struktuur)."""
    digits = _digits(value)
    if len(digits) != 11 or digits[0] not in "123456":
        return False
    d = [int(c) for c in digits]
    if not _born(1800 + (d[0] - 1) // 2 * 100 + int(digits[1:3]), int(digits[3:5]), int(digits[5:7])):
        return False
    check = _weighted(d, (1, 2, 3, 4, 5, 6, 7, 8, 9, 1)) % 11
    if check == 10:
        check = _weighted(d, (3, 4, 5, 6, 7, 8, 9, 1, 2, 3)) % 11 % 10
    return check == d[10]


def ch_ahv(value: str) -> bool:
    """Switzerland's AHV/AVS number 756.XXXX.XXXX.XC: the prefix 756 and the EAN-13 check digit. Source:
    Zentrale Ausgleichsstelle (ZAS), Die neue AHV-Nummer, structure and check digit."""
    digits = _digits(value)
    if len(digits) != 13 or not digits.startswith("756"):
        return False
    total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(digits[:12]))
    return (10 - total % 10) % 10 == int(digits[12])


def at_svnr(value: str) -> bool:
    """Austria's Sozialversicherungsnummer NNNC DDMMYY: a serial not starting with 0, the date (month may be 13-14
    when unknown) and the check (weights 3,7,9,-,5,8,4,2,1,6, mod 11). Source: Dachverband der
    Sozialversicherungsträger, Aufbau der Versicherungsnummer."""
    digits = _digits(value)
    if len(digits) != 10 or digits[0] == "0" or _repeated(digits):
        return False
    d = [int(c) for c in digits]
    if not (1 <= int(digits[4:6]) <= 31 and 1 <= int(digits[6:8]) <= 14):
        return False
    check = (_weighted(d[:3], (3, 7, 9)) + _weighted(d[4:], (5, 8, 4, 2, 1, 6))) % 11
    return check == d[3]


def ie_ppsn(value: str) -> bool:
    """Ireland's PPS number: seven digits, a check letter, and an optional second letter (A, B, H, W): weights
    8..2 on the digits, 9 on the second letter (A=1), mod 23, 0 as W. Source: Revenue, PPSN format."""
    code = _compact(value)
    if not (8 <= len(code) <= 9 and code[:7].isdigit() and code[7:].isalpha()):
        return False
    total = _weighted([int(c) for c in code[:7]], (8, 7, 6, 5, 4, 3, 2))
    if len(code) == 9:
        if code[8] not in "ABHW":
            return False
        total += 9 * (0 if code[8] == "W" else ord(code[8]) - 64)
    remainder = total % 23
    return code[7] == ("W" if remainder == 0 else chr(64 + remainder))


_NINO = re.compile(r"(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]")


def uk_nino(value: str) -> bool:
    """The UK's National Insurance number: two prefix letters HMRC allocates (not D, F, I, Q, U, V; the second
    not O; not BG, GB, NK, KN, TN, NT, ZZ), six digits, A-D. No check digit: a label is always asked.
    Source: HMRC National Insurance Manual, NIM39110."""
    return bool(_NINO.fullmatch(_compact(value)))


def _mod11_weighted(digits: str, weights: Sequence[int]) -> bool:
    return _weighted([int(c) for c in digits], weights) % 11 == 0


# --- Asia and the Pacific ------------------------------------------------------------------------------------

_RIC_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def cn_resident_id(value: str) -> bool:
    """China's resident identity card number: six-digit region, a real birth date YYYYMMDD, a three-digit order,
    and the ISO 7064 MOD 11-2 check (0-9 or X). Source: GB 11643-1999 (公民身份号码)."""
    code = _compact(value)
    if len(code) != 18 or not code[:17].isdigit() or code[0] == "0":
        return False
    if not _born(int(code[6:10]), int(code[10:12]), int(code[12:14])):
        return False
    check = (12 - _weighted([int(c) for c in code[:17]], _RIC_WEIGHTS) % 11) % 11
    return code[17] == ("X" if check == 10 else str(check))


# Taiwan: the letter's two-digit code (its place of first registration).
_TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def tw_national_id(value: str) -> bool:
    """Taiwan's national identification number: a letter, a sex digit (1, 2; 8, 9 for the 2021 resident numbers),
    seven digits and a check digit (the letter's code, weights 1,9,8,...,1, mod 10). Source: 內政部 (Ministry of
    the Interior), 國民身分證統一編號 structure."""
    code = _compact(value)
    if len(code) != 10 or code[0] not in _TW_LETTERS or not code[1:].isdigit() or code[1] not in "1289":
        return False
    letter = _TW_LETTERS[code[0]]
    total = letter // 10 + letter % 10 * 9 + _weighted([int(c) for c in code[1:]], (8, 7, 6, 5, 4, 3, 2, 1, 1))
    return total % 10 == 0


def kr_rrn(value: str) -> bool:
    """South Korea's resident registration number YYMMDD-GSSSSSC: a real date, the sex and century digit (1-8, 9
    and 0 for the 1800s), and the check (weights 2-9,2-5, mod 11, mod 10). Numbers issued from October 2020 have no
    check digit and are not read by this validator. Source: 주민등록법 시행규칙; KISA's description of the number."""
    digits = _digits(value)
    if len(digits) != 13:
        return False
    century = {1: 1900, 2: 1900, 5: 1900, 6: 1900, 3: 2000, 4: 2000, 7: 2000, 8: 2000, 9: 1800, 0: 1800}
    if not _born(century[int(digits[6])] + int(digits[:2]), int(digits[2:4]), int(digits[4:6])):
        return False
    check = (11 - _weighted([int(c) for c in digits[:12]], (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)) % 11) % 10
    return check == int(digits[12])


def in_aadhaar(value: str) -> bool:
    """India's Aadhaar number: twelve digits, the first 2-9, not a palindrome of placeholders, and Verhoeff's
    check. Source: UIDAI, Aadhaar number structure (the Verhoeff scheme)."""
    digits = _digits(value)
    return len(digits) == 12 and digits[0] not in "01" and not _repeated(digits) and _verhoeff(digits)


def jp_my_number(value: str) -> bool:
    """Japan's individual number (My Number): twelve digits, the check 11 minus the weighted sum mod 11 (0 when
    that is 10 or 11). Source: 総務省令第85号 (2014), 第5条."""
    digits = _digits(value)
    if len(digits) != 12 or _repeated(digits):
        return False
    body = [int(c) for c in digits[:11]][::-1]
    total = sum(p * (n + 1 if n <= 6 else n - 5) for n, p in enumerate(body, start=1))
    remainder = total % 11
    return int(digits[11]) == (0 if remainder <= 1 else 11 - remainder)


_NRIC_ST = "JZIHGFEDCBA"
_NRIC_FG = "XWUTRQPNMLK"


def sg_nric(value: str) -> bool:
    """Singapore's NRIC or FIN: S, T, F or G, seven digits and the check letter (weights 2,7,6,5,4,3,2; +4 for T
    and G; mod 11, on the series' table). Source: ICA, NRIC/FIN structure as published with the check tables."""
    code = _compact(value)
    if len(code) != 9 or code[0] not in "STFG" or not code[1:8].isdigit():
        return False
    total = _weighted([int(c) for c in code[1:8]], (2, 7, 6, 5, 4, 3, 2)) + (4 if code[0] in "TG" else 0)
    table = _NRIC_ST if code[0] in "ST" else _NRIC_FG
    return table[total % 11] == code[8]


def hk_id(value: str) -> bool:
    """Hong Kong's identity card number: one or two letters, six digits and a check digit (0-9 or A), often in
    brackets: weights 9..2 with a lone letter's blank as 36, mod 11. Source: Immigration Department, HKID check."""
    code = _compact(value)
    match = re.fullmatch(r"([A-Z]{1,2})(\d{6})([0-9A])", code)
    if not match:
        return False
    letters, number, check = match.groups()
    values = ([36] if len(letters) == 1 else []) + [ord(c) - 55 for c in letters] + [int(c) for c in number]
    remainder = (11 - _weighted(values, (9, 8, 7, 6, 5, 4, 3, 2)) % 11) % 11
    return check == ("A" if remainder == 10 else str(remainder))


def au_tfn(value: str) -> bool:
    """Australia's tax file number: nine digits (eight for old ones) whose weighted sum is a multiple of 11.
    Source: ATO, TFN algorithm as published to software developers."""
    digits = _digits(value)
    if _repeated(digits):
        return False
    if len(digits) == 9:
        return _mod11_weighted(digits, (1, 4, 3, 7, 5, 8, 6, 9, 10))
    return len(digits) == 8 and _mod11_weighted(digits, (10, 7, 8, 4, 6, 3, 5, 1))


def au_medicare(value: str) -> bool:
    """Australia's Medicare card number: ten digits (the first 2-6), the ninth the check of the first eight
    (weights 1,3,7,9,1,3,7,9, mod 10), the tenth the issue number (an eleventh, the person's place on the card, may
    follow). Source: Services Australia, Medicare card number check digit."""
    digits = _digits(value)
    if len(digits) == 11:
        digits = digits[:10]
    if len(digits) != 10 or digits[0] not in "23456":
        return False
    return _weighted([int(c) for c in digits[:8]], (1, 3, 7, 9, 1, 3, 7, 9)) % 10 == int(digits[8])


def nz_ird(value: str) -> bool:
    """New Zealand's IRD number: eight or nine digits between 10,000,000 and 150,000,000, the last the mod-11
    check on weights 3,2,7,6,5,4,3,2 (or 7,4,3,2,5,2,7,6 where that gives 10). Source: Inland Revenue, IRD number
    validation (Payroll and software developers' specification)."""
    digits = _digits(value)
    if not 8 <= len(digits) <= 9 or not 10_000_000 <= int(digits) <= 150_000_000:
        return False
    body = [int(c) for c in digits[:-1].zfill(8)]
    for weights in ((3, 2, 7, 6, 5, 4, 3, 2), (7, 4, 3, 2, 5, 2, 7, 6)):
        remainder = _weighted(body, weights) % 11
        check = 0 if remainder == 0 else 11 - remainder
        if check != 10:
            return check == int(digits[-1])
    return False


def il_teudat_zehut(value: str) -> bool:
    """Israel's identity number (teudat zehut): nine digits (leading zeros kept) passing the Luhn-style check.
    Source: Ministry of the Interior (Population and Immigration Authority), check-digit algorithm."""
    digits = _digits(value)
    return len(digits) == 9 and not _repeated(digits) and luhn(digits)


# --- Africa and the Americas ---------------------------------------------------------------------------------


def za_id(value: str) -> bool:
    """South Africa's identity number YYMMDDSSSSCAZ: a real birth date, citizenship 0-2, and Luhn over all
    thirteen digits. Source: Identification Act 68 of 1997; Department of Home Affairs, ID number structure."""
    digits = _digits(value)
    if len(digits) != 13 or digits[10] not in "012":
        return False
    if not _valid_day_month(int(digits[4:6]), int(digits[2:4])):
        return False
    return luhn(digits)


_CURP_ALPHABET = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
_CURP_LAYOUT = re.compile(
    r"[A-Z][AEIOUX][A-Z]{2}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[HMX]"
    r"(?:AS|B[CS]|C[CLMSH]|D[FG]|G[TR]|HG|JC|M[CNS]|N[ETL]|OC|PL|Q[TR]|S[PLR]|T[CSL]|VZ|YN|ZS|NE)"
    r"[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z]\d")


def mx_curp(value: str) -> bool:
    """Mexico's CURP: name letters, a birth date, sex, state, consonants, a homonym character and the check digit
    (weights 18..2 on the alphabet 0-9A-NÑO-Z, mod 10). Source: RENAPO, Instructivo normativo para la asignación
    de la CURP (DOF 18/10/2021)."""
    code = value.upper()
    if not _CURP_LAYOUT.fullmatch(code):
        return False
    total = sum(_CURP_ALPHABET.index(c) * (18 - i) for i, c in enumerate(code[:17]))
    return (10 - total % 10) % 10 == int(code[17])


def dni_shape(value: str) -> bool:
    """An Argentine or Peruvian DNI after its label: seven or eight digits (Argentina dots them in thousands), no
    check digit; one digit repeated is a placeholder. Source: RENAPER (Argentina), RENIEC (Peru)."""
    digits = _digits(value)
    return 7 <= len(digits) <= 8 and not _repeated(digits)


# --- the identifiers that were already read after their label --------------------------------------------------


def br_cpf(value: str) -> bool:
    """Brazil's CPF: eleven digits, two mod-11 check digits. Source: Receita Federal, IN RFB 1.548/2015."""
    digits = [int(c) for c in _digits(value)]
    if len(digits) != 11 or _repeated(_digits(value)):
        return False
    for n in (9, 10):
        total = sum(d * w for d, w in zip(digits[:n], range(n + 1, 1, -1), strict=True))
        check = (total * 10) % 11 % 10
        if check != digits[n]:
            return False
    return True


def ca_sin(value: str) -> bool:
    """Canada's Social Insurance Number: nine digits, Luhn (the first digit is the province; sample numbers
    such as 046 454 286 are valid in shape and checksum and are hidden like real ones). Source: Employment and
    Social Development Canada, SIN check."""
    digits = _digits(value)
    return len(digits) == 9 and not _repeated(digits) and luhn(digits)


def tr_tckn(value: str) -> bool:
    """Türkiye's T.C. kimlik no: eleven digits, no leading 0, the tenth and eleventh digits its checksum.
    Source: Nüfus ve Vatandaşlık İşleri Genel Müdürlüğü, T.C. kimlik numarası algorithm."""
    digits = [int(c) for c in _digits(value)]
    if len(digits) != 11 or digits[0] == 0:
        return False
    odd, even = sum(digits[0:9:2]), sum(digits[1:8:2])
    return (odd * 7 - even) % 10 == digits[9] and sum(digits[:10]) % 10 == digits[10]


_PAN = re.compile(r"[A-Z]{5}\d{4}[A-Z]")


def in_pan(value: str) -> bool:
    """India's PAN: five letters, four digits, a letter. No check digit is published, so the shape and the
    label decide (the fourth letter is the holder's kind, P a person, but examples such as ABCDE1234F are
    written with any letter there and are hidden too); 0000 is no serial. Source: Income Tax Department."""
    return bool(_PAN.fullmatch(value)) and value[5:9] != "0000"


def co_cedula(value: str) -> bool:
    """Colombia's cédula de ciudadanía or tarjeta de identidad: six to eleven digits (dotted in thousands or
    not); no check digit. A year alone is not one. Source: Registraduría Nacional del Estado Civil."""
    digits = _digits(value)
    return 6 <= len(digits) <= 11 and not _repeated(digits)


def cl_rut(value: str) -> bool:
    """Chile's RUT/RUN: seven or eight digits and a mod-11 check character (0-9 or K). Source: Servicio de
    Impuestos Internos, módulo 11."""
    body, _, check = value.upper().replace(".", "").replace(" ", "").rpartition("-")
    if not body.isdigit() or not 7 <= len(body) <= 8 or len(check) != 1 or _repeated(body):
        return False
    total = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(body)))
    expected = 11 - total % 11
    return check == {11: "0", 10: "K"}.get(expected, str(expected))



def is_kennitala(value: str) -> bool:
    """Iceland's kennitala DDMMYY-RRCK: a real date, the mod-11 check digit C over the first eight digits (weights
    3 2 7 6 5 4 3 2; a remainder giving 10 is never issued) and the century digit K (9 or 0; 8, the 1800s, no
    living person's). A company's number adds 40 to the day and is no person's. Source: Þjóðskrá Íslands, Kennitala (structure and check digit)."""
    digits = _digits(value)
    if len(digits) != 10 or digits[9] not in "90":
        return False
    century = 1900 if digits[9] == "9" else 2000
    if not _born(century + int(digits[4:6]), int(digits[2:4]), int(digits[0:2])):
        return False
    rest = _weighted([int(c) for c in digits[:8]], (3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return rest != 1 and (0 if rest == 0 else 11 - rest) == int(digits[8])


def gr_amka(value: str) -> bool:
    """Greece's AMKA (11 digits): the holder's birth date DDMMYY, four serial digits and a Luhn check digit.
    Source: Ministry of Labour and Social Affairs, AMKA structure (ΦΕΚ Β' 1581/2001); the check is Luhn's."""
    digits = _digits(value)
    if len(digits) != 11 or _repeated(digits):
        return False
    day, month, year = int(digits[0:2]), int(digits[2:4]), int(digits[4:6])
    if not (_born(1900 + year, month, day) or _born(2000 + year, month, day)):
        return False
    return luhn(digits)


def hr_oib(value: str) -> bool:
    """Croatia's OIB (11 digits): ISO 7064 MOD 11,10 check digit over the first ten. Source: Porezna uprava, Zakon
    o osobnom identifikacijskom broju (NN 60/08), and ISO/IEC 7064."""
    digits = _digits(value)
    if len(digits) != 11 or _repeated(digits):
        return False
    a = 10
    for ch in digits[:10]:
        a = (a + int(ch)) % 10 or 10
        a = a * 2 % 11
    return (11 - a) % 10 == int(digits[10])


def yu_jmbg(value: str) -> bool:
    """The JMBG of the former Yugoslav states (Slovenia's EMŠO, Serbia's, Bosnia's, Montenegro's and North
    Macedonia's matični broj) DDMMYYYRRBBBK: a real date (YYY 9xx for 19xx, 0xx for 20xx), region, serial and a
    mod-11 check digit (weights 7 6 5 4 3 2 twice; 11 gives 0, 10 is never issued). Source: Zakon o jedinstvenom
    matičnom broju građana (SFRJ, 1976), structure and check digit."""
    digits = _digits(value)
    if len(digits) != 13 or _repeated(digits):
        return False
    yyy = int(digits[4:7])
    year = 1000 + yyy if yyy >= 800 else 2000 + yyy
    if not _born(year, int(digits[2:4]), int(digits[0:2])):
        return False
    check = 11 - _weighted([int(c) for c in digits[:12]], (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return check != 10 and (0 if check == 11 else check) == int(digits[12])


def hu_taj(value: str) -> bool:
    """Hungary's TAJ number (9 digits, "047 812 363"): the ninth digit is the first eight weighted 3 7 3 7 ...
    mod 10. Source: 1996. évi XX. törvény (személyazonosító jel helyébe lépő azonosítási módok), TAJ structure."""
    digits = _digits(value)
    if len(digits) != 9 or _repeated(digits):
        return False
    return _weighted([int(c) for c in digits[:8]], (3, 7, 3, 7, 3, 7, 3, 7)) % 10 == int(digits[8])


NATIONAL_ID_VALIDATORS: Mapping[str, Callable[[str], bool]] = MappingProxyType({
    "pl_pesel": pl_pesel, "it_codice_fiscale": it_codice_fiscale, "es_dni": es_dni, "es_nie": es_nie,
    "cz_rodne_cislo": cz_rodne_cislo, "be_national_number": be_national_number, "fi_hetu": fi_hetu,
    "fr_nir": fr_nir, "no_fodselsnummer": no_fodselsnummer, "se_personnummer": se_personnummer, "dk_cpr": dk_cpr,
    "nl_bsn": nl_bsn, "ro_cnp": ro_cnp, "bg_egn": bg_egn, "ee_isikukood": ee_isikukood, "ch_ahv": ch_ahv,
    "at_svnr": at_svnr, "ie_ppsn": ie_ppsn, "uk_nino": uk_nino, "cn_resident_id": cn_resident_id,
    "tw_national_id": tw_national_id, "kr_rrn": kr_rrn, "in_aadhaar": in_aadhaar, "jp_my_number": jp_my_number,
    "sg_nric": sg_nric, "hk_id": hk_id, "au_tfn": au_tfn, "au_medicare": au_medicare, "nz_ird": nz_ird,
    "il_teudat_zehut": il_teudat_zehut, "za_id": za_id, "mx_curp": mx_curp, "dni_shape": dni_shape,
    "br_cpf": br_cpf, "ca_sin": ca_sin, "tr_tckn": tr_tckn, "in_pan": in_pan, "co_cedula": co_cedula,
    "cl_rut": cl_rut, "is_kennitala": is_kennitala, "gr_amka": gr_amka, "hr_oib": hr_oib, "yu_jmbg": yu_jmbg,
    "hu_taj": hu_taj,
})
"""Validator name (as the rules of rules/national_ids.yaml name it) -> function."""
