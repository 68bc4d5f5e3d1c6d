"""OpenTelemetry names to Prometheus names, after the OTel-to-Prometheus compatibility rules.

Invalid characters (dots included) become underscores, the unit becomes a suffix (`s` ->
`_seconds`, `By` -> `_bytes`, `{token}` -> nothing, `1` -> `_ratio` on gauges), counters get
`_total` at exposition. One deliberate step beyond the rules: time units are converted to the
base unit (ms, us, ns -> seconds) because Prometheus and promtool expect base units.
"""

from __future__ import annotations

import re

_INVALID_NAME = re.compile(r"[^a-zA-Z0-9_:]")
_INVALID_LABEL = re.compile(r"[^a-zA-Z0-9_]")
_ANNOTATION = re.compile(r"\{[^}]*\}")

# Unit -> (Prometheus word, factor to the base unit).
_UNITS: dict[str, tuple[str, float]] = {
    "s": ("seconds", 1.0), "ms": ("seconds", 1e-3), "us": ("seconds", 1e-6),
    "ns": ("seconds", 1e-9), "min": ("minutes", 1.0), "h": ("hours", 1.0), "d": ("days", 1.0),
    "By": ("bytes", 1.0), "KiBy": ("kibibytes", 1.0), "MiBy": ("mebibytes", 1.0),
    "KBy": ("kilobytes", 1.0), "MBy": ("megabytes", 1.0), "bit": ("bits", 1.0),
    "m": ("meters", 1.0), "V": ("volts", 1.0), "A": ("amperes", 1.0), "J": ("joules", 1.0),
    "W": ("watts", 1.0), "g": ("grams", 1.0), "Cel": ("celsius", 1.0), "Hz": ("hertz", 1.0),
    "%": ("percent", 1.0),
}
# Label names that Prometheus reserves for histogram and summary samples.
_RESERVED_LABELS = frozenset({"le", "quantile"})


def _unit_word(unit: str) -> tuple[str, float]:
    if unit in _UNITS:
        return _UNITS[unit]
    return _INVALID_NAME.sub("_", unit).strip("_"), 1.0


def unit_suffix(unit: str, kind: str) -> tuple[str, float]:
    """The name suffix (without underscore, may be empty) and the factor to apply to values."""
    unit = _ANNOTATION.sub("", unit).strip()
    if not unit:
        return "", 1.0
    if unit == "1":
        return ("ratio", 1.0) if kind == "gauge" else ("", 1.0)
    if "/" in unit:
        top, _, bottom = unit.partition("/")
        top_word, factor = _unit_word(top) if top and top != "1" else ("", 1.0)
        bottom_word = {"s": "second", "m": "minute", "h": "hour", "d": "day"}.get(
            bottom, _unit_word(bottom)[0])
        word = f"{top_word}_per_{bottom_word}" if top_word else f"per_{bottom_word}"
        return word.strip("_"), factor
    return _unit_word(unit)


def metric_name(name: str, unit: str, kind: str) -> tuple[str, float]:
    """Prometheus family name (without `_total`) and the value factor, for an OTel metric.

    kind is "counter", "gauge" or "histogram".
    """
    base = _INVALID_NAME.sub("_", name)
    if base and base[0].isdigit():
        base = "_" + base
    if kind == "counter" and base.endswith("_total"):
        base = base[: -len("_total")]
    suffix, factor = unit_suffix(unit, kind)
    if suffix and not base.endswith("_" + suffix):
        base = f"{base}_{suffix}"
    return base, factor


# Attribute keys already converted (keys are few; the cache is cleared if it ever grows large).
_LABEL_CACHE: dict[str, str] = {}
_LABEL_CACHE_MAX = 10_000


def label_name(key: str) -> str:
    """A valid Prometheus label name for an attribute key (`gen_ai.request.model` -> ...)."""
    out = _LABEL_CACHE.get(key)
    if out is None:
        if len(_LABEL_CACHE) >= _LABEL_CACHE_MAX:
            _LABEL_CACHE.clear()
        out = _LABEL_CACHE[key] = _label_name(key)
    return out


def _label_name(key: str) -> str:
    out = _INVALID_LABEL.sub("_", key)
    if not out or out[0].isdigit():
        out = "key_" + out
    elif out.startswith("__"):
        out = "key" + out
    if out in _RESERVED_LABELS:
        out = "otel_" + out
    return out
