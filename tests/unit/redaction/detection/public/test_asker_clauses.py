"""The asker's own contact or identity value in a clause of its own does not tie a public question's name in
another clause of the same sentence (``_private_context.asker_scoped``, docs/adr/0042): "Email me at ADDRESS: who
was NAME?" keeps NAME whenever "Who was NAME?" alone keeps it, over clause separators, contact kinds, request
lead-ins in several languages and the public figures of the project's own list; and a tie that is the person's
own ("Email NAME at ADDRESS: she lives in TOWN") still hides the person, the value and the town. Generated
families; the production analyzer and default policy (one per module), and the clause rule on its own."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._private_context import asker_scoped
from ztgate_bench.utility_bench import ztgate_redactor

REDACT = ztgate_redactor("default")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Public figures of the project's own list (``data/public/public_figures.txt``), two words or more.
FIGURES = sorted(line for line in read_lines("public_figures.txt") if line and not line.startswith("#") and " " in line)
QUESTIONS = ("who was {n}?", "what is {n} known for?", "when was {n} born?", "why is {n} famous?")
# The asker's own clause: (lead-in with the value, the value); the separator comes after it.
CONTACTS = (
    ("Email me at {v}", "jo.pike@example.com"), ("Call me on {v}", "07700 900123"),
    ("My number is {v}", "+49 170 3382914"), ("Text me at {v}", "+1 415 555 0134"),
    ("My IBAN is {v}", "DE89 3704 0044 0532 0130 00"), ("Schreib mir an {v}", "k.osei@example.net"),
    ("Mi teléfono es {v}", "+34 612 345 678"), ("Mail mij op {v}", "p.dekker@example.nl"),
    ("Écrivez-moi à {v}", "c.morvan@example.fr"), ("Reach me on {v}", "+44 20 7946 0958"),
)
SEPARATORS = (": ", " — ", "; ", " - ", " – ", "—")


def _value_hidden(value: str, out: str) -> bool:
    return value not in out and value.split()[-1] not in out


@SETTINGS
@given(name=st.sampled_from(FIGURES), question=st.sampled_from(QUESTIONS), contact=st.sampled_from(CONTACTS),
       sep=st.sampled_from(SEPARATORS), bracket=st.booleans())
def test_the_askers_contact_in_a_clause_of_its_own_leaves_the_question_its_public_name(
        name: str, question: str, contact: tuple[str, str], sep: str, bracket: bool):
    asked = question.format(n=name)
    lead, value = contact
    text = (f"{lead.format(v=f'({value})')} {asked}" if bracket
            else f"{lead.format(v=value)}{sep}{asked}")
    out = REDACT(text)
    assert _value_hidden(value, out), (text, out)
    clean = REDACT(asked[0].upper() + asked[1:])
    if name in clean:  # the rule is about the contact, not about what the lists keep on their own
        assert name in out, (text, out)


# A tie that is the person's own: the person, their value and their town in the clauses before the question.
TIES = (
    "Email {p} at {v}: she lives in {t}. {q}",
    "Call {p} on {v} — he lives in {t}; {q}",
    "{p} ({v}) moved to {t} — {q}",
    "Write to {p} at {v}; her flat is in {t}: {q}",
    "Call me on {v}: I live in {t}, {q}",
)
PERSONS = ("Anna Bergqvist", "Declan Furey", "Tomasz Wierzbicki", "Mireille Castagnet")
TOWNS = ("Uppsala", "Galway", "Bielefeld", "Nantes", "Winterthur", "Leeds", "Porto", "Gdańsk")


@SETTINGS
@given(frame=st.sampled_from(TIES), person=st.sampled_from(PERSONS), town=st.sampled_from(TOWNS),
       contact=st.sampled_from(CONTACTS), question=st.sampled_from(QUESTIONS), name=st.sampled_from(FIGURES))
def test_a_tie_that_is_the_persons_own_still_hides_the_person_the_value_and_the_town(
        frame: str, person: str, town: str, contact: tuple[str, str], question: str, name: str):
    value = contact[1]
    text = frame.format(p=person, v=value, t=town, q=question.format(n=name))
    out = REDACT(text)
    assert _value_hidden(value, out) and town not in out, (text, out)
    if "{p}" in frame:
        assert person.split()[-1] not in out, (text, out)


# The clause rule on its own: which clauses of the sentence are the asker's.
_ASKER = "Call me on 07700 900123"


@settings(max_examples=40, deadline=None)
@given(sep=st.sampled_from(SEPARATORS), question=st.sampled_from(QUESTIONS), name=st.sampled_from(FIGURES))
@example(sep=": ", question="who was {n}?", name="J. R. R. Tolkien")  # initials end no clause
@example(sep=": ", question="when was {n} born?", name="John F. Kennedy")
def test_only_the_askers_clause_is_blanked_and_offsets_hold(sep: str, question: str, name: str):
    text = f"{_ASKER}{sep}{question.format(n=name)}"
    start = text.index(name)
    scoped = asker_scoped(text, start, start + len(name))
    assert len(scoped) == len(text) and "07700" not in scoped and scoped[start:] == text[start:], (text, scoped)


@settings(max_examples=40, deadline=None)
@given(sep=st.sampled_from(SEPARATORS), name=st.sampled_from(FIGURES), frame=st.sampled_from((
    "{a}{s}where does she say {n} lived?",    # a pronoun before the name in its clause points at a person
    "{a}{s}my friend {n} is the one I mean.",  # the name's clause does not ask
    "Call her on 07700 900123{s}who was {n}?",  # the value's clause names a third person
    "Call {n} on 07700 900123{s}who was {n}?",  # the value's clause holds the name itself
)))
@example(sep=": ", name="Martin Luther King Jr.", frame="Call {n} on 07700 900123{s}who was {n}?")
def test_a_clause_that_may_speak_of_the_name_is_left_as_it_is(sep: str, name: str, frame: str):
    text = frame.format(a=_ASKER, s=sep, n=name)
    start = text.rindex(name)
    assert asker_scoped(text, start, start + len(name)) == text, text


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(FIGURES), value=st.sampled_from([c[1] for c in CONTACTS]),
       sep=st.sampled_from(("(", " — ", ": ")))
def test_a_value_right_after_a_mention_of_the_name_is_the_names(name: str, value: str, sep: str):
    text = f"What are {name}'s best works, asked {name}{sep}{value}{')' if sep == '(' else ''} today?"
    start = text.index(name)
    assert asker_scoped(text, start, start + len(name)) == text, text
