"""Which finished answers the background scorer takes: a stable share by request id."""

from __future__ import annotations

import hashlib


def sampled(engine_id: str, percent: int) -> bool:
    """True for about `percent` % of ids, always the same answer for one id (a hash, not a
    random draw: a retried request is scored, or not, as before)."""
    if percent >= 100:
        return True
    if percent <= 0:
        return False
    bucket = int.from_bytes(hashlib.blake2b(engine_id.encode(), digest_size=8).digest(), "big") % 100
    return bucket < percent
