"""E-mail addresses of bots, automation accounts, organisations' role mailboxes, teams, mailing lists and groups:
no person's data, so tier 1 does not report them.

A commit trailer or a log names bots with an address ("Co-authored-by: github-actions[bot]
<actions@github.com>"); pseudonymising it alters a clean technical document and protects no one. The decision
is by shape, never by a list of bots', teams' or lists' names:
* a display name ending in ``[bot]`` right before the address, or ``[bot]`` in its local part;
* a service's no-reply mailbox as the whole local part (``noreply``, ``no-reply``, ``do-not-reply``,
  ``donotreply``, ``notifications``, ``mailer-daemon``);
* an RFC 2142 role mailbox (``support``, ``security``, ``abuse``, ``postmaster``, ``hostmaster``,
  ``webmaster``, ``noc``, ``info``, ``sales``, ``marketing``) or ``helpdesk``, whole, or a support, security,
  abuse or helpdesk role after one qualifier and a hyphen (``api-support@``: issue #29, seventh round);
* a mailing list's or a group's address (issue #29, eighth round, ADR 0024): a collective word of
  ``data/words/group_mailboxes.txt`` as the whole local part (``devel@``, ``announce@``, ``maintainers@``) or
  as the first or last part of a local part joined by ``-``, ``_`` or ``+`` whose other part holds no dot
  (``platform-dev@``, ``ledger-users@``, ``sre-oncall@``, ``team+go@``); any local part but a person's
  ``first.last`` on a host whose first label is a list server's (``lists.``, ``groups.``, ``mailman.``,
  ``listserv.``) or on ``googlegroups.com``;
* an address whose display name is a team's, a group's, a bot's or a tool's (``text_shape.tool_or_organisation``:
  "Platform Team <platform@x.org>", an iCalendar ``CN=Platform Team:mailto:platform@x.org``), or an iCalendar
  property of a group, a room or a resource (``CUTYPE=GROUP``).
A person's address stays reported in the same frames, including a person's no-reply forwarding address
(``12345+jdoe@users.noreply.github.com``: its local part names the person, not a service) and a person's
``first.last`` local part whatever its display name or host says. The cost, measured in ADR 0024: a person's
own address shaped like a list's (``mlopez-dev@``, ``dev@lopez.name``) is no longer reported."""

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
    if parts[-1] in GROUP_MAILBOXES and "." not in low.rsplit(parts[-1], 1)[0]:
        return True  # platform-dev, ledger-users, sre-oncall
    return parts[0] in GROUP_MAILBOXES and "." not in low[len(parts[0]):]  # team+go, dev-platform


def _group_display_name(text: str, token_start: int) -> bool:
    """The address's display name is a team's, a group's, a bot's or a tool's, or its iCalendar line says the
    attendee is a group, a room or a resource."""
    line_start = text.rfind("\n", 0, token_start) + 1
    if _GROUP_CUTYPE.match(text, line_start, token_start):
        return True
    before = text[max(line_start, token_start - 120):token_start]
    m = _CN_BEFORE.search(before) or _DISPLAY_BEFORE.search(before)
    return m is not None and tool_or_organisation(m.group(1).strip())
