"""scripts/gpu_bench.sh, read without a GPU: every setting it exports is a real one with a value
the settings accept, and every `ztgate` command line in it parses."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from ztgate import cli
from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "gpu_bench.sh"


def _settings(text: str) -> dict[str, str]:
    """Every ZTGATE_*__* assignment, its default (${VAR:-default}) as the value."""
    found = {}
    for name, value in re.findall(r"(ZTGATE_[A-Z_]+__[A-Z_]+)=(\S+)", text):
        default = re.fullmatch(r"\$\{\w+:-([^}]*)\}", value)
        found[name] = default.group(1) if default else value.rstrip("\\")
    return found


def test_the_script_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True, timeout=30)


def test_its_settings_are_the_gpu_settings_and_load() -> None:
    env = _settings(SCRIPT.read_text())
    assert {"ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__DEVICE", "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__QUANTIZATION",
            "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__KV_CACHE_DTYPE",
            "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__TENSOR_PARALLEL_SIZE",
            "ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__GPU_MEMORY_UTILIZATION"} <= set(env)
    accelerator = load_settings(ZtgateConfig, None, environ=env).inference.primary.accelerator
    assert accelerator.device == "cuda" and accelerator.quantization == "fp8"
    assert accelerator.kv_cache_dtype == "fp8"


def test_its_bench_command_lines_parse() -> None:
    text = SCRIPT.read_text().replace("\\\n", " ")
    body = re.search(r"ztgate bench inference (.*?)\"\$@\"", text, re.S)
    assert body
    argv = shlex.split(body.group(1).replace("$CONCURRENCY", "1 4 16").replace('"$MAX_TOKENS"', "128")
                       .replace('"$REPEAT"', "3").replace("$OUT/$name", "out/x").replace('"', ""))
    for extra in (["--parity", "strict", "fast"], ["--parity", "fast"]):
        args = cli.build_parser().parse_args(["bench", "inference", *argv, *extra])
        assert args.engine == "vllm" and args.concurrency == [1, 4, 16]
