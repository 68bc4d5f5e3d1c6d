"""docs/ztgate.schema.json is generated from the settings classes (ztgate/config_schema.py): it does
not drift from them, carries each key's comment as its description, and does not depend on the machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ztgate import config_schema

ROOT = Path(__file__).resolve().parents[3]


def test_the_committed_schema_is_the_generated_one() -> None:
    committed = (ROOT / config_schema.SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == config_schema.render(), "run `python -m ztgate.config_schema` and commit it"


def test_a_keys_comment_is_its_description() -> None:
    definitions = config_schema.schema()["$defs"]
    supervisor = definitions["SupervisorSettings"]["properties"]
    assert "restarted" in supervisor["max_restarts"]["description"]
    assert definitions["ServerSettings"]["properties"]["listen"]["description"].startswith("host:port")


def test_the_schema_does_not_depend_on_the_machine(tmp_path: Path) -> None:
    env = {**os.environ, "ZTGATE_CACHE_DIR": str(tmp_path / "elsewhere"), "HOME": str(tmp_path)}
    out = tmp_path / "schema.json"
    subprocess.run([sys.executable, "-m", "ztgate.config_schema", str(out)], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=120)
    assert json.loads(out.read_text()) == json.loads((ROOT / config_schema.SCHEMA_FILE).read_text())
