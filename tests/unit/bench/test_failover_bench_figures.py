"""`ztgate bench failover`'s figures and report from recorded calls (no suite), and its steady load
against a TEST DOUBLE of the inference service (an in-process gRPC server that records the calls
it gets and fails the ones a test chooses: an injected fault)."""

from __future__ import annotations

import asyncio
import math

import grpc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate_bench.attack_load import Call
from ztgate_bench.failover_bench import (FAULTS, FailoverBench, FaultResult, check_faults, recovered_at,
                                           render_report, slow_stop_s, window)
from ztgate_bench.failover_load import MAX_TOKENS, PROMPT, steady_load
from ztgate.cli import build_parser
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc


def _call(at: float, ms: float = 100.0, code: str = "OK", by: str = "primary") -> Call:
    return Call("Generate", code, ms, "" if code == "OK" else "boom", started_s=at,
                served_by=by if code == "OK" else "")


def test_a_window_counts_failures_and_takes_latency_over_every_call() -> None:
    w = window([_call(0, 100), _call(1, 300, "UNAVAILABLE"), _call(2, 200, by="fallback")])
    assert (w.calls, w.lost, w.p50_ms) == (3, 1, 200.0)
    assert w.served_by == {"primary": 1, "fallback": 1} and w.errors == {"UNAVAILABLE": 1}
    assert math.isnan(window([]).p50_ms)


def test_recovery_is_the_first_run_of_good_calls_after_the_fault() -> None:
    calls = [_call(t, 100) for t in range(3)]                      # before: ignored
    calls += [_call(10, 5000), _call(11, 100), _call(12, 100, by="fallback")]
    calls += [_call(t, 100) for t in range(13, 18)]                # five good ones from 13
    assert recovered_at(calls, since=10, limit_ms=150, served_by="primary") == 13
    assert recovered_at(calls, since=10, limit_ms=150) == 11  # any instance will do
    assert recovered_at(calls[:-1], since=10, limit_ms=150, served_by="primary") is None


@given(st.lists(st.tuples(st.floats(0, 100), st.floats(1, 1000), st.booleans()), max_size=40,
                unique_by=lambda call: call[0]),  # two calls started at one instant have no order to judge
       st.floats(0, 100), st.floats(1, 1000))
def test_a_recovery_is_always_followed_by_the_whole_run(raw, since, limit) -> None:
    calls = [_call(at, ms, "OK" if ok else "UNAVAILABLE") for at, ms, ok in raw]
    found = recovered_at(calls, since, limit)
    if found is not None:
        run = sorted((c for c in calls if c.started_s >= found), key=lambda c: c.started_s)[:5]
        assert found >= since and len(run) == 5
        assert all(c.code == "OK" and c.duration_ms <= limit for c in run)


def test_faults_are_checked_and_kept_in_order() -> None:
    assert check_faults(["primary_killed", "collector_killed"]) == ("collector_killed", "primary_killed")
    with pytest.raises(ValueError, match="unknown fault nope"):
        check_faults(["nope"])
    assert set(FAULTS) == {"collector_killed", "fallback_killed", "primary_slowed", "primary_frozen",
                           "primary_killed"}


def test_the_report_shows_losses_added_latency_and_recovery_and_judges_the_targets() -> None:
    base = window([_call(t, 100) for t in range(60)])
    killed = FaultResult("primary_killed", FAULTS["primary_killed"].how,
                         window([_call(0, 2000, "UNAVAILABLE"), *[_call(t, 300, by="fallback") for t in range(1, 60)]]),
                         window([_call(t, 100) for t in range(20)]), restarted_s=95.0, recovered_s=97.5)
    slowed = FaultResult("primary_slowed", FAULTS["primary_slowed"].how,
                         window([_call(t, 1500, "DEADLINE_EXCEEDED") for t in range(3)] + [_call(9, 400)]),
                         window([_call(t, 100) for t in range(20)]), restarted_s=None, recovered_s=None,
                         moved_off_s=31.0, held_s=60.0)
    result = FailoverBench(2, 20.0, base, [killed, slowed])
    text = render_report(result)
    assert "| primary_killed | 1 / 60 | 0 / 20 | +200 / +897 | +0 / +0 | 95.0 | 97.5 | fallback 59 |" in text
    assert "moved traffic off the primary 31.0 s in" in text and "DEADLINE_EXCEEDED 3" in text
    targets = result.targets()
    assert targets["primary_killed: at most 1 call in 60 lost"]
    assert not targets["primary_slowed: at most 1 call in 60 lost"]
    assert not targets["primary_slowed: calls back at baseline within 600 s"]
    assert not result.targets_met
    assert result.to_json()["faults"][1]["recovered_s"] is None


@given(base=st.floats(0.1, 10), per_1k=st.floats(0, 100))
def test_the_slowed_primary_stays_past_the_load_prompts_own_budget(base: float, per_1k: float) -> None:
    """The fault freezes the engine longer than the budget the gateway gives the load's prompt (its
    per-1,000-token allowance included), else the slowed primary would never miss a budget."""
    config = ZtgateConfig(gateway={"inference": {"per_try_timeout_s": base,
                                   "per_try_timeout_per_1k_tokens_s": per_1k}})
    budget_s = config.gateway.first_token_budget.budget_ms_for_bytes(len(PROMPT.encode())) / 1000
    assert slow_stop_s(config) >= 1.5 * budget_s - 1e-9 and slow_stop_s(config) > budget_s


def test_the_cli_takes_the_failover_bench_and_its_flags() -> None:
    args = build_parser().parse_args(["bench", "failover", "--clients", "3", "--duration-s", "5",
                                      "--faults", "primary_killed"])
    assert (args.target, args.clients, args.duration_s, args.faults) == ("failover", 3, 5.0, "primary_killed")
    assert build_parser().parse_args(["bench", "redaction"]).clients is None  # each bench's own default


class _Double(inference_pb2_grpc.InferenceServicer):
    """TEST DOUBLE: answers as `primary`, except the calls whose number is in `fail` (UNAVAILABLE)."""

    def __init__(self, fail: set[int]) -> None:
        self.fail, self.requests = fail, []

    async def Generate(self, request, context):
        self.requests.append(request)
        if len(self.requests) in self.fail:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "injected")
        await asyncio.sleep(0.01)
        return ipb.GenerateResponse(text="hi", served_by="primary")


async def test_steady_load_makes_its_calls_from_each_client_and_records_what_failed() -> None:
    double = _Double(fail={3})
    server = grpc.aio.server()
    inference_pb2_grpc.add_InferenceServicer_to_server(double, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        in_flight: dict[int, float] = {}
        calls = await steady_load(f"127.0.0.1:{port}", clients=2, max_calls=9, timeout_s=5, in_flight=in_flight)
        stopped = await steady_load(f"127.0.0.1:{port}", clients=2, stop=lambda: True)
    finally:
        await server.stop(0)
    assert len(calls) == 9 and len(double.requests) == 9 and in_flight == {}
    assert [c.code for c in calls].count("UNAVAILABLE") == 1
    assert {c.served_by for c in calls if c.code == "OK"} == {"primary"}
    assert all(r.sampling.max_tokens == MAX_TOKENS and r.sampling.temperature == 0 for r in double.requests)
    assert stopped == []
