"""One part of the suite as a child process of `ztgate up`: started in its own process group, probed,
and killed with everything it started.

Each part runs in a session (and process group) of its own, so stopping it reaches whatever it
started: vLLM's EngineCore, the redaction service's analysis workers, multiprocessing's helpers.
Each also dies with `up` (PR_SET_PDEATHSIG), so a killed `up` leaves no part holding its ports.
"""

from __future__ import annotations

import asyncio
import os
import signal
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ztgate.common.lifetime import group_members, parent_death_preexec
from ztgate.common.ports import bind_error, listener_owned_by
from ztgate.common.process import ais_serving
from ztgate.common.settings import ClientTlsSettings

# Seconds that `kill` waits for the rest of a process group to be gone after its leader.
GROUP_EXIT_WAIT_S = 5.0
# How much of a part's log a failed start shows: at most this many lines of its last bytes.
LOG_TAIL_LINES = 20
LOG_TAIL_BYTES = 16 * 1024


class StartError(Exception):
    """A part failed to start, or to become healthy in time."""


@dataclass(frozen=True)
class Listen:
    """An address a part listens on, and the setting that says so (named in refusals)."""

    # The key path in ztgate.yaml, e.g. "gateway.listen".
    setting: str
    address: str
    # Said after the setting in refusals: how the address follows from it (a replica's).
    note: str = ""

    @property
    def env_var(self) -> str:
        """The environment variable that overrides the setting."""
        return "ZTGATE_" + self.setting.upper().replace(".", "__")

    def refusal(self, error: OSError) -> str:
        """A message that says what is wrong with the address and which setting to change."""
        if error.errno == 98:  # EADDRINUSE
            why = "is already in use: another `ztgate up`, or another program, listens there"
        else:
            why = f"cannot be listened on: {error.strerror or error}"
        return (f"{self.address} ({self.setting}{self.note}) {why}. Stop it, or set {self.setting} "
                f"({self.env_var}) to a free address")


def describe_exit(returncode: int) -> str:
    """'exited with code 1' or 'was killed by SIGKILL'."""
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


@dataclass(eq=False)
class Child:
    # The part's name, also its identity in the suite's certificates.
    name: str
    argv: list[str]
    # host:port whose gRPC health is checked (None: use `ready_url`).
    health_address: str | None = None
    health_service: str = ""
    ready_url: str | None = None
    # Every address it listens on: checked free before it starts, and its own while it runs.
    listens: tuple[Listen, ...] = ()
    # Nothing can be served without it (redaction, Envoy): `up` stops if it is given up on (every
    # replica of it, when it runs as several).
    essential: bool = False
    # Its environment (None: `up`'s own).
    env: dict[str, str] | None = None
    # The operator's client certificate for health checks of a suite with mTLS.
    tls: ClientTlsSettings | None = None
    process: asyncio.subprocess.Process | None = field(default=None, repr=False)
    # The part this process is a replica of (`ztgate up --replicas`); its name when it runs once.
    group: str = ""
    # Where its standard output and error go (appended to across restarts); None: `up`'s own
    # terminal (`ztgate up --verbose`).
    log_path: Path | None = None

    def __post_init__(self) -> None:
        self.group = self.group or self.name

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def start(self) -> None:
        """Starts the process (a fresh one after a failure); StartError when one of its
        addresses is taken, before anything runs."""
        for listen in self.listens:
            if (error := bind_error(listen.address)) is not None:
                raise StartError(f"{self.name}: {listen.refusal(error)}")
        if self.log_path is None:
            self.process = await asyncio.create_subprocess_exec(
                *self.argv, env=self.env, start_new_session=True,
                preexec_fn=parent_death_preexec(signal.SIGKILL))
            return
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as out:  # the child keeps its own copy of the descriptor
            self.process = await asyncio.create_subprocess_exec(
                *self.argv, env=self.env, start_new_session=True, stdin=asyncio.subprocess.DEVNULL,
                stdout=out, stderr=asyncio.subprocess.STDOUT,
                preexec_fn=parent_death_preexec(signal.SIGKILL))

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        """The last lines of its log file ("" without one): said when it fails to start."""
        if self.log_path is None:
            return ""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - LOG_TAIL_BYTES))
                text = log.read().decode(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    async def wait(self) -> int:
        """Waits for the process to exit; its return code."""
        assert self.process is not None, "wait() before start()"
        return await self.process.wait()

    async def probe(self, timeout_s: float = 1.0) -> bool:
        """One health check of whatever answers at the part's address: gRPC health SERVING for
        its service, or HTTP 200 from its ready URL (Envoy). `ztgate status` uses it as is."""
        if self.ready_url:
            url = self.ready_url

            def get() -> bool:
                try:
                    with urllib.request.urlopen(url, timeout=timeout_s) as resp:  # noqa: S310 - loopback admin
                        return resp.status == 200
                except OSError:
                    return False
            return await asyncio.to_thread(get)
        assert self.health_address is not None, f"{self.name} has no health address"
        return await ais_serving(self.health_address, self.health_service, self.tls, timeout_s)

    def owns_its_addresses(self) -> bool:
        """True when the sockets listening on each of its addresses are its own process's (and
        where /proc cannot tell, when the process is alive)."""
        if not self.running:
            return False
        assert self.process is not None
        return all(listener_owned_by(self.process.pid, listen.address) is not False
                   for listen in self.listens)

    async def healthy(self, timeout_s: float = 1.0) -> bool:
        """Alive, answering SERVING, and the answer came from its own listener: a health check of
        the address alone would vouch for any other process serving there."""
        return self.running and await self.probe(timeout_s) and self.owns_its_addresses()

    async def kill(self) -> None:
        """SIGKILL to its whole process group (a frozen process too), then waits until the group
        is gone, so that nothing it started outlives it or holds its ports into a restart."""
        if self.process is None:
            return
        pgid = self.process.pid
        if self.process.returncode is None:
            _signal_group(pgid, signal.SIGKILL)
            await self.process.wait()
        # Once the leader is reaped its id stays the group's while any member lives (Linux does not
        # hand out an id still in use as a group's), so this reaches only what is left of the part.
        deadline = asyncio.get_running_loop().time() + GROUP_EXIT_WAIT_S
        while group_members(pgid) and asyncio.get_running_loop().time() < deadline:
            _signal_group(pgid, signal.SIGKILL)
            await asyncio.sleep(0.05)

    async def stop(self, grace_s: float) -> None:
        """SIGTERM (a service drains its calls and stops what it started), then, after `grace_s`
        or once it has exited, SIGKILL to whatever is left of its group."""
        if self.process is None:
            return
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.send_signal(signal.SIGCONT)  # a frozen part gets to handle it too
            try:
                async with asyncio.timeout(grace_s):
                    await self.process.wait()
            except TimeoutError:
                pass
        await self.kill()


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # nothing left in it (PermissionError: a zombie-only group on some systems)
