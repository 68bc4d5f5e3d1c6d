"""Dynamic speculation by batch size (vLLM's `num_speculative_tokens_per_batch_size`): our settings
check a schedule before vLLM loads, and read it the way vLLM's own lookup expands it."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from vllm.v1.spec_decode.dynamic.utils import (
    build_dynamic_sd_schedule_lookup,
    validate_and_normalize_dynamic_sd_schedule,
)

from ztgate.inference.spec_decode.settings import (
    DEFAULT_DRAFT_TOKEN_COST,
    FIXED_DRAFT_COUNT,
    MAX_DRAFT_TOKEN_COST,
    SELF_GATING,
    SpeculativeSettings,
)
from ztgate.inference.engines.errors import EngineConfigError
from ztgate.inference.engines.vllm_engine import speculative_config
from ztgate.inference.spec_decode.section import SpeculativeSection, speculative_settings
from ztgate.inference.engines.engine_config import EngineConfig


@st.composite
def schedules(draw: st.DrawFn) -> tuple[tuple[int, int, int], ...]:
    """Valid schedules: ranges from 1, sorted, maybe with gaps between them."""
    out, start = [], 1
    for _ in range(draw(st.integers(1, 4))):
        end = start + draw(st.integers(0, 6))
        out.append((start, end, draw(st.integers(0, 12))))
        start = end + 1 + draw(st.integers(0, 3))
    return tuple(out)


@settings(max_examples=200, deadline=None)
@given(schedule=st.lists(st.tuples(st.integers(-2, 12), st.integers(-2, 12), st.integers(-2, 12)),
                         max_size=4).map(tuple) | schedules())
@example(schedule=((3, 4, 1), (1, 2, 1)))
def test_every_schedule_vllm_would_refuse_is_refused_before_it_loads(schedule) -> None:
    """Whatever vLLM would refuse at start is refused first, naming the setting. Ours is stricter in
    one way: ranges must be listed in order (vLLM sorts them), so what is written reads as it acts."""
    spec = SpeculativeSettings(method="ngram", num_speculative_tokens=8, batch_schedule=schedule)
    try:
        validate_and_normalize_dynamic_sd_schedule([list(e) for e in schedule])
        vllm_ok = True
    except ValueError:
        vllm_ok = False
    try:
        spec.check()
        ours_ok = True
    except EngineConfigError:
        ours_ok = False
    assert vllm_ok or not ours_ok
    if vllm_ok and not ours_ok:
        assert list(schedule) != sorted(schedule)


@pytest.mark.parametrize(("schedule", "message"), [
    ((), "is empty"),
    (((2, 4, 3),), "start at batch size 1"),
    (((1, 4, 3), (3, 8, 0)), "not overlapping"),
    (((1, 4, 3), (6, 5, 0)), "ends before it starts"),
    (((1, 4, -1),), "0 or more"),
])
def test_a_schedule_vllm_would_refuse_stops_the_start_naming_the_setting(schedule, message: str) -> None:
    spec = SpeculativeSettings(method="ngram", batch_schedule=schedule)
    with pytest.raises(EngineConfigError, match=message) as info:
        spec.check()
    assert "num_speculative_tokens_per_batch_size" in str(info.value)


def test_auto_leaves_the_batch_to_adaptive_drafting_and_without_it_runs_a_batch_plain(tmp_path) -> None:
    """`auto` with a draft-token cost (the default) is no batch schedule: the acceptance-following
    scheduler weighs the batch size itself (draft_policy.break_even). With the cost at 0 it is the
    measured fallback (docs/benchmarks.md): n-gram drafts pay one request at a time and lose with 4
    in flight on this CPU, so a batch runs plain."""
    section = SpeculativeSection(method="ngram")
    assert section.num_speculative_tokens_per_batch_size == "auto" and section.token_cost() > 0
    assert speculative_settings(section).batch_schedule is None
    spec = speculative_settings(SpeculativeSection(method="ngram", draft_token_cost=0))
    assert spec.batch_schedule == ((1, 1, 8), (2, 1024, 0))
    lookup = build_dynamic_sd_schedule_lookup([list(e) for e in spec.batch_schedule], 8, 8)
    assert [lookup[b] for b in (1, 2, 4, 8)] == [8, 0, 0, 0]
    vllm = speculative_config(EngineConfig(model_dir=tmp_path, speculative=spec))
    assert vllm is not None and vllm["num_speculative_tokens_per_batch_size"] == [[1, 1, 8], [2, 1024, 0]]
    assert speculative_settings(SpeculativeSection(method="ngram", num_speculative_tokens=3, draft_token_cost=0)
                                ).batch_schedule == ((1, 1, 3), (2, 1024, 0))
    assert speculative_settings(SpeculativeSection(method="ngram", num_speculative_tokens_per_batch_size=None)
                                ).batch_schedule is None
    explicit = SpeculativeSection(method="ngram", num_speculative_tokens_per_batch_size=[(1, 4, 8), (5, 8, 2)])
    assert speculative_settings(explicit).batch_schedule == ((1, 4, 8), (5, 8, 2))
    unscheduled = SpeculativeSettings(method="ngram", num_speculative_tokens=8)
    assert "num_speculative_tokens_per_batch_size" not in speculative_config(
        EngineConfig(model_dir=tmp_path, speculative=unscheduled))


@pytest.mark.parametrize("method", FIXED_DRAFT_COUNT)
def test_a_method_with_a_fixed_draft_count_takes_no_default_schedule(method: str) -> None:
    """vLLM 0.32's Medusa and suffix proposers assert a fixed draft count: `auto` is no schedule for
    them, also when a config file names the method over the defaults (load_settings merges into
    their dump); set explicitly, the engine check refuses one before vLLM loads."""
    from ztgate.common.config import load_settings
    from ztgate.config import ZtgateConfig

    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_INFERENCE__PRIMARY__SPECULATIVE__METHOD": method,
                                                        "ZTGATE_INFERENCE__PRIMARY__SPECULATIVE__DRAFT_MODEL": "/m"})
    section = config.inference.primary.speculative
    assert section.method == method and speculative_settings(section).batch_schedule is None
    assert speculative_settings(SpeculativeSection(method="ngram", draft_token_cost=0)).batch_schedule is not None
    explicit = SpeculativeSection(method=method, draft_model="/m",
                                  num_speculative_tokens_per_batch_size=[(1, 1, 8), (2, 1024, 0)])
    with pytest.raises(EngineConfigError, match=f"{method} drafts num_speculative_tokens"):
        speculative_settings(explicit).check()


def test_a_draft_token_cost_loads_the_adaptive_scheduler_and_nothing_else_does(tmp_path) -> None:
    """vLLM gets our scheduler (by its qualified name, imported in the engine-core process) and the
    cost through its own settings; without speculation or with the cost at 0 vLLM's own runs."""
    from ztgate.inference.spec_decode.adaptive_scheduler import COST_KEY, QUALNAME
    from ztgate.inference.engines.vllm_engine import adaptive_drafting_args

    adaptive = SpeculativeSettings(method="suffix", draft_token_cost=0.05)
    assert adaptive_drafting_args(EngineConfig(model_dir=tmp_path, speculative=adaptive)) == {
        "scheduler_cls": QUALNAME, "additional_config": {COST_KEY: 0.05}}
    for spec in (SpeculativeSettings(method="suffix"), SpeculativeSettings(method="none", draft_token_cost=0.05)):
        assert adaptive_drafting_args(EngineConfig(model_dir=tmp_path, speculative=spec)) == {}
    # Unset, the cost is the method's: 0.05 (measured here), but 0 for suffix decoding, whose trees
    # gate their own drafts; set, it is what was set, suffix decoding included.
    assert speculative_settings(SpeculativeSection(method="ngram")).draft_token_cost == 0.05
    assert speculative_settings(SpeculativeSection(method="eagle3", draft_model="/m")).draft_token_cost == 0.05
    assert speculative_settings(SpeculativeSection(method="suffix")).draft_token_cost == 0.0
    assert speculative_settings(SpeculativeSection(method="suffix", draft_token_cost=0.05)).draft_token_cost == 0.05
    assert speculative_settings(SpeculativeSection(method="ngram", draft_token_cost=0)).draft_token_cost == 0.0
    with pytest.raises(EngineConfigError, match="draft_token_cost"):
        SpeculativeSettings(method="ngram", draft_token_cost=-1).check()


@given(method=st.sampled_from(["ngram", "suffix", "draft_model", "eagle", "eagle3", "medusa"]),
       cost=st.none() | st.floats(0, MAX_DRAFT_TOKEN_COST))
def test_a_set_cost_is_kept_and_an_unset_one_is_the_methods_default(method: str, cost: float | None) -> None:
    """Whatever the method, a cost that is set reaches the engine as set; unset, it is 0 only for a
    method that gates its own drafts (SELF_GATING), and the measured default for every other."""
    section = SpeculativeSection(method=method, draft_model="/m", draft_token_cost=cost)
    expected = cost if cost is not None else (0.0 if method in SELF_GATING else DEFAULT_DRAFT_TOKEN_COST)
    assert section.token_cost() == expected
    assert speculative_settings(section).draft_token_cost == expected
    # a schedule by batch size only where nothing drafts by acceptance (and the method allows one)
    assert (section.batch_schedule() is None) == (method in FIXED_DRAFT_COUNT or expected > 0)
