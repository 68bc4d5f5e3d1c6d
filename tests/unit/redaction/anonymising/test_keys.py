"""The keys of `hash` and `encrypt`: the install's own (generated once, private), unless configured;
the published development values never face a network."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

import pytest

from ztgate.common.config import load_settings
from ztgate.config import ZtgateConfig
from ztgate.redaction.anonymising.keys import KEY_BYTES, PUBLISHED_KEYS, KeysError, resolve
from ztgate.redaction.anonymising.operators import Operators


def _config(tmp_path: Path, **env: str) -> ZtgateConfig:
    return load_settings(ZtgateConfig, None, environ={
        "ZTGATE_REDACTION__KEYS_FILE": str(tmp_path / "keys" / "redaction.json"), **env})


def test_the_first_start_generates_private_keys_and_later_ones_reuse_them(tmp_path: Path) -> None:
    config = _config(tmp_path)
    path = tmp_path / "keys" / "redaction.json"
    keys, line = resolve(config)
    assert line == f"generated the redaction keys in {path}"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(keys.hash_key) == len(keys.encrypt_key) == KEY_BYTES and keys.hash_key != keys.encrypt_key
    again, line = resolve(config)
    assert again == keys and line == f"using the redaction keys in {path}"
    other_install, _ = resolve(_config(tmp_path / "other"))
    assert other_install.hash_key != keys.hash_key and other_install.encrypt_key != keys.encrypt_key
    # Never shown: not in the line, not in a repr.
    assert keys.hash_key.hex() not in repr(keys) and "hash_key=" not in repr(keys)
    Operators(hash_key=keys.hash_key, encrypt_key=keys.encrypt_key)  # usable as they are


def test_starts_that_race_end_with_one_set_of_keys(tmp_path: Path) -> None:
    config = _config(tmp_path)
    seen, errors = [], []

    def start() -> None:
        try:
            seen.append(resolve(config)[0])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors and len(seen) == 8 and all(keys == seen[0] for keys in seen)
    assert [p.name for p in (tmp_path / "keys").iterdir()] == ["redaction.json"]  # no temporary left


def test_configured_keys_win_and_only_a_missing_one_comes_from_the_file(tmp_path: Path) -> None:
    both, line = resolve(_config(tmp_path, ZTGATE_REDACTION__HASH_KEY="my own hash key 123",
                                 ZTGATE_REDACTION__ENCRYPT_KEY="my own encrypt key 12"))
    assert both.hash_key == b"my own hash key 123" and both.encrypt_key == b"my own encrypt key 12"
    assert line == "the redaction keys from the configuration"
    assert not (tmp_path / "keys").exists()  # nothing generated that is not used
    one, _ = resolve(_config(tmp_path, ZTGATE_REDACTION__HASH_KEY="my own hash key 123"))
    stored = json.loads((tmp_path / "keys" / "redaction.json").read_text())
    assert one.hash_key == b"my own hash key 123" and len(one.encrypt_key) == KEY_BYTES
    assert stored["hash_key"] != "my own hash key 123"


@pytest.mark.parametrize("setting", ["HASH_KEY", "ENCRYPT_KEY"])
@pytest.mark.parametrize("published", sorted(PUBLISHED_KEYS))
@pytest.mark.parametrize("exposed", ["ZTGATE_REDACTION__SERVER__LISTEN", "ZTGATE_GATEWAY__LISTEN"])
def test_a_published_key_is_refused_when_a_listener_is_off_loopback(tmp_path, setting, published, exposed) -> None:
    env = {f"ZTGATE_REDACTION__{setting}": published}
    resolve(_config(tmp_path, **env))  # on loopback (development) it still runs
    with pytest.raises(KeysError, match=rf"redaction.{setting.lower()} is a development value published.*"
                                        r"0.0.0.0:\d+ is off loopback: unset it"):
        resolve(_config(tmp_path, **env, **{exposed: "0.0.0.0:7000"}))


@pytest.mark.parametrize("content, words", [
    ("not json", "is not a keys file ztgate wrote"),
    ('{"version": 1, "hash_key": "AAAA"}', "is not a keys file ztgate wrote"),
    ('{"version": 1, "hash_key": "AAAA", "encrypt_key": "AAAA"}', "shorter than 32 bytes"),
    ('{"version": 2, "hash_key": "", "encrypt_key": ""}', "is not a keys file ztgate wrote"),
])
def test_a_damaged_keys_file_stops_start_up_with_what_to_do(tmp_path, content, words) -> None:
    path = tmp_path / "keys" / "redaction.json"
    path.parent.mkdir()
    path.write_text(content)
    path.chmod(0o600)
    with pytest.raises(KeysError, match=words):
        resolve(_config(tmp_path))


def test_a_keys_file_others_can_read_is_refused(tmp_path: Path) -> None:
    config = _config(tmp_path)
    resolve(config)
    path = tmp_path / "keys" / "redaction.json"
    path.chmod(0o644)
    with pytest.raises(KeysError, match=f"readable by other users .*chmod 600 {path}"):
        resolve(config)
