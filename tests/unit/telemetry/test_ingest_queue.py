"""The ingestion queue: bounded in items, refuses whole exports when full, and counts them."""

import threading

from ztgate.telemetry.queue import IngestQueue, Item


def test_offer_refuses_past_capacity_and_counts_what_was_refused() -> None:
    q = IngestQueue(capacity=10)
    assert q.offer(Item("metrics", "a", 6))
    assert not q.offer(Item("metrics", "b", 5))
    assert q.offer(Item("logs", "c", 4))
    assert (q.depth, q.accepted, q.dropped) == (10, {"metrics": 6, "logs": 4}, {"metrics": 5})


def test_an_empty_queue_takes_one_export_larger_than_its_capacity() -> None:
    q = IngestQueue(capacity=10)
    assert q.offer(Item("metrics", "big", 50))
    assert not q.offer(Item("metrics", "small", 1))


def test_take_waits_for_an_item_from_another_thread_and_frees_room() -> None:
    q = IngestQueue(capacity=2)
    assert q.take(0.01) is None
    threading.Timer(0.05, q.offer, args=(Item("traces", "x", 2),)).start()
    item = q.take(5.0)
    assert item is not None and item.request == "x" and q.depth == 0
    assert q.offer(Item("traces", "y", 2))
