"""E-mail addresses of bots, automation accounts and organisations' role mailboxes: no person's data, so tier 1
does not report them.

A commit trailer or a log names bots with an address ("Co-authored-by: github-actions[bot]
<actions@github.com>"); pseudonymising it alters a clean technical document and protects no one. The decision
is by shape, never by a list of bots' names:
* a display name ending in ``[bot]`` right before the address, or ``[bot]`` in its local part;
* a service's no-reply mailbox as the whole local part (``noreply``, ``no-reply``, ``do-not-reply``,
  ``donotreply``, ``notifications``, ``mailer-daemon``);
* an RFC 2142 role mailbox (``support``, ``security``, ``abuse``, ``postmaster``, ``hostmaster``,
  ``webmaster``, ``noc``, ``info``, ``sales``, ``marketing``) or ``helpdesk``, whole, or a support, security,
  abuse or helpdesk role after one qualifier and a hyphen (``api-support@``: issue #29, seventh round).
A person's address stays reported in the same frames, including a person's no-reply forwarding address
(``12345+jdoe@users.noreply.github.com``: its local part names the person, not a service)."""

from __future__ import annotations

import re

# A display name that ends in "[bot]", then the address in angle brackets (or right after a space).
_BOT_NAME_BEFORE = re.compile(r"\[bot\][\"']?[ \t]*<?[ \t]*$", re.IGNORECASE)
_SERVICE_LOCAL = re.compile(r"(?:no-?reply|do-?not-?reply|notifications?|mailer-daemon"
                            r"|support|security|abuse|postmaster|hostmaster|webmaster|noc|info|sales|marketing|helpdesk"
                            r"|[a-z0-9]+-(?:support|security|abuse|helpdesk))", re.IGNORECASE)


def automation_address(text: str, start: int, end: int) -> bool:
    """text[start:end] is an e-mail address of a bot or a service's no-reply mailbox (module doc)."""
    value = text[start:end]
    local, at, _ = value.partition("@")
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
    return _SERVICE_LOCAL.fullmatch(whole_local) is not None
