"""How long Envoy waits for the gateway to scrub one request body: a time that grows with the body.

Envoy's ext_proc filter fails a call when one message goes unanswered for `message_timeout`. A
fixed wait either refuses long prompts (NER reads a text whole: lowercase or name-dense prose
takes up to ~0.1 s a KiB on a busy CPU) or lets a stuck scrub of a short prompt hold its call for
as long as the longest one may take. So the wait scales with the body:

- `message_timeout` (`base_s`, gateway.redaction.message_timeout_s) is Envoy's timer for every
  message: a short prompt's body and each chunk of an answer;
- on a request body above `OVERRIDE_FROM_BYTES`, the redaction service first sends Envoy an
  `override_message_timeout` of `for_body(size)` (base plus gateway.redaction.message_timeout_per_kib_s
  a KiB), which restarts Envoy's timer for that message. Envoy honours an override only up to the
  filter's `max_message_timeout` (`max_s`, gateway.redaction.max_message_timeout_s), so the
  redaction service caps it there too, and scrubs within the same time (less a margin for the
  refusal to reach Envoy first): the analyses' deadline follows the timer Envoy keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

# Request bodies up to this many bytes are scrubbed within Envoy's plain message_timeout (no
# override is sent): a 4 KiB prompt takes well under a second even as the worst prose measured.
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
