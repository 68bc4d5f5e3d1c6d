"""Detection: what in a text is private. patterns/ (tier 1: the Hyperscan catalogue and its validators),
names/ (tier 2: NER, the gazetteer and the context recognizers), public/ (public knowledge kept), and the
Presidio analyzer that runs them on the normalised view, with overlap resolution."""
