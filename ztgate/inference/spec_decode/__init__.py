"""Speculative decoding, all of it: the methods and the engine's settings (settings.py), the
`speculative:` section of ztgate.yaml and what it resolves to (section.py), adaptive drafting's
policy (draft_policy.py) and the vLLM scheduler that applies it (adaptive_scheduler.py), and the
trained speculator a primary serves when its `draft_model` is unset (speculator_lookup.py; the
shipped weights stay in ztgate/inference/speculator_checkpoints/). Training is ztgate/speculators/,
which imports this, never the reverse."""
