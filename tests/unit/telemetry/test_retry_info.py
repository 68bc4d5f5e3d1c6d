"""Throttling answers carry RetryInfo both where the spec puts it and where OTel Python reads it."""

from google.rpc.error_details_pb2 import RetryInfo
from google.rpc.status_pb2 import Status

from ztgate.telemetry.retry_info import (RETRY_INFO_KEY, STATUS_DETAILS_KEY, retry_delay,
                                           throttle_metadata)


def test_throttle_metadata_holds_a_status_with_retry_info_and_the_bare_retry_info() -> None:
    md = dict(throttle_metadata("queue full", 1.5))
    status = Status.FromString(md[STATUS_DETAILS_KEY])
    assert status.code == 8 and status.message == "queue full"
    info = RetryInfo()
    assert status.details[0].Unpack(info) and info.retry_delay.ToMilliseconds() == 1500
    assert RetryInfo.FromString(md[RETRY_INFO_KEY]).retry_delay.ToMilliseconds() == 1500


def test_retry_delay_reads_either_carrier() -> None:
    md = throttle_metadata("x", 2.25)
    assert retry_delay(md) == 2.25
    assert retry_delay([md[0]]) == 2.25
    assert retry_delay([("other", "text")]) is None
