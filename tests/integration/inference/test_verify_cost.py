"""The verification-cost probe on the real model: the figure that bounds speculative speedup here."""

from __future__ import annotations

from ztgate_bench.verify_cost import PassCost, draft_token_cost, main, measure, measure_vllm_gemm, render


def test_probe_times_each_pass_against_a_one_token_pass(model_dir) -> None:
    costs = measure(model_dir, tokens=(1, 4), context=16, repeats=2)
    assert [c.tokens for c in costs] == [1, 4]
    assert costs[0].relative == 1.0 and costs[0].ceiling == 1.0
    assert all(c.ms > 0 for c in costs)
    # A pass over four new tokens costs more than a quarter of a one-token pass: both read every weight.
    assert costs[1].relative > 0.25
    assert costs[1].ceiling == 4 / costs[1].relative


def test_vllm_gemm_path_times_the_models_products_through_vllms_kernel(model_dir) -> None:
    costs = measure_vllm_gemm(model_dir, tokens=(1, 9), repeats=2)
    assert [c.tokens for c in costs] == [1, 9] and costs[0].relative == 1.0
    # Nine rows cost more than one (each product does nine times the arithmetic), and less than
    # nine one-token passes (every weight is read once per pass, not once per token).
    assert 1.0 < costs[1].relative < 9.0
    text = render(costs, threads=1, path="vllm-gemm")
    assert text.startswith("Matrix products of one step through vLLM's CPU kernel")


def test_table_shows_the_speedup_ceiling_per_pass_size() -> None:
    text = render([PassCost(1, 100.0, 1.0), PassCost(9, 210.0, 2.1)], threads=1)
    assert "| 9 | 210.0 | 2.10 | 4.29x |" in text and "1 thread(s)" in text
    assert "Each more token costs 0.138 of a one-token pass (speculative.draft_token_cost)." in text


def test_the_draft_token_cost_is_the_slope_through_a_one_token_pass() -> None:
    linear = [PassCost(n, 10.0 * (1 + 0.05 * (n - 1)), 1 + 0.05 * (n - 1)) for n in (1, 2, 5, 9)]
    assert abs(draft_token_cost(linear) - 0.05) < 1e-12
    assert draft_token_cost([PassCost(1, 10.0, 1.0), PassCost(3, 9.0, 0.9)]) == 0.0  # noise below one pass


def test_cli_says_what_to_run_when_the_model_is_missing(tmp_path, capsys) -> None:
    assert main(["--model-dir", str(tmp_path)]) == 2
    assert "ztgate models prepare" in capsys.readouterr().err
