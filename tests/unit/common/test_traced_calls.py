"""Which gRPC calls get a server span: a service's own methods, not health checks or reflection."""

from __future__ import annotations

from collections import namedtuple

import pytest

from ztgate.common.telemetry import traced_call

Details = namedtuple("Details", ["method", "invocation_metadata"])


@pytest.mark.parametrize("method, traced", [
    ("/envoy.service.ext_proc.v3.ExternalProcessor/Process", True),
    ("/ztgate.inference.v1.Inference/Generate", True),
    ("/ztgate.redaction.v1.Redaction/Redact", True),
    ("/grpc.health.v1.Health/Check", False),
    ("/grpc.health.v1.Health/Watch", False),
    ("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", False),
    ("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", False),
])
def test_health_checks_and_reflection_are_not_traced(method: str, traced: bool) -> None:
    assert traced_call()(Details(method, ())) is traced
