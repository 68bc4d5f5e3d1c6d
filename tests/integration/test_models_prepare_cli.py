"""`ztgate models prepare` readies everything a first start needs: the model and the redaction caches."""

from __future__ import annotations

import shutil
import subprocess
import sys

from ztgate.redaction.detection.names import gazetteer
from ztgate.redaction.detection.patterns.scanner import PatternScanner, default_cache_dir


def test_prepare_builds_the_redaction_caches_in_the_configured_directory(tmp_path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    # Seed the compiled database from the default cache (compiling it again takes a minute here);
    # the place table is left to be built.
    shutil.copy(PatternScanner(cache_dir=default_cache_dir()).cache_path, cache)
    config = tmp_path / "ztgate.yaml"
    config.write_text(f"redaction:\n  cache_dir: {cache}\n")
    done = subprocess.run([sys.executable, "-m", "ztgate.cli", "models", "prepare", "--config", str(config)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert any(line.startswith("model ready: ") for line in lines)
    assert f"redaction patterns ready: {cache}/" in done.stdout and "(cache)" in done.stdout
    places = [line for line in lines if line.startswith("redaction place table ready: ")]
    assert places and places[0].endswith(".marshal") and str(cache) in places[0]
    assert gazetteer.places_cache_path(cache).exists()
