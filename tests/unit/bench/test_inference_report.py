"""The inference bench's statistics and table, on hand-built records (no engine)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ztgate_bench.inference_report import (
    BenchHeader,
    ConfigRun,
    RequestRecord,
    SetRun,
    build_rows,
    faster_of,
    gpu_implied_speedup,
    targets_met,
    identical_share,
    reference_for,
    render_report,
    render_table,
    speedup,
    target_lines,
    to_json,
)


def rec(index: int, ids: tuple[int, ...], latency_ms: float = 100.0, *, drafts: int = 0, draft_tokens: int = 0,
        accepted: int = 0, counted: bool = True) -> RequestRecord:
    return RequestRecord(index, ids, latency_ms, 10.0, drafts, draft_tokens, accepted, counted)


def set_run(name: str, conc: int, wall_s: float, records: list[RequestRecord]) -> SetRun:
    return SetRun(name, conc, wall_s, tuple(records))


HEADER = BenchHeader("ztgate bench inference --max-tokens 4", "box", 2, "2026-01-01 00:00 UTC",
                     "SmolLM2-135M-Instruct", 4, arch="x86_64")


def test_tokens_per_s_is_all_completion_tokens_over_the_set_wall_time() -> None:
    s = set_run("mixed", 4, 2.0, [rec(0, (1, 2, 3)), rec(1, (4, 5, 6, 7, 8))])
    assert s.completion_tokens == 8
    assert s.tokens_per_s == 4.0
    assert set_run("mixed", 1, 0.0, []).tokens_per_s == 0.0


@pytest.mark.parametrize(("latencies", "p95"), [
    ([100.0], 100.0),
    ([float(x) for x in range(1, 101)], 95.05),  # linear interpolation between closest ranks
    ([10.0, 20.0], 19.5),
    ([50.0, 10.0, 30.0, 20.0, 40.0], 48.0),  # unordered input
])
def test_p95_is_the_interpolated_95th_percentile_of_request_latencies(latencies: list[float], p95: float) -> None:
    s = set_run("mixed", 1, 1.0, [rec(i, (1,), ms) for i, ms in enumerate(latencies)])
    assert s.p95_ms == pytest.approx(p95)


def test_acceptance_figures_are_ratios_of_summed_engine_counts() -> None:
    s = set_run("copy_heavy", 1, 1.0, [rec(0, (1,) * 10, drafts=2, draft_tokens=8, accepted=6),
                                       rec(1, (1,) * 10, drafts=3, draft_tokens=12, accepted=2)])
    assert s.acceptance_rate == pytest.approx(8 / 20)  # not the mean of 0.75 and 0.17
    assert s.mean_acceptance_length == pytest.approx(1 + 8 / 5)


@pytest.mark.parametrize("records", [
    [rec(0, (1, 2))],  # plain: nothing drafted
    [rec(0, (1, 2), drafts=1, draft_tokens=4, accepted=1, counted=False), rec(1, (3,), counted=False)],  # not counted
])
def test_acceptance_is_unknown_rather_than_zero_without_counts(records: list[RequestRecord]) -> None:
    s = set_run("mixed", 1, 1.0, records)
    assert s.acceptance_rate is None and s.mean_acceptance_length is None


def test_identical_share_compares_token_ids_prompt_by_prompt() -> None:
    ref = set_run("mixed", 1, 1.0, [rec(0, (1, 2)), rec(1, (3, 4)), rec(2, (5,)), rec(3, (6,))])
    run = set_run("mixed", 1, 1.0, [rec(3, (6,)), rec(2, (5, 9)), rec(1, (3, 4)), rec(0, (1, 2))])  # any order
    assert identical_share(run, ref) == 0.75
    assert identical_share(ref, ref) == 1.0
    assert identical_share(set_run("mixed", 1, 1.0, [rec(7, (1,))]), ref) is None  # no shared prompt


def test_a_prefix_of_the_reference_is_not_identical() -> None:
    ref = set_run("mixed", 1, 1.0, [rec(0, (1, 2, 3))])
    assert identical_share(set_run("mixed", 1, 1.0, [rec(0, (1, 2))]), ref) == 0.0


def _runs() -> list[ConfigRun]:
    """strict and fast: plain and ngram, at conc 1 and 4, on two sets; numbers chosen to be told apart."""
    def plain_sets(mixed_tps: float, copy_tps: float) -> tuple[SetRun, ...]:
        return (set_run("mixed", 1, 8 / mixed_tps, [rec(0, (1, 2, 3, 4)), rec(1, (5, 6, 7, 8))]),
                set_run("copy_heavy", 1, 8 / copy_tps, [rec(0, (9,) * 8)]),
                set_run("mixed", 4, 8 / (2 * mixed_tps), [rec(0, (1, 2, 3, 4)), rec(1, (5, 6, 7, 0))]),
                set_run("copy_heavy", 4, 8 / (2 * copy_tps), [rec(0, (9,) * 8)]))

    def spec(tokens: tuple[int, ...]) -> RequestRecord:
        return rec(1, tokens, drafts=2, draft_tokens=8, accepted=4)

    return [
        ConfigRun("strict", "none", sets=plain_sets(10.0, 10.0)),
        ConfigRun("strict", "ngram:8:1:4", sets=(
            set_run("mixed", 1, 8 / 16.0, [rec(0, (1, 2, 3, 4), drafts=1, draft_tokens=8, accepted=2),
                                         spec((5, 6, 7, 8))]),
            set_run("copy_heavy", 1, 8 / 30.0, [rec(0, (9,) * 8, drafts=2, draft_tokens=16, accepted=14)]),
            set_run("mixed", 4, 8 / 24.0, [rec(0, (1, 2, 3, 4), drafts=1, draft_tokens=8, accepted=2),
                                         spec((5, 6, 7, 0))]),
            set_run("copy_heavy", 4, 8 / 40.0, [rec(0, (9,) * 8, drafts=2, draft_tokens=16, accepted=14)]))),
        ConfigRun("fast", "none", sets=plain_sets(20.0, 20.0)),
        ConfigRun("fast", "ngram:8:1:4", sets=(
            set_run("mixed", 1, 8 / 10.0, [rec(0, (1, 2, 3, 4), drafts=1, draft_tokens=8, accepted=2),
                                         spec((5, 6, 7, 1))]),
            set_run("copy_heavy", 1, 8 / 20.0, [rec(0, (9,) * 8, drafts=1, draft_tokens=8, accepted=7)]))),
    ]


def test_speculative_rows_pair_with_plain_of_the_same_parity_and_concurrency() -> None:
    runs = _runs()
    strict_ngram, fast_ngram = runs[1], runs[3]
    assert reference_for(strict_ngram, "mixed", 4, runs) is runs[0].get("mixed", 4)
    assert reference_for(fast_ngram, "mixed", 1, runs) is runs[2].get("mixed", 1)
    rows = {(r.parity, r.config, r.concurrency): r for r in build_rows(runs)}
    assert rows["strict", "ngram:8:1:4", 1].cells["mixed"].speedup == pytest.approx(1.6)   # 16 / 10
    assert rows["strict", "ngram:8:1:4", 4].cells["mixed"].speedup == pytest.approx(1.2)   # 24 / 20
    assert rows["fast", "ngram:8:1:4", 1].cells["copy_heavy"].speedup == pytest.approx(1.0)  # 20 / 20
    assert speedup(runs[1].sets[0], None) is None


def test_plain_rows_compare_with_plain_at_the_lowest_concurrency() -> None:
    runs = _runs()
    assert reference_for(runs[0], "mixed", 1, runs) is None
    assert reference_for(runs[0], "mixed", 4, runs) is runs[0].get("mixed", 1)
    rows = {(r.parity, r.config, r.concurrency): r for r in build_rows(runs)}
    c1, c4 = rows["strict", "none", 1].cells["mixed"], rows["strict", "none", 4].cells["mixed"]
    assert c1.speedup is None and c1.identical is None
    assert c4.speedup is None and c4.identical == 0.5  # batching changed prompt 1's answer


def test_identical_column_and_rows_in_parity_config_concurrency_order() -> None:
    runs = _runs()
    rows = build_rows(runs)
    assert [(r.parity, r.config, r.concurrency) for r in rows] == [
        ("strict", "none", 1), ("strict", "none", 4), ("strict", "ngram:8:1:4", 1), ("strict", "ngram:8:1:4", 4),
        ("fast", "none", 1), ("fast", "none", 4), ("fast", "ngram:8:1:4", 1)]
    by_key = {(r.parity, r.config, r.concurrency): r for r in rows}
    assert by_key["strict", "ngram:8:1:4", 1].cells["mixed"].identical == 1.0
    assert by_key["strict", "ngram:8:1:4", 4].cells["mixed"].identical == 1.0  # same as plain at conc 4
    assert by_key["fast", "ngram:8:1:4", 1].cells["mixed"].identical == 0.5
    assert ("fast", "ngram:8:1:4", 4) not in by_key  # not measured: no row


def test_plain_listed_first_even_when_run_after_a_speculative_config() -> None:
    runs = _runs()
    rows = build_rows([runs[1], runs[0]])
    assert [r.config for r in rows] == ["none", "none", "ngram:8:1:4", "ngram:8:1:4"]


def test_table_has_seven_columns_per_set_and_formats_each_cell() -> None:
    table = render_table(_runs())
    lines = table.strip().splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    assert head[:3] == ["parity", "config", "conc"]
    assert head[3:10] == ["mixed tok/s", "mixed speedup", "mixed P95 ms", "mixed accept", "mixed mean len",
                          "mixed GPU-implied", "mixed identical"]
    assert head[10] == "copy_heavy tok/s" and len(head) == 17
    assert all(line.count("|") == 18 for line in lines)
    strict_ngram_1 = [c.strip() for c in lines[4].strip("|").split("|")]
    assert strict_ngram_1 == ["strict", "ngram:8:1:4", "1", "16.0", "1.60x", "100", "0.38", "3.00", "3.00x", "100%",
                              "30.0", "3.00x", "100", "0.88", "8.00", "8.00x", "100%"]
    plain_1 = [c.strip() for c in lines[2].strip("|").split("|")]
    assert plain_1[:10] == ["strict", "plain", "1", "10.0", "-", "100", "-", "-", "-", "-"]


def test_missing_sets_show_as_not_measured() -> None:
    runs = _runs()
    lopsided = [runs[2], ConfigRun("fast", "ngram:4:1:3", sets=(runs[3].sets[0],))]
    line = render_table(lopsided).strip().splitlines()[-1]
    assert line.count("n/a") == 7  # its copy_heavy cells


def test_targets_check_strict_identity_and_single_stream_speedups() -> None:
    lines = target_lines(_runs())
    assert "strict ngram:8:1:4 conc 1: identical greedy outputs 100% (met)" in lines
    assert "strict ngram:8:1:4 conc 1: mixed speedup 1.60x, target 1.5x (met)" in lines
    assert "strict ngram:8:1:4 conc 1: copy_heavy speedup 3.00x, target 2.5x (met)" in lines
    assert "fast ngram:8:1:4 conc 1: copy_heavy speedup 1.00x, target 2.5x (NOT met)" in lines
    assert not any("conc 4" in line and "speedup" in line for line in lines)  # single stream only
    assert not any(line.startswith("fast") and "identical" in line for line in lines)  # strict only


def test_the_exit_status_follows_the_targets() -> None:
    runs = _runs()
    assert not targets_met(runs)  # fast ngram's copy_heavy 1.00x misses its 2.5x
    assert targets_met(runs[:2])  # strict only: identical, 1.6x and 3.0x
    assert targets_met(runs[:1])  # plain alone has no targets


def test_a_strict_mismatch_fails_the_identity_target() -> None:
    runs = _runs()
    bad = runs[1].sets[0]
    broken = SetRun(bad.prompt_set, 1, bad.wall_s, (bad.records[0], rec(1, (5, 6, 7, 9))))
    runs[1] = ConfigRun("strict", "ngram:8:1:4", sets=(broken, *runs[1].sets[1:]))
    assert "strict ngram:8:1:4 conc 1: identical greedy outputs below 100% (NOT met)" in target_lines(runs)


def test_report_has_the_header_line_and_json_round_trips() -> None:
    text = render_report(_runs(), HEADER)
    first = text.splitlines()[0]
    for part in ("`ztgate bench inference --max-tokens 4`", "box (x86_64, 2 CPUs)", "2026-01-01",
                 "SmolLM2-135M-Instruct", "max_tokens 4"):
        assert part in first
    assert "Targets:" in text
    data = json.loads(json.dumps(to_json(_runs(), HEADER)))
    assert data["header"]["cpus"] == 2
    assert len(data["rows"]) == 7 and data["rows"][2]["sets"]["mixed"]["speedup"] == pytest.approx(1.6)
    assert data["runs"][1]["sets"][0]["records"][0]["token_ids"] == [1, 2, 3, 4]


@given(length=st.floats(1.0, 16.0), cost=st.floats(0.5, 4.0))
def test_gpu_implied_speedup_is_tokens_per_verification_over_its_cost(length: float, cost: float) -> None:
    assert gpu_implied_speedup(length, cost) == pytest.approx(length / cost)
    assert gpu_implied_speedup(length) == length  # a verification costs one plain step
    assert gpu_implied_speedup(None) is None and gpu_implied_speedup(float("nan")) is None


@given(st.lists(st.tuples(st.floats(0.1, 10), st.floats(0.1, 10)), min_size=1, max_size=4))
def test_plain_measured_twice_keeps_each_sets_faster_measurement(walls: list[tuple[float, float]]) -> None:
    keys = [("mixed", 1), ("copy_heavy", 1), ("mixed", 4), ("copy_heavy", 4)][:len(walls)]
    first = ConfigRun("strict", "none", sets=tuple(set_run(n, c, a, [rec(0, (1,))]) for (n, c), (a, _) in zip(keys, walls)))
    last = ConfigRun("strict", "none", sets=tuple(set_run(n, c, b, [rec(0, (1,))]) for (n, c), (_, b) in zip(keys, walls)))
    kept = faster_of(first, last)
    assert [(s.prompt_set, s.concurrency) for s in kept.sets] == keys
    assert [s.wall_s for s in kept.sets] == [min(a, b) for a, b in walls]
    # so the anchor's speed is never below either measurement, and no speedup can rise
    assert all(kept.get(n, c).tokens_per_s >= max(first.get(n, c).tokens_per_s, last.get(n, c).tokens_per_s) - 1e-9
               for n, c in keys)
