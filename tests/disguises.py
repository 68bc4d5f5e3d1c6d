"""Hypothesis strategies for known secret and PII values, disguised (issue #12).

A value of one of the families the pattern tier knows (cards with a Luhn check, SSNs, IBANs, e-mail
addresses, phone numbers, AWS and GitHub keys, Slack tokens, passwords), written in its context, then
disguised by any combination of: full-width forms of its characters, invisible characters inserted
(zero-width space/joiner/non-joiner, word joiner, BOM, soft hyphen, bidi marks, variation selectors),
its spaces replaced by other space characters (no-break, narrow no-break, figure, thin, ideographic),
percent-encoding of some or all of its characters, and base64 of the value with its context.
`Disguised.span` is where the disguised value lies in `Disguised.text`: what must be replaced (in
base64, the characters that encode the value's bytes).
"""

from __future__ import annotations

import base64
import string
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote

from hypothesis import strategies as st

INVISIBLES = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f", "\u2066",
              "\u2069", "\ufe0f", "\u180e", "\u034f")
SPACES = ("\u00a0", "\u202f", "\u2007", "\u2009", "\u3000", "\u2002", "\u205f")


@dataclass(frozen=True)
class Disguised:
    text: str
    span: tuple[int, int]
    entity: str
    plain: str  # the value as written before it was disguised
    how: tuple[str, ...]

    @property
    def value(self) -> str:
        return self.text[self.span[0]:self.span[1]]


def _luhn_digit(payload: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def _iban(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    number = int("".join(str(int(c, 36)) for c in rearranged))
    return f"{country}{98 - number % 97:02d}{bban}"


def _varied(alphabet: str, size: int) -> st.SearchStrategy[str]:
    """Random-looking characters (validators refuse runs like 0000000000, as real values never are)."""
    return st.text(alphabet, min_size=size, max_size=size).filter(lambda s: len(set(s)) >= min(size // 2, 6))


@st.composite
def _card(draw: st.DrawFn) -> tuple[str, str, str]:
    brand = draw(st.sampled_from(["4", "51", "52", "53", "54", "55"]))  # Visa, Mastercard
    payload = brand + draw(_varied(string.digits, 15 - len(brand)))
    number = payload + _luhn_digit(payload)
    grouped = draw(st.booleans())
    value = " ".join(number[i:i + 4] for i in range(0, 16, 4)) if grouped else number
    return "card number {} thanks", value, "CREDIT_CARD"


@st.composite
def _ssn(draw: st.DrawFn) -> tuple[str, str, str]:
    area = draw(st.integers(1, 665))
    group = draw(st.integers(1, 99))
    serial = draw(st.integers(1, 9999))
    return "my SSN is {} ok", f"{area:03d}-{group:02d}-{serial:04d}", "US_SSN"


@st.composite
def _iban_value(draw: st.DrawFn) -> tuple[str, str, str]:
    iban = _iban("DE", draw(_varied(string.digits, 18)))
    value = " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    return "IBAN {} for the transfer", value, "IBAN_CODE"


@st.composite
def _email(draw: st.DrawFn) -> tuple[str, str, str]:
    local = draw(st.text(string.ascii_lowercase, min_size=3, max_size=8))
    other = draw(st.text(string.ascii_lowercase, min_size=2, max_size=8))
    domain = draw(st.sampled_from(["example.com", "mail.example.org", "corp.example.net"]))
    return "write to {} today", f"{local}.{other}@{domain}", "EMAIL_ADDRESS"


@st.composite
def _phone(draw: st.DrawFn) -> tuple[str, str, str]:
    area = draw(st.sampled_from(["415", "212", "312", "617", "206"]))
    exchange = draw(st.integers(200, 999).filter(lambda n: n % 100 != 11))
    line = draw(st.integers(0, 9999))
    return "call me at {} tonight", f"+1 {area} {exchange} {line:04d}", "PHONE_NUMBER"


@st.composite
def _aws(draw: st.DrawFn) -> tuple[str, str, str]:
    body = draw(_varied(string.ascii_uppercase + "234567", 16))
    return "the key {} is live", "AKIA" + body, "AWS_ACCESS_KEY_ID"


@st.composite
def _github(draw: st.DrawFn) -> tuple[str, str, str]:
    body = draw(st.text(string.ascii_letters + string.digits, min_size=36, max_size=36)
                .filter(lambda s: any(c.isdigit() for c in s) and any(c.isupper() for c in s)))
    return "token {} works", "ghp_" + body, "GITHUB_TOKEN"


@st.composite
def _password(draw: st.DrawFn) -> tuple[str, str, str]:
    words = draw(st.lists(st.sampled_from(["correct", "Horse", "battery", "staple", "Tr0ub4dor", "x9!"]),
                          min_size=2, max_size=4))
    return 'password: "{}"', " ".join(words) + "7!", "PASSWORD"


FAMILIES = st.one_of(_card(), _ssn(), _iban_value(), _email(), _phone(), _aws(), _github(), _password())
# The families that are secrets: what answers are scrubbed of.
SECRET_FAMILIES = st.one_of(_aws(), _github(), _password())


def _fullwidth(value: str, which: list[bool]) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if flag and "!" <= c <= "~" else c for c, flag in zip(value, which))


# Every decimal digit (Unicode category Nd) other than ASCII's, by its value: Arabic-Indic, Devanagari, Thai ...
# (one pass over the code points, then one per value over the few hundred digits: ten passes took a second)
_NON_ASCII_DIGITS = tuple(c for c in map(chr, range(0x80, 0x110000)) if unicodedata.category(c) == "Nd")
OTHER_DIGITS: dict[int, tuple[str, ...]] = {
    value: tuple(c for c in _NON_ASCII_DIGITS if unicodedata.decimal(c) == value) for value in range(10)}


@st.composite
def other_digits(draw: st.DrawFn, value: str) -> str:
    """Value with any of its ASCII digits written as a decimal digit of another script (each drawn apart)."""
    return "".join(draw(st.sampled_from(OTHER_DIGITS[int(c)])) if c.isascii() and c.isdigit() and draw(st.booleans())
                   else c for c in value)


def _insert(value: str, positions: list[int], chars: list[str]) -> str:
    out = list(value)
    for position, char in sorted(zip(positions, chars), reverse=True):
        out.insert(position, char)
    return "".join(out)


@st.composite
def disguised(draw: st.DrawFn, *, families: st.SearchStrategy[tuple[str, str, str]] = FAMILIES,
              allow_base64: bool = True) -> Disguised:
    """A known value in its context, disguised by any combination of the transformations."""
    template, plain, entity = draw(families)
    value, how = plain, []
    if draw(st.booleans()):
        value = _fullwidth(value, draw(st.lists(st.booleans(), min_size=len(value), max_size=len(value))))
        how.append("fullwidth")
    if any(c.isascii() and c.isdigit() for c in value) and draw(st.booleans()):
        value = draw(other_digits(value))
        how.append("other_digits")
    if " " in value and draw(st.booleans()):
        space = draw(st.sampled_from(SPACES))
        value = value.replace(" ", space)
        how.append("spaces")
    if draw(st.booleans()):
        count = draw(st.integers(1, 4))
        positions = draw(st.lists(st.integers(1, len(value) - 1), min_size=count, max_size=count))
        chars = draw(st.lists(st.sampled_from(INVISIBLES), min_size=count, max_size=count))
        value = _insert(value, positions, chars)
        how.append("invisible")
    if entity != "PASSWORD" and draw(st.booleans()):  # a password in quotes is no URL part
        every = draw(st.booleans())
        value = quote(value, safe="") if every else value.replace("@", "%40").replace(" ", "%20")
        how.append("percent")
    if value == plain and not how:
        value = _insert(value, [len(value) // 2], [draw(st.sampled_from(INVISIBLES))])
        how.append("invisible")
    prefix, suffix = template.split("{}")
    if allow_base64 and draw(st.integers(0, 4)) == 0:
        encoded = base64.b64encode((prefix + value + suffix).encode()).decode()
        text = f"attached: {encoded} end"
        # The base64 characters that encode the value's bytes (4 for every 3).
        first, last = len(prefix.encode()), len((prefix + value).encode())
        start = len("attached: ")
        span = (start + 4 * (first // 3), min(start + len(encoded.rstrip("=")), start + 4 * -(-last // 3)))
        return Disguised(text, span, entity, plain, (*how, "base64"))
    text = prefix + value + suffix
    return Disguised(text, (len(prefix), len(prefix) + len(value)), entity, plain, tuple(how))


@st.composite
def chunked(draw: st.DrawFn, text: str) -> list[str]:
    """`text` cut into chunks at any positions."""
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=8))))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]
