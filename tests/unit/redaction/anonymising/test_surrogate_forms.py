"""A surrogate restores in the forms a model bends it into (ztgate/redaction/vault.py, `_surrogate_pattern`).

Generated families: sessions of one to three private persons (optionally with a title) and their
e-mail addresses, answers built from the forms a model writes (the given name alone, the surname
alone, title and surname, a possessive, capitals, lower case, the address in another case). Each form
restores to that person's own words, never another's; forms that could be something else (a single
name in lower case, inside a word, an address or a path, a bent address) are left as written; and a
streamed answer cut anywhere restores as the whole answer does.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.gateway.processor.session import PlaceholderRestorer
from ztgate.redaction.anonymising import anonymize, surrogates
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.policies import Action, Policy
from ztgate.redaction.types import Detection
from ztgate.redaction.vault import Vault

POLICY = Policy(name="surrogates", default_action=Action.SURROGATE)
OPERATORS = Operators()
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

word = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True)
title = st.sampled_from(["", "Dr. ", "Ms. ", "Mr. ", "Prof. "])
# Persons whose words are all distinct (two originals sharing a word restore that word either way).
persons = st.lists(st.tuples(title, word, word), min_size=1, max_size=3).filter(
    lambda ps: len({w.casefold() for _, g, s in ps for w in (g, s)}) == 2 * len(ps))
layouts = st.sampled_from(["{g}.{s}", "{i}.{s}", "{i}{s}", "{g}", "{g}_{s}", "{s}"])
domains = st.sampled_from(["posteo.de", "fastmail.com", "gmx.net"])


class _VaultOnly:
    """The restorer reads only its service's vault: this holds the real one, nothing else."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault


def _redact(vault: Vault, text: str, values: list[tuple[str, str]]) -> str:
    detections = []
    for entity_type, value in values:
        start = text.index(value)
        detections.append(Detection(entity_type, start, start + len(value), 0.9, "test"))
    return anonymize.redact(text, detections, POLICY, vault, "t", "s", operators=OPERATORS).text


def _session(people: list[tuple[str, str, str]], layout: str, domain: str
             ) -> tuple[Vault, str, list[tuple[str, str, str, str, str, str]]]:
    """A vault session holding `people` and their addresses; each person as (title, given, surname,
    address, and the stand-in's given name and surname), read from the redacted prompt."""
    vault = Vault()
    values: list[tuple[str, str]] = []
    lines = []
    for t, g, s in people:
        name = f"{t}{g} {s}"
        mail = layout.format(g=g.lower(), s=s.lower(), i=g[0].lower()) + "@" + domain
        lines.append(f"Write to {name} at {mail} today.")
        values += [("PERSON", name), ("EMAIL_ADDRESS", mail)]
    text = " ".join(lines)
    redacted = _redact(vault, text, values)
    found = re.findall(r"Write to (?:(?:Dr|Ms|Mr|Prof)\. )?(\S+) (\S+) at (\S+) today\.", redacted)
    assert len(found) == len(people), redacted
    out = [(t, g, s, layout.format(g=g.lower(), s=s.lower(), i=g[0].lower()) + "@" + domain, sg, ss)
           for (t, g, s), (sg, ss, _) in zip(people, found)]
    return vault, redacted, out


def _streamed(vault: Vault, answer: str, cuts: list[int]) -> str:
    restorer = PlaceholderRestorer(_VaultOnly(vault), "t", "s")  # type: ignore[arg-type]
    bounds = [0, *sorted(c % (len(answer) + 1) for c in cuts), len(answer)]
    return "".join(restorer.feed(answer[a:b]) for a, b in zip(bounds, bounds[1:])) + restorer.finish()


@PROPERTY
@given(people=persons, layout=layouts, domain=domains, cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_each_partial_form_restores_to_its_own_person(people, layout, domain, cuts) -> None:
    vault, redacted, session = _session(people, layout, domain)
    answer, expected = [], []
    for t, g, s, _, sg, ss in session:
        forms = [
            (f"Dear {sg},", f"Dear {g},"),
            (f"Regards, {ss}.", f"Regards, {s}."),
            (f"Ms. {ss} wrote", f"Ms. {s} wrote"),
            (f"{ss}'s report", f"{s}'s report"),
            (f"{sg}\u2019s desk", f"{g}\u2019s desk"),
            (f"{sg.upper()} {ss.upper()}", f"{g.upper()} {s.upper()}"),
            (f"{sg.lower()} {ss.lower()}", f"{g.lower()} {s.lower()}"),
            (f"TO {ss.upper()}:", f"TO {s.upper()}:"),
            (f"({sg} {ss})", f"({g} {s})"),
        ]
        answer += [f for f, _ in forms]
        expected += [e for _, e in forms]
    text = " ".join(answer)
    assert vault.restore("t", "s", text) == " ".join(expected)
    assert _streamed(vault, text, cuts) == " ".join(expected)
    assert vault.restore("t", "s", redacted).startswith("Write to ")


@PROPERTY
@given(people=persons, layout=layouts, domain=domains, cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_forms_that_could_be_something_else_are_left(people, layout, domain, cuts) -> None:
    vault, _, session = _session(people, layout, domain)
    kept = []
    for _, _, _, _, sg, ss in session:
        kept += [sg.lower(), f"x{sg}", f"{ss}ville", f"{sg.lower()}.{ss.lower()}@other.example",
                 f"/{sg}/{ss}", f"{sg}-{ss}", f"{sg}.com", f"{ss}@host"]
    text = " ".join(kept)
    assert vault.restore("t", "s", text) == text
    assert _streamed(vault, text, cuts) == text


@PROPERTY
@given(people=persons, layout=layouts, domain=domains, cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_an_address_made_of_the_name_gets_one_made_of_the_stand_in_and_restores_in_any_case(
        people, layout, domain, cuts) -> None:
    vault, redacted, session = _session(people, layout, domain)
    for _, g, s, mail, sg, ss in session:
        stand_in = re.search(rf"{re.escape(sg)} {re.escape(ss)} at (\S+) today", redacted)[1]  # type: ignore[index]
        local = stand_in.partition("@")[0]
        assert local == layout.format(g=sg.lower(), s=ss.lower(), i=sg[0].lower())
        assert stand_in.partition("@")[2] in surrogates.EMAIL_DOMAINS
        for form in (stand_in, stand_in.upper(), stand_in.capitalize(), f"<{stand_in}>", f"{stand_in}."):
            assert vault.restore("t", "s", f"Mail {form}") == f"Mail {form.replace(form.strip('<>.'), mail)}"
        bent = stand_in.replace("@example.", "@mail.example.")
        assert vault.restore("t", "s", bent) == bent
        for other in surrogates.EMAIL_DOMAINS:    # another reserved domain: the local part names one value
            moved = f"{local}@{other}"
            assert vault.restore("t", "s", f"Mail {moved.capitalize()}.") == f"Mail {mail}."
            assert _streamed(vault, f"Mail {moved} now", cuts) == f"Mail {mail} now"
        assert _streamed(vault, f"Mail {stand_in.upper()} now", cuts) == f"Mail {mail} now"


@PROPERTY
@given(people=persons, layout=layouts, domain=domains, cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_an_address_stand_ins_local_part_alone_restores_to_the_address_when_it_joins_two_words(
        people, layout, domain, cuts) -> None:
    """The default model, asked to repeat an address, wrote "Contact Gideon.Ashcombe." (the golden gate's
    pseudonym-email case): a local part of two words joined by "." or "_" names the address alone; one
    word (an everyday word, or a stand-in's name), or one followed by another domain, is left."""
    vault, redacted, session = _session(people, layout, domain)
    for _, _, _, mail, sg, ss in session:
        stand_in = re.search(rf"{re.escape(sg)} {re.escape(ss)} at (\S+) today", redacted)[1]  # type: ignore[index]
        local = stand_in.partition("@")[0]
        bare = "." in local or "_" in local
        if not bare and local.casefold() in (sg.casefold(), ss.casefold()):
            continue   # a one-word local part is the person's stand-in name: that restores as a name
        for form, text in ((local.title(), f"Contact {local.title()}."), (local.upper(), f"Contact {local.upper()} now"),
                           (local, f"({local})")):
            want = text.replace(form, mail) if bare else text
            assert vault.restore("t", "s", text) == want, (text, local)
            assert _streamed(vault, text, cuts) == want
        for kept in (f"{local}@gmail.com", f"x.{local}", f"{local}.x"):
            assert vault.restore("t", "s", kept) == kept


@PROPERTY
@given(people=persons, layout=layouts, domain=domains)
def test_single_names_are_unique_in_the_session_in_any_case_and_not_in_the_prompt(people, layout, domain) -> None:
    _, redacted, session = _session(people, layout, domain)
    prompt = " ".join(f"{t}{g} {s} {m}" for t, g, s, m, _, _ in session).casefold()
    names = [n.casefold() for _, _, _, _, sg, ss in session for n in (sg, ss)]
    assert len(set(names)) == len(names)
    assert not any(n in prompt for n in names)


def test_an_address_not_made_of_the_name_gets_a_stand_in_of_its_own() -> None:
    vault, redacted, session = _session([("", "Anna", "Schmidt")], "{g}", "posteo.de")
    assert session[0][3] == "anna@posteo.de"
    assert f" at {session[0][4].lower()}@example." in redacted
    other = Vault()
    text = "Write to Anna Schmidt at office.berlin@posteo.de today."
    out = _redact(other, text, [("PERSON", "Anna Schmidt"), ("EMAIL_ADDRESS", "office.berlin@posteo.de")])
    given_name, surname = re.search(r"to (\S+) (\S+) at", out).groups()  # type: ignore[union-attr]
    local = re.search(r"at (\S+)@", out)[1]  # type: ignore[index]
    assert given_name.lower() not in local and surname.lower() not in local
    assert other.restore("t", "s", out) == text


phone_layouts = st.sampled_from(["({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "{a} {b} {c}", "{a}{b}{c}",
                                 "+1 {a} {b} {c}", "1-{a}-{b}-{c}", "+1 ({a}) {b}-{c}"])
phones = st.builds(lambda a, b, c, layout: layout.format(a=a, b=b, c=f"{c:04d}"), st.integers(201, 989),
                   st.integers(200, 989), st.integers(0, 9999), phone_layouts)


@PROPERTY
@given(originals=st.lists(phones, min_size=1, max_size=3, unique_by=lambda p: re.sub(r"\D", "", p)[-10:]),
       layouts=st.lists(phone_layouts, min_size=3, max_size=3), cuts=st.lists(st.integers(0, 10_000), max_size=4))
def test_a_phone_stand_in_in_another_layout_restores_and_other_digits_are_left(originals, layouts, cuts) -> None:
    vault = Vault()
    text = " ".join(f"Call {p} now." for p in originals)
    redacted = _redact(vault, text, [("PHONE_NUMBER", p) for p in originals])
    stand_ins = re.findall(r"Call (.+?) now\.", redacted)
    assert len(stand_ins) == len(originals)
    digits = [re.sub(r"\D", "", s)[-10:] for s in stand_ins]
    assert len(set(digits)) == len(digits)          # each stand-in's digits name one value
    answer, expected = [], []
    for original, digit, layout in zip(originals, digits, layouts):
        form = layout.format(a=digit[:3], b=digit[3:6], c=digit[6:])
        # A longer run of digits is another number.
        longer = f"{form}5"
        answer.append(f"Ring {form}, not {digit}7 nor x{digit} nor {longer}.")
        expected.append(f"Ring {original}, not {digit}7 nor x{digit} nor {longer}.")
    whole = " ".join(answer)
    assert vault.restore("t", "s", whole) == " ".join(expected)
    assert _streamed(vault, whole, cuts) == " ".join(expected)
    assert vault.restore("t", "s", redacted) == text


def test_a_local_part_two_addresses_share_restores_only_as_written() -> None:
    """One person, two addresses made of the name: two stand-ins with one local part on two domains; each
    restores as written, the local part on the third domain names neither and is left."""
    vault = Vault()
    text = "Write to Anna Schmidt at anna.schmidt@posteo.de or anna.schmidt@gmx.net today."
    redacted = _redact(vault, text, [("PERSON", "Anna Schmidt"), ("EMAIL_ADDRESS", "anna.schmidt@posteo.de"),
                                     ("EMAIL_ADDRESS", "anna.schmidt@gmx.net")])
    first, second = re.search(r"at (\S+) or (\S+) today", redacted).groups()  # type: ignore[union-attr]
    assert first.partition("@")[0] == second.partition("@")[0] and first != second
    assert vault.restore("t", "s", f"{first.upper()} {second}") == "anna.schmidt@posteo.de anna.schmidt@gmx.net"
    (third,) = {d for d in surrogates.EMAIL_DOMAINS} - {first.partition("@")[2], second.partition("@")[2]}
    left = f"{first.partition('@')[0]}@{third}"
    assert vault.restore("t", "s", left) == left


def test_an_address_takes_the_given_name_after_a_word_too_many_in_the_span() -> None:
    vault = Vault()
    text = "Tell Aiko Tanaka at aiko.tanaka@mailbox.org that it moved."
    redacted = _redact(vault, text, [("PERSON", "Tell Aiko Tanaka"), ("EMAIL_ADDRESS", "aiko.tanaka@mailbox.org")])
    _, given_name, surname, mail = re.search(r"^(\S+) (\S+) (\S+) at (\S+) that", redacted).groups()  # type: ignore[union-attr]
    assert mail.partition("@")[0] == f"{given_name.lower()}.{surname.lower()}"
    assert vault.restore("t", "s", f"Dear {given_name}, {mail}") == "Dear Aiko, aiko.tanaka@mailbox.org"
