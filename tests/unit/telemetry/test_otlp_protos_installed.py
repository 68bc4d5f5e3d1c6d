"""The OTLP protos are opentelemetry-proto's own, not the older copies that xds-protos ships.

xds-protos installs its own `opentelemetry/proto/**/*_pb2.py` into the same folder; when it is
installed after opentelemetry-proto, the SDK exporter and the collector fail to import
(`InstrumentationScope` missing). `make install` reinstalls opentelemetry-proto last.
"""


def test_otlp_protos_have_instrumentation_scope_and_the_exporter_imports() -> None:
    try:
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import (  # noqa: F401
            OTLPMetricExporter)
        from opentelemetry.proto.common.v1.common_pb2 import InstrumentationScope  # noqa: F401
    except ImportError as exc:
        raise AssertionError(
            "opentelemetry/proto is shadowed by xds-protos' older copy; run "
            "`.venv/bin/pip install --no-deps --force-reinstall opentelemetry-proto==1.45.2` "
            f"(make install does it): {exc}") from None
