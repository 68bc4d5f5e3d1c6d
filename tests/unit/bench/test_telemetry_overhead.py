"""The telemetry on/off bench's logic: summaries, the added percentage, the interleaving, the report.

`measure` runs against two in-process inference servers written here (TEST DOUBLES: no model,
each records the order in which calls reached it and answers after a fixed delay).
"""

from __future__ import annotations

import asyncio
import math

import grpc
import pytest

from ztgate.gen.inference.v1 import inference_pb2 as pb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate_bench.telemetry_overhead import (MAX_TOKENS, OverheadReport, Summary, added_percent,
                                               measure, round_order)


def test_summary_has_interpolated_percentiles_and_the_mean() -> None:
    summary = Summary.of([float(v) for v in range(1, 101)])
    assert summary.p50_ms == pytest.approx(50.5)
    assert summary.p95_ms == pytest.approx(95.05)
    assert summary.mean_ms == pytest.approx(50.5)
    with pytest.raises(ValueError):
        Summary.of([])


@pytest.mark.parametrize("on, off, percent", [(101.0, 100.0, 1.0), (100.0, 100.0, 0.0),
                                              (98.0, 100.0, -2.0), (250.0, 200.0, 25.0)])
def test_added_percent_is_relative_to_telemetry_off(on: float, off: float, percent: float) -> None:
    assert added_percent(on, off) == pytest.approx(percent)


def test_added_percent_of_a_zero_baseline_is_not_a_number() -> None:
    assert math.isnan(added_percent(1.0, 0.0))


def test_rounds_alternate_which_series_goes_first() -> None:
    orders = [round_order(i) for i in range(10)]
    assert all(sorted(order) == ["off", "on"] for order in orders)
    assert [order[0] for order in orders[:4]] == ["on", "off", "on", "off"]


def _report(on: list[float], off: list[float]) -> OverheadReport:
    return OverheadReport("vllm", len(on), MAX_TOKENS, {"on": on, "off": off},
                          {"on": 0, "off": 1}, exported_items=1234)


def test_report_shows_both_series_the_added_percent_and_the_verdict() -> None:
    text = _report([101.0] * 10, [100.0] * 10).markdown()
    assert "| telemetry off | 100.0 | 100.0 | 100.0 | 1 |" in text
    assert "| telemetry on | 101.0 | 101.0 | 101.0 | 0 |" in text
    assert "| added by telemetry | +1.00% | +1.00% | +1.00% | |" in text
    assert "vllm engine" in text and "accepted 1,234 items" in text
    assert "Target: under 2% added (p50; a failed call left the rounds unpaired): met." in text
    assert "missed" in _report([110.0] * 10, [100.0] * 10).markdown()


def test_verdict_pairs_each_round_so_prompt_length_and_drift_cancel() -> None:
    # Rounds alternate a short and a long prompt; "on" adds 1% to each. Unpaired p50s of the
    # mixture compare a short call with a long one; the per-round median sees the 1%.
    off = [100.0, 1000.0] * 5
    on = [101.0, 1010.0] * 4 + [101.0, 1010.0]
    report = OverheadReport("transformers", 10, MAX_TOKENS, {"on": on, "off": off}, {"on": 0, "off": 0}, 5)
    assert report.paired_percent() == pytest.approx(1.0)
    text = report.markdown()
    assert "same prompt back to back): +1.00%." in text
    assert "Target: under 2% added (per-round median): met." in text
    slower = OverheadReport("transformers", 10, MAX_TOKENS, {"on": [v * 1.05 for v in off], "off": off},
                            {"on": 0, "off": 0}, 5)
    assert "(per-round median): missed." in slower.markdown()


class FixedDelayInference(inference_pb2_grpc.InferenceServicer):
    """TEST DOUBLE: answers Generate after `delay_s`, appending its name to a shared log."""

    def __init__(self, name: str, delay_s: float, log: list[str], fail: bool = False) -> None:
        self.name, self.delay_s, self.log, self.fail = name, delay_s, log, fail
        self.server = grpc.aio.server()
        inference_pb2_grpc.add_InferenceServicer_to_server(self, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")

    async def Generate(self, request: pb.GenerateRequest, context) -> pb.GenerateResponse:
        self.log.append(self.name)
        assert request.sampling.temperature == 0 and request.sampling.max_tokens == MAX_TOKENS
        await asyncio.sleep(self.delay_s)
        if self.fail:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "injected")
        return pb.GenerateResponse(text="ok")


async def test_measure_interleaves_skips_warmup_counts_errors_and_times_each_series() -> None:
    log: list[str] = []
    servers = {"on": FixedDelayInference("on", 0.03, log), "off": FixedDelayInference("off", 0.0, log)}
    for server in servers.values():
        await server.server.start()
    try:
        addresses = {name: f"127.0.0.1:{s.port}" for name, s in servers.items()}
        durations, errors = await measure(addresses, calls=6, warmup=2)
        assert log == ["on", "off", "off", "on"] * 4  # flipped every round, warm-up included
        assert len(durations["on"]) == len(durations["off"]) == 6 and errors == {"on": 0, "off": 0}
        assert min(durations["on"]) >= 30 > min(durations["off"])
        servers["off"].fail = True
        durations, errors = await measure(addresses, calls=3, warmup=1)
        assert errors == {"on": 0, "off": 3} and durations["off"] == [] and len(durations["on"]) == 3
    finally:
        for server in servers.values():
            await server.server.stop(0)
