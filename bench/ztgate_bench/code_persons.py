"""Private persons named in code and technical text, and clean technical documents, as corpus files: the
second, larger check of tier 2's evidence about persons on technical lines (issue #29), both sides at once.

Families of documents (a comment naming an owner, author lines, git trailers, docstrings, ``TODO(name)``,
CODEOWNERS, changelogs, stack traces, config files naming a person) filled with names drawn from hand-written
pools of given names and surnames from many cultures (West African, East and South Asian, Arabic, Slavic,
Nordic, Latin American, Pacific, Greek, Hebrew, Persian ...; invented pairings, no real person), and clean
technical documents with no person (API docs, READMEs, logs, configs, code) whose capitalised words are tools,
products, standards and teams. Two splits with their own templates, their own name pools and their own seeds:
``tune`` is what rules may be tuned on; ``holdout`` is only reported on; ``holdout3`` (templates, pools and seed
of its own) was written for the third run, after ``holdout``'s misses had been seen; ``holdout4``, ``holdout5``,
``holdout6``, ``holdout7``, ``holdout8``, ``holdout9``, ``holdout10``, ``holdout11`` and ``holdout12`` likewise, each
before any score on it; ``tune2`` to ``tune11`` are tuned on. Written to JSONL (``ztgate_bench.corpus_file``), one
document a line, every private value listed:

    python -m ztgate_bench.code_persons write --split holdout --out bench/corpora/code-persons-holdout.jsonl
    python -m ztgate_bench.code_persons score bench/corpora/code-persons-holdout.jsonl

``score`` runs the redaction service's code in process under the default policy and prints counts only: the
private persons whose surname survives (as a whole word), the other private values (e-mail addresses)
surviving, and the clean documents altered in any way.
"""

from __future__ import annotations

import argparse
import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ztgate_bench import corpus_file
from ztgate_bench.redaction_corpus import CLEAN, PII, Entity, Sample

# Name pools, disjoint between the splits. Given names and surnames are paired at random across cultures.
GIVEN = {
    "tune": ("Kwame", "Amara", "Hiroshi", "Mei", "Arjun", "Deepa", "Omar", "Fatima", "Sven", "Ingrid", "Pablo",
             "Lucia", "Tane", "Mere", "Nikos", "Eleni", "Avi", "Tamar", "Reza", "Shirin", "Bogdan", "Olena",
             "Emeka", "Zainab", "Sung-min", "Ji-woo", "Thabo", "Naledi", "Kofi", "Priya"),
    "holdout": ("Chidi", "Folake", "Takumi", "Yuna", "Vikram", "Lakshmi", "Karim", "Samira", "Leif", "Astrid",
                "Mateo", "Valentina", "Rawiri", "Aroha", "Stavros", "Despina", "Eitan", "Noa", "Dariush",
                "Parisa", "Miroslav", "Zlata", "Obinna", "Hadiza", "Dong-hyun", "Seo-yeon", "Sipho", "Lerato",
                "Kamal", "Anjali", "Tuan", "Linh", "Aigerim", "Nurlan", "Marisol", "Iker"),
    "holdout3": ("Adaeze", "Babajide", "Haruto", "Sakura", "Rohan", "Meenakshi", "Tariq", "Yasmin", "Bjorn", "Sigrid",
                 "Joaquin", "Ximena", "Wiremu", "Ngaire", "Spyros", "Kalliope", "Yonatan", "Shira", "Kourosh",
                 "Azadeh", "Radoslav", "Milena", "Chukwuma", "Amina", "Min-jun", "Ha-eun", "Bongani", "Zanele",
                 "Faisal", "Nandini", "Quang", "Thao", "Yerlan", "Dinara", "Guadalupe", "Unai"),
}
SURNAMES = {
    "tune": ("Mensah", "Okafor", "Watanabe", "Chen", "Raghavan", "Banerjee", "Haddad", "Khalil", "Lindqvist",
             "Halvorsen", "Ocampo", "Ferreira", "Parata", "Tipene", "Georgiou", "Katsaros", "Ben-David", "Mizrahi",
             "Tehrani", "Farahani", "Kowalczyk", "Shevchenko", "Nwosu", "Abubakar", "Jeong", "Han", "Dlamini",
             "Mokoena", "Asante", "Venkatesh"),
    "holdout": ("Okonjo", "Adeyemi", "Kobayashi", "Nakamura", "Subramanian", "Chatterjee", "Mansour", "Tawfik",
                "Rasmussen", "Bergstrom", "Quintero", "Arriaga", "Ngata", "Te Kani", "Papadakis", "Vlachos",
                "Abramovich", "Shapiro", "Karimi", "Moradi", "Dvorak", "Petrenko", "Eze", "Bello", "Yoon", "Seo",
                "Nkosi", "Molefe", "Siddiqui", "Deshpande", "Pham", "Vu", "Zhakenov", "Abenov", "Villalobos",
                "Etxeberria"),
    "holdout3": ("Oyelaran", "Chukwuemeka", "Hasegawa", "Matsumoto", "Ramaswamy", "Bhattacharya", "Haddadin",
                 "Saleh", "Thorsen", "Lundgren", "Cardenas", "Montoya", "Tamihana", "Wihongi", "Konstantinou",
                 "Anagnostou", "Friedman", "Rosenthal", "Jafari", "Hosseini", "Novotny", "Kovalenko", "Obi",
                 "Danjuma", "Kwon", "Baek", "Zulu", "Mthembu", "Qureshi", "Kulkarni", "Nguyen Van", "Tran",
                 "Seitkali", "Omarov", "Echeverria", "Aranburu"),
}
MAIL_DOMAINS = {"tune": ("northwind.dev", "mailbox.example", "corp.example.org"),
                "holdout": ("kestrel.io", "example.net", "dev.example.com"),
                "holdout3": ("larkspur.dev", "mail.example.org", "ops.example.io")}

# Person families: {name} full name, {first}, {last}, {email}, {handle}. Every template names one private person.
PERSON_TEMPLATES: dict[str, tuple[tuple[str, str], ...]] = {
    "tune": (
        ("owner-comment", "# Owner: {name}\nclass RateLimiter:\n    pass\n"),
        ("owner-comment", "// {name} owns this file; ping her before refactoring\nexport const TTL = 30;\n"),
        ("author-line", "__author__ = \"{name}\"\n__version__ = \"0.3.1\"\n"),
        ("author-line", "/**\n * @author {name}\n * @since 2.1\n */\npublic class Ledger {{}}\n"),
        ("git-trailer", "fix(cache): drop stale keys on resize\n\nSigned-off-by: {name} <{email}>\n"),
        ("git-trailer", "commit 3f2a9c1\nAuthor: {name} <{email}>\nDate:   Tue Mar 5 10:12:44 2024 +0100\n\n    Bump deps\n"),
        ("docstring", "def reconcile(rows):\n    \"\"\"Match ledger rows.\n\n    Written by {name} for the Q3 audit.\n    \"\"\"\n"),
        ("todo", "# TODO({handle}): {name} wants this behind a flag\nENABLE_V2 = False\n"),
        ("codeowners", "# CODEOWNERS\n/payments/ @{handle}  # {name}\n/docs/ @docs-team\n"),
        ("changelog", "## 1.4.0 - 2024-01-18\n- Faster CSV import (thanks to {name})\n- Drop Python 3.8\n"),
        ("stack-trace", "ERROR worker-3 job failed, assigned to {name}\nTraceback (most recent call last):\n  File \"app/jobs.py\", line 88, in run\nKeyError: 'sku'\n"),
        ("config", "[user]\n    name = {name}\n    email = {email}\n"),
        ("config", "{{\n  \"name\": \"ledger-ui\",\n  \"author\": \"{name} <{email}>\",\n  \"license\": \"MIT\"\n}}\n"),
        ("config", "LABEL maintainer=\"{name} <{email}>\"\nFROM python:3.12-slim\n"),
    ),
    "holdout": (
        ("owner-comment", "    # owned by {name} (payments); do not change without her review\n    limit = 100\n"),
        ("owner-comment", "/* {name}, on-call owner of this service, 2024 */\nstatic int retries = 3;\n"),
        ("owner-comment", "# Contact: {name} <{email}>\nset -euo pipefail\n"),
        ("author-line", "# Author: {name}\n# Created: 2023-11-02\nimport sys\n"),
        ("author-line", "-- Written by {name}, data engineer\nCREATE TABLE events (id bigint);\n"),
        ("author-line", "\"\"\"Billing exports.\n\n:author: {name} <{email}>\n\"\"\"\n"),
        ("git-trailer", "feat: add retry budget\n\nCo-authored-by: {name} <{email}>\n"),
        ("git-trailer", "Fix flaky clock test\n\nReviewed-by: {name} <{email}>\nAcked-by: @{handle}\n"),
        ("git-trailer", "Merge pull request #412 from {handle}/fix-tz\n\nReported-by: {name}\n"),
        ("docstring", "def settle(batch):\n    \"\"\"Settle a batch.\n\n    Ask {name} before changing the rounding; she wrote the spec.\n    \"\"\"\n"),
        ("docstring", "/// Parses the feed.\n///\n/// Maintained by Dr. {name}.\nfn parse(input: &str) {{}}\n"),
        ("todo", "// TODO({handle}): {name} said the cap is wrong\nconst CAP = 10;\n"),
        ("todo", "# TODO: {name} to confirm the VAT rate\nVAT = 0.2\n"),
        ("codeowners", "# Billing\n/billing/** @{handle}   # {name}, billing lead\n*.sql @dba-team\n"),
        ("changelog", "### Fixed\n- Race in the scheduler, reported by {name} (@{handle})\n- Typo in docs\n"),
        ("changelog", "v3.2.0 (2024-06-01)\n  * New export format. Contributed by {name}.\n"),
        ("stack-trace", "2024-05-02T10:11:12Z WARN escalated to {name} ({email})\njava.lang.NullPointerException\n\tat com.acme.Ledger.post(Ledger.java:42)\n"),
        ("stack-trace", "panic: nil map write\n\ngoroutine 1 [running]:\nmain.main()\n# debugged by {name}, our SRE\n"),
        ("config", "maintainers:\n  - name: {name}\n    email: {email}\n"),
        ("config", "[project]\nname = \"ledger\"\nauthors = [{{ name = \"{name}\", email = \"{email}\" }}]\n"),
        ("config", "on_call:\n  primary: {name}\n  escalation: platform-oncall\n"),
        ("config", "Hi {first},\n\nthe nightly build broke again.\n\nThanks,\n{name}\nBuild engineer\n"),
    ),
    # Written for the third held-out run (issue #29), before any score on it.
    "holdout3": (
        ("owner-comment", "// Owner: {name} (platform). Questions go to #platform-help.\nconst POOL = 16;\n"),
        ("owner-comment", "# This module belongs to {name}; see the runbook before paging anyone.\n"),
        ("author-line", "/*\n * Copyright (c) 2022 {name}\n * SPDX-License-Identifier: MIT\n */\n"),
        ("author-line", "<!-- author: {name} -->\n# Deploy guide\n"),
        ("git-trailer", "refactor: split the router\n\nSigned-off-by: {name} <{email}>\nCo-authored-by: dependabot[bot] <support@github.com>\n"),
        ("git-trailer", "commit 3f9a2c1\nAuthor: {name} <{email}>\nDate:   Tue Mar 5 10:12:44 2024 +0100\n\n    Fix rounding\n"),
        ("docstring", "def reconcile(a, b):\n    \"\"\"Reconcile two ledgers.\n\n    Check with {name} before changing the tolerance.\n    \"\"\"\n"),
        ("docstring", "/**\n * Retries a request.\n * Originally written by {name} for the 2.x client.\n */\n"),
        ("todo", "# TODO({handle}) ask {name} whether the cap still applies\nMAX = 5\n"),
        ("todo", "// FIXME: {name} will rewrite this after the freeze\nlet x = 1;\n"),
        ("codeowners", "/api/** @{handle}  # {name}\n/web/** @frontend-team\n"),
        ("changelog", "## 2.4.1\n- Fixed a leak in the pool (thanks to {name})\n"),
        ("stack-trace", "ERROR 2024-04-01 03:12:09 job=ledger-sync failed; paged {name} (secondary on-call)\nTraceback (most recent call last):\n  File \"sync.py\", line 9\n"),
        ("config", "oncall:\n  primary: {name}\n  secondary: {handle}\n  escalation: sre-managers\n"),
        ("config", "approvers:\n  - {name}\nreviewers:\n  - qa-bot\n"),
        ("config", "[owner]\nname = \"{name}\"\nemail = \"{email}\"\n"),
    ),
}

# Clean technical documents: no person. {tool} is a capitalised tool, product, standard or team name.
CLEAN_TEMPLATES: dict[str, tuple[tuple[str, str], ...]] = {
    "tune": (
        ("api-doc", "## GET /v1/invoices\n\nReturns invoices. Authenticated with OAuth 2.0; rate limited by {tool}.\n"),
        ("readme", "# Ledger\n\nBuilt with {tool}. See CONTRIBUTING.md for the release process.\n"),
        ("log", "2024-03-01T12:00:00Z INFO {tool} exporter started on :9100\n2024-03-01T12:00:01Z INFO ready\n"),
        ("config", "exporters:\n  - {tool}\nretries: 3\nregion: eu-west-1\n"),
        ("code", "from {tool_module} import Client\n\nclient = Client(timeout=30)  # {tool} default\n"),
        ("changelog", "## 1.4.0\n- Upgrade {tool} to the latest release\n- Drop Python 3.8\n"),
        ("codeowners", "/infra/ @platform-team\n# {tool} config\n/deploy/ @sre-team\n"),
        ("git-trailer", "chore(deps): bump {tool}\n\nSigned-off-by: dependabot[bot] <support@github.com>\n"),
    ),
    "holdout": (
        ("api-doc", "### POST /v2/orders\n\nCreates an order. Idempotent with the `Idempotency-Key` header; served behind {tool}.\n"),
        ("readme", "## Quick start\n\nInstall {tool}, then run `make dev`. The Docker image is published on every tag.\n"),
        ("log", "Jun 02 10:11:12 host {tool_module}[812]: {tool} reload complete\nJun 02 10:11:13 host systemd[1]: Started.\n"),
        ("config", "[tool.{tool_module}]\nenabled = true\nmax_workers = 8\n"),
        ("code", "# {tool} handles retries here, see RFC 9110\nresp = session.get(url, timeout=5)\n"),
        ("changelog", "### Changed\n- Moved the scheduler to {tool} (see the Migration Guide)\n"),
        ("codeowners", "# Owned by the Payments Team\n/billing/** @payments\n# {tool} rules\n*.tf @infra\n"),
        ("git-trailer", "build: pin {tool}\n\nCo-authored-by: github-actions[bot] <actions@github.com>\n"),
        ("stack-trace", "Traceback (most recent call last):\n  File \"/srv/app/{tool_module}_client.py\", line 12, in connect\n{tool}Error: connection refused\n"),
        ("docstring", "def publish(event):\n    \"\"\"Send an event to {tool}.\n\n    Maintained by the Platform Team.\n    \"\"\"\n"),
    ),
    "holdout3": (
        ("api-doc", "#### DELETE /v3/sessions/{{id}}\n\nEnds a session. Requests pass through {tool} first.\n"),
        ("readme", "## Monitoring\n\nMetrics go to {tool}; dashboards live in the ops repo.\n"),
        ("log", "level=info ts=2024-02-11T08:00:00Z component={tool_module} msg=\"{tool} sync done\"\n"),
        ("config", "services:\n  {tool_module}:\n    image: {tool_module}:latest\n    restart: always\n"),
        ("code", "// Uses `{tool}` for retries; see `Client::new`.\nlet c = Client::new();\n"),
        ("changelog", "## 5.0.0\n- Replaced the queue with {tool}\n- Removed the Python 3.7 shim\n"),
        ("codeowners", "# {tool} manifests\n/deploy/{tool_module}/ @infra-team\n"),
        ("git-trailer", "ci: bump {tool_module}\n\nSigned-off-by: renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>\n"),
        ("config", "oncall:\n  primary: sre-rotation\n  backup: {tool_module}-bot\n"),
        ("docstring", "def flush():\n    \"\"\"Flush buffers to {tool}.\n\n    Owned by the Data Platform team.\n    \"\"\"\n"),
    ),
}
TOOLS = {
    "tune": ("Sentry", "Terraform", "Redis", "Nginx", "Prometheus", "Kubernetes", "Celery", "Envoy"),
    "holdout": ("Grafana", "Postgres", "Kafka", "Vault", "Consul", "Jenkins", "RabbitMQ", "Traefik", "Airflow",
                "Elasticsearch"),
    "holdout3": ("Loki", "Memcached", "Nomad", "Zipkin", "Fluentd", "Istio", "Keycloak", "Metabase", "Cassandra",
                 "Jaeger"),
}
SEEDS = {"tune": 2901, "holdout": 2929, "holdout3": 3313}

# Written for the fourth held-out run (issue #29), before any score on it: a seed, name pools, mail domains,
# templates and tools of its own. Two given names and two surnames for each of these Faker locales, which no
# other split (nor code_names.py) draws on: hu_HU, ka_GE, hy_AM, th_TH, id_ID, ro_RO, et_EE, lv_LV, lt_LT,
# az_AZ, ne_NP, bn_BD, ga_IE, sw, si_LK, sk_SK, bg_BG, is_IS (written by hand, so the file does not move with
# Faker's releases; a few neighbour cultures other splits use: Icelandic the Nordic, Slovak and Bulgarian the
# Slavic, Bangladeshi the Indian Bengali names). Its person templates are reviews, tickets, chat logs pasted
# into code, YAML and JSON fields, commit messages, docstrings and headers in several languages; its tools include
# words that are also given names or surnames (Hugo, Travis, Gerrit, Jasmine, Ray, Django, Jekyll, Sinatra).
GIVEN["holdout4"] = (
    "Bence", "Réka", "Giorgi", "Ketevan", "Tigran", "Anahit", "Somchai", "Kanokwan", "Budi", "Dewi", "Mihai",
    "Ioana", "Tõnis", "Liis", "Arvīds", "Ilze", "Mindaugas", "Rūta", "Elvin", "Aysel", "Bishal", "Sunita",
    "Arnab", "Tahmina", "Oisín", "Aoife", "Baraka", "Neema", "Chaminda", "Dilani", "Matúš", "Zuzana", "Stoyan",
    "Desislava", "Einar", "Katrín")
SURNAMES["holdout4"] = (
    "Szabó", "Farkas", "Kapanadze", "Gelashvili", "Hovhannisyan", "Avetisyan", "Wongsawat", "Chaiyaporn",
    "Santoso", "Wibowo", "Popescu", "Dumitrescu", "Tamm", "Kask", "Bērziņš", "Ozols", "Kazlauskas", "Petrauskas",
    "Mammadov", "Huseynov", "Shrestha", "Gurung", "Rahman", "Talukder", "Ó Ceallaigh", "Brennan", "Mwakyusa",
    "Kimaro", "Wickramasinghe", "Perera", "Kováčik", "Baláž", "Todorov", "Petkov", "Magnússon", "Ólafsdóttir")
MAIL_DOMAINS["holdout4"] = ("fernhill.dev", "team.example.com", "eng.example.net")
PERSON_TEMPLATES["holdout4"] = (
    ("review", "**{name}** commented on `pkg/cache/lru.go` line 88:\n> Should this evict before the insert?\n"),
    ("review", "Review by {name} (changes requested)\n- rename `tmp` to `pending`\n- add a test for the empty batch\n"),
    ("ticket", "OPS-2291: disk full on the build agents\nReporter: {name}\nAssignee: unassigned\nPriority: High\n"),
    ("ticket", "Issue #907, opened by @{handle} ({name})\n\nSteps to reproduce:\n1. run `make seed`\n2. open /admin\n"),
    ("chat-log", "# Pasted from #incident-42:\n# [09:14] {name}: rolling back the canary now\n# [09:15] deploy-bot: rollback started\n"),
    ("chat-log", "/*\n * From the thread with {name} ({email}), 3 May:\n * \"the retry storm comes from the mobile client\"\n */\n"),
    ("yaml-field", "release:\n  manager: {name}\n  contact: {email}\n  freeze: 2025-03-14\n"),
    ("json-field", "{{\"service\": \"geo-lookup\", \"steward\": \"{name}\", \"tier\": 2}}\n"),
    ("json-field", "{{\n  \"contributors\": [\n    {{\"name\": \"{name}\", \"email\": \"{email}\"}}\n  ]\n}}\n"),
    ("commit-message", "perf(index): batch the fsync calls\n\nMeasured by {name} on the staging box: p99 down from 40 ms to 12 ms.\n"),
    ("commit-message", "Revert \"enable HTTP/3\"\n\nThis reverts commit 9c1e4b7; {name} saw handshake failures on older Android builds.\n"),
    ("docstring", "    def backfill(self, since):\n        \"\"\"Replays events from `since`.\n\n        Contact: {name} <{email}>\n        \"\"\"\n"),
    ("docstring", "-- | Parses the tariff table.\n-- Author: {name}, 2021\nparseTariff :: Text -> [Tariff]\n"),
    ("docstring", "@moduledoc \"\"\"\nRate limiting for the public API.\n\nMaintained by {name}.\n\"\"\"\n"),
    ("author-line", "# frozen_string_literal: true\n# Maintainer: {name} <{email}>\nmodule Billing; end\n"),
    ("author-line", "//\n//  SyncEngine.swift\n//  Created by {name} on 14/02/2024.\n//\n"),
    ("owner-comment", "locals {{\n  # state bucket looked after by {name}\n  bucket = \"tf-state-prod\"\n}}\n"),
    ("owner-comment", "// Deprecated: use NewClient. {name} plans to remove it in v3.\nfunc Dial(addr string) *Client {{ return nil }}\n"),
    ("todo", "// HACK({handle}): {name} needs this until the vendor fixes the SDK\nvar timeout = TimeSpan.FromSeconds(90);\n"),
    ("config", "[Unit]\nDescription=ledger worker (maintainer: {name})\nAfter=network.target\n"),
)
CLEAN_TEMPLATES["holdout4"] = (
    ("readme", "## Requirements\n\n- {tool} 2.x or newer\n- GNU Make\n\nRun `make bootstrap` once per checkout.\n"),
    ("yaml-field", "ci:\n  steps:\n    - name: {tool} checks\n      run: make {tool_module}-check\n"),
    ("json-field", "{{\"dependencies\": {{\"{tool_module}\": \"^3.1.0\"}}, \"private\": true}}\n"),
    ("commit-message", "chore: upgrade {tool} and regenerate the lockfile\n\nNo behaviour change; the CI matrix is unchanged.\n"),
    ("review", "Review summary (automated): 3 files changed, {tool} configuration untouched, 0 blocking findings.\n"),
    ("ticket", "INFRA-318: {tool} jobs time out on the arm64 runners\nComponent: build\nPriority: Medium\n"),
    ("docstring", "func Sync(ctx context.Context) error {{\n\t// Sync pushes the cached manifests to {tool}; calling it twice is safe.\n\treturn nil\n}}\n"),
    ("chat-log", "# [10:02] release-bot: {tool} pipeline green on main\n# [10:03] deploy-bot: promoting build 1142 to staging\n"),
    ("log", "WARN  [{tool_module}] option `legacy_mode` ignored (see the {tool} upgrade notes)\n"),
    ("config", "# Managed by the Developer Experience team\n[{tool_module}]\ncache_dir = \".cache/{tool_module}\"\nparallel = true\n"),
)
TOOLS["holdout4"] = ("Hugo", "Travis", "Gerrit", "Jasmine", "Ray", "Django", "Jekyll", "Sinatra", "Ansible", "Bazel")
SEEDS["holdout4"] = 4404

# Letters NFKD does not split into a base letter and a mark.
_UNMARKED = str.maketrans({"ı": "i", "ð": "d", "þ": "th", "ø": "o", "ł": "l", "đ": "d", "ß": "ss", "æ": "ae"})


def _ascii(text: str) -> str:
    """An address's or a handle's letters without their marks (szabó -> szabo, bērziņš -> berzins); ASCII stays."""
    folded = unicodedata.normalize("NFKD", text.translate(_UNMARKED))
    return "".join(c for c in folded if not unicodedata.combining(c))


def documents(split: str, per_template: int = 8) -> list[Sample]:
    """The split's documents: ``per_template`` person documents per person template, then every clean template
    with every tool."""
    rng = random.Random(SEEDS[split])
    samples: list[Sample] = []
    for t, (family, template) in enumerate(PERSON_TEMPLATES[split]):
        for i in range(per_template):
            first, last = rng.choice(GIVEN[split]), rng.choice(SURNAMES[split])
            name = f"{first} {last}"
            local = _ascii(f"{first}.{last}".lower().replace(" ", "").replace("-", ""))
            email = f"{local}@{rng.choice(MAIL_DOMAINS[split])}"
            handle = _ascii(f"{first[0]}{last}".lower().replace(" ", "").replace("-", ""))
            lower = _ascii(f"{first}.{last}".lower().replace(" ", "").replace("-", ""))
            # A list of persons (tune12) names a second one, drawn only where a template asks, so no other split moves.
            name2 = ""
            while "{name2}" in template and (not name2 or name2.split(" ", 1)[1] == last):
                name2 = f"{rng.choice(GIVEN[split])} {rng.choice(SURNAMES[split])}"
            text = template.format(name=name, first=first, last=last, email=email, handle=handle, lower=lower,
                                   name2=name2)
            # A template that names the person only as a lower-case first.last identifier lists that identifier; one
            # that splits the name across fields ({first} and {last} apart, no {name}) lists the surname as written.
            value = name if "{name}" in template else lower if "{lower}" in template else last
            entities = [Entity("PERSON", value)] + ([Entity("PERSON", name2)] if name2 else [])
            if email in text:
                entities.append(Entity("EMAIL_ADDRESS", email))
            samples.append(Sample(f"{split}-p{t:02d}-{i}", PII, text, tuple(entities), family))
    for t, (family, template) in enumerate(CLEAN_TEMPLATES[split]):
        for i, tool in enumerate(TOOLS[split]):
            text = template.format(tool=tool, tool_module=tool.lower())
            samples.append(Sample(f"{split}-c{t:02d}-{i}", CLEAN, text, (), family))
    return samples


@dataclass(frozen=True, slots=True)
class Figures:
    """Counts over a corpus of this shape for one redactor."""

    corpus: str
    persons: int
    surnames_leaked: int
    other_values: int
    other_leaked: int
    clean_docs: int
    clean_altered: int
    leaked_families: dict[str, int]


def surname(name: str) -> str:
    """The surname of a pool name: everything after the given name ("Te Kani" stays whole), or after the dot of
    a lower-case first.last identifier ("kwame.mensah" -> "mensah"); a surname listed alone is itself."""
    if " " in name:
        return name.split(" ", 1)[1]
    return name.split(".", 1)[1] if "." in name else name  # a surname listed alone (a name split across fields)


# --- tune2: a second tuning split (issue #29, fourth round), a block of its own -------------------------------
# Families of persons in technical text as a class: ownership ("belongs to", "owned by", "ask", "ping", a
# person's branch), action by a person ("FIXME: X will", "X reverted", "per X", "cc X", "@X"), attribution
# lines in many formats (trailers, copyright and SPDX lines, blame output, AUTHORS files, changelog credits),
# names in string literals, commit subjects and bodies, diacritics and lower-case first.last identifiers
# ({lower}); clean documents whose tools are also given names or surnames ("Travis", "Hudson", "Hugo"). Its
# names, templates and tools are disjoint from every other split; tuned on, never reported as held-out. Not
# committed as a file: `python -m ztgate_bench.code_persons write --split tune2 --out <tmp>/tune2.jsonl`.
GIVEN["tune2"] = ("Łukasz", "Zofia", "Søren", "Åsa", "Ömer", "Elif", "José", "Inés", "Thành", "Ngọc", "Chiamaka",
                  "Tendai", "Kalani", "Leilani", "Dmitrij", "Jovana", "Ayşe", "Mehmet", "Nasrin", "Hamid", "Yusuf",
                  "Aïcha", "Dalia", "Gintaras", "Eun-ji", "Kenta", "Sanjay", "Ishaan", "Xiaoming", "Wen")
SURNAMES["tune2"] = ("Wiśniewski", "Nørgaard", "Åberg", "Yılmaz", "Öztürk", "Muñoz", "Peña", "Đặng", "Okonkwo",
                     "Moyo", "Kahananui", "Petrović", "Jovanović", "Demir", "Rahimi", "Sadeghi", "Benali",
                     "Vaitkus", "Takahashi", "Iyer", "Malhotra", "Zhou", "Liang", "Ferrante", "Gonçalves",
                     "Kristiansen", "Quispe", "Mamani", "Achterberg", "Castellanos")
MAIL_DOMAINS["tune2"] = ("quillon.dev", "users.example", "eng.example.net")
PERSON_TEMPLATES["tune2"] = (
    ("ownership", "# The importer belongs to {name}; talk to data-eng first.\nimport csv\n"),
    ("ownership", "// owned by {name} until the Q4 reorg\nconst LIMIT = 50;\n"),
    ("ownership", "# ask {name} before bumping this pin\nPINNED = \"1.2.3\"\n"),
    ("ownership", "// ping {name} if this alarm fires twice\nalarm.threshold = 0.95;\n"),
    ("ownership", "Rebased onto {name}'s branch before tagging v2.3.\n"),
    ("ownership", "# Maintainer: {name}\n# Status: beta\n"),
    ("action", "// FIXME: {name} will move this to the config service\nconst HOST = \"10.0.0.4\";\n"),
    ("action", "# XXX {name} should double-check the rounding here\ntotal = round(x, 2)\n"),
    ("action", "    # {name} reverted this in March, see the incident notes\n    retries = 1\n"),
    ("action", "/* {name} fixed the overflow; keep the cast */\nuint64_t n = (uint64_t)x;\n"),
    ("action", "# per {name}: never retry a POST\nRETRY_POST = False\n"),
    ("action", "// cc {name} for the schema change\n"),
    ("action", "@{name} can you take another look at the migration?\n"),
    ("action", "LGTM. {name} approved the schema change yesterday.\n"),
    ("attribution", "Tested-by: {name} <{email}>\nFixes: #4412\n"),
    ("attribution", "// SPDX-FileCopyrightText: 2024 {name} <{email}>\n// SPDX-License-Identifier: Apache-2.0\n"),
    ("attribution", "Copyright 2021-2024 {name}. All rights reserved.\n"),
    ("attribution", "9c1e4b2a (<{email}> 2024-03-05 10:12:44 +0100 41)     return total\n"
                    "3f2a9c1e ({name} 2024-03-05 10:12:44 +0100 42)     return total\n"),
    ("attribution", "# AUTHORS\n{name} <{email}>\nrelease-bot <bot@example.org>\n"),
    ("changelog", "## 0.9.2\n- Fix the retry loop ({name})\n- Bump ruff\n"),
    ("changelog", "* Speed up the importer [{name}]\n* Drop the legacy flag\n"),
    ("changelog", "2.0.1 / 2024-02-02\n  - timezone bug fixed by {name}\n"),
    ("string", "notify_owner(\"{name}\", channel=\"#ops\")\n"),
    ("string", "REVIEWERS = [\"{name}\", \"release-bot\"]\n"),
    ("string", "assert user.display_name == \"{name}\"\n"),
    ("commit", "Revert \"cache keys\"\n\nRequested by {name} after the outage.\n"),
    ("commit", "docs: credit {name} for the benchmark numbers\n"),
    ("lower", "reviewer: {lower}\nlabels: [backend]\n"),
    ("lower", "# @{lower} please review the index change\n"),
    ("lower", "assignee = \"{lower}\"\n"),
)
CLEAN_TEMPLATES["tune2"] = (
    ("prose-tool", "## Build\n\nThe pipeline runs on {tool}; artefacts are uploaded after every merge.\n"),
    ("prose-tool", "Migrated the nightly job from {tool} to the new runners.\n"),
    ("prose-tool", "We use {tool} for builds. {tool} caches dependencies in ~/.cache.\n"),
    ("prose-tool", "{tool} 3.2 deprecated the old plugin API; see the upgrade notes.\n"),
    ("prose-tool", "Thanks to {tool}, the build takes four minutes.\n"),
    ("prose-tool", "See {tool}'s documentation for the cache settings.\n"),
    ("code-tool", "# {tool} wants a clean workspace before each run\nclean()\n"),
    ("changelog-tool", "- Bump {tool} from 1.4.2 to 1.5.0 (#812)\n- Fix typo\n"),
    ("config-tool", "build:\n  runner: {tool_module}\n  # {tool} reads this file on every push\n"),
)
TOOLS["tune2"] = ("Marathon", "Hudson", "Maven", "Gradle", "Julia", "Flask", "Ivy", "Buck", "Jasper", "Alfred",
                  "Sphinx", "Karma", "Ruby", "Percy", "Luigi", "Vagrant", "Harbor", "Argo", "Spinnaker", "Chef",
                  "GitLab CI", "Spring Boot", "Apache Maven")
SEEDS["tune2"] = 2903


# --- tune3: a third tuning split (issue #29, fifth round), a block of its own ---------------------------------
# Written from the classes the fourth held-out run named (review exports, chat logs pasted into code and docs,
# role fields - manager, steward, lead, champion, sponsor, approver, driver, point of contact, DRI, custodian,
# captain, coordinator - and name/e-mail objects in contributors, authors and maintainers arrays, a person as
# the subject of a plan or a need, names mixed across cultures with diacritics), in wording of its own. Two
# given names and two surnames for each of these Faker locales, which no other split draws on: fi_FI, fil_PH,
# uz_UZ, hr_HR, sl_SI, nl_BE, fr_CA, de_CH, pt_PT, yo_NG, ja_JP, zh_TW (written by hand). Its clean documents
# are CI steps named after tools, tools spelt like given names in prose, service names and bots. Tuned on,
# never reported as held-out: `python -m ztgate_bench.code_persons write --split tune3 --out
# bench/corpora/code-persons-tune-3.jsonl`.
GIVEN["tune3"] = ("Aino", "Eetu", "Maricel", "Jomar", "Dilnoza", "Jasur", "Ivana", "Tomislav", "Urška", "Matej",
                  "Wouter", "Lotte", "Étienne", "Geneviève", "Reto", "Seraina", "Duarte", "Leonor", "Olumide",
                  "Yetunde", "Sōta", "Yui", "Yu-ting", "Chia-hao")
SURNAMES["tune3"] = ("Mäkinen", "Heikkilä", "Dimaculangan", "Bautista", "Tursunov", "Rakhimova", "Šimić", "Horvat",
                     "Žagar", "Kovačič", "Peeters", "Vermeulen", "Tremblay", "Gagnon", "Brunner", "Bühler",
                     "Conceição", "Magalhães", "Ọlábísí", "Ogunleye", "Fujiwara", "Inoue", "Tsai", "Huang")
MAIL_DOMAINS["tune3"] = ("tessellate.dev", "staff.example.com", "mail.example.io")
PERSON_TEMPLATES["tune3"] = (
    ("review", "**{name}** left a comment on `lib/queue/worker.py` line 31:\n> can this block forever?\n"),
    ("review", "Approved by {name} (2 nits)\n"),
    ("review", "Review from {name} (requested changes)\n- split `load()`\n"),
    ("review", "> {name} replied on `api/routes.ts`:\n> fixed in 4f1c2e0\n"),
    ("chat-log", "// [16:45] {name}: migration finished on replica 2\n// [16:46] ci-bot: tests passed\n"),
    ("chat-log", "{name} \u2014 10:05 AM\nthe cron job stays paused until Monday\n"),
    ("chat-log", "# 08:30 {name}: bumping the pool to 40\nPOOL_SIZE = 40\n"),
    ("chat-log", "<!-- [2024-05-03 11:20] <{handle}> {name}: the flag is off again -->\n"),
    ("role-field", "project:\n  lead: {name}\n  repo: ledger-api\n"),
    ("role-field", "rollout:\n  driver: {name}\n  target: 2025-Q2\n"),
    ("role-field", "{{\"component\": \"auth\", \"dri\": \"{name}\"}}\n"),
    ("role-field", "[service]\ncustodian = \"{name}\"\ntier = 1\n"),
    ("role-field", "incident:\n  coordinator: {name}\n  severity: sev2\n"),
    ("role-field", "\"point_of_contact\": \"{name}\",\n\"sla\": \"99.9\"\n"),
    ("role-field", "pager:\n  captain: {name}\n  rotation: weekly\n"),
    ("role-field", "approver = \"{name}\"\nrequired_checks = 2\n"),
    ("role-field", "budget:\n  sponsor: {name}\n  champion: platform-guild\n"),
    ("role-field", "data_set:\n  steward: {name}\n  retention: 90d\n"),
    ("role-field", "team:\n  manager: {name}\n  slack: \"#team-ledger\"\n"),
    ("people-array", "{{\"authors\": [{{\"name\": \"{name}\", \"url\": \"https://example.org\"}}]}}\n"),
    ("people-array", "contributors:\n  - name: {name}\n    email: {email}\n"),
    ("plan", "// {name} is going to drop this shim once v2 ships\nfunc legacy() {{}}\n"),
    ("plan", "# {name} promised a fix for the flaky test by Friday\n"),
    ("plan", "/* {name} is handling the key rotation; leave it */\n"),
    ("plan", "# {name} wants the batch timeout at 30 s\nBATCH_TIMEOUT = 30\n"),
    ("plan", "// {name} needs the old endpoint until March\napp.get('/v1/old', legacy);\n"),
    ("plan", "-- {name} owns the nightly refresh of this view\n"),
    ("plan", "# {name} plans a rewrite of this parser\n"),
    ("plan", "    // {name} intends to split this module next sprint\n"),
    ("plan", "# {name} is planning to replace the client with the new SDK\n"),
)
CLEAN_TEMPLATES["tune3"] = (
    ("ci-step", "jobs:\n  lint:\n    steps:\n      - name: {tool} lint\n        run: make lint\n"),
    ("ci-step", "name: {tool} sync\non: [push]\n"),
    ("ci-step", "- name: Run {tool}\n  uses: actions/checkout@v4\n"),
    ("prose-tool", "{tool} is going to be replaced by the new scheduler in Q3.\n"),
    ("prose-tool", "# {tool} needs Python 3.11 or newer\n"),
    ("bot", "# [12:01] renovate[bot]: updated 3 dependencies\n# [12:02] {tool_module}-bot: build passed\n"),
    ("bot", "Review by deploy-bot (automated)\n{tool} checks passed\n"),
    ("service", "service:\n  name: {tool} Gateway\n  owner: platform-team\n"),
    ("service", "{{\"name\": \"{tool_module}\", \"maintainers\": [\"platform-team\"]}}\n"),
    ("service", "project:\n  lead: infra-guild\n  uses: {tool}\n"),
)
TOOLS["tune3"] = ("Zuul", "Otto", "Sage", "Drone", "Pulumi", "Buildkite", "Helm", "Tekton", "Concourse", "Woodpecker",
                  "Azure Pipelines", "Cloud Build")
SEEDS["tune3"] = 3907


# --- tune4: a fourth tuning split (issue #29, sixth round), a block of its own --------------------------------
# Written from the classes named after the fifth held-out run, in wording of its own: names in comments of
# Makefiles, R scripts and Jupyter notebooks (JSON cells whose "source" lists hold the comment or markdown
# lines), on-call and incident timelines ("14:02 paged NAME", "handed over to NAME"), YAML and TOML front
# matter (`author:`, `reviewers: [...]`), and comments in other syntaxes (Fortran `!`, VB `'`, batch `REM`,
# Lisp `;;`, MATLAB `%`). Given names and surnames written by hand (invented pairings) of Welsh, Catalan, Malagasy,
# Samoan, Hausa, Xhosa, Amazigh, Tajik, Kyrgyz, Malayalam, Punjabi and Tibetan names, which no other split draws
# on, and Tamil names (which `holdout5`'s ta_IN also draws on: the test checks that no name is shared); half of
# the given names are on no shipped list. Its clean documents are tools spelt like
# given names or surnames used as products ("pip install", `import`, "X config", "run X", "X server", "X
# plugin") in the same formats. Tuned on, never reported as held-out: `python -m ztgate_bench.code_persons
# write --split tune4 --out bench/corpora/code-persons-tune-4.jsonl`.
GIVEN["tune4"] = ("Rhys", "Cerys", "Jordi", "Montserrat", "Karthik", "Revathi", "Hery", "Lalao", "Filipo", "Losana",
                  "Musa", "Hauwa", "Lwazi", "Nomvula", "Yidir", "Taous", "Firuz", "Mehrona", "Bakyt", "Gulzat",
                  "Anoop", "Sreelakshmi", "Jaspreet", "Tenzin")
SURNAMES["tune4"] = ("Pritchard", "Llewellyn", "Vilaró", "Casals", "Arumugam", "Sundaram", "Rakotondrabe",
                     "Randriamampionona", "Tuilagi", "Faleolo", "Garba", "Danladi", "Ntuli", "Mqhayi", "Hamiche",
                     "Ait Menguellet", "Rahimov", "Yusupova", "Toktogulov", "Abdyldaeva", "Menon", "Pillai", "Sandhu",
                     "Dorje")
MAIL_DOMAINS["tune4"] = ("brackenridge.dev", "people.example.com", "oncall.example.net")
PERSON_TEMPLATES["tune4"] = (
    ("makefile", "## Maintainer: {name}\n.PHONY: test\ntest:\n\tpytest -q\n"),
    ("makefile", "# TODO(ask {name}) whether the docs target still needs sphinx\ndocs:\n\t$(MAKE) -C docs html\n"),
    ("makefile", "# Contact: {name} for the signing key\nsign: dist\n\tgpg --detach-sign dist/*.whl\n"),
    ("makefile", "deploy: build ## pushes to prod; {name} approves every run\n\t./deploy.sh\n"),
    ("r-script", "# Retention analysis, Q2 cohort\n# Analyst: {name}\nlibrary(dplyr)\n"),
    ("r-script", "## Cleaning rules checked by {name}, 2024-02-01\ndf <- read.csv(\"raw.csv\")\n"),
    ("r-script", "# {name} suggested log-scaling the income column\ndf$income <- log(df$income)\n"),
    ("notebook", "{{\n \"cell_type\": \"code\",\n \"source\": [\n  \"# {name} tuned these thresholds\\n\",\n  \"THRESH = 0.42\"\n ]\n}}\n"),
    ("notebook", "{{\"cell_type\": \"markdown\", \"source\": [\"# Forecast review\\n\", \"\\n\", \"Owner: {name}\\n\"]}}\n"),
    ("notebook", "{{\"cell_type\": \"markdown\", \"metadata\": {{}}, \"source\": [\"### Notes\\n\", \"Reviewed with {name} on Friday; the lag feature stays.\"]}}\n"),
    ("notebook", "\"source\": [\"# TODO(ask {name}) where the 2019 rows went\\n\", \"df = df[df.year > 2019]\"]\n"),
    ("oncall-log", "14:02 paged {name}\n14:09 ack\n14:31 mitigated, error rate back to 0.1%\n"),
    ("oncall-log", "03:40 handed over to {name} (EU shift)\n03:55 restarted the consumer group\n"),
    ("oncall-log", "Timeline (UTC)\n- 09:12 alert fired\n- 09:15 {name} acknowledged the page\n- 09:40 rollback done\n"),
    ("oncall-log", "[22:17] incident commander: {name}\n[22:18] status page updated\n"),
    ("front-matter", "---\ntitle: Rotating the TLS certificates\nauthor: {name}\ntags: [security]\n---\n"),
    ("front-matter", "---\nreviewers: [{name}, docs-bot]\nstatus: draft\n---\n"),
    ("front-matter", "+++\ntitle = \"Capacity plan 2025\"\nauthor = \"{name}\"\ndraft = true\n+++\n"),
    ("other-comment", "! Contact: {name}, numerical methods group\nprogram solve\n"),
    ("other-comment", "REM nightly export; {name} owns this script\n@echo off\n"),
)
CLEAN_TEMPLATES["tune4"] = (
    ("makefile", "## run {tool} against the sources\nlint:\n\tpython -m {tool_module} src/\n"),
    ("r-script", "# plots drawn with {tool}; install.packages(\"{tool_module}\") first\nlibrary({tool_module})\n"),
    ("notebook", "{{\"cell_type\": \"code\", \"source\": [\"!pip install {tool_module}\\n\", \"import {tool_module}\\n\", \"# {tool} config below\"]}}\n"),
    ("notebook", "{{\"cell_type\": \"markdown\", \"source\": [\"## Setup\\n\", \"Run {tool} before the next cell.\"]}}\n"),
    ("front-matter", "---\ntitle: Upgrading {tool}\nauthor: docs-team\ntags: [{tool_module}]\n---\n"),
    ("oncall-log", "14:20 {tool} server restarted by the watchdog\n14:22 error rate normal\n"),
    ("prose-tool", "The {tool} plugin adds a `--strict` flag; the {tool} config lives in setup.cfg.\n"),
    ("prose-tool", "npm install {tool_module} && npx {tool_module} init\n"),
    ("prose-tool", "Run {tool} on every push; {tool} caches its results.\n"),
    ("code", "from {tool_module} import App\n\n# {tool} wires the routes\napp = App()\n"),
)
TOOLS["tune4"] = ("Ariadne", "Emmett", "Stan", "Edward", "Cecil", "Dolly", "Ava", "Bruno", "Faraday", "Hermes",
                  "Apollo", "Werkzeug")
SEEDS["tune4"] = 4909


# --- tune5: a fifth tuning split (issue #29, seventh round), a block of its own --------------------------------
# Written from the class the sixth held-out run named: a person as the value of an author, maintainer, owner,
# contact, developer or creator field in any structured format (XML elements and attributes, meta tags, Python,
# Ruby, TOML, YAML and JSON assignments and arrays, man, RST and AsciiDoc fields and section headings followed by
# a name), copyright lines ("YEAR[, YEAR] NAME"), "contact / reach / direct questions to NAME", and shift and
# handover logs where a NAME is the subject of a person's verb, in forms no other split uses. Given names and
# surnames written by hand (invented pairings) of Fijian, Breton, West Frisian, Sami, Chechen, Bashkir, Galician,
# Hmong, Marathi, Bhutanese, Sorbian and Inuit names, which no other split draws on. Its clean documents are the
# same fields holding a tool, a team, a bot, an organisation or a URL, and tools spelt like given names or
# surnames. Tuned on, never reported as held-out: `python -m ztgate_bench.code_persons write --split tune5 --out
# bench/corpora/code-persons-tune-5.jsonl`.
GIVEN["tune5"] = ("Litia", "Jone", "Mereana", "Yann", "Sjoerd", "Tevaki", "Ánde", "Sárá", "Zelimkhan", "Kheda",
                  "Azat", "Gulnaz", "Breixo", "Uxía", "Pheng", "Nou", "Vaishnavi", "Omkar", "Sonam", "Pema", "Měrćin",
                  "Hańža", "Aputi", "Nivi")
SURNAMES["tune5"] = ("Ratuvou", "Nailatikau", "Kerjean", "Le Bihan", "Hiemstra", "Dijkstra", "Tuisawau", "Vakaloloma",
                     "Guivarch", "Tsuraeva", "Khismatullin", "Gabitova", "Outeiro", "Fandiño", "Le Floc'h", "Yang",
                     "Gokhale", "Pawar", "Lhamo", "Wangmo", "Šołćina", "Budar", "Kunuk", "Pitseolak")
MAIL_DOMAINS["tune5"] = ("quarrystone.dev", "maintainers.example.org", "pkg.example.net")
PERSON_TEMPLATES["tune5"] = (
    ("pom-contributor", "<contributors>\n  <contributor>\n    <name>{name}</name>\n    <roles><role>tester</role></roles>\n  </contributor>\n</contributors>\n"),
    ("opf-metadata", "<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n  <dc:title>Ledger Handbook</dc:title>\n  <dc:creator>{name}</dc:creator>\n  <dc:language>en</dc:language>\n</metadata>\n"),
    ("xml-attribute", "<project name=\"ledger\" owner=\"{name}\" visibility=\"internal\"/>\n"),
    ("package-json", "{{\n  \"name\": \"@acme/ledger\",\n  \"author\": {{\n    \"name\": \"{name}\",\n    \"url\": \"https://example.org\"\n  }}\n}}\n"),
    ("json-creator", "{{\"dataset\": \"tariffs-2024\", \"creator\": \"{name}\", \"license\": \"CC-BY-4.0\"}}\n"),
    ("setup-cfg", "[metadata]\nname = ledger-tools\nversion = 1.3.0\nmaintainer = {name}\nlicense = BSD-3-Clause\n"),
    ("setup-py", "setup(\n    name=\"ledger\",\n    developer=\"{name}\",\n    packages=find_packages(),\n)\n"),
    ("python-tuple", "CODE_OWNERS = (\"{name}\", \"infra-team\")\n"),
    ("asciidoc", "= Ledger Operations Guide\n:author: {name}\n:revnumber: 2.1\n:toc:\n"),
    ("man-page", ".TH LEDGER 1 \"March 2024\"\n.SH NAME\nledger \\- settle card payments\n.SH AUTHOR\n{name}\n"),
    ("rst-field", "Ledger runbook\n==============\n\n:Author: {name}\n:Date: 2024-03-05\n:Version: 1.2\n"),
    ("md-heading", "## Maintainers\n\n{name}\n\n## License\n\nMIT\n"),
    ("meta-creator", "<!doctype html>\n<meta name=\"creator\" content=\"{name}\">\n<meta name=\"viewport\" content=\"width=device-width\">\n"),
    ("copyright", "/* Copyright \u00a9 2019\u20132024 {name}\n * Licensed under the Apache License 2.0\n */\n"),
    ("copyright", "# Copyright (C) 2020, 2023 {name}\n# This file is free software.\n"),
    ("jekyll-config", "title: Ledger Notes\nauthor:\n  name: {name}\n  url: https://notes.example.org\nmarkdown: kramdown\n"),
    ("contact", "<!-- Direct questions about this page to {name}. -->\n# Ledger FAQ\n"),
    ("contact", "// For access to the signing key, contact {name}.\nconst KEY_ID = \"ledger-2024\";\n"),
    ("handover-log", "--- shift log ---\n06:55 {name} took the pager; backlog 14 tickets\n07:30 paged db-oncall about replica lag\n"),
    ("handover-log", "Handover notes\n* 18:02 {name} restarted the ingest workers\n* 18:40 backlog drained\n"),
)
CLEAN_TEMPLATES["tune5"] = (
    ("pom-contributor", "<contributors>\n  <contributor>\n    <name>{tool} Community</name>\n    <url>https://{tool_module}.example.org</url>\n  </contributor>\n</contributors>\n"),
    ("package-json", "{{\"name\": \"{tool_module}-plugin\", \"author\": \"The {tool} Authors\", \"license\": \"MIT\"}}\n"),
    ("setup-cfg", "[metadata]\nname = {tool_module}-extras\nauthor = Packaging Team\nurl = https://example.org/{tool_module}\n"),
    ("asciidoc", "= {tool} Upgrade Notes\n:author: platform-team\n:toc: left\n"),
    ("man-page", ".SH AUTHOR\nWritten by the {tool} developers.\n.SH SEE ALSO\n{tool_module}(1)\n"),
    ("rst-field", ":Author: {tool} maintainers\n:Version: 4.0\n"),
    ("meta-creator", "<meta name=\"generator\" content=\"{tool} 0.9\">\n<meta name=\"author\" content=\"Apache Software Foundation\">\n"),
    ("copyright", "Copyright \u00a9 2019\u20132024 The {tool} Authors\n"),
    ("jekyll-config", "title: {tool} Docs\nauthor: docs-team\nurl: https://docs.example.org/{tool_module}\n"),
    ("handover-log", "--- shift log ---\n06:55 {tool} took a snapshot of the primary\n07:30 paged db-oncall about replica lag\n"),
    ("contact", "## Support\n\nFor questions about {tool}, contact the platform-team channel.\n"),
    ("xml-attribute", "<project name=\"{tool_module}\" owner=\"infra-team\" maintainer=\"https://example.org/{tool_module}\"/>\n"),
)
TOOLS["tune5"] = ("Bower", "Mako", "Casper", "Phoenix", "Sinon", "Jetty", "Hexo", "Rocco", "Sawyer", "Lerna",
                  "Sherlock", "Quincy")
SEEDS["tune5"] = 5911


# --- holdout5: the fifth held-out run (issue #29), a block of its own, written before any score on it ---------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split (nor code_names.py) draws on: the Faker locales bs_BA, lb_LU, mt_MT,
# sq_AL, gu_IN, ta_IN, or_IN, tw_GH, de_AT and el_CY, and Mongolian, Amharic, Somali, Khmer, Burmese, Uyghur,
# Kurdish and Malay names (written by hand, invented pairings; Austrian German and Cypriot Greek are neighbours of
# cultures other splits use). Its person templates are kinds no other split has: notebook cells, SQL comments, a
# Dockerfile LABEL, Makefile comments, LaTeX \author, Markdown and TOML front matter, Jira-style tickets, PR review
# threads, Rust, Kotlin, PHP, Lua and R comments, on-call log lines, "cc:" lines and .mailmap lines. Its tools are
# also given names or surnames (Conan, Gatsby, Zola, Nikola, Daphne, Lando, Mina, Newman, Porter, Rex).
# Only reported on: `python -m ztgate_bench.code_persons write --split holdout5 --out
# bench/corpora/code-persons-holdout-5.jsonl`.
GIVEN["holdout5"] = (
    "Amer", "Lejla", "Pit", "Josiane", "Karmenu", "Marthese", "Arben", "Elira", "Hetal", "Chirag", "Senthil",
    "Kalaivani", "Subhashree", "Debasis", "Kwadwo", "Abena", "Leopold", "Theresia", "Panayiotis", "Androulla",
    "Enkhjargal", "Batbold", "Selamawit", "Dawit", "Hodan", "Abdirahman", "Sreymom", "Vuthy", "Thiha", "Nilar",
    "Dilnur", "Alimjan", "Rojda", "Baran", "Nurul", "Hafiz")
SURNAMES["holdout5"] = (
    "Hodžić", "Begović", "Thill", "Kieffer", "Vella", "Farrugia", "Krasniqi", "Dervishi", "Trivedi", "Parikh",
    "Murugesan", "Thangaraj", "Mohapatra", "Panigrahi", "Boakye", "Owusu", "Gruber", "Pichler", "Christodoulou",
    "Hadjipetrou", "Ganbaatar", "Tsogtbayar", "Bekele", "Woldemariam", "Warsame", "Jama", "Keo", "Chea", "Kyaw",
    "Htun", "Tursun", "Ablimit", "Zebari", "Barzinji", "Zakaria", "Hamzah")
MAIL_DOMAINS["holdout5"] = ("saltmarsh.dev", "crew.example.org", "build.example.net")
PERSON_TEMPLATES["holdout5"] = (
    ("notebook", "{{\"cell_type\": \"markdown\", \"source\": [\"## Churn model\\n\", \"Prepared by {name} for the Monday sync\\n\"]}}\n"),
    ("notebook", "# In[12]:\n# {name} reran this cell with the March extract\ndf = load_extract(\"2024-03\")\n"),
    ("sql-comment", "-- Backfill requested by {name} ({email}); run once, then drop.\nINSERT INTO audit_log SELECT * FROM audit_log_old;\n"),
    ("sql-comment", "/* ledger_daily: {name} signed off the totals on 2024-09-30 */\nCREATE MATERIALIZED VIEW ledger_daily AS SELECT 1;\n"),
    ("dockerfile", "FROM python:3.12-slim\nLABEL maintainer=\"{name} <{email}>\"\nWORKDIR /app\n"),
    ("makefile", "# release: only {name} holds the signing key\nrelease: build\n\t./scripts/sign.sh dist/*\n"),
    ("latex", "\\documentclass{{article}}\n\\title{{Cache Eviction under Skewed Loads}}\n\\author{{{name}}}\n"),
    ("front-matter", "---\ntitle: \"Postmortem: DNS outage\"\nauthor: {name}\ndate: 2024-11-02\n---\n"),
    ("front-matter", "+++\ntitle = \"Upgrading the search cluster\"\nauthors = [\"{name}\"]\ncontact = \"{email}\"\n+++\n"),
    ("jira", "PAY-1184 Refund webhook drops events\nAssignee: {name}\nStatus: In Progress\nLabels: webhook, payments\n"),
    ("jira", "h3. Acceptance criteria\n* the export runs nightly\n* a failure pages the owner\n\nReporter: {name} | Sprint 42\n"),
    ("pr-thread", "> **{handle}** on `src/auth/session.rs` line 57:\n> nit: this clone is not needed\n\n{name} resolved this conversation.\n"),
    ("rust-comment", "/// Parses the wire header.\n///\n/// Ported from the C version by {name}.\npub fn parse_header(buf: &[u8]) -> Header {{ todo!() }}\n"),
    ("kotlin-comment", "/**\n * Offline queue for the Android client.\n * @author {name}\n */\nclass OfflineQueue\n"),
    ("php-comment", "<?php\n/**\n * Invoice PDF renderer.\n *\n * @author {name} <{email}>\n */\n"),
    ("lua-comment", "-- rate limiter for the edge, tuned by {name} after the spring sale\nlocal limit = 120\n"),
    ("r-comment", "# Survival curves for cohort B\n# Analyst: {name}\nfit <- survfit(Surv(time, status) ~ arm, data = cohort_b)\n"),
    ("oncall-log", "2024-10-14T02:17:09Z INFO  pager: INC-5521 escalated to on-call {name}\n"),
    ("cc-line", "Please take a look at the retry change before Thursday.\n\ncc: {name}, @platform-reviewers\n"),
    ("mailmap", "{name} <{email}> <{handle}@laptop.local>\n"),
)
CLEAN_TEMPLATES["holdout5"] = (
    ("notebook", "# In[3]:\n# {tool} export of the staging metrics, refreshed hourly\nmetrics = pd.read_parquet(\"metrics.parquet\")\n"),
    ("sql-comment", "-- Generated by {tool}; do not edit by hand.\nCREATE INDEX idx_orders_created ON orders (created_at);\n"),
    ("dockerfile", "FROM debian:bookworm-slim\nLABEL org.opencontainers.image.vendor=\"Platform Team\"\n# {tool} runs as an unprivileged user\nUSER app\n"),
    ("makefile", "# {tool} targets\n{tool_module}-build:\n\t{tool_module} build --release\n"),
    ("front-matter", "---\ntitle: \"Migrating to {tool} 4\"\ntags: [tooling, upgrade]\ndraft: false\n---\n"),
    ("jira", "DEVX-702 {tool} cache misses on every CI run\nAssignee: Unassigned\nStatus: Open\nComponent: tooling\n"),
    ("oncall-log", "2024-10-14T03:02:44Z WARN  {tool_module}: worker pool saturated, queue depth 812 (on-call: sre-primary)\n"),
    ("rust-comment", "// Thin wrapper around the {tool} CLI; its output is parsed as JSON.\nfn run_{tool_module}(args: &[&str]) -> Result<String> {{ todo!() }}\n"),
    ("cc-line", "Bumps {tool} to the latest patch release.\n\ncc: @devx-team, @release-bot\n"),
    ("latex", "\\section{{Tooling}}\nThe figures were built with {tool} and checked by the CI pipeline.\n"),
)
TOOLS["holdout5"] = ("Conan", "Gatsby", "Zola", "Nikola", "Daphne", "Lando", "Mina", "Newman", "Porter", "Rex")
SEEDS["holdout5"] = 5505


# --- holdout6: the sixth held-out run (issue #29), a block of its own, written before any score on it ---------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Welsh, Catalan, Faroese, Tongan, Tigrinya, Wolof, Malagasy,
# Kabyle, Pashto, Punjabi, Telugu, Lao, Tajik, Kyrgyz, Tatar, Mapuche, Haitian and Scottish Gaelic names (written
# by hand, invented pairings). Its person templates are 20 kinds no other split has: Cargo.toml authors, a go.mod
# comment, Terraform tags, Ansible vars, a Helm Chart.yaml maintainer, a Kubernetes annotation, a crontab comment,
# Perl POD, a Debian changelog trailer, an RPM %changelog entry, a gemspec, a Maven <developer>, a Sphinx conf.py,
# an HTML author meta tag, a patch e-mail header, an incident timeline, an OpenAPI contact, PowerShell help, an
# annotated git tag and a Slack export message. Its tools are also given names or surnames (Felix, Ludwig,
# Hamilton, Seaborn, Falco, Clair, Nancy, Hazel, Emmet, Caddy). Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout6 --out bench/corpora/code-persons-holdout-6.jsonl`.
GIVEN["holdout6"] = (
    "Rhodri", "Eluned", "Arnau", "Meritxell", "Sjúrður", "Rannvá", "Sione", "Mele", "Yonas", "Luwam", "Moussa",
    "Ndeye", "Haja", "Voahangy", "Amayas", "Tiziri", "Wahidullah", "Palwasha", "Gurpreet", "Harleen", "Srinivas",
    "Lavanya", "Bounmy", "Vilayvanh", "Farrukh", "Firuza", "Aibek", "Cholpon", "Rustem", "Alsu", "Lautaro",
    "Ayelén", "Wilner", "Nadège", "Ruairidh", "Ealasaid")
SURNAMES["holdout6"] = (
    "Prys", "Gruffydd", "Vilaseca", "Casadevall", "Niclasen", "Lamhauge", "Taufa", "Lolohea", "Tesfamariam",
    "Gebrehiwet", "Sarr", "Faye", "Razafindrabe", "Andrianarivo", "Ait Ouali", "Amrouche", "Stanikzai", "Wardak",
    "Bhullar", "Grewal", "Nallamothu", "Kotapati", "Sisavath", "Keomany", "Nazarov", "Saidova", "Dzhumabaev",
    "Osmonalieva", "Sabirzyanov", "Khabibullina", "Huenchumilla", "Painemal", "Jean-Baptiste", "Dorsainvil",
    "MacAoidh", "Caimbeul")
MAIL_DOMAINS["holdout6"] = ("heronbrook.dev", "labs.example.org", "infra.example.com")
PERSON_TEMPLATES["holdout6"] = (
    ("cargo-toml", "[package]\nname = \"wire-codec\"\nversion = \"0.4.2\"\nauthors = [\"{name} <{email}>\"]\nedition = \"2021\"\n"),
    ("go-mod", "// Module ledger settles card payments; questions go to {name}.\nmodule example.com/billing/ledger\n\ngo 1.22\n"),
    ("terraform-tags", "resource \"aws_s3_bucket\" \"exports\" {{\n  bucket = \"exports-prod\"\n  tags = {{\n    Owner      = \"{name}\"\n    CostCenter = \"4410\"\n  }}\n}}\n"),
    ("ansible-vars", "---\n# group_vars/db.yml\ndb_admin_contact: \"{name}\"\npostgres_max_connections: 200\n"),
    ("helm-chart", "apiVersion: v2\nname: ledger-api\nversion: 1.8.0\nmaintainers:\n  - name: {name}\n    url: https://charts.example.org\n"),
    ("k8s-annotation", "metadata:\n  name: ledger-worker\n  annotations:\n    example.com/owner: \"{name}\"\n    example.com/tier: \"2\"\n"),
    ("crontab", "# m h dom mon dow  command\n# nightly export, set up by {name}; failures mail the ops list\n30 2 * * * /opt/ledger/bin/export --since yesterday\n"),
    ("perl-pod", "=head1 AUTHOR\n\n{name}\n\n=head1 LICENSE\n\nSame terms as Perl itself.\n\n=cut\n"),
    ("debian-changelog", "ledger-tools (2.1.0-1) bookworm; urgency=medium\n\n  * New upstream release.\n\n -- {name} <{email}>  Mon, 04 Mar 2024 10:15:00 +0100\n"),
    ("rpm-spec", "%changelog\n* Tue Mar 05 2024 {name} <{email}> - 1.2.0-1\n- Rebuilt against the new OpenSSL\n"),
    ("gemspec", "Gem::Specification.new do |spec|\n  spec.name    = \"ledger_client\"\n  spec.version = \"0.9.1\"\n  spec.authors = [\"{name}\"]\nend\n"),
    ("pom-developer", "<developers>\n  <developer>\n    <id>{handle}</id>\n    <name>{name}</name>\n  </developer>\n</developers>\n"),
    ("sphinx-conf", "project = \"Ledger\"\ncopyright = \"2024, {name}\"\nauthor = \"{name}\"\nrelease = \"3.1\"\n"),
    ("html-meta", "<head>\n  <meta charset=\"utf-8\">\n  <meta name=\"author\" content=\"{name}\">\n  <title>Status page</title>\n</head>\n"),
    ("patch-mail", "From: {name} <{email}>\nSubject: [PATCH v2 3/7] net: fix the retry backoff\n\nThe backoff doubled twice per attempt.\n"),
    ("incident-timeline", "## Timeline (UTC)\n- 14:02 alert fired: checkout p99 above 2 s\n- 14:06 {name} declared SEV-2 and took incident command\n- 14:31 rollback complete\n"),
    ("openapi-contact", "openapi: 3.0.3\ninfo:\n  title: Ledger API\n  version: 2.4.0\n  contact:\n    name: {name}\n    email: {email}\n"),
    ("powershell-help", "<#\n.SYNOPSIS\n    Rotates the service certificates.\n.NOTES\n    Author: {name}\n#>\nparam([string]$Thumbprint)\n"),
    ("git-tag", "tag v2.4.0\nTagger: {name} <{email}>\nDate:   Fri Jun 7 16:20:11 2024 +0200\n\nRelease 2.4.0\n"),
    ("slack-export", "{{\"type\": \"message\", \"user_profile\": {{\"real_name\": \"{name}\"}}, \"text\": \"deploy freeze lifted for the payments repo\"}}\n"),
)
CLEAN_TEMPLATES["holdout6"] = (
    ("cargo-toml", "[dependencies]\n{tool_module} = \"1.4\"  # {tool} bindings\nserde = {{ version = \"1\", features = [\"derive\"] }}\n"),
    ("k8s-annotation", "metadata:\n  labels:\n    app.kubernetes.io/managed-by: {tool}\n  annotations:\n    example.com/owner: platform-team\n"),
    ("crontab", "# {tool} cache cleanup, weekly\n15 3 * * 0 /usr/local/bin/{tool_module} gc --older-than 7d\n"),
    ("helm-chart", "dependencies:\n  - name: {tool_module}\n    version: \"2.x\"\n    repository: https://charts.example.org\n# {tool} stays pinned until the next review\n"),
    ("debian-changelog", "ledger-tools (2.1.1-1) bookworm; urgency=low\n\n  * Build against {tool} 3.0.\n\n -- Packaging Team <packaging@example.org>  Tue, 12 Mar 2024 09:00:00 +0100\n"),
    ("incident-timeline", "## Timeline (UTC)\n- 09:12 {tool} alert fired for the queue depth\n- 09:40 mitigated by adding two workers (incident commander: sre-primary)\n"),
    ("pom-developer", "<dependency>\n  <groupId>org.example</groupId>\n  <artifactId>{tool_module}-client</artifactId>\n  <!-- {tool} client, see the upgrade notes -->\n</dependency>\n"),
    ("sphinx-conf", "extensions = [\"sphinx.ext.autodoc\"]\n# {tool} renders the API reference\nhtml_theme = \"furo\"\n"),
    ("openapi-contact", "openapi: 3.0.3\ninfo:\n  title: {tool} Proxy API\n  contact:\n    name: API Support\n    email: api-support@example.com\n"),
    ("ansible-vars", "{tool_module}_version: \"2.3.1\"\n# {tool} listens on the internal network only\n{tool_module}_bind: 10.0.0.0/8\n"),
)
TOOLS["holdout6"] = ("Felix", "Ludwig", "Hamilton", "Seaborn", "Falco", "Clair", "Nancy", "Hazel", "Emmet", "Caddy")
SEEDS["holdout6"] = 6606


# --- holdout7: the seventh held-out run (issue #29), a block of its own, written before any score on it -------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Breton, Frisian, Sami, Greenlandic, Chechen, Ossetian, Buryat,
# Fijian, Kikuyu, Luo, Ewe, Fula, Tswana, Bemba, Marathi, Hmong, Romansh and Afrikaans names (written by hand,
# invented pairings). Its person templates are 20 kinds no other split has: package.json contributors, composer.json
# authors, CITATION.cff, an R DESCRIPTION Authors@R, a .nuspec, PKG-INFO, a pubspec.yaml, a mix.exs, a podspec, a
# C# AssemblyInfo, a LICENSE file, an on-call rota CSV, a wiki page owner, an SQL INSERT, a C# XML doc comment, an
# Emacs Lisp header, an iCalendar ORGANIZER, a vCard, a .cabal file and a kernel-style MAINTAINERS entry. Its tools
# are also given names or surnames (Huey, Gatling, Packer, Stern, Goss, Riemann, Knox, Livy, Ember, Amundsen).
# Only reported on: `python -m ztgate_bench.code_persons write --split holdout7 --out
# bench/corpora/code-persons-holdout-7.jsonl`.
GIVEN["holdout7"] = (
    "Gwenaël", "Maiwenn", "Hessel", "Baukje", "Ánte", "Risten", "Inunnguaq", "Naja", "Turpal", "Zarema", "Soslan",
    "Zalina", "Bato", "Tuyana", "Mosese", "Asenaca", "Njoroge", "Wairimu", "Owino", "Akinyi", "Edem", "Esinam",
    "Hamadou", "Dieynaba", "Kagiso", "Boitumelo", "Mwila", "Chanda", "Vinayak", "Madhura", "Kou", "Youa", "Gian",
    "Ursina", "Riaan", "Marelize")
SURNAMES["holdout7"] = (
    "Le Goff", "Kerhervé", "Terpstra", "Wiersma", "Somby", "Gaup", "Kleist", "Lynge", "Magomadov", "Estamirova",
    "Dzagoev", "Gabaraeva", "Dorzhiev", "Tsydenova", "Naivalu", "Waqanivalu", "Kariuki", "Githinji", "Odhiambo",
    "Onyango", "Agbenyega", "Kpodo", "Diallo", "Sow", "Mogotsi", "Kgosidintsi", "Mulenga", "Bwalya", "Sathe",
    "Joglekar", "Vang", "Xiong", "Caduff", "Casutt", "Du Plessis", "Viljoen")
MAIL_DOMAINS["holdout7"] = ("thistledown.dev", "release.example.org", "devs.example.io")
PERSON_TEMPLATES["holdout7"] = (
    ("npm-contributors", "{{\n  \"name\": \"@acme/tiles\",\n  \"version\": \"3.0.1\",\n  \"contributors\": [\"{name}\"],\n  \"license\": \"ISC\"\n}}\n"),
    ("composer-authors", "{{\n    \"name\": \"acme/invoice-pdf\",\n    \"authors\": [\n        {{\"name\": \"{name}\", \"email\": \"{email}\", \"role\": \"Developer\"}}\n    ]\n}}\n"),
    ("citation-cff", "cff-version: 1.2.0\nmessage: \"If you use tidecalc, please cite it as: {name} (2024). tidecalc (0.8.0).\"\nauthors:\n  - family-names: \"{last}\"\n    given-names: \"{first}\"\ntitle: \"tidecalc\"\nversion: 0.8.0\n"),
    ("r-description", "Package: tidecalc\nTitle: Tidal Harmonic Predictions\nVersion: 0.8.0\nAuthors@R: person(\"{first}\", \"{last}\", role = c(\"aut\", \"cre\"))\nAuthor: {name} [aut, cre]\nLicense: GPL-3\n"),
    ("nuspec", "<package>\n  <metadata>\n    <id>Acme.Ledger.Client</id>\n    <version>2.2.0</version>\n    <authors>{name}</authors>\n  </metadata>\n</package>\n"),
    ("pkg-info", "Metadata-Version: 2.1\nName: tidecalc\nVersion: 0.8.0\nAuthor: {name}\nAuthor-email: {email}\nLicense: BSD-3-Clause\n"),
    ("pubspec", "name: field_notes\ndescription: Offline field notes for survey teams.\nversion: 1.3.0\nauthors:\n  - {name}\nenvironment:\n  sdk: \">=3.0.0 <4.0.0\"\n"),
    ("mix-exs", "  defp package do\n    [\n      maintainers: [\"{name}\"],\n      licenses: [\"Apache-2.0\"]\n    ]\n  end\n"),
    ("podspec", "Pod::Spec.new do |s|\n  s.name    = 'TileCache'\n  s.version = '1.1.0'\n  s.authors = {{ '{name}' => '{email}' }}\nend\n"),
    ("assembly-info", "using System.Reflection;\n\n[assembly: AssemblyTitle(\"Ledger.Sync\")]\n[assembly: AssemblyCopyright(\"Copyright \u00a9 {name} 2024\")]\n[assembly: AssemblyVersion(\"2.0.0.0\")]\n"),
    ("license-file", "MIT License\n\nCopyright (c) 2024 {name}\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n"),
    ("rota-csv", "week,primary,secondary,escalation\n2024-W36,{name},sre-pool,platform-managers\n2024-W37,sre-pool,sre-pool,platform-managers\n"),
    ("wiki-owner", "h1. Payments runbook\n\n||Page owner|{name}||\n||Last reviewed|2024-08-19||\n\nh2. Restarting the settlement job\n"),
    ("sql-insert", "INSERT INTO service_owners (service, owner_name, since)\nVALUES ('ledger-sync', '{name}', '2024-02-01');\n"),
    ("csharp-xmldoc", "/// <summary>\n/// Retries a failed settlement; contact {name} before raising the limit.\n/// </summary>\npublic Task RetryAsync(int attempts) => Task.CompletedTask;\n"),
    ("emacs-header", ";;; ledger-mode-extras.el --- helpers for ledger files  -*- lexical-binding: t; -*-\n\n;; Author: {name}\n;; Version: 0.3\n"),
    ("ical-organizer", "BEGIN:VEVENT\nSUMMARY:Quarterly DR drill\nDTSTART:20240912T090000Z\nORGANIZER;CN={name}:mailto:{email}\nEND:VEVENT\n"),
    ("vcard", "BEGIN:VCARD\nVERSION:4.0\nFN:{name}\nTITLE:Release manager\nEMAIL:{email}\nEND:VCARD\n"),
    ("cabal-file", "cabal-version:      3.0\nname:               tariff-parse\nversion:            0.2.1\nauthor:             {name}\nbuild-type:         Simple\n"),
    ("kernel-maintainers", "LEDGER SYNC DRIVER\nM:\t{name} <{email}>\nL:\tledger-dev@lists.example.org\nS:\tMaintained\nF:\tdrivers/ledger/\n"),
)
CLEAN_TEMPLATES["holdout7"] = (
    ("npm-contributors", "{{\n  \"devDependencies\": {{\n    \"{tool_module}\": \"^2.4.0\"\n  }},\n  \"scripts\": {{\"check\": \"{tool_module} run\"}}\n}}\n"),
    ("composer-authors", "{{\n    \"require-dev\": {{\"acme/{tool_module}-bridge\": \"^1.0\"}},\n    \"description\": \"{tool} bridge for the invoice service\"\n}}\n"),
    ("nuspec", "<dependencies>\n  <!-- {tool} adapter, pinned until the next upgrade review -->\n  <dependency id=\"Acme.{tool}.Adapter\" version=\"1.2.0\" />\n</dependencies>\n"),
    ("pkg-info", "Metadata-Version: 2.1\nName: {tool_module}-plugin\nSummary: {tool} integration for the ledger tools\nRequires-Dist: {tool_module}>=2\n"),
    ("rota-csv", "week,primary,secondary,notes\n2024-W40,sre-pool,sre-pool,{tool} upgrade window\n"),
    ("wiki-owner", "h1. {tool} operations\n\n||Page owner|Platform Team||\n||Last reviewed|2024-09-02||\n"),
    ("sql-insert", "INSERT INTO tools (name, category, enabled)\nVALUES ('{tool}', 'build', true);\n"),
    ("ical-organizer", "BEGIN:VEVENT\nSUMMARY:{tool} upgrade window\nORGANIZER;CN=Platform Team:mailto:platform@example.org\nEND:VEVENT\n"),
    ("vcard", "BEGIN:VCARD\nVERSION:4.0\nKIND:org\nFN:{tool} Support Desk\nORG:Platform Team\nEND:VCARD\n"),
    ("kernel-maintainers", "{tool} INTEGRATION\nL:\tplatform-dev@lists.example.org\nS:\tSupported\nF:\ttools/{tool_module}/\n"),
)
TOOLS["holdout7"] = ("Huey", "Gatling", "Packer", "Stern", "Goss", "Riemann", "Knox", "Livy", "Ember", "Amundsen")
SEEDS["holdout7"] = 7707
# --- holdout8: the eighth held-out run (issue #29), a block of its own, written before any score on it --------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Corsican, Friulian, Kashubian, Sakha, Adyghe, Avar, Kalmyk,
# Chamorro, Tahitian, Ganda, Kinyarwanda, Lingala, Bambara, Oromo, Kannada, Assamese, Dhivehi and Yucatec Maya
# names (written by hand, invented pairings). Its person templates are 20 kinds no other split has: a Gradle
# developers block, debian/control, debian/copyright, a BibTeX entry, .zenodo.json creators, codemeta.json, a Go
# doc comment, Ansible Galaxy meta, security.txt, meeting notes, an .editorconfig header, a Julia Project.toml, an
# opam file, a nixpkgs maintainer entry, an Arch PKGBUILD, a Gentoo metadata.xml, a browser extension manifest, a
# WordPress plugin header, a JAR MANIFEST.MF and a Vim runtime file header. Its clean documents are the same kinds
# naming a team, a list address, a bot or an organisation where a person would stand; its tools are also given
# names or surnames (Black, Hatch, Ward, Jackson, Hubble, Kong, Titus, Maxwell, Singer, Piper). Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout8 --out bench/corpora/code-persons-holdout-8.jsonl`.
GIVEN["holdout8"] = (
    "Ghjuvanni", "Ghjulia", "Zuan", "Catine", "Remùs", "Gizela", "Aisen", "Sardaana", "Zaurbek", "Fatimet",
    "Gadzhimurad", "Patimat", "Badma", "Bulgun", "Joaquina", "Tomasa", "Teva", "Hinatea", "Wasswa", "Nalwoga",
    "Mugisha", "Ineza", "Nsimba", "Mbuyi", "Bakary", "Oumou", "Lencho", "Chaltu", "Manjunath", "Shwetha",
    "Bhaskarjyoti", "Jonali", "Shifaz", "Aishath", "Balam", "Nicte")
SURNAMES["holdout8"] = (
    "Mondoloni", "Pietri", "Cargnelutti", "Tonutti", "Necel", "Kòrtas", "Okhlopkov", "Sivtsev", "Shkhagoshev",
    "Khatkov", "Alibekov", "Khizriev", "Erdniev", "Sangadzhiev", "Quitugua", "Taitano", "Teriitehau", "Tuheiava",
    "Ssekandi", "Kiwanuka", "Niyonsaba", "Uwimana", "Makiadi", "Kabasele", "Coulibaly", "Sangaré", "Gemechu",
    "Tolossa", "Kamath", "Gowda", "Bora", "Kakoti", "Manik", "Didi", "Canché", "Pech")
MAIL_DOMAINS["holdout8"] = ("marramgrass.dev", "uploaders.example.net", "packagers.example.org")
PERSON_TEMPLATES["holdout8"] = (
    ("gradle-developers", "pom {{\n    developers {{\n        developer {{\n            id = '{handle}'\n            name = '{name}'\n            email = '{email}'\n        }}\n    }}\n}}\n"),
    ("debian-control", "Source: tidewatch\nSection: utils\nPriority: optional\nMaintainer: {name} <{email}>\nBuild-Depends: debhelper-compat (= 13), dh-python\nStandards-Version: 4.6.2\n"),
    ("debian-copyright", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: tidewatch\n\nFiles: *\nCopyright: 2021-2024 {name}\nLicense: GPL-2+\n"),
    ("bibtex", "@software{{tidewatch_2024,\n  author  = {{{name}}},\n  title   = {{tidewatch: harbour gauge readings}},\n  year    = {{2024}},\n  version = {{1.4.0}}\n}}\n"),
    ("zenodo-json", "{{\n  \"title\": \"tidewatch 1.4.0\",\n  \"upload_type\": \"software\",\n  \"creators\": [\n    {{\"name\": \"{name}\", \"affiliation\": \"Harbour Survey Office\"}}\n  ],\n  \"license\": \"MIT\"\n}}\n"),
    ("codemeta-json", "{{\n  \"@context\": \"https://w3id.org/codemeta/3.0\",\n  \"name\": \"tidewatch\",\n  \"author\": [{{\"@type\": \"Person\", \"givenName\": \"{first}\", \"familyName\": \"{last}\"}}],\n  \"maintainer\": {{\"@type\": \"Person\", \"name\": \"{name}\"}}\n}}\n"),
    ("go-doc", "// Package gauge reads harbour tide gauges over serial lines.\n//\n// Written by {name}; the framing follows the vendor's 2019 manual.\npackage gauge\n"),
    ("ansible-galaxy", "galaxy_info:\n  role_name: tide_gauge\n  author: {name}\n  description: Installs the tide gauge collector\n  license: MIT\n  min_ansible_version: \"2.14\"\n"),
    ("security-txt", "# Our security contact for the gauge firmware is {name}\nContact: mailto:security@harbour.example.org\nExpires: 2025-12-31T23:00:00.000Z\n"),
    ("meeting-notes", "# Release sync, 2024-10-08\n\n**Attendees:** {name}, release-bot, QA rota\n**Notes:** the 1.4 branch is cut on Thursday.\n"),
    ("editorconfig-header", "# EditorConfig for the gauge firmware, kept by {name}\nroot = true\n\n[*.c]\nindent_style = tab\n"),
    ("julia-project", "name = \"TideGauges\"\nuuid = \"8f3b7a2e-51c4-4d6a-9e0b-3c2f1d7a6b90\"\nauthors = [\"{name}\"]\nversion = \"0.5.2\"\n"),
    ("opam-file", "opam-version: \"2.0\"\nname: \"tidecore\"\nmaintainer: \"{email}\"\nauthors: [\"{name}\"]\nlicense: \"ISC\"\n"),
    ("nix-maintainer", "  {handle} = {{\n    email = \"{email}\";\n    github = \"{handle}\";\n    name = \"{name}\";\n  }};\n"),
    ("pkgbuild", "# Maintainer: {name} <{email}>\npkgname=tidewatch\npkgver=1.4.0\npkgrel=1\narch=('x86_64')\n"),
    ("gentoo-metadata", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<pkgmetadata>\n  <maintainer type=\"person\">\n    <email>{email}</email>\n    <name>{name}</name>\n  </maintainer>\n</pkgmetadata>\n"),
    ("webext-manifest", "{{\n  \"manifest_version\": 3,\n  \"name\": \"Tab Tidier\",\n  \"version\": \"2.1.0\",\n  \"author\": \"{name}\"\n}}\n"),
    ("wp-plugin-header", "<?php\n/**\n * Plugin Name: Tide Tables\n * Version: 1.4.0\n * Author: {name}\n * License: GPL-2.0-or-later\n */\n"),
    ("jar-manifest", "Manifest-Version: 1.0\nBuilt-By: {name}\nImplementation-Title: tidewatch-core\nImplementation-Version: 1.4.0\n"),
    ("vim-header", "\" Vim syntax file\n\" Language:    Tide gauge logs\n\" Maintainer:  {name} <{email}>\n\" Last Change: 2024 Oct 08\n"),
)
CLEAN_TEMPLATES["holdout8"] = (
    ("gradle-developers", "pom {{\n    developers {{\n        developer {{\n            id = 'platform'\n            name = 'Platform Team'\n            organization = 'Harbour Survey Office'\n        }}\n    }}\n}}\n// {tool} client\nimplementation 'org.example:{tool_module}-client:3.2.0'\n"),
    ("debian-control", "Source: {tool_module}-helper\nMaintainer: Debian Tools Team <team+tools@tracker.example.org>\nUploaders: release-bot <release-bot@example.org>\nBuild-Depends: debhelper-compat (= 13), python3-{tool_module}\nDescription: {tool} helper scripts\n"),
    ("zenodo-json", "{{\n  \"title\": \"{tool} integration tests\",\n  \"creators\": [{{\"name\": \"{tool} Project Contributors\"}}],\n  \"keywords\": [\"{tool_module}\", \"testing\"]\n}}\n"),
    ("codemeta-json", "{{\n  \"name\": \"{tool_module}-bridge\",\n  \"author\": [{{\"@type\": \"Organization\", \"name\": \"{tool} Developers\"}}],\n  \"softwareRequirements\": [\"{tool_module}>=2\"]\n}}\n"),
    ("security-txt", "# Reports about the {tool} integration go to the platform security team\nContact: mailto:security@platform.example.org\nPolicy: https://platform.example.org/security-policy\n"),
    ("meeting-notes", "# Tooling sync, 2024-10-15\n\n**Attendees:** platform-team, release-bot\n**Notes:** {tool} 4.0 lands next sprint; the {tool_module} config moves to the repo root.\n"),
    ("pkgbuild", "# Maintainer: Packaging Team <packaging@lists.example.org>\npkgname={tool_module}-cli\npkgdesc=\"{tool} command line client\"\ndepends=('{tool_module}')\n"),
    ("webext-manifest", "{{\n  \"manifest_version\": 3,\n  \"name\": \"{tool} Helper\",\n  \"author\": \"Browser Tools Team\",\n  \"homepage_url\": \"https://tools.example.org/{tool_module}\"\n}}\n"),
    ("jar-manifest", "Manifest-Version: 1.0\nBuilt-By: ci-bot\nImplementation-Title: {tool_module}-adapter\nImplementation-Vendor: Harbour Survey Office\n"),
    ("vim-header", "\" Vim syntax file\n\" Language:    {tool} configuration\n\" Maintainer:  vim-syntax team <vim-syntax@lists.example.org>\n"),
)
TOOLS["holdout8"] = ("Black", "Hatch", "Ward", "Jackson", "Hubble", "Kong", "Titus", "Maxwell", "Singer", "Piper")
SEEDS["holdout8"] = 8808
# --- holdout9: the ninth held-out run (issue #29), a block of its own, written before any score on it ---------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Udmurt, Mari, Erzya, Tuvan, Uyghur, Baloch, Sindhi, Tulu, Konkani,
# Khmer, Mizo, Cebuano, Timorese, Afar, Dinka, Mossi, Paraguayan and Newar names (written by hand, invented
# pairings). Its person templates are 20 kinds no other split has: a Doxygen `\author`, a Perl Makefile.PL
# `AUTHOR`, a Chef metadata.rb `maintainer`, an Erlang `-author` attribute, a COBOL `AUTHOR.` paragraph, a VHDL
# header `Engineer:`, an AppStream metainfo `<developer>`, an Info.plist copyright, a Nimble `author`, a Fabric mod
# `authors`, a Godot plugin.cfg `author`, a Blender add-on `bl_info`, a QGIS plugin metadata.txt, a Joomla
# manifest `<author>`, a Docusaurus authors.yml entry, a podcast feed `<itunes:author>`, MkDocs `site_author`, a
# LuaRocks rockspec `maintainer`, a Crystal shard.yml `authors` and an Arduino library.properties `author`. Its
# clean documents are ten of the same kinds naming a team, a list address, a bot or an organisation where a person
# would stand; its tools are also given names or surnames (Pino, Leiningen, Huginn, Marian, Griffin, Calliope,
# Altair, Zeppelin, Marlin, Lance). Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout9 --out bench/corpora/code-persons-holdout-9.jsonl`.
GIVEN["holdout9"] = (
    "Italmas", "Akagur", "Pampalche", "Akpatyr", "Purgaz", "Litova", "Sholban", "Choduraa", "Ablikim", "Gulnisa",
    "Dostain", "Banuk", "Sassui", "Ayaz", "Rakshith", "Chaitra", "Gaurish", "Pradnya", "Sokunthea", "Visal",
    "Lalremruati", "Zothanpuia", "Jhunrey", "Rubylyn", "Ermelinda", "Aderito", "Hanfare", "Kadiga", "Achol", "Garang",
    "Wendkouni", "Rasmata", "Arasy", "Yerutí", "Rojina", "Prajwal")
SURNAMES["holdout9"] = (
    "Bekmemetev", "Lekomtsev", "Yandemirov", "Yalkaev", "Kirdyashkin", "Paksyaev", "Oorzhak", "Kuular", "Memtimin",
    "Abdukerim", "Rind", "Bizenjo", "Soomro", "Junejo", "Bangera", "Poojary", "Kenkre", "Dessai", "Meas",
    "Prak", "Ralte", "Hnamte", "Cabahug", "Lapitan", "Ximenes", "Belo", "Humed", "Dardar", "Akech", "Majok",
    "Ouédraogo", "Sawadogo", "Centurión", "Yegros", "Shakya", "Maharjan")
MAIL_DOMAINS["holdout9"] = ("sandpiper.dev", "contributors.example.net", "maintainers9.example.org")
PERSON_TEMPLATES["holdout9"] = (
    ("doxygen-author", "/**\n * \\file    sonar_ping.c\n * \\brief   Ping scheduler for the echo sounder.\n * \\author  {name}\n * \\date    2024-11-19\n */\n"),
    ("makefile-pl", "use ExtUtils::MakeMaker;\nWriteMakefile(\n    NAME         => 'Lantern::Echo',\n    AUTHOR       => '{name} <{email}>',\n    LICENSE      => 'perl_5',\n);\n"),
    ("chef-metadata", "name              'lanternfish'\nmaintainer        '{name}'\nmaintainer_email  '{email}'\nlicense           'Apache-2.0'\nversion           '2.3.1'\n"),
    ("erlang-author", "-module(echo_buffer).\n-author(\"{name}\").\n-export([start_link/0, push/2]).\n"),
    ("cobol-author", "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. CATCHRPT.\n       AUTHOR. {name}.\n       DATE-WRITTEN. 2024-11-19.\n"),
    ("vhdl-header", "------------------------------\n-- Company: Harbour Acoustics Lab\n-- Engineer: {name}\n-- Create Date: 19.11.2024\n-- Module Name: ping_timer - Behavioral\n------------------------------\n"),
    ("appstream-metainfo", "<component>\n  <id>org.example.Lanternfish</id>\n  <developer id=\"org.example\">\n    <name>{name}</name>\n  </developer>\n  <update_contact>{email}</update_contact>\n</component>\n"),
    ("info-plist", "<key>CFBundleName</key>\n<string>Lanternfish</string>\n<key>NSHumanReadableCopyright</key>\n<string>Copyright \u00a9 2024 {name}. All rights reserved.</string>\n"),
    ("nimble-file", "# Package\n\nversion       = \"0.7.0\"\nauthor        = \"{name}\"\ndescription   = \"Echo sounder frame parser\"\nlicense       = \"MIT\"\n"),
    ("fabric-mod-json", "{{\n  \"schemaVersion\": 1,\n  \"id\": \"lanternfish\",\n  \"version\": \"1.2.0\",\n  \"authors\": [\"{name}\"],\n  \"environment\": \"*\"\n}}\n"),
    ("godot-plugin-cfg", "[plugin]\n\nname=\"Sonar Sweep\"\nauthor=\"{name}\"\nversion=\"1.0\"\nscript=\"plugin.gd\"\n"),
    ("blender-bl-info", "bl_info = {{\n    \"name\": \"Seabed Mesh Import\",\n    \"author\": \"{name}\",\n    \"version\": (1, 3, 0),\n    \"category\": \"Import-Export\",\n}}\n"),
    ("qgis-metadata", "[general]\nname=Trawl Tracks\nqgisMinimumVersion=3.28\nversion=0.9.1\nauthor={name}\nemail={email}\n"),
    ("joomla-manifest", "<extension type=\"module\" client=\"site\" method=\"upgrade\">\n  <name>mod_tidetable</name>\n  <author>{name}</author>\n  <authorEmail>{email}</authorEmail>\n  <version>2.0.4</version>\n</extension>\n"),
    ("docusaurus-authors", "{handle}:\n  name: {name}\n  title: Maintainer of the sonar docs\n  image_url: /img/authors/{handle}.png\n"),
    ("rss-itunes-author", "<item>\n  <title>Episode 12: Counting fish with sound</title>\n  <itunes:author>{name}</itunes:author>\n  <enclosure url=\"https://podcast.example.org/ep12.mp3\"/>\n</item>\n"),
    ("mkdocs-site-author", "site_name: Lanternfish Docs\nsite_author: {name}\ntheme:\n  name: material\n"),
    ("luarocks-rockspec", "package = \"lantern-echo\"\nversion = \"1.1-1\"\ndescription = {{\n   summary = \"Echo sounder frames for Lua\",\n   maintainer = \"{name} <{email}>\",\n   license = \"MIT\"\n}}\n"),
    ("shard-yml", "name: lantern_echo\nversion: 0.4.2\n\nauthors:\n  - {name} <{email}>\n\ncrystal: \">= 1.10.0\"\n"),
    ("arduino-library-properties", "name=SonarPing\nversion=1.0.3\nauthor={name} <{email}>\nmaintainer={name} <{email}>\nsentence=Drives an ultrasonic ping sensor.\n"),
)
CLEAN_TEMPLATES["holdout9"] = (
    ("doxygen-author", "/**\n * \\file    {tool_module}_sink.c\n * \\brief   Writes echo frames to {tool}.\n * \\author  Sonar Platform Team\n */\n"),
    ("makefile-pl", "WriteMakefile(\n    NAME      => 'Lantern::{tool}',\n    AUTHOR    => 'Lantern Maintainers <lantern-dev@lists.example.org>',\n    PREREQ_PM => {{ '{tool}' => '2.0' }},\n);\n"),
    ("chef-metadata", "name              '{tool_module}_agent'\nmaintainer        'Infrastructure Team'\nmaintainer_email  'infra@lists.example.org'\ndepends          '{tool_module}'\n"),
    ("appstream-metainfo", "<component>\n  <id>org.example.{tool}Viewer</id>\n  <developer id=\"org.example\">\n    <name>The {tool} Project</name>\n  </developer>\n  <update_contact>appstream@lists.example.org</update_contact>\n</component>\n"),
    ("info-plist", "<key>CFBundleName</key>\n<string>{tool} Companion</string>\n<key>NSHumanReadableCopyright</key>\n<string>Copyright \u00a9 2024 Harbour Acoustics Lab. All rights reserved.</string>\n"),
    ("fabric-mod-json", "{{\n  \"schemaVersion\": 1,\n  \"id\": \"{tool_module}-compat\",\n  \"authors\": [\"{tool} Modding Team\"],\n  \"depends\": {{\"{tool_module}\": \">=3.0\"}}\n}}\n"),
    ("qgis-metadata", "[general]\nname={tool} Layers\nqgisMinimumVersion=3.28\nauthor=GIS Working Group\nemail=gis-wg@lists.example.org\n"),
    ("docusaurus-authors", "{tool_module}-bot:\n  name: {tool} Release Bot\n  title: Automated release notes\n  image_url: /img/bots/{tool_module}.png\n"),
    ("mkdocs-site-author", "site_name: {tool} Integration Guide\nsite_author: Documentation Team\nplugins:\n  - search\n  - {tool_module}-links\n"),
    ("arduino-library-properties", "name={tool}Sensor\nversion=2.1.0\nauthor=Sensor Drivers Team <drivers@lists.example.org>\nmaintainer=ci-bot <ci-bot@example.org>\nsentence=Reads {tool} frames over I2C.\n"),
)
TOOLS["holdout9"] = ("Pino", "Leiningen", "Huginn", "Marian", "Griffin", "Calliope", "Altair", "Zeppelin", "Marlin", "Lance")
SEEDS["holdout9"] = 9909
# --- holdout10: the tenth held-out run (issue #29), a block of its own, written before any score on it -----------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Khasi, Garo, Santali, Bodo, Okinawan, Iban, Batak, Minangkabau,
# Ilocano, Gagauz, Ingush, Lezgin, Assyrian, Tuareg, Herero, Manx, Occitan and Ladin names (written by hand,
# invented pairings). Its person templates are 20 kinds no other split has: an Inno Setup `MyAppPublisher`, a TYPO3
# ext_emconf.php `author`, a Stata ado `*! version` line, a SAS program header `Programmer:`, a Kodi addon.xml
# `provider-name`, a Factorio info.json `author`, an Obsidian plugin manifest `author`, a Hugo theme.toml
# `[author]`, a Puppet module metadata.json `author`, a Typst typst.toml `authors`, a Bukkit plugin.yml `author`, a
# Mozilla install.rdf `<em:creator>`, a KDE KPlugin `Authors`, an SPDX document `Creator: Person:`, an OCaml
# dune-project `authors`, an sbt `Developer(...)`, an ASDF `defsystem` `:author`, a conanfile.py `author`, a vcpkg.json
# `maintainers` and a D dub.json `authors`. Its clean documents are ten of the same kinds naming a team, a list
# address, a bot or an organisation where a person would stand; its tools are also given names or surnames (Kate,
# Dino, Jami, Ansel, Geary, Shotwell, Lemmy, Borg, Kavita, Cantor). Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout10 --out bench/corpora/code-persons-holdout-10.jsonl`.
GIVEN["holdout10"] = (
    "Banshanlang", "Ibadahun", "Saljagring", "Rimchi", "Sonamuni", "Chotrai", "Swmkhwr", "Daoshri", "Kamado",
    "Chōshin", "Empiang", "Nyalau", "Togar", "Tiurma", "Buyung", "Upiak", "Luzviminda", "Crisanto", "Todur",
    "Dimitrana", "Bagauddin", "Khava", "Muzafar", "Zumrud", "Ninos", "Atorina", "Assalek", "Takamat", "Vetaruhe",
    "Uaundja", "Illiam", "Breeshey", "Guilhèm", "Azalaïs", "Ojep", "Doreta")
SURNAMES["holdout10"] = (
    "Lyngdoh", "Kharkongor", "Marak", "Momin", "Hembrom", "Kisku", "Basumatary", "Narzary", "Shimabukuro",
    "Nakandakari", "Unggang", "Sumbang", "Hutapea", "Situmorang", "Chaniago", "Piliang", "Agbayani", "Pagdilao",
    "Stoyanoglu", "Karaçoban", "Ozdoev", "Gazdiev", "Emirbekov", "Sheikhaliev", "Khoshaba", "Odisho", "Ag Ehiya",
    "Welet Ataher", "Katjivena", "Tjipueja", "Kinvig", "Corkish", "Bernadac", "Castanhièr", "Irsara", "Pescosta")
MAIL_DOMAINS["holdout10"] = ("shearwater.dev", "authors10.example.net", "packagers10.example.org")
PERSON_TEMPLATES["holdout10"] = (
    ("inno-setup-publisher", "; Quaywise installer script\n#define MyAppName \"Quaywise\"\n#define MyAppVersion \"2.0.1\"\n#define MyAppPublisher \"{name}\"\n"),
    ("typo3-emconf", "<?php\n$EM_CONF[$_EXTKEY] = [\n    'title' => 'Quay Timetable',\n    'author' => '{name}',\n    'version' => '2.0.1',\n];\n"),
    ("stata-ado-header", "*! version 1.2.0  {name}  19nov2024\nprogram define quayfit, rclass\n    version 17\n"),
    ("sas-header", "/*********************************************\n * Program:    quay_summary.sas\n * Programmer: {name}\n * Date:       2024-11-19\n *********************************************/\n"),
    ("kodi-addon-xml", "<addon id=\"plugin.video.quaywise\" name=\"Quaywise\" version=\"1.0.2\" provider-name=\"{name}\">\n</addon>\n"),
    ("factorio-info-json", "{{\n  \"name\": \"quay-cranes\",\n  \"version\": \"0.2.1\",\n  \"title\": \"Quay Cranes\",\n  \"author\": \"{name}\",\n  \"factorio_version\": \"1.1\"\n}}\n"),
    ("obsidian-manifest", "{{\n  \"id\": \"quay-notes\",\n  \"name\": \"Quay Notes\",\n  \"version\": \"1.4.0\",\n  \"author\": \"{name}\",\n  \"authorUrl\": \"https://github.com/{handle}\"\n}}\n"),
    ("hugo-theme-toml", "name = \"Quaywise\"\nlicense = \"MIT\"\nmin_version = \"0.120.0\"\n\n[author]\n  name = \"{name}\"\n  homepage = \"https://{handle}.example.org\"\n"),
    ("puppet-metadata", "{{\n  \"name\": \"{handle}-quaywise\",\n  \"version\": \"2.0.1\",\n  \"author\": \"{name}\",\n  \"license\": \"Apache-2.0\"\n}}\n"),
    ("typst-toml", "[package]\nname = \"quay-table\"\nversion = \"0.1.0\"\nentrypoint = \"lib.typ\"\nauthors = [\"{name} <{email}>\"]\nlicense = \"MIT\"\n"),
    ("bukkit-plugin-yml", "name: QuayWise\nversion: 1.3.0\nmain: org.example.quaywise.QuayWise\nauthor: {name}\napi-version: '1.20'\n"),
    ("install-rdf-creator", "<Description about=\"urn:mozilla:install-manifest\">\n  <em:id>quaywise@example.org</em:id>\n  <em:name>Quaywise</em:name>\n  <em:creator>{name}</em:creator>\n</Description>\n"),
    ("kpackage-metadata", "{{\n  \"KPlugin\": {{\n    \"Authors\": [{{ \"Name\": \"{name}\", \"Email\": \"{email}\" }}],\n    \"Id\": \"org.example.quaywise\",\n    \"Name\": \"Quaywise\"\n  }}\n}}\n"),
    ("spdx-creator", "SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\nDocumentName: quaywise-2.0.1\nCreator: Person: {name} ({email})\nCreated: 2024-11-19T10:00:00Z\n"),
    ("dune-project", "(lang dune 3.11)\n(name quaywise)\n(authors \"{name} <{email}>\")\n(maintainers \"{email}\")\n(license ISC)\n"),
    ("sbt-developers", "developers := List(\n  Developer(\"{handle}\", \"{name}\", \"{email}\", url(\"https://{handle}.example.org\"))\n)\n"),
    ("asdf-system", "(defsystem \"quaywise\"\n  :description \"Quay timetable parser\"\n  :author \"{name} <{email}>\"\n  :license \"MIT\"\n  :components ((:file \"quays\")))\n"),
    ("conanfile-author", "class QuaywiseConan(ConanFile):\n    name = \"quaywise\"\n    version = \"2.0.1\"\n    author = \"{name} <{email}>\"\n    license = \"MIT\"\n"),
    ("vcpkg-manifest", "{{\n  \"name\": \"quaywise\",\n  \"version\": \"2.0.1\",\n  \"maintainers\": [\"{name} <{email}>\"],\n  \"dependencies\": [\"zlib\"]\n}}\n"),
    ("dub-json", "{{\n  \"name\": \"quaywise\",\n  \"description\": \"Quay timetable parser\",\n  \"authors\": [\"{name}\"],\n  \"license\": \"BSL-1.0\"\n}}\n"),
)
CLEAN_TEMPLATES["holdout10"] = (
    ("inno-setup-publisher", "; {tool} bundle installer\n#define MyAppName \"{tool} Portable\"\n#define MyAppPublisher \"Quaywise Desktop Team\"\n#define MyAppExeName \"{tool_module}.exe\"\n"),
    ("typo3-emconf", "<?php\n$EM_CONF[$_EXTKEY] = [\n    'title' => '{tool} Connector',\n    'author' => 'TYPO3 Extensions Team',\n    'author_email' => 'ext-team@lists.example.org',\n];\n"),
    ("stata-ado-header", "*! version 2.0.0  Survey Methods Unit  02dec2024\n*! wrapper around the {tool} export\nprogram define {tool_module}_export\n"),
    ("kodi-addon-xml", "<addon id=\"plugin.audio.{tool_module}\" name=\"{tool} Remote\" version=\"0.9.0\" provider-name=\"Add-on Packaging Team\">\n</addon>\n"),
    ("obsidian-manifest", "{{\n  \"id\": \"{tool_module}-sync\",\n  \"name\": \"{tool} Sync\",\n  \"author\": \"Community Plugins Group\",\n  \"authorUrl\": \"https://github.com/quaywise-community\"\n}}\n"),
    ("puppet-metadata", "{{\n  \"name\": \"infra-{tool_module}\",\n  \"author\": \"Infrastructure Automation Team\",\n  \"summary\": \"Installs and configures {tool}\"\n}}\n"),
    ("typst-toml", "[package]\nname = \"{tool_module}-slides\"\nversion = \"0.2.0\"\nauthors = [\"Slide Templates Collective <templates@lists.example.org>\"]\ndescription = \"Slides themed after {tool}\"\n"),
    ("spdx-creator", "SPDXVersion: SPDX-2.3\nDocumentName: {tool_module}-sbom\nCreator: Tool: {tool_module}-sbom-1.4\nCreator: Organization: Release Engineering Group\n"),
    ("conanfile-author", "class {tool}Conan(ConanFile):\n    name = \"{tool_module}\"\n    author = \"Package Recipes Team <recipes@lists.example.org>\"\n    topics = (\"{tool_module}\",)\n"),
    ("vcpkg-manifest", "{{\n  \"name\": \"{tool_module}-port\",\n  \"maintainers\": [\"Ports Bot <ports-bot@example.org>\"],\n  \"dependencies\": [\"{tool_module}\"]\n}}\n"),
)
TOOLS["holdout10"] = ("Kate", "Dino", "Jami", "Ansel", "Geary", "Shotwell", "Lemmy", "Borg", "Kavita", "Cantor")
SEEDS["holdout10"] = 10010
# --- tune6: a sixth tuning split (issue #29, seventh round), a block of its own -------------------------------
# Written after holdout6's clean documents were seen: tools spelt like given names or surnames with evidence that
# they are software, in formats no other split has - Dockerfiles, GitHub Actions steps, systemd units, Prometheus
# rules, Makefiles, READMEs, changelogs, Grafana JSON, nginx configuration, requirements files, docker-compose
# fields and log lines: the same word in lower case as a module, package, path or command (a "tool_module"
# twin), a version after it, a software noun beside it ("exporter", "bindings", "datasource", "alert"), or a
# value of a tool's field ("driver:", "engine:"); and person documents of the same kinds naming people, so both
# sides are measured. Two given names and two surnames each of Breton, Frisian, Sardinian, Fijian, Greenlandic,
# Cornish, Sorbian, Aymara and Romansh names (written by hand, invented pairings), which no other split draws
# on. Its tools are given names or surnames no other split or test uses as tools. Tuned on, never reported as
# held-out: `python -m ztgate_bench.code_persons write --split tune6 --out bench/corpora/code-persons-tune-6.jsonl`.
GIVEN["tune6"] = ("Yannig", "Rozenn", "Wopke", "Tjitske", "Bachisio", "Tonina", "Epeli", "Sereana", "Aqqaluk",
                  "Paninnguaq", "Jory", "Morwenna", "Jurij", "Lubina", "Wara", "Illari", "Curdin", "Flurina")
SURNAMES["tune6"] = ("Kerdraon", "Morvan", "Hoekstra", "Wijbenga", "Porcu", "Sanna", "Vakatawa", "Ravouvou", "Heilmann",
                     "Berthelsen", "Trevithick", "Penhaligon", "Krawc", "Šołta", "Condori", "Choque", "Caviezel",
                     "Cadruvi")
MAIL_DOMAINS["tune6"] = ("gannetcove.dev", "people6.example.org", "hq.example.net")
PERSON_TEMPLATES["tune6"] = (
    ("dockerfile-tp", "FROM node:20-alpine\n# Base image chosen by {name}; ask her before changing it\nWORKDIR /srv\n"),
    ("gh-actions-tp", "on: [push]\n# {name} set up this workflow, ping {first} if the cache breaks\njobs:\n  test:\n    runs-on: ubuntu-latest\n"),
    ("systemd-unit-tp", "# Installed by {name} on 2024-05-02, see the runbook\n[Service]\nExecStart=/usr/bin/ledger-sync\nRestart=on-failure\n"),
    ("prometheus-rule-tp", "      - alert: QueueDepthHigh\n        expr: queue_depth > 500\n        annotations:\n          summary: \"Queue depth high, {name} is on call\"\n"),
    ("makefile-tp", "# {name} maintains the release targets\nrelease: dist\n\ttwine upload dist/*\n"),
    ("readme-tp", "## Maintainers\n\n{name} ({email}) reviews every pull request to this repository.\n"),
    ("changelog-tp", "## [3.2.1] - 2024-09-02\n### Fixed\n- Off-by-one in the pagination, found by {name}\n"),
    ("grafana-json-tp", "{{\"title\": \"Checkout latency\", \"description\": \"Built by {name} for the Q3 review\", \"refresh\": \"30s\"}}\n"),
    ("nginx-conf-tp", "# {name} added this rate limit after the March incident\nlimit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;\n"),
    ("requirements-tp", "# pinned by {name} until the upstream fix lands\nurllib3==1.26.18\n"),
    ("compose-tp", "services:\n  worker:\n    image: ledger-worker:2.3\n    # {name} tuned these limits after the load test\n    mem_limit: 2g\n"),
    ("log-line-tp", "2024-09-03T08:14:22Z INFO deploy approved by {name}, rollout started\n"),
)
CLEAN_TEMPLATES["tune6"] = (
    ("dockerfile-tp", "FROM python:3.12-slim\nRUN pip install {tool_module}==4.1.0\n# {tool} serves the metrics endpoint\nCMD [\"{tool_module}\", \"serve\"]\n"),
    ("gh-actions-tp", "    steps:\n      - uses: actions/checkout@v4\n      - name: Set up {tool}\n        run: pipx install {tool_module}\n"),
    ("systemd-unit-tp", "[Unit]\nDescription={tool} daemon\nAfter=network-online.target\n\n[Service]\nExecStart=/usr/bin/{tool_module} --config /etc/{tool_module}.toml\n"),
    ("prometheus-rule-tp", "      - alert: QueueBacklog\n        expr: {tool_module}_queue_depth > 100\n        annotations:\n          summary: \"{tool} queue is backing up\"\n"),
    ("makefile-tp", "lint:\n\t{tool_module} lint ./...\n# {tool} 2.6 or newer is needed for the lint target\n"),
    ("readme-tp", "## Configuration\n\n{tool} reads `{tool_module}.yaml` from the working directory; the {tool} exporter listens on port 9464.\n"),
    ("changelog-tp", "## [3.2.0] - 2024-08-19\n### Changed\n- Upgraded the {tool} client to 5.2\n- The {tool} plugin loads lazily\n"),
    ("grafana-json-tp", "{{\"title\": \"{tool} overview\", \"panels\": [{{\"type\": \"timeseries\", \"datasource\": \"{tool_module}\"}}]}}\n"),
    ("nginx-conf-tp", "# {tool} sits behind this proxy\nlocation /{tool_module}/ {{\n    proxy_pass http://unix:/run/{tool_module}.sock;\n}}\n"),
    ("requirements-tp", "{tool_module}==2.8.1  # {tool} bindings for the ingest job\nrequests>=2.31\n"),
    ("compose-tp", "services:\n  api:\n    logging:\n      driver: {tool}\n    # the {tool} driver ships logs to the collector\n"),
    ("log-line-tp", "2024-09-03T08:15:02Z WARN {tool} alert fired: disk 91% full on the build cache\n"),
)
TOOLS["tune6"] = ("Martha", "Stanley", "Pierce", "Quinn", "Margo", "Lyle", "Boris", "Mabel", "Wallace", "Gordon")
SEEDS["tune6"] = 6907


# --- tune7: a seventh tuning split (issue #29, eighth round), a block of its own ------------------------------
# Written after holdout7's leaks were seen (a name split into given and family fields, a copyright holder before
# the year, a vCard), in forms of its own: a person's name split across the fields of a structured record -
# CITATION.cff given-names/family-names, codemeta.json givenName/familyName, .zenodo.json "Family, Given", BibTeX
# author lists, R person() with positional and keyword arguments, DOAP foaf:givenName/foaf:familyName, JATS
# <surname>/<given-names>, CSL JSON and Pandoc YAML family/given, an ORCID record's {"value": ...} fields, vCard
# N: and FN:, a Maven <developer> - and copyright lines whose holder comes before the year or has none ("Copyright
# (C) NAME 2022", "(c) NAME, 2020", "All rights reserved"). Two given names and two surnames each of Sakha,
# Kalmyk, Chuvash, Friulian, Corsican, Kinyarwanda, Luganda, Oromo and Balinese names (written by hand, invented
# pairings), which no other split draws on. Its clean documents are the same kinds whose fields hold tools,
# teams and organisations ("The X Authors", "Apache Software Foundation", an organisation's vCard, a font
# family), its tools spelt like given names or surnames. Tuned on, never reported as held-out:
# `python -m ztgate_bench.code_persons write --split tune7 --out bench/corpora/code-persons-tune-7.jsonl`.
GIVEN["tune7"] = ("Aital", "Aiyyna", "Delgir", "Baira", "Attil", "Narspi", "Pieri", "Maddalena", "Petru", "Lisandra",
                  "Uwase", "Keza", "Namuli", "Kizito", "Gemechu", "Hawi", "Wayan", "Ketut")
SURNAMES["tune7"] = ("Nogovitsyn", "Kolesova", "Bembeev", "Sangadzhieva", "Turkhan", "Yandush", "Zamparo",
                     "Candotti", "Pietrasanta", "Santoni", "Habimana", "Niyonzima", "Mukasa", "Lubega",
                     "Tolessa", "Gudina", "Sukerta", "Adnyana")
MAIL_DOMAINS["tune7"] = ("wrenfield.dev", "people7.example.org", "cite.example.net")
PERSON_TEMPLATES["tune7"] = (
    ("cff-split", "cff-version: 1.2.0\ntitle: tidekit\nauthors:\n  - given-names: {first}\n    family-names: {last}\n    affiliation: \"Institute of Marine Sciences\"\n    orcid: \"https://orcid.org/0000-0002-7113-5402\"\nlicense: Apache-2.0\n"),
    ("codemeta-split", "{{\n  \"@context\": \"https://w3id.org/codemeta/3.0\",\n  \"name\": \"tidekit\",\n  \"author\": [\n    {{\"@type\": \"Person\", \"givenName\": \"{first}\", \"familyName\": \"{last}\", \"email\": \"{email}\"}}\n  ]\n}}\n"),
    ("zenodo-split", "{{\n  \"title\": \"tidekit: harmonic tide tables\",\n  \"creators\": [\n    {{\"name\": \"{last}, {first}\", \"affiliation\": \"Coastal Lab\"}}\n  ],\n  \"upload_type\": \"software\"\n}}\n"),
    ("bibtex-split", "@software{{tidekit2023,\n  author    = {{{last}, {first} and Others}},\n  title     = {{tidekit}},\n  year      = {{2023}},\n  version   = {{1.4.2}}\n}}\n"),
    ("r-person-split", "Package: tidekit\nVersion: 1.4.2\nAuthors@R: c(\n    person(\"{first}\", \"{last}\", , \"{email}\", role = c(\"aut\", \"cre\")),\n    person(\"Coastal Lab\", role = \"cph\"))\nLicense: MIT + file LICENSE\n"),
    ("r-person-split", "Authors@R: person(given = \"{first}\", family = \"{last}\",\n                  role = c(\"aut\"), comment = c(ORCID = \"0000-0001-5109-3700\"))\n"),
    ("doap-split", "<foaf:Person rdf:nodeID=\"m1\">\n  <foaf:givenName>{first}</foaf:givenName>\n  <foaf:familyName>{last}</foaf:familyName>\n  <foaf:mbox rdf:resource=\"mailto:{email}\"/>\n</foaf:Person>\n"),
    ("jats-split", "<contrib contrib-type=\"author\">\n  <name name-style=\"western\">\n    <surname>{last}</surname>\n    <given-names>{first}</given-names>\n  </name>\n</contrib>\n"),
    ("csl-split", "[\n  {{\"id\": \"tidekit\", \"type\": \"software\", \"author\": [{{\"family\": \"{last}\", \"given\": \"{first}\"}}], \"issued\": {{\"date-parts\": [[2023]]}}}}\n]\n"),
    ("csl-split", "---\ntitle: Tide tables\nauthor:\n  - family: {last}\n    given: {first}\n    affiliation: Coastal Lab\n---\n"),
    ("orcid-split", "{{\n  \"person\": {{\n    \"name\": {{\n      \"given-names\": {{\"value\": \"{first}\"}},\n      \"family-name\": {{\"value\": \"{last}\"}}\n    }}\n  }}\n}}\n"),
    ("vcard-split", "BEGIN:VCARD\nVERSION:3.0\nN:{last};{first};;;\nFN:{name}\nORG:Coastal Lab\nEND:VCARD\n"),
    ("vcard-split", "BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8:{name}\nTEL;WORK;VOICE:+1-555-0142\nNOTE:on call for the tide service\nEND:VCARD\n"),
    ("maven-split", "  <developers>\n    <developer>\n      <id>{handle}</id>\n      <name>{name}</name>\n      <organization>Coastal Lab</organization>\n    </developer>\n  </developers>\n"),
    ("copyright-split", "VS_VERSION_INFO VERSIONINFO\nBEGIN\n  VALUE \"LegalCopyright\", \"Copyright (C) {name} 2022\"\n  VALUE \"ProductName\", \"TideKit\"\nEND\n"),
    ("copyright-split", "# (c) {name}, 2020. All rights reserved.\n# Licensed under the Apache License, Version 2.0\n"),
)
CLEAN_TEMPLATES["tune7"] = (
    ("cff-split", "cff-version: 1.2.0\ntitle: \"{tool} exporter\"\nauthors:\n  - name: \"The {tool} Authors\"\n  - name: \"Apache Software Foundation\"\nlicense: Apache-2.0\n"),
    ("codemeta-split", "{{\n  \"name\": \"{tool_module}-exporter\",\n  \"author\": [{{\"@type\": \"Organization\", \"name\": \"The {tool} Authors\"}}],\n  \"softwareRequirements\": [\"{tool} 4.2\"]\n}}\n"),
    ("zenodo-split", "{{\n  \"creators\": [{{\"name\": \"{tool} Developers\", \"affiliation\": \"Apache Software Foundation\"}}],\n  \"keywords\": [\"{tool_module}\", \"exporter\"]\n}}\n"),
    ("bibtex-split", "@manual{{{tool_module}docs,\n  author       = {{{{The {tool} Authors}}}},\n  title        = {{{tool} documentation}},\n  organization = {{Apache Software Foundation}}\n}}\n"),
    ("r-person-split", "Package: {tool_module}r\nAuthors@R: c(\n    person(\"{tool} Core Team\", role = c(\"aut\", \"cre\")),\n    person(\"Apache Software Foundation\", role = \"cph\"))\n"),
    ("doap-split", "<Project>\n  <name>{tool}</name>\n  <maintainer>\n    <foaf:Organization><foaf:name>Apache Software Foundation</foaf:name></foaf:Organization>\n  </maintainer>\n</Project>\n"),
    ("jats-split", "<contrib contrib-type=\"author\">\n  <collab>The {tool} Consortium</collab>\n</contrib>\n"),
    ("csl-split", "[{{\"id\": \"{tool_module}\", \"type\": \"software\", \"author\": [{{\"literal\": \"The {tool} Authors\"}}], \"title\": \"{tool}\"}}]\n"),
    ("csl-split", "theme:\n  fonts:\n    - family: {tool} Sans\n      weight: 400\n    - family: {tool} Mono\n"),
    ("orcid-split", "{{\n  \"funding\": {{\n    \"organization\": {{\"name\": \"Apache Software Foundation\"}},\n    \"title\": {{\"title\": {{\"value\": \"{tool} maintenance\"}}}}\n  }}\n}}\n"),
    ("vcard-split", "BEGIN:VCARD\nVERSION:4.0\nKIND:org\nFN:{tool} Support\nORG:The {tool} Authors\nEND:VCARD\n"),
    ("maven-split", "  <developers>\n    <developer>\n      <id>{tool_module}-team</id>\n      <name>The {tool} Authors</name>\n      <organization>Apache Software Foundation</organization>\n    </developer>\n  </developers>\n"),
    ("copyright-split", "[assembly: AssemblyCopyright(\"Copyright \u00a9 The {tool} Authors 2021\")]\n[assembly: AssemblyProduct(\"{tool}\")]\n"),
    ("copyright-split", "# (c) Apache Software Foundation, 2020. All rights reserved.\n# {tool} is a trademark of its owners.\n"),
)
TOOLS["tune7"] = ("Amanda", "Patroni", "Barman", "Crystal", "Rook", "Dex", "Diesel", "Thanos", "Mimir", "Tiller")
SEEDS["tune7"] = 7919
# --- tune8: an eighth tuning split (issue #29, eighth round), a block of its own ------------------------------
# Written after holdout7's clean documents were seen (team and mailing-list addresses, a team as an iCalendar
# organiser, tools in an SQL name column), in forms of its own and on both sides in each kind: SQL INSERT and
# UPDATE into tables of persons (users, authors, employees) and of things (services, packages, jobs, hosts) whose
# names are spelt like given names; CSV and YAML records of both; iCalendar ORGANIZER and ATTENDEE lines with a
# person and with a team or a group; mailing-list footers and headers, Debian-style Maintainer fields and
# notification settings holding a person's address or a team's, a list's, a group's or a bot's. Two given names
# and two surnames each of Navajo, Marshallese, Chamorro, Venda, Tsonga, Ga, Songhai, Meitei, Kodava, Sundanese,
# Karakalpak and Rapa Nui names (written by hand, invented pairings), which no other split draws on (holdout8's
# pools were checked by name only, for overlap). Its tools are given names no other split or test uses as tools.
# Tuned on, never reported as held-out: `python -m ztgate_bench.code_persons write --split tune8 --out bench/corpora/code-persons-tune-8.jsonl`.
GIVEN["tune8"] = ("Nizhoni", "Ahiga", "Jemi", "Lijon", "Mañe", "Tasi", "Rudzani", "Mashudu", "Hlulani", "Tsakani",
                  "Nii", "Naa", "Hamadoun", "Aïssata", "Tomba", "Thoibi", "Muthanna", "Dechamma", "Asep", "Euis",
                  "Berdakh", "Gulnara", "Hotu", "Mahina")
SURNAMES["tune8"] = ("Begay", "Yazzie", "Laninvelik", "Kabua", "Quinata", "Aguon", "Netshitenzhe", "Mudau", "Baloyi",
                     "Maluleke", "Quaye", "Lamptey", "Maïga", "Haïdara", "Ningthoujam", "Laishram", "Ponnappa",
                     "Kariappa", "Permana", "Sumantri", "Ayimbetov", "Seytnazarova", "Pakarati", "Tuki")
MAIL_DOMAINS["tune8"] = ("tidewrack.dev", "roster8.example.org", "crew8t.example.net")
PERSON_TEMPLATES["tune8"] = (
    ("sql-insert-t8", "INSERT INTO users (id, full_name, email, created_at)\nVALUES (1042, '{name}', '{email}', now());\n"),
    ("sql-rows-t8", "INSERT INTO authors (name, affiliation) VALUES\n  ('{name}', 'Storage group'),\n  ('anonymous', NULL);\n"),
    ("sql-update-t8", "UPDATE employees SET display_name = '{name}', updated_at = now() WHERE id = 88;\n"),
    ("csv-table-t8", "id,full_name,email,team\n7,{name},{email},payments\n8,{handle},,payments\n"),
    ("yaml-record-t8", "people:\n  - name: {name}\n    email: {email}\n    role: reviewer\n"),
    ("ical-organizer-t8", "BEGIN:VEVENT\nSUMMARY:Schema review\nORGANIZER;CN={name}:mailto:{email}\nDTSTART:20250312T150000Z\nEND:VEVENT\n"),
    ("ical-attendee-t8", "ATTENDEE;ROLE=REQ-PARTICIPANT;CN={name}:mailto:{email}\nATTENDEE;CUTYPE=GROUP;CN=Storage Team:mailto:storage-team@lists.sandpiper.example\n"),
    ("list-footer-t8", "_______________________________________________\nledger-dev mailing list\nledger-dev@lists.sandpiper.example\nPosted by {name} <{email}>\n"),
    ("list-header-t8", "From: {name} <{email}>\nTo: infra-announce@lists.sandpiper.example\nSubject: [infra-announce] maintenance window on Sunday\n"),
    ("maintainer-field-t8", "Source: ledger-sync\nMaintainer: {name} <{email}>\nUploaders: Ledger Packaging Team <team+ledger@tracker.sandpiper.example>\n"),
    ("contact-config-t8", "[notify]\nowner = \"{name}\"\nemail = \"{handle}@{lower}.name\"\ncc = \"ledger-ops@groups.sandpiper.example\"\n"),
    ("alert-route-t8", "receivers:\n  - name: ledger-primary\n    email_configs:\n      - to: {email}\n    # {name} is the primary this week\n"),
)
CLEAN_TEMPLATES["tune8"] = (
    ("sql-insert-t8", "INSERT INTO services (id, name, repo, tier) VALUES (17, '{tool}', 'infra/{tool_module}', 2);\n"),
    ("sql-rows-t8", "INSERT INTO packages (name, version, license) VALUES\n  ('{tool}', '2.4.0', 'MIT'),\n  ('{tool_module}-cli', '2.4.0', 'MIT');\n"),
    ("sql-update-t8", "UPDATE jobs SET name = '{tool}', schedule = '0 3 * * *' WHERE id = 12;\n"),
    ("csv-table-t8", "name,host,port\n{tool},{tool_module}.svc.internal,8443\nledger-api,ledger.svc.internal,8080\n"),
    ("yaml-record-t8", "hosts:\n  - name: {tool}\n    fqdn: {tool_module}.infra.internal\n    rack: r14\n"),
    ("ical-organizer-t8", "BEGIN:VEVENT\nSUMMARY:{tool} upgrade window\nORGANIZER;CN={tool} Team:mailto:{tool_module}@sandpiper.example\nDTSTART:20250312T150000Z\nEND:VEVENT\n"),
    ("ical-attendee-t8", "ATTENDEE;CUTYPE=GROUP;CN={tool} Maintainers:mailto:{tool_module}-maintainers@lists.sandpiper.example\nATTENDEE;CN=SRE On-Call:mailto:sre-oncall@groups.sandpiper.example\n"),
    ("list-footer-t8", "_______________________________________________\n{tool_module}-users mailing list\n{tool_module}-users@lists.sandpiper.example\nhttps://lists.sandpiper.example/mailman/listinfo/{tool_module}-users\n"),
    ("list-header-t8", "From: {tool} Bot <noreply@sandpiper.example>\nTo: {tool_module}-dev@lists.sandpiper.example\nSubject: [{tool_module}-dev] nightly build passed\n"),
    ("maintainer-field-t8", "Source: {tool_module}\nMaintainer: {tool} Packaging Team <{tool_module}-pkg@lists.sandpiper.example>\nSection: net\n"),
    ("contact-config-t8", "[notify]\nowner = \"platform\"\nemail = \"{tool_module}-announce@lists.sandpiper.example\"\ncc = \"releases@groups.sandpiper.example\"\n"),
    ("alert-route-t8", "receivers:\n  - name: {tool_module}-team\n    email_configs:\n      - to: {tool_module}-team@sandpiper.example\n    # the {tool} team gets these pages\n"),
)
TOOLS["tune8"] = ("Percival", "Montague", "Ophelia", "Thaddeus", "Wilhelmina", "Evander", "Lucinda", "Barnaby", "Ignatius",
                  "Cordelia")
SEEDS["tune8"] = 8819


# --- tune9: a ninth tuning split (issue #29, ninth round, ADR 0030), a block of its own --------------------------
# The classes the eighth held-out split's misses named (seen since), in forms of their own: a person after a
# contact's or a keeper's copula in a comment, a SECURITY.md, a MAINTAINERS file or a security.txt ("the security
# contact for X is NAME", "the maintainer of this module is NAME", "owner is NAME (...)"), a person in an attendee,
# participant or reviewer list beside bots and teams (meeting notes, postmortems, sprint notes), and a person in a
# manifest's author or maintainers field; clean documents of each kind where a team, a bot, a rota or a product
# stands in the person's place, and a product's own `name`/`displayName` in its manifest is a name-like tool.
# Its own seed, name pools (Samoan, Mongolian, Quechua, Armenian, Malagasy, Tibetan, Georgian), tools and domains.
# Tuned on, never reported as held-out: `python -m ztgate_bench.code_persons write --split tune9 --out bench/corpora/code-persons-tune-9.jsonl`.
GIVEN["tune9"] = ("Ofa", "Vaea", "Losa", "Bolormaa", "Temuulen", "Killa", "Amaru", "Lusine", "Hayk", "Armen", "Fanja",
                  "Dolkar", "Lobsang", "Nyima", "Narek", "Tahina", "Kusi", "Oyuna")
SURNAMES["tune9"] = ("Erdenebat", "Ganzorig", "Huaman", "Gogoladze", "Beridze", "Kipiani", "Sargsyan", "Grigoryan",
                     "Andriamasy", "Razafindrakoto", "Dorjee", "Tsering", "Sangpo", "Mulitalo", "Dashdorj", "Tauiliili",
                     "Ccori", "Khurelbaatar")
MAIL_DOMAINS["tune9"] = ("quillmoss.dev", "roster9.example.org", "keepers9.example.net")
PERSON_TEMPLATES["tune9"] = (
    ("security-contact-t9", "# security.txt for the billing portal\n# The security contact for the billing portal is {name}\nContact: mailto:psirt@quillmoss.example\nPreferred-Languages: en\n"),
    ("security-md-t9", "## Reporting a vulnerability\n\nOur primary contact for vulnerability reports is {name}; please do not open a public issue.\n"),
    ("maintainers-file-t9", "MAINTAINERS\n===========\n\nThe current maintainer of this crate is {name} <{email}>.\nReleases are cut by release-plz.\n"),
    ("copula-comment-t9", "// The maintainer of this module is {name}. The sync bot only bumps versions.\nexport const RETRY_LIMIT = 5;\n"),
    ("copula-comment-t9", "-- owner is {name} (ledger on-call rotation)\nCREATE INDEX idx_ledger_ts ON ledger (ts);\n"),
    ("contact-comment-t9", "<!-- Point of contact: {name}. Questions? Reach out on #docs-help. -->\n<h1>Export guide</h1>\n"),
    ("contact-comment-t9", "/* Questions? Reach out to {name} before touching the DMA path. */\nstatic int dma_init(void);\n"),
    ("contact-comment-t9", "; Technical lead for this driver is {name}\n[driver]\nirq = 11\n"),
    ("attendee-list-t9", "# Ledger sync, 2025-02-11\n\n**Attendees:** {name}, dependabot, @quillmoss/ledger-core, Release Bot\n**Decisions:** freeze on Friday.\n"),
    ("attendee-list-t9", "Sprint 31 review\nPresent: @quillmoss/infra, {name}, ci-bot, Docs Team\nDemo: the new importer.\n"),
    ("participant-list-t9", "## Postmortem: queue stall on 2025-01-07\n\nParticipants: renovate[bot], SRE rota, {name}\nSeverity: SEV-2\n"),
    ("participant-list-t9", "### Attendees\n\n- {name}\n- dependabot[bot]\n- @quillmoss/sre\n"),
    ("reviewer-list-t9", "*Reviewers*: {name}, @quillmoss/docs-team, mergify[bot]\n"),
    ("manifest-author-t9", "{{\n  \"manifest_version\": 3,\n  \"name\": \"Tab Sorter\",\n  \"version\": \"0.9.2\",\n  \"author\": \"{name}\"\n}}\n"),
    ("manifest-author-t9", "{{\n  \"name\": \"ledger-lens\",\n  \"displayName\": \"Ledger Lens\",\n  \"publisher\": \"quillmoss\",\n  \"author\": {{\n    \"name\": \"{name}\",\n    \"email\": \"{email}\"\n  }}\n}}\n"),
    ("manifest-maintainers-t9", "apiVersion: v2\nname: ledger-api\nversion: 1.4.0\nmaintainers:\n  - name: {name}\n    email: {email}\n"),
    ("manifest-maintainers-t9", "[project]\nname = \"ledger-tools\"\nversion = \"2.0.1\"\nmaintainers = [{{name = \"{name}\", email = \"{email}\"}}]\n"),
)
CLEAN_TEMPLATES["tune9"] = (
    ("security-contact-t9", "# security.txt for {tool}\n# The security contact for {tool} is the product security team\nContact: mailto:psirt@quillmoss.example\nPolicy: https://quillmoss.example/{tool_module}/security\n"),
    ("security-md-t9", "## Reporting a vulnerability\n\nOur primary contact for {tool} vulnerability reports is the PSIRT rota at psirt@quillmoss.example.\n"),
    ("maintainers-file-t9", "MAINTAINERS\n===========\n\nThe current maintainer of {tool} is the {tool} Core Team <{tool_module}-core@lists.quillmoss.example>.\n"),
    ("copula-comment-t9", "// The maintainer of the {tool} adapter is @quillmoss/{tool_module}-maintainers.\nexport const ADAPTER = \"{tool_module}\";\n"),
    ("contact-comment-t9", "<!-- Point of contact: #{tool_module}-help. Questions? Reach out to the {tool} Guild. -->\n<h1>{tool} guide</h1>\n"),
    ("attendee-list-t9", "# {tool} sync, 2025-02-18\n\n**Attendees:** dependabot, @quillmoss/{tool_module}-core, {tool} Release Bot\n**Decisions:** {tool} 3.2 ships on Monday.\n"),
    ("participant-list-t9", "## Postmortem: {tool} outage\n\nParticipants: renovate[bot], SRE rota, {tool} Team\nRoot cause: {tool} ran out of file handles.\n"),
    ("reviewer-list-t9", "*Reviewers*: @quillmoss/{tool_module}-owners, {tool} Maintainers, mergify[bot]\n"),
    ("manifest-author-t9", "{{\n  \"manifest_version\": 3,\n  \"name\": \"{tool} Helper\",\n  \"version\": \"1.2.0\",\n  \"author\": \"Quillmoss Browser Team\"\n}}\n"),
    ("manifest-author-t9", "{{\n  \"name\": \"{tool_module}-lens\",\n  \"displayName\": \"{tool} Lens\",\n  \"publisher\": \"quillmoss\",\n  \"engines\": {{\n    \"vscode\": \"^1.85.0\"\n  }}\n}}\n"),
    ("manifest-name-t9", "{{\n  \"expo\": {{\n    \"name\": \"{tool} Notes\",\n    \"slug\": \"{tool_module}-notes\",\n    \"sdkVersion\": \"50.0.0\"\n  }}\n}}\n"),
    ("manifest-name-t9", "apiVersion: v2\nname: {tool} Relay\ndescription: A Helm chart for {tool}\nappVersion: \"4.1.0\"\n"),
    ("manifest-name-t9", "[project]\nname = \"{tool} Sync\"\nversion = \"0.4.0\"\nrequires-python = \">=3.10\"\n"),
    ("manifest-maintainers-t9", "apiVersion: v2\nname: {tool_module}\nversion: 1.4.0\nmaintainers:\n  - name: {tool} Maintainers\n    email: {tool_module}-maintainers@lists.quillmoss.example\n"),
)
TOOLS["tune9"] = ("Benedikt", "Isadora", "Leocadia", "Aurelius", "Seraphina", "Ignatia", "Fenwick", "Hyacinth", "Eudora",
                  "Alaric")
SEEDS["tune9"] = 9931


# --- tune10: a tenth tuning split (issue #29, tenth round, ADR 0036), a block of its own -------------------------
# The class the ninth held-out split's misses named (seen since: an Erlang attribute, a COBOL paragraph, manifest
# keys beside version keys): a person in an author-like slot of a file kind no split had shown, in syntaxes of its
# own: a Cabal field, an opam list, a Julia Project.toml array, an Elixir keyword list, a Debian copyright header,
# an RPM spec tag, Emacs Lisp and Vim headers, a TeX macro, an SPDX creator, a notebook's metadata, Terraform tags,
# Fortran and MATLAB comments, a PowerShell script-info keyword, an Xcode "Created by" header, a CocoaPods hash, an
# ASDF keyword, an AppStream element and a Chef DSL call; one template a kind, and clean documents of half the kinds
# with a team, a bot, an organisation, a build system or a list address in the slot and tools spelt like given
# names. Its own seed, name pools (Burmese, Pashto, Tigrinya, Irish, Galician, Tajik), tools and domains.
# Tuned on, never reported as held-out: `python -m ztgate_bench.code_persons write --split tune10 --out bench/corpora/code-persons-tune-10.jsonl`.
GIVEN["tune10"] = ("Thida", "Khin", "Nandar", "Zarghuna", "Malalai", "Mirwais", "Senait", "Tsega", "Yohannes",
                   "Siobhán", "Ciarán", "Mairéad", "Xosé", "Brais", "Antía", "Parvina", "Mahmadali", "Shahlo")
SURNAMES["tune10"] = ("Hlaing", "Myint", "Thant", "Waziri", "Durrani", "Popalzai", "Tsehaye", "Weldemariam",
                      "Habtemariam", "Ó Dálaigh", "Mac Cárthaigh", "Ní Bhriain", "Castiñeiras", "Vilariño", "Outeiriño",
                      "Rustamov", "Nazarova", "Sharipov")
MAIL_DOMAINS["tune10"] = ("kalvora.dev", "pkgs10.example.org", "crew10.example.net")
PERSON_TEMPLATES["tune10"] = (
    ("cabal-t10", "cabal-version: 3.0\nname:          tide-parse\nversion:       0.3.1.0\nlicense:       BSD-3-Clause\nauthor:        {name}\nmaintainer:    {email}\nbuild-type:    Simple\n"),
    ("opam-t10", "opam-version: \"2.0\"\nversion: \"1.2.0\"\nmaintainer: \"{email}\"\nauthors: [\"{name} <{email}>\"]\nhomepage: \"https://github.com/kalvora/ocaml-tides\"\n"),
    ("julia-project-t10", "name = \"TideTables\"\nuuid = \"3f1c2d8e-9a7b-4c61-8f0e-2b5d7a9c1e44\"\nauthors = [\"{name} <{email}>\"]\nversion = \"0.4.2\"\n"),
    ("mix-exs-t10", "  defp package do\n    [\n      maintainers: [\"{name}\"],\n      licenses: [\"Apache-2.0\"],\n      links: %{{\"GitHub\" => \"https://github.com/kalvora/tide\"}}\n    ]\n  end\n"),
    ("debian-copyright-t10", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: tidewatch\nUpstream-Contact: {name} <{email}>\nSource: https://example.org/tidewatch\n"),
    ("rpm-spec-t10", "Name:           tidewatch\nVersion:        1.4.2\nRelease:        1%{{?dist}}\nPackager:       {name} <{email}>\nLicense:        MIT\n"),
    ("elisp-t10", ";;; tide-mode.el --- Major mode for tide tables  -*- lexical-binding: t; -*-\n\n;; Author: {name}\n;; Version: 0.7\n;; Package-Requires: ((emacs \"27.1\"))\n"),
    ("vim-t10", "\" Vim syntax file\n\" Language:    Tidefile\n\" Maintainer:  {name}\n\" Last Change: 2025 Mar 02\n\nif exists(\"b:current_syntax\")\n  finish\nendif\n"),
    ("tex-t10", "\\documentclass{{article}}\n\\title{{Tidal Harmonics in Practice}}\n\\author{{{name}}}\n\\date{{\\today}}\n\\begin{{document}}\n\\maketitle\n"),
    ("spdx-t10", "SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\nDocumentName: tidewatch-1.4.2\nCreator: Person: {name}\nCreator: Tool: syft-0.98.0\nCreated: 2025-03-02T10:00:00Z\n"),
    ("ipynb-metadata-t10", "{{\n \"metadata\": {{\n  \"authors\": [\n   {{\n    \"name\": \"{name}\"\n   }}\n  ],\n  \"kernelspec\": {{\n   \"display_name\": \"Python 3\",\n   \"name\": \"python3\"\n  }}\n }},\n \"nbformat\": 4\n}}\n"),
    ("terraform-tags-t10", "resource \"aws_s3_bucket\" \"tides\" {{\n  bucket = \"kalvora-tides\"\n  tags = {{\n    Owner       = \"{name}\"\n    Environment = \"staging\"\n  }}\n}}\n"),
    ("fortran-t10", "! tides.f90 -- harmonic analysis of tide gauge series\n! Programmer: {name}\n! Revised: 2024-11-03\nprogram tides\n  implicit none\n"),
    ("matlab-t10", "function h = tide_height(t)\n% TIDE_HEIGHT  Predicted height at time t.\n%   Developer: {name}\n%   Revised 2024-11-03\nh = sum(amp .* cos(omega * t + phase));\n"),
    ("powershell-t10", "<#PSScriptInfo\n.VERSION 1.0.2\n.GUID 7e1f3c2a-5b9d-4e8f-a1c6-0d2b4f6e8a9c\n.AUTHOR {name}\n.COMPANYNAME Brackwater\n#>\n"),
    ("xcode-header-t10", "//\n//  TideView.swift\n//  TideWatch\n//\n//  Created by {name} on 02/03/2025.\n//\n\nimport SwiftUI\n"),
    ("podspec-t10", "Pod::Spec.new do |s|\n  s.name    = 'TideKit'\n  s.version = '0.9.0'\n  s.author  = {{ '{name}' => '{email}' }}\n  s.license = {{ :type => 'MIT' }}\nend\n"),
    ("asdf-t10", "(defsystem \"tide-tables\"\n  :description \"Tide predictions.\"\n  :author \"{name}\"\n  :license \"MIT\"\n  :version \"0.3.0\"\n  :components ((:file \"tides\")))\n"),
    ("appstream-t10", "<component type=\"desktop-application\">\n  <id>org.kalvora.TideWatch</id>\n  <developer_name>{name}</developer_name>\n  <project_license>GPL-3.0+</project_license>\n</component>\n"),
    ("chef-metadata-t10", "name              'tidewatch'\nmaintainer       '{name}'\nmaintainer_email '{email}'\nlicense          'Apache-2.0'\nversion          '2.3.1'\n"),
)
CLEAN_TEMPLATES["tune10"] = (
    ("cabal-t10", "cabal-version: 3.0\nname:          {tool_module}-core\nversion:       0.3.1.0\nauthor:        The {tool} Developers\nmaintainer:    {tool_module}-devel@lists.kalvora.example\ncategory:      Data\n"),
    ("opam-t10", "opam-version: \"2.0\"\nmaintainer: \"{tool} Maintainers <{tool_module}@lists.kalvora.example>\"\nauthors: [\"Brackwater Labs\" \"{tool} Core Team\"]\nbug-reports: \"https://github.com/kalvora/{tool_module}/issues\"\n"),
    ("julia-project-t10", "name = \"{tool}\"\nuuid = \"8a41c3f2-1d6e-4b7a-9c03-5e2f7b8d9a10\"\nauthors = [\"{tool} Contributors\", \"JuliaRegistrator <ci@kalvora.example>\"]\nversion = \"1.1.0\"\n"),
    ("debian-copyright-t10", "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: {tool}\nUpstream-Contact: {tool} Security Team <security@{tool_module}.example>\nSource: https://{tool_module}.example/releases\n"),
    ("rpm-spec-t10", "Name:           {tool_module}\nVersion:        2.0.4\nRelease:        1%{{?dist}}\nSummary:        {tool} command-line client\nPackager:       Brackwater Build System <buildsys@kalvora.example>\nVendor:         Brackwater Labs\n"),
    ("elisp-t10", ";;; {tool_module}-mode.el --- Major mode for {tool} files  -*- lexical-binding: t; -*-\n\n;; Author: {tool} Mode Maintainers <{tool_module}-mode@lists.kalvora.example>\n;; Keywords: languages, {tool_module}\n"),
    ("spdx-t10", "SPDXVersion: SPDX-2.3\nDocumentName: {tool_module}-2.0.4\nCreator: Organization: Brackwater Labs\nCreator: Tool: {tool}-sbom-0.4\nCreated: 2025-03-02T10:00:00Z\n"),
    ("terraform-tags-t10", "resource \"aws_s3_bucket\" \"{tool_module}\" {{\n  bucket = \"kalvora-{tool_module}\"\n  tags = {{\n    Owner   = \"platform-team\"\n    Service = \"{tool}\"\n  }}\n}}\n"),
    ("powershell-t10", "<#PSScriptInfo\n.VERSION 2.0.4\n.AUTHOR {tool} Automation Team\n.COMPANYNAME Brackwater Labs\n.TAGS {tool}\n#>\n"),
    ("xcode-header-t10", "//\n//  {tool}View.swift\n//  {tool}\n//\n//  Created by {tool} Codegen on 02/03/2025.\n//\n\nimport SwiftUI\n"),
)
TOOLS["tune10"] = ("Wilbur", "Montgomery", "Theodora", "Cassius", "Gwendolyn", "Lysander", "Octavia", "Marigold",
                   "Rowena", "Florian")
SEEDS["tune10"] = 10937

# --- holdout11: the eleventh held-out run (issue #29), a block of its own, written before any score on it ---------
# A seed, name pools, mail domains, templates and tools of its own. Two given names and two surnames for each of
# these cultures, which no other split draws on: Faroese, Sorbian, Romansh, Kashubian, Sámi, Sakha, Buryat, Kalmyk,
# Adyghe, Ossetian, Chamorro, Fijian, Malagasy, Tigrinya, Oromo, Shona, Aymara and Greenlandic names (written by
# hand, invented pairings). Its person templates are 20 kinds no other split has: an NSIS `PRODUCT_PUBLISHER`
# define, a WiX `Manufacturer`, a Windows .rc VERSIONINFO `CompanyName`, a Homebrew formula's maintainer comment, a
# CPack `CPACK_PACKAGE_CONTACT`, an Octave package DESCRIPTION, a bower.json `authors`, a pyproject.toml
# `[project] authors`, a .csproj `<Authors>`, an OSGi `Bundle-Vendor`, an Xcode project.pbxproj `ORGANIZATIONNAME`,
# an Erlang .app.src `maintainers`, an Alpine APKBUILD `# Maintainer:`, a Void Linux template `maintainer`, a
# SlackBuild .info `MAINTAINER`, an OpenWrt `PKG_MAINTAINER`, a BitBake recipe `AUTHOR`, a Forge mods.toml
# `authors`, a userscript `@author` and a PEAR package.xml `<lead>`. Its clean documents are ten of the same kinds
# naming a team, a list address, a bot or an organisation where a person would stand; its tools are also given names
# or surnames (Jedidiah, Ozias, Philemon, Thomasina, Hezekiah, Zachary, Wystan, Osbert, Tancred, Drusilla).
# Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout11 --out bench/corpora/code-persons-holdout-11.jsonl`.
GIVEN["holdout11"] = (
    "Rógvi", "Sunnvá", "Bjarnat", "Wórša", "Gion", "Mengia", "Józwa", "Trudka", "Ovllá", "Máhtte", "Erchim", "Kyunney",
    "Bair", "Seseg", "Kermen", "Bairta", "Aslanbech", "Guashe", "Taimuraz", "Agunda", "Hurao", "Hagu", "Savenaca",
    "Sereima", "Tojo", "Mialy", "Tesfalem", "Hiwet", "Dirribi", "Obse", "Tatenda", "Rutendo", "Mallku", "Phaxsi",
    "Ivalu", "Arnaq")
SURNAMES["holdout11"] = (
    "Háberg", "Zachariasen", "Wjelan", "Rychtaŕ", "Derungs", "Cathomen", "Labùda", "Kòrtus", "Utsi", "Mienna",
    "Okoneshnikov", "Kolodeznikov", "Dashibalov", "Tsydenzhapov", "Ochirov", "Mandzhiev", "Khuako", "Tkhagapsoev",
    "Tskhovrebov", "Tuaev", "Taimanglo", "Quichocho", "Naivalurua", "Tuimavana", "Rakotoarisoa", "Andrianjafy",
    "Gebremariam", "Habtemichael", "Fayisa", "Dhugasa", "Chikwanha", "Mutasa", "Apaza", "Ticona", "Petrussen",
    "Tobiassen")
MAIL_DOMAINS["holdout11"] = ("driftglass.dev", "maintainers11.example.net", "packagers11.example.org")
PERSON_TEMPLATES["holdout11"] = (
    ("nsis-installer-defines", "; Skerrylight NSIS script\n!define PRODUCT_NAME \"Skerrylight\"\n!define PRODUCT_PUBLISHER \"{name}\"\n"),
    ("wix-manufacturer", "<Wix xmlns=\"http://wixtoolset.org/schemas/v4/wxs\">\n  <Package Name=\"Skerrylight\" Manufacturer=\"{name}\" Version=\"3.1.0.0\">\n  </Package>\n</Wix>\n"),
    ("rc-versioninfo", "BLOCK \"StringFileInfo\"\nBEGIN\n    BLOCK \"040904b0\"\n    BEGIN\n        VALUE \"CompanyName\", \"{name}\"\n        VALUE \"FileDescription\", \"Skerrylight tray helper\"\n    END\nEND\n"),
    ("homebrew-formula-comment", "# Formula maintained by {name} <{email}>\nclass Skerrylight < Formula\n  desc \"Harbour light schedule tool\"\n  license \"MIT\"\n"),
    ("cpack-contact", "set(CPACK_PACKAGE_VENDOR \"Skerrylight\")\nset(CPACK_PACKAGE_CONTACT \"{name} <{email}>\")\ninclude(CPack)\n"),
    ("octave-description", "Name: skerrylight\nVersion: 3.1.0\nAuthor: {name}\nMaintainer: {name} <{email}>\n"),
    ("bower-authors", "{{\n  \"name\": \"skerrylight\",\n  \"version\": \"3.1.0\",\n  \"authors\": [\n    \"{name}\"\n  ]\n}}\n"),
    ("pyproject-authors", "[project]\nname = \"skerrylight\"\nversion = \"3.1.0\"\nauthors = [\n  {{ name = \"{name}\", email = \"{email}\" }},\n]\n"),
    ("csproj-authors", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <PackageId>Skerrylight.Core</PackageId>\n    <Authors>{name}</Authors>\n  </PropertyGroup>\n</Project>\n"),
    ("osgi-bundle-vendor", "Bundle-ManifestVersion: 2\nBundle-SymbolicName: org.example.skerrylight\nBundle-Version: 3.1.0\nBundle-Vendor: {name}\n"),
    ("pbxproj-organization", "\t\t\tattributes = {{\n\t\t\t\tLastUpgradeCheck = 1520;\n\t\t\t\tORGANIZATIONNAME = \"{name}\";\n\t\t\t}};\n"),
    ("erlang-app-src", "{{application, skerrylight,\n [{{vsn, \"3.1.0\"}},\n  {{maintainers, [\"{name}\"]}}\n ]}}.\n"),
    ("apkbuild-maintainer", "# Contributor: {name} <{email}>\n# Maintainer: {name} <{email}>\npkgname=skerrylight\npkgver=3.1.0\n"),
    ("void-template", "# Template file for 'skerrylight'\npkgname=skerrylight\nversion=3.1.0\nmaintainer=\"{name} <{email}>\"\nlicense=\"MIT\"\n"),
    ("slackbuild-info", "PRGNAM=\"skerrylight\"\nVERSION=\"3.1.0\"\nMAINTAINER=\"{name}\"\nEMAIL=\"{email}\"\n"),
    ("openwrt-pkg-maintainer", "PKG_NAME:=skerrylight\nPKG_VERSION:=3.1.0\nPKG_MAINTAINER:={name} <{email}>\nPKG_LICENSE:=GPL-2.0-only\n"),
    ("bitbake-author", "AUTHOR = \"{name}\"\nLICENSE = \"MIT\"\nSRC_URI = \"git://git.example.org/skerrylight.git\"\n"),
    ("forge-mods-toml", "modLoader=\"javafml\"\n[[mods]]\nmodId=\"skerrylight\"\nversion=\"3.1.0\"\ndisplayName=\"Skerrylight\"\nauthors=\"{name}\"\n"),
    ("userscript-author", "// ==UserScript==\n// @name         Skerrylight timetable helper\n// @author       {name}\n// ==/UserScript==\n"),
    ("pear-package-lead", "<package version=\"2.0\">\n <name>Skerrylight</name>\n <lead>\n  <name>{name}</name>\n  <user>{handle}</user>\n  <active>yes</active>\n </lead>\n</package>\n"),
)
CLEAN_TEMPLATES["holdout11"] = (
    ("nsis-installer-defines", "; {tool} installer\n!define PRODUCT_NAME \"{tool}\"\n!define PRODUCT_PUBLISHER \"Skerrylight Packaging Team\"\n!define PRODUCT_WEB_SITE \"https://{tool_module}.example.org\"\n"),
    ("wix-manufacturer", "<Package Name=\"{tool} Desktop\" Manufacturer=\"Skerrylight Foundation\" Version=\"1.2.0.0\"\n         UpgradeCode=\"0d8e4a7b-3c21-4b9f-a6e2-19f4c7d05b83\">\n</Package>\n"),
    ("rc-versioninfo", "VALUE \"CompanyName\", \"Skerrylight Foundation\"\nVALUE \"ProductName\", \"{tool}\"\nVALUE \"OriginalFilename\", \"{tool_module}.exe\"\n"),
    ("homebrew-formula-comment", "# Maintained by the tap bot <tap-bot@lists.example.org>\nclass {tool} < Formula\n  desc \"{tool} command-line client\"\n  url \"https://{tool_module}.example.org/{tool_module}-1.2.0.tar.gz\"\n"),
    ("pyproject-authors", "[project]\nname = \"{tool_module}\"\nauthors = [\n  {{ name = \"{tool} Maintainers\", email = \"{tool_module}-dev@lists.example.org\" }},\n]\n"),
    ("csproj-authors", "<PropertyGroup>\n  <PackageId>{tool}.Client</PackageId>\n  <Authors>Skerrylight Contributors</Authors>\n  <Company>Skerrylight Foundation</Company>\n</PropertyGroup>\n"),
    ("apkbuild-maintainer", "# Maintainer: Skerrylight Packaging Team <packaging@lists.example.org>\npkgname={tool_module}\npkgver=1.2.0\npkgdesc=\"{tool} command-line client\"\n"),
    ("openwrt-pkg-maintainer", "PKG_NAME:={tool_module}\nPKG_VERSION:=1.2.0\nPKG_MAINTAINER:=Packages Bot <packages-bot@lists.example.org>\nPKG_LICENSE:=MIT\n"),
    ("forge-mods-toml", "[[mods]]\nmodId=\"{tool_module}\"\ndisplayName=\"{tool}\"\nauthors=\"Skerrylight Modding Collective\"\n"),
    ("userscript-author", "// ==UserScript==\n// @name         {tool} for timetables\n// @author       Skerrylight Userscripts Group\n// @namespace    https://{tool_module}.example.org\n// ==/UserScript==\n"),
)
TOOLS["holdout11"] = ("Jedidiah", "Ozias", "Philemon", "Thomasina", "Hezekiah", "Zachary", "Wystan", "Osbert",
                      "Tancred", "Drusilla")
SEEDS["holdout11"] = 11011


# --- tune11: an eleventh tuning split (issue #29, eleventh round, ADR 0038), a block of its own -------------------
# The classes the tenth held-out split's misses named (described, values unseen): a product's or a package's own
# `name` in a manifest of a kind no rule knew (to be known by its shape: a name beside a version and an id, a
# description or a licence key in the same object or section, in any syntax), and a person in a publisher-like or a
# program-header slot (an installer's publisher, a vendor, a provider, a company field, a "Programmer:" or "Written
# by" header line, a version line ending with a person). Twenty file kinds no split had, one template each: a Godot
# plugin.cfg, a Kodi add-on XML, a Unity package.json, a Blender bl_info, a WordPress plugin header, a NuGet
# nuspec, NSIS defines, a WiX package, an .rc VERSIONINFO, a JAR manifest, an OSGi bundle manifest, an MSIX
# manifest, a VSIX manifest, an Info.plist copyright, an IDL header, a SAS header, SPSS, Fortran 77 and shell
# version lines, a PKGBUILD contributor; clean documents of ten kinds where a company publishes and the product's
# name is a given name or a surname. Its own seed, name pools (Basque, Kazakh, Sinhala, Khmer, Somali),
# tools and domains. Tuned on, never reported as held-out:
# `python -m ztgate_bench.code_persons write --split tune11 --out bench/corpora/code-persons-tune-11.jsonl`.
GIVEN["tune11"] = ("Itziar", "Aitor", "Garazi", "Oihana", "Ekaitz", "Zhanar", "Nimal", "Chamari", "Sanduni", "Sokha",
                   "Vannak", "Chanthou", "Kosala", "Ilhaan", "Faadumo", "Moldir", "Bauyrzhan", "Tharindu")
SURNAMES["tune11"] = ("Goikoetxea", "Agirre", "Urrutia", "Nurpeisov", "Abenova", "Dzhaksybekov", "Senanayake",
                      "Jayasuriya", "Gunawardena", "Chhim", "Sovann", "Sorn", "Hirsi", "Egal", "Dualeh", "Zubizarreta",
                      "Baimukhamedov", "Ratnayake")
MAIL_DOMAINS["tune11"] = ("saltfen.dev", "pkgs11.example.org", "vendors11.example.net")
PERSON_TEMPLATES["tune11"] = (
    ("godot-plugin-t11", "[plugin]\n\nname=\"Shoreline Brush\"\ndescription=\"Terrain brushes for the editor.\"\nauthor=\"{name}\"\nversion=\"1.3.0\"\nscript=\"plugin.gd\"\n"),
    ("kodi-addon-t11", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<addon id=\"plugin.video.tidecam\" name=\"Tide Cam\" version=\"2.1.0\" provider-name=\"{name}\">\n  <requires>\n    <import addon=\"xbmc.python\" version=\"3.0.0\"/>\n  </requires>\n</addon>\n"),
    ("unity-package-t11", "{{\n  \"name\": \"com.saltfen.shoreline\",\n  \"displayName\": \"Shoreline\",\n  \"version\": \"1.0.0\",\n  \"unity\": \"2022.3\",\n  \"author\": {{\n    \"name\": \"{name}\",\n    \"email\": \"{email}\"\n  }}\n}}\n"),
    ("blender-bl-info-t11", "bl_info = {{\n    \"name\": \"Shoreline Mesh\",\n    \"author\": \"{name}\",\n    \"version\": (1, 2, 0),\n    \"blender\": (3, 6, 0),\n    \"category\": \"Mesh\",\n}}\n"),
    ("wordpress-plugin-t11", "<?php\n/**\n * Plugin Name: Tide Widget\n * Description: Shows the next high tide.\n * Version:     1.2.0\n * Author:      {name}\n * License:     GPL-2.0-or-later\n */\n"),
    ("nuspec-t11", "<package>\n  <metadata>\n    <id>tidewatch</id>\n    <version>1.4.2</version>\n    <title>Tide Watch</title>\n    <owners>{name}</owners>\n    <description>Tide tables on the desktop.</description>\n  </metadata>\n</package>\n"),
    ("nsis-t11", "!define PRODUCT_NAME \"Tide Watch\"\n!define PRODUCT_VERSION \"1.4.2\"\n!define PRODUCT_PUBLISHER \"{name}\"\n!define PRODUCT_WEB_SITE \"https://saltfen.example/tidewatch\"\n"),
    ("wix-t11", "<Wix xmlns=\"http://wixtoolset.org/schemas/v4/wxs\">\n  <Package Name=\"Tide Watch\" Manufacturer=\"{name}\" Version=\"1.4.2.0\" UpgradeCode=\"5c1e2f3a-7b8d-4e9f-a0b1-c2d3e4f5a6b7\">\n    <MajorUpgrade DowngradeErrorMessage=\"A newer version is installed.\" />\n  </Package>\n</Wix>\n"),
    ("rc-versioninfo-t11", "BLOCK \"StringFileInfo\"\nBEGIN\n    BLOCK \"040904b0\"\n    BEGIN\n        VALUE \"CompanyName\", \"{name}\"\n        VALUE \"FileDescription\", \"Tide Watch\"\n        VALUE \"FileVersion\", \"1.4.2.0\"\n    END\nEND\n"),
    ("jar-manifest-t11", "Manifest-Version: 1.0\nImplementation-Title: tidewatch\nImplementation-Version: 1.4.2\nImplementation-Vendor: {name}\nMain-Class: org.saltfen.tides.Main\n"),
    ("osgi-manifest-t11", "Bundle-ManifestVersion: 2\nBundle-SymbolicName: org.saltfen.tides\nBundle-Version: 1.4.2\nBundle-Vendor: {name}\nExport-Package: org.saltfen.tides.api\n"),
    ("msix-manifest-t11", "<Properties>\n  <DisplayName>Tide Watch</DisplayName>\n  <PublisherDisplayName>{name}</PublisherDisplayName>\n  <Logo>Assets\\StoreLogo.png</Logo>\n</Properties>\n"),
    ("vsix-manifest-t11", "<Metadata>\n  <Identity Id=\"TideWatch.8f21\" Version=\"1.4\" Language=\"en-US\" Publisher=\"{name}\" />\n  <DisplayName>Tide Watch</DisplayName>\n  <Description>Tide tables in the editor.</Description>\n</Metadata>\n"),
    ("info-plist-t11", "<key>CFBundleName</key>\n<string>TideWatch</string>\n<key>CFBundleShortVersionString</key>\n<string>1.4.2</string>\n<key>NSHumanReadableCopyright</key>\n<string>Copyright © 2025 {name}. All rights reserved.</string>\n"),
    ("idl-header-t11", ";+\n; NAME:\n;   TIDE_FIT\n; PURPOSE:\n;   Fits tidal constituents to a gauge series.\n; MODIFICATION HISTORY:\n;   Written by: {name}, March 2024.\n;-\n"),
    ("sas-header-t11", "/*********************************************************\n* Program:     tides_summary.sas\n* Programmer:  {name}\n* Purpose:     Monthly tide summary tables\n*********************************************************/\nproc means data=tides.gauge;\n"),
    ("spss-version-t11", "* Encoding: UTF-8.\n* tide_recode.sps  v1.3  14-03-2024  {name}.\nRECODE height (LO THRU 0=1) (ELSE=2) INTO band.\nEXECUTE.\n"),
    ("fortran77-version-t11", "C     TIDEPR -- TIDE PREDICTION FROM HARMONIC CONSTANTS\nC     VERSION 2.3   11-MAR-1994   {name}\n      PROGRAM TIDEPR\n      IMPLICIT NONE\n"),
    ("shell-version-t11", "#!/bin/sh\n# sync-gauges.sh  0.4.1  2025-01-09  {name} <{email}>\n# Copies the gauge exports to the archive host.\nset -eu\n"),
    ("pkgbuild-t11", "# Contributor: {name} <{email}>\npkgname=tidewatch\npkgver=1.4.2\npkgrel=1\npkgdesc=\"Tide tables on the desktop\"\narch=('x86_64')\n"),
)
CLEAN_TEMPLATES["tune11"] = (
    ("godot-plugin-t11", "[plugin]\n\nname=\"{tool}\"\ndescription=\"{tool} terrain brushes for the editor.\"\nauthor=\"Saltfen Studio\"\nversion=\"2.0.1\"\nscript=\"{tool_module}.gd\"\n"),
    ("kodi-addon-t11", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<addon id=\"script.{tool_module}\" name=\"{tool}\" version=\"3.0.2\" provider-name=\"Saltfen Media\">\n  <extension point=\"xbmc.python.script\" library=\"default.py\"/>\n</addon>\n"),
    ("unity-package-t11", "{{\n  \"name\": \"com.saltfen.{tool_module}\",\n  \"displayName\": \"{tool}\",\n  \"version\": \"2.2.0\",\n  \"unity\": \"2022.3\",\n  \"description\": \"{tool} water shaders.\",\n  \"author\": {{\n    \"name\": \"Saltfen Games\"\n  }}\n}}\n"),
    ("blender-bl-info-t11", "bl_info = {{\n    \"name\": \"{tool}\",\n    \"author\": \"Saltfen Studio\",\n    \"version\": (2, 0, 0),\n    \"blender\": (4, 1, 0),\n    \"description\": \"{tool} retopology tools\",\n}}\n"),
    ("wordpress-plugin-t11", "<?php\n/**\n * Plugin Name: {tool}\n * Description: {tool} adds tide charts to posts.\n * Version:     3.1.0\n * Author:      Saltfen Web\n * License:     GPL-2.0-or-later\n */\n"),
    ("nuspec-t11", "<package>\n  <metadata>\n    <id>{tool}</id>\n    <version>3.0.0</version>\n    <title>{tool}</title>\n    <authors>Saltfen Labs</authors>\n    <license type=\"expression\">MIT</license>\n  </metadata>\n</package>\n"),
    ("nsis-t11", "!define PRODUCT_NAME \"{tool}\"\n!define PRODUCT_VERSION \"3.0.0\"\n!define PRODUCT_PUBLISHER \"Saltfen Software Ltd\"\n!define PRODUCT_WEB_SITE \"https://saltfen.example/{tool_module}\"\n"),
    ("wix-t11", "<Wix xmlns=\"http://wixtoolset.org/schemas/v4/wxs\">\n  <Package Name=\"{tool}\" Manufacturer=\"Saltfen Software\" Version=\"3.0.0.0\" UpgradeCode=\"0d9c8b7a-6f5e-4d3c-b2a1-098f7e6d5c4b\">\n    <MediaTemplate EmbedCab=\"yes\" />\n  </Package>\n</Wix>\n"),
    ("rc-versioninfo-t11", "BLOCK \"StringFileInfo\"\nBEGIN\n    BLOCK \"040904b0\"\n    BEGIN\n        VALUE \"CompanyName\", \"Saltfen Software\"\n        VALUE \"ProductName\", \"{tool}\"\n        VALUE \"FileVersion\", \"3.0.0.0\"\n    END\nEND\n"),
    ("jar-manifest-t11", "Manifest-Version: 1.0\nImplementation-Title: {tool}\nImplementation-Version: 3.0.0\nImplementation-Vendor: Saltfen Labs\nMain-Class: org.saltfen.{tool_module}.Main\n"),
)
TOOLS["tune11"] = ("Perpetua", "Leopold", "Ottoline", "Bartholomew", "Clementine", "Thackeray", "Pemberton", "Whitlock",
                   "Ashcroft", "Horatio")
SEEDS["tune11"] = 11939

# --- holdout12: the twelfth held-out run (issue #29), a block of its own, written before any score on it ---------
# A seed, name pools, mail domains, templates and tools of its own. Given names and surnames from cultures and
# spellings no other split draws on (written by hand, invented pairings; no real person's data). Its person
# templates are 20 kinds no other split has, each putting the person where real files of that kind do: version
# control configs and outputs, a CI console and CI variables, a deployment template's tags, documentation sources,
# a source header's tag, package manifests, an installer manifest, genealogy and reference data files, and media
# and office metadata. Its clean documents are ten of the same kinds naming a team, a bot, a list address or an
# organisation where a person would stand; its tools are also given names or surnames.
# Only reported on:
# `python -m ztgate_bench.code_persons write --split holdout12 --out bench/corpora/code-persons-holdout-12.jsonl`.
GIVEN["holdout12"] = (
    "Mett", "Jhemp", "Voirrey", "Ċettina", "Ninu", "Mariute", "Tunin", "Vigjut", "Aldyn-ool", "Chechek", "Aidysmaa",
    "Leināla", "Tēvita", "Lusiana", "Lalremruata", "Zothanpuii", "Vanlalruata", "Lalnunmawii", "Phrangki",
    "Wanlambok", "Dasakhiat", "Ibashisha", "Nirosha", "Thilina", "Dilrukshi", "Apti", "Bislan", "Ndèye", "Onalenna",
    "Tshiamo", "Millaray", "Lemunao", "Yaotl", "Beñat")
SURNAMES["holdout12"] = (
    "Olabarrieta", "Feltgen", "Nilles", "Hoscheid", "Weydert", "Quilliam", "Crellin", "Kneen", "Bugeja", "Londero",
    "Cescutti", "Pittino", "Mongush", "Ondar", "Kealamakia", "Kanahele", "Chhorn", "Chhakchhuak", "Khiangte", "Sailo",
    "Syiemlieh", "Nongrum", "Kumarasiri", "Ekanayake", "Weerasooriya", "Tsakaev", "Dudurkaev", "Khadzhiev",
    "Mbengue", "Sène", "Molefhe", "Kgosietsile", "Motsumi", "Llancaqueo", "Catrileo", "Cuatecontzi")
MAIL_DOMAINS["holdout12"] = ("fernhollow.dev", "maintainers12.example.org", "tidewicket12.example.net")
PERSON_TEMPLATES["holdout12"] = (
    ("gitconfig-user", "[user]\n\tname = {name}\n\temail = {email}\n[pull]\n\trebase = true\n"),
    ("hgrc-username", "[ui]\nusername = {name} <{email}>\n[extensions]\nrebase =\n"),
    ("git-blame-porcelain", "4f2c9e1b7a0d3c58e6f1a2b9c4d7e0f3a5b8c1d2 118 118 1\nauthor {name}\nauthor-mail <{email}>\nauthor-time 1733412210\nsummary Clamp tide offsets\n"),
    ("jenkins-console-started-by", "Started by user {name}\nRunning as SYSTEM\n[Pipeline] Start of Pipeline\n"),
    ("gitlab-ci-git-author", "release:\n  stage: deploy\n  variables:\n    GIT_AUTHOR_NAME: \"{name}\"\n    GIT_AUTHOR_EMAIL: \"{email}\"\n  script:\n    - make tag-release\n"),
    ("cloudformation-owner-tag", "  TideBucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      Tags:\n        - Key: Owner\n          Value: {name}\n"),
    ("texinfo-titlepage", "@titlepage\n@title Tidewicket Reference Manual\n@subtitle for version 2.4\n@author {name}\n@end titlepage\n"),
    ("pandoc-title-block", "% Tidewicket: offsets and datums\n% {name}\n% March 2025\n\n# Overview\n"),
    ("org-mode-header", "#+TITLE: Tidewicket field notes\n#+AUTHOR: {name}\n#+EMAIL: {email}\n#+OPTIONS: toc:2\n"),
    ("docbook-personname", "<info>\n  <title>Tidewicket Administration Guide</title>\n  <author>\n    <personname><firstname>{first}</firstname><surname>{last}</surname></personname>\n  </author>\n</info>\n"),
    ("solidity-natspec-author", "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\n/// @title Tidewicket tide oracle\n/// @author {name}\ncontract TideOracle {{\n}}\n"),
    ("haddock-module-header", "{{- |\nModule      : Tidewicket.Offsets\nMaintainer  : {email}\nCopyright   : (c) 2025 {name}\n-}}\nmodule Tidewicket.Offsets where\n"),
    ("platformio-library-json", "{{\n  \"name\": \"Tidewicket\",\n  \"version\": \"2.4.0\",\n  \"authors\": [\n    {{ \"name\": \"{name}\", \"email\": \"{email}\" }}\n  ],\n  \"frameworks\": \"arduino\"\n}}\n"),
    ("ros-package-xml", "<package format=\"3\">\n  <name>tidewicket_driver</name>\n  <version>2.4.0</version>\n  <maintainer email=\"{email}\">{name}</maintainer>\n  <license>BSD-3-Clause</license>\n</package>\n"),
    ("freebsd-port-created-by", "# Created by: {name}\n\nPORTNAME=\ttidewicket\nDISTVERSION=\t2.4.0\nCATEGORIES=\tscience\n\nMAINTAINER=\t{email}\n"),
    ("winget-manifest-author", "PackageIdentifier: Tidewicket.Tidewicket\nPackageVersion: 2.4.0\nPublisher: Tidewicket\nAuthor: {name}\nShortDescription: Harbour tide offset calculator\n"),
    ("gedcom-indi", "0 @I14@ INDI\n1 NAME {first} /{last}/\n2 GIVN {first}\n2 SURN {last}\n1 SEX U\n1 FAMC @F3@\n"),
    ("ris-record", "TY  - JOUR\nAU  - {last}, {first}\nTI  - Residual tide offsets at small harbours\nPY  - 2024\nER  - \n"),
    ("exiftool-artist", "File Name                       : harbour_0412.jpg\nArtist                          : {name}\nCopyright                       : {name}\n"),
    ("docx-core-props", "<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\">\n  <dc:title>Tide survey 2025</dc:title>\n  <dc:creator>{name}</dc:creator>\n  <cp:lastModifiedBy>{name}</cp:lastModifiedBy>\n</cp:coreProperties>\n"),
)
CLEAN_TEMPLATES["holdout12"] = (
    ("gitconfig-user", "[user]\n\tname = {tool} Release Bot\n\temail = {tool_module}-bot@lists.example.org\n[commit]\n\tgpgsign = true\n"),
    ("jenkins-console-started-by", "Started by upstream project \"{tool_module}-build\" build number 412\n[Pipeline] stage ({tool} tests)\n"),
    ("cloudformation-owner-tag", "      Tags:\n        - Key: Owner\n          Value: {tool} Platform Team\n        - Key: Service\n          Value: {tool_module}\n"),
    ("texinfo-titlepage", "@titlepage\n@title {tool} User Manual\n@author The {tool} Developers\n@end titlepage\n"),
    ("org-mode-header", "#+TITLE: {tool} release checklist\n#+AUTHOR: {tool} documentation group\n#+EMAIL: {tool_module}-docs@lists.example.org\n"),
    ("solidity-natspec-author", "/// @title {tool} escrow\n/// @author {tool} Labs\n/// @dev Audited with Slither and Echidna\ncontract {tool}Escrow {{\n}}\n"),
    ("platformio-library-json", "{{\n  \"name\": \"{tool}\",\n  \"authors\": [{{ \"name\": \"{tool} Contributors\", \"url\": \"https://{tool_module}.example.org\" }}],\n  \"platforms\": [\"espressif32\", \"atmelavr\"]\n}}\n"),
    ("ros-package-xml", "<package format=\"3\">\n  <name>{tool_module}_bringup</name>\n  <maintainer email=\"{tool_module}-maintainers@lists.example.org\">{tool} Maintainers</maintainer>\n</package>\n"),
    ("winget-manifest-author", "PackageIdentifier: {tool}.{tool}\nPublisher: {tool} Foundation\nAuthor: {tool} Foundation\nMoniker: {tool_module}\n"),
    ("docx-core-props", "<cp:coreProperties>\n  <dc:title>{tool} quarterly report</dc:title>\n  <dc:creator>{tool} Export Service</dc:creator>\n  <cp:lastModifiedBy>Microsoft Office User</cp:lastModifiedBy>\n</cp:coreProperties>\n"),
)
TOOLS["holdout12"] = ("Ebenezer", "Mehitabel", "Radegund", "Eadgyth", "Godwin", "Eadric", "Barzillai", "Ichabod",
                      "Drogo", "Baldric")
SEEDS["holdout12"] = 12121


# --- tune12: a twelfth tuning split (issue #29, twelfth round, ADR 0048), a block of its own ----------------------
# The classes named after the eleventh held-out split (described, values unseen): persons in a LIST under a slot
# word (an array of strings, a tuple, a table, a sequence, across lines; the person the rules missed is a later
# item, so these templates name two persons, {name2} first), and a person in an ORGANISATION slot (an Xcode
# ORGANIZATIONNAME, a Qt organisation name, a certificate's organizationName, a Maven <organization>, a copyright
# holder, a licensor, a Delphi CompanyName). Twenty-two file kinds no split had, one template each; clean documents
# of twelve of those kinds where the list holds a team, a project or a bot and the organisation slot a company, a
# foundation or a project (its name a tool spelt like a given name, alone or with a legal form or a trade).
# Its own seed, name pools (Shona, Sindhi, Turkmen, Meitei, Tuvan, Manx, Cornish, Sardinian, Tsonga, Venda,
# Zulu, Quechua, Aymara names, written by hand, invented pairings), tools and domains. Tuned on, never reported as
# held-out: `python -m ztgate_bench.code_persons write --split tune12 --out bench/corpora/code-persons-tune-12.jsonl`.
GIVEN["tune12"] = ("Rudo", "Marvi", "Ogulgerek", "Saparmyrat", "Ibomcha", "Dolaana", "Ealish", "Mpho", "Wayra",
                   "Nokwanda", "Aylar", "Gulshat", "Aziata", "Sainkho", "Tinyiko", "Ntsako", "Mulalo", "Sumaq")
SURNAMES["tune12"] = ("Memon", "Berdiyev", "Annaeva", "Khumalo", "Zungu", "Nemeyen", "Trewhella", "Shimmin", "Pinna",
                      "Murgia", "Ramabulana", "Jatoi", "Ovezova", "Saryglar", "Corlett", "Clucas", "Deiana", "Mabunda")
MAIL_DOMAINS["tune12"] = ("torvane.dev", "lists12.example.org", "orgs12.example.net")
PERSON_TEMPLATES["tune12"] = (
    ("erlang-app-src-t12", "{{application, tidegauge,\n [{{description, \"Tide gauge reader\"}},\n  {{vsn, \"0.9.1\"}},\n  {{licenses, [\"Apache-2.0\"]}},\n  {{maintainers, [\"{name2}\", \"{name}\"]}},\n  {{links, [{{\"Source\", \"https://torvane.example/tidegauge\"}}]}}\n ]}}.\n"),
    ("elixir-mix-package-t12", "  defp package do\n    [\n      licenses: [\"MIT\"],\n      maintainers: [\"{name2}\", \"{name}\"],\n      links: %{{\"Source\" => \"https://torvane.example/tide_ex\"}}\n    ]\n  end\n"),
    ("bower-authors-lines-t12", "{{\n  \"name\": \"tide-chart\",\n  \"version\": \"0.3.0\",\n  \"authors\": [\n    \"{name2}\",\n    \"{name} <{email}>\"\n  ],\n  \"license\": \"MIT\"\n}}\n"),
    ("poetry-authors-inline-t12", "[tool.poetry]\nname = \"tidecalc\"\nversion = \"0.5.2\"\ndescription = \"Harmonic tide prediction\"\nauthors = [\"{name2}\", \"{name} <{email}>\"]\nlicense = \"BSD-3-Clause\"\n"),
    ("cargo-authors-lines-t12", "[package]\nname = \"tide-rs\"\nversion = \"0.2.0\"\nedition = \"2021\"\nauthors = [\n    \"{name2}\",\n    \"{name}\",\n]\n"),
    ("openapi-x-maintainers-t12", "openapi: 3.0.3\ninfo:\n  title: Tide API\n  version: 1.2.0\n  x-maintainers:\n    - {name2}\n    - {name}\npaths: {{}}\n"),
    ("quarto-author-flow-t12", "---\ntitle: \"Tidal constituents at the harbour gauge\"\nauthor: [{name2}, {name}]\nformat: html\n---\n"),
    ("lua-authors-table-t12", "return {{\n  name = \"tidelua\",\n  version = \"0.2.0\",\n  authors = {{ \"{name2}\", \"{name}\" }},\n  license = \"MIT\",\n}}\n"),
    ("gradle-maintainers-list-t12", "ext {{\n    pomName = 'tide-core'\n    pomMaintainers = ['{name2}', '{name}']\n    pomLicense = 'Apache-2.0'\n}}\n"),
    ("python-credits-lines-t12", "\"\"\"Tide gauge helpers.\"\"\"\n\n__version__ = \"1.0.3\"\n__credits__ = [\n    \"{name2}\",\n    \"{name}\",\n]\n"),
    ("perl-makefile-author-t12", "WriteMakefile(\n    NAME         => 'Tide::Gauge',\n    VERSION_FROM => 'lib/Tide/Gauge.pm',\n    AUTHOR       => ['{name2}', '{name} <{email}>'],\n    LICENSE      => 'perl_5',\n);\n"),
    ("csproj-authors-semicolons-t12", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <PackageId>Torvane.Tides</PackageId>\n    <Version>2.0.1</Version>\n    <Authors>{name2};{name}</Authors>\n  </PropertyGroup>\n</Project>\n"),
    ("pyproject-maintainer-tables-t12", "[project]\nname = \"tidefit\"\nversion = \"0.8.0\"\nmaintainers = [\n  {{name = \"{name2}\"}},\n  {{name = \"{name}\", email = \"{email}\"}},\n]\n"),
    ("ofx-plugin-authors-xml-t12", "<plugin id=\"org.torvane.tideshade\" version=\"1.1\">\n  <authors>\n    <author>{name2}</author>\n    <author>{name}</author>\n  </authors>\n</plugin>\n"),
    ("xcode-pbxproj-organization-t12", "\t\tattributes = {{\n\t\t\t\tBuildIndependentTargetsInParallel = 1;\n\t\t\t\tLastUpgradeCheck = 1500;\n\t\t\t\tORGANIZATIONNAME = \"{name}\";\n\t\t\t}};\n"),
    ("xcode-template-macros-t12", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>ORGANIZATIONNAME</key>\n\t<string>{name}</string>\n</dict>\n</plist>\n"),
    ("qt-organization-name-t12", "int main(int argc, char *argv[])\n{{\n    QApplication app(argc, argv);\n    QCoreApplication::setOrganizationName(\"{name}\");\n    QCoreApplication::setApplicationName(\"Tide Chart\");\n"),
    ("openssl-req-organization-t12", "[req_distinguished_name]\ncountryName            = GB\nlocalityName           = Penzance\norganizationName       = {name}\ncommonName             = tides.torvane.example\n"),
    ("maven-organization-t12", "  <organization>\n    <name>{name}</name>\n    <url>https://torvane.example</url>\n  </organization>\n"),
    ("xgettext-copyright-holder-t12", "XGETTEXT_OPTIONS = --keyword=_ --keyword=N_ \\\n  --copyright-holder=\"{name}\" \\\n  --msgid-bugs-address=\"tides@torvane.example\"\n"),
    ("delphi-dproj-company-t12", "<PropertyGroup Condition=\"'$(Base)'!=''\">\n    <VerInfo_Keys>CompanyName={name};FileDescription=Tide Chart;FileVersion=2.0.1.0;ProductName=Tide Chart</VerInfo_Keys>\n</PropertyGroup>\n"),
    ("bsl-licensor-t12", "Business Source License 1.1\n\nParameters\n\nLicensor:             {name}\nLicensed Work:        Tide Chart 2.0\nChange Date:          2029-01-01\nChange License:       Apache License, Version 2.0\n"),
)
CLEAN_TEMPLATES["tune12"] = (
    ("erlang-app-src-t12", "{{application, {tool_module},\n [{{description, \"{tool} gauge reader\"}},\n  {{vsn, \"1.0.0\"}},\n  {{maintainers, [\"{tool} Core Team\", \"release-bot\"]}},\n  {{licenses, [\"Apache-2.0\"]}}\n ]}}.\n"),
    ("elixir-mix-package-t12", "  defp package do\n    [\n      maintainers: [\"The {tool} Developers\"],\n      licenses: [\"MIT\"],\n      links: %{{\"{tool}\" => \"https://torvane.example/{tool_module}\"}}\n    ]\n  end\n"),
    ("bower-authors-lines-t12", "{{\n  \"name\": \"{tool_module}\",\n  \"version\": \"1.4.0\",\n  \"authors\": [\n    \"{tool} Contributors\",\n    \"dependabot[bot]\"\n  ],\n  \"license\": \"MIT\"\n}}\n"),
    ("cargo-authors-lines-t12", "[package]\nname = \"{tool_module}\"\nversion = \"1.1.0\"\nedition = \"2021\"\nauthors = [\n    \"The {tool} Project Developers\",\n]\n"),
    ("lua-authors-table-t12", "return {{\n  name = \"{tool_module}\",\n  version = \"1.0.0\",\n  authors = {{ \"{tool} Team\", \"Torvane Labs\" }},\n  license = \"MIT\",\n}}\n"),
    ("openapi-x-maintainers-t12", "openapi: 3.0.3\ninfo:\n  title: {tool} API\n  version: 2.0.0\n  x-maintainers:\n    - {tool} Maintainers\n    - platform-team\npaths: {{}}\n"),
    ("xcode-pbxproj-organization-t12", "\t\tattributes = {{\n\t\t\t\tLastUpgradeCheck = 1500;\n\t\t\t\tORGANIZATIONNAME = \"{tool} Inc.\";\n\t\t\t}};\n\t\t\tname = {tool};\n"),
    ("xcode-template-macros-t12", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>ORGANIZATIONNAME</key>\n\t<string>{tool} GmbH</string>\n</dict>\n</plist>\n"),
    ("qt-organization-name-t12", "int main(int argc, char *argv[])\n{{\n    QApplication app(argc, argv);\n    QCoreApplication::setOrganizationName(\"The {tool} Project\");\n    QCoreApplication::setApplicationName(\"{tool}\");\n"),
    ("openssl-req-organization-t12", "[req_distinguished_name]\ncountryName            = DE\norganizationName       = {tool} Foundation\ncommonName             = {tool_module}.torvane.example\n"),
    ("maven-organization-t12", "  <organization>\n    <name>{tool} Software Foundation</name>\n    <url>https://{tool_module}.torvane.example</url>\n  </organization>\n"),
    ("delphi-dproj-company-t12", "<PropertyGroup Condition=\"'$(Base)'!=''\">\n    <VerInfo_Keys>CompanyName=Torvane Systems Ltd;FileDescription={tool};FileVersion=3.0.0.0;ProductName={tool}</VerInfo_Keys>\n</PropertyGroup>\n"),
)
TOOLS["tune12"] = ("Isidore", "Hortense", "Fulbert", "Serafina", "Tertius", "Amabel", "Melisande", "Oswin", "Hubertus",
                   "Jerome")
SEEDS["tune12"] = 12121


def measure(samples: Sequence[Sample], redact: Callable[[str], str], corpus: str = "") -> Figures:
    """A person leaks when their surname survives as a whole word; another value when it survives verbatim; a
    clean document is altered when its output differs at all."""
    persons = leaked = others = others_leaked = clean = altered = 0
    families: dict[str, int] = {}
    for sample in samples:
        out = redact(sample.text)
        if sample.category == CLEAN:
            clean += 1
            altered += out != sample.text
            continue
        for entity in sample.entities:
            if entity.entity_type == "PERSON":
                persons += 1
                hit = re.search(rf"(?<!\w){re.escape(surname(entity.value))}(?!\w)", out) is not None
                leaked += hit
                if hit:
                    families[sample.template] = families.get(sample.template, 0) + 1
            else:
                others += 1
                others_leaked += entity.value in out
    return Figures(corpus, persons, leaked, others, others_leaked, clean, altered, families)


def markdown(rows: Sequence[Figures]) -> str:
    lines = ["| corpus | surnames surviving | other private values surviving | clean technical documents altered |",
             "|---|---:|---:|---:|"]
    for f in rows:
        lines.append(f"| {f.corpus} | {f.surnames_leaked}/{f.persons} ({100 * f.surnames_leaked / f.persons:.1f}%) "
                     f"| {f.other_leaked}/{f.other_values} | {f.clean_altered}/{f.clean_docs} "
                     f"({100 * f.clean_altered / f.clean_docs:.1f}%) |")
    for f in rows:
        if f.leaked_families:
            leaks = ", ".join(f"{k} {v}" for k, v in sorted(f.leaked_families.items()))
            lines.append(f"\n{f.corpus}: surnames surviving by family: {leaks}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="verb", required=True)
    write = sub.add_parser("write")
    write.add_argument("--split", choices=list(SEEDS), required=True)
    write.add_argument("--out", type=Path, required=True)
    score = sub.add_parser("score")
    score.add_argument("corpus", type=Path, nargs="+")
    args = parser.parse_args()
    if args.verb == "write":
        print(corpus_file.dump(documents(args.split), args.out), "documents")
        return
    from ztgate_bench.utility_bench import ztgate_redactor
    redact = ztgate_redactor("default")
    print(markdown([measure(corpus_file.load(path), redact, path.name) for path in args.corpus]))


if __name__ == "__main__":
    main()
