"""The inference bench's configuration names and its concurrent runner, with a stand-in engine."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator

import pytest

from ztgate_bench.inference_bench import (
    ALL_SETS,
    COPY_HEAVY,
    GROUNDED,
    MIXED,
    OPEN_ENDED,
    add_arguments,
    config_name,
    config_names,
    parse_config,
    run_note,
    run_pass,
    run_set,
)
from ztgate.inference.spec_decode.settings import SpeculativeSettings
from ztgate.inference.engines.outputs import Delta, FinalStats, SpeculativeStats, Usage
from ztgate.inference.engines.request import GenerationRequest


@pytest.mark.parametrize(("text", "settings"), [
    ("none", SpeculativeSettings(method="none")),
    ("plain", SpeculativeSettings(method="none")),
    ("ngram:4:1:3", SpeculativeSettings(method="ngram", num_speculative_tokens=4, prompt_lookup_min=1,
                                        prompt_lookup_max=3)),
    ("draft_model:/models/draft:v2:5", SpeculativeSettings(method="draft_model", num_speculative_tokens=5,
                                                           draft_model="/models/draft:v2")),
    ("ngram:8:1:4@1-1:8,2-64:0", SpeculativeSettings(method="ngram", num_speculative_tokens=8,
                                                     prompt_lookup_min=1, prompt_lookup_max=4,
                                                     batch_schedule=((1, 1, 8), (2, 64, 0)))),
    ("eagle3:/models/eagle3:3", SpeculativeSettings(method="eagle3", num_speculative_tokens=3,
                                                    draft_model="/models/eagle3")),
    ("medusa:/models/medusa:2", SpeculativeSettings(method="medusa", num_speculative_tokens=2,
                                                    draft_model="/models/medusa")),
    ("suffix:8", SpeculativeSettings(method="suffix", num_speculative_tokens=8)),
    ("suffix:8:1000", SpeculativeSettings(method="suffix", num_speculative_tokens=8, suffix_cached_requests=1000)),
    ("suffix:8~0.05", SpeculativeSettings(method="suffix", num_speculative_tokens=8, draft_token_cost=0.05)),
    ("suffix:8:0:1", SpeculativeSettings(method="suffix", num_speculative_tokens=8, suffix_max_spec_factor=1.0)),
    ("suffix:16:500:4.5", SpeculativeSettings(method="suffix", num_speculative_tokens=16, suffix_cached_requests=500,
                                              suffix_max_spec_factor=4.5)),
    ("eagle3:/m/e:3~0.1@1-1:3,2-8:0", SpeculativeSettings(method="eagle3", num_speculative_tokens=3, draft_model="/m/e",
                                                          draft_token_cost=0.1, batch_schedule=((1, 1, 3), (2, 8, 0)))),
])
def test_parse_config_reads_each_form(text: str, settings: SpeculativeSettings) -> None:
    assert parse_config(text) == settings


@pytest.mark.parametrize("text", ["ngram", "ngram:4:1", "ngram:a:1:3", "draft_model:5", "draft_model:/p:k",
                                  "eagle3:4", "medusa:3", "suffix", "suffix:x", "suffix:8:y", "suffix:8:0:z", "eagle:/p:4", "none:1", "", "none@1-1:2",
                                  "ngram:8:1:4@1-x:2", "ngram:8:1:4@", "suffix:8~", "suffix:8~x", "suffix:8~-1",
                                  "suffix:8~11", "none~0.05"])
def test_parse_config_refuses_malformed_names_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="ngram:K:MIN:MAX"):
        parse_config(text)


@pytest.mark.parametrize("text", ["none", "ngram:8:1:4", "draft_model:/m/d:3", "medusa:/m/h:3", "suffix:8",
                                  "suffix:8:1000", "ngram:8:1:4@1-1:8,2-1024:0", "suffix:8~0.05", "suffix:8:0:1",
                                  "suffix:12:100:3.5",
                                  "ngram:8:1:4~0.2@1-1:8,2-1024:0"])
def test_config_name_inverts_parse_config(text: str) -> None:
    assert config_name(parse_config(text)) == text


def test_config_names_put_plain_then_the_primary_then_extras_once_each() -> None:
    primary = SpeculativeSettings(method="ngram", num_speculative_tokens=8, prompt_lookup_min=1, prompt_lookup_max=4)
    assert config_names(primary, ["ngram:4:1:3", "ngram:08:1:4", "none", "ngram:4:1:3"]) == [
        "none", "ngram:8:1:4", "ngram:4:1:3"]
    assert config_names(SpeculativeSettings(method="none"), []) == ["none"]


def test_flags_default_to_a_bounded_run_of_both_parities_at_one_and_four() -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args([])
    assert (args.parity, args.concurrency, args.max_tokens, args.repeat, args.configs) == (
        ["strict", "fast"], [1, 4], 64, 1, [])


def test_the_mixed_set_is_half_open_questions_half_requests_about_a_pasted_text() -> None:
    assert MIXED == OPEN_ENDED + GROUNDED and len(OPEN_ENDED) == len(GROUNDED)
    assert not set(MIXED) & set(COPY_HEAVY)
    # A grounded prompt carries the text it is about; an open question carries none.
    assert min(len(p) for p in GROUNDED) > 3 * max(len(p) for p in OPEN_ENDED)


def test_sets_default_to_mixed_and_copy_heavy_and_accept_the_halves() -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    assert p.parse_args([]).sets == ["mixed", "copy_heavy"]
    assert p.parse_args(["--sets", "open_ended", "grounded"]).sets == ["open_ended", "grounded"]
    assert set(ALL_SETS) == {"mixed", "copy_heavy", "open_ended", "grounded"}
    with pytest.raises(SystemExit):
        p.parse_args(["--sets", "poetry"])


class StandInEngine:
    """Answers each prompt with its length in tokens after `delay_s`, and counts requests in flight."""

    def __init__(self, delay_s: float = 0.02, delays: list[float] | None = None) -> None:
        self.delay_s = delay_s
        self.delays = delays  # per call, in order; overrides delay_s
        self.calls = 0
        self.inflight = 0
        self.peak = 0

    async def generate(self, request: GenerationRequest) -> AsyncIterator[Delta]:
        self.inflight += 1
        self.peak = max(self.peak, self.inflight)
        delay = self.delays[self.calls] if self.delays else self.delay_s
        self.calls += 1
        try:
            await asyncio.sleep(delay)
            n = len(request.messages[0].content)
            stats = SpeculativeStats(method="ngram", num_speculative_tokens=4, num_drafts=1, draft_tokens=4,
                                     accepted_tokens=n % 5)
            yield Delta(tuple(range(n)), "x" * n, finish_reason="length",
                        final=FinalStats(usage=Usage(3, n), speculative=stats))
        finally:
            self.inflight -= 1


PROMPTS = ("a", "bb", "ccc", "dddd", "eeeee", "ffffff")


@pytest.mark.parametrize("concurrency", [1, 4])
async def test_a_pass_keeps_at_most_concurrency_requests_in_flight(concurrency: int) -> None:
    engine = StandInEngine()
    s = await run_pass(engine, "mixed", PROMPTS, 8, concurrency)  # type: ignore[arg-type]
    assert engine.peak == concurrency
    assert (s.prompt_set, s.concurrency, len(s.records)) == ("mixed", concurrency, 6)


async def test_a_pass_records_each_prompt_with_its_tokens_counts_and_latency() -> None:
    s = await run_pass(StandInEngine(), "copy_heavy", PROMPTS, 8, 4)  # type: ignore[arg-type]
    assert [r.prompt_index for r in s.records] == list(range(6))
    assert [len(r.token_ids) for r in s.records] == [1, 2, 3, 4, 5, 6]
    assert [r.accepted_tokens for r in s.records] == [1, 2, 3, 4, 0, 1]
    assert all(r.latency_ms >= 15 and r.counted for r in s.records)
    assert s.completion_tokens == 21


async def test_concurrency_shortens_the_wall_time_that_tokens_per_s_divides_by() -> None:
    one = await run_pass(StandInEngine(0.05), "mixed", PROMPTS[:4], 8, 1)  # type: ignore[arg-type]
    four = await run_pass(StandInEngine(0.05), "mixed", PROMPTS[:4], 8, 4)  # type: ignore[arg-type]
    assert one.wall_s >= 0.2 and four.wall_s < one.wall_s / 2
    assert four.tokens_per_s > 1.5 * one.tokens_per_s


async def test_repeat_keeps_the_fastest_pass() -> None:
    engine = StandInEngine(delays=[0.08, 0.08, 0.01, 0.01, 0.05, 0.05])
    s = await run_set(engine, "mixed", PROMPTS[:2], 8, 1, repeat=3)  # type: ignore[arg-type]
    assert engine.calls == 6
    assert s.wall_s < 0.1  # the other passes take at least 0.1 s


def test_the_run_note_names_the_model_threads_setting_of_a_vllm_run() -> None:
    sets = {"mixed": ("a", "b"), "copy_heavy": ("c",)}
    assert run_note(sets, "vllm", 2, 0) == (
        "Prompts: 2 mixed, 1 copy_heavy; engine vllm; 2 pass(es) per set, the fastest kept; plain runs first "
        "and again last, and each set's anchor is its faster measurement; reserved_cpus 0.")
    assert run_note(sets, "vllm", 1, None).endswith("; reserved_cpus unset (vLLM's default).")
    assert "reserved_cpus" not in run_note(sets, "transformers", 1, None)
