"""deploy/k8s, checked offline: every object against the Kubernetes 1.37 schemas (strict: an
unknown field is an error), kustomize's rendering of both overlays (`kubectl kustomize`, where
kubectl is installed; the base files and patches alone where it is not), and what the manifests
must say: a Deployment and Service per part named as its certificate, headless where Envoy must see
every replica, an HPA for redaction, PDBs, NetworkPolicies that let only Envoy reach redaction and
inference and only the suite reach the collector, each pod holding only its own Secret."""

from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.deploy import PARTS, kubernetes_secrets, write_parts
from ztgate.supervisor.launcher import prepare

ROOT = Path(__file__).resolve().parents[3]
K8S = ROOT / "deploy" / "k8s"
VERSION = "1.37"
PORTS = {"redaction": 50051, "inference-primary": 50052, "inference-fallback": 50053, "telemetry": 4317}
KUBECTL = shutil.which("kubectl")


def _base() -> list[dict]:
    kustomization = yaml.safe_load((K8S / "base" / "kustomization.yaml").read_text())
    return [doc for name in kustomization["resources"]
            for doc in yaml.safe_load_all((K8S / "base" / name).read_text())]


def _rendered(overlay: str) -> list[dict]:
    """The overlay as kustomize renders it; without kubectl, the base (the patches are checked
    against it in test_overlays_patch_what_the_base_declares)."""
    if not KUBECTL:
        return _base()
    out = subprocess.run([KUBECTL, "kustomize", str(K8S / "overlays" / overlay)], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    return list(yaml.safe_load_all(out))


def _by(docs: list[dict], kind: str) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


@pytest.mark.parametrize("overlay", ["cpu", "gpu"])
def test_every_object_follows_the_kubernetes_schemas(overlay: str) -> None:
    for doc in [*_base(), *_rendered(overlay)]:
        kubernetes_validate.validate(doc, VERSION, strict=True)


def test_the_schema_check_catches_a_mistake() -> None:
    deployment = _by(_base(), "Deployment")["redaction"]
    broken = {**deployment, "spec": {**deployment["spec"], "replica": 2}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSION, strict=True)


def test_a_deployment_and_service_per_part_named_as_its_certificate() -> None:
    docs = _base()
    deployments, services = _by(docs, "Deployment"), _by(docs, "Service")
    assert set(deployments) == set(PARTS)
    for part, port in PORTS.items():
        service = services[part]
        assert service["spec"]["ports"][0]["port"] == port
        # Envoy's STRICT_DNS clusters see every replica behind a headless Service.
        assert (service["spec"].get("clusterIP") == "None") == (part != pki.TELEMETRY), part
    gateway = services["gateway"]
    assert gateway["spec"]["selector"] == {"app.kubernetes.io/name": "envoy"}
    assert gateway["spec"]["ports"][0]["port"] == 8080


def test_redaction_autoscales_and_disruptions_keep_a_replica() -> None:
    docs = _base()
    [hpa] = _by(docs, "HorizontalPodAutoscaler").values()
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "redaction"}
    assert hpa["spec"]["minReplicas"] >= 2
    budgets = _by(docs, "PodDisruptionBudget")
    assert {"redaction", "inference-primary", "inference-fallback", "envoy"} <= set(budgets)
    assert budgets["redaction"]["spec"]["minAvailable"] == 1


def test_only_envoy_reaches_redaction_and_inference_and_only_the_suite_the_collector() -> None:
    policies = _by(_base(), "NetworkPolicy")
    assert policies["default-deny-ingress"]["spec"] == {"podSelector": {}, "policyTypes": ["Ingress"]}
    envoy = [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "envoy"}}}]
    allowed: dict[str, list] = {}
    for policy in policies.values():
        target = policy["spec"]["podSelector"].get("matchLabels", {}).get("app.kubernetes.io/name")
        for rule in policy["spec"].get("ingress", []):
            allowed.setdefault(target, []).append(rule)
    telemetry = [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "telemetry"}}}]
    for part in ("redaction", "inference-primary", "inference-fallback"):
        [rule] = allowed[part]
        # The collector's SLO probes reach the primary too; redaction pods each other (session
        # replication).
        redaction = [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "redaction"}}}]
        callers = {"inference-primary": envoy + telemetry, "redaction": envoy + redaction}.get(part, envoy)
        assert rule["from"] == callers and rule["ports"] == [{"protocol": "TCP", "port": PORTS[part]}]
    [rule] = allowed["telemetry"]
    assert rule["from"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/part-of": "ztgate"}}}]
    # Anyone may reach Envoy's ingress (TLS and a token still required), and nothing else of it.
    [rule] = allowed["envoy"]
    assert "from" not in rule and rule["ports"] == [{"protocol": "TCP", "port": 8080}]


def test_pods_are_unprivileged_with_resource_requests_and_grpc_health_probes() -> None:
    for name, deployment in _by(_base(), "Deployment").items():
        spec = deployment["spec"]["template"]["spec"]
        assert spec["automountServiceAccountToken"] is False
        for container in [*spec["containers"], *spec.get("initContainers", [])]:
            context = container["securityContext"]
            assert context["runAsNonRoot"] and context["runAsUser"] != 0
            assert context["allowPrivilegeEscalation"] is False and context["capabilities"] == {"drop": ["ALL"]}
            assert container["resources"]["requests"]["cpu"] and container["resources"]["requests"]["memory"]
        [main] = spec["containers"]
        if name != "envoy":
            assert main["readinessProbe"]["exec"]["command"] == ["ztgate", "status", "--part", name, "--identity", name]


def test_each_pod_holds_only_its_own_secret_at_the_paths_its_settings_name(tmp_path: Path) -> None:
    """The Secrets as `ztgate prepare --kubernetes-secrets` makes them, validated; each Deployment
    mounts its own, and its settings load and name files under its mounts."""
    environ = {"ZTGATE_MESH__PKI_DIR": str(tmp_path / "pki"),
               "ZTGATE_REDACTION__SERVER__LISTEN": "redaction:50051",
               "ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN": "inference-primary:50052",
               "ZTGATE_INFERENCE__FALLBACK__SERVER__LISTEN": "inference-fallback:50053",
               "ZTGATE_TELEMETRY__SERVER__LISTEN": "telemetry:4317",
               "ZTGATE_GATEWAY__LISTEN": "0.0.0.0:8080",
               "ZTGATE_GATEWAY__TLS__CERT": str(tmp_path / "pki" / "gateway.pem"),
               "ZTGATE_GATEWAY__TLS__KEY": str(tmp_path / "pki" / "gateway.key"),
               "ZTGATE_GATEWAY__AUTH__JWKS_PATH": str(tmp_path / "pki" / "tokens" / "jwks.json"),
               "ZTGATE_GATEWAY__AUTH__KEYGEN_IF_MISSING": "true",
               "ZTGATE_REDACTION__KEYS_FILE": str(tmp_path / "pki" / "keys" / "redaction.json")}
    config = load_settings(ZtgateConfig, None, environ=environ)
    prepare(config)
    write_parts(config, tmp_path / "parts", mount=Path("/pki/parts"))
    secrets = {s["metadata"]["name"]: s for s in kubernetes_secrets(tmp_path / "parts", "ztgate")}
    for secret in secrets.values():
        kubernetes_validate.validate(secret, VERSION, strict=True)
    # Envoy's bootstrap names its files where its Secret is mounted in the pod.
    bootstrap = base64.b64decode(secrets["ztgate-envoy"]["data"]["envoy.yaml"]).decode()
    assert '"/pki/parts/envoy/envoy.pem"' in bootstrap and str(tmp_path) not in bootstrap
    for name, deployment in _by(_base(), "Deployment").items():
        spec = deployment["spec"]["template"]["spec"]
        mounted = {v["name"]: v["secret"] for v in spec["volumes"] if "secret" in v}
        assert {s["secretName"] for s in mounted.values()} == {f"ztgate-{name}"}
        for secret in mounted.values():
            assert {i["key"] for i in secret["items"]} <= set(secrets[f"ztgate-{name}"]["data"])
        if name == "envoy":
            continue
        [main] = spec["containers"]
        env = {e["name"]: e["value"] for e in main["env"]}
        loaded = load_settings(ZtgateConfig, None, environ=env)
        assert loaded.mesh.pki_dir == Path(f"/pki/parts/{name}")
        mounts = [Path(m["mountPath"]) for m in main["volumeMounts"]]
        for value in env.values():
            if value.startswith("/"):
                assert any(Path(value).is_relative_to(m) for m in mounts), value


def test_the_gpu_overlay_requests_a_gpu_and_sets_the_gpu_settings() -> None:
    patch = yaml.safe_load((K8S / "overlays" / "gpu" / "inference-gpu.yaml").read_text())
    [container] = patch["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in container["env"]}
    primary = load_settings(ZtgateConfig, None, environ=env).inference.primary
    assert primary.accelerator.device == "cuda"
    assert primary.speculative.draft_token_cost == 0  # a GPU verifies every draft
    for side in ("requests", "limits"):
        assert container["resources"][side]["nvidia.com/gpu"] == "1"
    if KUBECTL:
        rendered = _by(_rendered("gpu"), "Deployment")["inference-primary"]
        [main] = rendered["spec"]["template"]["spec"]["containers"]
        assert main["image"] == "ztgate:0.1.0-gpu" and main["resources"]["limits"]["nvidia.com/gpu"] == "1"
        names = [e["name"] for e in main["env"]]
        assert "ZTGATE_INFERENCE__PRIMARY__SERVER__TLS__CERT" in names  # the base's env is kept
        assert "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__DEVICE" in names


def test_overlays_patch_what_the_base_declares() -> None:
    deployments = _by(_base(), "Deployment")
    for overlay in ("cpu", "gpu"):
        kustomization = yaml.safe_load((K8S / "overlays" / overlay / "kustomization.yaml").read_text())
        assert kustomization["resources"] == ["../../base"]
        for patch in kustomization["patches"]:
            doc = yaml.safe_load((K8S / "overlays" / overlay / patch["path"]).read_text())
            target = deployments[doc["metadata"]["name"]]
            base_names = {c["name"] for c in target["spec"]["template"]["spec"]["containers"]}
            assert {c["name"] for c in doc["spec"]["template"]["spec"]["containers"]} <= base_names


def test_the_cli_writes_the_secrets_file_private_and_complete(tmp_path: Path) -> None:
    """`ztgate prepare --parts --mount --kubernetes-secrets` as an operator runs it."""
    import os
    import stat
    import sys

    pki_dir = tmp_path / "pki"
    env = {**os.environ, "ZTGATE_MESH__PKI_DIR": str(pki_dir),
           "ZTGATE_REDACTION__KEYS_FILE": str(pki_dir / "keys" / "redaction.json")}
    out = tmp_path / "secrets.yaml"
    result = subprocess.run([sys.executable, "-m", "ztgate.cli", "prepare", "--parts", str(pki_dir / "parts"),
                             "--mount", "/pki/parts", "--kubernetes-secrets", str(out)],
                            capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    secrets = list(yaml.safe_load_all(out.read_text()))
    assert sorted(s["metadata"]["name"] for s in secrets) == sorted(f"ztgate-{p}" for p in PARTS)
    for secret in secrets:
        kubernetes_validate.validate(secret, VERSION, strict=True)
    # Without --parts there is nothing to pack: a clear refusal, not an empty file.
    refused = subprocess.run([sys.executable, "-m", "ztgate.cli", "prepare", "--kubernetes-secrets",
                              str(tmp_path / "other.yaml")], capture_output=True, text=True, timeout=120,
                             env=env, cwd=ROOT)
    assert refused.returncode == 2 and "--kubernetes-secrets needs --parts" in refused.stderr


def test_the_slo_controller_runs_and_probes_the_primary_by_its_service() -> None:
    """On here as under `ztgate up` (issue #31): RTDS to Envoy, probes to the primary, whose
    certificate check and network policy let the collector in."""
    deployments = _by(_base(), "Deployment")

    def env(name: str) -> dict[str, str]:
        [main] = deployments[name]["spec"]["template"]["spec"]["containers"]
        return {e["name"]: e["value"] for e in main["env"]}

    collector = load_settings(ZtgateConfig, None, environ=env("telemetry"))
    assert collector.telemetry.slo.enabled and collector.telemetry.slo.envoy_admin is None
    assert collector.inference.primary.server.listen == f"inference-primary:{PORTS['inference-primary']}"
    primary = load_settings(ZtgateConfig, None, environ=env("inference-primary"))
    assert pki.TELEMETRY in primary.inference.primary.server.tls.allowed_clients
