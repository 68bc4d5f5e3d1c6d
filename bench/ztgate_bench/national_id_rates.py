"""False-positive rate of each national-identifier validator on random strings of its layout (ADR 0020).

A valid value of each kind (``national_ids.KINDS``) is taken as the layout; every digit is replaced by a random
digit and every letter by a random capital (the fixed parts of a layout kept: the AHV's 756, the NIE's and the
NRIC's series letter, the Taiwanese ID's sex digit), and the share the validator accepts is the rate at which a
random number written in that layout would be read as an identifier. ``python -m ztgate_bench.national_id_rates
[N]`` prints one line per kind (N strings each, default 100000, seed 20).
"""

from __future__ import annotations

import random
import string
import sys

from ztgate.redaction.detection.patterns.national_ids import NATIONAL_ID_VALIDATORS
from ztgate_bench.national_ids import KINDS, pair

_FIXED = {"ahv": 3}  # leading characters kept as they are
_CLASS_AT = {"nie": {0: "XYZ"}, "nric": {0: "STFG"}, "taiwan_id": {1: "1289"}}


def random_like(kind_name: str, layout: str, rng: random.Random) -> str:
    out = []
    classes = _CLASS_AT.get(kind_name, {})
    for i, c in enumerate(layout):
        if i < _FIXED.get(kind_name, 0):
            out.append(c)
        elif i in classes:
            out.append(rng.choice(classes[i]))
        elif c.isdigit():
            out.append(rng.choice(string.digits))
        elif c.isalpha() and c.isascii():
            out.append(rng.choice(string.ascii_uppercase))
        else:
            out.append(c)
    return "".join(out)


def rates(n: int, seed: int = 20) -> list[tuple[str, str, bool, float]]:
    rng = random.Random(seed)
    found = []
    for kind in KINDS:
        layout, _ = pair(kind, rng)
        check = NATIONAL_ID_VALIDATORS[kind.validator]
        hits = sum(bool(check(random_like(kind.name, layout, rng))) for _ in range(n))
        found.append((kind.name, kind.country, kind.labelled, hits / n))
    return found


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    print(f"| identifier | country | label required | accepted of {n} random strings of its layout |")
    print("|---|---|---|---|")
    for name, country, labelled, rate in rates(n):
        print(f"| {name} | {country} | {'yes' if labelled else 'no'} | {rate:.3%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
