"""The redaction part's process serves the gateway's processor beside Redaction: the composition hands
`hosted(processor_inputs(config))` to the redaction server (`build_spec(hosted=)`), which does not import the gateway.

A real grpc.aio server on loopback with the spec's servicers and a real channel; the service is the
real one on the pattern tier (tests/unit/redaction/pattern_service.py), so no model loads.
"""

from __future__ import annotations

import grpc
from envoy.service.ext_proc.v3 import external_processor_pb2_grpc as ep_grpc

from ztgate.config import ZtgateConfig
from ztgate.gateway.processor.ext_proc import PER_TRY_TIMEOUT_HEADER, SERVICE_NAME, hosted
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc
from ztgate.parts import REDACTION_SERVICE
from ztgate.redaction.detection.patterns.scanner import PatternScanner
from ztgate.redaction.server import build_spec
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.unit.gateway.processor.test_ext_proc import (EMAIL, GENERATE, _body, _decode_request, _headers,
                                                        _request)
from ztgate.serve import processor_inputs
from tests.stand_ins import stand_in
from tests.unit.redaction.pattern_service import make_service


async def test_the_redaction_server_serves_the_processor_it_is_handed(scanner: PatternScanner) -> None:
    config = ZtgateConfig()
    spec = build_spec(make_service(scanner), None, hosted=[hosted(processor_inputs(config))])
    assert spec.service_names == [REDACTION_SERVICE, SERVICE_NAME]  # health reports both
    server = grpc.aio.server()
    spec.register(server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = ep_grpc.ExternalProcessorStub(channel).Process(iter([
                _headers(GENERATE), _body(_request(ipb.GenerateRequest(prompt=f"I am {EMAIL}")))]))
            answers = [answer async for answer in call]
            redacted = await redaction_pb2_grpc.RedactionStub(channel).Redact(
                redaction_pb2.RedactRequest(text=f"mail {EMAIL}"))
    finally:
        await server.stop(None)
    assert [a.WhichOneof("response") for a in answers] == ["request_headers", "request_body"]
    common = answers[1].request_body.response
    sent = _decode_request(common.body_mutation.body)
    # Chat reads a stand-in (surrogates by default); the Redaction API writes the placeholder (ADR 0007).
    assert EMAIL not in sent.prompt and stand_in("EMAIL_ADDRESS", EMAIL) in sent.prompt
    assert not PLACEHOLDER_RE.search(sent.prompt)
    # The per-try timeout is the configured first-token budget of the scrubbed prompt.
    [timeout] = [h.header.raw_value for h in common.header_mutation.set_headers
                 if h.header.key == PER_TRY_TIMEOUT_HEADER]
    budget = config.gateway.first_token_budget
    assert int(timeout) == budget.budget_ms_for_bytes(len(sent.prompt.encode()))
    assert EMAIL not in redacted.text and redacted.text == "mail <EMAIL_ADDRESS_1>"


def test_without_the_processor_the_redaction_server_serves_redaction_alone(scanner: PatternScanner) -> None:
    assert build_spec(make_service(scanner), None).service_names == [REDACTION_SERVICE]
