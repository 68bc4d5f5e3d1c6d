"""The gateway's ext_proc processor: what Envoy asks of every call before it is forwarded.

Envoy's ext_proc filter streams each call's headers and bodies here (`ext_proc.py`, the framing).
One module per API the gateway speaks turns a call's bodies into scrubbed ones and its answer back:
`grpc_api.py` (ztgate.inference.v1.Inference, gRPC frames) and `openai_api.py` (the
OpenAI-compatible HTTP door, JSON and SSE, with `openai_answers.py` and `openai_metrics.py`). Both
hold their call's redaction session through `session.CallSession`. The processor is served by the
redaction part's process (the CLI composes it in: redaction does not import the gateway).
"""
