"""gRPC servicer of ztgate.inference.v1.Inference: parse, call the domain, map errors.

Response headers go out when the first token exists, for unary calls too, so Envoy's per-try
timeout (which ends at the response headers) measures time to first token.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc

from ztgate.common import pki
from ztgate.common.handlers import streaming, unary
from ztgate.common.identity import TenantAccess
from ztgate.common.semconv import PROBE_TENANT
from ztgate.common.server import ServiceSpec, serve
from ztgate.common.first_token import FirstTokenBudget
from ztgate.common.settings import OtelSettings, TlsSettings
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.engines.outputs import FinalStats
from ztgate.inference.engines.request import ChatMessage, GenerationRequest, SamplingParams
from ztgate.inference.config import InferenceSettings
from ztgate.inference.limits import RequestLimits
from ztgate.inference.service import InferenceService


@dataclass(frozen=True)
class InferenceInputs:
    """What `ztgate serve inference --instance NAME` runs with: its own section, and what it needs
    from the others (built from the whole configuration by ztgate/serve.py)."""

    inference: InferenceSettings
    # primary or fallback: the instance of `inference` this process serves.
    instance: str
    otel: OtelSettings
    limits: RequestLimits
    # The gateway's first-token budget by prompt (gateway.inference), for the comparable TTFT the
    # SLO judges.
    first_token: FirstTokenBudget


SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Inference"].full_name
# An instance's memory ceiling unless its server.max_rss_mib says otherwise: well above what its
# server process holds once ready (vLLM's API side, or transformers with its model in it; the
# figures: docs/operations/limits.md).
DEFAULT_MAX_RSS_MIB = 4096


def _optional(message: pb.SamplingParams, name: str) -> Any:
    return getattr(message, name) if message.HasField(name) else None


def to_request(request: pb.GenerateRequest, tenant: str) -> GenerationRequest:
    """Proto → domain request for `tenant`, the one the call acts for (TenantAccess; validation
    raises InvalidRequest → INVALID_ARGUMENT)."""
    s = request.sampling
    sampling = SamplingParams.from_optional(
        temperature=_optional(s, "temperature"), top_p=_optional(s, "top_p"),
        top_k=_optional(s, "top_k"), max_tokens=_optional(s, "max_tokens"),
        seed=_optional(s, "seed"), stop=tuple(s.stop), score_inline=_optional(s, "score_inline"))
    return GenerationRequest(
        prompt=request.prompt,
        messages=tuple(ChatMessage(m.role, m.content) for m in request.messages),
        sampling=sampling, request_id=request.request_id, tenant=tenant)


def _final_fields(final: FinalStats, served_by: str) -> dict[str, Any]:
    spec = final.speculative
    fields: dict[str, object] = {
        "usage": pb.Usage(prompt_tokens=final.usage.prompt_tokens,
                          completion_tokens=final.usage.completion_tokens),
        "model": final.model, "served_by": served_by,
        "speculative": pb.SpeculativeStats(
            method=spec.method, num_speculative_tokens=spec.num_speculative_tokens,
            draft_tokens=spec.draft_tokens, accepted_tokens=spec.accepted_tokens,
            acceptance_rate=spec.acceptance_rate,
            mean_acceptance_length=spec.mean_acceptance_length) if spec.counted
        else pb.SpeculativeStats(method=spec.method,
                                 num_speculative_tokens=spec.num_speculative_tokens),
    }
    if final.timings is not None:
        fields["timings"] = pb.Timings(ttft_ms=final.timings.ttft_ms, total_ms=final.timings.total_ms,
                                       tpot_ms=final.timings.tpot_ms)
    if final.hallucination_score is not None:
        fields["hallucination_score"] = final.hallucination_score
    return fields


class InferenceServicer(inference_pb2_grpc.InferenceServicer):
    def __init__(self, service: InferenceService, access: TenantAccess) -> None:
        self._service = service
        # Which tenant a call acts for: by the caller's certificate, never the request's say-so.
        self._tenant = access.caller_tenant

    @unary
    async def Generate(self, request: pb.GenerateRequest,
                       context: grpc.aio.ServicerContext) -> pb.GenerateResponse:
        domain = to_request(request, self._tenant(context, request.tenant))
        text: list[str] = []
        token_ids: list[int] = []
        headers_sent = False
        async for delta in self._service.generate(domain):
            if not headers_sent and (delta.token_ids or delta.final is not None):
                await context.send_initial_metadata((("x-ztgate-served-by", self._service.served_by),))
                headers_sent = True
            text.append(delta.text)
            token_ids.extend(delta.token_ids)
            if delta.final is not None:
                return pb.GenerateResponse(
                    text="".join(text), token_ids=token_ids, finish_reason=delta.finish_reason or "",
                    request_id=domain.request_id, **_final_fields(delta.final, self._service.served_by))
        raise RuntimeError("the engine ended a stream without a final delta")

    @streaming
    async def GenerateStream(self, request: pb.GenerateRequest,
                             context: grpc.aio.ServicerContext) -> AsyncIterator[pb.GenerateChunk]:
        domain = to_request(request, self._tenant(context, request.tenant))
        # Headers go out with the first chunk, i.e. at the first token.
        async for delta in self._service.generate(domain):
            if delta.final is not None:
                yield pb.GenerateChunk(text=delta.text, token_ids=delta.token_ids,
                                       finish_reason=delta.finish_reason or "",
                                       request_id=domain.request_id,
                                       **_final_fields(delta.final, self._service.served_by))
                return
            if delta.token_ids or delta.text:
                yield pb.GenerateChunk(text=delta.text, token_ids=delta.token_ids,
                                       request_id=domain.request_id,
                                       served_by=self._service.served_by)

    @unary
    async def GetScore(self, request: pb.ScoreRequest,
                       context: grpc.aio.ServicerContext) -> pb.ScoreResponse:
        # Through the gateway the tenant is Envoy's header (the verified one); an operator's mesh
        # call names it in the request, as its Generate call did (TenantAccess decides).
        score, state = await self._service.score(self._tenant(context, request.tenant),
                                                 request.request_id, request.wait_s)
        reply = pb.ScoreResponse(request_id=request.request_id, state=state)
        if score is not None:
            reply.hallucination_score = score
        return reply


# The collector's SLO probes (ztgate/telemetry/slo_probe.py) call the primary directly, with
# mTLS as `telemetry` (which launcher.SERVED_PARTS lets reach the primary only), acting for the
# probes' own tenant and no other.
PROBE_GRANT = {pki.TELEMETRY: (PROBE_TENANT,)}


def tenant_access(tls: TlsSettings | None) -> TenantAccess:
    """Who may act for which tenant on an instance whose listener is `tls`: `server.tls.tenants`
    and the probes' grant."""
    return TenantAccess(tls, grants=PROBE_GRANT)


def build_spec(service: InferenceService, tls: TlsSettings | None) -> ServiceSpec:
    """The runtime's view of an inference instance; `tls` is its listener's, which says who may
    act for which tenant."""
    access = tenant_access(tls)

    def register(server: grpc.aio.Server) -> None:
        inference_pb2_grpc.add_InferenceServicer_to_server(InferenceServicer(service, access), server)

    return ServiceSpec(name=f"inference-{service.served_by}", service_names=[SERVICE_NAME],
                       register=register, start=service.start, stop=service.close,
                       default_max_rss_mib=DEFAULT_MAX_RSS_MIB)


async def run(inputs: InferenceInputs) -> None:
    """`ztgate serve inference --instance primary|fallback`."""
    instance = getattr(inputs.inference, inputs.instance)
    service = InferenceService.from_settings(inputs.inference, instance, inputs.limits, inputs.first_token)
    await serve(build_spec(service, instance.server.tls), instance.server, inputs.otel)
