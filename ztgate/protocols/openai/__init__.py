"""OpenAI's HTTP API as the gateway's door speaks it: one home for the request schema of each route
(`schema.py`, `fields.py`), its errors (`errors.py`) and its server-sent events (`sse.py`), shared
by the ext_proc processor (ztgate/gateway/processor/openai_api.py), Envoy's routes
(ztgate/gateway/openai_routes.py) and ztgate's own adapter (ztgate/openai_adapter/)."""
