"""Inference service: engines (vLLM, transformers), admission, hallucination score, model preparation."""
