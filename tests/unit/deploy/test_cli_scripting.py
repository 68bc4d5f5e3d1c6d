"""The CLI for scripts: `--version`, and `--json` on redact, generate and status."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version

import grpc
import pytest
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from ztgate import cli
from ztgate.common.config import load_settings
from ztgate.common.jsonout import message_json
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2 as ipb
from ztgate.gen.redaction.v1 import redaction_pb2 as rpb
from ztgate.supervisor.launcher import print_status
from tests.procs import free_port


def test_version_is_the_installed_distributions() -> None:
    result = subprocess.run([sys.executable, "-m", "ztgate.cli", "--version"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.strip() == f"ztgate {version('ztgate')}"


@pytest.mark.parametrize("verb", ["redact", "generate", "status"])
def test_json_is_a_flag_of_the_scripting_verbs(verb: str) -> None:
    argv = {"redact": ["redact", "x"], "generate": ["generate", "x"], "status": ["status"]}[verb]
    assert cli.build_parser().parse_args([*argv, "--json"]).json is True
    assert cli.build_parser().parse_args(argv).json is False


def test_a_redaction_is_one_json_object_with_every_field_and_no_original_value() -> None:
    response = rpb.RedactResponse(text="mail <EMAIL_1>", session_id="s1")
    response.findings.add(entity_type="EMAIL_ADDRESS", start=5, end=20, score=0.95, action="pseudonymize",
                          recognizer="hyperscan", replacement="<EMAIL_1>")
    line = message_json(response)
    assert "\n" not in line
    data = json.loads(line)
    assert data["session_id"] == "s1" and data["text"] == "mail <EMAIL_1>"
    [finding] = data["findings"]
    assert finding["start"] == 5 and finding["end"] == 20 and finding["replacement"] == "<EMAIL_1>"
    # No findings is an empty list a script can iterate, not a missing key.
    assert json.loads(message_json(rpb.RedactResponse(text="t")))["findings"] == []


def test_a_generation_keeps_its_64_bit_counters_as_numbers() -> None:
    reply = ipb.GenerateResponse(text="hi", finish_reason="stop")
    reply.speculative.draft_tokens = 12
    reply.speculative.accepted_tokens = 9
    data = json.loads(message_json(reply))
    assert data["text"] == "hi" and data["finish_reason"] == "stop"
    assert data["speculative"]["draft_tokens"] == 12 and data["speculative"]["accepted_tokens"] == 9


async def test_status_json_and_part_probe_a_real_health_server(capsys: pytest.CaptureFixture[str]) -> None:
    """A real gRPC health service (grpcio-health-checking) where the redaction part listens; the
    container form (`--part`, wildcard listen address) probes it on loopback."""
    port = free_port()
    server = grpc.aio.server()
    servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    try:
        await servicer.set("ztgate.redaction.v1.Redaction", health_pb2.HealthCheckResponse.SERVING)
        config = load_settings(ZtgateConfig, None, environ={
            "ZTGATE_MESH__MTLS": "false", "ZTGATE_REDACTION__SERVER__LISTEN": f"0.0.0.0:{port}"})
        assert await print_status(config, parts=("redaction",), as_json=True) == 0
        data = json.loads(capsys.readouterr().out)
        assert data == {"healthy": True, "parts": [
            {"part": "redaction", "healthy": True, "address": f"127.0.0.1:{port}"}]}
        await servicer.set("ztgate.redaction.v1.Redaction", health_pb2.HealthCheckResponse.NOT_SERVING)
        assert await print_status(config, parts=("redaction",), as_json=True) == 1
        assert json.loads(capsys.readouterr().out)["healthy"] is False
    finally:
        await server.stop(None)
