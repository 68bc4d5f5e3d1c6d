"""The fallback engine: Hugging Face `generate`, with prompt lookup (ngram) or assistant-model
decoding, one request at a time on a worker thread, streamed token by token.

A cancelled request stops inside the model's forward pass, at its next decoder layer (`_AbortCheck`),
not only between steps: a long prompt's prefill is one pass of many seconds on a CPU, and a hedged
try that Envoy abandoned would otherwise run it to the end beside the try that won (issue #11).

In `strict` parity it computes in float32, and its greedy tokens equal the vLLM engine's on the
same prompt token ids (tests/integration/inference check it).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ztgate.inference.engines.base import Engine
from ztgate.inference.engines.engine_config import EngineConfig
from ztgate.inference.engines.errors import EngineConfigError
from ztgate.inference.engines.outputs import Delta, FinalStats, SpeculativeStats, Usage
from ztgate.inference.engines.prompt import PromptRenderer
from ztgate.inference.engines.request import GenerationRequest

logger = logging.getLogger(__name__)

SUPPORTED_METHODS = ("none", "ngram", "draft_model")
_END = object()


class _TokenStreamer:
    """A `generate` streamer that forwards new token ids to an asyncio queue (the first `put` is
    the prompt, which it skips)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[Any]) -> None:
        self._loop = loop
        self._queue = queue
        self._prompt_seen = False

    def put(self, value: Any) -> None:
        if not self._prompt_seen:
            self._prompt_seen = True
            return
        ids = [int(t) for t in value.reshape(-1).tolist()]
        self._loop.call_soon_threadsafe(self._queue.put_nowait, ids)

    def end(self) -> None:
        pass


class _Cancelled:
    """A stopping criterion that ends generation once its event is set."""

    def __init__(self, event: threading.Event) -> None:
        self.event = event

    def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
        import torch

        return torch.full((input_ids.shape[0],), self.event.is_set(), dtype=torch.bool, device=input_ids.device)


class _Aborted(Exception):
    """Raised inside the model's forward pass when the request it computes was cancelled."""


class _AbortCheck:
    """Forward pre-hooks on a model's decoder layers that raise `_Aborted` once the running request's
    cancel event is set: a cancel costs at most one layer's work, prefill included. One request runs
    at a time (one worker thread), so one slot holds its event."""

    def __init__(self) -> None:
        self.running: threading.Event | None = None

    def install(self, model: Any) -> None:
        for layer in _decoder_layers(model):
            layer.register_forward_pre_hook(self._check)

    def _check(self, module: Any, args: Any) -> None:
        event = self.running
        if event is not None and event.is_set():
            raise _Aborted


def _decoder_layers(model: Any) -> list[Any]:
    """The model's stack of decoder layers (the ModuleList as long as `num_hidden_layers`), else the
    model itself (a check per forward pass, between steps)."""
    import torch

    count = getattr(model.config, "num_hidden_layers", None)
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and count and len(module) == count:
            return list(module)
    return [model]


class TextAssembler:
    """Incremental detokenization with stop strings: emits only text that is final (never half a
    UTF-8 character, never the beginning of a possible stop string) and cuts at the first stop."""

    def __init__(self, tokenizer: Any, stop: tuple[str, ...]) -> None:
        self._tok = tokenizer
        self._stop = stop
        self._hold = max((len(s) for s in stop), default=1) - 1
        self.ids: list[int] = []
        self.emitted = 0  # characters of the decoded text already emitted
        self.stopped = False

    def add(self, ids: list[int]) -> str:
        """Adds tokens and returns the newly final text."""
        self.ids.extend(ids)
        text = self._tok.decode(self.ids, skip_special_tokens=True)
        cut = self._first_stop(text)
        if cut is not None:
            self.stopped = True
            out = text[self.emitted:cut]
            self.emitted = max(self.emitted, cut)
            return out
        end = len(text) - self._hold
        while end > self.emitted and text[end - 1] == "\ufffd":
            end -= 1
        if end <= self.emitted:
            return ""
        out = text[self.emitted:end]
        self.emitted = end
        return out

    def flush(self) -> str:
        """The rest of the text at the end of generation."""
        if self.stopped:
            return ""
        text = self._tok.decode(self.ids, skip_special_tokens=True)
        out = text[self.emitted:]
        self.emitted = len(text)
        return out

    def _first_stop(self, text: str) -> int | None:
        hits = [i for i in (text.find(s, max(0, self.emitted - len(s))) for s in self._stop) if i >= 0]
        return min(hits) if hits else None


class TransformersEngine(Engine):
    kind = "transformers"

    def __init__(self, config: EngineConfig) -> None:
        super().__init__(config)
        self._model: Any = None
        self._assistant: Any = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hf-generate")
        self._cancel: dict[str, threading.Event] = {}
        self._abort_check = _AbortCheck()

    @property
    def model(self) -> Any:
        """The loaded model (the hallucination scorer can share it)."""
        return self._model

    async def _start(self) -> PromptRenderer:
        method = self.config.speculative.method
        if method not in SUPPORTED_METHODS:
            raise EngineConfigError(
                f"the transformers engine supports speculative methods {', '.join(SUPPORTED_METHODS)}; "
                f"got {method!r}: use ngram or draft_model, or the vLLM engine for {method}")
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._load)

    def _load(self) -> PromptRenderer:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        dtype = getattr(torch, self.config.dtype)
        tokenizer = AutoTokenizer.from_pretrained(self.config.model_dir)
        self._model = AutoModelForCausalLM.from_pretrained(self.config.model_dir, dtype=dtype).eval()
        if self.config.speculative.method == "draft_model":
            try:
                self._assistant = AutoModelForCausalLM.from_pretrained(
                    self.config.speculative.draft_model, dtype=dtype).eval()
            except Exception as e:
                raise EngineConfigError(
                    f"cannot load draft_model {self.config.speculative.draft_model!r}: {e}; fix the path "
                    "(a Hugging Face model folder sharing the tokenizer) or use method ngram") from e
        for model in (self._model, self._assistant):
            if model is not None:
                self._abort_check.install(model)
        context = int(getattr(self._model.config, "max_position_embeddings", 2048))
        max_len = min(context, self.config.max_model_len or context)
        logger.info("transformers engine up: model %s, dtype %s, speculative %s", self.config.model_name,
                    self.config.dtype, self.config.speculative.method)
        return PromptRenderer(tokenizer, max_len)

    def _generate_kwargs(self, request: GenerationRequest, max_tokens: int) -> dict[str, Any]:
        s = request.sampling
        spec = self.config.speculative
        kw: dict[str, Any] = {"max_new_tokens": max_tokens}
        if s.greedy:
            kw.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        else:
            kw.update(do_sample=True, temperature=s.temperature, top_p=s.top_p, top_k=s.top_k)
        if s.stop:
            kw.update(stop_strings=list(s.stop), tokenizer=self.tokenizer)
        if s.score_inline:
            kw.update(output_logits=True, return_dict_in_generate=True)
        if spec.method == "ngram":
            kw.update(prompt_lookup_num_tokens=spec.num_speculative_tokens,
                      max_matching_ngram_size=spec.prompt_lookup_max)
        elif spec.method == "draft_model":
            kw.update(assistant_model=self._assistant, num_assistant_tokens=spec.num_speculative_tokens)
        return kw

    def _run(self, prompt_ids: list[int], kw: dict[str, Any], seed: int | None, streamer: _TokenStreamer,
             cancel: threading.Event) -> Any:
        import torch
        from transformers import StoppingCriteriaList

        if cancel.is_set():
            return None
        if seed is not None:
            torch.manual_seed(seed)
        ids = torch.tensor([prompt_ids], dtype=torch.long)
        self._abort_check.running = cancel
        try:
            with torch.inference_mode():
                return self._model.generate(
                    input_ids=ids, attention_mask=torch.ones_like(ids), streamer=streamer,
                    stopping_criteria=StoppingCriteriaList([_Cancelled(cancel)]),
                    pad_token_id=self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None
                    else self.tokenizer.eos_token_id, **kw)
        except _Aborted:
            return None  # cancelled inside a forward pass; `_stream` reports the abort
        finally:
            self._abort_check.running = None

    async def _stream(self, request: GenerationRequest, prompt_ids: list[int], max_tokens: int) -> AsyncIterator[Delta]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        cancel = threading.Event()
        self._cancel[request.engine_id] = cancel
        kw = self._generate_kwargs(request, max_tokens)
        future = loop.run_in_executor(self._executor, self._run, prompt_ids, kw, request.sampling.seed,
                                      _TokenStreamer(loop, queue), cancel)
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(queue.put_nowait, _END))
        text = TextAssembler(self.tokenizer, request.sampling.stop)
        eos = self._eos_ids()
        try:
            while True:
                item = await queue.get()
                if item is _END:
                    break
                piece = text.add(item)
                if piece or item:
                    yield Delta(tuple(item), piece)
            out = await future  # raises what generate raised
            if cancel.is_set():
                yield Delta((), "", finish_reason="abort", final=self._final(prompt_ids, text.ids, None, request))
                return
            tail = text.flush()
            if text.stopped or (text.ids and text.ids[-1] in eos):
                reason = "stop"
            else:
                reason = "length" if len(text.ids) >= max_tokens else "stop"
            yield Delta((), tail, finish_reason=reason, final=self._final(prompt_ids, text.ids, out, request))
        finally:
            cancel.set()  # a consumer that went away stops the generation at its next step
            self._cancel.pop(request.engine_id, None)

    def _eos_ids(self) -> set[int]:
        eos = self._model.generation_config.eos_token_id
        return set(eos if isinstance(eos, list) else [eos] if eos is not None else [])

    def _final(self, prompt_ids: list[int], ids: list[int], out: Any, request: GenerationRequest) -> FinalStats:
        spec = self.config.speculative
        logprobs = None
        if request.sampling.score_inline and out is not None and getattr(out, "logits", None) and ids:
            import torch

            steps = torch.cat([step.float() for step in out.logits], dim=0)  # [generated, vocab], raw
            lp = torch.log_softmax(steps, dim=-1)
            n = min(len(ids), lp.shape[0])
            logprobs = tuple(lp[torch.arange(n), torch.tensor(ids[:n])].tolist())
        # Transformers does not expose per-request draft and accept counts: report the method only.
        stats = SpeculativeStats(method=spec.method,
                                 num_speculative_tokens=0 if spec.method == "none" else spec.num_speculative_tokens,
                                 counted=False)
        return FinalStats(usage=Usage(len(prompt_ids), len(ids)), speculative=stats, token_logprobs=logprobs)

    async def _abort(self, engine_id: str) -> None:
        event = self._cancel.get(engine_id)
        if event is not None:
            event.set()

    async def _close(self) -> None:
        for event in self._cancel.values():
            event.set()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._model = None
        self._assistant = None
