"""The CLI in a shell pipeline: a reader that stops early (`| head`) is not an error."""

from __future__ import annotations

import subprocess
import sys

# A verb whose output outgrows the pipe's buffer (like `ztgate redact` of a long text), run through
# the CLI's own entry point: the write that meets the closed pipe happens inside `main`.
DRIVER = """
import sys
from ztgate import cli
from ztgate.cli import envoy

def long_output(args):
    for i in range(200_000):
        sys.stdout.write(f"line {i}\\n")
    return 0

envoy.cmd_envoy_config = long_output  # the verb group module that registers it
sys.exit(cli.main(["envoy-config"]))
"""


def test_output_cut_short_by_the_reader_ends_quietly() -> None:
    result = subprocess.run(f"{sys.executable} -c '{DRIVER}' | head -1", shell=True,
                            capture_output=True, text=True, timeout=120)
    assert result.stdout == "line 0\n"
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
