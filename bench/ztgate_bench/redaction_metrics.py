"""Scoring of a redaction run: value survival per entity type, clean prompts altered, latency, throughput.

A value *survives* when the output still holds it: verbatim (as a whole word: ``10.0.0.1`` is not in
``10.0.0.12``), or in a normalised form that gives the same information away. The normalised forms are
deliberately narrow so that a survival is a real leak:

* digits of a card, an SSN or a phone number, in the same order, with any separators (or none) between
  them; for an international phone number, also its national part without the country code;
* an IBAN's letters and digits with any spacing, any case; an email address or IPv6 address in any case;
  an IPv6 address in its compressed or expanded form; a MAC address's hex digits with any separators;
* for a secret, any run of SECRET_WINDOW characters of its random material: a token whose prefix or
  digits were replaced but whose tail is still there (``xoxb-<NUMBER>-<NUMBER>-8xlvrFEW648AaZPXpPPEVU4w``)
  has leaked. For a JWT the material is its payload and signature (the header is the same for every
  token of an algorithm); for a PEM private key, its body after the first line (which starts with a
  prefix shared by every key of a kind).
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ztgate_bench.redaction_corpus import CLEAN, Sample
from ztgate.redaction.types import SECRET_ENTITY_TYPES

# Length of a run of a secret's characters that counts as the secret surviving: 16 random characters
# carry 80+ bits, far more than any leftover prefix or chance overlap.
SECRET_WINDOW = 16
_DIGIT_TYPES = frozenset({"CREDIT_CARD", "US_SSN", "PHONE_NUMBER"})
_SEPARATORS = r"[\s\-./()]*"
# ITU-T E.164 country calling codes that are two digits long; codes starting with 1 or 7 are one digit,
# every other code is three. Used to find the national part of an international number.
_TWO_DIGIT_CALLING_CODES = frozenset({
    "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
    "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
    "86", "90", "91", "92", "93", "94", "95", "98",
})


def _calling_code_length(digits: str) -> int:
    if digits[:1] in ("1", "7"):
        return 1
    return 2 if digits[:2] in _TWO_DIGIT_CALLING_CODES else 3


def _spaced(chars: str, separators: str = _SEPARATORS) -> str:
    """A pattern for ``chars`` in order with any separators between them, not inside a longer run."""
    body = separators.join(re.escape(c) for c in chars)
    return rf"(?<![0-9A-Za-z]){body}(?![0-9A-Za-z])"


def _bounded(pattern: str, value: str) -> str:
    """``pattern`` that does not match inside a longer word (``10.0.0.1`` is not in ``10.0.0.12``)."""
    head = r"(?<!\w)" if value[:1].isalnum() else ""
    tail = r"(?!\w)" if value[-1:].isalnum() else ""
    return head + pattern + tail


def survival_patterns(entity_type: str, value: str) -> list[re.Pattern[str]]:
    """Patterns whose match in an output means ``value`` survived (the verbatim value first)."""
    patterns = [re.compile(_bounded(re.escape(value), value))]
    if entity_type in _DIGIT_TYPES:
        digits = re.sub(r"\D", "", value)
        if digits:
            patterns.append(re.compile(_spaced(digits)))
        if entity_type == "PHONE_NUMBER" and value.lstrip().startswith("+") and len(digits) > 8:
            national = digits[_calling_code_length(digits):]
            patterns.append(re.compile(_spaced(national)))
    elif entity_type == "IBAN_CODE":
        patterns.append(re.compile(_spaced(re.sub(r"\s", "", value)), re.IGNORECASE))
    elif entity_type == "MAC_ADDRESS":
        patterns.append(re.compile(_spaced(re.sub(r"[^0-9A-Fa-f]", "", value), r"[\s:\-.]*"), re.IGNORECASE))
    elif entity_type == "EMAIL_ADDRESS":
        patterns.append(re.compile(_bounded(re.escape(value), value), re.IGNORECASE))
    elif entity_type == "IP_ADDRESS" and ":" in value:
        try:
            address = ipaddress.IPv6Address(value)
        except ValueError:
            pass
        else:
            for form in {value, address.compressed, address.exploded}:
                patterns.append(re.compile(_bounded(re.escape(form), form), re.IGNORECASE))
    return patterns


def secret_windows(entity_type: str, value: str) -> set[str]:
    """Every SECRET_WINDOW-character run of a secret's random material (empty for PII types)."""
    if entity_type not in SECRET_ENTITY_TYPES:
        return set()
    if entity_type == "JWT":
        material = value.split(".")[1:]
    elif entity_type == "PRIVATE_KEY":
        body = [line.strip() for line in value.splitlines() if line.strip() and "-----" not in line]
        material = body[1:]
    else:
        material = [value]
    return {m[i:i + SECRET_WINDOW] for m in material for i in range(len(m) - SECRET_WINDOW + 1)}


def survives(entity_type: str, value: str, output: str) -> bool:
    """True when ``output`` still holds ``value`` verbatim or in a normalised form (module docstring)."""
    if any(p.search(output) for p in survival_patterns(entity_type, value)):
        return True
    return any(window in output for window in secret_windows(entity_type, value))


@dataclass(frozen=True, slots=True)
class Survival:
    """How many embedded values of one kind there were, and how many survived redaction."""

    total: int
    survived: int

    @property
    def share(self) -> float:
        return self.survived / self.total if self.total else 0.0


def survival_by_type(samples: Sequence[Sample], outputs: Sequence[str]) -> dict[str, Survival]:
    """Per entity type, the values that survive in the output of their own sample."""
    _check_aligned(samples, outputs)
    counts: dict[str, list[int]] = {}
    for sample, output in zip(samples, outputs, strict=True):
        for entity in sample.entities:
            total_survived = counts.setdefault(entity.entity_type, [0, 0])
            total_survived[0] += 1
            total_survived[1] += survives(entity.entity_type, entity.value, output)
    return {t: Survival(total, survived) for t, (total, survived) in sorted(counts.items())}


def pooled(survival: dict[str, Survival], types: Iterable[str] | None = None) -> Survival:
    """Survival over several entity types at once (all of them when ``types`` is None)."""
    chosen = survival.keys() if types is None else set(types) & survival.keys()
    return Survival(sum(survival[t].total for t in chosen), sum(survival[t].survived for t in chosen))


def clean_altered(samples: Sequence[Sample], outputs: Sequence[str]) -> Survival:
    """Clean prompts whose output differs from the input (``survived`` counts the altered ones)."""
    _check_aligned(samples, outputs)
    pairs = [(s.text, o) for s, o in zip(samples, outputs, strict=True) if s.category == CLEAN]
    return Survival(len(pairs), sum(text != output for text, output in pairs))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between closest ranks; NaN when empty."""
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0-100, got {q}")
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True, slots=True)
class RedactionReport:
    """Everything the comparison table shows for one system."""

    system: str
    samples: int
    survival: dict[str, Survival]
    clean: Survival  # survived = clean prompts altered
    p50_ms: float
    p99_ms: float
    mean_ms: float
    throughput_rps: float | None = None  # completed calls per second with `clients` concurrent clients
    clients: int | None = None
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def pii(self) -> Survival:
        return pooled(self.survival, set(self.survival) - SECRET_ENTITY_TYPES)

    @property
    def secrets(self) -> Survival:
        return pooled(self.survival, SECRET_ENTITY_TYPES)

    @property
    def overall(self) -> Survival:
        return pooled(self.survival)


def score(system: str, samples: Sequence[Sample], outputs: Sequence[str], durations_s: Sequence[float],
          throughput_rps: float | None = None, clients: int | None = None) -> RedactionReport:
    """Score one system: ``outputs`` and ``durations_s`` are per sample, from a sequential run."""
    _check_aligned(samples, outputs)
    if len(durations_s) != len(samples):
        raise ValueError(f"{len(durations_s)} durations for {len(samples)} samples")
    ms = [d * 1000 for d in durations_s]
    return RedactionReport(
        system=system, samples=len(samples), survival=survival_by_type(samples, outputs),
        clean=clean_altered(samples, outputs), p50_ms=percentile(ms, 50), p99_ms=percentile(ms, 99),
        mean_ms=sum(ms) / len(ms) if ms else math.nan, throughput_rps=throughput_rps, clients=clients,
    )


def _pct(s: Survival) -> str:
    return f"{100 * s.share:.1f}% ({s.survived}/{s.total})" if s.total else "n/a"


def _ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.1f}"


def render_comparison(reports: Sequence[RedactionReport]) -> str:
    """A Markdown table with one column per system (typically ztgate against Presidio's defaults)."""
    if not reports:
        raise ValueError("nothing to compare")
    types = sorted({t for r in reports for t in r.survival})
    rows: list[tuple[str, list[str]]] = [
        ("samples", [str(r.samples) for r in reports]),
        ("latency p50 (ms)", [_ms(r.p50_ms) for r in reports]),
        ("latency p99 (ms)", [_ms(r.p99_ms) for r in reports]),
        ("latency mean (ms)", [_ms(r.mean_ms) for r in reports]),
        ("throughput (req/s)", [
            f"{r.throughput_rps:.1f} ({r.clients} clients)" if r.throughput_rps is not None else "n/a"
            for r in reports]),
        ("clean prompts altered", [_pct(r.clean) for r in reports]),
        ("values surviving, all", [_pct(r.overall) for r in reports]),
        ("values surviving, PII", [_pct(r.pii) for r in reports]),
        ("values surviving, secrets", [_pct(r.secrets) for r in reports]),
    ]
    rows += [(f"surviving: {t}", [_pct(r.survival.get(t, Survival(0, 0))) for r in reports]) for t in types]
    header = "| metric | " + " | ".join(r.system for r in reports) + " |"
    rule = "|---|" + "---:|" * len(reports)
    return "\n".join([header, rule, *(f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows)]) + "\n"


def _check_aligned(samples: Sequence[Sample], outputs: Sequence[str]) -> None:
    if len(samples) != len(outputs):
        raise ValueError(f"{len(outputs)} outputs for {len(samples)} samples")
