"""E-mail addresses of bots and services' no-reply mailboxes are not personal data (issue #29): tier 1 does not
report them, decided by the ``[bot]`` suffix and the no-reply shape, never by a bot's name; a person's address
in the same trailers is still reported. Generated families, through the tier-1 recognizer."""

from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.patterns.recognizer import HyperscanRecognizer

_LOWER = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=10)
_SYLLABLES = ["ka", "ro", "mi", "ta", "ne", "chi", "du", "se", "yo", "ri", "ba", "ko", "lu", "wen", "zha", "mar"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())
_DOMAIN = st.builds(lambda a, tld: f"{a}.{tld}", _LOWER, st.sampled_from(["com", "io", "dev", "org", "net"]))
_TRAILER = st.sampled_from(["Co-authored-by: ", "Signed-off-by: ", "Reviewed-by: ", "Author: ", "From: "])
_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _emails(recognizer: HyperscanRecognizer, text: str) -> list[str]:
    return [text[r.start:r.end] for r in recognizer.analyze(text, ["EMAIL_ADDRESS"])]


@_SETTINGS
@given(trailer=_TRAILER, bot=st.builds(lambda a, b: f"{a}-{b}" if b else a, _LOWER, st.one_of(st.just(""), _LOWER)),
       local=_LOWER, domain=_DOMAIN, quote=st.sampled_from(["", '"']))
def test_a_bots_address_is_not_reported(recognizer: HyperscanRecognizer, trailer: str, bot: str, local: str,
                                         domain: str, quote: str) -> None:
    text = f"build: pin deps\n\n{trailer}{quote}{bot}[bot]{quote} <{local}@{domain}>\n"
    assert _emails(recognizer, text) == [], text
    forwarding = f"{trailer}{bot}[bot] <4969{len(local)}+{bot}[bot]@users.noreply.{domain}>\n"
    assert _emails(recognizer, forwarding) == [], forwarding


@_SETTINGS
@given(trailer=_TRAILER, local=st.sampled_from(["noreply", "no-reply", "do-not-reply", "donotreply", "notifications",
                                                "NoReply", "mailer-daemon"]), service=_WORD, domain=_DOMAIN)
def test_a_services_no_reply_address_is_not_reported(recognizer: HyperscanRecognizer, trailer: str, local: str,
                                                     service: str, domain: str) -> None:
    text = f"{trailer}{service} <{local}@{domain}>\n"
    assert _emails(recognizer, text) == [], text


@_SETTINGS
@given(local=st.sampled_from(["support", "security", "abuse", "postmaster", "hostmaster", "webmaster", "noc", "info",
                              "sales", "marketing", "helpdesk", "api-support", "Payments-Security", "it-helpdesk"]),
       service=_WORD, domain=_DOMAIN)
def test_a_role_mailbox_is_not_reported(recognizer: HyperscanRecognizer, local: str, service: str,
                                        domain: str) -> None:
    text = f"info:\n  title: {service} API\n  contact:\n    name: API Support\n    email: {local}@{domain}\n"
    assert _emails(recognizer, text) == [], text


@_SETTINGS
@given(given_name=_WORD, surname=_WORD, domain=_DOMAIN)
def test_a_persons_address_that_holds_a_role_word_is_still_reported(recognizer: HyperscanRecognizer,
                                                                   given_name: str, surname: str,
                                                                   domain: str) -> None:
    for local in (f"{given_name}.support", f"{given_name}.{surname}-info", f"support.{surname}",
                  f"{given_name}{surname}"):
        email = f"{local}@{domain}".lower()
        assert _emails(recognizer, f"contact: {email}\n") == [email], email


@_SETTINGS
@given(trailer=_TRAILER, given_name=_WORD, surname=_WORD, domain=_DOMAIN, digits=st.integers(1000, 99_999_999),
       bot=_LOWER)
def test_a_persons_address_in_the_same_trailers_is_still_reported(recognizer: HyperscanRecognizer, trailer: str,
                                                                  given_name: str, surname: str, domain: str,
                                                                  digits: int, bot: str) -> None:
    email = f"{given_name}.{surname}@{domain}".lower()
    text = f"fix: cache\n\n{trailer}{given_name} {surname} <{email}>\n"
    assert _emails(recognizer, text) == [email], text
    handle = f"{digits}+{given_name.lower()}@users.noreply.github.com"  # a person's forwarding address
    assert _emails(recognizer, f"{trailer}{given_name} <{handle}>\n") == [handle]
    # a bot on the same line does not hide the person next to it, in either order
    both = f"{trailer}{given_name} {surname} <{email}>, {bot}[bot] <support@{domain}>\n"
    assert _emails(recognizer, both) == [email], both
    both = f"{trailer}{bot}[bot] <support@{domain}>, {given_name} {surname} <{email}>\n"
    assert _emails(recognizer, both) == [email], both
