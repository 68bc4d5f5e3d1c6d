"""Benchmark harnesses behind `ztgate bench`: corpora, drivers, scoring and baselines."""
