"""Tier 1: the rule catalogue (rules/*.yaml), compiled into one Hyperscan database, its post-match
validators, and the Presidio recognizer that runs it."""
