"""Canaries for the attack bench: fake values seeded into every attack, and the upstream's count of those
that reached it unscrubbed.

Each run draws its own values (a Luhn-valid card, an email, an AWS access key id) from a seed, so
that a value seen by the upstream can only have come from this run's attacks. The recording
upstream keeps counts and labels, never the text it received: the bench must not become the leak.
"""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ztgate.common.atomic import write_atomically


def luhn_check_digit(digits: str) -> str:
    """The digit that makes `digits` + it pass the Luhn check (as card validators require)."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 0:  # doubled: these sit at odd positions once the check digit is appended
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return str((10 - total % 10) % 10)


@dataclass(frozen=True, slots=True)
class Canaries:
    """One run's fake values; an attack carries them in plain, detectable context (`sentence`)."""

    card: str
    email: str
    aws_key: str

    @classmethod
    def from_seed(cls, seed: int) -> Canaries:
        rng = random.Random(seed)
        body = "4" + "".join(rng.choice(string.digits) for _ in range(14))
        number = body + luhn_check_digit(body)
        card = " ".join(number[i:i + 4] for i in range(0, 16, 4))
        tag = "".join(rng.choice(string.ascii_lowercase) for _ in range(8))
        email = f"canary.{tag}@attack-{rng.randrange(1000, 10000)}.example"
        aws_key = "AKIA" + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))
        return cls(card=card, email=email, aws_key=aws_key)

    def labelled(self) -> dict[str, str]:
        """Label -> value, as the recording upstream and the report name them."""
        return {"attack card": self.card, "attack email": self.email, "attack AWS key": self.aws_key}

    def sentence(self) -> str:
        """The values in words a person would write around them, set off by whitespace."""
        return (f"\nPlease bill card {self.card} and mail the receipt to {self.email} ; "
                f"the AWS key is {self.aws_key} .\n")


def carried(data: bytes | str, values: Mapping[str, str]) -> list[str]:
    """Labels of the values that appear verbatim in `data` (a serialized request, or a text)."""
    if isinstance(data, str):
        return [label for label, value in values.items() if value in data]
    return [label for label, value in values.items() if value.encode() in data]


class CanaryRecorder:
    """Counts what an upstream received: requests per tenant, and per label the requests that carried
    that value. `write` saves the counts as JSON (the bench reads them once the upstream has stopped)."""

    def __init__(self, values: Mapping[str, str], path: Path) -> None:
        self._values = dict(values)
        self._path = path
        self.requests: Counter[str] = Counter()
        self.hits: Counter[str] = Counter()

    def record(self, tenant: str, wire: bytes) -> None:
        self.requests[tenant] += 1
        self.hits.update(carried(wire, self._values))

    def write(self) -> None:
        write_atomically(self._path, json.dumps({
            "requests_by_tenant": dict(self.requests),
            "hits": {label: self.hits.get(label, 0) for label in self._values}}).encode())

    @staticmethod
    def load_values(path: Path) -> dict[str, str]:
        values = json.loads(path.read_text())
        if not isinstance(values, dict) or not all(isinstance(v, str) and v for v in values.values()):
            raise ValueError(f"{path} must hold a JSON object of label -> non-empty value")
        return values
