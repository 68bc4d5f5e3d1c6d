"""`--json` output of the CLI: one JSON object per reply, field names as in the proto, for scripts."""

from __future__ import annotations

import json

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

_INT64 = frozenset({FieldDescriptor.CPPTYPE_INT64, FieldDescriptor.CPPTYPE_UINT64})


def message_json(message: Message) -> str:
    """A reply as one line of JSON: proto field names, fields at their defaults included (a script
    reads `findings: []`, not a missing key), 64-bit counters as numbers."""
    data = MessageToDict(message, preserving_proto_field_name=True,
                         always_print_fields_with_no_presence=True)
    return json.dumps(_numbers(message, data), ensure_ascii=False, sort_keys=True)


def _numbers(message: Message, data: dict) -> dict:
    """MessageToDict writes int64 fields as strings (JSON numbers lose precision past 2**53); the
    counters here are far below that, and scripts compare them as numbers."""
    for field in message.DESCRIPTOR.fields:
        if field.name not in data:
            continue
        value = getattr(message, field.name)
        repeated = field.is_repeated
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            if repeated:
                data[field.name] = [_numbers(m, d) for m, d in zip(value, data[field.name])]
            else:
                data[field.name] = _numbers(value, data[field.name])
        elif field.cpp_type in _INT64:
            data[field.name] = [int(v) for v in data[field.name]] if repeated else int(data[field.name])
    return data
