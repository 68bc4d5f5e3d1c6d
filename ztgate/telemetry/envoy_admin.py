"""Envoy's admin console, read only: runtime keys and counters (the SLO controller's count of
abandoned tries, tests, benchmarks). Nothing here writes: the controller publishes the runtime
through RTDS (ztgate/telemetry/rtds.py)."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import urllib.parse

# Retries of calls routed primary-first (ztgate/gateway/templates/envoy.yaml: route cluster
# `inference_primary_first`): a try past its first-token budget (hedged: Envoy sends the retry
# beside it and counts no per-try timeout), a connection the primary refused, or its UNAVAILABLE /
# RESOURCE_EXHAUSTED. Each is a call the primary did not start in time. Envoy charges it to the
# route's cluster; the primary host's `rq_timeout` would also count calls that ran out of their
# client's own deadline, which a client could use to trip the controller.
PRIMARY_BUDGET_MISSES = "cluster.inference_primary_first.upstream_rq_retry"


class AdminError(Exception):
    """Envoy's admin console refused or could not be reached; the message says which."""


class EnvoyAdmin:
    def __init__(self, admin: str, timeout_s: float) -> None:
        host, _, port = admin.rpartition(":")
        self.host, self.port = host.strip("[]"), int(port)
        self.timeout_s = timeout_s

    def _call(self, method: str, path: str) -> bytes:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout_s)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            body = response.read()
        except OSError as exc:
            raise AdminError(f"envoy admin {self.host}:{self.port} unreachable: {exc}") from exc
        finally:
            conn.close()
        if response.status != 200:
            raise AdminError(f"envoy admin {method} {path.split('?')[0]} answered "
                             f"{response.status}")
        return body

    async def get(self, key: str) -> str | None:
        """The key's final value from GET /runtime, or None when it is not set in any layer."""
        body = await asyncio.to_thread(self._call, "GET", "/runtime?format=json")
        entry = json.loads(body).get("entries", {}).get(key)
        return None if entry is None else entry.get("final_value")

    async def counter(self, name: str) -> int | None:
        """A counter's value from GET /stats, or None when Envoy has no stat of that name."""
        query = urllib.parse.urlencode({"format": "json", "filter": f"^{re.escape(name)}$"})
        body = await asyncio.to_thread(self._call, "GET", f"/stats?{query}")
        for stat in json.loads(body).get("stats", []):
            if stat.get("name") == name and isinstance(stat.get("value"), int):
                return stat["value"]
        return None
