"""A part's memory ceiling (`server.max_rss_mib`; docs/adr/0006-memory-ceiling-per-part.md): new
work is refused, RESOURCE_EXHAUSTED naming the setting, while the process's resident memory plus
what the calls it already admitted may still take comes near the ceiling, rather than the part
being killed for memory (a redaction service killed so loses every session's pseudonyms).

RSS is read from /proc/self/statm (a few microseconds, at every admission). It lags what an admitted
call is about to build (a body parsed, its texts scrubbed and re-encoded), so each admission also
reserves an estimate of that, `cost_bytes`, until its request is done: admissions are checked and
reserved one at a time, so a burst of calls that all arrive while RSS is still low cannot all pass.
Freed memory does not always leave RSS (the allocator keeps it), so before refusing the check
collects garbage and asks glibc to give free pages back (`malloc_trim`), at most every
`RECLAIM_INTERVAL_S`: a flood that has ended does not leave the part refusing calls.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc

from ztgate.common.errors import ResourceExhausted
from ztgate.common.tls import stream_items

MIB = 1024 * 1024
_PAGE = os.sysconf("SC_PAGE_SIZE")
# New work is refused once RSS plus reservations pass this share of the ceiling: the rest is room
# for the calls already admitted (their answers, and estimates that fall short).
REFUSE_AT = 0.9
RECLAIM_INTERVAL_S = 0.5


def rss_bytes(pid: int | str = "self") -> int:
    """Resident memory of a process (Linux /proc)."""
    with open(f"/proc/{pid}/statm", "rb") as statm:
        return int(statm.read().split()[1]) * _PAGE


def _malloc_trim() -> None:
    """glibc's malloc_trim(0): free pages of every arena back to the system (no-op elsewhere)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim(0)
    except (OSError, AttributeError, TypeError):
        pass


class MemoryCeilingReached(ResourceExhausted):
    """The part is near its RSS ceiling; the message names the setting."""


class MemoryCeiling:
    """Admission by resident memory; `max_rss_mib` 0: no ceiling (every call admitted)."""

    def __init__(self, max_rss_mib: int, part: str, *, refuse_at: float = REFUSE_AT,
                 setting: str = "server.max_rss_mib") -> None:
        self.max_bytes = max_rss_mib * MIB
        self.part = part
        self.setting = setting
        self._refuse_at = int(self.max_bytes * refuse_at)
        self._reserved = 0
        self._lock = threading.Lock()
        self._reclaimed_at = float("-inf")
        # How many calls were refused (for tests and the bench's report).
        self.refused = 0

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    @property
    def reserved_bytes(self) -> int:
        return self._reserved

    def _reclaim(self) -> int:
        now = time.monotonic()
        if now - self._reclaimed_at >= RECLAIM_INTERVAL_S:
            self._reclaimed_at = now
            gc.collect()
            _malloc_trim()
        return rss_bytes()

    def _refusal(self, rss: int) -> MemoryCeilingReached:
        held = (rss + self._reserved) // MIB
        return MemoryCeilingReached(
            f"the {self.part} service is near its memory ceiling: {held} MiB resident or promised to "
            f"calls in flight, and it takes no new work past {self._refuse_at // MIB} MiB of its "
            f"{self.max_bytes // MIB} MiB limit ({self.setting}); retry shortly, or send smaller requests")

    def reserve(self, cost_bytes: int = 0) -> int:
        """Admits a call that may still take `cost_bytes`, or raises MemoryCeilingReached; the
        amount reserved, to `release` when the call's request is done."""
        if not self.enabled:
            return 0
        cost = max(0, cost_bytes)
        with self._lock:
            rss = rss_bytes()
            if rss + self._reserved + cost > self._refuse_at:
                rss = self._reclaim()
                if rss + self._reserved + cost > self._refuse_at:
                    self.refused += 1
                    raise self._refusal(rss)
            self._reserved += cost
        return cost

    def release(self, reserved: int) -> None:
        if reserved:
            with self._lock:
                self._reserved -= reserved

    @contextmanager
    def admit(self, cost_bytes: int = 0) -> Iterator[None]:
        """`reserve` for the block's length."""
        reserved = self.reserve(cost_bytes)
        try:
            yield
        finally:
            self.release(reserved)


# A unary request, once deserialised, may grow this many times its wire size as the call runs
# (its texts scrubbed and copied, its answer built).
UNARY_GROWTH = 4
_KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")


class MemoryCeilingInterceptor(grpc.aio.ServerInterceptor):
    """Refuses a call (RESOURCE_EXHAUSTED naming the setting) when `ceiling` does not admit it;
    a unary call reserves UNARY_GROWTH times its request's size until it returns. Services in
    `exempt` are never refused: health must tell the truth whatever the load, and the ext_proc
    processor admits each request body itself (to answer the gateway's way)."""

    def __init__(self, ceiling: MemoryCeiling, exempt: frozenset[str] = frozenset()) -> None:
        self._ceiling = ceiling
        self._exempt = exempt

    async def intercept_service(self, continuation: Callable[[Any], Awaitable[Any]],
                                details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        service = details.method.lstrip("/").rpartition("/")[0]
        if handler is None or not self._ceiling.enabled or service in self._exempt:
            return handler
        kind = next(k for k in _KINDS if getattr(handler, k) is not None)
        inner = getattr(handler, kind)
        ceiling = self._ceiling

        def cost(request: Any) -> int:
            size = getattr(request, "ByteSize", None)
            return UNARY_GROWTH * size() if size is not None else 0

        if kind == "unary_unary":
            async def guarded(request: Any, context: grpc.aio.ServicerContext) -> Any:
                try:
                    reserved = ceiling.reserve(cost(request))
                except MemoryCeilingReached as exc:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
                try:
                    return await inner(request, context)
                finally:
                    ceiling.release(reserved)
        elif kind == "stream_unary":
            async def guarded(request: Any, context: grpc.aio.ServicerContext) -> Any:
                try:
                    ceiling.reserve(0)
                except MemoryCeilingReached as exc:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
                return await inner(request, context)
        else:
            async def guarded(request: Any, context: grpc.aio.ServicerContext) -> Any:  # type: ignore[misc]
                try:
                    reserved = ceiling.reserve(cost(request) if kind == "unary_stream" else 0)
                except MemoryCeilingReached as exc:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(exc))
                try:
                    async for item in stream_items(inner(request, context)):
                        yield item
                finally:
                    ceiling.release(reserved)

        return getattr(grpc, f"{kind}_rpc_method_handler")(
            guarded, request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer)
