from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Finding(_message.Message):
    __slots__ = ("entity_type", "start", "end", "score", "recognizer", "replacement", "action")
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RECOGNIZER_FIELD_NUMBER: _ClassVar[int]
    REPLACEMENT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    entity_type: str
    start: int
    end: int
    score: float
    recognizer: str
    replacement: str
    action: str
    def __init__(self, entity_type: _Optional[str] = ..., start: _Optional[int] = ..., end: _Optional[int] = ..., score: _Optional[float] = ..., recognizer: _Optional[str] = ..., replacement: _Optional[str] = ..., action: _Optional[str] = ...) -> None: ...

class RedactRequest(_message.Message):
    __slots__ = ("text", "policy", "tenant", "session_id")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    text: str
    policy: str
    tenant: str
    session_id: str
    def __init__(self, text: _Optional[str] = ..., policy: _Optional[str] = ..., tenant: _Optional[str] = ..., session_id: _Optional[str] = ...) -> None: ...

class RedactResponse(_message.Message):
    __slots__ = ("text", "findings", "session_id")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    text: str
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    session_id: str
    def __init__(self, text: _Optional[str] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., session_id: _Optional[str] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("text", "policy", "tenant")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    text: str
    policy: str
    tenant: str
    def __init__(self, text: _Optional[str] = ..., policy: _Optional[str] = ..., tenant: _Optional[str] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("findings",)
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    def __init__(self, findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ...) -> None: ...

class RestoreRequest(_message.Message):
    __slots__ = ("text", "session_id", "tenant")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    text: str
    session_id: str
    tenant: str
    def __init__(self, text: _Optional[str] = ..., session_id: _Optional[str] = ..., tenant: _Optional[str] = ...) -> None: ...

class RestoreResponse(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class RedactChunk(_message.Message):
    __slots__ = ("text", "session_id", "policy", "tenant", "final", "findings")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    TENANT_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    text: str
    session_id: str
    policy: str
    tenant: str
    final: bool
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    def __init__(self, text: _Optional[str] = ..., session_id: _Optional[str] = ..., policy: _Optional[str] = ..., tenant: _Optional[str] = ..., final: _Optional[bool] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ...) -> None: ...
