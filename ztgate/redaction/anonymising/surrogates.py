"""Surrogates: realistic stand-ins of the same kind, restored on the way back like placeholders.

The `surrogate` action replaces a private value with one of the same kind that cannot be the real one
(a failing Luhn check, reserved ranges and domains), since small models read `<PERSON_1>` literally.
The choice depends only on the type, the value's layout and its ordinal in the session, so it tells the
model no more than a placeholder's number, and answers stay reproducible (one exception: an e-mail
address made of a session person's name gets one made of that person's stand-in, `email_of_person`).
The vault keeps them consistent and restores them, also in the forms of `restore_forms`. Per-type table and rules: docs/architecture.md ("Module notes");
why they are the chat default (`chat_pseudonyms`, policies.py): docs/adr/0007-placeholders-stay-the-chat-default.md.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from typing import Protocol

from presidio_anonymizer.entities import InvalidParamError
from presidio_anonymizer.operators import Operator, OperatorType

# The checks detection reads, so that a stand-in fails exactly the check that would find it.
from ztgate.redaction.detection.patterns.validators import iban as iban_valid
from ztgate.redaction.detection.patterns.validators import luhn as luhn_valid

# Candidates tried per value before falling back to the numbered placeholder.
MAX_ATTEMPTS = 64

# Names: common English given names and surnames (compiled for ztgate from the US Census Bureau's
# frequency lists, which are public domain), leaving out names that are also everyday words ("Mark",
# "Will", "Rose", "Grant") so that restoring one of their words cannot change an ordinary word.
GIVEN_NAMES: tuple[str, ...] = (
    "Abigail", "Adrian", "Alice", "Amelia", "Andrea", "Arthur", "Beatrice", "Benedict", "Bernard",
    "Caroline", "Cecilia", "Clara", "Colin", "Cornelia", "Damian", "Daphne", "Dorothy", "Edgar",
    "Edith", "Edmund", "Eleanor", "Elliot", "Emil", "Esther", "Felix", "Florence", "Gabriel",
    "Gideon", "Greta", "Harriet", "Helena", "Henrik", "Imogen", "Isaac", "Jasper", "Julian",
    "Juliet", "Leonard", "Lucian", "Lydia", "Magnus", "Marcus", "Margot", "Matilda", "Miriam",
    "Nathaniel", "Octavia", "Oliver", "Oscar", "Priscilla", "Quentin", "Rosalind", "Rupert",
    "Sabrina", "Silas", "Simone", "Theodore", "Tobias", "Ursula", "Vivian", "Walter", "Winifred",
)
SURNAMES: tuple[str, ...] = (
    "Abernathy", "Ashcombe", "Blackwood", "Brightwell", "Carrow", "Castellan", "Chadwick",
    "Dunmore", "Ellery", "Fairbairn", "Farrington", "Fenwick", "Galloway", "Greaves", "Hadley",
    "Halloran", "Hartigan", "Holloway", "Ingram", "Kendrick", "Kingsley", "Lockhart", "Lowther",
    "Marlowe", "Merriweather", "Montague", "Northcott", "Oakes", "Pemberton", "Penhaligon",
    "Quarrie", "Radcliffe", "Ravensworth", "Rowntree", "Sallow", "Sedgwick", "Thackeray",
    "Thistlewood", "Treadwell", "Underhill", "Vance", "Wainwright", "Westcott", "Whitlock",
    "Winterbourne", "Wolcott", "Yardley", "Yelland",
)
# Titles kept in front of a surrogate name (the original's title is not private).
TITLES: frozenset[str] = frozenset({"Dr", "Dr.", "Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Miss", "Prof",
                                    "Prof.", "Sir", "Dame", "Mx", "Mx."})
# Places: made-up town names (compounds of English place-name parts), and street names for addresses.
TOWNS: tuple[str, ...] = (
    "Ashbury Cross", "Briarfield", "Calder Vale", "Dunhollow", "Eastmere", "Fallowmead",
    "Glenwick", "Hawthorne Bay", "Ivydale", "Kestrel Ford", "Larkhaven", "Millbrook Green",
    "Northbriar", "Oakhollow", "Pennywick", "Quillbridge", "Ravenmoor", "Stillwater Glen",
    "Thornbury Vale", "Umberleigh Cross", "Willowmere", "Yarrowfield",
)
STREETS: tuple[str, ...] = (
    "Alder Row", "Birchwood Lane", "Cedar Close", "Elmstead Road", "Foxglove Way", "Hazel Mews",
    "Juniper Street", "Larch Avenue", "Maple Terrace", "Rowan Crescent", "Sorrel Drive", "Willow Walk",
)
EMAIL_DOMAINS: tuple[str, ...] = ("example.com", "example.org", "example.net")
# NANP area codes in use; numbers 555-0100 to 555-0199 are reserved for fiction in every one of them.
AREA_CODES: tuple[str, ...] = ("201", "212", "303", "312", "415", "503", "617", "702", "808", "917")
IPV4_DOCUMENTATION: tuple[str, ...] = ("192.0.2", "198.51.100", "203.0.113")
MAC_DOCUMENTATION = "00:00:5E:00:53"

_WORD = re.compile(r"\S+")
_DIGIT = re.compile(r"[0-9]")


def _pick(items: tuple[str, ...], *key: object) -> str:
    """One of `items`, chosen by a hash of `key` (a fixed spread, not a secret)."""
    digest = hashlib.blake2b(repr(key).encode("utf-8"), digest_size=8).digest()
    return items[int.from_bytes(digest, "big") % len(items)]


def _number(limit: int, *key: object) -> int:
    digest = hashlib.blake2b(repr(key).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % limit


def _fill_digits(layout: str, digits: str) -> str:
    """`layout` with its ASCII digits replaced, in order, by `digits` (same count)."""
    feed = iter(digits)
    return _DIGIT.sub(lambda _: next(feed), layout)


def _person(original: str, number: int, attempt: int) -> str:
    words = _WORD.findall(original)
    title = [words.pop(0)] if len(words) > 1 and words[0] in TITLES else []
    count = max(1, len(words))
    if count == 1 and title:   # "Dr. Schmidt": a surname after a title
        names = [_pick(SURNAMES, "last", number, attempt)]
    elif count == 1:
        names = [_pick(GIVEN_NAMES, "first", number, attempt)]
    else:
        middle = [_pick(GIVEN_NAMES, "middle", number, attempt, i) for i in range(count - 2)]
        names = [_pick(GIVEN_NAMES, "first", number, attempt), *middle,
                 _pick(SURNAMES, "last", number, attempt)]
    return " ".join(title + names)


def _location(original: str, number: int, attempt: int) -> str:
    if _DIGIT.search(original):
        return f"{1 + _number(198, 'house', number, attempt)} {_pick(STREETS, 'street', number, attempt)}"
    return _pick(TOWNS, "town", number, attempt)


def email_of_person(original: str, person: str, stand_in: str, number: int, attempt: int) -> str | None:
    """An e-mail stand-in built from a person's stand-in the way the original address is built from the
    person's name ("maria.gonzalez@..." of "Maria Gonzalez" -> "clara.whitlock@example.org" for "Clara
    Whitlock"; "t.kowalski", "fhaddad", "maria" likewise), so that a model that takes the name from the
    address writes the person's stand-in, which restores; None when the address is not made of the name."""
    local = original.partition("@")[0]
    words = [w.lower() for w in _WORD.findall(person) if w not in TITLES]
    names = [w.lower() for w in _WORD.findall(stand_in) if w not in TITLES]
    if len(words) != len(names) or not words or not all(w.isalpha() for w in words + names):
        return None
    # Any word before the surname may be the given name the address uses (a detected span can hold a
    # word too many in front: "Tell Aiko Tanaka").
    for given, new_given in zip(words[:-1] or words, names[:-1] or names):
        if local.lower() == given:
            made = new_given
            break
        match = re.fullmatch(rf"(?:(?P<given>{re.escape(given)})|(?P<initial>{re.escape(given[0])}))?"
                             rf"(?P<separator>[._-]?){re.escape(words[-1])}", local, re.IGNORECASE)
        if (match is not None and len(words) > 1
                and not (match["separator"] and not (match["given"] or match["initial"]))):
            head = new_given if match["given"] else new_given[0] if match["initial"] else ""
            made = head + match["separator"] + names[-1]
            break
    else:
        return None
    return f"{made}@{_pick(EMAIL_DOMAINS, 'domain', number, attempt)}"


def _email(original: str, number: int, attempt: int) -> str:
    first = _pick(GIVEN_NAMES, "mail-first", number, attempt).lower()
    last = _pick(SURNAMES, "mail-last", number, attempt).lower()
    return f"{first}.{last}@{_pick(EMAIL_DOMAINS, 'domain', number, attempt)}"


def _phone(original: str, number: int, attempt: int) -> str:
    area = _pick(AREA_CODES, "area", number, attempt)
    line = f"55501{_number(100, 'line', number, attempt):02d}"
    digits = _DIGIT.findall(original)
    if len(digits) == 10:
        return _fill_digits(original, area + line)
    if len(digits) == 11 and digits[0] == "1":
        return _fill_digits(original, "1" + area + line)
    return f"+1 {area}-{line[:3]}-{line[3:]}"


def _card(original: str, number: int, attempt: int) -> str:
    digits = _DIGIT.findall(original)
    body = [digits[0]] + [str(_number(10, "card", number, attempt, i)) for i in range(1, len(digits))]
    if luhn_valid("".join(body)):   # turn the last digit so that the check fails
        body[-1] = str((int(body[-1]) + 1) % 10)
    return _fill_digits(original, "".join(body))


def _iban(original: str, number: int, attempt: int) -> str:
    compact = [c for c in original if not c.isspace()]
    head = "".join(compact[:2]).upper()
    tail = [str(_number(10, "iban", number, attempt, i)) if c.isdigit() else
            "ABCDEFGHJKLMNPRSTUVWXYZ"[_number(23, "iban", number, attempt, i)] if c.isalpha() else c
            for i, c in enumerate(compact[4:])]
    check = f"{_number(100, 'check', number, attempt):02d}"
    candidate = head + check + "".join(tail)
    if iban_valid(candidate):
        candidate = head + f"{(int(check) + 1) % 100:02d}" + "".join(tail)
        if iban_valid(candidate):
            candidate = head + f"{(int(check) + 2) % 100:02d}" + "".join(tail)
    # Back into the original's grouping (spaces where it had them).
    feed = iter(candidate)
    return "".join(c if c.isspace() else next(feed) for c in original)


def _ssn(original: str, number: int, attempt: int) -> str:
    digits = _DIGIT.findall(original)
    area = f"{100 + _number(565, 'area', number, attempt):03d}"   # 100-664: never 000 or 666
    serial = f"{1 + _number(9999, 'serial', number, attempt):04d}"
    if len(digits) != 9:
        return f"{area}-00-{serial}"
    return _fill_digits(original, area + "00" + serial)


def _ip(original: str, number: int, attempt: int) -> str:
    host = 1 + _number(254, "host", number, attempt)
    if ":" in original:
        return f"2001:db8::{host:x}"
    return f"{_pick(IPV4_DOCUMENTATION, 'net', number, attempt)}.{host}"


def _mac(original: str, number: int, attempt: int) -> str:
    separator = "-" if "-" in original else ":"
    value = f"{MAC_DOCUMENTATION}:{_number(256, 'mac', number, attempt):02X}".replace(":", separator)
    return value.lower() if original.islower() else value


_DATE = re.compile(r"^([0-9]{1,4})([./-])([0-9]{1,2})\2([0-9]{1,4})$")


def _date(original: str, number: int, attempt: int) -> str | None:
    match = _DATE.match(original.strip())
    if match is None:
        return None
    first, separator, middle, last = match.groups()
    month = 1 + _number(12, "month", number, attempt)
    day = 1 + _number(28, "day", number, attempt)
    year = 1940 + _number(60, "year", number, attempt)
    if len(first) == 4:                                   # YYYY-MM-DD
        parts = [f"{year}", f"{month:0{len(middle)}d}", f"{day:0{len(last)}d}"]
    elif len(last) in (2, 4):                             # DD/MM/YYYY or MM/DD/YYYY: both fields <= 12
        year_text = f"{year}" if len(last) == 4 else f"{year % 100:02d}"
        low = 1 + _number(12, "low", number, attempt)
        parts = [f"{low:0{len(first)}d}", f"{month:0{len(middle)}d}", year_text]
    else:
        return None
    return separator.join(parts)


# Entity type -> maker of the attempt-th candidate for the number-th value of that type in a session.
MAKERS: dict[str, Callable[[str, int, int], str | None]] = {
    "PERSON": _person, "LOCATION": _location, "EMAIL_ADDRESS": _email, "PHONE_NUMBER": _phone,
    "CREDIT_CARD": _card, "IBAN_CODE": _iban, "US_SSN": _ssn, "IP_ADDRESS": _ip,
    "MAC_ADDRESS": _mac, "DATE_OF_BIRTH": _date,
}


def candidates(entity_type: str, original: str, number: int,
               persons: tuple[tuple[str, str], ...] = ()) -> Iterator[str]:
    """Up to MAX_ATTEMPTS surrogates for the `number`-th value of `entity_type` in a session (none for a
    type or shape without a maker: the caller then uses a placeholder). Never the original itself.
    `persons`: the session's persons and their stand-ins; an e-mail address made of one's name first
    gets an address made of its stand-in (`email_of_person`)."""
    maker = MAKERS.get(entity_type)
    if maker is None or not original.strip():
        return
    if entity_type == "EMAIL_ADDRESS":
        for person, stand_in in persons:
            for attempt in range(len(EMAIL_DOMAINS)):
                derived = email_of_person(original, person, stand_in, number, attempt)
                if derived is None:
                    break
                if derived != original:
                    yield derived
    for attempt in range(MAX_ATTEMPTS):
        candidate = maker(original, number, attempt)
        if candidate is None:
            return
        if candidate != original:
            yield candidate


def restore_aliases(entity_type: str, original: str, surrogate: str) -> dict[str, str]:
    """Words of a person's surrogate that restore on their own ("Clara" -> "Anna" for "Clara Whitlock"
    standing for "Anna Schmidt"): the first and the last name, when both have as many words."""
    if entity_type != "PERSON":
        return {}
    words, replaced = _WORD.findall(original), _WORD.findall(surrogate)
    if len(words) != len(replaced) or len(words) < 2:
        return {}
    aliases: dict[str, str] = {}
    for word, stand_in in zip(words, replaced):
        if stand_in in TITLES or word == stand_in:
            continue
        aliases[stand_in] = word
    return aliases


def _untitled(value: str) -> list[str]:
    words = _WORD.findall(value)
    return words[1:] if len(words) > 1 and words[0] in TITLES else words


def restore_forms(entity_type: str, original: str, surrogate: str) -> tuple[dict[str, str], dict[str, str]]:
    """Other forms of a surrogate that a model writes and that restore unambiguously, as (whole forms,
    single names). A person's: the whole stand-in in capitals and in lower case ("CLARA WHITLOCK" ->
    "ANNA SCHMIDT"); each single name of `restore_aliases` and a one-word stand-in in capitals too
    ("WHITLOCK" -> "SCHMIDT"). Single names are never restored in lower case ("sallow" is a word) and
    the vault restores them only outside an address or a path. E-mail addresses restore whatever
    their case (the vault's own rule), so they have no forms here."""
    if entity_type != "PERSON":
        return {}, {}
    whole: dict[str, str] = {}
    single: dict[str, str] = {}
    if len(_WORD.findall(surrogate)) > 1:
        # With its title and without it ("Dr. Clara Whitlock", "clara whitlock").
        shapes = [(surrogate, original)]
        bare, bare_original = _untitled(surrogate), _untitled(original)
        if len(bare) > 1 and len(bare) == len(bare_original) and bare != _WORD.findall(surrogate):
            shapes.append((" ".join(bare), " ".join(bare_original)))
        for shape, restored in shapes:
            for form, back in ((shape.upper(), restored.upper()), (shape.lower(), restored.lower())):
                if form != surrogate:
                    whole[form] = back
        for name, word in restore_aliases(entity_type, original, surrogate).items():
            single[name] = word
            single[name.upper()] = word.upper()
    else:
        single[surrogate.upper()] = original.upper()
    return whole, {form: word for form, word in single.items() if form != surrogate}


class SurrogateAllocator(Protocol):
    """Hands out the session's surrogate for a value (the vault's transaction implements it)."""

    def surrogate_for(self, entity_type: str, original: str, context: str) -> str: ...


SURROGATE_OPERATOR = "ztgate_surrogate"


class Surrogate(Operator):
    """The session's surrogate for a value (params: allocator, the vault's transaction; context, the text
    being redacted, which a new surrogate must not occur in)."""

    ALLOCATOR = "allocator"
    CONTEXT = "context"

    def operate(self, text: str | None = None, params: dict | None = None) -> str:
        if text is None or params is None:
            raise InvalidParamError(f"{SURROGATE_OPERATOR} needs a value and its params")
        allocator: SurrogateAllocator = params[self.ALLOCATOR]
        return allocator.surrogate_for(params["entity_type"], text, params.get(self.CONTEXT) or "")

    def validate(self, params: dict | None = None) -> None:
        params = params or {}
        if not callable(getattr(params.get(self.ALLOCATOR), "surrogate_for", None)):
            raise InvalidParamError(f"{SURROGATE_OPERATOR} needs an '{self.ALLOCATOR}' with surrogate_for()")

    def operator_name(self) -> str:
        return SURROGATE_OPERATOR

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize
