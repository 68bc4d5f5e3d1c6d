"""ztgate: a zero-trust gateway for LLM inference."""
