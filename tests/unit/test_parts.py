"""The one list of parts (ztgate/parts.py): every consumer reads it, and a new part is one entry.

The last test adds a part to a copy of ztgate/parts.py in a fresh interpreter and checks that the
CLI, `up`'s children, status, the PKI, replicas and deploy all know it without another edit.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ztgate import cli, deploy, parts, replicas
from ztgate.common import pki
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.gen.inference.v1 import inference_pb2
from ztgate.gen.redaction.v1 import redaction_pb2
from ztgate.gen.telemetry.v1 import telemetry_pb2
from ztgate.supervisor.launcher import LISTEN_SETTINGS, SERVED_PARTS, suite

ROOT = Path(__file__).resolve().parents[2]


def test_every_ztgate_grpc_service_is_served_by_a_part() -> None:
    declared = {s.full_name for m in (redaction_pb2, inference_pb2, telemetry_pb2)
                for s in m.DESCRIPTOR.services_by_name.values()}
    assert declared == {p.service for p in parts.PARTS if p.service} | {
        name for p in parts.PARTS for name in p.internal_services}


def test_the_cli_status_pki_replicas_and_deploy_derive_from_the_list() -> None:
    assert cli.STATUS_PARTS == parts.NAMES
    assert set(pki.IDENTITIES) == {p.identity for p in parts.PARTS if p.identity} | {
        parts.OPERATOR, parts.GATEWAY}
    assert set(deploy.PARTS) == {p.identity for p in parts.PARTS if p.identity}
    assert set(replicas.REPLICABLE) == {p.name for p in parts.PARTS if p.replicable}
    assert set(SERVED_PARTS) == set(pki.SERVERS) == {p.name for p in parts.PARTS if p.service}
    assert set(LISTEN_SETTINGS) == {s for p in parts.PARTS for s in (p.listen, *p.also_listens)}


def test_status_accepts_every_part_including_the_openai_adapter() -> None:
    for name in parts.NAMES:
        args = cli.build_parser().parse_args(["status", "--part", name])
        assert args.part == [name]
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["status", "--part", "no-such-part"])


def test_up_runs_the_active_parts_in_the_lists_order(tmp_path: Path) -> None:
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__PKI_DIR": str(tmp_path)})
    children = suite(config, None, tmp_path / "envoy.yaml")
    assert [c.name for c in children] == [p.name for p in parts.active(config)]
    by_name = {c.name: c for c in children}
    for part in parts.active(config):
        child = by_name[part.name]
        assert child.health_service == (part.service or "")
        assert child.essential == part.essential
        assert (child.ready_url is None) == (part.ready_setting is None)


def test_a_part_the_configuration_turns_off_is_not_started(tmp_path: Path) -> None:
    config = load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__PKI_DIR": str(tmp_path),
                                                        "ZTGATE_OPENAI_ADAPTER__ENABLED": "false"})
    names = [c.name for c in suite(config, None, tmp_path / "envoy.yaml")]
    assert "openai-adapter" not in names and "envoy" in names


# A part added to a copy of the list, before Envoy (a replicable gRPC server with an identity).
_EXTRA = '''    Part("extra", "redaction", "redaction.server.listen", service=REDACTION_SERVICE,
         serve=("redaction",), identity="extra", callers=("envoy", OPERATOR),
         replicable=True, cluster="extra"),
'''
_PROBE = r'''
import importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_loader("ztgate.parts", loader=None)
module = importlib.util.module_from_spec(spec)
module.__file__ = "parts_with_extra.py"
sys.modules["ztgate.parts"] = module
exec(compile(sys.stdin.read(), module.__file__, "exec"), module.__dict__)
import ztgate
ztgate.parts = module
from ztgate import cli, deploy, replicas
from ztgate.common import pki
from ztgate.config import ZtgateConfig
from ztgate.supervisor.launcher import LISTEN_SETTINGS, SERVED_PARTS, suite
config = ZtgateConfig()
print(json.dumps({
    "status": list(cli.STATUS_PARTS), "identities": list(pki.IDENTITIES), "deploy": list(deploy.PARTS),
    "replicable": list(replicas.REPLICABLE), "served": list(SERVED_PARTS),
    "children": [c.name for c in suite(config, None, Path("/nonexistent/envoy.yaml"))],
    "callers": list(SERVED_PARTS["extra"][1])}))
'''


def test_adding_a_part_is_one_entry_in_the_list() -> None:
    source = (ROOT / "ztgate" / "parts.py").read_text()
    marker = re.search(r"^    Part\(\"envoy\"", source, re.MULTILINE)
    assert marker is not None
    patched = source[:marker.start()] + _EXTRA + source[marker.start():]
    out = subprocess.run([sys.executable, "-c", _PROBE], input=patched, capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    for key in ("status", "identities", "deploy", "replicable", "served", "children"):
        assert "extra" in seen[key], key
    assert seen["children"].index("extra") < seen["children"].index("envoy")
    assert seen["callers"] == ["envoy", "operator"]


def test_no_module_spells_a_ztgate_grpc_service_name() -> None:
    pattern = re.compile(r"[\"']ztgate\.(redaction|inference|telemetry)\.v1\.[A-Z]")
    offenders = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "ztgate").rglob("*.py"))
                 if "gen" not in p.relative_to(ROOT).parts
                 and any(pattern.search(line) for line in p.read_text().splitlines()
                         if not line.lstrip().startswith("#"))]
    assert offenders == []
