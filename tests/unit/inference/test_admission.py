"""The in-flight limiter rejects at once past its limit."""

from __future__ import annotations

import threading

import pytest

from ztgate.common.errors import ResourceExhausted
from ztgate.inference.admission import AdmissionLimiter, Overloaded


def test_admits_up_to_the_limit_then_rejects_at_once():
    limiter = AdmissionLimiter(2)
    with limiter.slot(), limiter.slot():
        assert limiter.in_flight == 2
        with pytest.raises(Overloaded, match="limit of 2 concurrent requests"):
            with limiter.slot():
                pass
    assert limiter.in_flight == 0
    assert (limiter.admitted, limiter.rejected) == (2, 1)


def test_a_slot_is_released_when_the_request_fails():
    limiter = AdmissionLimiter(1)
    with pytest.raises(KeyError):
        with limiter.slot():
            raise KeyError("boom")
    with limiter.slot():
        assert limiter.in_flight == 1


def test_overloaded_maps_to_resource_exhausted():
    assert issubclass(Overloaded, ResourceExhausted) and Overloaded.status == "RESOURCE_EXHAUSTED"


def test_limit_must_be_positive():
    with pytest.raises(ValueError, match=">= 1"):
        AdmissionLimiter(0)


def test_concurrent_acquires_never_exceed_the_limit():
    limiter = AdmissionLimiter(3)
    peak = 0
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def worker():
        nonlocal peak
        barrier.wait()
        for _ in range(200):
            if limiter.try_acquire():
                with lock:
                    peak = max(peak, limiter.in_flight)
                limiter.release()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak <= 3 and limiter.in_flight == 0
    assert limiter.admitted + limiter.rejected == 1600
