"""Where the hand-written public lists live."""

from __future__ import annotations

from ztgate.redaction.data_dirs import DATA_DIR

PUBLIC_DATA_DIR = DATA_DIR / "public"


def read_lines(file_name: str) -> list[str]:
    """The lines of ``data/public/<file_name>``."""
    return (PUBLIC_DATA_DIR / file_name).read_text(encoding="utf-8").splitlines()
