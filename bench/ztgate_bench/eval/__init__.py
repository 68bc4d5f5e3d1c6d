"""`ztgate eval`: the golden regression gate (tests/golden/, docs/operations.md "The golden gate")."""
