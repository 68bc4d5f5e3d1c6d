"""Private persons in encyclopedic question frames: how many names the default policy keeps that it should not
(``encyclopedic_persons``, issue #29), on generated families of invented names. Both sides of that list's trade:

    python -m ztgate_bench.encyclopedic_family

Each template is filled with every pairing of the invented given names and surnames below (144 names, no real
person; the unit tests assert no tuning corpus and no golden case holds them); a PERSON detection is built by
hand on every mention of the name (no spaCy: what is measured is what the policy does with a person found), and
the name is *kept* when it survives redaction. ``PRIVATE_A`` was read while the list's private-evidence words
were written; ``PRIVATE_B`` was written at the same time and only reported; ``BARE`` holds frames with no
private cue at all, which the list keeps by design. Only counts and templates are printed.
"""

from __future__ import annotations

import argparse
import itertools

GIVEN = ("Zorvel", "Quilla", "Ostrek", "Mardena", "Pellion", "Vintra", "Kalvo", "Dresna", "Ulvar", "Brannoc",
         "Ysolvi", "Corvant")
SURNAMES = ("Zorvath", "Quilleran", "Ostrevik", "Mardenau", "Pellucor", "Vintaresh", "Kalvoran", "Dresmoor",
            "Ulvaris", "Brannochy", "Ysoldane", "Fenwraith")

PRIVATE_A = (
    "When did {n} sign the lease? She lives at 14 Elm Road.",
    "Why is {first} late again? my manager asked.",
    "What did {n} win in the raffle at work?",
    "Who was {n}? I found her name on an old letter in the attic.",
    "Tell me about {n}. He applied for the job last week.",
    "What is {n} known for in the neighbourhood?",
    "How many medals did {n} win at the school sports day?",
    "When did {n} die? The funeral is on Friday.",
    "Why is {n} famous on TikTok? She goes to my school.",
    "What did {n} discover in the audit?",
)
PRIVATE_B = (
    "Tell me about {n}, the new hire in accounting.",
    "When did {n} become famous? He is a local baker in Leeds.",
    "Which award did {n} win at our company party?",
    "Who was {n}? He was my great-grandfather.",
    "Why is {n} so well known in the village?",
    "What did {n} invent for the science fair at her school?",
    "How many races did {n} win this season at the club?",
    "Who was {n}? The name is on the contract I found.",
    "What made {n} famous among the nurses on ward 4?",
    "Describe {n}'s achievements for the performance review.",
    "When did {n} climb Snowdon? Please reply to the thread.",
    "Which house did {n} build? The neighbours complained.",
)
BARE = (
    "When did {n} die?",
    "Who was {n}?",
    "Tell me about {n}.",
    "What did {n} win?",
    "Why is {n} famous?",
)
FAMILIES = {"private A (vocabulary written from it)": PRIVATE_A, "private B (reported only)": PRIVATE_B,
            "bare frames (no private cue)": BARE}


def names() -> list[tuple[str, str]]:
    return list(itertools.product(GIVEN, SURNAMES))


def kept(template: str, policy_name: str) -> int:
    """How many of the invented names survive redaction in template under the policy."""
    from ztgate.redaction.anonymising.anonymize import redact
    from ztgate.redaction.anonymising.operators import Operators
    from ztgate.redaction.policies import PolicyStore
    from ztgate.redaction.types import Detection

    policy = PolicyStore.load().get(policy_name)
    operators = Operators()
    count = 0
    for given, surname in names():
        value = given if "{first}" in template else f"{given} {surname}"
        text = template.format(n=f"{given} {surname}", first=given)
        detections = []
        start = text.find(value)
        while start >= 0:
            detections.append(Detection("PERSON", start, start + len(value), 0.9, "SpacyRecognizer"))
            start = text.find(value, start + 1)
        count += value in redact(text, detections, policy, None, None, None, operators=operators).text
    return count


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    per_name = len(names())
    print("| family | templates | names kept, default | names kept, strict |")
    print("|---|---:|---:|---:|")
    details = []
    for label, family in FAMILIES.items():
        default = [kept(t, "default") for t in family]
        strict = sum(kept(t, "strict") for t in family)
        total = per_name * len(family)
        print(f"| {label} | {len(family)} | {sum(default)}/{total} | {strict}/{total} |")
        details += [f"kept {k}/{per_name}: {t}" for t, k in zip(family, default) if k]
    print("\n".join(["", *details]) if details else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
