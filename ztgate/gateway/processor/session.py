"""One call's hold on the redaction service, shared by every API the processor speaks.

A call through the gateway gets a fresh redaction session of its verified tenant (`CallSession`):
its prompt's texts are redacted in it (private values become stand-ins of the same kind, or
placeholders where the tenant's policy says so), its answer is scrubbed of secrets and has the session's
pseudonyms put back (`OutputFilter`), and the session is forgotten when the call ends. Work that
may be large (framing and parsing a big or compressed body, scrubbing an answer) runs in a worker
thread within the tenant's share (`CallSession.off_loop`), so the event loop keeps serving every
other call however large or adversarial one is.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TypeVar

from ztgate.redaction.metrics import ScrubPath
from ztgate.redaction.service import RedactionService, RedactionStream, RedactResult

T = TypeVar("T")

# Largest single message accepted in either direction (a gRPC message, a JSON answer, one SSE
# event): a bound on what one call may hold in memory.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
# A request body up to this size, uncompressed, is parsed and re-encoded on the event loop (tens of
# microseconds, less than a thread hop); a larger or compressed one in a worker thread.
INLINE_BODY_BYTES = 64 * 1024


class PlaceholderRestorer:
    """Puts a session's pseudonyms back into streamed text, holding back a placeholder cut in two."""

    def __init__(self, service: RedactionService, tenant: str, session_id: str) -> None:
        self._vault = service.vault
        self._tenant = tenant
        self._session_id = session_id
        self._held = ""
        self._lead = ""   # the last character given out, as the model wrote it

    def feed(self, text: str) -> str:
        text = self._held + text
        cut = len(text) - self._vault.pending_length(self._tenant, self._session_id, text)
        self._held = text[cut:]
        lead, self._lead = self._lead, (text[cut - 1] if cut else self._lead)
        return self._vault.restore(self._tenant, self._session_id, text[:cut], lead=lead)

    def finish(self) -> str:
        return self.finish_with("")

    def finish_with(self, text: str) -> str:
        """`text` is the end: everything held and it, restored."""
        text, self._held = self._held + text, ""
        return self._vault.restore(self._tenant, self._session_id, text, lead=self._lead)


class OutputFilter:
    """A model's answer: secrets scrubbed first (placeholders are not secrets), then pseudonyms restored.

    The order matters: scrubbing after restoring would treat the restored originals as new PII.
    """

    def __init__(self, scrubber: RedactionStream, restorer: PlaceholderRestorer) -> None:
        self._scrubber = scrubber
        self._restorer = restorer

    def feed(self, text: str) -> str:
        return self._restorer.feed(self._scrubber.feed(text).text) if text else ""

    def finish(self) -> str:
        return self._restorer.feed(self._scrubber.finish().text) + self._restorer.finish()

    def whole(self, text: str) -> str:
        """A whole answer at once (a unary call's): one scan, nothing held back."""
        return self._restorer.finish_with(self._scrubber.scrub(text).text) if text else ""


def finding_counts(results: Sequence[RedactResult]) -> dict[str, int]:
    """What the redaction replaced, per entity type (counts only, never values)."""
    counts: dict[str, int] = {}
    for result in results:
        for finding in result.findings:
            counts[finding.entity_type] = counts.get(finding.entity_type, 0) + 1
    return counts


class CallSession:
    """The verified tenant of one call and the call's own redaction session.

    A fresh session per call, whatever the client sent: pseudonyms of other calls (of this or any
    other tenant) can never be restored into this call's answer.
    """

    def __init__(self, service: RedactionService, tenant: str) -> None:
        self.tenant = tenant
        self.session_id = uuid.uuid4().hex
        self._service = service

    async def redact(self, texts: Sequence[str], timeout_s: float | None) -> list[RedactResult]:
        """The request's texts redacted in this session, in order (pseudonyms numbered in text
        order), within `timeout_s` (None: the service's own analysis timeout), by the tenant's policy
        as chat applies it (surrogates by default: Policy.chat_pseudonyms); counted as the gateway's
        prompts."""
        # The call's own session never leaves this replica (the same stream restores its answer).
        return await self._service.redact_many(texts, tenant=self.tenant, session_id=self.session_id,
                                               timeout_s=timeout_s, path=ScrubPath.GATEWAY_REQUEST,
                                               chat=True, replicate=False)

    async def off_loop(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` in a worker thread, within this call's tenant's share (service.off_loop)."""
        return await self._service.off_loop(self.tenant, fn, *args)

    def output_filter(self) -> OutputFilter:
        """A filter for one answer text of this call (a stream's, or a unary answer's)."""
        return OutputFilter(
            self._service.open_output_stream(tenant=self.tenant, session_id=self.session_id),
            PlaceholderRestorer(self._service, self.tenant, self.session_id))

    def close(self) -> None:
        """The call is over: the session's originals leave memory now rather than at expiry."""
        self._service.vault.forget(self.tenant, self.session_id)
