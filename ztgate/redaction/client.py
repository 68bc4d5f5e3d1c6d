"""A small client of the Redaction service, used by `ztgate redact` and the benchmarks."""

from __future__ import annotations

from typing import TextIO


from ztgate.common.identity import SESSION_HEADER, bearer
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import open_channel

from ztgate.gen.redaction.v1 import redaction_pb2, redaction_pb2_grpc


async def redact(address: str, text: str, *, policy: str = "", tenant: str = "",
                 session_id: str = "", timeout_s: float = 30.0,
                 token: str = "", tls: ClientTlsSettings | None = None) -> redaction_pb2.RedactResponse:
    """One Redact call: plaintext to the gateway's loopback listener, with `tls` to a service
    inside the suite."""
    async with open_channel(address, tls) as channel:
        stub = redaction_pb2_grpc.RedactionStub(channel)
        return await stub.Redact(redaction_pb2.RedactRequest(
            text=text, policy=policy, tenant=tenant, session_id=session_id), timeout=timeout_s,
            # The session header keeps a named session on the replica that holds its vault.
            metadata=bearer(token) + (((SESSION_HEADER, session_id),) if session_id else ()))


def print_redaction(response: redaction_pb2.RedactResponse, out: TextIO) -> None:
    """The redacted text, then a table of findings (types, offsets, scores; never values)."""
    out.write(response.text + "\n")
    if not response.findings:
        out.write("\nno findings\n")
        return
    rows = [("ENTITY", "START", "END", "SCORE", "ACTION", "RECOGNIZER", "REPLACEMENT")]
    rows += [(f.entity_type, str(f.start), str(f.end), f"{f.score:.2f}", f.action, f.recognizer,
              f.replacement) for f in response.findings]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out.write("\n")
    for row in rows:
        out.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() + "\n")
    out.write(f"\nsession {response.session_id}\n")
