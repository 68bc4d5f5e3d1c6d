"""The attack bench's pure parts: canaries, the hostile inputs, the figures and the report (the bench
itself runs in tests/e2e/test_attack_bench_harness.py)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate_bench import attack_inputs as inputs
from ztgate_bench.attack_bench import AttackBench, phase_stats, render_report, render_summary
from ztgate_bench.attack_load import (
    BENCH_KINDS,
    KINDS,
    LOWEST_PRIORITY,
    AttackerProcess,
    NORMAL_PROMPT,
    NORMAL_VALUES,
    Call,
    KindFigures,
    check_generate,
    check_kinds,
    check_redact,
)
from ztgate_bench.canaries import Canaries, CanaryRecorder, carried, luhn_check_digit
from ztgate_bench.gateway_bench import EchoInference
from ztgate.gen.inference.v1 import inference_pb2
from ztgate.inference.limits import RequestLimits
from ztgate.redaction.detection.patterns.validators import luhn
from ztgate.redaction.vault import PLACEHOLDER_RE


@pytest.mark.parametrize("payload, digit", [("411111111111111", "1"), ("7992739871", "3"),
                                            ("453914880343646", "7"), ("0", "0")])
def test_luhn_check_digit_completes_known_numbers(payload: str, digit: str) -> None:
    assert luhn_check_digit(payload) == digit


@given(st.integers(min_value=0, max_value=2**32))
def test_every_seed_gives_a_valid_card_an_email_and_an_aws_key_id(seed: int) -> None:
    canaries = Canaries.from_seed(seed)
    assert re.fullmatch(r"4\d{3}( \d{4}){3}", canaries.card) and luhn(canaries.card.replace(" ", ""))
    assert re.fullmatch(r"canary\.[a-z]{8}@attack-\d{4}\.example", canaries.email)
    assert re.fullmatch(r"AKIA[A-Z2-7]{16}", canaries.aws_key)
    assert Canaries.from_seed(seed) == canaries
    sentence = canaries.sentence()
    assert all(f" {value} " in sentence for value in canaries.labelled().values())  # set off by spaces


def test_seeds_draw_different_canaries() -> None:
    assert len({Canaries.from_seed(seed) for seed in range(50)}) == 50


def test_carried_names_the_values_found_in_text_or_bytes() -> None:
    values = {"a": "AKIA1", "b": "x@y.example"}
    assert carried("key AKIA1 here", values) == ["a"]
    assert carried(b"x@y.example and AKIA1", values) == ["a", "b"]
    assert carried("AKIA and x@y", values) == []


async def test_the_echo_upstream_counts_tenants_and_canaries_and_writes_no_text(tmp_path: Path) -> None:
    canaries = Canaries.from_seed(3)
    path = tmp_path / "counts.json"
    recorder = CanaryRecorder(canaries.labelled(), path)
    echo = EchoInference(recorder)
    await echo.Generate(inference_pb2.GenerateRequest(prompt=f"hi {canaries.email}", tenant="attacker"), None)
    await echo.Generate(inference_pb2.GenerateRequest(
        prompt="<EMAIL_ADDRESS_1>", tenant="attacker",
        sampling=inference_pb2.SamplingParams(stop=[canaries.aws_key])), None)
    await echo.Generate(inference_pb2.GenerateRequest(prompt="hello", tenant="normal"), None)
    recorder.write()
    counts = json.loads(path.read_text())
    assert counts == {"requests_by_tenant": {"attacker": 2, "normal": 1},
                      "hits": {"attack card": 0, "attack email": 1, "attack AWS key": 1}}
    assert not carried(path.read_text(), canaries.labelled())  # labels and counts only


def test_recorder_refuses_a_values_file_that_is_not_labels_to_values(tmp_path: Path) -> None:
    path = tmp_path / "values.json"
    path.write_text(json.dumps({"a": ""}))
    with pytest.raises(ValueError, match="label -> non-empty value"):
        CanaryRecorder.load_values(path)


def test_the_32k_chunk_is_the_one_the_issue_reports() -> None:
    assert inputs.CHUNK_32K == "1-" * 16000 + "a" and len(inputs.CHUNK_32K) == 32_001


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(inputs.FAMILIES)), st.integers(min_value=5_000, max_value=200_000))
def test_family_inputs_are_exactly_their_size_with_canaries_around_and_inside(family: str, size: int) -> None:
    canaries = Canaries.from_seed(size)
    text = inputs.family_text(family, size, canaries)
    assert len(text.encode()) == size
    assert text.startswith(canaries.sentence()) and text.count(canaries.sentence()) == 3
    assert inputs.FAMILIES[family] * 20 in text  # the run itself is there, long


def test_a_digit_group_run_ends_in_a_letter_as_the_32k_chunk_does() -> None:
    text = inputs.family_text("digit_groups", 10_000, Canaries.from_seed(1))
    assert "1-1-a\n" in text


def test_family_input_too_small_for_its_canaries_is_refused() -> None:
    with pytest.raises(ValueError, match="too small"):
        inputs.family_text("pem_begins", 200, Canaries.from_seed(1))


@pytest.mark.parametrize("size", [inputs.STREAM_CHUNK_BYTES, 100_003])
def test_adversarial_text_is_exactly_its_size_and_holds_every_family(size: int) -> None:
    canaries = Canaries.from_seed(2)
    text = inputs.adversarial_text(size, canaries)
    assert len(text.encode()) == size
    assert all(unit * 4 in text for unit in inputs.FAMILIES.values())
    assert text.count(canaries.email) == 3 * len(inputs.FAMILIES)


def test_sized_pads_to_the_size_and_refuses_parts_over_it() -> None:
    assert inputs.sized(["é"], 5) == "é..."
    with pytest.raises(ValueError, match="over"):
        inputs.sized(["abc"], 2)


def test_generate_requests_carry_the_shapes_the_issue_names() -> None:
    canaries = Canaries.from_seed(4)
    messages = inputs.many_messages(canaries)
    assert len(messages.messages) == 20_000 and not messages.prompt
    assert [i for i, m in enumerate(messages.messages) if canaries.email in m.content] == [0, 10_000, 19_999]
    assert inputs.huge_max_tokens(canaries).sampling.max_tokens == 10**9
    stops = inputs.many_stops(canaries).sampling.stop
    assert len(stops) == 10_000 and sum(canaries.aws_key in s for s in stops) == 100
    assert len(inputs.huge_prompt(canaries, 1_000_000).prompt.encode()) == 1_000_000
    assert len(inputs.pii_dense(canaries, 5_000).encode()) == 5_000


def test_chunks_cover_the_text_in_order() -> None:
    assert list(inputs.chunks("abcdefg", 3)) == ["abc", "def", "g"]


def test_check_kinds_keeps_the_catalogue_order_and_names_unknown_kinds() -> None:
    assert check_kinds(["cancelled", "stream_32k"]) == ("stream_32k", "cancelled")
    with pytest.raises(ValueError, match="unknown attack kind nope"):
        check_kinds(["nope", "stream_32k"])
    assert {"stream_32k", "stream_1mib", "prompt_8mib", "messages_20k", "max_tokens_1e9", "stop_sequences",
            "session_flood", "cross_tenant_restore", "cancelled"} <= set(KINDS)
    assert {f"regex_{family}" for family in inputs.FAMILIES} <= set(KINDS)
    assert {"held_streams", "queue_flood", "large_bodies", "live_restore", "label_flood", "large_prompts",
            "replica_kill"} <= set(KINDS)
    assert all(kind.max_calls > 0 and kind.concurrency > 0 for name, kind in KINDS.items()
               if name not in BENCH_KINDS)
    assert BENCH_KINDS <= set(KINDS)


def test_large_bodies_are_valid_json_of_their_size_within_the_gateways_limits() -> None:
    content = inputs.name_dense(Canaries.from_seed(3), 16 * inputs.KiB)
    body = inputs.door_body("attack", content, inputs.LARGE_BODY_BYTES)
    assert len(body) == inputs.LARGE_BODY_BYTES <= RequestLimits().max_request_bytes
    assert json.loads(body)["messages"][0]["content"] == content  # whitespace around, nothing else
    assert json.loads(inputs.door_body("m", "hi")) == {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(ValueError):
        inputs.door_body("m", "x" * 100, 50)


def test_name_dense_text_and_the_large_prompt_are_exact_and_carry_the_canaries() -> None:
    canaries = Canaries.from_seed(5)
    text = inputs.name_dense(canaries, inputs.LARGE_PROMPT_BYTES)
    assert len(text.encode()) == inputs.LARGE_PROMPT_BYTES <= RequestLimits().max_prompt_bytes
    assert set(carried(text, canaries.labelled())) == set(canaries.labelled())
    assert text.count("Maria Gonzalez") > 500


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=10**6))
def test_label_flood_models_are_new_every_call_and_valid_model_names(seed: int, n: int) -> None:
    model = inputs.label_model(seed, n)
    assert 1 <= len(model) <= 256 and model.isascii() and model.isprintable()
    assert model != inputs.label_model(seed, n + 1)


def test_a_live_restore_text_is_placeholders_only_at_its_size() -> None:
    text = inputs.restore_text(["<EMAIL_ADDRESS_1>", "<CREDIT_CARD_1>"])
    assert len(text.encode()) == inputs.RESTORE_BYTES
    assert not PLACEHOLDER_RE.sub("", text).strip()
    assert len(PLACEHOLDER_RE.findall(text)) > 50_000
    with pytest.raises(ValueError):
        inputs.restore_text([])


def test_normal_values_are_the_normal_prompts() -> None:
    assert all(value in NORMAL_PROMPT for value in NORMAL_VALUES.values())


@pytest.mark.parametrize("text, ok", [
    ("Sure. You wrote: billing@acme-corp.example", True),
    ("Sure. You wrote: <EMAIL_ADDRESS_1>", False),             # not restored
    ("billing@acme-corp.example and <PERSON_1>", False),        # partly restored
])
def test_a_generate_answer_must_come_back_restored(text: str, ok: bool) -> None:
    assert check_generate(text) is ok


@pytest.mark.parametrize("text, ok", [
    ("Hi, this is <PERSON_1>; mail <EMAIL_ADDRESS_1>", True),
    ("Hi, this is <PERSON_1>; card 4111 1111 1111 1111", False),  # a value left
    ("Hi, nothing replaced", False),
])
def test_a_redact_answer_must_be_scrubbed(text: str, ok: bool) -> None:
    assert check_redact(text) is ok


def test_phase_stats_time_every_call_and_count_errors_per_status() -> None:
    calls = [Call("Generate", "OK", 10.0), Call("Generate", "UNAVAILABLE", 2000.0), Call("Redact", "OK", 5.0),
             Call("Generate", "OK", 20.0), Call("Generate", "UNAVAILABLE", 2000.0)]
    stats = phase_stats(calls, "Generate")
    assert (stats.calls, stats.ok, stats.errors) == (4, 2, {"UNAVAILABLE": 2})
    assert stats.p50_ms == 1010.0 and stats.p99_ms == 2000.0
    empty = phase_stats(calls, "Restore")
    assert empty.calls == 0 and math.isnan(empty.p99_ms)


RSS = {"redaction": {"before": 650, "during": 900}, "upstream": {"before": 60, "during": 70},
       "envoy": {"before": 80, "during": 300}}


def _bench(under: list[Call] | None = None, hits: int = 0, sessions: dict[str, int] | None = None,
           upstream: bool = True, rss: dict | None = None, ceiling: int = 1536, exited: tuple[str, ...] = (),
           **figures: int) -> AttackBench:
    baseline = [Call(m, "OK", 10.0) for m in ("Generate", "Redact")] * 5
    attack = KindFigures(calls=3, statuses={"RedactStream OK": 3}, durations_ms=[5.0, 6.0, 7.0], **figures)
    return AttackBench(calls=10, duration_s=5.0, kinds=("stream_32k",), seed=7, baseline=baseline,
                       under_attack=under if under is not None else [Call(m, "OK", 15.0) for m in ("Generate", "Redact")] * 5,
                       attacks={"stream_32k": attack},
                       upstream={"requests_by_tenant": {"normal": 10}, "hits": {"attack card": hits}} if upstream else None,
                       sessions=sessions if sessions is not None else {"restored": 10}, recovery_s=0.1,
                       rss_mib=RSS if rss is None else rss, rss_ceiling_mib=ceiling, exited=list(exited))


def test_targets_are_met_when_nothing_failed_slowed_or_leaked() -> None:
    result = _bench()
    assert result.targets_met and result.p99_ratio("Generate") == 1.5


@pytest.mark.parametrize("change, target", [
    ({"under": [Call("Generate", "UNAVAILABLE", 12.0)]}, "every normal call succeeds under attack"),
    ({"under": [Call("Generate", "OK", 25.0)]}, "normal p99 under attack within 2x its baseline"),
    ({"under": []}, "every normal call succeeds under attack"),
    ({"hits": 1}, "no canary reaches the upstream"),
    ({"upstream": False}, "no canary reaches the upstream"),   # counts unread: not proven
    ({"canaries_in_answers": 1}, "no canary in a scrubbed answer"),
    ({"victim_values_returned": 1}, "no other tenant's value from Restore"),
    ({"sessions": {"restored": 8, "lost": 2}}, "the normal tenant's sessions all restore after the attack"),
    ({"sessions": {"restored": 9, "unchecked": 1}}, "the normal tenant's sessions all restore after the attack"),
    ({"exited": ("redaction",)}, "no part exited or restarted (a replica killed on purpose aside)"),
    ({"rss": {}}, "no part exited or restarted (a replica killed on purpose aside)"),   # not measured
    ({"rss": {**RSS, "redaction-2": {"before": 650, "during": 1600}}},
     "the redaction service's peak RSS under its ceiling (1536 MiB)"),
    ({"ceiling": 0}, "the redaction service's peak RSS under its ceiling (0 MiB)"),   # no ceiling: not proven
])
def test_each_target_is_missed_by_what_it_guards(change: dict, target: str) -> None:
    result = _bench(**change)
    assert not result.targets()[target] and not result.targets_met


def test_report_shows_both_phases_every_kind_the_canaries_and_the_targets() -> None:
    result = _bench(under=[Call("Generate", "UNAVAILABLE", 2000.0), Call("Redact", "OK", 12.0)], hits=2)
    text = render_report(result, "ztgate bench attack --calls 10")
    assert "| Generate | alone | 5 | 5 |" in text and "| Generate | under attack | 1 | 0 |" in text
    assert "UNAVAILABLE 1" in text
    assert "| stream_32k |" in text and "RedactStream OK 3" in text
    assert "Canaries that reached the upstream: 2" in text
    assert "- no canary reaches the upstream: NOT met" in text
    assert "- no other tenant's value from Restore: met" in text
    assert "| redaction | 650 | 900 |" in text and "| envoy | 80 | 300 |" in text
    assert "RSS ceiling: 1536 MiB (redaction.server.max_rss_mib)" in text
    assert "Parts not running at the end: none." in text
    killed = _bench()
    killed.killed, killed.killed_at_s = "redaction-2", 3.25
    assert "redaction-2 was SIGKILLed by the bench 3.2 s into the attack" in render_report(killed)


def test_json_figures_are_strict_json_with_the_summary() -> None:
    result = _bench(under=[])
    data = json.loads(json.dumps(result.to_json(), allow_nan=False, default=str))
    assert data["summary"]["normal"]["attack"]["Generate"]["p99_ms"] is None  # no call: null, not NaN
    assert data["summary"]["canaries_at_upstream"] == 0
    assert data["attacks"]["stream_32k"]["statuses"] == {"RedactStream OK": 3}
    assert data["baseline"][0] == {"method": "Generate", "code": "OK", "duration_ms": 10.0, "detail": "",
                                 "started_s": 0.0, "served_by": ""}  # the failover bench places calls in time


def test_the_cli_passes_its_flags_to_the_bench_and_writes_the_json(monkeypatch, tmp_path: Path, capsys) -> None:
    from ztgate import cli
    from ztgate_bench import attack_bench

    seen = {}

    def fake_run(config, **kwargs):
        seen.update(kwargs)
        return _bench()

    monkeypatch.setattr(attack_bench, "run", fake_run)
    out = tmp_path / "attack.json"
    code = cli.main(["bench", "attack", "--calls", "3", "--duration-s", "2.5", "--attacks",
                     "cancelled, stream_32k", "--seed", "0", "--out", str(out)])
    assert code == 0
    # The attacker's process at the lowest CPU priority unless asked otherwise.
    assert seen == {"calls": 3, "duration_s": 2.5, "kinds": ("stream_32k", "cancelled"), "seed": 0,
                    "attacker_nice": 19}
    assert json.loads(out.read_text())["summary"]["targets"]["no canary reaches the upstream"] is True
    assert "--attacks stream_32k,cancelled" in capsys.readouterr().out
    monkeypatch.setattr(attack_bench, "run", lambda config, **kwargs: _bench(hits=1))
    assert cli.main(["bench", "attack", "--calls", "3"]) == 1  # a missed target fails the command


def test_each_and_both_priorities_run_every_kind_alone_at_each_priority(monkeypatch, tmp_path: Path,
                                                                        capsys) -> None:
    from ztgate import cli
    from ztgate_bench import attack_bench

    runs = []

    def fake_run(config, **kwargs):
        runs.append((kwargs["kinds"], kwargs["attacker_nice"]))
        result = _bench()
        result.kinds, result.attacker_nice = kwargs["kinds"], kwargs["attacker_nice"]
        return result

    monkeypatch.setattr(attack_bench, "run", fake_run)
    out = tmp_path / "attack.json"
    code = cli.main(["bench", "attack", "--calls", "3", "--attacks", "cancelled,stream_32k", "--each",
                     "--attacker-priority", "both", "--out", str(out)])
    assert code == 0
    # Each kind alone, at normal priority and then at the lowest, a suite each.
    assert runs == [(("stream_32k",), 0), (("stream_32k",), 19), (("cancelled",), 0), (("cancelled",), 19)]
    printed = capsys.readouterr().out
    assert "--attacks cancelled --attacker-priority low" in printed
    assert "| cancelled | 19 | 10.0 / 15.0 | 1.5x |" in printed  # the summary, a line per run
    assert len(json.loads(out.read_text())["runs"]) == 4


def test_summary_says_per_run_whether_the_p99_stayed_within_2x() -> None:
    slow = _bench(under=[Call("Generate", "OK", 25.0), Call("Redact", "OK", 15.0)])
    lines = render_summary([_bench(), slow]).splitlines()
    assert lines[2].endswith("| 0 | met |") and lines[3].endswith("| 0 | NOT met |")
    assert "| 2.5x |" in lines[3]


def test_the_report_names_the_attackers_priority() -> None:
    result = _bench()
    result.attacker_nice = LOWEST_PRIORITY
    assert "at CPU niceness 19 (the lowest priority" in render_report(result)
    result.attacker_nice = 0
    assert "at CPU niceness 0 (the normal priority" in render_report(result)


def test_the_attacker_process_runs_at_the_niceness_asked_for() -> None:
    """A real spawned process (one: spawning takes seconds on a loaded machine): its niceness read back."""
    import os

    own = os.nice(0)
    with AttackerProcess(5) as attacker:
        assert attacker.nice == min(own + 5, LOWEST_PRIORITY)


def test_report_quotes_the_first_status_message_per_failing_status() -> None:
    attack = KindFigures()
    attack.add("Generate", "UNAVAILABLE", 2000.0, "ext_proc timeout")
    attack.add("Generate", "UNAVAILABLE", 2001.0, "a later message")
    attack.add("Generate", "OK", 10.0)
    assert attack.details == {"Generate UNAVAILABLE": "ext_proc timeout"}
    result = _bench(under=[Call("Redact", "DEADLINE_EXCEEDED", 10_000.0, "Deadline Exceeded")])
    result.attacks["stream_32k"] = attack
    text = render_report(result).split("What failed calls were told")[1]
    assert "- normal under attack: Redact DEADLINE_EXCEEDED: Deadline Exceeded" in text
    assert "- stream_32k: Generate UNAVAILABLE: ext_proc timeout" in text and "a later" not in text
    assert "What failed calls were told" not in render_report(_bench())


def test_report_says_how_many_sessions_the_flood_left_against_the_vaults_bounds() -> None:
    flood = KindFigures()
    for code in ("OK", "OK", "OK", "DEADLINE_EXCEEDED"):
        flood.add("Redact", code, 5.0)
    result = _bench()
    result.kinds, result.attacks["session_flood"] = ("stream_32k", "session_flood"), flood
    result.vault_sessions_per_tenant, result.vault_sessions = 20, 40
    assert result.flood_sessions == 3
    assert ("The attacker's flood left 3 sessions; the vault keeps 20 per tenant "
            "(redaction.vault.max_sessions_per_tenant), 40 in all (max_sessions).") in render_report(result)
    assert "flood left" not in render_report(_bench())  # no flood, no line


async def test_rss_sampling_keeps_each_live_parts_peak_and_skips_a_part_gone() -> None:
    import asyncio
    import os
    import subprocess
    import sys

    from ztgate.common.lifetime import alive
    from ztgate_bench.attack_bench import sample_rss

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    while not Path(f"/proc/{zombie.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
        await asyncio.sleep(0.01)  # exited, not yet waited for: a part that died
    assert alive(os.getpid()) and not alive(gone.pid) and not alive(zombie.pid)
    zombie.wait()
    peaks: dict[str, int] = {}
    stop = asyncio.Event()
    sampler = asyncio.ensure_future(sample_rss({"me": os.getpid(), "gone": gone.pid}, peaks, stop))
    await asyncio.sleep(0.3)
    stop.set()
    await sampler
    assert 10 < peaks["me"] < 64 * 1024 and "gone" not in peaks


def test_cpu_meter_counts_a_busy_child_in_its_parents_tree_and_not_an_idle_one() -> None:
    """Real processes: a child spinning shows in its (sleeping) parent's tree, not in the parent alone."""
    import os
    import subprocess
    import sys
    import time

    from ztgate_bench.attack_bench import CpuMeter, cpu_seconds

    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               "child = subprocess.Popen([sys.executable, '-c', 'import time\\n"
                               "end = time.time() + 8\\nwhile time.time() < end: pass'])\n"
                               "time.sleep(10); child.kill()"])
    try:
        deadline = time.monotonic() + 20
        while cpu_seconds(parent.pid) - cpu_seconds(parent.pid, tree=False) < 0.05:  # the child spins
            assert time.monotonic() < deadline
            time.sleep(0.05)
        meter = CpuMeter({"tree": parent.pid}, own={"alone": parent.pid})
        meter.start()
        time.sleep(1.0)
        cores = meter.stop()
        assert cores["tree"] > 0.2 and cores["alone"] < 0.1, cores
    finally:
        children = [int(pid) for task in os.listdir(f"/proc/{parent.pid}/task")
                    for pid in open(f"/proc/{parent.pid}/task/{task}/children").read().split()]
        for child in children:  # the spinning child too, not left to spin out its 8 s
            os.kill(child, 9)
        parent.kill()
        parent.wait()
    assert cpu_seconds(parent.pid) == 0.0  # gone: nothing
    assert cpu_seconds(os.getpid(), tree=False) > 0


def test_the_control_kind_sends_nothing_and_is_never_a_default() -> None:
    from ztgate_bench.attack_load import CONTROL_KIND, DEFAULT_KINDS, AttackPlan, run_attacks

    assert CONTROL_KIND in BENCH_KINDS and CONTROL_KIND not in DEFAULT_KINDS
    assert set(DEFAULT_KINDS) == set(KINDS) - {CONTROL_KIND}
    assert check_kinds([CONTROL_KIND]) == (CONTROL_KIND,)
    # The attacker with nothing to send (the control, or replica_kill alone) waits out the phase:
    # no call, no address dialled (this one is closed).
    plan = AttackPlan(gateway="127.0.0.1:9", token="t", kinds=(), duration_s=0.05, call_timeout_s=1.0,
                      seed=7, victim_tenant="normal")
    assert run_attacks(plan) == {}
