"""Anonymising: a policy applied to the findings (thresholds, allow-lists, block), and the operators that
replace each value (redact, mask, hash, encrypt, pseudonymise through the vault) with their keys."""
