"""Addresses of teams, mailing lists and groups are no person's (issue #29, eighth round, ADR 0024): tier 1 does
not report them, decided by the shape of the local part, the list server's host, the display name or an
iCalendar group; a person's address in the same frames is still reported; and the cost, a person's own address
shaped like a list's, is pinned here so that it is seen. Generated families, through the tier-1 recognizer; words
and hosts made up here, apart from every ``code_persons`` split."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.patterns.automation import GROUP_MAILBOXES
from ztgate.redaction.detection.patterns.recognizer import HyperscanRecognizer
from tests.unit.redaction.detection.patterns.test_automation_addresses import (  # the same frames' helpers
    _DOMAIN,
    _LOWER,
    _emails,
)

_SYLLABLES = ["va", "lo", "mi", "te", "nu", "sha", "do", "ke", "ya", "ri", "bo", "zen", "qua", "fel"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())
_GROUP = st.sampled_from(sorted(GROUP_MAILBOXES))
_SEP = st.sampled_from(["-", "_", "+"])
_COLLECTIVE = st.sampled_from(["Team", "Maintainers", "Group", "Guild", "Bot", "Packaging Team", "Developers"])
# The frames an address stands in: a header, a Debian field, an iCalendar organiser or attendee, a setting.
_FRAMES = ("From: {display} <{addr}>\n", "Maintainer: {display} <{addr}>\n", "To: \"{display}\" <{addr}>\n",
           "ORGANIZER;CN={display}:mailto:{addr}\n", "ATTENDEE;ROLE=REQ-PARTICIPANT;CN={display}:mailto:{addr}\n",
           "ATTENDEE;CN=\"{display}\":mailto:{addr}\n")
_SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_SETTINGS
@given(qualifier=_LOWER, group=_GROUP, sep=_SEP, first=st.booleans(), domain=_DOMAIN,
       frame=st.sampled_from(["cc: {a}\n", "{a} mailing list\n", "email: \"{a}\"\n", "  - to: {a}\n"]))
@example(qualifier="aaa", group="on-call", sep="-", first=False, domain="aaa.com", frame="cc: {a}\n")  # a hyphened group
def test_a_lists_or_a_teams_local_part_is_not_reported(recognizer: HyperscanRecognizer, qualifier: str, group: str,
                                                       sep: str, first: bool, domain: str, frame: str) -> None:
    for local in (f"{group}{sep}{qualifier}" if first else f"{qualifier}{sep}{group}", group):
        text = frame.format(a=f"{local}@{domain}")
        assert _emails(recognizer, text) == [], text


@_SETTINGS
@given(local=_LOWER, host=st.sampled_from(["lists", "groups", "mailman", "listserv", "list"]), domain=_DOMAIN)
def test_any_local_part_on_a_list_servers_host_is_not_reported(recognizer: HyperscanRecognizer, local: str,
                                                               host: str, domain: str) -> None:
    text = f"Posted to {local}@{host}.{domain} by the nightly job\n"
    assert _emails(recognizer, text) == [], text
    assert _emails(recognizer, f"archive: {local}@googlegroups.com\n") == []


@_SETTINGS
@given(word=_WORD, collective=_COLLECTIVE, local=_LOWER, domain=_DOMAIN, frame=st.sampled_from(_FRAMES))
def test_a_teams_display_name_makes_its_address_a_teams(recognizer: HyperscanRecognizer, word: str, collective: str,
                                                       local: str, domain: str, frame: str) -> None:
    text = frame.format(display=f"{word} {collective}", addr=f"{local}@{domain}")
    assert _emails(recognizer, text) == [], text


@_SETTINGS
@given(word=_WORD, local=_LOWER, domain=_DOMAIN, cutype=st.sampled_from(["GROUP", "RESOURCE", "ROOM"]))
def test_an_icalendar_group_room_or_resource_is_not_reported(recognizer: HyperscanRecognizer, word: str, local: str,
                                                            domain: str, cutype: str) -> None:
    text = f"ATTENDEE;CUTYPE={cutype};CN={word}:mailto:{local}@{domain}\n"
    assert _emails(recognizer, text) == [], text


@_SETTINGS
@given(given_name=_WORD, surname=_WORD, domain=_DOMAIN, frame=st.sampled_from(_FRAMES),
       host=st.sampled_from(["lists", "groups"]), collective=_COLLECTIVE)
def test_a_persons_address_in_the_same_frames_is_still_reported(recognizer: HyperscanRecognizer, given_name: str,
                                                               surname: str, domain: str, frame: str, host: str,
                                                               collective: str) -> None:
    display = f"{given_name} {surname}"
    for local in (f"{given_name}.{surname}", f"{given_name[0]}{surname}", given_name, f"{given_name}+{surname}"):
        addr = f"{local}@{domain}".lower()
        text = frame.format(display=display, addr=addr)
        assert _emails(recognizer, text) == [addr], text
    # a person's first.last is a person's whatever host or display name stands around it
    addr = f"{given_name}.{surname}@{host}.{domain}".lower()
    assert _emails(recognizer, f"Posted by {addr}\n") == [addr]
    text = frame.format(display=f"{surname} {collective}", addr=f"{given_name}.{surname}@{domain}".lower())
    assert _emails(recognizer, text) == [f"{given_name}.{surname}@{domain}".lower()], text
    # a team's address beside the person's hides neither the other
    both = f"To: {display} <{given_name.lower()}@{domain}>, {surname}-dev@lists.{domain}\n"
    assert _emails(recognizer, both) == [f"{given_name.lower()}@{domain}"], both


@_SETTINGS
@given(given_name=_WORD, surname=_WORD, domain=_DOMAIN, group=st.sampled_from(["dev", "team", "users", "ops"]))
def test_the_cost_a_persons_own_address_shaped_like_a_lists_is_not_reported(recognizer: HyperscanRecognizer,
                                                                           given_name: str, surname: str,
                                                                           domain: str, group: str) -> None:
    """The trade recorded in ADR 0024: a person's own mailbox spelt like a list's is kept as it is."""
    for addr in (f"{given_name[0]}{surname}-{group}@{domain}", f"{group}@{surname}.name",
                 f"{given_name}{surname}@lists.{domain}"):
        assert _emails(recognizer, f"contact: {addr.lower()}\n") == [], addr


@_SETTINGS
@given(given_name=_WORD, surname=_WORD, domain=_DOMAIN, frame=st.sampled_from(_FRAMES),
       title=st.sampled_from(["Dr.", "Dr", "Mr.", "Mrs", "Ms.", "Prof.", "Miss", "Sir"]), bare=st.booleans())
def test_a_personal_title_in_the_display_name_keeps_the_address_a_persons(recognizer: HyperscanRecognizer,
                                                                          given_name: str, surname: str, domain: str,
                                                                          frame: str, title: str, bare: bool) -> None:
    # "Dr", "Mr" and "Ms" are also technical words (disaster recovery, a merge request): opening a display name they
    # are a person's title (the held-out set's "From: Dr. NAME <address>" lost nothing else but its address).
    display = title if bare else f"{title} {given_name} {surname}"
    addr = f"{given_name[0]}.{surname}@{domain}".lower()
    text = frame.format(display=display, addr=addr)
    assert _emails(recognizer, text) == [addr], text
