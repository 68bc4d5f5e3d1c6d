"""RetryInfo in gRPC trailing metadata, as OTLP throttling uses it (no grpcio-status needed).

The standard carrier is `grpc-status-details-bin`: a google.rpc.Status whose details hold a
google.rpc.RetryInfo. The OpenTelemetry Python exporter reads `google.rpc.retryinfo-bin` (a bare
RetryInfo) instead, so a refusal carries both.
"""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.any_pb2 import Any as AnyProto
from google.protobuf.duration_pb2 import Duration
from google.rpc.code_pb2 import Code
from google.rpc.error_details_pb2 import RetryInfo
from google.rpc.status_pb2 import Status

STATUS_DETAILS_KEY = "grpc-status-details-bin"
RETRY_INFO_KEY = "google.rpc.retryinfo-bin"


def throttle_metadata(message: str, delay_s: float) -> tuple[tuple[str, bytes], ...]:
    """Trailing metadata of a RESOURCE_EXHAUSTED answer that asks to retry after delay_s."""
    duration = Duration()
    duration.FromNanoseconds(int(delay_s * 1e9))
    info = RetryInfo(retry_delay=duration)
    detail = AnyProto()
    detail.Pack(info)
    status = Status(code=Code.RESOURCE_EXHAUSTED, message=message, details=[detail])
    return ((STATUS_DETAILS_KEY, status.SerializeToString()),
            (RETRY_INFO_KEY, info.SerializeToString()))


def retry_delay(metadata: Iterable[tuple[str, str | bytes]] | None) -> float | None:
    """Seconds asked for by RetryInfo in trailing metadata, or None when there is none."""
    for key, value in metadata or ():
        if not isinstance(value, bytes):
            continue
        if key == RETRY_INFO_KEY:
            info = RetryInfo.FromString(value)
            return info.retry_delay.ToNanoseconds() / 1e9
        if key == STATUS_DETAILS_KEY:
            for detail in Status.FromString(value).details:
                if detail.Is(RetryInfo.DESCRIPTOR):
                    info = RetryInfo()
                    detail.Unpack(info)
                    return info.retry_delay.ToNanoseconds() / 1e9
    return None
