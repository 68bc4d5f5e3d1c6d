"""ztgate.example.yaml documents the defaults: it loads, and it says what the code does."""

from pathlib import Path

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig

EXAMPLE = Path(__file__).resolve().parents[3] / "ztgate.example.yaml"


def test_example_config_loads_and_equals_the_defaults() -> None:
    assert load_settings(ZtgateConfig, EXAMPLE, environ={}) == ZtgateConfig()
