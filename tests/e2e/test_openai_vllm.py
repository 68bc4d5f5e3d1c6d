"""vLLM's own OpenAI server (`python -m vllm.entrypoints.openai.api_server`, the CPU build the
project installs, serving the prepared default model) as an external upstream of the HTTP door,
called with the official `openai` package.

Between Envoy and vLLM sits a RECORDING PROXY (`RecordingOpenAI` with `forward_to`, a test double
in openai_upstream.py) that records every request vLLM receives and every answer it sends, byte
for byte: a canary name, email and key in the prompt never reach vLLM, and every placeholder
vLLM's answer carries comes back to the client as the original value.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from collections.abc import AsyncIterator

import openai
import pytest

from ztgate.inference import models
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.gateway_suite import Suite, start_suite, stop_suite
from ztgate.redaction.detection.patterns.scanner import default_cache_dir
from tests.e2e.openai_upstream import RecordingOpenAI
from tests.procs import Child, free_port, spawn
from tests.stand_ins import stand_ins

pytestmark = pytest.mark.slow
# The Hyperscan database from the shared cache, whose file names carry the rules' hash (what the
# suite runs does not depend on it): compiling it afresh takes minutes on a busy 2-core machine.
SHARED_CACHE = {"ZTGATE_CACHE_DIR": str(default_cache_dir())}

PERSON = "Maria Gonzalez"
EMAIL = "jane.doe@example.com"
AWS = "AKIAZ7Q3XH2LMN4PQ5RS"
CANARIES = (PERSON, EMAIL, AWS)
MODEL = "smollm2"
# Greedy and short: a 135M model on shared CPUs.
PROMPT = (f"Repeat this line exactly: Dear {PERSON}, write to {EMAIL}; the key is {AWS}.")
VLLM_START_S = 600.0
DEFAULT_POLICY = """\
name: default
default_action: pseudonymize
default_secret_action: redact
"""


def _wait_vllm(child: Child, base: str) -> None:
    deadline = time.monotonic() + VLLM_START_S
    while time.monotonic() < deadline:
        if child.process.poll() is not None:
            raise AssertionError(f"vLLM exited ({child.process.returncode}):\n{child.log()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{base}/v1/models", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1.0)
    raise AssertionError(f"vLLM not serving within {VLLM_START_S} s:\n{child.log()[-4000:]}")


@pytest.fixture(scope="module")
async def door(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Suite, RecordingOpenAI]]:
    import asyncio

    logs = tmp_path_factory.mktemp("openai-vllm")
    target = models.model_dir()
    if not models.is_prepared(target):
        models.prepare()
    port = free_port()
    vllm = spawn("vllm", [sys.executable, "-m", "vllm.entrypoints.openai.api_server",
                          "--model", str(target), "--served-model-name", MODEL,
                          "--host", "127.0.0.1", "--port", str(port), "--max-model-len", "2048",
                          "--max-num-seqs", "4", "--enforce-eager", "--disable-log-stats"],
                 logs, env={**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1"})
    recorder = RecordingOpenAI("vllm", forward_to=f"http://127.0.0.1:{port}")
    suite = None
    try:
        await asyncio.to_thread(_wait_vllm, vllm, f"http://127.0.0.1:{port}")
        recorder.start()
        suite = await start_suite(logs, policies={"default.yaml": DEFAULT_POLICY}, message_timeout_s=5.0, gateway_env={
            "ZTGATE_GATEWAY__OPENAI_UPSTREAMS": json.dumps([
                {"name": "vllm", "base_url": recorder.base_url, "models": [MODEL]}])},
            redaction_env=SHARED_CACHE)
        yield suite, recorder
    finally:
        if suite is not None:
            await stop_suite(suite)
        recorder.stop()
        vllm.stop(timeout=30)


def _restored(recorder: RecordingOpenAI, upstream_text: str, client_text: str) -> None:
    """Nothing of the canaries went upstream; each stand-in vLLM wrote came back as its value."""
    assert [c for c in CANARIES if c in recorder.wire()] == []
    person, mail = stand_ins([("PERSON", PERSON), ("EMAIL_ADDRESS", EMAIL)], PROMPT)  # chat's default, ADR 0007
    assert mail in recorder.received[-1].body.decode()
    assert not PLACEHOLDER_RE.search(client_text), client_text
    for stand_in, value in ((person, PERSON), (mail, EMAIL)):
        if stand_in in upstream_text:
            assert value in client_text and stand_in not in client_text, (stand_in, client_text)


def _sse_text(raw: bytes) -> str:
    text = ""
    for line in raw.decode().splitlines():
        if line.startswith("data: {"):
            for choice in json.loads(line[6:]).get("choices", []):
                text += (choice.get("delta") or {}).get("content") or ""
    return text


def test_vllm_never_sees_the_canaries_and_its_answer_comes_back_restored(door) -> None:
    suite, recorder = door
    client = openai.OpenAI(base_url=f"http://{suite.gateway}/v1", api_key="none", max_retries=0,
                           timeout=300)
    answer = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=40, temperature=0)
    upstream = json.loads(recorder.answered[-1])["choices"][0]["message"]["content"]
    _restored(recorder, upstream, answer.choices[0].message.content)
    assert answer.model == MODEL and answer.usage.completion_tokens > 0
    assert answer.choices[0].finish_reason in ("stop", "length")


async def test_vllm_streamed_through_the_async_client(door) -> None:
    suite, recorder = door
    client = openai.AsyncOpenAI(base_url=f"http://{suite.gateway}/v1", api_key="none",
                                max_retries=0, timeout=300)
    stream = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": PROMPT}], max_tokens=40, temperature=0,
        stream=True)
    text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
    _restored(recorder, _sse_text(recorder.answered[-1]), text)
    assert text
