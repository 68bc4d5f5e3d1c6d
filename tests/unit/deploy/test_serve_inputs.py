"""ztgate/serve.py builds each part's inputs from the whole configuration: the values each server
needs from other sections arrive, and nothing else decides them."""

from __future__ import annotations

from pathlib import Path

import yaml

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import render
from ztgate.serve import (adapter_inputs, envoy_inputs, inference_inputs, processor_inputs, redaction_inputs, render_envoy,
                          telemetry_inputs)


def _config(**env: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={"ZTGATE_MESH__MTLS": "false", **env})


def test_redaction_gets_the_gateways_budgets_and_every_door_model() -> None:
    upstreams = "[{name: vllm, base_url: 'http://127.0.0.1:8000/v1', models: [other-model]}]"
    config = _config(ZTGATE_GATEWAY__OPENAI_UPSTREAMS=upstreams, ZTGATE_GATEWAY__LISTEN="127.0.0.1:7080",
                     ZTGATE_GATEWAY__INFERENCE__PER_TRY_TIMEOUT_S="2.5")
    redaction = redaction_inputs(config)
    assert redaction.redaction is config.redaction and redaction.gateway_listen == "127.0.0.1:7080"
    assert [h.service_name for h in redaction.hosted] == ["envoy.service.ext_proc.v3.ExternalProcessor"]
    inputs = processor_inputs(config)
    assert inputs.limits is config.limits
    assert inputs.first_token.base_s == 2.5 and inputs.scrub_timeouts == config.gateway.scrub_timeouts
    assert inputs.own_models == {config.inference.model_name}
    assert inputs.door_models == {config.inference.model_name, "other-model"}
    off = processor_inputs(_config(ZTGATE_OPENAI_ADAPTER__ENABLED="false"))
    assert off.own_models == frozenset() and off.door_models == frozenset()


def test_inference_telemetry_and_the_adapter_get_what_they_read_elsewhere() -> None:
    config = _config(ZTGATE_INFERENCE__PRIMARY__SERVER__LISTEN="127.0.0.1:6052",
                     ZTGATE_GATEWAY__INFERENCE__TIMEOUT_S="200",
                     ZTGATE_GATEWAY__OPENAI_EXTRA_FIELDS="[chat_template_kwargs]")
    inference = inference_inputs(config, "fallback")
    assert inference.instance == "fallback" and inference.first_token == config.gateway.first_token_budget
    telemetry = telemetry_inputs(config)
    assert telemetry.primary == "127.0.0.1:6052" and telemetry.probe_tls is None  # mesh.mtls off
    adapter = adapter_inputs(config)
    assert (adapter.timeout_s, adapter.extra_fields) == (200.0, frozenset({"chat_template_kwargs"}))
    assert adapter.model_name == config.inference.model_name and adapter.gateway_tls is None


def test_envoy_is_rendered_from_its_inputs_alone() -> None:
    config = _config(ZTGATE_REDACTION__SERVER__LISTEN="127.0.0.1:6051",
                     ZTGATE_TELEMETRY__SLO__RTDS_LAYER="my_layer")
    inputs = envoy_inputs(config)
    assert inputs.upstreams["redaction"] == "127.0.0.1:6051" and inputs.rtds_layer == "my_layer"
    assert render(inputs) == render_envoy(config)
    assert "my_layer" in render(inputs)
    assert yaml.safe_load(render(inputs))


def test_the_servers_take_their_inputs_not_the_configuration() -> None:
    import inspect

    from ztgate.inference import server as inference
    from ztgate.openai_adapter import server as adapter
    from ztgate.redaction import server as redaction
    from ztgate.telemetry import server as telemetry

    for module, inputs in ((redaction, "RedactionInputs"), (inference, "InferenceInputs"),
                           (telemetry, "TelemetryInputs"), (adapter, "AdapterInputs")):
        assert list(inspect.signature(module.run).parameters) == ["inputs"], Path(module.__file__).name
        assert inspect.signature(module.run).parameters["inputs"].annotation == inputs
