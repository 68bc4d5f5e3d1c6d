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

class Pseudonym(_message.Message):
    __slots__ = ("entity_type", "original", "stand_in")
    ENTITY_TYPE_FIELD_NUMBER: _ClassVar[int]
    ORIGINAL_FIELD_NUMBER: _ClassVar[int]
    STAND_IN_FIELD_NUMBER: _ClassVar[int]
    entity_type: str
    original: str
    stand_in: str
    def __init__(self, entity_type: _Optional[str] = ..., original: _Optional[str] = ..., stand_in: _Optional[str] = ...) -> None: ...

class ReplicatedSession(_message.Message):
    __slots__ = ("tenant", "session_id", "touch_only", "pseudonyms", "counters", "surrogates", "forms", "names", "mails", "mail_locals", "phones")
    class CountersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class SurrogatesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class FormsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class MailsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class MailLocalsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class PhonesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TENANT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOUCH_ONLY_FIELD_NUMBER: _ClassVar[int]
    PSEUDONYMS_FIELD_NUMBER: _ClassVar[int]
    COUNTERS_FIELD_NUMBER: _ClassVar[int]
    SURROGATES_FIELD_NUMBER: _ClassVar[int]
    FORMS_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    MAILS_FIELD_NUMBER: _ClassVar[int]
    MAIL_LOCALS_FIELD_NUMBER: _ClassVar[int]
    PHONES_FIELD_NUMBER: _ClassVar[int]
    tenant: str
    session_id: str
    touch_only: bool
    pseudonyms: _containers.RepeatedCompositeFieldContainer[Pseudonym]
    counters: _containers.ScalarMap[str, int]
    surrogates: _containers.ScalarMap[str, str]
    forms: _containers.ScalarMap[str, str]
    names: _containers.RepeatedScalarFieldContainer[str]
    mails: _containers.ScalarMap[str, str]
    mail_locals: _containers.ScalarMap[str, str]
    phones: _containers.ScalarMap[str, str]
    def __init__(self, tenant: _Optional[str] = ..., session_id: _Optional[str] = ..., touch_only: _Optional[bool] = ..., pseudonyms: _Optional[_Iterable[_Union[Pseudonym, _Mapping]]] = ..., counters: _Optional[_Mapping[str, int]] = ..., surrogates: _Optional[_Mapping[str, str]] = ..., forms: _Optional[_Mapping[str, str]] = ..., names: _Optional[_Iterable[str]] = ..., mails: _Optional[_Mapping[str, str]] = ..., mail_locals: _Optional[_Mapping[str, str]] = ..., phones: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ReplicateRequest(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[ReplicatedSession]
    def __init__(self, sessions: _Optional[_Iterable[_Union[ReplicatedSession, _Mapping]]] = ...) -> None: ...

class ReplicateResponse(_message.Message):
    __slots__ = ("instance", "kept", "refused")
    INSTANCE_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    instance: str
    kept: int
    refused: int
    def __init__(self, instance: _Optional[str] = ..., kept: _Optional[int] = ..., refused: _Optional[int] = ...) -> None: ...

class SessionsRequest(_message.Message):
    __slots__ = ("after_tenant", "after_session_id")
    AFTER_TENANT_FIELD_NUMBER: _ClassVar[int]
    AFTER_SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    after_tenant: str
    after_session_id: str
    def __init__(self, after_tenant: _Optional[str] = ..., after_session_id: _Optional[str] = ...) -> None: ...

class SessionsResponse(_message.Message):
    __slots__ = ("sessions", "instance", "done")
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[ReplicatedSession]
    instance: str
    done: bool
    def __init__(self, sessions: _Optional[_Iterable[_Union[ReplicatedSession, _Mapping]]] = ..., instance: _Optional[str] = ..., done: _Optional[bool] = ...) -> None: ...
