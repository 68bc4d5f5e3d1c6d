"""Tier 2: names and places found by spaCy NER (gated), the offline gazetteer and the context recognizers,
and the test of whether a public value is tied to a person."""
