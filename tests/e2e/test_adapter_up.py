"""ztgate's own model behind the OpenAI door as `ztgate up` runs it: the adapter a supervised part,
Envoy routing the default model name to it, and the official `openai` package (sync and streaming)
getting answers of the real model (greedy, a few tokens) through the whole chain. No test double:
what the adapter receives is recorded in tests/e2e/test_adapter_door.py; here the suite's whole log
must hold no canary, and a placeholder the model might echo must come back restored. Tokens are on
(gateway.auth): the adapter calls the gateway's gRPC route with the caller's own token."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import pytest

from ztgate.config import ZtgateConfig
from ztgate.gateway.auth import keygen, mint
from ztgate.redaction.vault import PLACEHOLDER_RE
from tests.e2e.up_suite import plumbing_suite
from tests.procs import Child

pytestmark = pytest.mark.slow
MODEL = ZtgateConfig().inference.model_name
EMAIL = "jane.doe@example.com"
PROMPT = f"Repeat exactly: my e-mail is {EMAIL}"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, dict[str, str]]]:
    logs = tmp_path_factory.mktemp("adapter-up")
    key, jwks = keygen(logs / "tokens")
    for up, env in plumbing_suite(logs, ZTGATE_GATEWAY__AUTH__JWKS_PATH=str(jwks)):
        yield up, {**env, "token": mint(key, tenant="acme", issuer="ztgate", audience="ztgate-gateway")}


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
