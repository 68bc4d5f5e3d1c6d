"""Both sides of the text-wide rules ``knowledge_requests`` and ``travel_places`` (issue #29), on generated
families of invented names and places:

    python -m ztgate_bench.knowledge_family

* ``KNOWLEDGE``: knowledge requests about a person on no list, with no private evidence anywhere (a deed, a
  work, a prize, a record, an era, an epithet): the default policy should keep the name.
* ``THIN_A`` / ``THIN_B``: a private person asked about with little evidence (what they said about the budget,
  their e-mail, a meeting, a request): the name must be hidden. ``THIN_A`` was read while the rule's private
  cues were written; ``THIN_B`` was written at the same time and only reported.
* ``EVIDENCE``: a knowledge request followed by a sentence of private evidence about the same name (a
  relation, a contact value, a self-introduction, a booking): hidden.
* ``TRAVEL`` (kept) and ``RESIDENCE`` (hidden): a town on no list after a travel frame, and the same town where
  it is a home or the text holds private evidence.

Each template is filled with every pairing of the invented given names and surnames below (no real person; the
unit tests assert no tuning corpus holds them); a detection is built by hand on every mention (no spaCy: what is
measured is what the policy does with what was found). Only counts and templates are printed.
"""

from __future__ import annotations

import argparse
import itertools
import re

GIVEN = ("Tavrin", "Olumbe", "Sekvana", "Drumold", "Ilvarra", "Quessa", "Barnick", "Yorvenna", "Castrel", "Emblin")
SURNAMES = ("Vorquist", "Halbrenna", "Osterwyck", "Truvalli", "Mennasco", "Ghelvane", "Ruddimoor", "Paskorel",
            "Lindqvarr", "Zeferanne")
PLACES = ("Vellmarck", "Ostrigny", "Quarnholt", "Bressaval", "Torvenna", "Kellisande", "Marrowick", "Fiorvale")

KNOWLEDGE = (
    "What did {n} discover about the orbits of comets?",
    "Which empire did {n} found in the 14th century?",
    "What did {n} achieve at the 1964 Olympics?",
    "Which element did {n} isolate, and which prize did she receive for it?",
    "Why is {n}'s 1911 expedition remembered?",
    "Which programming language did {n} design in 1983?",
    "Explain the theory of heat that {n} proposed.",
    "Compare the painting styles of {n} and {m}.",
    "Which dynasty did {n} rule, and what is her legacy?",
    "Which record did {n} set in the marathon in 1999?",
    "Is it true that the dish was named after {n}?",
    "Which city did {first} the Conqueror capture?",
    "What is {first} the Navigator known for?",
)
THIN_A = (
    "What did {n} say about the budget?",
    "Summarise {n}'s e-mail about the delivery delay.",
    "Why did {n} reject the proposal?",
    "Is {n} coming to the offsite?",
    "What did {n} discover in the quarterly figures?",
    "What did {n} achieve in her first year in the sales team?",
    "Who was {n} talking to at reception?",
    "What did {n} tell the client?",
    "Draft a reply to {n}'s complaint about the invoice.",
    "When is {n}'s presentation?",
)
THIN_B = (
    "What did {n} decide at the meeting this morning?",
    "Why was {n} so angry about the new schedule?",
    "Can you summarise the notes {n} wrote after the call?",
    "What does {n} think about the contract?",
    "Has {n} approved the leave request yet?",
    "Explain what {n} meant in the group chat.",
    "Which vendor did {n} pick for the office party?",
    "What did {n} win in the raffle at work?",
    "Tell me about {n}'s plan for the warehouse move.",
    "Why is {n} still waiting for the invoice?",
    "Compare {n}'s quote with the other two.",
    "What did {n} want to know about her salary?",
)
EVIDENCE = (
    "What did {n} discover about comets? {n} is my colleague.",
    "Which prize did {n} win in 1971? Please write to {n} at {mail}@example.org.",
    "What did {n} achieve at the 1964 Olympics? Call {n} on +44 20 7946 0958.",
    "Which empire did {n} found? I'm {n}, by the way.",
    "Which record did {n} set in 1999? Booking reference for {n}: QX48211.",
    "Why is {n}'s 1911 expedition remembered? My son {n} asked.",
    "Which dynasty did {n} rule?\n\nBest regards,\n{n}",
    "Dear {n}, which element did you isolate in 1898?",
)
TRAVEL = (
    "We're staying in {p} for three days: what is the town famous for?",
    "We're spending a night in {p}: what should we see?",
    "Can we hike to {p} in a day?",
    "Planning a trip to {p}: which museums are worth it?",
    "Two nights in {p}: is the old town walkable?",
    "We're visiting {p}: what is special about its bridge?",
)
RESIDENCE = (
    "We live in {p}: what is the town famous for?",
    "My mother is staying in {p} for three days.",
    "I was born in {p}; what is the town famous for?",
    "My landlord is spending a night in {p}: what should he see?",
    "Planning a trip to {p}: my booking reference is QX48211.",
    "We're staying in {p} with my colleague Ana; call me on +44 20 7946 0958.",
)
PERSON_FAMILIES = {"knowledge requests (kept by design)": KNOWLEDGE,
                   "thin private A (cues written from it)": THIN_A,
                   "thin private B (reported only)": THIN_B,
                   "knowledge request + private evidence": EVIDENCE}
PLACE_FAMILIES = {"travel frames (kept by design)": TRAVEL, "residence or private evidence": RESIDENCE}


def names() -> list[tuple[str, str]]:
    """Every (given name, surname) pairing."""
    return list(itertools.product(GIVEN, SURNAMES))


# The second person of a comparison (in no pool: it never counts as the first one kept).
OTHER = "Prosk Vandemeer"


def fill(template: str, given: str, surname: str) -> str:
    """The template with the person's full name, given name, a second person and a mail local part."""
    return template.format(n=f"{given} {surname}", first=given, m=OTHER,
                           mail=f"{given.lower()}.{surname.lower()}")


def person_spans(text: str, given: str, surname: str) -> list[tuple[int, int]]:
    """Every mention of the full name, of the given name alone where no full name holds it, and of ``OTHER``."""
    full = [(m.start(), m.end()) for m in re.finditer(re.escape(f"{given} {surname}"), text)]
    alone = [(m.start(), m.end()) for m in re.finditer(rf"\b{re.escape(given)}\b", text)
             if not any(a <= m.start() < b for a, b in full)]
    other = [(m.start(), m.end()) for m in re.finditer(OTHER, text)]
    return full + alone + other


def kept_counts(policy_name: str = "default") -> dict[str, tuple[int, int]]:
    """Per family: (names or places kept, texts) under the named policy."""
    from ztgate.redaction.anonymising.anonymize import redact
    from ztgate.redaction.anonymising.operators import Operators
    from ztgate.redaction.policies import PolicyStore
    from ztgate.redaction.types import Detection

    policy = PolicyStore.load().get(policy_name)
    operators = Operators()
    out: dict[str, tuple[int, int]] = {}
    for label, templates in PERSON_FAMILIES.items():
        kept = total = 0
        for template in templates:
            for given, surname in names():
                text = fill(template, given, surname)
                found = [Detection("PERSON", a, b, 0.85, "SpacyRecognizer") for a, b in person_spans(text, given, surname)]
                result = redact(text, found, policy, None, None, None, operators=operators).text
                kept += given in result or surname in result
                total += 1
        out[label] = (kept, total)
    for label, templates in PLACE_FAMILIES.items():
        kept = total = 0
        for template in templates:
            for place in PLACES:
                text = template.format(p=place)
                spans = [Detection("LOCATION", m.start(), m.end(), 0.85, "SpacyRecognizer")
                         for m in re.finditer(place, text)]
                result = redact(text, spans, policy, None, None, None, operators=operators).text
                kept += place in result
                total += 1
        out[label] = (kept, total)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policy", default="default")
    args = parser.parse_args()
    for label, (kept, total) in kept_counts(args.policy).items():
        print(f"{label}: {kept}/{total} kept")


if __name__ == "__main__":
    main()
