"""E-mail addresses of bots, automation accounts, organisations' role mailboxes, teams, mailing lists and groups:
no person's data, so tier 1 does not report them (pseudonymising "github-actions[bot] <actions@github.com>"
alters a clean document and protects no one). The decision is by shape, never by a list of names:
* ``[bot]`` in the display name or the local part; a service's no-reply mailbox as the whole local part;
* an RFC 2142 role mailbox (``support``, ``security``, ``abuse``, ``postmaster``, ``info``, ``sales`` ...) or
  ``helpdesk``, whole or after one qualifier and a hyphen (``api-support@``);
* a list's or a group's address (ADR 0024): a word of ``data/words/group_mailboxes.txt`` as the whole local part
  or its first or last part joined by ``-``, ``_`` or ``+`` (``platform-dev@``, ``team+go@``); any local part but
  a person's ``first.last`` on a list server's host (``lists.``, ``groups.``, ``googlegroups.com``);
* a display name that is a team's, a bot's or a tool's (``text_shape.tool_or_organisation``, an iCalendar
  ``CN=Platform Team:mailto:``), or an iCalendar group, room or resource (``CUTYPE=GROUP``).
A person's address stays reported in the same frames, a ``first.last`` local part whatever its host or display
name. The cost (ADR 0024): a person's own address shaped like a list's (``mlopez-dev@``) is not reported."""

from __future__ import annotations

import re

from ztgate.redaction.detection.text_shape import tool_or_organisation
from ztgate.redaction.detection.wordlists import words

# A display name that ends in "[bot]", then the address in angle brackets (or right after a space).
_BOT_NAME_BEFORE = re.compile(r"\[bot\][\"']?[ \t]*<?[ \t]*$", re.IGNORECASE)
_SERVICE_LOCAL = re.compile(r"(?:no-?reply|do-?not-?reply|notifications?|mailer-daemon"
                            r"|support|security|abuse|postmaster|hostmaster|webmaster|noc|info|sales|marketing|helpdesk"
                            r"|[a-z0-9]+-(?:support|security|abuse|helpdesk))", re.IGNORECASE)
# Collective words of a list's, a team's or a group's mailbox (lower case).
GROUP_MAILBOXES = frozenset(words("group_mailboxes"))
# A list server's host: its first label, or the whole domain.
_LIST_HOST = re.compile(r"(?:lists?|groups|mailman|listserv|lists-[a-z0-9]+)\.[\w.\-]+\.[a-z]{2,}|googlegroups\.com",
                        re.IGNORECASE)
# A person's first.last local part: two or three words of letters joined by dots.
_PERSON_LOCAL = re.compile(r"[^\W\d_]{2,}(?:[.'][^\W\d_]+){1,2}")
# The display name right before an address: "Name <", "\"Name\" <", "CN=Name:mailto:", "CN=\"Name\":mailto:".
_DISPLAY_BEFORE = re.compile(r"(?:^|[\n:;,=]|\s\s)[ \t]*[\"']?([^\"'<>\n:;,=()@]{2,60}?)[\"']?[ \t]*(?:<|:mailto:)[ \t]*$",
                             re.IGNORECASE)
_CN_BEFORE = re.compile(r"CN=[\"']?([^\"':;\n]{2,60}?)[\"']?:mailto:$", re.IGNORECASE)
_GROUP_CUTYPE = re.compile(r"(?im)^[A-Z\-]*;(?:[^:\n]*;)?CUTYPE=(?:GROUP|RESOURCE|ROOM)[;:]")


def automation_address(text: str, start: int, end: int) -> bool:
    """text[start:end] is an e-mail address of a bot, a service, a team, a list or a group (module doc)."""
    value = text[start:end]
    local, at, domain = value.partition("@")
    if not at:
        return False
    # The address may start inside a local part that holds "[bot]" ("dependabot[bot]@..." matched from "bot]").
    token_start = start
    while token_start > 0 and not text[token_start - 1].isspace() and text[token_start - 1] not in "<(\"',;:":
        token_start -= 1
    whole_local = text[token_start:start] + local
    if "[bot]" in whole_local.casefold():
        return True
    if _BOT_NAME_BEFORE.search(text, max(0, token_start - 80), token_start):
        return True
    if _SERVICE_LOCAL.fullmatch(whole_local) is not None:
        return True
    if _PERSON_LOCAL.fullmatch(whole_local):
        return False  # "maria.lopez@": a person's, whatever names the list or the team around it
    return (group_local(whole_local) or _LIST_HOST.fullmatch(domain) is not None
            or _group_display_name(text, token_start))


def group_local(local: str) -> bool:
    """A local part that is a list's, a team's or a group's mailbox (module doc)."""
    low = local.casefold()
    if low in GROUP_MAILBOXES:
        return True
    parts = re.split(r"[-_+]", low)
    if len(parts) < 2 or not all(parts):
        return False
    for cut in (m.start() for m in re.finditer(r"[-_+]", low)):  # at every joint, a group word may be hyphenated
        head, tail = low[:cut], low[cut + 1:]
        if tail in GROUP_MAILBOXES and "." not in head:
            return True  # platform-dev, ledger-users, sre-on-call
        if head in GROUP_MAILBOXES and "." not in tail:
            return True  # team+go, dev-platform
    return False


def _group_display_name(text: str, token_start: int) -> bool:
    """The address's display name is a team's, a group's, a bot's or a tool's, or its iCalendar line says the
    attendee is a group, a room or a resource."""
    line_start = text.rfind("\n", 0, token_start) + 1
    if _GROUP_CUTYPE.match(text, line_start, token_start):
        return True
    before = text[max(line_start, token_start - 120):token_start]
    m = _CN_BEFORE.search(before) or _DISPLAY_BEFORE.search(before)
    return m is not None and tool_or_organisation(m.group(1).strip())
