"""A second redaction corpus, built apart from ``redaction_corpus`` to tune tier 2 on text it was not written for.

Different shapes (support tickets, e-mail headers, chat logs, git logs, code with ``TODO(name)``, SQL, YAML,
.env, JSON, CSV, contact blocks in other scripts, 10 KB mixed documents, clean technical text whose capitalised
words are town names), different name and place sources (Faker's per-locale name and town lists, including
its invented towns that no gazetteer holds: "West Davidmouth"), and values from Faker's own generators. It is
written to JSONL (``ztgate_bench.corpus_file``) and scored with ``ztgate bench redaction --corpus FILE``:

    python -m ztgate_bench.context_corpus --split tune --out bench/corpora/context-tune.jsonl

Two splits: ``tune`` (seed 11, the templates not marked held out) is what rules are tuned on; ``holdout``
(seed 29, every template, the held-out ones included) is only reported on. Nothing here is used by tests.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field

from faker import Faker

from ztgate_bench import corpus_file
from ztgate_bench.redaction_corpus import CLEAN, PII, SECRET, Entity, Sample

# Latin-script locales for names and towns (Faker's lists, not the gazetteer's sources).
NAME_LOCALES = ("en_US", "en_GB", "en_IE", "de_DE", "nl_NL", "es_ES", "fr_FR", "it_IT", "pl_PL", "pt_BR",
                "sv_SE", "cs_CZ", "hu_HU", "fi_FI", "da_DK", "ro_RO", "tr_TR")
TOWN_LOCALES = ("en_US", "en_GB", "de_DE", "nl_NL", "pl_PL", "it_IT", "fi_FI", "da_DK", "cs_CZ", "sv_SE",
                "hu_HU", "fr_FR")
# Given names that are also English words, for "Will Turner" / "Rose Tyler".
WORD_GIVEN_NAMES = ("Will", "Rose", "Mark", "Bill", "Grace", "Faith", "Hope", "Joy", "Dawn", "Summer", "Hunter",
                    "Carol", "Gene", "Jack", "Frank", "Grant", "Ray", "Pat", "Iris", "Amber", "Holly", "Ivy",
                    "Max", "Dean", "Chase", "Violet", "Sandy", "Penny", "Victor", "Rich", "Cliff", "Glen")
# Town names that are also ordinary words or technical terms, for clean technical text.
TOWN_WORDS = ("Reading", "Bath", "Split", "Nice", "Mobile", "Normal", "Orange", "Temple", "Derby", "Sale",
              "Wells", "Hope", "Liberty", "Independence", "Commerce", "Enterprise", "Marathon", "Aurora",
              "Phoenix", "Mesa", "Deal", "Battle", "Best", "Boring", "Ware", "Flint", "Buffalo", "Mercury",
              "Jupiter", "Columbia", "Florence", "Victoria", "Chester", "Eagle", "Bristol", "Cork", "Bend",
              "Hull", "Angers", "Tours", "Bologna", "Troy", "Sparta", "Delta", "Bangor", "Salem", "Dover",
              "Cambridge", "Oxford", "Lancaster", "Kingston", "Newport", "Manchester", "Hamburg", "Berlin")
WORD_SURNAMES = ("Turner", "Tyler", "Hughes", "Baxter", "Pollard", "Ashby", "Whitlock", "Kerr", "Dunmore")


@dataclass
class _Doc:
    """A document being written: its text pieces and the values it embeds."""

    parts: list[str] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)

    def add(self, text: str) -> _Doc:
        self.parts.append(text)
        return self

    def value(self, kind: str, value: str) -> _Doc:
        self.parts.append(value)
        self.entities.append(Entity(kind, value))
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)


class _Source:
    """Names, towns and values, drawn from Faker with one seeded Random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.fakers = {loc: Faker(loc) for loc in set(NAME_LOCALES) | set(TOWN_LOCALES) | {"zh_CN", "ru_RU"}}
        for i, f in enumerate(self.fakers.values()):
            f.seed_instance(seed * 1000 + i)

    def faker(self, locales: tuple[str, ...] = NAME_LOCALES) -> Faker:
        return self.fakers[self.rng.choice(locales)]

    def first(self) -> str:
        return self.faker().first_name().split()[0]

    def last(self) -> str:
        return self.faker().last_name()

    def name(self) -> str:
        kind = self.rng.random()
        if kind < 0.12:
            return f"{self.fakers['nl_NL'].first_name()} {self.rng.choice(['van der', 'van den', 'de', 'van'])} " \
                   f"{self.fakers['nl_NL'].last_name().split()[-1].capitalize()}"
        if kind < 0.22:
            es = self.fakers["es_ES"]
            return f"{es.first_name()} {es.last_name()} {es.last_name()}"
        if kind < 0.30:
            return f"{self.first()} {self.last()}-{self.last()}"
        if kind < 0.40:
            return f"{self.rng.choice(WORD_GIVEN_NAMES)} {self.rng.choice(WORD_SURNAMES + (self.last(),))}"
        return f"{self.first()} {self.last()}"

    def town(self) -> str:
        return self.faker(TOWN_LOCALES).city()

    def email(self, name: str | None = None) -> str:
        base = (name or self.name()).split()
        local = ".".join(w.casefold() for w in base[::max(1, len(base) - 1)])
        local = "".join(c for c in local if c.isascii() and (c.isalnum() or c == ".")) or "user"
        return f"{local}{self.rng.randint(1, 99)}@{self.rng.choice(['example.com', 'mail.test', 'corp.example'])}"

    def phone(self) -> str:
        return self.rng.choice([
            lambda: f"+44 20 {self.rng.randint(7000, 8999)} {self.rng.randint(1000, 9999)}",
            lambda: f"+49 30 {self.rng.randint(100000, 999999)}{self.rng.randint(10, 99)}",
            lambda: f"({self.rng.randint(201, 989)}) {self.rng.randint(200, 989)}-{self.rng.randint(1000, 9999)}",
            lambda: f"+33 6 {self.rng.randint(10, 99)} {self.rng.randint(10, 99)} {self.rng.randint(10, 99)} "
                    f"{self.rng.randint(10, 99)}",
        ])()

    def iban(self) -> str:
        return self.fakers[self.rng.choice(["de_DE", "nl_NL", "fr_FR", "es_ES", "it_IT"])].iban()

    def card(self) -> str:
        return self.fakers["en_US"].credit_card_number(self.rng.choice(["visa16", "mastercard", "amex"]))

    def ssn(self) -> str:
        return self.fakers["en_US"].ssn()

    def ip(self) -> str:
        return self.fakers["en_US"].ipv4_public()

    def token(self, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def sha(self, n: int = 40) -> str:
        return self.token(n, "0123456789abcdef")


# --- PII documents --------------------------------------------------------------------------------------

def _ticket(s: _Source) -> _Doc:
    name, town, first = s.name(), s.town(), s.first()
    d = _Doc().add(f"Ticket #{s.rng.randint(10000, 99999)} | Priority: {s.rng.choice(['P2', 'P3'])}\nFrom: ")
    d.value("PERSON", name).add(" <").value("EMAIL_ADDRESS", s.email(name)).add(">\nSubject: Refund for ")
    d.value("PERSON", first).add("\n\nHello support,\n\nI moved to ").value("LOCATION", town)
    d.add(" in March and my card ").value("CREDIT_CARD", s.card()).add(" was charged twice for the same plan. "
                                                                       "Can you reverse one of them?\n\nThanks,\n")
    return d.value("PERSON", name.split()[0])


def _email_headers(s: _Source) -> _Doc:
    a, b = s.name(), s.name()
    d = _Doc().add("From: ").value("PERSON", a).add(" <").value("EMAIL_ADDRESS", s.email(a)).add(">\nTo: ")
    d.value("EMAIL_ADDRESS", s.email(b)).add(f"\nDate: Tue, {s.rng.randint(1, 28)} Oct 2025 09:14:02 +0200\n"
                                               "Subject: Contract renewal - ")
    d.value("PERSON", b).add("\n\nDear ").value("PERSON", b.split()[0])
    return d.add(",\n\nplease find the signed copy attached. Let me know if legal needs anything else.\n\nBest,\n"
                 ).value("PERSON", a.split()[0])


def _chat(s: _Source) -> _Doc:
    name, town = s.name(), s.town()
    d = _Doc().add(f"[09:{s.rng.randint(10, 59)}] <ops-bot> deploy finished\n[09:{s.rng.randint(10, 59)}] <kim> "
                   "who's on call tonight?\n[10:02] <lee> ")
    d.value("PERSON", name).add(", she is based in ").value("LOCATION", town).add(", phone ")
    return d.value("PHONE_NUMBER", s.phone()).add("\n[10:03] <kim> thanks, I'll ping her\n")


def _git_author(s: _Source) -> _Doc:
    a, b = s.name(), s.name()
    d = _Doc().add(f"commit {s.sha()}\nAuthor: ").value("PERSON", a).add(" <").value("EMAIL_ADDRESS", s.email(a))
    d.add(f">\nDate:   Mon Sep {s.rng.randint(1, 28)} 14:02:11 2025 +0200\n\n    Fix {s.rng.choice(TOWN_WORDS)} "
          "importer when the header row is missing\n\n    Reviewed-by: ").value("PERSON", b).add("\n")
    return d


def _code_todo(s: _Source) -> _Doc:
    handle = s.first().casefold()
    name = s.name()
    d = _Doc().add("def load_rates(path):\n    # TODO(").value("PERSON", handle)
    d.add("): switch to the new schema once the export lands\n    rows = read_csv(path)\n    # ask ")
    d.value("PERSON", name).add(" before changing the rounding\n    return [Rate(**r) for r in rows]\n")
    return d


def _sql(s: _Source) -> _Doc:
    name, town = s.name(), s.town()
    d = _Doc().add("INSERT INTO customers (full_name, email, city, iban) VALUES ('").value("PERSON", name)
    d.add("', '").value("EMAIL_ADDRESS", s.email(name)).add("', '").value("LOCATION", town).add("', '")
    return d.value("IBAN_CODE", s.iban()).add("');\n")


def _yaml(s: _Source) -> _Doc:
    name = s.name()
    d = _Doc().add("owner:\n  name: ").value("PERSON", name).add("\n  email: ").value("EMAIL_ADDRESS", s.email(name))
    return d.add("\n  phone: \"").value("PHONE_NUMBER", s.phone()).add("\"\nreplicas: 3\nimage: registry.local/app:1.4\n")


def _csv(s: _Source) -> _Doc:
    d = _Doc().add("id,name,town,ssn\n")
    for i in range(s.rng.randint(2, 4)):
        d.add(f"{i + 1},").value("PERSON", s.name()).add(",").value("LOCATION", s.town()).add(",")
        d.value("US_SSN", s.ssn()).add("\n")
    return d


def _json(s: _Source) -> _Doc:
    name, town = s.name(), s.town()
    d = _Doc().add('{"customer": {"displayName": "').value("PERSON", name).add('", "address": {"city": "')
    d.value("LOCATION", town).add('"}, "lastLoginIp": "').value("IP_ADDRESS", s.ip())
    return d.add('"}, "plan": "pro"}')


def _other_script(s: _Source) -> _Doc:
    name = s.name()
    shape = s.rng.randrange(4)
    d = _Doc()
    if shape == 0:
        d.add("您好，请联系").value("PERSON", name).add("（电话：").value("PHONE_NUMBER", s.phone()).add("）确认订单。")
    elif shape == 1:
        d.add("Здравствуйте! Пожалуйста, свяжитесь с ").value("PERSON", name).add(" по адресу ")
        d.value("EMAIL_ADDRESS", s.email(name)).add(", он отвечает за поставки.")
    elif shape == 2:
        d.add("مرحبا، يرجى التواصل مع ").value("PERSON", name).add(" على الرقم ").value("PHONE_NUMBER", s.phone())
    else:
        d.add("こんにちは。担当は").value("PERSON", name).add("さんです。メール: ").value("EMAIL_ADDRESS", s.email(name))
    return d


def _prose_contexts(s: _Source) -> _Doc:
    """Names and towns in the contexts that say what they are, no list needed."""
    d = _Doc()
    shape = s.rng.randrange(6)
    if shape == 0:
        d.add("My sister lives in ").value("LOCATION", s.town()).add(" now and works for ")
        d.value("PERSON", s.name()).add(" at the clinic.")
    elif shape == 1:
        d.add("Could you draft a birthday message for ").value("PERSON", s.name())
        d.add("? We met when we were both based in ").value("LOCATION", s.town()).add(".")
    elif shape == 2:
        d.add("I'm from ").value("LOCATION", s.town()).add(", a small place nobody has heard of. My manager ")
        d.value("PERSON", s.name()).add(" wants me to write a short bio.")
    elif shape == 3:
        d.add("We relocated to ").value("LOCATION", s.town()).add(" after ").value("PERSON", s.name())
        d.add(" got the job. Help me write a note to the landlord.")
    elif shape == 4:
        name = s.name()
        d.add("Please proofread this:\n\nDear ").value("PERSON", name).add(",\nthe invoice for ")
        d.value("LOCATION", s.town()).add(" is attached.\n\nRegards,\n").value("PERSON", s.first())
    else:
        d.add("Summarise the call: ").value("PERSON", s.name()).add(" said the ").value("LOCATION", s.town())
        d.add(" office opens in May; ").value("PERSON", s.name()).add(" will send the lease.")
    return d


def _contact_block(s: _Source) -> _Doc:
    name = s.name()
    d = _Doc().add("Please update the supplier record:\n\n").value("PERSON", name).add("\n")
    d.value("LOCATION", s.town()).add("\n").value("PHONE_NUMBER", s.phone()).add("\n")
    return d.value("EMAIL_ADDRESS", s.email(name)).add("\n")


# --- secret documents -----------------------------------------------------------------------------------

def _env(s: _Source) -> _Doc:
    d = _Doc().add("# staging\nDATABASE_URL=postgres://app@db.internal:5432/app\nAWS_ACCESS_KEY_ID=")
    d.value("AWS_ACCESS_KEY_ID", "AKIA" + s.token(16, string.ascii_uppercase + "234567"))
    d.add("\nAWS_SECRET_ACCESS_KEY=").value("AWS_SECRET_KEY", s.token(40, string.ascii_letters + string.digits + "/+"))
    return d.add("\nLOG_LEVEL=info\n")


def _curl(s: _Source) -> _Doc:
    d = _Doc().add("why does this return 401?\n\ncurl -s https://api.github.com/user -H \"Authorization: token ")
    return d.value("GITHUB_TOKEN", "ghp_" + s.token(36)).add("\"\n")


def _json_secret(s: _Source) -> _Doc:
    d = _Doc().add('{"slack": {"bot_token": "').value("SLACK_TOKEN", f"xoxb-{s.rng.randint(10**10, 10**11)}-"
                                                      f"{s.rng.randint(10**10, 10**11)}-{s.token(24)}")
    d.add('"}, "stripe": {"secret": "').value("STRIPE_KEY", "sk_live_" + s.token(24))
    return d.add('"}, "retries": 3}')


def _jwt(s: _Source) -> _Doc:
    def b64(obj: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()
    token = f"{b64({'alg': 'HS256', 'typ': 'JWT'})}.{b64({'sub': s.token(8), 'exp': 1760000000})}." \
            f"{base64.urlsafe_b64encode(hashlib.sha256(s.token(12).encode()).digest()).rstrip(b'=').decode()}"
    return _Doc().add("decode this and tell me when it expires: ").value("JWT", token)


# --- clean documents ------------------------------------------------------------------------------------

def _clean_git_log(s: _Source) -> _Doc:
    d = _Doc()
    for _ in range(s.rng.randint(2, 5)):
        word = s.rng.choice(TOWN_WORDS)
        msg = s.rng.choice([f"Fix {word} parser on empty input", f"Merge branch 'feature/{word.casefold()}-cache'",
                            f"{word}: handle timeouts in the retry loop", f"Bump {word} to 2.{s.rng.randint(0, 9)}",
                            f"Revert \"Use {word} scheduler\"", f"Add {word} mode to the exporter"])
        d.add(f"{s.sha(7)} {msg}\n")
    return d


def _clean_git_status(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"On branch {w.casefold()}-rework\nChanges not staged for commit:\n  modified:   "
                      f"src/{w}Client.java\n  modified:   docs/{w}.md\n\n{s.sha(7)} (HEAD -> main) {w} release notes\n")


def _clean_diff(s: _Source) -> _Doc:
    w, v = s.rng.choice(TOWN_WORDS), s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"diff --git a/app/config.py b/app/config.py\n--- a/app/config.py\n+++ b/app/config.py\n"
                      f"@@ -12,7 +12,7 @@ class Settings:\n-    mode = \"{w}\"\n+    mode = \"{v}\"\n"
                      f"     # {v} mode batches writes\n     retries = 3\n")


def _clean_trace(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    if s.rng.random() < 0.5:
        return _Doc().add(f"Traceback (most recent call last):\n  File \"/srv/app/{w.casefold()}/main.py\", line "
                          f"{s.rng.randint(10, 300)}, in run\n    {w}Loader().load()\nKeyError: '{w}'\n")
    return _Doc().add(f"Exception in thread \"main\" java.lang.IllegalStateException: {w} not ready\n"
                      f"\tat com.acme.{w.casefold()}.{w}Service.start({w}Service.java:{s.rng.randint(10, 99)})\n"
                      f"\tat com.acme.Main.main(Main.java:12)\n")


def _clean_code(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"class {w}Cache:\n    \"\"\"{w} keeps the last results in memory.\"\"\"\n\n    def get(self, key):\n"
                      f"        # {w} lookups are cheap; see {s.rng.choice(TOWN_WORDS)} for the slow path\n"
                      f"        return self._data.get(key)\n")


def _clean_sql(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"SELECT region, count(*) AS n\nFROM orders\nWHERE status = '{w}' AND created_at > now() - "
                      f"interval '7 days'\nGROUP BY region\nORDER BY n DESC;\n-- {w} rows come from the nightly job\n")


def _clean_yaml(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"service:\n  name: {w.casefold()}-api\n  profile: {w}\n  replicas: {s.rng.randint(1, 9)}\n"
                      f"  image: ghcr.io/acme/{w.casefold()}:{s.rng.randint(1, 3)}.{s.rng.randint(0, 20)}\n"
                      "  env:\n    LOG_LEVEL: debug\n")


def _clean_table(s: _Source) -> _Doc:
    d = _Doc().add("| job | status | duration |\n|---|---|---|\n")
    for _ in range(s.rng.randint(2, 5)):
        d.add(f"| {s.rng.choice(TOWN_WORDS)} | {s.rng.choice(['passed', 'failed'])} | {s.rng.randint(1, 90)}s |\n")
    return d


def _clean_log(s: _Source) -> _Doc:
    d = _Doc()
    for _ in range(s.rng.randint(3, 6)):
        w = s.rng.choice(TOWN_WORDS)
        d.add(f"2025-10-0{s.rng.randint(1, 9)}T12:{s.rng.randint(10, 59)}:0{s.rng.randint(0, 9)}Z "
              f"{s.rng.choice(['INFO', 'WARN', 'ERROR'])} [{w}Worker] {w} queue drained in "
              f"{s.rng.randint(2, 900)}ms\n")
    return d


def _clean_prose(s: _Source) -> _Doc:
    w = s.rng.choice(TOWN_WORDS)
    return _Doc().add(f"Explain the difference between optimistic and pessimistic locking, and when the {w} "
                      "strategy in our ORM would pick each one. Keep it under 200 words.")


# --- long mixed documents -------------------------------------------------------------------------------

_CLEAN_BLOCKS = (lambda s: _clean_git_log(s), lambda s: _clean_diff(s), lambda s: _clean_trace(s),
                 lambda s: _clean_code(s), lambda s: _clean_sql(s), lambda s: _clean_yaml(s),
                 lambda s: _clean_table(s), lambda s: _clean_log(s), lambda s: _clean_git_status(s))
_PII_BLOCKS = (_ticket, _email_headers, _chat, _git_author, _code_todo, _sql, _yaml, _csv, _json, _other_script,
               _prose_contexts, _contact_block)


def _long(s: _Source, clean: bool) -> _Doc:
    d = _Doc()
    while len(d.text) < 10_000:
        blocks = _CLEAN_BLOCKS if clean or s.rng.random() < 0.8 else _PII_BLOCKS + (_env, _json_secret)
        part = s.rng.choice(blocks)(s)
        d.parts.extend([*part.parts, "\n"])
        d.entities.extend(part.entities)
    return d


@dataclass(frozen=True)
class _Template:
    template_id: str
    category: str
    make: Callable[[_Source], _Doc]
    held_out: bool = False  # only in the holdout split


TEMPLATES: tuple[_Template, ...] = (
    _Template("ticket", PII, _ticket), _Template("email-headers", PII, _email_headers),
    _Template("chat", PII, _chat), _Template("git-author", PII, _git_author),
    _Template("code-todo", PII, _code_todo), _Template("sql-insert", PII, _sql), _Template("yaml-owner", PII, _yaml),
    _Template("csv", PII, _csv), _Template("json-customer", PII, _json, held_out=True),
    _Template("other-script", PII, _other_script), _Template("prose-contexts", PII, _prose_contexts),
    _Template("contact-block", PII, _contact_block, held_out=True),
    _Template("long-mixed", PII, lambda s: _long(s, clean=False)),
    _Template("env", SECRET, _env), _Template("curl", SECRET, _curl), _Template("json-secret", SECRET, _json_secret),
    _Template("jwt", SECRET, _jwt, held_out=True),
    _Template("git-log", CLEAN, _clean_git_log), _Template("git-status", CLEAN, _clean_git_status),
    _Template("diff", CLEAN, _clean_diff), _Template("trace", CLEAN, _clean_trace),
    _Template("code", CLEAN, _clean_code), _Template("sql", CLEAN, _clean_sql), _Template("yaml", CLEAN, _clean_yaml),
    _Template("table", CLEAN, _clean_table, held_out=True), _Template("log", CLEAN, _clean_log),
    _Template("prose", CLEAN, _clean_prose), _Template("long-clean", CLEAN, lambda s: _long(s, clean=True)),
)

SPLITS = {"tune": 11, "holdout": 29}


def generate(n: int, split: str = "tune") -> list[Sample]:
    """``n`` documents of a split, the same for the same arguments; clean ones are about 40 per cent."""
    source = _Source(SPLITS[split])
    templates = [t for t in TEMPLATES if split == "holdout" or not t.held_out]
    by_category = {c: [t for t in templates if t.category == c] for c in (PII, SECRET, CLEAN)}
    weights = {PII: 0.45, SECRET: 0.15, CLEAN: 0.40}
    out: list[Sample] = []
    for i in range(n):
        category = source.rng.choices(list(weights), list(weights.values()))[0]
        template = source.rng.choice(by_category[category])
        doc = template.make(source)
        if template.template_id == "long-mixed" and not doc.entities:
            doc = _ticket(source)
        kind = category if doc.entities else CLEAN
        out.append(Sample(f"{split}-{i:05d}", kind, doc.text, tuple(doc.entities), template.template_id))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=sorted(SPLITS), default="tune")
    parser.add_argument("-n", type=int, default=600)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    print(corpus_file.dump(generate(args.n, args.split), args.out))


if __name__ == "__main__":
    main()
