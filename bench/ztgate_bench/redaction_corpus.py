"""Deterministic corpus of LLM prompts, with ground truth, for the redaction benchmark.

Three categories of prompts, as a user would type them into a chat box or paste them from a terminal:

* ``pii``: prompts that embed personal data (names, places, contact details, card and bank numbers...);
* ``secret``: prompts that embed credentials (cloud keys, tokens, private keys, passwords...);
* ``clean``: prompts with neither (code, hashes, UUIDs, versions, stack traces, maths, chat), which a
  redactor must leave exactly as they are.

Every sample records the values it embeds, as they appear in its text, with their entity type named as in
``ztgate.redaction.types``. Values are random but well formed (valid Luhn, IBAN check digits, US SSN ranges,
real token prefixes and lengths); none is a real secret. The corpus depends only on ``(n, seed)``.

Templates hold slots written ``<<name>>`` (or ``<<name#2>>`` for a second, distinct value of the same kind);
the same slot written twice in one template takes the same value.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
import re
import string
import unicodedata
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

import yaml
from faker import Faker

from ztgate_bench.canaries import luhn_check_digit
from ztgate.redaction.types import NER_ENTITY_TYPES, PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES

PII = "pii"
SECRET = "secret"
CLEAN = "clean"
CATEGORIES: tuple[str, ...] = (PII, SECRET, CLEAN)

# Share of each category in a corpus; clean prompts are a quarter so that the clean-altered rate of a
# 300-sample run is measured on 75 prompts.
DEFAULT_MIX: Mapping[str, float] = {PII: 0.45, SECRET: 0.30, CLEAN: 0.25}

# Bounds on the length of a prompt, in characters.
MIN_CHARS = 50
MAX_CHARS = 600

# ID_NUMBER (a record number after its label) and HEALTH_DETAIL (a health detail tied to a person, a context type)
# have no template here yet, so the corpora stay as written; their generated families are in
# tests/unit/redaction/detection/patterns/test_labelled_ids.py and tests/unit/redaction/detection/test_private_value_classes_9.py.
PII_ENTITY_TYPES: frozenset[str] = (PATTERN_PII_ENTITY_TYPES | NER_ENTITY_TYPES) - {"ID_NUMBER"}


class Entity(NamedTuple):
    """One embedded value: its entity type and the value exactly as it appears in the text."""

    entity_type: str
    value: str


@dataclass(frozen=True, slots=True)
class Sample:
    """One prompt and its ground truth."""

    sample_id: str
    category: str  # one of CATEGORIES
    text: str
    entities: tuple[Entity, ...]  # empty for clean prompts
    template: str  # id of the template it was made from, for diagnostics

    @property
    def entity_types(self) -> frozenset[str]:
        return frozenset(e.entity_type for e in self.entities)


# --------------------------------------------------------------------------------------------------------
# Value vocabularies (data, not logic).

_CITIES = (
    "New York", "Chicago", "Seattle", "Austin", "Denver", "Boston", "San Francisco", "Los Angeles",
    "Philadelphia", "Atlanta", "Toronto", "Vancouver", "Montreal", "London", "Manchester", "Edinburgh",
    "Dublin", "Paris", "Lyon", "Marseille", "Berlin", "Munich", "Hamburg", "Madrid", "Barcelona", "Lisbon",
    "Rome", "Milan", "Naples", "Amsterdam", "Rotterdam", "Brussels", "Stockholm", "Oslo", "Copenhagen",
    "Warsaw", "Krakow", "Prague", "Vienna", "Zurich", "Geneva", "Istanbul", "Athens", "Cairo", "Lagos",
    "Nairobi", "Johannesburg", "Cape Town", "Mumbai", "Bangalore", "Delhi", "Karachi", "Dhaka", "Tokyo",
    "Osaka", "Seoul", "Beijing", "Shanghai", "Singapore", "Jakarta", "Manila", "Sydney", "Melbourne",
    "Auckland", "Mexico City", "Guadalajara", "São Paulo", "Rio de Janeiro", "Buenos Aires", "Bogotá",
    "Lima", "Santiago", "Houston", "Phoenix", "Portland", "Miami", "Minneapolis", "Nashville",
)
_COUNTRIES = (
    "Germany", "France", "Spain", "Italy", "Portugal", "Canada", "Mexico", "Brazil", "Argentina", "Japan",
    "South Korea", "India", "Nigeria", "Kenya", "Egypt", "Australia", "New Zealand", "Ireland", "Poland",
    "Sweden", "Norway", "Denmark", "Finland", "Turkey", "Vietnam", "Thailand", "Indonesia", "Philippines",
    "Colombia", "Chile", "Peru", "South Africa", "Morocco", "Greece", "Switzerland", "Austria", "Belgium",
    "Ukraine", "Romania", "Pakistan", "Bangladesh", "China", "Israel", "Ghana", "Ethiopia",
)
_NRPS = (
    # nationalities
    "Mexican", "Nigerian", "Korean", "Vietnamese", "Brazilian", "Polish", "Irish", "Ethiopian", "Filipino",
    "Iranian", "Turkish", "Ukrainian", "Pakistani", "Colombian", "Japanese", "Indian", "Italian", "German",
    "Chinese", "French", "Canadian", "Somali", "Haitian", "Greek", "Moroccan", "Cuban", "Armenian",
    # religions
    "Catholic", "Muslim", "Jewish", "Hindu", "Buddhist", "Sikh", "Mormon", "Evangelical", "Protestant",
    "Baptist", "Lutheran", "Orthodox",
    # political groups
    "Republican", "Democrat", "Socialist", "Conservative", "Libertarian", "Communist", "Green Party",
)
# Locales for names and the share of names drawn from each.
_NAME_LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "en_IN", "pt_BR", "pl_PL", "nl_NL")
_NAME_WEIGHTS = (5, 2, 1, 1, 1, 1, 1, 1, 1, 1)
_STREET_LOCALES = ("en_US", "en_GB", "de_DE")
# Faker locales whose city() draws real town names (en_US, en_GB, fr_FR and pt_BR make names up: "Lake
# Jessica", "Pascal-sur-Besson").
_REAL_CITY_LOCALES = frozenset({"de_DE", "es_ES", "it_IT", "nl_NL", "pl_PL", "en_IN"})
# Locales for `generate(..., locales=WORLD_LOCALES)`: names, towns and streets of Europe, Brazil and India.
WORLD_LOCALES: tuple[str, ...] = ("en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "pl_PL", "en_IN")
_STREET_WEIGHTS = (4, 1, 1)
_FREE_MAIL = ("gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me", "gmx.de")
_WORK_MAIL = (
    "acme-corp.com", "northwind.io", "globex.net", "initech.com", "umbrella-health.org", "contoso.co.uk",
    "hooli.xyz", "stark-industries.com", "wayne-enterprises.net", "blueharbor.de",
)
_US_AREA_CODES = (
    "212", "415", "312", "617", "206", "512", "303", "404", "305", "713", "602", "702", "503", "919", "615",
    "801", "858", "646", "718", "202", "214", "469", "310", "408", "773", "267", "720", "971", "336", "612",
)
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)

# Fillers: values that are not personal data and not secrets.
_PRODUCTS = (
    "MacBook Air M3", "ThinkPad X1 Carbon", "iPhone 15", "Pixel 8", "Raspberry Pi 5", "Steam Deck",
    "Kindle Paperwhite", "PlayStation 5", "Surface Pro 9", "Galaxy S24", "RTX 4090", "Apple Watch Series 9",
    "Dell XPS 13", "Framework Laptop 13", "iPad Air", "Nintendo Switch", "Chromebook Plus", "Mac mini M2",
)
_DB_USERS = ("app", "svc_orders", "analytics_ro", "postgres", "admin", "billing", "etl_user", "webapp")
_DB_NAMES = ("orders", "billing", "analytics", "users", "inventory", "app_prod", "metrics", "crm")
_HOSTS = (
    "db.internal", "pg-prod-1.acme.internal", "localhost", "db.example.net", "mysql.staging.svc",
    "cache.prod.local", "rabbit.internal", "primary.db.corp",
)
_HTTP_CODES = ("400", "401", "403", "404", "409", "418", "422", "429", "500", "502", "503", "504")
_EXIT_CODES = ("1", "2", "126", "127", "137", "139", "143")

# Neutral sentences put before or after a prompt (each with probability _DRESS_P) so that values sit at
# varied positions and lengths vary as in real chat; they hold no personal data and no secret.
_LEAD_INS = (
    "Quick question.", "I'm working on a side project and got stuck.", "Sorry if this is a basic question.",
    "Context: we're a small team and nobody here is an expert on this.", "Hi! Hope you're doing well.",
    "This is for work and it's a bit urgent.", "Following up on what we discussed earlier:",
    "I've been trying to figure this out for two hours.", "Please answer in plain English.",
    "Long story short:", "I need a second opinion on something.", "ok so here's the situation.",
)
_FOLLOW_UPS = (
    "Thanks in advance!", "Please keep the answer short.", "Use bullet points if possible.",
    "Explain it like I'm five.", "I'd appreciate a step-by-step answer.", "If you need more details, ask me first.",
    "Also, what would you do differently?", "Answer in under 150 words please.", "thx",
    "No need to repeat my question back to me.", "Bonus points for a code example.", "Be honest, please.",
)
_DRESS_P = 0.3

_ALNUM = string.ascii_letters + string.digits
_B32 = string.ascii_uppercase + "234567"
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_PW_SYMBOLS = "!*-_.~"  # safe inside URLs, quotes, JSON and shell single quotes
_WORDS = (
    "correct", "horse", "battery", "staple", "orange", "river", "falcon", "maple", "copper", "winter",
    "rocket", "violet", "harbor", "pepper", "cobalt", "meadow", "silver", "thunder", "lantern", "quartz",
)

# Secret types that the generic ``<<key>>`` slot stands for, with how people name them.
_KEY_KINDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "GITHUB_TOKEN": (("GitHub token", "GitHub personal access token", "GH PAT"), ("GITHUB_TOKEN", "GH_TOKEN")),
    "GITLAB_TOKEN": (("GitLab token", "GitLab PAT", "GitLab access token"), ("GITLAB_TOKEN", "GL_TOKEN")),
    "SLACK_TOKEN": (("Slack bot token", "Slack token"), ("SLACK_BOT_TOKEN", "SLACK_TOKEN")),
    "STRIPE_KEY": (("Stripe secret key", "Stripe live key"), ("STRIPE_SECRET_KEY", "STRIPE_API_KEY")),
    "GOOGLE_API_KEY": (("Google API key", "Maps API key", "Gemini API key"),
                       ("GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY")),
    "OPENAI_API_KEY": (("OpenAI key", "OpenAI API key"), ("OPENAI_API_KEY",)),
    "GENERIC_SECRET": (("API key", "access key", "service token"), ("API_KEY", "SERVICE_TOKEN", "APP_SECRET")),
    "JWT": (("JWT", "access token", "id token"), ("ACCESS_TOKEN", "ID_TOKEN", "JWT")),
    "AWS_ACCESS_KEY_ID": (("AWS access key id", "AWS key"), ("AWS_ACCESS_KEY_ID",)),
    "AWS_SECRET_KEY": (("AWS secret access key", "AWS secret"), ("AWS_SECRET_ACCESS_KEY",)),
}


# --------------------------------------------------------------------------------------------------------
# Templates: data, in bench/ztgate_bench/data/redaction_templates.yaml (package data). Entity slots: see
# _ENTITY_SLOTS; filler slots: see _Values.

TEMPLATES_FILE = "data/redaction_templates.yaml"


def _load_templates() -> dict[str, tuple[str, ...]]:
    """The templates per category, in file order (a template's id is its index, so order matters)."""
    text = resources.files("ztgate_bench").joinpath(TEMPLATES_FILE).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or set(data) != set(CATEGORIES) or not all(
            isinstance(v, list) and v and all(isinstance(t, str) for t in v) for v in data.values()):
        raise ValueError(f"bench/ztgate_bench/{TEMPLATES_FILE}: expected a non-empty list of strings under each "
                         f"of {', '.join(CATEGORIES)} and nothing else")
    return {category: tuple(data[category]) for category in CATEGORIES}


_TEMPLATE_TEXTS = _load_templates()
_PII_TEMPLATES = _TEMPLATE_TEXTS[PII]
_SECRET_TEMPLATES = _TEMPLATE_TEXTS[SECRET]
_CLEAN_TEMPLATES = _TEMPLATE_TEXTS[CLEAN]

# Entity slots: name -> entity type. Fillers (no entity) are handled by _Filler.
_ENTITY_SLOTS: Mapping[str, str] = {
    "person": "PERSON", "first": "PERSON",
    "city": "LOCATION", "street": "LOCATION", "country": "LOCATION",
    "nrp": "NRP",
    "email": "EMAIL_ADDRESS",
    "phone": "PHONE_NUMBER", "phone_intl": "PHONE_NUMBER",
    "card": "CREDIT_CARD",
    "ssn": "US_SSN",
    "iban": "IBAN_CODE",
    "ipv4": "IP_ADDRESS", "ipv6": "IP_ADDRESS",
    "mac": "MAC_ADDRESS",
    "dob": "DATE_OF_BIRTH",
    "aws_id": "AWS_ACCESS_KEY_ID", "aws_secret": "AWS_SECRET_KEY",
    "gh": "GITHUB_TOKEN", "gl": "GITLAB_TOKEN", "slack": "SLACK_TOKEN", "stripe": "STRIPE_KEY",
    "google": "GOOGLE_API_KEY", "openai": "OPENAI_API_KEY",
    "jwt": "JWT",
    "pem": "PRIVATE_KEY", "pem_openssh": "PRIVATE_KEY",
    "pw": "PASSWORD",
    "bearer": "BEARER_TOKEN",
    "generic": "GENERIC_SECRET",
}
# Slots whose entity type is the sample's target secret type (one of _KEY_KINDS).
_KEY_SLOT = "key"
_KEY_COMPANIONS = ("key_label", "key_env")

_SLOT_RE = re.compile(r"<<([a-z0-9_]+)(?:#(\d))?>>")


# --------------------------------------------------------------------------------------------------------
# Value generators.

def _iban_check_digits(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    number = int("".join(str(int(ch, 36)) for ch in rearranged))
    return f"{98 - number % 97:02d}"


# IBAN BBAN layouts: country -> sequence of (alphabet, length).
_IBAN_LAYOUTS: Mapping[str, tuple[tuple[str, int], ...]] = {
    "DE": ((string.digits, 18),),
    "GB": ((string.ascii_uppercase, 4), (string.digits, 14)),
    "FR": ((string.digits, 23),),
    "NL": ((string.ascii_uppercase, 4), (string.digits, 10)),
    "ES": ((string.digits, 20),),
    "IT": ((string.ascii_uppercase, 1), (string.digits, 10), (string.digits, 12)),
    "BE": ((string.digits, 12),),
    "IE": ((string.ascii_uppercase, 4), (string.digits, 14)),
    "PL": ((string.digits, 24),),
    "AT": ((string.digits, 16),),
    "CH": ((string.digits, 17),),
    "PT": ((string.digits, 21),),
}

# International numbers: (country calling code, national number pattern). In a pattern, N is any digit,
# X is 2-9, M is 4-9, other characters are literal; spaces show how people group the digits.
_INTL_PHONES: tuple[tuple[str, str], ...] = (
    ("44", "7MNN NNNNNN"), ("44", "20 7NNN NNNN"),              # UK mobile, London
    ("49", "15N NNNNNNNN"), ("49", "17N NNNNNNN"), ("49", "30 NNNNNNNN"),  # DE mobile, Berlin
    ("33", "6 NN NN NN NN"), ("33", "1 NN NN NN NN"),          # FR mobile, Paris
    ("91", "9NNNN NNNNN"), ("91", "8NNNN NNNNN"),              # IN mobile
    ("61", "4NN NNN NNN"),                                    # AU mobile
    ("55", "11 9NNNN-NNNN"),                                  # BR São Paulo mobile
    ("81", "90-NNNN-NNNN"), ("81", "80-NNNN-NNNN"),            # JP mobile
    ("34", "6NN NNN NNN"),                                    # ES mobile
    ("31", "6 NNNNNNNN"),                                     # NL mobile
    ("52", "55 NNNN NNNN"),                                   # MX Mexico City
    ("353", "8M NNN NNNN"),                                   # IE mobile
    ("1", "XNN XNN NNNN"),                                    # NANP
)
_PATTERN_DIGITS: Mapping[str, str] = {"N": string.digits, "X": "23456789", "M": "456789"}


def _ascii_fold(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", folded.lower())


class _Values:
    """Draws well-formed values from one seeded random source."""

    def __init__(self, rng: random.Random, locales: tuple[str, ...] = ()) -> None:
        self.rng = rng
        self.locales = locales
        self._names: dict[str, Faker] = {}
        for i, locale in enumerate(dict.fromkeys(_NAME_LOCALES + _STREET_LOCALES)):
            fake = Faker(locale)
            fake.seed_instance(rng.getrandbits(32) + i)
            self._names[locale] = fake
        # Extra locales are seeded after the default ones, so the default corpus does not change.
        for i, locale in enumerate(loc for loc in dict.fromkeys(locales) if loc not in self._names):
            fake = Faker(locale)
            fake.seed_instance(rng.getrandbits(32) + 100 + i)
            self._names[locale] = fake

    # -- helpers
    def _chars(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def _faker(self, locales: tuple[str, ...], weights: tuple[int, ...]) -> Faker:
        return self._names[self.rng.choices(locales, weights)[0]]

    def _person_parts(self) -> tuple[str, str]:
        fake = (self._names[self.rng.choice(self.locales)] if self.locales
                else self._faker(_NAME_LOCALES, _NAME_WEIGHTS))
        return fake.first_name(), fake.last_name()

    # -- PII
    def person(self, ctx: dict[str, str]) -> str:
        first, last = self._person_parts()
        ctx.setdefault("_person_parts", f"{first}\t{last}")
        return f"{first} {last}"

    def first(self, ctx: dict[str, str]) -> str:
        first, _ = self._person_parts()
        return first

    def city(self, ctx: dict[str, str]) -> str:
        if self.locales:  # half the cities from the locales' own lists (real towns, many small)
            local = [loc for loc in self.locales if loc in _REAL_CITY_LOCALES]
            if local and self.rng.random() < 0.5:
                return self._names[self.rng.choice(local)].city()
        if self.rng.random() < 0.15:
            return self._names["de_DE"].city()
        return self.rng.choice(_CITIES)

    def street(self, ctx: dict[str, str]) -> str:
        fake = (self._names[self.rng.choice(self.locales)] if self.locales
                else self._faker(_STREET_LOCALES, _STREET_WEIGHTS))
        return " ".join(fake.street_address().split())

    def country(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(_COUNTRIES)

    def nrp(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(_NRPS)

    def email(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        parts = ctx.get("_person_parts")
        if parts and rng.random() < 0.6 and "_email_from_person" not in ctx:
            ctx["_email_from_person"] = "1"
            first, last = (_ascii_fold(p) for p in parts.split("\t"))
            local = rng.choice((f"{first}.{last}", f"{first[:1]}{last}", f"{first}_{last}", f"{last}.{first}"))
        else:
            first, last = (_ascii_fold(p) for p in self._person_parts())
            local = rng.choice((f"{first}.{last}", f"{first}{last}{rng.randint(1, 99)}", f"{first[:1]}.{last}",
                                f"{first}{rng.randint(1970, 2005)}"))
        domain = rng.choice(_FREE_MAIL if rng.random() < 0.55 else _WORK_MAIL)
        return f"{local or 'user'}@{domain}"

    def phone(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        area = rng.choice(_US_AREA_CODES)
        exchange = str(rng.randint(2, 9)) + self._chars(string.digits, 2)
        while exchange[1:] == "11":
            exchange = str(rng.randint(2, 9)) + self._chars(string.digits, 2)
        line = self._chars(string.digits, 4)
        fmt = rng.choice((
            "({a}) {e}-{l}", "({a}) {e}-{l}", "{a}-{e}-{l}", "{a}.{e}.{l}", "{a} {e} {l}", "{a}{e}{l}",
            "+1 {a} {e} {l}", "+1-{a}-{e}-{l}", "1 ({a}) {e}-{l}",
        ))
        return fmt.format(a=area, e=exchange, l=line)

    def phone_intl(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        code, pattern = rng.choice(_INTL_PHONES)
        national = "".join(rng.choice(_PATTERN_DIGITS[ch]) if ch in _PATTERN_DIGITS else ch for ch in pattern)
        style = rng.random()
        if style < 0.45:
            return f"+{code} {national}"
        if style < 0.85:
            return f"+{code}" + re.sub(r"[^0-9]", "", national)
        return f"+{code}-" + re.sub(r"[ ]", "-", national)

    def card(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        brand = rng.choice(("visa", "visa", "mastercard", "mastercard", "amex", "discover"))
        if brand == "visa":
            payload = "4" + self._chars(string.digits, 14)
        elif brand == "mastercard":
            prefix = str(rng.randint(51, 55)) if rng.random() < 0.7 else str(rng.randint(2221, 2720))
            payload = prefix + self._chars(string.digits, 15 - len(prefix))
        elif brand == "amex":
            payload = rng.choice(("34", "37")) + self._chars(string.digits, 12)
        else:
            payload = "6011" + self._chars(string.digits, 11)
        number = payload + luhn_check_digit(payload)
        sep = rng.choice((" ", " ", "-", ""))
        groups = [number[:4], number[4:10], number[10:]] if len(number) == 15 else [
            number[i:i + 4] for i in range(0, 16, 4)]
        return sep.join(groups)

    def ssn(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        area = rng.choice([a for a in range(1, 900) if a != 666])
        group, serial = rng.randint(1, 99), rng.randint(1, 9999)
        sep = rng.choice(("-", "-", "-", " "))
        return f"{area:03d}{sep}{group:02d}{sep}{serial:04d}"

    def iban(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        country = rng.choice(tuple(_IBAN_LAYOUTS))
        bban = "".join(self._chars(alpha, n) for alpha, n in _IBAN_LAYOUTS[country])
        compact = country + _iban_check_digits(country, bban) + bban
        if rng.random() < 0.5:
            return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))
        return compact

    def ipv4(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        if rng.random() < 0.25:
            return rng.choice((f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                               f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                               f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"))
        return self._names["en_US"].ipv4_public()

    def ipv6(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        groups = [f"{rng.getrandbits(16):x}" for _ in range(8)]
        groups[0] = rng.choice(("2001", "2a02", "2600", "2a01", "2c0f", "2406"))
        style = rng.random()
        if style < 0.4:  # compressed run of zeros, as ip -6 addr prints it
            cut = rng.randint(2, 4)
            return ":".join(groups[:cut]) + "::" + ":".join(groups[cut + 2 + rng.randint(0, 1):])
        if style < 0.7:
            return ":".join(groups)
        return ":".join(g.zfill(4) for g in groups)

    def mac(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        octets = [f"{rng.getrandbits(8):02x}" for _ in range(6)]
        style = rng.random()
        if style < 0.45:
            return ":".join(octets)
        if style < 0.75:
            return "-".join(octets).upper()
        if style < 0.9:
            return ":".join(octets).upper()
        joined = "".join(octets)
        return ".".join(joined[i:i + 4] for i in range(0, 12, 4))

    def dob(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        year, month, day = rng.randint(1940, 2006), rng.randint(1, 12), rng.randint(1, 28)
        name = _MONTHS[month - 1]
        return rng.choice((
            f"{name} {day}, {year}", f"{day} {name} {year}", f"{month:02d}/{day:02d}/{year}",
            f"{year}-{month:02d}-{day:02d}", f"{name[:3]} {day} {year}", f"{day:02d}.{month:02d}.{year}",
            f"{month}/{day}/{year}",
        ))

    # -- secrets
    def aws_id(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(("AKIA", "AKIA", "AKIA", "ASIA")) + self._chars(_B32, 16)

    def aws_secret(self, ctx: dict[str, str]) -> str:
        return self._chars(_ALNUM + "/+", 40)

    def gh(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.6:
            return self.rng.choice(("ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_")) + self._chars(_ALNUM, 36)
        return "github_pat_" + self._chars(string.digits + string.ascii_uppercase, 22) + "_" + self._chars(
            _ALNUM, 59)

    def gl(self, ctx: dict[str, str]) -> str:
        return "glpat-" + self._chars(_B64URL, 20)

    def slack(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        kind = rng.choice(("xoxb", "xoxb", "xoxp", "xoxa", "xoxs"))
        ids = "-".join(self._chars(string.digits, rng.randint(10, 13)) for _ in range(2 if kind == "xoxb" else 3))
        tail = self._chars(_ALNUM, 24) if kind == "xoxb" else self._chars(_HEX, 32)
        return f"{kind}-{ids}-{tail}"

    def stripe(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.5:
            return "sk_live_" + self._chars(_ALNUM, 24)
        return "sk_live_51" + self._chars(_ALNUM, 97)

    def google(self, ctx: dict[str, str]) -> str:
        return "AIza" + self._chars(_B64URL, 35)

    def openai(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.4:
            return "sk-" + self._chars(_ALNUM, 20) + "T3BlbkFJ" + self._chars(_ALNUM, 20)
        return "sk-proj-" + self._chars(_B64URL, 56) + "T3BlbkFJ" + self._chars(_B64URL, 56)

    def jwt(self, ctx: dict[str, str]) -> str:
        rng = self.rng

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        alg = rng.choice(("HS256", "HS256", "ES256"))
        iat = rng.randint(1_650_000_000, 1_760_000_000)
        claims = {"sub": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "iat": iat,
                  "exp": iat + rng.choice((900, 3600, 86400)), "scope": rng.choice(("read", "read write", "admin"))}
        header = b64(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
        payload = b64(json.dumps(claims, separators=(",", ":")).encode())
        signature = b64(rng.randbytes(32 if alg == "HS256" else 64))
        return f"{header}.{payload}.{signature}"

    def pem(self, ctx: dict[str, str]) -> str:
        kind = self.rng.choice(("RSA", "EC", "OPENSSH", "PKCS8"))
        return self._pem(kind)

    def pem_openssh(self, ctx: dict[str, str]) -> str:
        return self._pem("OPENSSH")

    def _pem(self, kind: str) -> str:
        # Real DER/openssh prefixes, random bodies; RSA bodies are cut short to keep prompts under MAX_CHARS.
        prefix, label, lines, width, tail = {
            "RSA": ("MIIEpAIBAAKCAQEA", "RSA PRIVATE KEY", 4, 64, 24),
            "EC": ("MHcCAQEEI", "EC PRIVATE KEY", 2, 64, 36),
            "OPENSSH": ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
                        "OPENSSH PRIVATE KEY", 3, 70, 20),
            "PKCS8": ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "PRIVATE KEY", 3, 64, 28),
        }[kind]
        body = prefix + self._chars(_B64, lines * width - len(prefix))
        body_lines = [body[i:i + width] for i in range(0, len(body), width)]
        body_lines.append(self._chars(_B64, tail - 1) + "=")
        return f"-----BEGIN {label}-----\n" + "\n".join(body_lines) + f"\n-----END {label}-----"

    def pw(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.4:
            word = rng.choice(_WORDS)
            return word.capitalize() + str(rng.randint(10, 9999)) + rng.choice(_PW_SYMBOLS) + self._chars(_ALNUM, 3)
        if style < 0.75:
            return self._chars(_ALNUM + _PW_SYMBOLS, rng.randint(12, 20))
        return "-".join(rng.sample(_WORDS, 4)) + str(rng.randint(1, 99))

    def bearer(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.4:
            return self._chars(_ALNUM, rng.randint(32, 48))
        if style < 0.7:
            return "ya29.a0" + self._chars(_B64URL, 80)
        return self._chars(_HEX, 40)

    def generic(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.35:
            return self._chars(_HEX, 32)
        if style < 0.65:
            return self._chars(_ALNUM, 40)
        if style < 0.85:
            return base64.b64encode(rng.randbytes(32)).decode()
        return "key-" + self._chars(_HEX, 32)

    def key(self, ctx: dict[str, str], entity_type: str) -> str:
        maker: Callable[[dict[str, str]], str] = {
            "GITHUB_TOKEN": self.gh, "GITLAB_TOKEN": self.gl, "SLACK_TOKEN": self.slack,
            "STRIPE_KEY": self.stripe, "GOOGLE_API_KEY": self.google, "OPENAI_API_KEY": self.openai,
            "GENERIC_SECRET": self.generic, "JWT": self.jwt, "AWS_ACCESS_KEY_ID": self.aws_id,
            "AWS_SECRET_KEY": self.aws_secret,
        }[entity_type]
        return maker(ctx)

    # -- fillers (never personal data, never secrets)
    def filler(self, name: str, ctx: dict[str, str]) -> str:
        rng = self.rng
        if name == "key_label":
            return rng.choice(_KEY_KINDS[ctx["_key_type"]][0])
        if name == "key_env":
            return rng.choice(_KEY_KINDS[ctx["_key_type"]][1])
        if name == "sha":
            return self._chars(_HEX, 40)
        if name == "short_sha":
            return self._chars(_HEX, rng.choice((7, 7, 8, 10)))
        if name == "sha256":
            return self._chars(_HEX, 64)
        if name == "uuid":
            return str(uuid.UUID(int=rng.getrandbits(128), version=4))
        if name == "semver":
            return f"{rng.randint(0, 19)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}"
        if name == "n":
            return str(rng.choice((3, 5, 12, 40, 101, 250, 480, 1200)))
        if name == "amount":
            return f"{rng.randint(12, 4999):,}.{rng.randint(0, 99):02d}"
        choices = {
            "product": _PRODUCTS, "dbuser": _DB_USERS, "dbname": _DB_NAMES, "host": _HOSTS,
            "http": _HTTP_CODES, "exit": _EXIT_CODES,
        }.get(name)
        if choices is None:
            raise KeyError(f"unknown template slot <<{name}>>")
        return rng.choice(choices)


# --------------------------------------------------------------------------------------------------------
# Assembly.

@dataclass(frozen=True, slots=True)
class _Template:
    template_id: str
    category: str
    text: str
    entity_types: frozenset[str]  # the types its slots can produce


def _index_templates() -> tuple[_Template, ...]:
    out = []
    for category, texts in ((PII, _PII_TEMPLATES), (SECRET, _SECRET_TEMPLATES), (CLEAN, _CLEAN_TEMPLATES)):
        for i, text in enumerate(texts):
            types: set[str] = set()
            for name, _ in _SLOT_RE.findall(text):
                if name == _KEY_SLOT:
                    types.update(_KEY_KINDS)
                elif name in _ENTITY_SLOTS:
                    types.add(_ENTITY_SLOTS[name])
            out.append(_Template(f"{category}-{i:03d}", category, text, frozenset(types)))
    return tuple(out)


_TEMPLATES = _index_templates()


def _fill(template: _Template, values: _Values, target: str | None) -> tuple[str, tuple[Entity, ...]]:
    ctx: dict[str, str] = {}
    if _KEY_SLOT in {name for name, _ in _SLOT_RE.findall(template.text)}:
        ctx["_key_type"] = target if target in _KEY_KINDS else values.rng.choice(tuple(_KEY_KINDS))
    filled: dict[tuple[str, str], str] = {}
    entities: list[Entity] = []

    def draw(match: re.Match[str]) -> str:
        name, idx = match.group(1), match.group(2) or ""
        if (name, idx) in filled:
            return filled[(name, idx)]
        taken = {v for (n, _), v in filled.items() if n == name}
        for _ in range(20):  # a second value of one kind must differ from the first
            if name == _KEY_SLOT:
                value, entity_type = values.key(ctx, ctx["_key_type"]), ctx["_key_type"]
            elif name in _ENTITY_SLOTS:
                value, entity_type = getattr(values, name)(ctx), _ENTITY_SLOTS[name]
            else:
                value, entity_type = values.filler(name, ctx), None
            if value not in taken:
                break
        filled[(name, idx)] = value
        if entity_type is not None:
            entities.append(Entity(entity_type, value))
        return value

    text = _SLOT_RE.sub(draw, template.text)
    return text, tuple(dict.fromkeys(entities))


def _dress(text: str, rng: random.Random) -> str:
    """Maybe put a neutral lead-in before and a follow-up after the prompt."""
    if rng.random() < _DRESS_P:
        text = rng.choice(_LEAD_INS) + rng.choice((" ", "\n", "\n\n")) + text
    if rng.random() < _DRESS_P:
        text = text + rng.choice((" ", "\n", "\n\n")) + rng.choice(_FOLLOW_UPS)
    return text


def _category_counts(n: int, mix: Mapping[str, float]) -> dict[str, int]:
    unknown = set(mix) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"unknown corpus categories in mix: {sorted(unknown)}")
    total = sum(mix.values())
    if total <= 0:
        raise ValueError("corpus mix must have a positive total")
    counts = {c: int(n * mix.get(c, 0.0) / total) for c in CATEGORIES}
    # hand the remainder to the categories with the largest fractional parts, in CATEGORIES order
    rest = n - sum(counts.values())
    by_fraction = sorted(CATEGORIES, key=lambda c: -(n * mix.get(c, 0.0) / total - counts[c]))
    for c in by_fraction[:rest]:
        counts[c] += 1
    return counts


def generate(n: int, seed: int, mix: Mapping[str, float] | None = None,
             locales: tuple[str, ...] = ()) -> list[Sample]:
    """Return ``n`` samples, the same for the same ``(n, seed, mix, locales)``.

    ``locales`` (Faker locale names, e.g. WORLD_LOCALES) draws every name and street from those locales in
    equal shares and half the cities from their own town lists, a harder test of names and places than the
    default mix (mostly en_US names, well-known cities); left empty, the corpus is the default one.

    The mix defaults to DEFAULT_MIX. Within PII and secret samples, each sample targets one entity type in
    turn (a seeded shuffle of the types, cycled), so that every type appears once the category holds at
    least as many samples as it has types (with the default mix, from n = 44); multi-value templates add
    other types on top. Templates are drawn among those that can embed the target type.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = random.Random(seed)
    values = _Values(rng, tuple(locales))
    counts = _category_counts(n, DEFAULT_MIX if mix is None else mix)
    by_category = {c: [t for t in _TEMPLATES if t.category == c] for c in CATEGORIES}
    targets = {PII: sorted(PII_ENTITY_TYPES), SECRET: sorted(SECRET_ENTITY_TYPES)}
    for types in targets.values():
        rng.shuffle(types)

    drafts: list[tuple[str, str, tuple[Entity, ...], str]] = []
    for category in CATEGORIES:
        cycle = itertools.cycle(targets[category]) if category in targets else itertools.repeat(None)
        for _ in range(counts[category]):
            target = next(cycle)
            pool = [t for t in by_category[category] if target is None or target in t.entity_types]
            for _attempt in range(50):
                template = rng.choice(pool)
                text, entities = _fill(template, values, target)
                text = _dress(text, rng)
                if MIN_CHARS <= len(text) <= MAX_CHARS:
                    break
            else:
                raise RuntimeError(f"no template of {category}/{target} fits {MIN_CHARS}-{MAX_CHARS} characters")
            drafts.append((category, text, entities, template.template_id))

    rng.shuffle(drafts)
    return [Sample(f"{category}-{i:05d}", category, text, entities, template_id)
            for i, (category, text, entities, template_id) in enumerate(drafts)]
