"""`ztgate up --replicas PART=N`: the flag's refusals, where each replica listens, what each replica
is started with, and the Envoy bootstrap that balances over them (accepted by Envoy itself)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.cli import main
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import validate
from ztgate.serve import render_envoy
from ztgate.supervisor.launcher import address_problems, suite
from ztgate.replicas import REPLICABLE, ReplicaError, envoy_endpoints, parse, plan
from tests.procs import free_port
from tests.suite_pki import mesh_env


def _config(**extra: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={**mesh_env(), **extra})


@pytest.mark.parametrize("values, message", [
    (["telemetry=2"], "'telemetry' cannot run as replicas; the parts that can are redaction, "
                      "inference-primary, inference-fallback"),
    (["envoy=2"], "'envoy' cannot run as replicas"),
    (["redaction=0"], "N must be at least 1"),
    (["redaction=-3"], "N must be at least 1"),
    (["redaction=two"], "N must be a whole number from 1 to 4"),
    (["redaction=5"], "at most 4 replicas of one part (supervisor.max_replicas)"),
    (["redaction"], "write PART=N"),
    (["redaction=2", "redaction=3"], "names redaction twice"),
    (["redaction=2,redaction=1"], "names redaction twice"),
])
def test_bad_replica_values_are_refused_saying_what_to_change(values: list[str], message: str) -> None:
    with pytest.raises(ReplicaError) as refused:
        parse(values, max_replicas=4)
    assert message in str(refused.value)


def test_replica_values_repeat_or_comma_separate() -> None:
    assert parse(["redaction=2", "inference-primary=1,inference-fallback=3"], 4) == {
        "redaction": 2, "inference-primary": 1, "inference-fallback": 3}
    assert parse([], 4) == {}


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(list(REPLICABLE)), st.integers(1, 4)),
       st.integers(1, 500))
def test_every_replica_has_an_address_of_its_own_the_first_the_configured_one(
        counts: dict[str, int], stride: int) -> None:
    config = _config(ZTGATE_SUPERVISOR__REPLICA_PORT_STRIDE=str(stride))
    planned = plan(config, counts)
    addresses = [r.address for reps in planned.values() for r in reps]
    for part, reps in planned.items():
        assert len(reps) == counts.get(part, 1)
        assert reps[0].address == {"redaction": config.redaction.server.listen,
                                   "inference-primary": config.inference.primary.server.listen,
                                   "inference-fallback": config.inference.fallback.server.listen}[part]
        assert [r.name for r in reps] == ([part] if len(reps) == 1
                                          else [f"{part}#{i}" for i in range(1, len(reps) + 1)])
    # The default ports are one apart: a stride of 1 or 2 puts replicas on a neighbour's port, and
    # `up` refuses that before starting anything (below); otherwise every address is distinct.
    if stride > 2:
        assert len(set(addresses)) == len(addresses)


def test_a_replica_on_another_parts_address_is_refused_before_anything_starts(tmp_path: Path) -> None:
    config = _config(ZTGATE_SUPERVISOR__REPLICA_PORT_STRIDE="1")
    children = suite(config, None, tmp_path / "envoy.yaml", plan(config, {"redaction": 2}))
    problems = address_problems(children)
    assert any(p.startswith("127.0.0.1:50052 is set for both inference.primary.server.listen and "
                            "redaction.server.listen + 1 * supervisor.replica_port_stride, replica 2")
               or p.startswith("127.0.0.1:50052 is set for both redaction.server.listen + 1 * "
                               "supervisor.replica_port_stride, replica 2")
               for p in problems), problems


def test_a_replica_address_in_use_is_named_with_the_setting_and_the_stride(tmp_path: Path) -> None:
    base = free_port()
    config = _config(ZTGATE_REDACTION__SERVER__LISTEN=f"127.0.0.1:{base}",
                     ZTGATE_SUPERVISOR__REPLICA_PORT_STRIDE="7")
    children = [c for c in suite(config, None, tmp_path / "envoy.yaml", plan(config, {"redaction": 3}))
                if c.group == "redaction"]
    with socket.socket() as taken:
        try:
            taken.bind(("127.0.0.1", base + 14))
        except OSError:
            pytest.fail(f"port {base + 14} is not free on this machine; rerun")
        taken.listen()
        [problem] = address_problems(children)
    assert problem.startswith(f"127.0.0.1:{base + 14} (redaction.server.listen + 2 * "
                              "supervisor.replica_port_stride, replica 3) is already in use")


@pytest.mark.parametrize("env, counts, message", [
    ({"ZTGATE_REDACTION__SERVER__LISTEN": "127.0.0.1:0"}, {"redaction": 2}, "on port 0"),
    ({"ZTGATE_REDACTION__SERVER__LISTEN": "127.0.0.1:65500"}, {"redaction": 2},
     "would listen on port 65600"),
])
def test_replicas_that_could_not_be_reached_are_refused(env: dict[str, str], counts: dict[str, int],
                                                        message: str) -> None:
    with pytest.raises(ReplicaError, match=message):
        plan(_config(**env), counts)


def test_each_replica_is_a_child_of_its_own_on_its_own_address_with_the_parts_certificate(
        tmp_path: Path) -> None:
    config = _config(ZTGATE_MESH__MTLS="true")
    children = suite(config, None, tmp_path / "envoy.yaml",
                     plan(config, {"redaction": 2, "inference-fallback": 2}))
    names = [c.name for c in children]
    assert names == ["telemetry", "redaction#1", "redaction#2", "inference-primary",
                     "inference-fallback#1", "inference-fallback#2", "openai-adapter", "envoy"]
    by_name = {c.name: c for c in children}
    for name, address in [("redaction#1", "127.0.0.1:50051"), ("redaction#2", "127.0.0.1:50151"),
                          ("inference-fallback#2", "127.0.0.1:50153")]:
        child = by_name[name]
        assert child.health_address == address
        assert [listen.address for listen in child.listens] == [address]
    second = by_name["redaction#2"]
    assert second.essential and second.group == "redaction"
    assert second.env is not None
    assert second.env["ZTGATE_REDACTION__SERVER__LISTEN"] == "127.0.0.1:50151"
    # The part's identity: its certificate names the part and loopback, not a port.
    suite_pki = pki.Pki.of(config.mesh)
    assert second.env["ZTGATE_REDACTION__SERVER__TLS__CERT"] == str(suite_pki.cert(pki.REDACTION))
    assert by_name["inference-fallback#2"].env["ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN"] == \
        "127.0.0.1:50153"
    assert by_name["inference-fallback#2"].env["ZTGATE_INFERENCE__FALLBACK__SERVER__TLS__CERT"] == \
        str(suite_pki.cert(pki.INFERENCE_FALLBACK))


def test_envoy_balances_over_every_replica_and_accepts_the_bootstrap() -> None:
    config = _config()
    planned = plan(config, {"redaction": 3, "inference-primary": 2})
    text = render_envoy(config, endpoints=envoy_endpoints(planned))
    validate(text)
    clusters = {c["name"]: c for c in yaml.safe_load(text)["static_resources"]["clusters"]}

    def ports(name: str) -> list[int]:
        [group] = clusters[name]["load_assignment"]["endpoints"]
        return [e["endpoint"]["address"]["socket_address"]["port_value"] for e in group["lb_endpoints"]]

    assert ports("redaction") == ports("redaction_sessions") == [50051, 50151, 50251]
    assert ports("inference_primary") == [50052, 50152]
    assert ports("inference_fallback") == [50053]
    # Every replica is verified as the part (one certificate identity for all of them).
    tls = clusters["redaction"]["transport_socket"]["typed_config"]
    assert "redaction" in str(tls["common_tls_context"]["validation_context"])


@pytest.mark.parametrize("flag, message", [
    ("telemetry=2", "cannot run as replicas"),
    ("redaction=0", "at least 1"),
    ("redaction=99", "supervisor.max_replicas"),
])
def test_up_refuses_bad_replicas_with_exit_2_before_starting_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        flag: str, message: str) -> None:
    monkeypatch.setenv("ZTGATE_MESH__PKI_DIR", str(tmp_path / "pki"))
    assert main(["up", "--replicas", flag]) == 2
    out, err = capsys.readouterr()
    assert message in err and out == ""
    assert not (tmp_path / "pki").exists()


def test_each_redaction_replica_is_told_its_peers_the_other_replicas(tmp_path: Path) -> None:
    """Session replication (redaction.replication.peers): each replica gets every other replica's
    address, never its own; a part run once gets no peers."""
    config = _config(ZTGATE_MESH__MTLS="true")
    children = {c.name: c for c in suite(config, None, tmp_path / "envoy.yaml", plan(config, {"redaction": 3}))}
    for name, peers in [("redaction#1", ["127.0.0.1:50151", "127.0.0.1:50251"]),
                        ("redaction#2", ["127.0.0.1:50051", "127.0.0.1:50251"]),
                        ("redaction#3", ["127.0.0.1:50051", "127.0.0.1:50151"])]:
        env = children[name].env
        assert env is not None
        seen = load_settings(ZtgateConfig, None, environ=env)
        assert seen.redaction.replication.peers == peers, name
    single = {c.name: c for c in suite(config, None, tmp_path / "envoy.yaml", plan(config, {}))}
    assert load_settings(ZtgateConfig, None, environ=single["redaction"].env).redaction.replication.peers == []
