"""A small client of the Inference service, used by `ztgate generate`."""

from __future__ import annotations

import sys
from typing import TextIO


from ztgate.common.identity import bearer
from ztgate.common.jsonout import message_json
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import open_channel
from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.gen.inference.v1 import inference_pb2_grpc


def build_request(prompt: str, *, chat: bool, max_tokens: int | None,
                  temperature: float | None) -> pb.GenerateRequest:
    sampling = pb.SamplingParams()
    if max_tokens is not None:
        sampling.max_tokens = max_tokens
    if temperature is not None:
        sampling.temperature = temperature
    if chat:
        return pb.GenerateRequest(messages=[pb.ChatMessage(role="user", content=prompt)],
                                  sampling=sampling)
    return pb.GenerateRequest(prompt=prompt, sampling=sampling)


def print_summary(final: pb.GenerateResponse | pb.GenerateChunk, out: TextIO) -> None:
    """Usage, timings and speculative statistics after the answer."""
    s, t, u = final.speculative, final.timings, final.usage
    out.write(f"\n\n--\nserved by {final.served_by} ({final.model}), finish: {final.finish_reason}\n")
    out.write(f"tokens: {u.prompt_tokens} prompt, {u.completion_tokens} completion\n")
    out.write(f"timings: ttft {t.ttft_ms:.1f} ms, tpot {t.tpot_ms:.1f} ms, total {t.total_ms:.1f} ms\n")
    if s.method and s.method != "none":
        out.write(f"speculative: {s.method} (k={s.num_speculative_tokens}), drafted {s.draft_tokens}, "
                  f"accepted {s.accepted_tokens}, acceptance {s.acceptance_rate:.2f}, "
                  f"mean acceptance length {s.mean_acceptance_length:.2f}\n")
    if final.HasField("hallucination_score"):
        out.write(f"hallucination score: {final.hallucination_score:.3f}\n")


async def generate(address: str, request: pb.GenerateRequest, *, stream: bool,
                   out: TextIO = sys.stdout, timeout_s: float = 300.0, token: str = "",
                   tls: ClientTlsSettings | None = None, as_json: bool = False) -> None:
    """One call; prints the text and a summary, or with `as_json` the reply as one JSON object
    (streamed: one object per chunk, a line each) for scripts."""
    metadata = bearer(token)
    async with open_channel(address, tls) as channel:
        stub = inference_pb2_grpc.InferenceStub(channel)
        if not stream:
            reply = await stub.Generate(request, timeout=timeout_s, metadata=metadata)
            if as_json:
                out.write(message_json(reply) + "\n")
                return
            out.write(reply.text)
            print_summary(reply, out)
            return
        last = None
        async for chunk in stub.GenerateStream(request, timeout=timeout_s, metadata=metadata):
            if as_json:
                out.write(message_json(chunk) + "\n")
                out.flush()
                continue
            out.write(chunk.text)
            out.flush()
            last = chunk
        if last is not None:
            print_summary(last, out)
