"""`ztgate eval`: the golden regression gate (tests/golden/, docs/operations/golden-gate.md)."""
