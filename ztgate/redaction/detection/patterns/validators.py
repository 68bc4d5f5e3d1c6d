"""Post-match validators for the pattern tier: small pure functions named in the rule catalogue.

Every validator takes the matched value (the text the rule would redact) and answers True (a real
finding), False (a near miss: drop it) or None (no opinion: keep it at the rule's score).
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import functools
import ipaddress
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType

import phonenumbers

from ztgate.redaction.detection.patterns.calendars import calendar_date
from ztgate.redaction.detection.patterns.national_ids import NATIONAL_ID_VALIDATORS, luhn
from ztgate.redaction.detection.wordlists import FUNCTION_WORDS, TECHNICAL_WORDS, words

Validator = Callable[[str], bool | None]

_NON_DIGITS = re.compile(r"\D")
_SEPARATORS = re.compile(r"[\s.\-/]")


def _digits(value: str) -> str:
    return _NON_DIGITS.sub("", value)


# --- payment cards -----------------------------------------------------------------------------


# (issuer prefix range low, high, prefix length, allowed lengths)
_CARD_ISSUERS: tuple[tuple[int, int, int, frozenset[int]], ...] = (
    (4, 4, 1, frozenset({13, 16, 19})),  # Visa
    (51, 55, 2, frozenset({16})),  # Mastercard
    (2221, 2720, 4, frozenset({16})),  # Mastercard 2-series
    (34, 34, 2, frozenset({15})),  # American Express
    (37, 37, 2, frozenset({15})),  # American Express
    (6011, 6011, 4, frozenset({16, 17, 18, 19})),  # Discover
    (644, 649, 3, frozenset({16, 17, 18, 19})),  # Discover
    (65, 65, 2, frozenset({16, 17, 18, 19})),  # Discover
    (622126, 622925, 6, frozenset({16, 17, 18, 19})),  # Discover / China UnionPay co-brand
    (62, 62, 2, frozenset({16, 17, 18, 19})),  # China UnionPay
    (3528, 3589, 4, frozenset({16, 17, 18, 19})),  # JCB
    (300, 305, 3, frozenset({14, 16, 17, 18, 19})),  # Diners Club
    (36, 36, 2, frozenset({14, 16, 17, 18, 19})),  # Diners Club
    (38, 39, 2, frozenset({16, 17, 18, 19})),  # Diners Club
    (2200, 2204, 4, frozenset({16, 17, 18, 19})),  # Mir
    (50, 50, 2, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),  # Maestro
    (56, 58, 2, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),  # Maestro
    (639, 639, 3, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),  # Maestro
    (6759, 6759, 4, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),  # Maestro UK
)


def credit_card(value: str) -> bool:
    """A known issuer prefix with one of its lengths, the Luhn checksum, and not one digit repeated."""
    digits = _digits(value)
    n = len(digits)
    if n < 12 or n > 19 or len(set(digits)) == 1:
        return False
    for low, high, width, lengths in _CARD_ISSUERS:
        if n in lengths and low <= int(digits[:width]) <= high:
            return luhn(digits)
    return False


# --- IBAN --------------------------------------------------------------------------------------

# ISO 13616 registry: country code -> IBAN length.
_IBAN_LENGTHS: Mapping[str, int] = MappingProxyType({
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
    "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
    "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
    "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
    "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
})


def iban(value: str) -> bool:
    """ISO 13616: registered country, that country's length, and the mod-97 check equal to 1."""
    compact = _SEPARATORS.sub("", value).upper()
    if len(compact) < 15 or not compact.isalnum() or not compact.isascii():
        return False
    if _IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


# --- US social security numbers ---------------------------------------------------------------

# Numbers that circulate widely but were never (validly) issued.
_INVALID_SSNS: frozenset[str] = frozenset({
    "078051120",  # the Woolworth wallet card
    "219099999",  # printed in a Social Security Administration pamphlet
    "123456789",  # the universal placeholder
})


def us_ssn(value: str) -> bool:
    """SSA rules: area not 000, 666 or 9xx; group not 00; serial not 0000; not a known invalid number."""
    digits = _digits(value)
    if len(digits) != 9 or len(set(digits)) == 1:
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return digits not in _INVALID_SSNS


# --- network identifiers ----------------------------------------------------------------------


def ip_address(value: str) -> bool:
    """IPv4 or IPv6 that could point at a host or person: not loopback, not unspecified (0.0.0.0, ::).

    Parsing is the `ipaddress` module's (so no leading zeros in IPv4 octets). IPv6 candidates shaped
    like code are refused: without a decimal digit ("Foo::Bad", "dead::beef"), or compressed with no
    group of 3+ hex digits, as in the slices `a[1::2]` and `t[::2]`.
    """
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    if address.is_loopback or address.is_unspecified:
        return False
    if address.version == 6:
        if not any(ch.isdigit() for ch in value):
            return False
        if "::" in value and max(len(group) for group in re.split(r"[:.]", value)) < 3:
            return False
    return True


_MAC = re.compile(
    r"[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}"
)


def mac_address(value: str) -> bool:
    """EUI-48 with one consistent separator (':' or '-') or Cisco dotted form; not all-zero."""
    if not _MAC.fullmatch(value):
        return False
    hexdigits = re.sub(r"[^0-9A-Fa-f]", "", value)
    return hexdigits.strip("0") != ""


# --- phone numbers ----------------------------------------------------------------------------


def phone_us(value: str) -> bool:
    """A North American number: 10 digits (11 with a leading 1), area code not starting with 0 or 1.

    Deliberately looser than `phonenumbers.is_valid_number`, which refuses the 555 numbers that fill
    examples and test data; the rule patterns already demand a phone-like layout or phone context.
    """
    digits = _digits(value)
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    if len(digits) != 10 or digits[0] in "01":
        return False
    return len(set(digits)) > 2


def phone_us_strict(value: str) -> bool:
    """A bare North American number that `phonenumbers` holds valid: an area code and exchange in service."""
    digits = _digits(value)
    if not phone_us(digits):
        return False
    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse(digits, "US")))
    except phonenumbers.NumberParseException:
        return False


def phone_international(value: str) -> bool:
    """An international number with a country code: `phonenumbers` says its length is possible there (seven digits
    at least: the shortest plans, Tokelau's +690 7290, have four after the code)."""
    digits = _digits(value)
    if not 7 <= len(digits) <= 15:
        return False
    try:
        number = phonenumbers.parse(value if value.lstrip().startswith("+") else "+" + digits, None)
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_possible_number(number))


_DATE_LIKE = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2}(?:\d{2})?|\d{1,3}(?:\.\d{1,3}){3}"
)


# Regions whose national numbers are dialled with a leading 0 (the trunk prefix), where a number written the
# way that region's numbering plan lays it out ("020 7946 0958", "030 12345678", "01 23 45 67 89") is a phone
# number without any word around it. Looked up by digit count, so a candidate costs a few parses, not ~40.
# Not Argentina: its mobile layout inserts a "15" that the digits alone do not parse back to.
_NATIONAL_REGIONS = ("GB", "IE", "DE", "AT", "CH", "FR", "BE", "NL", "IT", "SE", "FI", "AU", "NZ", "ZA", "IN",
                     "JP", "KR", "CN", "TW", "BR", "TR", "IL", "EG", "NG", "KE", "PK", "PH", "TH", "VN",
                     "ID", "MY", "UA", "RO")
_GROUPS = re.compile(r"\d+")


def _regions_by_length() -> dict[int, tuple[str, ...]]:
    """Digit count of a national number (its leading 0 included) -> the regions where that length is possible."""
    by_length: dict[int, list[str]] = {}
    for region in _NATIONAL_REGIONS:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is None or meta.general_desc is None:
            continue
        for length in meta.general_desc.possible_length:
            by_length.setdefault(length + 1, []).append(region)
    return {length: tuple(regions) for length, regions in by_length.items()}


_NATIONAL_BY_LENGTH = _regions_by_length()


def phone_national(value: str) -> bool:
    """A number in national format (leading trunk 0) grouped exactly as some region's numbering plan formats
    it, and possible there: the layout is the evidence, so no phone word is needed.

    Only the digit groups are compared, so spaces, dashes, dots and brackets around the area code all count
    ("(0161) 496 0000"). Ofcom's drama ranges (07700 900123), which `phonenumbers` holds invalid but which
    fill examples and test data, pass on layout and possible length.
    """
    digits = _digits(value)
    groups = _GROUPS.findall(value)
    if not digits.startswith("0") or len(groups) < 2 or len(set(digits)) <= 2:
        return False
    if _DATE_LIKE.fullmatch(value.strip()):
        return False
    for region in _NATIONAL_BY_LENGTH.get(len(digits), ()):
        try:
            number = phonenumbers.parse(digits, region)
        except phonenumbers.NumberParseException:
            continue
        if not phonenumbers.is_possible_number(number):
            continue
        laid_out = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
        if _GROUPS.findall(laid_out) == groups:
            return True
        if _chunked(value, groups) and phonenumbers.is_valid_number(number):
            return True
    return False


def _chunked(value: str, groups: list[str]) -> bool:
    """The way people split a national number in threes when they do not follow the plan's layout ("07913 528
    114", "0171 234 5678"): a trunk group of three to five digits, then groups of three (the last may have four),
    spaces only. Only a number the plan holds valid (not just possible) passes this way; pairs and fours ("09 12
    34 5678", "0123 4567 8901") and dotted groups (dates) stay refused."""
    return (len(groups) >= 3 and 3 <= len(groups[0]) <= 5 and all(len(g) == 3 for g in groups[1:-1])
            and len(groups[-1]) in (3, 4) and re.fullmatch(r"[\d ]+", value.strip()) is not None)


def phone_any(value: str) -> bool:
    """A number given next to phone context: NANP, international, or a 7-15 digit national number.

    Dates (2024-03-15, 15/03/2024) and dotted quads, which the loose phone layout also matches, are refused.
    """
    if value.lstrip().startswith("+"):
        return phone_international(value)
    if _DATE_LIKE.fullmatch(value.strip()):
        return False
    digits = _digits(value)
    return 7 <= len(digits) <= 15 and len(set(digits)) > 2


# --- dates of birth ---------------------------------------------------------------------------

_MONTHS: Mapping[str, int] = MappingProxyType({
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
            ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
            ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ),
        start=1,
    )
    for name in names
})
# A space may follow a dot ("14. 6. 1988", as Czech, Slovak, German and Hungarian write dates).
_NUMERIC_DATE = re.compile(r"(\d{1,4})(?:[-/.] ?| )(\d{1,2})(?:[-/.] ?| )(\d{1,4})")
# Month-name dates as people write them: "March 3, 1985", "3rd of March 1985", "03-Mar-1985", "3 Mar '85".
_TEXT_DATE_MDY = re.compile(r"([a-z]+)\.?[\s\-]+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+|-)(\d{4}|['’]\d{2})", re.I)
_TEXT_DATE_DMY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?(?:\s+(?:of\s+)?|-)([a-z]+)\.?(?:,?\s+|-)(\d{4}|['’]\d{2})",
                            re.I)
_COMPACT_DATE = re.compile(r"((?:19|20)\d{2})(\d{2})(\d{2})")  # 19850314: year, month, day
_EARLIEST_BIRTH_YEAR = 1900


def _plausible_birth(year: int, month: int, day: int, today: _dt.date) -> bool:
    try:
        born = _dt.date(year, month, day)
    except ValueError:
        return False
    return _EARLIEST_BIRTH_YEAR <= year and born <= today


def _expand_year(year: str, today: _dt.date) -> int:
    if len(year) == 4:
        return int(year)
    if len(year) != 2:
        return -1
    short = int(year)
    # A two-digit birth year is in the past: '85 is 1985, '05 is 2005 only if that is not in the future.
    return 2000 + short if 2000 + short <= today.year else 1900 + short


def _text_year(year: str, today: _dt.date) -> int:
    """The year of a month-name date: four digits, or two after an apostrophe ('85)."""
    return _expand_year(year.lstrip("'’"), today)


def date_of_birth(value: str, *, today: _dt.date | None = None) -> bool:
    """A real calendar date between 1900 and today in ISO, D/M/Y, M/D/Y or month-name form.

    Day-first and month-first readings are both tried: either being plausible is enough.
    """
    today = today or _dt.date.today()
    text = value.strip()
    if m := _NUMERIC_DATE.fullmatch(text):
        a, b, c = m.groups()
        if len(a) == 4:  # ISO-like: year first
            return _plausible_birth(int(a), int(b), int(c), today)
        if len(a) > 2:
            return False
        year = _expand_year(c, today)
        first, second = int(a), int(b)
        return _plausible_birth(year, second, first, today) or _plausible_birth(year, first, second, today)
    if m := _COMPACT_DATE.fullmatch(text):
        return _plausible_birth(int(m.group(1)), int(m.group(2)), int(m.group(3)), today)
    if m := _TEXT_DATE_MDY.fullmatch(text):
        month = _MONTHS.get(m.group(1).lower())
        return month is not None and _plausible_birth(_text_year(m.group(3), today), month, int(m.group(2)), today)
    if m := _TEXT_DATE_DMY.fullmatch(text):
        month = _MONTHS.get(m.group(2).lower())
        return month is not None and _plausible_birth(_text_year(m.group(3), today), month, int(m.group(1)), today)
    return False


_LATEST_PERSONAL_YEAR = 2199


def _real_date(year: int, month: int, day: int) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return _EARLIEST_BIRTH_YEAR <= year <= _LATEST_PERSONAL_YEAR


def personal_date(value: str) -> bool:
    """A real calendar date of 1900-2199 in ISO, D/M/Y, M/D/Y or month-name form: the date of an event in a
    person's life (a birthday to come, an admission, a discharge, a wedding), which may lie in the future.

    Whether the date is tied to a person is the rule's context (required words), not the validator's.
    """
    text = value.strip()
    if m := _NUMERIC_DATE.fullmatch(text):
        a, b, c = m.groups()
        if len(a) == 4:  # ISO-like: year first
            return _real_date(int(a), int(b), int(c))
        year = _expand_year(c, _dt.date.today())
        if len(a) > 2 or year < 0:
            return False
        first, second = int(a), int(b)
        return _real_date(year, second, first) or _real_date(year, first, second)
    if m := _COMPACT_DATE.fullmatch(text):
        return _real_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    today = _dt.date.today()
    if m := _TEXT_DATE_MDY.fullmatch(text):
        month = _MONTHS.get(m.group(1).lower())
        return month is not None and _real_date(_text_year(m.group(3), today), month, int(m.group(2)))
    if m := _TEXT_DATE_DMY.fullmatch(text):
        month = _MONTHS.get(m.group(2).lower())
        return month is not None and _real_date(_text_year(m.group(3), today), month, int(m.group(1)))
    return False


# Month names of other languages, as dates are written in them (Polish in the genitive of "12 marca 1990"),
# with the spellings that drop their accents; lower case. Written by hand from general knowledge of them.
_INTL_MONTHS: Mapping[str, int] = MappingProxyType({
    name: number
    for number, names in enumerate(
        (
            ("ocak", "januar", "jänner", "janvier", "enero", "janeiro", "gennaio", "januari", "stycznia"),
            ("şubat", "subat", "februar", "février", "fevrier", "febrero", "fevereiro", "febbraio", "februari",
             "lutego"),
            ("mart", "märz", "maerz", "marz", "mars", "marzo", "março", "marco", "maart", "marca"),
            ("nisan", "april", "avril", "abril", "aprile", "kwietnia"),
            ("mayıs", "mayis", "mai", "mayo", "maio", "maggio", "mei", "maja"),
            ("haziran", "juni", "juin", "junio", "junho", "giugno", "czerwca"),
            ("temmuz", "juli", "juillet", "julio", "julho", "luglio", "lipca"),
            ("ağustos", "agustos", "august", "août", "aout", "agosto", "augustus", "sierpnia"),
            ("eylül", "eylul", "september", "septembre", "septiembre", "setiembre", "setembro", "settembre",
             "września", "wrzesnia"),
            ("ekim", "oktober", "octobre", "octubre", "outubro", "ottobre", "października", "pazdziernika"),
            ("kasım", "kasim", "november", "novembre", "noviembre", "novembro", "listopada"),
            ("aralık", "aralik", "dezember", "décembre", "decembre", "diciembre", "dezembro", "dicembre",
             "december", "grudnia"),
        ),
        start=1,
    )
    for name in names
})
# Russian, Ukrainian, Bulgarian, Greek (genitive) and Finnish (partitive) month names (ADR 0032), in the same order.
_INTL_MONTHS = MappingProxyType({**_INTL_MONTHS, **{
    name: number
    for number, names in enumerate(
        (
            ("января", "січня", "януари", "ιανουαρίου", "tammikuuta"),
            ("февраля", "лютого", "февруари", "φεβρουαρίου", "helmikuuta"),
            ("марта", "березня", "март", "μαρτίου", "maaliskuuta"),
            ("апреля", "квітня", "април", "απριλίου", "huhtikuuta"),
            ("мая", "травня", "май", "μαΐου", "toukokuuta"),
            ("июня", "червня", "юни", "ιουνίου", "kesäkuuta"),
            ("июля", "липня", "юли", "ιουλίου", "heinäkuuta"),
            ("августа", "серпня", "август", "αυγούστου", "elokuuta"),
            ("сентября", "вересня", "септември", "σεπτεμβρίου", "syyskuuta"),
            ("октября", "жовтня", "октомври", "οκτωβρίου", "lokakuuta"),
            ("ноября", "листопада", "ноември", "νοεμβρίου", "marraskuuta"),
            ("декабря", "грудня", "декември", "δεκεμβρίου", "joulukuuta"),
        ),
        start=1,
    )
    for name in names
}})
_INTL_TEXT_DATE = re.compile(r"(\d{1,2})(?:\.|er|º|ª)?\s+(?:de\s+)?([^\W\d_]+)\.?,?\s+(?:de\s+)?(\d{4})")
_CJK_DATE = re.compile(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日号일]?")
_DAY_MONTH = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?|([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?",
                        re.I)


def intl_date(value: str) -> bool:
    """A real calendar date of 1900-2199 written with a month name of another language ("12 Mart 1990",
    "3. Mai 1985", "9 de agosto de 1991") or in CJK year-month-day form ("1988年7月3日", "1988년 7월 3일")."""
    text = value.strip()
    if m := _CJK_DATE.fullmatch(text):
        return _real_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := _INTL_TEXT_DATE.fullmatch(text):
        month = _INTL_MONTHS.get(m.group(2).casefold()) or _MONTHS.get(m.group(2).casefold())
        return month is not None and _real_date(int(m.group(3)), month, int(m.group(1)))
    return False


def day_month(value: str) -> bool:
    """A real day of a month named in English, without a year ("3 March", "June 2nd", "3rd of March"): a
    birthday when an age or birthday word comes before it (the rule's context)."""
    m = _DAY_MONTH.fullmatch(value.strip())
    if m is None:
        return False
    day, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    month = _MONTHS.get(name.lower())
    return month is not None and _real_date(2000, month, int(day))  # 2000: a leap year, so 29 February is real


# --- secrets ----------------------------------------------------------------------------------


_C_LOG2_C = tuple(c * math.log2(c) if c else 0.0 for c in range(257))  # c·log2(c) for small counts


def shannon_entropy(value: str) -> float:
    """Shannon entropy of the characters of `value`, in bits per character."""
    n = len(value)
    if n == 0:
        return 0.0
    table = _C_LOG2_C
    total = 0.0
    for c in Counter(value).values():
        total += table[c] if c <= 256 else c * math.log2(c)
    return math.log2(n) - total / n


_PLACEHOLDER_WORDS: frozenset[str] = frozenset({
    "true", "false", "yes", "no", "on", "off", "null", "none", "nil", "undefined", "empty", "required",
    "optional", "string", "str", "password", "passwd", "secret", "token", "changeme", "change_me",
    "example", "redacted", "hidden", "masked", "n/a", "na", "todo", "tbd", "value", "foo", "bar", "baz",
    "foobar", "bytes", "int", "bool", "any", "secretstr", "sensitive", "not", "self", "lambda", "await",
    "new", "function", "nothing", "unset", "missing", "blank", "default", "dummy", "fake", "sample",
})
_MASK_CHARACTERS = frozenset("xX*.-_#?•")
# References and templates: ${DB_PASS}, $PASS, $(cat f), %(pw)s, %s, {{ pw }}, {pw}, <password>, [secret],
# getenv(...), os.environ[...], process.env.X, self.password, config["db"]["password"], ...
# Used with fullmatch on values of any length, so no alternative may backtrack more than linearly: a
# name holding a key word is a lookahead (found once) then one run, not `[a-z_]*WORD[a-z_]*`, which
# retries the tail from every place the word occurs ("passpass...pass1" cost its length squared).
_PLACEHOLDER_SHAPE = re.compile(
    r"""
      \$\{[^}]*\}? | \$[A-Za-z_][A-Za-z0-9_]* | \$\([^)]*\)? | %\([^)]*\)s | %[sd] | \{\{.*\}?\}? | \{[A-Za-z_]\w*\}
    | <[^<>]*>? | \[[^\[\]]*\]?
    | (?:os\.)?getenv\(.* | os\.environ.* | process\.env.* | env\(.* | ENV\[.*
    | (?:self|this|cls|args|kwargs|config|conf|cfg|settings|options|opts|params|secrets|vault|request|req|user)
      (?:\.[A-Za-z_]\w*|\[[^\]]*\])+ (?:\(\))?
    | (?:your|my)[_\-]\w*
    | (?-i:(?=[a-z_]*(?:password|passwd|pwd|pass|secret|token))[a-z_]*)  # a variable: password=db_password
    | (?-i:(?=[A-Z_]*(?:PASSWORD|PASSWD|PWD|PASS|SECRET|TOKEN))[A-Z_]*)  # a constant: password=DB_PASSWORD
    | \w+\[.*                                                        # a type: Optional[str]
    | [A-Za-z_][\w.]*\(.*                                           # a call: parse_password(line)
    | [A-Za-z_]+(?:\.[A-Za-z_]+)+                                    # an attribute path: params.ClientSecret
    """,
    re.IGNORECASE | re.VERBOSE,
)


def password_value(value: str) -> bool:
    """The value of a `password=`/`secret:` assignment, unless it is a placeholder or a reference.

    Refuses booleans and nulls, masks (`***`, `xxxx`), template and environment references
    (`${DB_PASS}`, `{{ pw }}`, `<password>`, `os.environ[...]`, `self.password`), "your_password_here",
    and the bare words `password`/`secret`.
    """
    text = value.strip().strip("\"'`").rstrip(")]},;:.!?").strip("\"'`")
    lower = text.lower()
    if not text or lower in _PLACEHOLDER_WORDS or set(text) <= _MASK_CHARACTERS:
        return False
    if lower.endswith(("_here", "-here", "placeholder")):
        return False
    return _PLACEHOLDER_SHAPE.fullmatch(text) is None


def password_like(value: str) -> bool:
    """A password named in prose ("my password is Tr0ub4dor&3"): a digit, a symbol or inner capitals.

    "the password is strict" or "password is Correct" are sentences, not credentials.
    """
    text = value.strip()
    if len(text) < 4 or not password_value(text):
        return False
    if any(ch.isdigit() for ch in text):
        return True
    if any(not ch.isalnum() and ch not in "-'" for ch in text):
        return True
    return any(ch.isupper() for ch in text[1:]) and any(ch.islower() for ch in text)


_HASH_NAMES = frozenset({"sha1", "sha256", "sha512", "sha384", "sha224", "md5", "bcrypt", "argon2", "argon2id",
                         "pbkdf2", "scrypt", "utf8", "utf-8", "base64", "aes256", "aes-256", "rsa2048", "2fa", "mfa"})


def password_token(value: str) -> bool:
    """A password written right after the word ("with password battery-staple-73"): 6+ characters, a letter,
    and a digit or a symbol; not a placeholder nor an algorithm name (sha256, bcrypt, utf-8).
    """
    text = value.strip()
    if len(text) < 6 or not password_value(text) or text.lower() in _HASH_NAMES:
        return False
    if not any(ch.isalpha() for ch in text):
        return False
    return any(ch.isdigit() for ch in text) or any(not ch.isalnum() and ch not in "-'" for ch in text)


_HEX = re.compile(r"[0-9a-fA-F]+")
_DIGIT = re.compile(r"[0-9]")


def _mixes_cases_and_digits(text: str) -> bool:
    """Upper case, lower case and a digit, as random keys have (string methods, not a per-character loop)."""
    return text != text.lower() and text != text.upper() and _DIGIT.search(text) is not None
_WORDY = re.compile(r"[_.]*[A-Za-z]+(?:[_.\-/:]+[A-Za-z]+)*[_.()\-]*")
_CAMEL_WORDS = re.compile(r"[A-Za-z][a-z]{2,}(?:[A-Z][a-z]{2,})*")
_SNAKE_IDENTIFIER = re.compile(r"_*[a-z][a-z0-9]*(?:_+[a-z0-9]+){2,}_*|_*[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+){2,}_*")
_CAMEL_IDENTIFIER = re.compile(r"[a-z]{2,}[0-9]*(?:[A-Z][a-z]{2,}[0-9]*){2,}")
_MIN_SECRET_LENGTH = 16
_MIN_ENTROPY_HEX = 3.0  # bits per character; random hex of 16+ characters scores 3.4-4.0
_MIN_ENTROPY_OTHER = 3.3  # random base62/base64 of 16+ characters scores 3.6-6.0


def high_entropy_secret(value: str) -> bool:
    """A key-like value: at least 16 characters, random-looking, not a word or identifier.

    Hex values (API keys are often hex) need 3.0 bits per character, others 3.3. Values made only of
    letters pass only when the case changes often, as in base62 keys, not in `getTokenFromEnv` or
    `read_api_key_from_file`.
    """
    text = value.strip().strip("\"'`")
    if len(text) < _MIN_SECRET_LENGTH or not password_value(text):
        return False
    if len(set(text)) < 6:
        return False
    if _HEX.fullmatch(text):
        return shannon_entropy(text) >= _MIN_ENTROPY_HEX
    if _SNAKE_IDENTIFIER.fullmatch(text) or _CAMEL_IDENTIFIER.fullmatch(text):
        return False  # quantize_fp8_pad_head_dim, MAX_RETRY_COUNT_V2, getAccessTokenFromCache
    if not any(ch.isdigit() for ch in text):
        if _WORDY.fullmatch(text) and not _looks_random_letters(text):
            return False
    return shannon_entropy(text) >= _MIN_ENTROPY_OTHER


def _looks_random_letters(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) != len(text) or _CAMEL_WORDS.fullmatch(text):
        return False
    flips = sum(1 for a, b in zip(letters, letters[1:], strict=False) if a.isupper() != b.isupper())
    return flips / len(letters) >= 0.25


def random_token(value: str) -> bool:
    """A vendor-prefixed token body: not a run of one character, a placeholder, or an English phrase."""
    text = value.strip()
    if not password_value(text) or len(set(text)) < 6:
        return False
    body = re.sub(r"^[A-Za-z]+[-_](?:[A-Za-z]+[-_])?", "", text)  # drop a prefix such as sk-proj-
    if "x" * 8 in body.lower() or "*" * 4 in body:
        return False
    if not any(ch.isdigit() for ch in body) and _WORDY.fullmatch(body) and not _looks_random_letters(body):
        return False
    return True


_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]+={0,2}")


def random_base64(value: str) -> bool:
    """A lone key-like run: 20-88 base64 characters with upper case, lower case and digits, high entropy.

    Shorter runs are words and ids, longer ones are data (images, certificates); identifiers such as
    `getAccessTokenFromCache2` and paths such as `/api/v2/Users` are refused.
    """
    if not 20 <= len(value) <= 88 or not _BASE64_RUN.fullmatch(value):
        return False
    if not _mixes_cases_and_digits(value):
        return False
    body = value.rstrip("=")
    if _looks_like_path(body) or _has_alphabet_run(body):
        return False
    if _CAMEL_IDENTIFIER.fullmatch(body) or _looks_like_identifier(body):
        return False
    return shannon_entropy(body) >= (4.0 if len(body) < 32 else 4.3)


def _looks_like_path(text: str) -> bool:
    """A path or URL tail (java/src/com/google/i18n/Util, org/cpython/file/7aaba721ebc0/Lib): three or more
    '/'-separated segments that are words of 3+ letters, which random base64 essentially never has."""
    return text.count("/") >= 2 and sum(1 for seg in text.split("/") if len(seg) >= 3 and seg.isalpha()) >= 3


_ALPHABETS = ("0123456789", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALPHABET_RUN = re.compile("|".join(a[i:i + 6] for a in _ALPHABETS for i in range(len(a) - 5)))


def _has_alphabet_run(text: str) -> bool:
    """Six or more consecutive characters of an alphabet (0123456789, abcdef, GHIJKL): a sample, not a key."""
    return _ALPHABET_RUN.search(text) is not None


_CAMEL_HUMP = re.compile(r"[A-Z][a-z]{2,}")
_DIGIT_RUN = re.compile(r"[0-9]+")


def _looks_like_identifier(text: str) -> bool:
    """CamelCase words with a digit run or two (NFCISO15693CustomCommandConfiguration, Data2VecTextForCausalLM).

    Capitalised humps cover 60%+ of such names, and their digits are clustered; in random base62 both
    together are rare (well under 1% at 32 characters, about 2% at 20), so a lone key is seldom refused.
    """
    covered = sum(len(h) for h in _CAMEL_HUMP.findall(text))
    return covered >= 0.6 * len(text) and len(_DIGIT_RUN.findall(text)) <= 2


_KEY_PREFIX = re.compile(r"[A-Za-z]{2,10}[-_]")  # key-, sk_, pat_ ...


def bare_secret(value: str) -> bool:
    """A lone value near key words: hex of 24+ digits, or a random base62/base64 run (mixed case and digits).

    An optional short vendor prefix (`key-`, `pat_`) is set aside first. Identifiers that happen to
    carry a digit (EsmFold2AtomEncoder, Qwen2_5OmniDecoderLayer, token_ids_0) are refused.
    """
    text = value.rstrip("=")
    if len(text) < _MIN_SECRET_LENGTH or not password_value(text):
        return False
    body = text[m.end():] if (m := _KEY_PREFIX.match(text)) and len(text) - m.end() >= _MIN_SECRET_LENGTH else text
    if _HEX.fullmatch(body):
        return len(body) >= 24 and shannon_entropy(body) >= _MIN_ENTROPY_HEX
    if not _mixes_cases_and_digits(body):
        return False
    segments = re.split(r"[-_]+", body)
    if len(segments) >= 3 and sum(1 for seg in segments if len(seg) >= 3 and seg.isalpha()) * 3 >= 2 * len(segments):
        return False  # snake or kebab words: Integral_conserved_2nd_order
    if _CAMEL_IDENTIFIER.fullmatch(body) or _looks_like_identifier(body):
        return False
    if _looks_like_path(body) or _has_alphabet_run(body):
        return False
    return shannon_entropy(body) >= 4.0


def aws_secret_key(value: str) -> bool:
    """40 base64 characters mixing upper case, lower case and digits, as random keys do (not a hex SHA-1)."""
    if len(value) != 40 or _HEX.fullmatch(value):
        return False
    if not _mixes_cases_and_digits(value):
        return False
    if _looks_like_path(value) or _looks_like_identifier(value) or _has_alphabet_run(value):
        return False  # org/cpython/file/7aaba721ebc0/Lib/socket, Data2VecAudioForAudioFrameClassification
    return shannon_entropy(value) >= 4.0


def _b64url_json(segment: str) -> object:
    padded = segment + "=" * (-len(segment) % 4)
    return json.loads(base64.urlsafe_b64decode(padded))


def jwt(value: str) -> bool:
    """A JSON Web Token: the header decodes to a JSON object naming `alg` or `typ`."""
    parts = value.split(".")
    if len(parts) < 3:
        return False
    try:
        header = _b64url_json(parts[0])
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and ("alg" in header or "typ" in header)


# --- names and street addresses ------------------------------------------------------------------

_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
# Words that end in "ring" without being a street: English -ing forms (offering, monitoring) and these.
# English words that end like Dutch streets (-pad, -hof, -baan, -kade, -dijk): keypads and hoofs.
_RING_NOT_STREET = re.compile(
    r"(?:[aeiouy]ring|spring|string|bring|keyring|^ring|(?:note|key|track|touch|launch|lily|heli|scratch|game|"
    r"num|mouse|ink|ip|bachelor|^)pad|(?:be|^)hoof|^hof|^baan|^kade|^dijk|^plein)$")


def _proper_name(value: str) -> bool:
    words = value.split()
    if not words or any(not _NAME_WORD.fullmatch(w) for w in words):
        return False
    capitalised = [w.casefold() for w in words if w[0].isupper()]
    named = [w for w in capitalised if w not in FUNCTION_WORDS]
    return bool(named) and not any(w in TECHNICAL_WORDS for w in named)


# The last word of a piece of software's name ("Zuul Gateway", "Billing API"): data/words/component_suffixes.txt.
_COMPONENT_SUFFIXES = words("component_suffixes")
_ORGANISATION_SUFFIXES = words("organisation_suffixes")


def person_name(value: str) -> bool:
    """A person's name next to a name label: each word a name word, none a technical or common word, the
    last not one that ends a piece of software's name.

    "Lot Blewanus", "Igor da Mata" and "O'Brien-Smith" pass; "Build And Test", "Hiring Manager",
    "Zuul Gateway", "The Ledger Authors" (an organisation's collective noun or legal form,
    ``data/words/organisation_suffixes.txt``) and "Docker" (in ``"name": "Docker"``) do not.
    """
    if not _proper_name(value):
        return False
    last = value.split()[-1].casefold()
    return last not in _COMPONENT_SUFFIXES and last not in _ORGANISATION_SUFFIXES


def place_name(value: str) -> bool:
    """A place next to a place label ("city: Lyon", "country=New Zealand"); "region: Default" is not one."""
    return _proper_name(value)


# Street suffixes that are also in TECHNICAL_WORDS ("Run"): judged by the words before them.
_SUFFIXES_THAT_ARE_TECHNICAL: frozenset[str] = frozenset({"run"})


def street_address(value: str) -> bool:
    """A street address whose words are not technical or common words ("3 Docker Way" is not one), and,
    in the European form, whose street does not just end like a German "-ring" or a Dutch "-pad" street
    ("Spring 5", "String 10", "Offering 2", "Notepad 2").
    """
    value = re.sub(r"(?<=\d)/[A-Za-z](?=[\s,])", "", value)  # "24/A Mill Road": the letter is the house's
    words = [w.rstrip(".").casefold() for w in re.split(r"[\s\-,/]+", value) if w[:1].isalpha()]
    if words and words[-1] in _SUFFIXES_THAT_ARE_TECHNICAL and len(words) > 1:
        words = words[:-1]  # "64 Vincent Run": the suffix is not what makes it technical
    if not words or any(w in TECHNICAL_WORDS for w in words):
        return False
    return not (value[:1].isalpha() and _RING_NOT_STREET.search(words[0]))



def _is_year(digits: str) -> bool:
    return len(digits) == 4 and 1900 <= int(digits) <= 2099


_VERSION = re.compile(r"[vV]\d+")
_DECADE = re.compile(r"(?:19|20)\d0s")


def labelled_id(value: str) -> bool:
    """An identifier after a person-record label and a number marker ("student no. 20190042", "member no. 7",
    "emp. ID ABC-001234"): the label is the evidence, so any length counts; a year alone does not ("member ID
    2024" is as often a cohort)."""
    digits = _digits(value)
    if _VERSION.fullmatch(value):
        return False  # "licence v3", "passport v2 photo rules": a version, not a number of a person's
    return len(digits) >= 1 and not (digits == value and _is_year(digits))


def labelled_id_bare(value: str) -> bool:
    """An identifier right after a person-record label with no marker ("member 77 301 554", "library card
    MN-44120", "patient X9Q-77"): five digits at least, or four with letters, or two letters and two digits
    at least; a count, a price, a year or a model number (A350, H100) is shorter or bare."""
    digits = _digits(value)
    if _DECADE.fullmatch(value):
        return False  # "staff 1990s": a decade
    if len(digits) >= 5:
        return True
    letters = sum(c.isalpha() for c in value)
    return (len(digits) >= 4 and letters > 0) or (len(digits) >= 2 and letters >= 2)


# --- people named by a path or a file name (issue #29) ----------------------------------------------------
_SYSTEM_USERS = frozenset(w.casefold() for w in words("system_users"))


def home_user(value: str) -> bool:
    """The user segment of a home directory (/home/anna/, /Users/jonas.berg/, C:\\Users\\mlindqvist\\) names
    the person who owns it, except a system, service, CI or cloud-image user and a placeholder
    (data/words/system_users.txt: root, runner, ubuntu, Public, Default, ...; USERNAME in capitals)."""
    folded = value.casefold()
    if folded in _SYSTEM_USERS or (value.isupper() and len(value) > 2):
        return False  # /home/USER/: a placeholder in capitals
    return not (folded.startswith(("user", "test", "build", "runner", "admin")) and folded[-1:].isdigit())


@functools.lru_cache(maxsize=1)
def _given_names() -> frozenset[str]:
    from ztgate.redaction.detection.names import gazetteer  # the gazetteer owns the given-name lists

    excluded: frozenset[str] = frozenset()
    return gazetteer._census_given_names(excluded) | gazetteer._world_given_names(excluded)  # noqa: SLF001


_COMMON_WORD_NAMES = words("common_word_names")


def file_name_person(value: str) -> bool:
    """A person's name joined by an underscore or a hyphen inside a file name ("payroll_Maria_Lindqvist.csv",
    "cv-Jonas-Berg-final.pdf"): the first part a known given name that is no common or technical word ("Max",
    "Will", "Test"), the second a capitalised word that is no technical word and ends no software's name."""
    parts = re.split(r"[_\-]", value, maxsplit=1)
    if len(parts) != 2:
        return False
    first, second = parts
    f, s = first.casefold(), second.casefold()
    if f not in _given_names() or f in _COMMON_WORD_NAMES or f in TECHNICAL_WORDS or f in FUNCTION_WORDS:
        return False
    return s not in TECHNICAL_WORDS and s not in FUNCTION_WORDS and s not in _COMPONENT_SUFFIXES



# --- chat handles and user names (issue #29) ------------------------------------------------------------
# A software bot's or a service's account ("@dependabot", "@renovate-bot", "github-actions[bot]", "deploy_ci"):
# it speaks and is mentioned in technical text and names no person.
# A bot's or a service's account: a bot suffix, a service word after a separator, or a build system's prefix
# ("renovate-bot", "deploy_svc", "ci_runner", "build.agent2").
_BOT_ACCOUNT = re.compile(
    r"(?i)(?:bot|\[bot\]|[_\-.](?:ci|cd|svc|service|actions|admin|daemon|oncall|team|sync|runner|worker|agent|cron"
    r"|scheduler|monitor|alerts?|deploy(?:er)?|server|system)\d*)$|(?i:^(?:ci|cd|build|deploy|cron|sys)[_\-.])")
_USER_NAME_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)*")


def user_handle(value: str) -> bool:
    """A person's chat handle or user name after a cue that says so ("handle @ysarpongkumi", "WeChat zxy_gz1990",
    "I'm @deniz.k"): letters, digits, dots, dashes and underscores, a letter first; with no '@' before it, a
    digit, a dot or an underscore inside ("Discord server" is no handle); not a bot's or service's account nor a
    system user (data/words/system_users.txt)."""
    name = value[1:] if value.startswith("@") else value
    if not 3 <= len(name) <= 32 or not _USER_NAME_SHAPE.fullmatch(name):
        return False
    folded = name.casefold()
    if folded in _SYSTEM_USERS or _BOT_ACCOUNT.search(name) or folded.rstrip("0123456789") in _SYSTEM_USERS:
        return False
    return value.startswith("@") or any(c.isdigit() or c in "._" for c in name)


def user_name_shaped(value: str) -> bool:
    """A handle whose own shape says it is a person's user name: a digit, a dot or an underscore between its
    letters ("@lukas.eichhorn09", "olliebot_2012"), where the cue alone (a chat line's speaker, "online") is
    also what a service's or a bot's account gets ("[10:02] @scheduler: job done")."""
    name = value[1:] if value.startswith("@") else value
    return user_handle(name) and any(c.isdigit() or c in "._" for c in name)


# Parts of a decorator's or an annotation's name ("@lru_cache", "@login_required", "@pytest.fixture"): code, not a
# person, where a handle has no cue before it.
_CODE_PARTS = frozenset("cache cached required exempt method property setter getter deleter fixture fixtures mark "
                        "route get post put delete patch override test tests wraps dataclass staticmethod "
                        "classmethod abstractmethod inject injectable component param params async sync task "
                        "validator lru skip skipif xfail parametrize retry timed".split())


def person_mention(value: str) -> bool:
    """An @-handle with no cue word that still says a person by its shape: a digit or an underscore in it, or a
    dot before a capital ("@velvetmoth_22", "@Rook.Ashdown"); "@pytest.mark", "@lru_cache" and bots stay."""
    name = value[1:] if value.startswith("@") else value
    if not user_handle("@" + name):
        return False
    if any(part in _CODE_PARTS for part in re.split(r"[._\-]", name.casefold())):
        return False
    return any(c.isdigit() or c == "_" for c in name) or re.search(r"\.[A-Z]", name) is not None


_ISO_DATE_SHAPE = re.compile(r"\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}[-/]\d{1,2}[-/]\d{2,4}")
# A year, a slash and an office's running number ("2024/118", "2015/1/B"): a file's or a case's numbering, which
# block_items reports inside a person's block only.
_YEAR_SEQUENCE = re.compile(r"(?:19|20)\d\d/\d{1,4}(?:/[A-Z0-9]{1,2})?")


def reference_code(value: str) -> bool:
    """A booking, policy or record reference after its label (pii.yaml, reference_after_label): five characters
    or more besides its separators, a digit among them, letters or at least five digits; not a year, a date or
    one character repeated, nor a year and an office's running number ("BM-7741-QZ", "KBTH/2019/44817", "R7TQ2M",
    "4471-2290"; not "2024", "A1", "2024-05-01", "2024/118/B")."""
    body = re.sub(r"[-/]", "", value)
    digits = sum(c.isdigit() for c in body)
    if len(body) < 5 or len(body) > 24 or not digits or len(set(body)) < 2 or _ISO_DATE_SHAPE.fullmatch(value) or (
            _YEAR_SEQUENCE.fullmatch(value)):
        return False
    if _is_year(body):
        return False
    return digits >= 5 or any(c.isalpha() for c in body)

# Nouns a number counts or names in technical and everyday text ("8080 Port", "4096 Tokens", "2048 Bytes"),
# which a capital after a number would otherwise make look like a town after its postcode.
_COUNTED_NOUNS: frozenset[str] = frozenset(
    "port ports token tokens byte bytes bit bits kb mb gb tb users user items item rows lines pages words people "
    "visitors guests copies units points steps requests calls errors records files models samples members "
    "employees students patients rooms nights days weeks months years hours minutes seconds series edition "
    "model version release update build".split())


def postcode_town(value: str) -> bool:
    """A postcode and a town ("6020 Innsbruck", "Innsbruck 6020", "Springfield, IL 62704"): the number is no
    year (1900-2099: "2024 Olympics") and no word of the town is a technical or common word ("8080 Port")."""
    numbers = re.findall(r"\d+", value)
    if not numbers or any(_is_year(n) for n in numbers if len(n) == 4):
        return False
    town = re.sub(r",?[ ][A-Z]{2}[ ](?=\d)", " ", value)  # a US state's code ("ID", "IN") is no word of the town
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", town)]
    return bool(words) and not any(w in TECHNICAL_WORDS or w in _COUNTED_NOUNS for w in words)


VALIDATORS: Mapping[str, Validator] = MappingProxyType({
    "luhn": luhn,
    "credit_card": credit_card,
    "iban": iban,
    "us_ssn": us_ssn,
    "ip_address": ip_address,
    "mac_address": mac_address,
    "phone_us": phone_us,
    "phone_us_strict": phone_us_strict,
    "phone_international": phone_international,
    "phone_any": phone_any,
    "phone_national": phone_national,
    "date_of_birth": date_of_birth,
    "personal_date": personal_date,
    "intl_date": intl_date,
    "calendar_date": calendar_date,
    "day_month": day_month,
    "password_value": password_value,
    "password_like": password_like,
    "password_token": password_token,
    "high_entropy_secret": high_entropy_secret,
    "random_token": random_token,
    "aws_secret_key": aws_secret_key,
    "random_base64": random_base64,
    "bare_secret": bare_secret,
    "jwt": jwt,
    "person_name": person_name,
    "place_name": place_name,
    "street_address": street_address,
    "labelled_id": labelled_id,
    "labelled_id_bare": labelled_id_bare,
    "postcode_town": postcode_town,
    "home_user": home_user,
    "file_name_person": file_name_person,
    "user_handle": user_handle,
    "reference_code": reference_code,
    "user_name_shaped": user_name_shaped,
    "person_mention": person_mention,
    **NATIONAL_ID_VALIDATORS,
})
"""Validator name (as written in the rule catalogue) -> function."""
