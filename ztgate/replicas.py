"""`ztgate up --replicas PART=N`: which parts may run several replicas, and where each listens.

Pure planning, so that it is tested without starting anything. Replica i (from 0) of a part listens
on the part's configured host, at its configured port + i * `supervisor.replica_port_stride`: the
first on the configured address itself, so one replica is exactly the suite without the flag.
Envoy gets every replica's address as an endpoint of the part's cluster (health-checked, balanced
over; the Redaction API hashed on tenant + session, docs/operations/deploying.md "Replicas"). Replicas of a
part share its identity in the suite's certificates: the certificate names the part (and loopback),
not a port, so every replica presents the part's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ztgate.common.server import ListenError, split_host_port
from ztgate.config import ZtgateConfig
from ztgate.parts import BY_NAME, PARTS

# The parts that may run as several replicas (ztgate/parts.py): their setting of the configured
# address, and the Envoy cluster their replicas are endpoints of. (Telemetry and Envoy are one each:
# the collector holds the suite's metrics, and Envoy is the one door.)
REPLICABLE: dict[str, tuple[str, str]] = {
    part.name: (part.listen, part.cluster or part.name) for part in PARTS if part.replicable}
# The most a port can be.
_MAX_PORT = 65535


class ReplicaError(ValueError):
    """A `--replicas` value that cannot be run; the message names the value and what to change."""


@dataclass(frozen=True)
class Replica:
    """One process of a part: its name in `up`'s output and supervisor, and its address."""

    part: str
    index: int
    count: int
    address: str

    @property
    def name(self) -> str:
        """The part's own name when it runs once; PART#1 .. PART#N among several."""
        return self.part if self.count == 1 else f"{self.part}#{self.index + 1}"


def parse(values: Sequence[str], max_replicas: int) -> dict[str, int]:
    """`--replicas` values (each PART=N, or several comma-separated) as {part: N}; ReplicaError
    for an unknown part, a part named twice, or an N that is not a whole number 1..max_replicas."""
    counts: dict[str, int] = {}
    for item in (i.strip() for value in values for i in value.split(",")):
        if not item:
            continue
        part, sep, text = item.partition("=")
        part = part.strip()
        if not sep:
            raise ReplicaError(f"--replicas {item!r}: write PART=N, e.g. redaction=2")
        if part not in REPLICABLE:
            raise ReplicaError(f"--replicas {item!r}: {part!r} cannot run as replicas; the parts "
                               f"that can are {', '.join(REPLICABLE)}")
        if part in counts:
            raise ReplicaError(f"--replicas names {part} twice; give it once")
        try:
            count = int(text.strip())
        except ValueError:
            raise ReplicaError(f"--replicas {item!r}: N must be a whole number from 1 to "
                               f"{max_replicas}") from None
        if count < 1:
            raise ReplicaError(f"--replicas {item!r}: N must be at least 1 (a part cannot run "
                               "with no replica)")
        if count > max_replicas:
            raise ReplicaError(f"--replicas {item!r}: at most {max_replicas} replicas of one part "
                               f"(supervisor.max_replicas); raise it, or ask for fewer")
        counts[part] = count
    return counts


def replicas(config: ZtgateConfig, part: str, count: int) -> list[Replica]:
    """The `count` replicas of `part` with their addresses; ReplicaError when the configured port
    is 0 (any free port: Envoy could not be told where) or a replica's port would pass 65535."""
    setting, _ = REPLICABLE[part]
    address = configured_address(config, part)
    try:
        host, port = split_host_port(address)
    except ListenError as exc:
        raise ReplicaError(f"{setting}: {exc}") from exc
    stride = config.supervisor.replica_port_stride
    if count > 1 and port == 0:
        raise ReplicaError(f"{part} cannot run as {count} replicas on port 0 ({setting} {address}): "
                           "Envoy must be told each replica's port; set a port")
    last = port + (count - 1) * stride
    if last > _MAX_PORT:
        raise ReplicaError(f"{part}'s replica {count} would listen on port {last} ({setting} port "
                           f"{port} + {count - 1} * supervisor.replica_port_stride {stride}), past "
                           f"{_MAX_PORT}: lower the stride, the port, or the number of replicas")
    hostport = f"[{host}]" if ":" in host else host
    return [Replica(part, i, count, f"{hostport}:{port + i * stride}") for i in range(count)]


def configured_address(config: ZtgateConfig, part: str) -> str:
    """The part's configured listen address (its first replica's)."""
    return BY_NAME[part].address(config)


def plan(config: ZtgateConfig, counts: Mapping[str, int]) -> dict[str, list[Replica]]:
    """Every replicable part's replicas (one where `counts` does not say); ReplicaError."""
    unknown = sorted(set(counts) - set(REPLICABLE))
    if unknown:
        raise ReplicaError(f"{', '.join(unknown)} cannot run as replicas; the parts that can are "
                           f"{', '.join(REPLICABLE)}")
    return {part: replicas(config, part, counts.get(part, 1)) for part in REPLICABLE}


def envoy_endpoints(planned: Mapping[str, Sequence[Replica]]) -> dict[str, list[str]]:
    """Envoy's endpoints per cluster (envoy_config.render's `endpoints`)."""
    return {REPLICABLE[part][1]: [r.address for r in reps] for part, reps in planned.items()}
