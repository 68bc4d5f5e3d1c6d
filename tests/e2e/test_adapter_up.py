"""ztgate's own model behind the OpenAI door as `ztgate up` runs it: the adapter a supervised part,
Envoy routing the default model name to it, and the official `openai` package (sync and streaming)
getting answers of the real model (greedy, a few tokens) through the whole chain. No test double:
what the adapter receives is recorded in tests/e2e/test_adapter_door.py; here the suite's whole log
must hold no canary, and a placeholder the model might echo must come back restored. Tokens are on
(gateway.auth): the adapter calls the gateway's gRPC route with the caller's own token.

The same suite (the one `ztgate up` of the real model with tokens on) hosts the one-tenant SLO flip
(issue #28): its settings for that test are configuration only (SLO_ENV), and a second, real collector
with `slo.tenant_guard: false` gets a copy of every export (`telemetry.forward`) as the control."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections.abc import Iterator

import grpc
import openai
import pytest

from ztgate.common.identity import bearer
from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import keygen, mint
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.redaction.vault import PLACEHOLDER_RE
from ztgate.telemetry.envoy_admin import PRIMARY_BUDGET_MISSES, EnvoyAdmin
from tests.e2e.up_suite import plumbing_suite
from tests.procs import Child, free_port, spawn_service, wait_serving

pytestmark = pytest.mark.slow
MODEL = ZtgateConfig().inference.model_name
EMAIL = "jane.doe@example.com"
PROMPT = f"Repeat exactly: my e-mail is {EMAIL}"


# The SLO controller's settings for the one-tenant flip (both collectors): every sample of the test
# stays in the window, a decision needs 8, taken every 0.5 s, a retry Envoy counted waits 4 s for the
# primary's report of it (twice the 2 s export interval `up` sets); the trip stays the shipped 1,200 ms.
# The prefill allowance is 0.2 s per 1,000 prompt tokens (the shipped 12 s is ample on any host): a
# digit-dense prompt of a few thousand tokens then really runs past its allowance on this CPU, while
# the budget a try is held to is unchanged (plumbing_suite caps it at 10 s). The primary admits one
# call at a time, so that three calls at once reach its admission limit (RESOURCE_EXHAUSTED, which
# Envoy retries on the fallback) without a flood.
SLO_ENV = {"ZTGATE_TELEMETRY__SLO__WINDOW_S": "300", "ZTGATE_TELEMETRY__SLO__MIN_SAMPLES": "8",
           "ZTGATE_TELEMETRY__SLO__EVALUATE_INTERVAL_S": "0.5", "ZTGATE_TELEMETRY__SLO__ATTRIBUTION_WAIT_S": "4",
           "ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_PER_1K_TOKENS_S": "0.2",
           "ZTGATE_INFERENCE__PRIMARY__MAX_INFLIGHT": "1"}
TENANT, ATTACKER = "acme", "attacker"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, dict[str, str]]]:
    logs = tmp_path_factory.mktemp("adapter-up")
    key, jwks = keygen(logs / "tokens")
    # The control: a real collector whose controller judges the same exports with the guard off. It
    # moves no traffic (no Envoy subscribes to it) and probes nothing; its decision is read from its
    # /metrics.
    control_listen, control_metrics = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    control = spawn_service("telemetry-control", "telemetry", control_listen, logs, env={
        "ZTGATE_MESH__MTLS": "false", "ZTGATE_TELEMETRY__METRICS__LISTEN": control_metrics,
        "ZTGATE_TELEMETRY__SLO__TENANT_GUARD": "false", "ZTGATE_TELEMETRY__SLO__PROBE_INTERVAL_S": "0",
        **SLO_ENV})
    try:
        wait_serving(control, control_listen, "ztgate.telemetry.v1.Telemetry")
        forward = json.dumps([{"endpoint": control_listen, "insecure": True, "signals": ["metrics"]}])
        for up, env in plumbing_suite(logs, ZTGATE_GATEWAY__AUTH__JWKS_PATH=str(jwks),
                                      ZTGATE_TELEMETRY__FORWARD=forward, **SLO_ENV):
            yield up, {**env, "token": mint(key, tenant=TENANT, issuer="ztgate", audience="ztgate-gateway"),
                       "attacker_token": mint(key, tenant=ATTACKER, issuer="ztgate", audience="ztgate-gateway"),
                       "control_metrics": control_metrics}
    finally:
        control.stop()


def _client(env: dict[str, str]) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"http://{env['ZTGATE_GATEWAY__LISTEN']}/v1", api_key=env["token"],
                         max_retries=0, timeout=120)


def _restored(text: str, up: Child) -> None:
    assert not PLACEHOLDER_RE.search(text), text
    assert EMAIL not in up.log()


def test_up_serves_its_own_model_on_the_openai_door(suite) -> None:
    up, env = suite
    assert f"{MODEL} via the adapter at {env['ZTGATE_OPENAI_ADAPTER__LISTEN']}" in up.log()
    assert [m.id for m in _client(env).models.list()] == [MODEL]
    raw = _client(env).chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=8, temperature=0)
    answer = raw.parse()
    assert raw.headers["x-ztgate-served-by"] in ("primary", "fallback")
    method = raw.headers["x-ztgate-speculative-method"]
    assert method == "suffix" if raw.headers["x-ztgate-served-by"] == "primary" else method in ("ngram", "none")
    assert answer.model == MODEL and answer.id.startswith("chatcmpl-")
    assert answer.choices[0].finish_reason in ("stop", "length")
    assert 0 < answer.usage.completion_tokens <= 8 and answer.usage.prompt_tokens > 0
    _restored(answer.choices[0].message.content, up)


def test_a_streamed_answer_of_the_real_model(suite) -> None:
    up, env = suite
    stream = _client(env).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=8, temperature=0,
        stream=True, stream_options={"include_usage": True})
    chunks = list(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] in ("stop", "length")
    assert 0 < chunks[-1].usage.completion_tokens <= 8
    _restored("".join(c.choices[0].delta.content or "" for c in chunks if c.choices), up)
    completion = _client(env).completions.create(model=MODEL, prompt=PROMPT, max_tokens=4, temperature=0)
    assert completion.object == "text_completion" and completion.usage.completion_tokens <= 4


# --- one tenant cannot flip the SLO controller (issue #28) ---------------------------------------

# Digits of the attacker's prompts: one token each for this model's tokenizer (ADR 0008), so about
# 1,000 prompt tokens, whose prefill here takes seconds, far past the 0.2 s allowance.
ATTACK_DIGITS = 1_000
# The attacker's calls at once per round: one admitted by the primary, the others refused at its
# admission limit and retried by Envoy on the fallback.
ATTACK_BURST = 3
ATTACK_ROUNDS = 1
# The other tenant's calls after each round, one at a time (never beside the attacker's, so that what
# is measured is who decides the window, not a CPU shared with the attacker's prefill).
NORMAL_CALLS = 8
# Seconds any waiting phase may take before the test fails (never a bound on how fast it must be).
WAIT_S = 60.0
RUNTIME_KEY = "ztgate.inference.primary_percent"


def _metric(address: str, name: str) -> float:
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=5) as resp:  # noqa: S310 - loopback
        text = resp.read().decode()
    values = [float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " ")]
    return values[0] if values else float("nan")  # a gauge with no value yet (a cleared window)


async def _generate(stub: inference_pb2_grpc.InferenceStub, token: str, prompt: str) -> str:
    """One call through Envoy; who served it, or the status it failed with."""
    try:
        reply = await stub.Generate(ipb.GenerateRequest(prompt=prompt, sampling=ipb.SamplingParams(
            max_tokens=1, temperature=0)), timeout=120, metadata=bearer(token))
    except grpc.aio.AioRpcError as exc:
        return exc.code().name
    return reply.served_by


async def test_one_tenants_slow_prompts_move_no_tenant_to_the_fallback(suite) -> None:
    """The attacker, with a valid token, sends digit-dense prompts that run far past their prefill
    allowance, in bursts past the primary's admission limit; the other tenant's calls are normal. The
    suite's collector (slo.tenant_guard on) must keep every tenant on the primary; the control (the
    same exports, guard off) must move to the fallback, so the attack is one that flips a controller."""
    up, env = suite
    guarded, control = env["ZTGATE_TELEMETRY__METRICS__LISTEN"], env["control_metrics"]
    admin = EnvoyAdmin(env["ZTGATE_GATEWAY__ADMIN"], 2.0)
    rng = random.Random(28)
    retries = await admin.counter(PRIMARY_BUDGET_MISSES) or 0
    served: list[str] = []
    attacked: list[str] = []
    async with grpc.aio.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
        stub = inference_pb2_grpc.InferenceStub(channel)
        for _ in range(ATTACK_ROUNDS):
            prompts = ["".join(rng.choices("0123456789", k=ATTACK_DIGITS)) for _ in range(ATTACK_BURST)]
            attacked += await asyncio.gather(*(_generate(stub, env["attacker_token"], p) for p in prompts))
            for _ in range(NORMAL_CALLS):
                served.append(await _generate(stub, env["token"], "Say hello."))
        assert set(attacked) <= {"primary", "fallback"}, attacked  # every attack call was answered
        # Some of the attacker's tries were refused or ended on the primary and retried (Envoy's count).
        envoy_retries = (await admin.counter(PRIMARY_BUDGET_MISSES) or 0) - retries

        # The control decides on the same exports: once it has moved, the guarded controller has had
        # every sample it had (the copy is forwarded after the suite's collector took it).
        deadline = time.monotonic() + WAIT_S
        while _metric(control, "ztgate_slo_fallback_active") != 1.0:
            assert time.monotonic() < deadline, (
                "the control (guard off) never moved to the fallback: the attack flips nothing, so "
                f"this test cannot fail; control p99 {_metric(control, 'ztgate_slo_ttft_p99_seconds')} s "
                f"over {_metric(control, 'ztgate_slo_ttft_samples')} samples")
            await asyncio.sleep(0.5)
        control_p99 = _metric(control, "ztgate_slo_ttft_p99_seconds")
        # The guarded one settles each retry Envoy counted within slo.attribution_wait_s: past it (and
        # two more exports), every retry has been matched to the primary's report or counted.
        await asyncio.sleep(float(SLO_ENV["ZTGATE_TELEMETRY__SLO__ATTRIBUTION_WAIT_S"]) + 4)
        after = await _generate(stub, env["token"], "Say hello.")
    state = {name: _metric(guarded, name) for name in (
        "ztgate_slo_fallback_active", "ztgate_slo_ttft_p99_seconds", "ztgate_slo_ttft_samples",
        "ztgate_slo_budget_misses_total")}
    print(f"slo flip: attacker calls {attacked}; normal served_by {served}; envoy retries "
          f"{envoy_retries}; control p99 {control_p99} s; guarded {state}")
    assert state["ztgate_slo_fallback_active"] == 0.0, state
    assert state["ztgate_slo_ttft_samples"] >= 8, state  # it judged, on the other tenant's samples
    assert state["ztgate_slo_ttft_p99_seconds"] < 1.2, state
    # Every retry Envoy counted was a try the primary reported as the attacker's: none of no tenant.
    assert envoy_retries > 0 and state["ztgate_slo_budget_misses_total"] == 0, (envoy_retries, state)
    assert await admin.get(RUNTIME_KEY) == "100"
    assert set(served) == {"primary"} and after == "primary", (served, after)
