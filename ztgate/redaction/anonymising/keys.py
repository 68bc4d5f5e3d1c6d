"""The keys of the `hash` and `encrypt` actions: the install's own unless the configuration names them.

A key that the configuration sets (`redaction.hash_key`, `redaction.encrypt_key`, or their
`ZTGATE_REDACTION__*` variables) wins. Otherwise the key comes from `redaction.keys_file`, which the
first `ztgate up` (or `ztgate serve redaction`) writes with 32 random bytes per key: mode 0600 in a
0700 folder, like the suite's private keys (ztgate/common/pki.py). So no two installs share a
key, and hashes stay stable and ciphertexts decryptable across restarts. Key values are never
printed or logged, only the file's path.

The development values that earlier releases shipped as defaults are public: a service that anyone
but this machine can reach (the redaction service or the gateway off loopback) refuses them.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ztgate.common.config import ConfigError
from ztgate.common.server import is_loopback, split_host_port

if TYPE_CHECKING:  # a type only: ztgate.config imports this package's settings
    from ztgate.config import ZtgateConfig


# Published in ztgate's source as the old defaults: known to everyone, so never a secret.
PUBLISHED_KEYS = frozenset({"ztgate-dev-hash-key", "ztgate-dev-key-0"})
# Random bytes per generated key (HMAC-SHA256 and the AES-256-GCM key's HKDF input).
KEY_BYTES = 32
FORMAT_VERSION = 1
_NAMES = ("hash_key", "encrypt_key")


class KeysError(ConfigError):
    """The keys file cannot be read, written or trusted, or a published key would face a network;
    the message says what to do."""


@dataclass(frozen=True)
class OperatorKeys:
    # repr=False: a traceback or a debug print never shows a key.
    hash_key: bytes = field(repr=False)
    encrypt_key: bytes = field(repr=False)


def _generate(path: Path) -> None:
    """Writes fresh keys to `path` unless a file is already there (another process won the race)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    data = {"version": FORMAT_VERSION,
            **{name: base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode() for name in _NAMES}}
    fd, tmp = tempfile.mkstemp(prefix=".keys-", dir=path.parent)  # created 0600
    try:
        with os.fdopen(fd, "w") as handle:
            json.dump(data, handle)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)  # whole, and never over a file another start wrote meanwhile
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)


def _read(path: Path) -> OperatorKeys:
    fix = ("delete it for `ztgate up` to write new keys (what it hashed or encrypted before is then lost)")
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KeysError(f"cannot read redaction.keys_file {path}: {exc.strerror}") from None
    if stat.S_IMODE(mode) & 0o077:
        raise KeysError(f"redaction.keys_file {path} is readable by other users (mode "
                        f"{stat.S_IMODE(mode):o}): `chmod 600 {path}`")
    try:
        data = json.loads(text)
        if data.get("version") != FORMAT_VERSION:
            raise ValueError
        keys = {name: base64.b64decode(data[name], validate=True) for name in _NAMES}
    except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
        raise KeysError(f"redaction.keys_file {path} is not a keys file ztgate wrote; {fix}") from None
    if any(len(key) < KEY_BYTES for key in keys.values()):
        raise KeysError(f"redaction.keys_file {path} holds a key shorter than {KEY_BYTES} bytes; {fix}")
    return OperatorKeys(**keys)


def _exposed(config: ZtgateConfig) -> list[str]:
    """The listen settings, among the redaction service's and the gateway's, off loopback."""
    listens = {"redaction.server.listen": config.redaction.server.listen,
               "gateway.listen": config.gateway.listen}
    return [f"{name} {value}" for name, value in listens.items()
            if not is_loopback(split_host_port(value)[0])]


def resolve(config: ZtgateConfig) -> tuple[OperatorKeys, str]:
    """The keys the redaction service runs with, and a line saying where they come from (a path,
    never a value). Writes the keys file when a key is not configured and the file is absent.
    Raises KeysError."""
    settings = config.redaction
    explicit = {name: getattr(settings, name) for name in _NAMES}
    exposed = _exposed(config)
    for name, secret in explicit.items():
        if secret is not None and secret.get_secret_value() in PUBLISHED_KEYS and exposed:
            raise KeysError(
                f"redaction.{name} is a development value published in ztgate's source, and "
                f"{' and '.join(exposed)} is off loopback: unset it (each install then generates its "
                f"own in redaction.keys_file) or set a secret of your own")
    values = {name: secret.get_secret_value().encode() for name, secret in explicit.items()
              if secret is not None}
    if len(values) == len(_NAMES):
        return OperatorKeys(**values), "the redaction keys from the configuration"
    path = settings.keys_file.expanduser().resolve()
    created = not path.exists()
    if created:
        try:
            _generate(path)
        except OSError as exc:
            raise KeysError(f"cannot write redaction.keys_file {path}: {exc.strerror}") from None
    stored = _read(path)
    keys = OperatorKeys(**{name: values.get(name, getattr(stored, name)) for name in _NAMES})
    return keys, f"{'generated' if created else 'using'} the redaction keys in {path}"
