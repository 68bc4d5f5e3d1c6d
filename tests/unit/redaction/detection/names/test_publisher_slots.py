"""A person in a publisher-like slot or closing a program header's version line, and a product's own name in a
manifest known by its shape, as classes (issue #29, ADR 0038).

Slot keys x syntaxes x names: a person-shaped value under a publisher, vendor, manufacturer, provider, company or
supplier key (a define, an attribute, an element, a resource VALUE, a manifest line) is a person whether or not the
shipped lists hold its given name; a company there stays. A comment line holding a version and a date and ending
with a person names that person. A product's ``name``/``title`` (or a key ending in either that names no person)
beside a version key and an identity key, or a version key of its prefix, in the same tag, element or section is
the product's, in every syntax. The rule tests read the rules alone; the ``analyzer`` tests run the production
Analyzer and the default policy. Names, tools, keys and frames are written here, apart from every
``code_persons`` split's pools and templates.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.manifests import product_name_field
from ztgate.redaction.detection.names.context import CONTEXT_RULES
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.names.context.publisher_slots import PublisherSlotRecognizer, publisher_slot_key
from ztgate.redaction.detection.names.context.version_lines import VersionLineRecognizer
from ztgate.redaction.detection.names.product_uses import used_as_product
from ztgate.redaction.policies import PolicyStore
from ztgate_bench import code_persons

POLICY = PolicyStore.load().get("default")
FAST = settings(max_examples=40, deadline=None)
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
PUBLISHER = PublisherSlotRecognizer()
VERSION_LINE = VersionLineRecognizer()

# Albanian and Maltese names; several given names are on no shipped list (the slot alone must say person).
GIVEN = ("Arbër", "Drita", "Dardan", "Mimoza", "Ġorġ", "Rozanne", "Valdet", "Fjolla")
SURNAMES = ("Kelmendi", "Sadiku", "Gashi", "Camilleri", "Cassar", "Zammit", "Xuereb", "Azzopardi")
# Products spelt like given names or surnames.
TOOLS = ("Gwenllian", "Athelstan", "Rosamund", "Peregrine", "Hollis", "Millicent")
# Publisher-like keys in the spellings installers, resource scripts, manifests and stores give them.
KEYS = ("PRODUCT_PUBLISHER", "APP_VENDOR", "Manufacturer", "CompanyName", "Implementation-Vendor", "Bundle-Vendor",
        "PublisherDisplayName", "provider-name", "vendor", "Publisher", "PackageSupplier", "appPublisher")
# Syntaxes: {k} the key, {v} the value.
SYNTAXES = ("!define {k} \"{v}\"\n", "#define {k} \"{v}\"\n", "<Package Name=\"Tide\" {k}=\"{v}\" Version=\"1.0\" />\n",
            "  <{k}>{v}</{k}>\n", "        VALUE \"{k}\", \"{v}\"\n", "{k}: {v}\n", "\"{k}\": \"{v}\",\n",
            "{k} = \"{v}\"\n", "{k}={v}\n", "{k}: Person: {v}\n")
# Companies (and one-word brands) in such a slot ({t} a tool).
COMPANIES = ("{t} Software Ltd", "{t} Media", "{t} Games", "{t} Interactive", "{t} Labs", "{t}", "{t} Studios",
             "{t} Technologies", "{t} Publishing", "{t} Digital")
# Keys that are no publisher-like slot, holding a value of a person's shape.
OTHER_KEYS = ("ProductName", "title", "codename", "FileDescription", "series", "tagline")
# Version lines: {v} the value.
VERSION_FRAMES = ("C     VERSION 2.3   11-MAR-1994   {v}\n", "* recode.sps  v1.3  14-03-2024  {v}.\n",
                  "# sync.sh  0.4.1  2025-01-09  {v} <ab@example.test>\n", "*! version 3.0.2  01jan2021  {v}\n",
                  "% fit_tides.m  v2.0  2023-11-30  {v}\n", "/* tides.sas  1.4  05/06/2022  {v} */\n",
                  "-- v0.9.1 2024-07-12 {v}\n", "; VERSION 1.02  3 Feb 2020  {v}\n")
# Comment lines ending in a capitalised run that is no version line's person.
NOT_VERSION_LINES = ("# v1.2.0 2024-03-01 {t} Release Bot\n", "# v1.2.0 2024-03-01 {t} Core Team\n",
                     "# version 1.2 {v}\n", "# 2024-03-01 {v}\n", "print(\"v1.2 2024-03-01 {v}\")\n",
                     "# v1.2.0 2024-03-01 {v} Harbour Tide Tables\n")
# A product's manifest in a syntax: {n} its name, around it a version key and an identity key or a prefixed version.
MANIFESTS = ("<addon id=\"script.x\" name=\"{n}\" version=\"3.0.2\" provider-name=\"Acme Media\">\n",
             "<package>\n  <id>x</id>\n  <version>1.0.0</version>\n  <title>{n}</title>\n</package>\n",
             "[plugin]\nname=\"{n}\"\ndescription=\"Brushes.\"\nversion=\"1.0\"\n",
             "/**\n * Plugin Name: {n}\n * Version: 1.2.0\n * License: GPL-2.0\n */\n",
             "!define PRODUCT_NAME \"{n}\"\n!define PRODUCT_VERSION \"3.0.0\"\n",
             "Implementation-Title: {n}\nImplementation-Version: 3.0.0\n",
             "<Package Name=\"{n}\" Manufacturer=\"Acme Software\" Version=\"3.0.0.0\" UpgradeCode=\"0d9c\" />\n",
             "{{\n  \"displayName\": \"{n}\",\n  \"version\": \"2.2.0\",\n  \"description\": \"Shaders.\"\n}}\n",
             "Bundle-Name: {n}\nBundle-Version: 1.4.2\nBundle-SymbolicName: org.acme.x\n",
             "bl_info = {{\n    \"name\": \"{n}\",\n    \"version\": (2, 0, 0),\n    \"description\": \"Tools\",\n}}\n")
# The same value where the shape is missing or the key names a person.
NOT_MANIFESTS = ("name: {n}\nemail: ab@example.test\n", "<person id=\"x\" name=\"{n}\" />\n",
                 "author_name: {n}\nversion: 1.0\nlicense: MIT\n", "first_name = \"{n}\"\nversion = 2\nid = 7\n",
                 "[contact]\nname=\"{n}\"\nphone=\"555\"\n", "  <name>{n}</name>\n  <role>lead</role>\n")


def _finds(rule: PublisherSlotRecognizer | VersionLineRecognizer, text: str, surname: str) -> bool:
    i = text.index(surname)
    return any(start <= i < end for start, end, _ in rule.find(text))


def test_the_pools_are_apart() -> None:
    mine = {w.casefold() for w in (*GIVEN, *SURNAMES, *TOOLS)}
    for split in code_persons.SEEDS:
        for pools in (code_persons.TOOLS, code_persons.GIVEN, code_persons.SURNAMES):
            assert not mine & {w.casefold() for w in pools[split]}, split


def test_the_rules_run_after_the_author_slots() -> None:
    names = [rule.NAME for rule in CONTEXT_RULES]
    assert names.index("PublisherSlotRecognizer") == names.index("AuthorSlotRecognizer") + 1
    assert names.index("VersionLineRecognizer") == names.index("PublisherSlotRecognizer") + 1


@FAST
@given(st.sampled_from(KEYS), st.sampled_from(SYNTAXES), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_person_in_a_publisher_like_slot_is_found_in_any_syntax(key: str, syntax: str, first: str,
                                                                  last: str) -> None:
    text = "Version: 1.2.0\n" + syntax.format(k=key, v=f"{first} {last}")
    assert _finds(PUBLISHER, text, last), text


@FAST
@given(st.sampled_from(KEYS), st.sampled_from(SYNTAXES), st.sampled_from(COMPANIES), st.sampled_from(TOOLS))
def test_a_company_or_one_word_in_a_publisher_like_slot_stays(key: str, syntax: str, value: str, tool: str) -> None:
    text = syntax.format(k=key, v=value.format(t=tool))
    assert PUBLISHER.find(text) == [], text


@FAST
@given(st.sampled_from(OTHER_KEYS), st.sampled_from(SYNTAXES), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_person_shaped_value_under_another_key_is_not_this_rules(key: str, syntax: str, first: str,
                                                                   last: str) -> None:
    text = syntax.format(k=key, v=f"{first} {last}")
    assert PUBLISHER.find(text) == [], text


def test_publisher_keys_are_split_at_humps_and_separators() -> None:
    for key in KEYS:
        assert publisher_slot_key(key), key
    for key in ("name", "ProductName", "published", "publish_date", "vendored", "companion"):
        assert not publisher_slot_key(key), key


@FAST
@given(st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_quoted_key_a_comma_and_a_quoted_value_is_a_key(first: str, last: str) -> None:
    text = f'        VALUE "Maintainer", "{first} {last}"\n'
    assert keyed_by_person(text, text.index(first))
    text = f'        VALUE "FileVersion", "{first} {last}"\n'
    assert not keyed_by_person(text, text.index(first))


@FAST
@given(st.sampled_from(VERSION_FRAMES), st.sampled_from(GIVEN), st.sampled_from(SURNAMES))
def test_a_person_closing_a_version_line_is_found(frame: str, first: str, last: str) -> None:
    text = "      PROGRAM TIDES\n" + frame.format(v=f"{first} {last}")
    assert _finds(VERSION_LINE, text, last), text


@FAST
@given(st.sampled_from(NOT_VERSION_LINES), st.sampled_from(GIVEN), st.sampled_from(SURNAMES), st.sampled_from(TOOLS))
def test_a_line_without_a_version_and_a_date_or_a_team_closing_one_is_not_this_rules(frame: str, first: str,
                                                                                    last: str, tool: str) -> None:
    text = frame.format(v=f"{first} {last}", t=tool)
    assert VERSION_LINE.find(text) == [], text


@FAST
@given(st.sampled_from(MANIFESTS), st.sampled_from(TOOLS + tuple(f"{t} {s}" for t in TOOLS[:2] for s in SURNAMES[:2])))
def test_a_product_name_beside_a_version_and_an_identity_key_is_the_products(manifest: str, name: str) -> None:
    text = manifest.format(n=name)
    assert product_name_field(text, text.index(name)), text


@FAST
@given(st.sampled_from(NOT_MANIFESTS), st.sampled_from(TOOLS))
def test_a_name_without_the_manifest_shape_or_under_a_persons_key_is_not_a_products(manifest: str,
                                                                                   name: str) -> None:
    text = manifest.format(n=name)
    assert not product_name_field(text, text.index(name)), text


@FAST
@given(st.sampled_from(MANIFESTS), st.sampled_from(TOOLS))
def test_the_products_name_elsewhere_in_its_manifest_is_the_product(manifest: str, tool: str) -> None:
    text = manifest.format(n=tool) + f"# {tool} adds tide charts to posts.\n"
    at = text.rindex(tool)
    assert used_as_product(text, at, at + len(tool)), text
    alone = f"# {tool} adds tide charts to posts.\n"
    assert not used_as_product(alone, 2, 2 + len(tool))


def _redacted(analyzer: Analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), POLICY, None, None, None, operators=Operators()).text


@SLOW
@given(st.sampled_from(KEYS), st.sampled_from(SYNTAXES + VERSION_FRAMES), st.sampled_from(GIVEN),
       st.sampled_from(SURNAMES))
def test_the_analyzer_hides_the_publisher_or_the_version_lines_person(redaction_analyzer: Analyzer, key: str,
                                                                      syntax: str, first: str, last: str) -> None:
    text = "Version: 1.2.0\n" + syntax.format(k=key, v=f"{first} {last}")
    out = _redacted(redaction_analyzer, text)
    assert re.search(rf"(?<!\w){re.escape(last)}(?!\w)", out) is None, out


@SLOW
@given(st.sampled_from(MANIFESTS), st.sampled_from(TOOLS), st.sampled_from(COMPANIES[:5]))
def test_the_analyzer_keeps_a_products_manifest_with_a_company_unchanged(redaction_analyzer: Analyzer,
                                                                         manifest: str, tool: str,
                                                                         company: str) -> None:
    text = manifest.format(n=tool) + f"# Publisher: {company.format(t='Kestrelmoor')}\n"
    assert _redacted(redaction_analyzer, text) == text
