"""`ztgate up`'s quiet terminal: each part writes to a log file of its own, and a part that fails to
start is reported with the end of that file. Real (small) processes, no fakes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ztgate.cli import build_parser
from ztgate.supervisor.launcher import send_logs_to_files
from ztgate.supervisor.child import Child, StartError
from ztgate.config import SupervisorSettings
from ztgate.supervisor.supervisor import Supervisor

QUICK = SupervisorSettings(check_interval_s=0.05, check_timeout_s=0.2, start_timeout_s=20.0, stop_grace_s=1.0)


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


async def test_a_part_writes_to_its_own_log_file_not_the_terminal(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    child = Child("talker", _python("import sys; print('to stdout'); print('to stderr', file=sys.stderr)"),
                  log_path=tmp_path / "logs" / "talker.log")
    await child.start()
    assert await child.wait() == 0
    await child.start()  # a restart appends
    assert await child.wait() == 0
    out, err = capfd.readouterr()
    assert "to stdout" not in out + err and "to stderr" not in out + err
    text = (tmp_path / "logs" / "talker.log").read_text()
    assert text.count("to stdout") == 2 and text.count("to stderr") == 2


async def test_a_part_that_fails_to_start_is_reported_with_the_end_of_its_log(tmp_path: Path) -> None:
    lines = "; ".join(f"print('line {i}')" for i in range(40))
    child = Child("crasher", _python(f"{lines}; raise SystemExit(3)"), health_address="127.0.0.1:9",
                  health_service="x", log_path=tmp_path / "crasher.log")
    with pytest.raises(StartError) as failed:
        await Supervisor([child], QUICK)._start(child)
    message = str(failed.value)
    assert message.startswith("crasher exited with code 3 during start")
    assert str(tmp_path / "crasher.log") in message
    assert "line 39" in message and "line 10" not in message  # the end, not all of it


async def test_without_a_log_file_the_output_is_the_terminals(capfd: pytest.CaptureFixture[str]) -> None:
    child = Child("verbose", _python("print('on the terminal')"))
    await child.start()
    assert await child.wait() == 0
    assert "on the terminal" in capfd.readouterr().out


def test_up_names_one_log_file_per_part_and_takes_verbose(tmp_path: Path) -> None:
    children = [Child("redaction#1", []), Child("redaction#2", []), Child("envoy", [])]
    folder = send_logs_to_files(children)
    try:
        assert [c.log_path for c in children] == [folder / "redaction#1.log", folder / "redaction#2.log",
                                                  folder / "envoy.log"]
    finally:
        folder.rmdir()
    assert build_parser().parse_args(["up", "--verbose"]).verbose
    assert not build_parser().parse_args(["up"]).verbose
