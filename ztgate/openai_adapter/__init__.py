"""ztgate's own model as an OpenAI upstream of the HTTP door (the thin adapter of issue #15)."""
