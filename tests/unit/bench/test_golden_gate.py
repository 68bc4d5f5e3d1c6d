"""The golden gate's judgement (bench/ztgate_bench/eval/compare.py) on observations built from the
committed goldens, then changed as a changed redaction rule, sampling default or speculative setting
would change them; the schema's refusals; --update's diff; the reports. No suite runs here (the e2e
module tests/e2e/test_golden_eval.py runs one)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import sys
import subprocess
from pathlib import Path

import pytest

from ztgate_bench.eval import compare, facts, report, update
from ztgate_bench.eval.measure import AnswerObservation, Observations, selected
from ztgate_bench.eval.schema import DEFAULT_DIR, Goldens, GoldenError, RedactionAnswer

GOLDENS = Goldens()


def observed_as_golden(goldens: Goldens = GOLDENS, full: bool = False) -> Observations:
    """What a suite that still answers exactly as the goldens say would observe (the quick set: the
    full set's answers are recorded by the nightly run's `--update --full`)."""
    obs = Observations()
    for shape, golden in goldens.redaction.items():
        for case in selected(golden.cases, full):
            obs.redaction[case.id] = goldens.redaction_expected[shape].cases[case.id]
    for case in selected(goldens.answers.cases, full):
        want = goldens.answers_expected.cases[case.id]
        obs.answers[case.id] = AnswerObservation(
            engines={k: v.model_dump() for k, v in want.engines.items()}, gateway=want.gateway,
            stream=want.gateway if case.kind == "stream" else None)
    spec = goldens.speculation_expected
    obs.configuration = dict(goldens.answers_expected.configuration)
    obs.speculation = {m: spec.methods.get(m) for m in goldens.speculation.methods}
    obs.latency_ms = {"gateway": [120.0, 130.0], "direct primary": [100.0, 110.0], "direct fallback": [150.0, 160.0]}
    return obs


def drifted_ids(result: dict, section: str) -> set[str]:
    return {case["id"] for case in result[section]["drifted"]}


def failed_gates(result: dict) -> set[str]:
    return {g["name"] for g in result["gates"] if not g["passed"]}


def test_the_goldens_meet_the_issue_floor() -> None:
    cases = [c for g in GOLDENS.redaction.values() for c in g.cases]
    assert len(cases) >= 300 and len(GOLDENS.redaction) >= 10
    assert all(not c.truth for c in GOLDENS.redaction["clean"].cases)
    assert {c.policy for c in GOLDENS.redaction["blocked"].cases} == {"golden-block"}
    # Every curated case has an accepted answer (`ztgate eval --update` was run on this tree).
    for shape, golden in GOLDENS.redaction.items():
        assert {c.id for c in golden.cases} == set(GOLDENS.redaction_expected[shape].cases), shape
    assert {c.id for c in GOLDENS.answers.cases if c.quick} <= set(GOLDENS.answers_expected.cases)
    assert {c.kind for c in GOLDENS.answers.cases} == {"greedy", "stream", "pseudonym"}
    # Refused, but for the three carrying the SSA's published invalid numbers (078-05-1120, 219-09-9999),
    # which the SSN rule rejects by design (docs/benchmarks.md "Golden set").
    statuses = [GOLDENS.redaction_expected["blocked"].cases[c.id].status for c in GOLDENS.redaction["blocked"].cases]
    assert statuses.count("PERMISSION_DENIED") >= len(statuses) - 3


def test_answers_as_golden_pass_and_the_report_is_deterministic() -> None:
    first = compare.judge(GOLDENS, observed_as_golden(), full=False)
    second = compare.judge(GOLDENS, observed_as_golden(), full=False)
    assert first["passed"], failed_gates(first)
    assert json.dumps(compare.deterministic_part(first)) == json.dumps(compare.deterministic_part(second))
    assert first["redaction"]["drifted"] == [] and first["answers"]["drifted"] == []


def _without(entity_type: str, text: str, answer: RedactionAnswer) -> RedactionAnswer:
    """The answer had `entity_type` not been detected: its findings gone, its values back in the output."""
    values: dict[str, int] = {}
    for f in answer.findings:
        if f.type == entity_type:
            values.setdefault(text[f.start:f.end], len(values) + 1)
    output = answer.text
    for value, n in values.items():
        output = output.replace(f"<{entity_type}_{n}>", value)
    return RedactionAnswer(text=output, findings=[f for f in answer.findings if f.type != entity_type],
                           status=answer.status)


def test_a_changed_redaction_rule_fails_naming_each_drifted_case() -> None:
    obs = observed_as_golden()
    texts = {c.id: c.text for g in GOLDENS.redaction.values() for c in g.cases}
    touched = {cid for cid, a in obs.redaction.items() if any(f.type == "EMAIL_ADDRESS" for f in a.findings)}
    assert len(touched) > 50
    obs.redaction = {cid: _without("EMAIL_ADDRESS", texts[cid], a) for cid, a in obs.redaction.items()}
    result = compare.judge(GOLDENS, obs, full=False)
    assert not result["passed"]
    assert drifted_ids(result, "redaction") == touched
    some = next(c for c in result["redaction"]["drifted"])
    assert any(line.startswith("- finding EMAIL_ADDRESS") for line in some["diff"])
    assert any(line.startswith("+") and "@" in line for line in some["diff"] if not line.startswith("+++"))
    assert {"redaction recall EMAIL_ADDRESS", "redaction cases drifted from golden"} <= failed_gates(result)
    text = report.markdown(result)
    assert all(f"`{cid}`" in text for cid in touched)


def test_a_drift_names_its_recognizer_and_the_report_counts_findings_per_recognizer() -> None:
    """A recognizer that stops finding (here the CSV column rule) fails the gate, and the report says which
    one: per-recognizer counts, and each drifted case and diff line names it; one that is renamed shows as
    gone under its old name and new under its new one."""
    obs = observed_as_golden()
    gone = "CsvColumnFieldRecognizer"
    before = compare.judge(GOLDENS, obs, full=False)["redaction"]["by_recognizer"]
    assert before[gone]["golden"] == before[gone]["found"] > 10
    assert all(v["missing"] == v["added"] == 0 for v in before.values())
    assert compare.UNRECORDED not in before  # every golden finding carries its recognizer
    touched = {cid for cid, a in obs.redaction.items() if any(f.recognizer == gone for f in a.findings)}
    obs.redaction = {cid: a.model_copy(update={"findings": [f for f in a.findings if f.recognizer != gone]})
                     for cid, a in obs.redaction.items()}
    renamed_case = next(cid for cid, a in sorted(obs.redaction.items())
                        if cid not in touched and any(f.recognizer == "DisplayNameRecognizer" for f in a.findings))
    answer = obs.redaction[renamed_case]
    obs.redaction[renamed_case] = answer.model_copy(update={"findings": [
        f.model_copy(update={"recognizer": "AddressNameRecognizer"}) if f.recognizer == "DisplayNameRecognizer" else f
        for f in answer.findings]})
    result = compare.judge(GOLDENS, obs, full=False)
    counts = result["redaction"]["by_recognizer"]
    assert counts[gone] == {"golden": before[gone]["golden"], "found": 0, "missing": before[gone]["golden"],
                            "added": 0}
    assert counts["DisplayNameRecognizer"]["missing"] == counts["AddressNameRecognizer"]["added"] >= 1
    assert counts["GazetteerRecognizer"] == before["GazetteerRecognizer"]  # the others as golden
    assert not result["passed"] and "redaction cases drifted from golden" in failed_gates(result)
    drifted = {case["id"]: case for case in result["redaction"]["drifted"]}
    assert set(drifted) == touched | {renamed_case}
    assert all(drifted[cid]["recognizers"] == [gone] for cid in touched)
    assert all(line.endswith(f" by {gone}") for cid in touched for line in drifted[cid]["diff"]
               if line.startswith("- finding"))
    assert any(line.startswith("~ finding PERSON") and line.endswith(
        "golden by DisplayNameRecognizer, observed by AddressNameRecognizer") for line in drifted[renamed_case]["diff"])
    text = report.markdown(result)
    assert f"| {gone} | {before[gone]['golden']} | 0 | {before[gone]['golden']} | 0 |" in text
    assert f"; {gone}):" in text


def test_a_changed_sampling_default_fails_naming_every_answer() -> None:
    """Sampling at a temperature above 0 (a changed default) picks other tokens: every answer drifts."""
    obs = observed_as_golden()
    for seen in obs.answers.values():
        for engine in seen.engines.values():
            engine["token_ids"] = [t + 1 for t in engine["token_ids"]]
            engine["text"] = engine["text"] + " (sampled)"
        seen.gateway = (seen.gateway or "") + " (sampled)"
        seen.stream = seen.gateway if seen.stream is not None else None
    result = compare.judge(GOLDENS, obs, full=False)
    assert not result["passed"] and "greedy exact-match rate" in failed_gates(result)
    quick = [c for c in GOLDENS.answers.cases if c.quick]
    assert drifted_ids(result, "answers") == {c.id for c in quick}
    where = {(c["id"], c["where"]) for c in result["answers"]["drifted"]}
    greedy = [c.id for c in quick if c.kind == "greedy"]
    assert all((cid, "primary token ids") in where and (cid, "fallback token ids") in where for cid in greedy)
    assert result["answers"]["exact_match_rate"] == 0


def test_a_changed_speculative_setting_fails_naming_the_method() -> None:
    obs = observed_as_golden()
    golden = GOLDENS.speculation_expected
    obs.configuration["primary num_speculative_tokens"] = str(golden.num_speculative_tokens // 2)
    method = golden.primary_method
    obs.speculation[method] = golden.methods[method] - 2 * GOLDENS.speculation.methods[method].tolerance
    result = compare.judge(GOLDENS, obs, full=False)
    assert not result["passed"]
    assert {"speculation drifted from golden", "answer configuration drifted"} <= failed_gates(result)
    assert any(line.startswith(f"{method}: mean acceptance length") for line in result["speculation"]["drifted"])
    assert any("num_speculative_tokens" in line for line in result["speculation"]["drifted"])
    # Within the tolerance it passes.
    obs = observed_as_golden()
    obs.speculation[method] = golden.methods[method] + GOLDENS.speculation.methods[method].tolerance / 2
    assert compare.judge(GOLDENS, obs, full=False)["passed"]


def test_streams_restores_blocked_and_clean_cases_are_each_checked() -> None:
    obs = observed_as_golden()
    stream = next(c.id for c in GOLDENS.answers.cases if c.kind == "stream" and c.quick)
    obs.answers[stream].stream = "something else"
    pseudonym = next(c for c in GOLDENS.answers.cases if c.kind == "pseudonym" and c.restores and c.quick)
    obs.answers[pseudonym.id].gateway = "Dear <PERSON_1>, hello"
    blocked = GOLDENS.redaction["blocked"].cases[0].id
    obs.redaction[blocked] = RedactionAnswer(text="scrubbed", findings=[], status="OK")
    clean = GOLDENS.redaction["clean"].cases[1]
    obs.redaction[clean.id] = RedactionAnswer(text=clean.text.replace(" ", " <PERSON_1> ", 1), status="OK")
    result = compare.judge(GOLDENS, obs, full=False)
    assert [c["id"] for c in result["answers"]["stream_mismatch"]] == [stream]
    assert result["answers"]["restore_failures"][0]["id"] == pseudonym.id
    assert "placeholder <PERSON_1> left unrestored" in result["answers"]["restore_failures"][0]["problems"]
    assert [w["id"] for w in result["redaction"]["blocked"]["wrong"]] == [blocked]
    assert clean.id in {c["id"] for c in result["redaction"]["clean_altered"]}
    assert {"streamed answers unlike their unary answer", "pseudonym answers not restored",
            "blocked cases answered with their golden status", "clean texts altered"} <= failed_gates(result)


def test_latency_is_gated_as_a_ratio_of_the_same_run() -> None:
    obs = observed_as_golden()
    obs.latency_ms["gateway"] = [x * 10 for x in obs.latency_ms["direct primary"]]
    result = compare.judge(GOLDENS, obs, full=False)
    assert failed_gates(result) == {"latency ratio gateway over direct primary"}
    # A slower machine (every series 5x) changes no ratio and passes.
    obs = observed_as_golden()
    obs.latency_ms = {k: [x * 5 for x in v] for k, v in obs.latency_ms.items()}
    assert compare.judge(GOLDENS, obs, full=False)["passed"]


def _copy_goldens(tmp_path: Path) -> Path:
    root = tmp_path / "golden"
    shutil.copytree(DEFAULT_DIR, root)
    return root


@pytest.mark.parametrize("edit, where", [
    (lambda t: t.replace("kind: greedy", "kind: greediest", 1), "answers.yaml: field cases.0.kind"),
    (lambda t: t.replace("  - id: capital-france\n", "  - id: Capital France!\n"), "answers.yaml: field cases.0.id"),
    (lambda t: t.replace("schema: ztgate.golden.answers/1", "schema: ztgate.golden.answers/9"), "answers.yaml: field schema"),
    (lambda t: t + "  - {id: x, kind: greedy}\n", "answers.yaml: field cases.17.prompt"),
    (lambda t: t.replace("cases:", "cases: [", 1), "answers.yaml: not valid YAML"),
])
def test_a_golden_file_off_its_schema_is_an_error_naming_file_and_field(tmp_path: Path, edit, where: str) -> None:
    root = _copy_goldens(tmp_path)
    path = root / "answers.yaml"
    path.write_text(edit(path.read_text()))
    with pytest.raises(GoldenError, match=re.escape(where)):
        Goldens(root)


def test_redaction_truth_and_ids_are_checked(tmp_path: Path) -> None:
    root = _copy_goldens(tmp_path)
    path = root / "redaction" / "clean.yaml"
    text = path.read_text()
    path.write_text(text.replace("truth: []", "truth: [{type: PERSON, value: Nobody Here}]", 1))
    with pytest.raises(GoldenError, match=r"clean.yaml: field cases.0: .*truth\[0\].value does not occur"):
        Goldens(root)
    path.write_text(text.replace("id: clean-002", "id: clean-001"))
    with pytest.raises(GoldenError, match=r"clean.yaml: field cases.id: clean-001 is also in"):
        Goldens(root)
    expected = root / "redaction" / "expected" / "clean.json"
    path.write_text(text)
    expected.write_text(expected.read_text().replace('"status": "OK"', '"status": 7', 1))
    with pytest.raises(GoldenError, match=r"expected/clean.json: field cases.clean-001.status"):
        Goldens(root)


def test_update_prints_a_reviewable_diff_and_writes_only_what_changed(tmp_path: Path) -> None:
    root = _copy_goldens(tmp_path)
    goldens = Goldens(root)
    obs = observed_as_golden(goldens)
    assert update.diff(update.new_files(goldens, obs, False), root) == ""
    case = goldens.redaction["clean"].cases[0]
    obs.redaction[case.id] = RedactionAnswer(text=case.text.replace("Thursday", "<PERSON_1>"), status="OK")
    files = update.new_files(goldens, obs, False)
    text = update.diff(files, root)
    assert "redaction/expected/clean.json" in text and "+" in text and "<PERSON_1>" in text
    assert [p.name for p in update.write(files)] == ["clean.json"]
    assert Goldens(root).redaction_expected["clean"].cases[case.id].text == obs.redaction[case.id].text


def test_reports_are_written_for_machines_and_people(tmp_path: Path) -> None:
    obs = observed_as_golden()
    result = compare.judge(GOLDENS, obs, full=False)
    paths = report.write(result, obs.latency_ms, tmp_path)
    assert json.loads(paths[0].read_text())["passed"] is True
    assert "PASSED" in paths[1].read_text() and "eval-latency.png" in paths[1].read_text()
    assert paths[2].read_bytes().startswith(b"\x89PNG")


def test_the_cli_parser_does_not_import_the_eval() -> None:
    code = ("import sys, ztgate.cli; ztgate.cli.build_parser(); "
            "print([m for m in sys.modules if m.startswith('ztgate_bench.eval')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_target_that_is_not_a_ztgate_suite_is_a_clear_error(capsys) -> None:
    from ztgate import cli

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{sock.getsockname()[1]}"
    assert cli.main(["eval", "--target", address]) == 2
    err = capsys.readouterr().err
    assert address in err and "is a ztgate suite running there" in err


def test_a_grpc_server_that_is_not_a_ztgate_gateway_is_named_as_such(capsys) -> None:
    """A plain gRPC server (health only) on loopback: the eval's probe meets UNIMPLEMENTED."""
    from concurrent.futures import ThreadPoolExecutor

    import grpc
    from grpc_health.v1 import health, health_pb2_grpc

    from ztgate import cli

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        assert cli.main(["eval", "--target", f"127.0.0.1:{port}"]) == 2
    finally:
        server.stop(0)
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port} is not a ztgate gateway" in err and "UNIMPLEMENTED" in err


# --- reviewed facts (issue #29) ------------------------------------------------------------------

def test_an_answer_that_breaks_its_facts_fails_the_gate_on_every_path() -> None:
    obs = observed_as_golden()
    obs.answers["capital-france"].gateway = "The capital of the United States is New York City."
    obs.answers["list-fruits"].engines["primary"]["text"] = "Apples from <LOCATION_1>."
    result = compare.judge(GOLDENS, obs, full=False)
    failures = {f["id"]: f["problems"] for f in result["answers"]["fact_failures"]}
    assert failures["capital-france"] == ["gateway: must contain 'Paris'",
                                          "gateway: must not contain value #1 of `must_not_contain`",
                                          "gateway: must not contain value #2 of `must_not_contain`"]
    assert failures["list-fruits"] == ["direct primary: placeholder <LOCATION_1> in the answer"]
    assert "answers failing their reviewed facts" in failed_gates(result)


def test_the_golden_france_answer_names_paris_everywhere() -> None:
    want = GOLDENS.answers_expected.cases["capital-france"]
    assert "Paris" in want.gateway and all("Paris" in e.text for e in want.engines.values())


def test_update_never_accepts_an_answer_that_breaks_its_facts(tmp_path: Path) -> None:
    root = _copy_goldens(tmp_path)
    goldens = Goldens(root)
    obs = observed_as_golden(goldens)
    before = goldens.answers_expected.cases["capital-france"].gateway
    obs.answers["capital-france"].gateway = "The capital of the United States is New York City."
    files = update.new_files(goldens, obs, False)
    update.write(files)
    assert Goldens(root).answers_expected.cases["capital-france"].gateway == before
    assert [r["id"] for r in update.refused(goldens, obs, False)] == ["capital-france"]


def test_a_stand_in_the_gateway_did_not_restore_fails_the_facts_and_the_restore_check() -> None:
    """Chat writes stand-ins (ADR 0007): one left in the caller's answer is a value the caller never wrote."""
    obs = observed_as_golden()
    obs.answers["pseudonym-greeting"].gateway = "Dear Maria Gonzalez and Cornelia Greaves, it ships today."
    obs.answers["pseudonym-email"].gateway = "Contact: gideon.ashcombe@example.org"
    result = compare.judge(GOLDENS, obs, full=False)
    failures = {f["id"]: f["problems"] for f in result["answers"]["fact_failures"]}
    assert failures == {"pseudonym-greeting": ["gateway: stand-in #1 left unrestored"],
                        "pseudonym-email": ["gateway: stand-in #1 left unrestored",
                                            "gateway: value #1 of `restores` missing"]}
    restores = {f["id"]: f["problems"] for f in result["answers"]["restore_failures"]}
    assert restores["pseudonym-greeting"] == ["stand-in #1 left unrestored"]
    assert "value #1 of `restores` missing from the answer" in restores["pseudonym-email"]
    # The answer `ztgate eval --update` once recorded (a stand-in's local part, bent): refused now.
    obs = observed_as_golden()
    obs.answers["pseudonym-email"].gateway = "Contact Gideon.Ashcombe."
    assert [r["id"] for r in update.refused(GOLDENS, obs, False)] == ["pseudonym-email"]
    # A listed name or reserved address the prompt itself holds is the caller's own, not a stand-in.
    case = next(c for c in GOLDENS.answers.cases if c.id == "pseudonym-greeting")
    assert facts.stand_ins_left("Hi Cornelia Greaves", case.prompt + " Cornelia Greaves") == []


def test_the_pseudonym_reply_case_checks_a_restore() -> None:
    case = next(c for c in GOLDENS.answers.cases if c.id == "pseudonym-reply")
    assert case.restores == ["Aiko Tanaka"] and "Aiko Tanaka" in case.prompt


def test_speculation_is_gated_on_and_off_on_the_same_engine() -> None:
    """The speed check compares the primary with speculation on and off, not the primary with the
    fallback (another engine): a slow fallback no longer hides a slow primary."""
    obs = observed_as_golden()
    obs.latency_ms["direct fallback"] = [x * 20 for x in obs.latency_ms["direct primary"]]
    obs.latency_ms["speculation off"] = [100.0, 100.0, 110.0]
    obs.latency_ms["speculation on"] = [x * 3 for x in obs.latency_ms["speculation off"]]
    obs.speculation_mismatch = []
    result = compare.judge(GOLDENS, obs, full=False)
    assert failed_gates(result) == {"latency ratio speculation on over off, same engine"}
    assert result["latency"]["ratios"]["speculation on over off, same engine"] == 3.0
    obs.latency_ms["speculation on"] = [x / 2 for x in obs.latency_ms["speculation off"]]
    obs.speculation_mismatch = ["prompt 2"]
    result = compare.judge(GOLDENS, obs, full=False)
    assert failed_gates(result) == {"greedy answers unlike with speculation off"}
    assert "prompt 2" in report.markdown(result, png=None)
