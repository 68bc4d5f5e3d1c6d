"""The long-prompt probe of `ztgate bench failover`: prompt sizes, the fitted prefill line, the report, and its
calls against a TEST DOUBLE of the inference service (an in-process gRPC server that answers with a first-token
time that grows with the prompt, and fails the sizes a test chooses: an injected fault)."""

from __future__ import annotations

import grpc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate_bench.failover_bench import FailoverBench, render_report, window
from ztgate_bench.prefill_probe import PrefillPoint, all_answered, fit, needed_per_1k_s, probe, prompt_of, render
from ztgate.common.first_token import FirstTokenBudget
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc

BUDGET = FirstTokenBudget(base_s=1.2, per_1k_tokens_s=2.0, max_s=30.0, bytes_per_token=2.5)


@given(size=st.integers(1, 8000))
def test_a_prompt_has_the_size_the_gateway_will_estimate(size: int) -> None:
    prompt = prompt_of(size, BUDGET)
    assert abs(BUDGET.estimate_tokens(len(prompt.encode())) - size) <= 12  # the head, for the smallest
    assert prompt.isascii() and prompt.startswith("Summarize")


def test_each_size_gets_new_words_so_no_prefix_cache_helps() -> None:
    a, b = prompt_of(1000, BUDGET), prompt_of(2000, BUDGET)
    head = len("Summarize in one sentence: ")
    assert not b.startswith(a[: head + 200]) and prompt_of(1000, BUDGET) == a  # and seeded


@given(base=st.floats(0, 2000), per_1k=st.floats(0, 5000))
def test_the_fit_recovers_a_line(base: float, per_1k: float) -> None:
    points = [PrefillPoint(n, n, "primary", base + per_1k * n / 1000, 0) for n in (10, 1000, 4000)]
    points.append(PrefillPoint(6000, 6000, "fallback", 1e9, 0))  # another instance: not the primary's line
    got = fit(points)
    assert got is not None
    assert got[0] == pytest.approx(base, abs=1e-6 * max(1.0, per_1k)) and got[1] == pytest.approx(per_1k, abs=1e-6)


def test_the_report_shows_each_size_the_line_and_a_failed_size_misses_the_target() -> None:
    points = [PrefillPoint(10, 30, "primary", 100.0, 1204), PrefillPoint(1000, 1100, "primary", 1300.0, 3200),
              PrefillPoint(6000, 0, "", float("nan"), 13_200, "UNAVAILABLE", "upstream request timeout")]
    text = "\n".join(render(points, BUDGET))
    assert "| 1,000 | 1,100 | primary | 1,300 | 3,200 | 2.5x |" in text
    assert "UNAVAILABLE: upstream request timeout" in text
    assert "Measured on the primary: 66 ms + 1,121 ms per 1,000 prompt tokens" in text
    assert "configured: 1,200 ms + 2,000 ms per 1,000 estimated tokens" in text
    assert "of at least 0.1 s; the configured 2 s covers it" in text  # (1.3 s - 1.2 s) / 1,000 tokens
    assert not all_answered(points) and all_answered(points[:2])
    base = window([])
    result = FailoverBench(2, 20.0, base, [], prefill=points)
    assert result.targets()["every long prompt answered"] is False
    assert "Long prompts on the healthy suite" in render_report(result, budget=BUDGET)
    assert "every long prompt answered" not in FailoverBench(2, 20.0, base, []).targets()


@given(per_1k=st.floats(0.01, 50), sizes=st.lists(st.integers(100, 20_000), min_size=1, max_size=6))
def test_the_needed_allowance_is_the_least_that_fits_every_answered_size(per_1k: float, sizes: list[int]) -> None:
    """Prefill that grows faster than the prompt (a square term, as attention): the needed allowance
    puts every answered size within its budget, and any less leaves one outside."""
    points = [PrefillPoint(n, n, "primary", 1000 * (BUDGET.base_s + per_1k * n / 1000 * (1 + n / 10_000)), 0)
              for n in sizes]
    points.append(PrefillPoint(50_000, 0, "", float("nan"), 0, "UNAVAILABLE"))  # not answered: no bound
    needed = needed_per_1k_s(points, BUDGET)
    assert needed is not None
    def fits(allowance: float) -> bool:
        return all(p.ttft_ms <= 1000 * (BUDGET.base_s + allowance * p.size / 1000) * (1 + 1e-9)
                   for p in points if p.code == "OK")
    assert fits(needed) and not fits(needed * 0.99)
    assert needed_per_1k_s(points[-1:], BUDGET) is None


class _Double(inference_pb2_grpc.InferenceServicer):
    """TEST DOUBLE: a first token of 100 ms + 1 ms per prompt byte; UNAVAILABLE for prompts over `fail_over`."""

    def __init__(self, fail_over: int) -> None:
        self.fail_over, self.requests = fail_over, []

    async def Generate(self, request, context):
        self.requests.append(request)
        size = len(request.messages[0].content.encode())
        if size > self.fail_over:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "injected")
        return ipb.GenerateResponse(text="x", served_by="primary", usage=ipb.Usage(prompt_tokens=size // 3),
                                    timings=ipb.Timings(ttft_ms=100 + size))


async def test_the_probe_calls_once_per_size_one_token_each_and_records_failures() -> None:
    double = _Double(fail_over=5000)
    server = grpc.aio.server()
    inference_pb2_grpc.add_InferenceServicer_to_server(double, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        points = await probe(f"127.0.0.1:{port}", "", BUDGET, sizes=(10, 1000, 4000))
    finally:
        await server.stop(0)
    assert [p.size for p in points] == [10, 1000, 4000] and len(double.requests) == 3
    assert all(r.sampling.max_tokens == 1 and r.sampling.temperature == 0 for r in double.requests)
    assert [p.code for p in points] == ["OK", "OK", "UNAVAILABLE"]
    assert points[1].budget_ms == BUDGET.budget_ms_for_bytes(len(prompt_of(1000, BUDGET).encode()))
    assert points[1].ttft_ms == 100 + len(prompt_of(1000, BUDGET).encode())
