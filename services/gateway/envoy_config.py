"""Renders Envoy's bootstrap from envoy/envoy.yaml with the configured addresses."""

from __future__ import annotations

from pathlib import Path

import jinja2
import yaml

from services.common.server import split_host_port
from services.config import ZtgateConfig

TEMPLATE = Path(__file__).resolve().parents[2] / "envoy" / "envoy.yaml"


def _address(value: str) -> dict[str, object]:
    host, port = split_host_port(value)
    return {"host": host, "port": port}


def render(config: ZtgateConfig) -> str:
    """Returns the bootstrap YAML that `ztgate up` runs Envoy with."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=False)
    template = env.from_string(TEMPLATE.read_text(encoding="utf-8"))
    text = template.render(
        admin=_address(config.gateway.admin),
        listener=_address(config.gateway.listen),
        redaction=_address(config.redaction.server.listen),
        redaction_timeout_s=config.gateway.redaction_timeout_s,
        health_interval_s=config.gateway.health_interval_s,
    )
    yaml.safe_load(text)  # a template error surfaces here, not as an Envoy start failure
    return text
