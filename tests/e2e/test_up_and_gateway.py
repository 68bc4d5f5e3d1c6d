"""`ztgate up` as a user runs it: the suite behind a real Envoy, used through the CLI, then stopped."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from grpc_health.v1 import health_pb2, health_pb2_grpc

from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.common.settings import ClientTlsSettings
from ztgate.common.tls import client_credentials
from ztgate.config import ZtgateConfig
from ztgate.serve import render_envoy
from ztgate.gateway.envoy_process import envoy_argv
from ztgate.gen.redaction.v1 import redaction_pb2 as pb
from ztgate.gen.redaction.v1 import redaction_pb2_grpc
from tests.e2e.up_suite import ENV_KEYS, plumbing_suite
from tests.procs import Child, free_port, spawn
from tests.suite_pki import mesh_env


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Child, dict[str, str]]]:
    yield from plumbing_suite(tmp_path_factory.mktemp("up"))


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ztgate.cli", *args], capture_output=True,
                          text=True, timeout=180, env={**os.environ, **env})


def test_up_prints_the_endpoints(suite) -> None:
    child, env = suite
    log = child.log()
    assert env["ZTGATE_GATEWAY__LISTEN"] in log and env["ZTGATE_GATEWAY__ADMIN"] in log
    assert "bearer tokens          off" in log  # says so when calls are not authenticated
    assert f"issued the suite's certificates in {env['ZTGATE_MESH__PKI_DIR']}" in log
    assert f"generated the redaction keys in {env['ZTGATE_REDACTION__KEYS_FILE']}" in log
    assert "inside the suite       mTLS" in log


def _echo_health(address: str, creds: grpc.ChannelCredentials | None) -> None:
    channel = grpc.secure_channel(address, creds) if creds else grpc.insecure_channel(address)
    with channel:
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)


def test_services_take_calls_only_over_mtls_from_the_parts_that_call_them(suite) -> None:
    _, env = suite
    suite_pki = pki.Pki(Path(env["ZTGATE_MESH__PKI_DIR"]))

    def as_part(name: str | None) -> grpc.ChannelCredentials:
        return client_credentials(ClientTlsSettings(
            ca=suite_pki.ca, cert=suite_pki.cert(name) if name else None,
            key=suite_pki.key(name) if name else None))

    redaction = env["ZTGATE_REDACTION__SERVER__LISTEN"]
    _echo_health(redaction, as_part(pki.OPERATOR))  # what `ztgate status` does
    for creds in (None, as_part(None)):  # plaintext; TLS without a client certificate
        with pytest.raises(grpc.RpcError) as info:
            _echo_health(redaction, creds)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    # A part of the suite with no business there: the inference service calling redaction.
    with pytest.raises(grpc.RpcError) as info:
        _echo_health(redaction, as_part(pki.INFERENCE_PRIMARY))
    assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as info:
        _echo_health(env["ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN"], None)
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE


def test_redact_cli_goes_through_envoy_and_prints_findings(suite) -> None:
    _, env = suite
    result = _cli(env, "redact", "--address", env["ZTGATE_GATEWAY__LISTEN"],
                  "Mail jane.doe@example.com with key AKIAZ7Q3XH2LMN4PQ5RS")
    assert result.returncode == 0, result.stderr
    assert "jane.doe@example.com" not in result.stdout
    assert "AKIAZ7Q3XH2LMN4PQ5RS" not in result.stdout
    assert "EMAIL_ADDRESS" in result.stdout and "AWS_ACCESS_KEY_ID" in result.stdout


def test_redact_cli_calls_the_service_itself_with_the_operators_certificate(suite) -> None:
    _, env = suite
    result = _cli(env, "redact", "--address", env["ZTGATE_REDACTION__SERVER__LISTEN"],
                  "Mail jane.doe@example.com")
    assert result.returncode == 0, result.stderr
    assert "jane.doe@example.com" not in result.stdout and "EMAIL_ADDRESS" in result.stdout


def test_envoy_health_checks_the_redaction_cluster_over_grpc(suite) -> None:
    _, env = suite
    with urllib.request.urlopen(f"http://{env['ZTGATE_GATEWAY__ADMIN']}/clusters") as resp:
        clusters = resp.read().decode()
    host = env["ZTGATE_REDACTION__SERVER__LISTEN"]
    assert f"redaction::{host}::health_flags::healthy" in clusters
    with urllib.request.urlopen(f"http://{env['ZTGATE_GATEWAY__ADMIN']}/stats?filter=health_check") as resp:
        stats = resp.read().decode()
    assert "cluster.redaction.health_check.success" in stats


def test_status_reports_every_part_serving(suite) -> None:
    _, env = suite
    result = _cli(env, "status")
    assert result.returncode == 0, result.stdout + result.stderr
    states = dict(line.split()[:2] for line in result.stdout.splitlines() if line.strip())
    assert states == {part: "SERVING" for part in ("telemetry", "redaction", "inference-primary",
                                                   "inference-fallback", "openai-adapter", "envoy")}


@pytest.mark.parametrize("temperature", ["0", "0.7"])
def test_generate_through_the_gateway_answers_with_stats(suite, temperature: str) -> None:
    # A sampled call is served by the speculative primary too: vLLM loads our fix for its CPU build's
    # speculative sampling (ztgate/inference/vllm_compat/cpu_fixes.py) from this project's entry point.
    served_by = "primary"
    _, env = suite
    result = _cli(env, "generate", "--address", env["ZTGATE_GATEWAY__LISTEN"], "--max-tokens", "8",
                  "--temperature", temperature, "Say hello to jane.doe@example.com")
    assert result.returncode == 0, result.stderr
    assert f"served by {served_by}" in result.stdout
    assert "tokens:" in result.stdout and "ttft" in result.stdout


def test_services_export_rpc_metrics_to_the_suites_collector(suite) -> None:
    _, env = suite
    _cli(env, "redact", "--address", env["ZTGATE_GATEWAY__LISTEN"], "hello bob@example.com")
    deadline = time.monotonic() + 30
    while True:
        with urllib.request.urlopen(f"http://{env['ZTGATE_TELEMETRY__METRICS__LISTEN']}/metrics") as resp:
            body = resp.read().decode()
        if 'rpc_method="Redact"' in body:
            break
        assert time.monotonic() < deadline, "no rpc.server.duration for Redact reached /metrics"
        time.sleep(1)
    assert "rpc_server_duration_seconds_bucket" in body


def _tmux(socket: str, *args: str) -> str:
    """tmux on a server of the test's own (its socket name), never the user's."""
    result = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=30,
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _count(screen: str, label: str, field: int = 0) -> int:
    """The number after `label` on the screen (field 1: the door's "(total)" after its rate)."""
    for line in screen.splitlines():
        if label in line:
            return int(line.split(label)[1].split()[field].strip("()").replace(",", ""))
    return 0


def test_top_shows_the_running_suite_with_real_figures_in_a_terminal(suite, tmp_path: Path) -> None:
    """`ztgate top` in a real terminal (a tmux pane, 200x50), read back with capture-pane while
    calls go through the gateway: every part SERVING, the calls per door, the primary's first
    token against the 1,200 ms line, the split Envoy takes from the collector, the findings."""
    _, env = suite
    script = tmp_path / "top.sh"
    exports = {**env, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    script.write_text("".join(f"export {k}='{v}'\n" for k, v in exports.items())
                      + f"exec {sys.executable} -m ztgate.cli top\n")
    socket = f"ztgate-top-{os.getpid()}"
    _tmux(socket, "new-session", "-d", "-s", "top", "-x", "200", "-y", "50", f"bash {script}")
    try:
        deadline = time.monotonic() + 90
        while "FIRST TOKEN" not in (screen := _tmux(socket, "capture-pane", "-p", "-t", "top")):
            assert time.monotonic() < deadline, f"top drew nothing:\n{screen}"
            time.sleep(0.5)
        # Its window starts now: the calls below are its "last minute".
        for _ in range(3):  # calls while top watches (each a scrubbed prompt and a first token)
            result = _cli(env, "generate", "--address", env["ZTGATE_GATEWAY__LISTEN"],
                          "--max-tokens", "4", "Say hello to jane.doe@example.com")
            assert result.returncode == 0, result.stderr
        deadline = time.monotonic() + 90
        while True:  # until the three calls have been exported and counted (every 2 s)
            screen = _tmux(socket, "capture-pane", "-p", "-t", "top")
            primary = [line.split() for line in screen.splitlines()
                       if line.strip().startswith("primary ") and "ms" in line]
            # The served split is its own series, exported on its own clock: waited for too (CI once read
            # the screen between the first-token figures and it, "served (last min): -").
            if (primary and _count(screen, "EMAIL_ADDRESS") >= 3 and _count(screen, "inference gRPC", 1) >= 3
                    and "served (last min): -" not in screen):
                break
            assert time.monotonic() < deadline, f"top never showed the calls:\n{screen}"
            time.sleep(1)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=30, check=False)
    for part in ("telemetry", "redaction", "inference-primary", "inference-fallback", "envoy"):
        assert f"{part} SERVING" in screen, screen
    # The primary's first-token P50 and P99 of these calls, in ms, judged against the line.
    [row] = primary
    p50, p99 = float(row[1].replace(",", "")), float(row[3].replace(",", ""))
    assert 0 < p50 <= p99 and row[5] in ("ok", "OVER"), row
    assert "line 1,200 ms" in screen
    assert "ztgate.inference.primary_percent=100" in screen and "SLO     primary" in screen
    [served] = [line for line in screen.splitlines() if line.startswith("SPLIT")]
    assert "served (last min): primary 100%" in served, served


def test_envoy_takes_the_slo_split_from_the_collector_by_rtds_over_mtls(suite) -> None:
    """Under `up` as in compose and Kubernetes, the controller's split reaches Envoy by RTDS, on
    the mesh's mTLS (Envoy presents its certificate to the collector)."""
    _, env = suite
    deadline = time.monotonic() + 30
    while True:
        with urllib.request.urlopen(f"http://{env['ZTGATE_GATEWAY__ADMIN']}/runtime?format=json") as resp:
            runtime = json.loads(resp.read())
        entry = runtime["entries"].get("ztgate.inference.primary_percent")
        if entry is not None:
            break
        assert time.monotonic() < deadline, f"no SLO runtime in Envoy: {runtime}"
        time.sleep(0.5)
    assert runtime["layers"][-1] == "ztgate_slo" and entry["final_value"] == "100"
    assert entry["layer_values"][-1] == "100"  # from the RTDS layer, not the console's
    with urllib.request.urlopen(f"http://{env['ZTGATE_TELEMETRY__METRICS__LISTEN']}/metrics") as resp:
        body = resp.read().decode()
    assert "ztgate_slo_rtds_subscribers 1.0" in body and "ztgate_slo_rtds_rejected_total 0.0" in body


def test_ctrl_c_stops_everything(suite) -> None:
    child, env = suite
    assert child.stop(signal.SIGINT) == 0
    for key in ENV_KEYS:
        host, port = env[key].rsplit(":", 1)
        with pytest.raises(OSError):
            socket.create_connection((host, int(port)), timeout=1).close()


def test_gateway_fails_closed_when_redaction_is_down(tmp_path: Path) -> None:
    env = {"ZTGATE_GATEWAY__LISTEN": f"127.0.0.1:{free_port()}",
           "ZTGATE_GATEWAY__ADMIN": f"127.0.0.1:{free_port()}",
           "ZTGATE_REDACTION__SERVER__LISTEN": f"127.0.0.1:{free_port()}",  # nothing listens
           **mesh_env()}
    config = load_settings(ZtgateConfig, None, environ=env)
    bootstrap = tmp_path / "envoy.yaml"
    bootstrap.write_text(render_envoy(config))
    envoy = spawn("envoy", envoy_argv(bootstrap), tmp_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://{env['ZTGATE_GATEWAY__ADMIN']}/ready", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(envoy.log())
                time.sleep(0.2)
        with grpc.insecure_channel(env["ZTGATE_GATEWAY__LISTEN"]) as channel:
            with pytest.raises(grpc.RpcError) as info:
                redaction_pb2_grpc.RedactionStub(channel).Redact(pb.RedactRequest(text="a@b.co"),
                                                                 timeout=10)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        envoy.stop()
