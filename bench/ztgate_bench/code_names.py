"""Names of private persons in code comments and technical text, and clean technical text beside them: a check
of tier 2's evidence about persons on technical lines, both sides at once.

Two splits with their own templates and their own Faker seeds and locales: ``tune`` is what the evidence was
tuned on, ``holdout`` (other wordings and shapes) is only reported on. A person document leaks when the
person's surname survives redaction; a clean document is altered when anything in it changes. Run in process
with the redaction service's code under the default policy:

    python -m ztgate_bench.code_names --split holdout

Only counts are printed, never a document.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from faker import Faker

SPLITS = {
    "tune": {"seed": 101, "locales": ("en_US", "de_DE", "pl_PL", "it_IT", "sv_SE", "es_ES")},
    "holdout": {"seed": 202, "locales": ("en_GB", "nl_NL", "fr_FR", "cs_CZ", "fi_FI", "pt_BR", "tr_TR", "da_DK")},
}

# Person documents: {name} is a private person's full name.
PERSON_TEMPLATES = {
    "tune": (
        "    # {name} says this path is hot\n    return cache[key]\n",
        "| owner | {name} |\n| service | billing |\n",
        "def flush():  # per {name}, the lead engineer\n    pass\n",
        "# Copyright (c) 2021 {name}\nimport os\n",
        "# {name} wrote this parser; ask before changing\nparse(x)\n",
        "timeout = 30  // {name} (SRE) approved the timeout\n",
        "# Thanks to {name} for the benchmark\nrun()\n",
        "    x = retry(3)  # {name} suggested three retries\n",
    ),
    "holdout": (
        "    // {name} thinks we should cache this\n    return load(id);\n",
        "/* Maintainer: {name} */\nint main(void);\n",
        "# according to {name}, our DBA, the index is unused\nDROP INDEX idx_a;\n",
        "-- {name} asked for this view\nSELECT id FROM orders;\n",
        "# (c) 2019-2023 {name}\nset -e\n",
        "#   {name}, tech lead, owns this module\nfrom x import y\n",
        "| author | {name} |\n|---|---|\n| version | 1.2 |\n",
        "    // {name} reported the race in March\n    lock.acquire();\n",
        "# reviewed by {name} on 2024-05-02\nexport PATH\n",
        "    pass  # {name} knows why this is here\n",
    ),
}

# Clean technical documents: capitalised tools, products and bots ({tool}) in the same frames, no person.
CLEAN_TEMPLATES = {
    "tune": (
        "    # {tool} says the error rate doubled\n    alert()\n",
        "| owner | platform-team |\n| service | billing |\n",
        "def get():  # per RFC 7231, GET is safe\n    pass\n",
        "# Copyright (c) 2021 The Apache Software Foundation\nimport os\n",
        "# {tool} wrote this bump; CI approved it\nbump()\n",
        "region = 'eu-west-2'  # London region, approved by the SRE team\n",
        "# Thanks to {tool} for the shrinking\nrun()\n",
        "    x = retry(3)  # {tool} suggested three retries\n",
    ),
    "holdout": (
        "    // {tool} thinks the panel is stale\n    return load(id);\n",
        "/* Maintainer: the storage team */\nint main(void);\n",
        "# according to {tool}, the index is unused\nDROP INDEX idx_a;\n",
        "-- Finance asked for this view\nSELECT id FROM orders;\n",
        "# (c) 2019-2023 Acme Corp\nset -e\n",
        "#   Team Phoenix owns this module\nfrom x import y\n",
        "| author | release-bot |\n|---|---|\n| version | 1.2 |\n",
        "    // {tool} reported the race in March\n    lock.acquire();\n",
        "# reviewed by {tool} on 2024-05-02\nexport PATH\n",
        "    pass  # {tool} knows why this is here\n",
    ),
}
TOOLS = {
    "tune": ("Sentry", "Dependabot", "Hypothesis", "Kubernetes", "Terraform", "Ansible", "Redis", "Nginx",
             "Prometheus", "Datadog"),
    "holdout": ("Grafana", "Postgres", "Valgrind", "Copilot", "Renovate", "Snyk", "Kafka", "Vercel", "PagerDuty",
                "SonarQube", "Clippy", "Mypy"),
}


@dataclass(frozen=True, slots=True)
class Figures:
    split: str
    person_docs: int
    surnames_leaked: int
    clean_docs: int
    clean_altered: int


def documents(split: str, per_template: int = 12) -> tuple[list[tuple[str, str]], list[str]]:
    """(document, surname) pairs of private persons in technical text, and clean technical documents."""
    spec = SPLITS[split]
    rng = random.Random(spec["seed"])
    fakers = [Faker(locale) for locale in spec["locales"]]
    for i, faker in enumerate(fakers):
        faker.seed_instance(spec["seed"] + i)
    persons: list[tuple[str, str]] = []
    for template in PERSON_TEMPLATES[split]:
        for _ in range(per_template):
            faker = rng.choice(fakers)
            first, last = faker.first_name(), faker.last_name()
            persons.append((template.format(name=f"{first} {last}"), last))
    clean = sorted({template.format(tool=tool) for template in CLEAN_TEMPLATES[split] for tool in TOOLS[split]})
    return persons, clean


def measure(split: str, redact: Callable[[str], str]) -> Figures:
    persons, clean = documents(split)
    leaked = sum(surname in redact(doc) for doc, surname in persons)
    altered = sum(redact(doc) != doc for doc in clean)
    return Figures(split, len(persons), leaked, len(clean), altered)


def markdown(rows: Sequence[Figures]) -> str:
    lines = ["| split | surnames surviving | clean technical documents altered |", "|---|---:|---:|"]
    for f in rows:
        lines.append(f"| {f.split} | {f.surnames_leaked}/{f.person_docs} ({100 * f.surnames_leaked / f.person_docs:.1f}%) "
                     f"| {f.clean_altered}/{f.clean_docs} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=list(SPLITS), nargs="+", default=list(SPLITS))
    args = parser.parse_args()
    from ztgate_bench.utility_bench import ztgate_redactor
    redact = ztgate_redactor("default")
    print(markdown([measure(split, redact) for split in args.split]))


if __name__ == "__main__":
    main()
