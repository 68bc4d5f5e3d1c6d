"""A one-word name used as a product, not as a person (issue #29): tools and projects spelt like given names or
surnames ("Kirby", "Morgan", "Hamilton", "Hugo") are written the way products are.

The word is a product when a verb whose object is software stands right before it ("run Emmett", "pip install
Bruno": ``_VERB_BEFORE``), a product noun follows it ("the Kirby docs", "the Hamilton alert": ``PRODUCT_NOUNS``),
what only software does follows it ("Hazel listens on", "Quincy took a snapshot": ``_VERB_AFTER``), or the text
spells the same word in lower case as software within ``REACH`` characters (a path or URL segment, a package or
module, a command, a call's argument, a file name, an image: "import morgan", "FROM kirby:4.2"); or when it stands
in a project's frame (ADR 0026): a collective noun of a project's people right after it, not possessive ("the
Bower developers": ``PROJECT_PEOPLE``), or the topic of questions or support ("For questions about Sawyer":
``_TOPIC_BEFORE``); or when the same text names the word as a product in its own manifest (``manifests``:
"Plugin Name: Perpetua" then "Perpetua adds tide charts", ADR 0038). ``code_identifiers`` asks this only where no person cue stands around the word (a title, a
greeting, an address cue, a verb of people), so "Ask Kirby about the docs" stays a person."""

from __future__ import annotations

import re

from ztgate.redaction.detection.manifests import product_name_field

# Nouns that name a product's parts, artefacts or kinds, lower case, right after the word.
PRODUCT_NOUNS = frozenset((
    "docs doc documentation manual plugin plugins extension extensions config configuration settings cli api apis "
    "server servers logger logging cache release releases package packages library libraries module modules "
    "version versions repo repository binary binaries image images container containers sdk runtime engine "
    "dashboard instance instances cluster exporter integration adapter theme themes template templates wrapper "
    "client daemon agent backend frontend app apps site sites build builds command commands flag flags option "
    "options schema dsl syntax source sources codebase fork changelog installer install setup project stack "
    "framework middleware transport transports format formats parser compiler interpreter "
    # what a running tool raises, binds, proxies and feeds (issue #29, seventh round: "- 09:12 Hamilton alert
    # fired", "Felix bindings", "the Mabel datasource")
    "alert alerts alerting binding bindings proxy proxies driver drivers datasource datasources sidecar "
    "sidecars hook hooks webhook webhooks endpoint endpoints metrics collector collectors scraper crawler "
    "renderer controller controllers "
    # what is done to a running tool (issue #29, eighth round: "SUMMARY:Vera upgrade window")
    "upgrade upgrades "
    # what a running system has and a person has not (issue #29, ninth round, ADR 0030: "for X vulnerability reports",
    # "Postmortem: X outage")
    "vulnerability vulnerabilities advisory advisories outage outages downtime migration migrations rollout "
    "rollouts").split())
# The people of a project, right after its name and not possessive ("the Bower developers", "Jetty maintainers"):
# a project's, not a person's ("Anna's developers" is possessive). Not "team" nor "community": a place's too ("joins
# the Uppsala team", ten golden cases; ADR 0026).
PROJECT_PEOPLE = frozenset("developers developer devs maintainers maintainer authors contributors committers".split())
# A topic of questions, help or support right before the word ("For questions about Sawyer", "help with Lerna"):
# what is asked about, not whom to ask ("questions go to NAME" is a person cue: text_shape._ASKS_TO).
_TOPIC_BEFORE = re.compile(
    r"(?i:\b(?:questions?|queries|issues|problems|bugs|help|support|faq|docs)[ \t]+(?:about|with|regarding|on)"
    r"[ \t]+(?:the[ \t]+)?)$")
# A verb whose object is software, right before the word ("run", "pip install", "upgrading", "configure"); not one
# whose object may be a person ("update", "ask", "ping"), nor a bare "install" ("Install Maria and import it"
# reads as a person: test_code_identifiers).
_VERB_BEFORE = re.compile(
    r"(?i:\b(?:(?:pip3?|pipx|npm|yarn|pnpm|gem|cargo|brew|apt(?:-get)?|conda|go|dotnet|composer|poetry|uv)[ \t]+"
    r"(?:install|add|get)|run|running|ran|uninstall|upgrade|upgrading|upgraded|"
    r"downgrade|downgrading|configure|configuring|configured|deploy|deploying|deployed|restart|restarting|"
    r"restarted|launch|launching|invoke|invoking|bump|bumping|bumped|pin|pinning|pinned)[ \t]+)$")
# What only software does, right after the word ("Hazel listens on the internal network", "Emmet renders the
# API reference", "Caddy binds to :443", "Ludwig is pinned to 2.x"): not a verb people share ("serves", "runs").
_VERB_AFTER = re.compile(
    r"[ \t]+(?:listens[ \t]+on|listening[ \t]+on|binds?[ \t]+to|renders|scrapes|exposes|(?:is|stays|was)[ \t]+pinned"
    r"|(?:is|was)[ \t]+(?:installed|deprecated|vendored)"
    # what a database, a store or a job does to its data ("Quincy took a snapshot of the primary", "Casper
    # compacted the segments"): not "took the pager", which a person does
    r"|(?:took|takes|taking|created|creates)[ \t]+(?:a|an|the)[ \t]+(?:snapshot|backup|checkpoint|dump)s?"
    r"|(?:snapshotted|checkpointed|compacted|vacuumed|reindexed)[ \t]+(?:the|a|an|all|its)\b"
    # what a running system runs out of ("X ran out of file handles", ADR 0030): not patience, nor time
    r"|(?:ran|runs|running)[ \t]+out[ \t]+of[ \t]+(?:memory|disk|space|file[ \t]+(?:handles|descriptors)|inodes|"
    r"connections|threads|heap))\b")
_POSSESSIVE = re.compile(r"['’]s\b")
_NEXT_WORD = re.compile(r"(?:['’]s)?[ \t]+([a-z]+)\b")
# How far either side of the word its lower-case spellings are looked for: a word costs the same however long
# the text is.
REACH = 2000


def used_as_product(text: str, start: int, end: int) -> bool:
    """text[start:end], one capitalised word, is written as a product (module doc)."""
    word = text[start:end]
    nxt = _NEXT_WORD.match(text, end, min(len(text), end + 40))
    if nxt is not None and nxt.group(1) in PRODUCT_NOUNS:
        return True
    if nxt is not None and nxt.group(1) in PROJECT_PEOPLE and not _POSSESSIVE.match(text, end):
        return True  # "Written by the Bower developers", ":Author: Jetty maintainers"
    if _TOPIC_BEFORE.search(text, max(0, start - 40), start) and not _POSSESSIVE.match(text, end):
        return True  # "For questions about Sawyer, contact the platform-team channel"
    if _VERB_AFTER.match(text, end, min(len(text), end + 40)):
        return True  # "Hazel listens on the internal network only", "Falco is pinned until the review"
    if _VERB_BEFORE.search(text, max(0, start - 24), start) and not _POSSESSIVE.match(text, end):
        return True  # "Run Emmett before the next cell", "Upgrading Ariadne", "npm install Bruno"
    if _named_in_manifest(text, start, end):
        return True  # "Plugin Name: Perpetua ... Description: Perpetua adds tide charts" (ADR 0038)
    low = re.escape(word.casefold())
    spelt = re.compile(
        rf"(?:[/@]{low}(?=[/.@:\-_\s]|$)|(?:\b(?:import|require\(['\"]|install|add|from|FROM|use|npx|pipx|uvx)|(?<!\w)-m)"
        rf"[ \t]+['\"]?{low}\b"
        rf"|`{low}\b|(?<![\w.\-/]){low}\.[a-z_]+\b|(?<![\w.\-/]){low}:[\w.\-]+|(?<![\w.\-/]){low}-[a-z]"
        # an argument of a call or an item of a list: library(ariadne), install.packages("ariadne"), tags: [ariadne]
        rf"|(?:[a-z_.]\(|\[)[ \t]*['\"]?{low}['\"]?[ \t]*[),\]]|,[ \t]*(?:['\"]{low}['\"]|{low}[ \t]*\])"
        # a command at the start of a line, with its arguments (a Makefile recipe, a shell session)
        rf"|^[ \t$>]*{low}[ \t]+[\-\w])", re.MULTILINE)
    return spelt.search(text, max(0, start - REACH), min(len(text), end + REACH)) is not None


def _named_in_manifest(text: str, start: int, end: int) -> bool:
    """The word stands (there or elsewhere within ``REACH``) as the product's own name in a manifest field of the text."""
    word = re.escape(text[start:end])
    for m in re.finditer(rf"(?<![\w\-.]){word}(?![\w\-])", text[max(0, start - REACH):end + REACH]):
        pos = max(0, start - REACH) + m.start()
        if product_name_field(text, pos):
            return True
    return False
