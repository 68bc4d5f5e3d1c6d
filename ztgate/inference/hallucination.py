"""Hallucination score from the log-probabilities of generated tokens, and its background scorer.

The score is 1 - 1/perplexity of the answer under the model's own distribution, in [0, 1]: 0 when the
model was sure of every token, near 1 when it was guessing. It measures uncertainty, not truth, and
depends on the model and the sampling: use it to rank or flag answers, not as a verdict. Computed off
the request path by default (`HallucinationScorer`: batched, bounded queue, drops rather than waits);
a score not computed is never reported. Definition, limits and placement: docs/architecture.md
("Module notes").
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

LOW_PROBABILITY = 0.1  # a token the model gave less than this counts as low-probability


@dataclass(frozen=True, slots=True)
class HallucinationScore:
    score: float  # 1 - geometric mean of the token probabilities, in [0, 1]
    mean_surprise: float  # mean -log p in nats per token (log of the perplexity)
    low_probability_share: float  # share of tokens with p < LOW_PROBABILITY
    num_tokens: int


def score_from_logprobs(logprobs: Sequence[float]) -> HallucinationScore:
    """Scores natural-log probabilities of generated tokens. Raises ValueError when there is
    nothing to score (no tokens, or a NaN), so no made-up score can come out."""
    if not logprobs:
        raise ValueError("no generated tokens to score")
    if any(math.isnan(lp) or lp > 1e-6 for lp in logprobs):
        raise ValueError("log-probabilities must be <= 0 and not NaN")
    surprises = [-min(lp, 0.0) for lp in logprobs]
    mean = sum(surprises) / len(surprises)
    low = sum(1 for lp in logprobs if lp < math.log(LOW_PROBABILITY)) / len(logprobs)
    return HallucinationScore(score=1.0 - math.exp(-mean), mean_surprise=mean,
                              low_probability_share=low, num_tokens=len(logprobs))


def teacher_forced_logprobs(model: Any, items: Sequence[tuple[Sequence[int], Sequence[int]]],
                            max_len: int) -> list[list[float]]:
    """Log-probabilities of each completion token given its prompt and the completion before it,
    for a batch of (prompt ids, completion ids), in one right-padded forward pass. The output
    projection runs only on the completion positions, so memory stays at hidden-size per token.
    A prompt longer than max_len minus its completion is cut from the left."""
    import torch

    seqs: list[list[int]] = []
    starts: list[int] = []
    for prompt, completion in items:
        keep = max(1, max_len - len(completion))
        p = list(prompt)[-keep:]
        seq = (p + list(completion))[:max_len]
        seqs.append(seq)
        starts.append(len(p))
    width = max(len(s) for s in seqs)
    ids = torch.zeros((len(seqs), width), dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
        mask[i, : len(s)] = 1
    with torch.inference_mode():
        base = getattr(model, model.base_model_prefix)
        hidden = base(input_ids=ids, attention_mask=mask).last_hidden_state
        head = model.get_output_embeddings()
        out: list[list[float]] = []
        for i, s in enumerate(seqs):
            # Position j predicts token j + 1: completion tokens s[start:] come from start-1 .. len-2.
            pos = torch.arange(starts[i] - 1, len(s) - 1)
            logits = head(hidden[i, pos]).float()
            lp = torch.log_softmax(logits, dim=-1)
            target = torch.tensor(s[starts[i]:])
            out.append(lp.gather(1, target[:, None]).squeeze(1).tolist())
    return out


@dataclass(frozen=True, slots=True)
class _Job:
    request_id: str
    prompt_ids: tuple[int, ...]
    completion_ids: tuple[int, ...]


class HallucinationScorer:
    """Scores finished answers in the background; results are looked up by request id.

    `submit` never blocks: past `max_queue` waiting jobs it drops the job (counted in `dropped`).
    Results are kept for the latest `max_results` requests.
    """

    def __init__(self, model: Any, *, max_len: int = 2048, max_queue: int = 256, batch_size: int = 8,
                 max_results: int = 4096) -> None:
        self._model = model
        self._max_len = max_len
        self._batch_size = batch_size
        self._max_results = max_results
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=max_queue)
        self._results: OrderedDict[str, HallucinationScore] = OrderedDict()
        self._events: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.scored = 0
        self.dropped = 0
        self.failed = 0

    @classmethod
    def from_model_dir(cls, model_dir: Path, **kwargs: Any) -> HallucinationScorer:
        """Loads the model in float32 (the scorer's numbers are only comparable in float32)."""
        import torch
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        model.eval()
        kwargs.setdefault("max_len", int(getattr(model.config, "max_position_embeddings", 2048)))
        return cls(model, **kwargs)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="hallucination-scorer", daemon=True)
            self._thread.start()

    def close(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            try:
                self._queue.put(None, timeout=timeout)
            except queue.Full:
                pass
            self._thread.join(timeout)
            self._thread = None

    def is_pending(self, request_id: str) -> bool:
        """True while a queued answer has no score yet."""
        with self._lock:
            return request_id in self._events and request_id not in self._results

    def pending(self) -> int:
        return self._queue.qsize()

    def submit(self, request_id: str, prompt_ids: Sequence[int], completion_ids: Sequence[int]) -> bool:
        """Queues a finished answer; False (and counted as dropped) when the queue is full or the
        answer has no tokens."""
        if not completion_ids:
            return False
        with self._lock:
            self._events.setdefault(request_id, threading.Event())
        try:
            self._queue.put_nowait(_Job(request_id, tuple(prompt_ids), tuple(completion_ids)))
        except queue.Full:
            with self._lock:
                self._events.pop(request_id, None)
            self.dropped += 1
            return False
        return True

    def result(self, request_id: str) -> HallucinationScore | None:
        with self._lock:
            return self._results.get(request_id)

    async def wait(self, request_id: str, timeout: float) -> HallucinationScore | None:
        """The score once computed; None when it was never queued, failed, or took longer than timeout."""
        with self._lock:
            if request_id in self._results:
                return self._results[request_id]
            event = self._events.get(request_id)
        if event is None:
            return None
        await asyncio.to_thread(event.wait, timeout)
        return self.result(request_id)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < self._batch_size:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._score(batch)
            if stop:
                return

    def _score(self, batch: list[_Job]) -> None:
        t0 = time.perf_counter()
        try:
            logprobs = teacher_forced_logprobs(
                self._model, [(j.prompt_ids, j.completion_ids) for j in batch], self._max_len)
        except Exception:
            logger.exception("hallucination scoring failed for a batch of %d", len(batch))
            self.failed += len(batch)
            self._release(batch)
            return
        with self._lock:
            for job, lps in zip(batch, logprobs):
                try:
                    self._results[job.request_id] = score_from_logprobs(lps)
                    self._results.move_to_end(job.request_id)
                except ValueError:
                    self.failed += 1
            while len(self._results) > self._max_results:
                self._results.popitem(last=False)
        self.scored += len(batch)
        self._release(batch)
        logger.debug("scored %d answers in %.1f ms", len(batch), (time.perf_counter() - t0) * 1e3)

    def _release(self, batch: list[_Job]) -> None:
        with self._lock:
            for job in batch:
                event = self._events.pop(job.request_id, None)
                if event is not None:
                    event.set()


def sampled(engine_id: str, percent: int) -> bool:
    """True for about `percent` % of ids, always the same answer for one id (a hash, not a
    random draw: a retried request is scored, or not, as before)."""
    if percent >= 100:
        return True
    if percent <= 0:
        return False
    bucket = int.from_bytes(hashlib.blake2b(engine_id.encode(), digest_size=8).digest(), "big") % 100
    return bucket < percent
