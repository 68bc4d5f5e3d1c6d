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
* ``IMPERATIVE`` (kept) and ``THIN_C`` (hidden): imperative requests about a lone figure and a sporting
  affiliation, and a private person in the same frames with one private cue; ``TRAVEL_QUESTION`` and ``SEAT``
  (kept), ``SEAT_PRIVATE`` (hidden): a town in a traveller's question or as a trading company's seat, and the same
  frames naming a person's partner or home (issue #29's round of ``utility-tune-8``).

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
# Issue #29's next round (``utility-tune-8``'s classes), in forms and names of their own:
# ``IMPERATIVE``: a lone figure as the subject of an imperative knowledge request, and a sporting affiliation
# asked about (kept); ``THIN_C``: a private person in the same frames with a private cue (hidden).
IMPERATIVE = (
    "Explain why {n} is still remembered today.",
    "Tell me why {n} is still admired today.",
    "Tell me about {n}.",
    "Give me a short account of {n}'s revolt against the empire.",
    "Which country did {n} represent at the Olympics?",
    "Which club did {n} play for?",
    "What sport did {n} dominate in the 1970s?",
)
THIN_C = (
    "Explain why my colleague {n} is still remembered at the office.",
    "Explain why {n} is still upset today.",
    "Tell me about {n}'s plan for the warehouse.",
    "Tell me about {n}. She starts on Monday in the sales team.",
    "Which team did {n} play for in the office league?",
    "Which country did our sales rep {n} represent at the dealer meeting?",
    "Tell me why {n} is still annoyed about the invoice.",
    "Give me a short account of {n}'s argument at the stand-up.",
)
# ``TRAVEL_QUESTION`` and ``SEAT``: a place after a traveller's question or as a trading company's seat (kept);
# ``SEAT_PRIVATE``: the same place as a person's home or with a private person's cue (hidden).
TRAVEL_QUESTION = (
    "Where should we stay if we want quiet beaches near {p}?",
    "Is it worth taking the train from {p} to the coast?",
    "Which villages around {p} can we walk to?",
    "Is {p} a good base for exploring the valleys? Or is a day trip from {p} enough?",
)
SEAT = (
    "Draft an e-mail to our supplier in {p} about meeting at the fair.",
    "Write to the toolmaker in {p} about their new price list.",
    "Write an e-mail to our partner in {p} asking for samples.",
    "Draft a letter to our distributor based in {p} confirming the order.",
)
SEAT_PRIVATE = (
    "Draft an e-mail to my partner in {p} about the weekend.",
    "Write to their partner in {p}; she lives at 4 Mill Street.",
    "My supplier lives in {p}; write to her at ana@example.org.",
    "Draft an e-mail to my sister in {p} about meeting at the fair.",
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
# Issue #29, the user's own details beside a question (docs/adr/0037): ``OWNED_ELSEWHERE``, a knowledge request and
# a sentence of private evidence that names its own owner (the writer, a colleague, the addressee): the name is
# kept, the owner hidden; ``POINTS_BACK``, evidence in another sentence that may speak of the name (a pronoun
# before the owner, a word of the name, no owner at all): hidden.
OWNERS = ("Ulvine Carrodale", "Jossa Penvellyn", "Brannoch Idderley")
OWNED_ELSEWHERE = (
    "What did {n} discover about the orbits of comets? My colleague {o} needs this by Friday; her number is "
    "+44 20 7946 0958.",
    "Which empire did {n} found in the 14th century? I'm {o}, born 03/09/1976.",
    "Which programming language did {n} design in 1983? Please send the answer to {o} at {omail}@example.org.",
    "Explain the theory of heat that {n} proposed. Our landlord {o} lives at 17 Quarry Lane and asked about it.",
    "Which record did {n} set in the marathon in 1999?\nMy name is {o}; booking reference QX48211.",
    "Why is {n}'s 1911 expedition remembered? Dr. {o} asked me; reply to {omail}@example.org.",
)
POINTS_BACK = (
    "What did {n} discover about the orbits of comets? She told my colleague {o} on Friday.",
    "Which prize did {n} win in 1971? My colleague {o} is {first}'s sister; call +44 20 7946 0958.",
    "Which empire did {n} found in the 14th century? My number is +44 20 7946 0958.",
    "Which programming language did {n} design in 1983? I'm {o}, and {first} was my aunt.",
    "What did {n} achieve at the 1964 Olympics? Call {first} on +44 20 7946 0958, says my colleague {o}.",
    "Explain the theory of heat that {n} proposed. Her address is 17 Quarry Lane, my colleague {o} says.",
)
PERSON_FAMILIES = {"knowledge requests (kept by design)": KNOWLEDGE,
                   "thin private A (cues written from it)": THIN_A,
                   "thin private B (reported only)": THIN_B,
                   "knowledge request + private evidence": EVIDENCE,
                   "imperative and sporting requests (kept by design)": IMPERATIVE,
                   "thin private C, same frames (hidden)": THIN_C,
                   "knowledge request + evidence owned by someone else named (kept by design)": OWNED_ELSEWHERE,
                   "knowledge request + evidence that may point back (hidden)": POINTS_BACK}
PLACE_FAMILIES = {"travel frames (kept by design)": TRAVEL, "residence or private evidence": RESIDENCE,
                  "travel questions (kept by design)": TRAVEL_QUESTION,
                  "trading company's seat (kept by design)": SEAT,
                  "a person's partner or home in the seat's frames (hidden)": SEAT_PRIVATE}


def names() -> list[tuple[str, str]]:
    """Every (given name, surname) pairing."""
    return list(itertools.product(GIVEN, SURNAMES))


# The second person of a comparison (in no pool: it never counts as the first one kept).
OTHER = "Prosk Vandemeer"


def fill(template: str, given: str, surname: str, owner: str = OWNERS[0]) -> str:
    """The template with the person's full name, given name, a second person, a mail local part, and the owner of
    private evidence (``OWNED_ELSEWHERE``) with theirs."""
    return template.format(n=f"{given} {surname}", first=given, m=OTHER,
                           mail=f"{given.lower()}.{surname.lower()}", o=owner,
                           omail=owner.lower().replace(" ", "."))


def person_spans(text: str, given: str, surname: str) -> list[tuple[int, int]]:
    """Every mention of the full name, of the given name alone where no full name holds it, of ``OTHER`` and of
    the ``OWNERS`` (private persons a recognizer finds)."""
    full = [(m.start(), m.end()) for m in re.finditer(re.escape(f"{given} {surname}"), text)]
    alone = [(m.start(), m.end()) for m in re.finditer(rf"\b{re.escape(given)}\b", text)
             if not any(a <= m.start() < b for a, b in full)]
    other = [(m.start(), m.end()) for name in (OTHER, *OWNERS) for m in re.finditer(name, text)]
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
