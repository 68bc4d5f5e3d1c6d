"""`ztgate bench telemetry` as the CLI parses it: flags left unset (None, so that each bench takes its own
default) reach the load generator as the bench's defaults. `ztgate bench` with no part once passed
`--clients None` through and the load generator failed comparing a count with None. The load itself is
replaced by a RECORDER (it notes what it was asked for and stops the run): only the arguments are tested."""

from __future__ import annotations

import pytest

from ztgate_bench import telemetry_bench
from ztgate.cli import build_parser


class _Stop(Exception):
    pass


@pytest.mark.parametrize(("argv", "exports", "inflight"), [
    (["bench", "telemetry", "--calls", "0"], telemetry_bench.DEFAULT_EXPORTS, telemetry_bench.DEFAULT_INFLIGHT),
    (["bench", "telemetry", "--calls", "0", "--samples", "9", "--clients", "3"], 9, 3),
])
def test_unset_flags_reach_the_load_as_the_benchs_defaults(monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                                           exports: int, inflight: int) -> None:
    asked: dict[str, object] = {}

    def recorder(**kwargs: object) -> None:
        asked.update(kwargs)
        raise _Stop

    monkeypatch.setattr(telemetry_bench, "run_bench", recorder)
    with pytest.raises(_Stop):
        telemetry_bench.main(build_parser().parse_args(argv))
    assert (asked["exports"], asked["inflight"]) == (exports, inflight)
    assert isinstance(asked["seed"], int)
