"""Steady, bounded Generate load through the gateway, each call timed and placed in time.

`ztgate bench failover` and the supervision e2e run it while they break parts of a suite: a few
clients, each one call at a time (at most one every `interval_s`), a short greedy chat prompt with
few tokens, so that the load is steady and light enough that a failover, not the load, decides
the figures. Each call is an `attack_load.Call`, with when it started and which instance answered.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import grpc

from ztgate_bench.attack_load import CHANNEL_OPTIONS, Call, detail_of
from ztgate.common.identity import bearer
from ztgate.gen.inference.v1 import inference_pb2_grpc
from ztgate.inference.client import build_request

# A short prompt (redacted on the way, as every call is) and few greedy tokens: under a second a
# call on the suite's CPU model, so that a second of failover shows.
PROMPT = "Say hello to the support team in one short sentence."
MAX_TOKENS = 8
# A call's deadline: past it the call is lost (DEADLINE_EXCEEDED), as its client would give up.
CALL_TIMEOUT_S = 30.0


async def steady_load(gateway: str, token: str = "", *, clients: int = 1, max_calls: int = 10_000,
                      stop: Callable[[], bool] = lambda: False, interval_s: float = 0.0,
                      timeout_s: float = CALL_TIMEOUT_S, calls: list[Call] | None = None,
                      in_flight: dict[int, float] | None = None) -> list[Call]:
    """Generate from `clients` clients until `max_calls` calls have begun or `stop()` holds (checked
    before each call). Each finished call is appended to `calls` (so that a caller on another thread
    can watch them come) and the list is returned; `in_flight` holds, while a call runs, its
    number and when it began."""
    if clients < 1 or max_calls < 0 or interval_s < 0 or timeout_s <= 0:
        raise ValueError("clients must be >= 1, max_calls >= 0, interval_s >= 0 and timeout_s > 0")
    calls = [] if calls is None else calls
    in_flight = {} if in_flight is None else in_flight
    begun = 0
    metadata = bearer(token)
    request = build_request(PROMPT, chat=True, max_tokens=MAX_TOKENS, temperature=0)

    async def client() -> None:
        nonlocal begun
        # A connection per client, as separate clients would have.
        async with grpc.aio.insecure_channel(gateway, options=CHANNEL_OPTIONS) as channel:
            stub = inference_pb2_grpc.InferenceStub(channel)
            next_at = time.monotonic()
            while begun < max_calls and not stop():
                now = time.monotonic()
                if next_at > now:
                    await asyncio.sleep(next_at - now)
                    if stop():
                        break
                begun += 1
                number, started = begun, time.monotonic()
                in_flight[number] = started
                next_at = started + interval_s
                code, detail, served_by = "OK", "", ""
                try:
                    reply = await stub.Generate(request, timeout=timeout_s, metadata=metadata)
                    served_by = reply.served_by
                except grpc.aio.AioRpcError as exc:
                    code, detail = exc.code().name, detail_of(exc)
                finally:
                    in_flight.pop(number, None)
                calls.append(Call("Generate", code, (time.monotonic() - started) * 1000, detail,
                                  started_s=started, served_by=served_by))

    await asyncio.gather(*(client() for _ in range(clients)))
    return calls
