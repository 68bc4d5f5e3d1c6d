from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SloState(_message.Message):
    __slots__ = ("ttft_p99_ms", "fallback_active", "samples")
    TTFT_P99_MS_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    ttft_p99_ms: float
    fallback_active: bool
    samples: int
    def __init__(self, ttft_p99_ms: _Optional[float] = ..., fallback_active: _Optional[bool] = ..., samples: _Optional[int] = ...) -> None: ...

class StatusResponse(_message.Message):
    __slots__ = ("queue_depth", "dropped", "slo", "accepted")
    QUEUE_DEPTH_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    SLO_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    queue_depth: int
    dropped: int
    slo: SloState
    accepted: int
    def __init__(self, queue_depth: _Optional[int] = ..., dropped: _Optional[int] = ..., slo: _Optional[_Union[SloState, _Mapping]] = ..., accepted: _Optional[int] = ...) -> None: ...
