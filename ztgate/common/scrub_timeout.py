"""How long Envoy waits for the gateway to scrub one request body: a time that grows with the body.

A fixed ext_proc `message_timeout` either refuses long prompts (NER reads a text whole) or lets a stuck
scrub of a short prompt hold its call as long as the longest may take. So above `OVERRIDE_FROM_BYTES`
the redaction service asks Envoy for a longer wait (`for_body`), capped where Envoy caps it, and scrubs
within it. Mechanism: docs/architecture.md ("Module notes"); the settings and the scrub times they
rest on: docs/operations/limits.md.
"""

from __future__ import annotations

from dataclasses import dataclass

# Request bodies up to this many bytes are scrubbed within Envoy's plain message_timeout (no
# override is sent): even the worst prose measured scrubs this much well within that wait
# (the rates: docs/operations/limits.md).
OVERRIDE_FROM_BYTES = 4 * 1024

# Seconds kept back from Envoy's timer, so that a refusal for a slow prompt reaches Envoy before
# its own timer fails the call with a bare UNAVAILABLE.
REPLY_MARGIN_S = 0.2


@dataclass(frozen=True, slots=True)
class ScrubTimeouts:
    # Envoy's message_timeout: its wait for any one answer, seconds.
    base_s: float
    # Seconds more per KiB of request body, sent as an override on a body above OVERRIDE_FROM_BYTES.
    per_kib_s: float
    # Envoy's max_message_timeout: no override (and no scrub) runs longer than this, seconds.
    max_s: float

    def for_body(self, body_bytes: int) -> float:
        """Envoy's wait for the answer on a request body of `body_bytes` (seconds, in whole
        milliseconds: what Envoy is told is what the scrub is given)."""
        if body_bytes <= OVERRIDE_FROM_BYTES:
            return self.base_s
        return round(min(self.base_s + self.per_kib_s * body_bytes / 1024, self.max_s), 3)

    def override_s(self, body_bytes: int) -> float | None:
        """The override_message_timeout to send first for this body; None when Envoy's timer does."""
        wait = self.for_body(body_bytes)
        return wait if wait > self.base_s else None


def scrub_budget_s(wait_s: float) -> float:
    """What scrubbing one request body may take when Envoy waits `wait_s` for its answer."""
    return max(wait_s - REPLY_MARGIN_S, wait_s / 2)
