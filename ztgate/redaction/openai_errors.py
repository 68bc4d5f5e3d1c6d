"""The HTTP door's refusals as Envoy sends them: an ext_proc ImmediateResponse in OpenAI's error
shape (ztgate/protocols/openai/errors.py). Envoy's own refusals on these routes (token, scope, rate
limit, size, redaction unavailable) get the same shape from the bootstrap's local-reply mappers
(`ztgate/gateway/openai_routes.py`).
"""

from __future__ import annotations

import json

from envoy.config.core.v3 import base_pb2
from envoy.service.ext_proc.v3 import external_processor_pb2 as ep
from envoy.type.v3 import http_status_pb2

from ztgate.common.errors import ZtgateError
from ztgate.protocols.openai.errors import RETRY_AFTER_S, error_shape


def openai_refusal(exc: ZtgateError) -> ep.ProcessingResponse:
    """An ImmediateResponse Envoy sends to an OpenAI client as is (its details start with
    `ztgate_`, which the local-reply mappers leave alone)."""
    status, body = error_shape(exc)
    headers = [base_pb2.HeaderValueOption(
        header=base_pb2.HeaderValue(key="content-type", raw_value=b"application/json"),
        append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD)]
    if status == 429:
        headers.append(base_pb2.HeaderValueOption(
            header=base_pb2.HeaderValue(key="retry-after", raw_value=str(RETRY_AFTER_S).encode()),
            append_action=base_pb2.HeaderValueOption.OVERWRITE_IF_EXISTS_OR_ADD))
    return ep.ProcessingResponse(immediate_response=ep.ImmediateResponse(
        status=http_status_pb2.HttpStatus(code=status),
        headers=ep.HeaderMutation(set_headers=headers),
        body=json.dumps(body).encode(),
        details=f"ztgate_openai_{body['error']['code']}"))
