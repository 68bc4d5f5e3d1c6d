"""The composition: each part's inputs, built from the whole configuration.

No part reads the whole configuration (a test checks that none imports `ztgate.config`): each
server takes a small typed inputs object, declared in its own package, holding its own section and
the few values it needs from the others. This module, in the composition layer with the CLI and
`ztgate up`, is the one place that knows which values those are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ztgate.common.pki import TELEMETRY, part_tls
from ztgate.config import ZtgateConfig
from ztgate.gateway.envoy_config import EnvoyInputs, render

if TYPE_CHECKING:  # the servers import their engines: loaded only by the part that runs
    from ztgate.gateway.processor.ext_proc import ProcessorInputs
    from ztgate.inference.server import InferenceInputs
    from ztgate.openai_adapter.server import AdapterInputs
    from ztgate.redaction.server import RedactionInputs
    from ztgate.telemetry.server import TelemetryInputs


def own_models(config: ZtgateConfig) -> frozenset[str]:
    """The models ztgate serves itself on the HTTP door: the adapter's, when it runs."""
    return frozenset([config.inference.model_name]) if config.openai_adapter_active else frozenset()


def processor_inputs(config: ZtgateConfig) -> ProcessorInputs:
    """The gateway's ext_proc processor: the gateway's budgets and limits, the door's models."""
    from ztgate.gateway.processor.ext_proc import ProcessorInputs

    own = own_models(config)
    return ProcessorInputs(
        limits=config.limits, first_token=config.gateway.first_token_budget,
        scrub_timeouts=config.gateway.scrub_timeouts, door=config.gateway.door_options(),
        own_models=own, door_models=own | {m for u in config.gateway.openai_upstreams for m in u.models})


def redaction_inputs(config: ZtgateConfig) -> RedactionInputs:
    """The redaction part, which also serves the gateway's ext_proc processor on its service."""
    from ztgate.gateway.processor.ext_proc import hosted
    from ztgate.redaction.server import RedactionInputs

    return RedactionInputs(redaction=config.redaction, otel=config.otel,
                           gateway_listen=config.gateway.listen, hosted=[hosted(processor_inputs(config))])


def inference_inputs(config: ZtgateConfig, instance: str) -> InferenceInputs:
    from ztgate.inference.server import InferenceInputs

    return InferenceInputs(inference=config.inference, instance=instance, otel=config.otel,
                           limits=config.limits, first_token=config.gateway.first_token_budget)


def telemetry_inputs(config: ZtgateConfig) -> TelemetryInputs:
    from ztgate.telemetry.server import TelemetryInputs

    slo = config.telemetry.slo
    probe_tls = part_tls(config.mesh, TELEMETRY) if slo.enabled and slo.probe_interval_s > 0 else None
    return TelemetryInputs(telemetry=config.telemetry, otel=config.otel,
                           primary=config.inference.primary.server.listen, probe_tls=probe_tls)


def adapter_inputs(config: ZtgateConfig) -> AdapterInputs:
    from ztgate.openai_adapter.server import AdapterInputs

    return AdapterInputs(adapter=config.openai_adapter, gateway_listen=config.gateway.listen,
                         gateway_tls=config.openai_adapter_gateway_tls,
                         model_name=config.inference.model_name, limits=config.limits,
                         timeout_s=config.gateway.inference.timeout_s,
                         extra_fields=frozenset(config.gateway.openai_extra_fields))


def envoy_inputs(config: ZtgateConfig) -> EnvoyInputs:
    adapter = ((config.openai_adapter.listen, config.inference.model_name)
               if config.openai_adapter_active else None)
    return EnvoyInputs(
        gateway=config.gateway, otel=config.otel, mesh=config.mesh, limits=config.limits,
        upstreams={"redaction": config.redaction.server.listen,
                   "inference_primary": config.inference.primary.server.listen,
                   "inference_fallback": config.inference.fallback.server.listen},
        collector=config.telemetry.server.listen, rtds_layer=config.telemetry.slo.rtds_layer,
        runtime_key=config.telemetry.slo.runtime_key, adapter=adapter)


def render_envoy(config: ZtgateConfig, endpoints: Mapping[str, Sequence[str]] | None = None) -> str:
    """The Envoy bootstrap that `ztgate up` runs (ztgate/gateway/envoy_config.py's `render`)."""
    return render(envoy_inputs(config), endpoints)


async def run_part(config: ZtgateConfig, service: str, instance: str = "primary") -> bool:
    """`ztgate serve SERVICE`: runs the part until it stops; False for a part this build lacks."""
    if service == "redaction":
        from ztgate.redaction.server import run as run_redaction

        await run_redaction(redaction_inputs(config))
    elif service == "inference":
        from ztgate.inference.server import run as run_inference

        await run_inference(inference_inputs(config, instance))
    elif service == "telemetry":
        from ztgate.telemetry.server import run as run_telemetry

        await run_telemetry(telemetry_inputs(config))
    elif service == "openai-adapter":
        from ztgate.openai_adapter.server import run as run_adapter

        await run_adapter(adapter_inputs(config))
    else:
        return False
    return True
