"""The telemetry collector: OTLP receivers, aggregation, Prometheus exposition, SLO controller."""
