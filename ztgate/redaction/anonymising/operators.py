"""Presidio operators for each policy action, configured once and applied span by span.

Each action (pseudonymize, surrogate, mask, redact, hash, encrypt) maps to a presidio-anonymizer
`Operator` and its config. The hot path calls the operator instances directly on spans overlaps.py
made disjoint, not through `AnonymizerEngine` (docs/adr/0010-operators-without-anonymizer-engine.md);
`build_engine()` gives the engine path a test compares with. `encrypt` is AES-256-GCM with an HKDF key,
not Presidio's unauthenticated AES-CBC. The actions' table and the cipher's details:
docs/architecture.md ("Module notes").
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import os
from collections.abc import Iterable
from typing import Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import InvalidParamError, OperatorConfig
from presidio_anonymizer.operators import Mask, Operator, OperatorType, Replace

from ztgate.common.config import ConfigError
from ztgate.common.tenants import DEFAULT_TENANT
from ztgate.redaction.policies import Action, Policy, ResolvedRule
from ztgate.redaction.anonymising.surrogates import SURROGATE_OPERATOR, Surrogate
from ztgate.redaction.types import ALL_ENTITY_TYPES

PSEUDONYMIZE_OPERATOR = "ztgate_pseudonymize"
KEYED_HASH_OPERATOR = "ztgate_keyed_hash"
MASK_OPERATOR = "ztgate_mask"
ENCRYPT_OPERATOR = "ztgate_encrypt"
# Smallest HMAC key accepted, in bytes.
MIN_HASH_KEY_BYTES = 16
# Smallest `encrypt` key accepted, in bytes (the AES-256 key is derived from it).
MIN_ENCRYPT_KEY_BYTES = 16
# Starts every `encrypt` replacement: the format's version, so that a later one can be told apart.
ENCRYPTED_PREFIX = "enc:v2:"
# Values sealed before the tenant became their associated data; refused by name, never opened.
_UNBOUND_PREFIX = "enc:v1:"
NONCE_BYTES = 12
TAG_BYTES = 16
# HKDF's `info`: binds the derived key to this use and format version.
_ENCRYPT_KDF_INFO = b"ztgate redaction encrypt v1"
# Hex digits of the HMAC kept in a hash replacement (48 bits: collisions are unlikely within a prompt).
DEFAULT_HASH_HEX_CHARS = 12


class PlaceholderAllocator(Protocol):
    """Hands out the session's placeholder for a value (the vault's transaction implements it)."""

    def placeholder_for(self, entity_type: str, original: str) -> str: ...


class Pseudonymize(Operator):
    """Numbered placeholder, the same one for the same value within a session (params: allocator)."""

    ALLOCATOR = "allocator"

    def operate(self, text: str = None, params: dict = None) -> str:
        return params[self.ALLOCATOR].placeholder_for(params["entity_type"], text)

    def validate(self, params: dict = None) -> None:
        if not callable(getattr(params.get(self.ALLOCATOR), "placeholder_for", None)):
            raise InvalidParamError(f"{PSEUDONYMIZE_OPERATOR} needs an '{self.ALLOCATOR}' "
                                    f"with placeholder_for()")

    def operator_name(self) -> str:
        return PSEUDONYMIZE_OPERATOR

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize


class KeyedHash(Operator):
    """`<ENTITY_TYPE:hex>`: HMAC-SHA256 of the UTF-8 value under a configured key, truncated.

    Stable for a given key (the same value always gives the same tag, across sessions and tenants), yet
    without the key nobody can test guesses against it, unlike Presidio's salted `hash`.
    """

    KEY = "key"
    HEX_CHARS = "hex_chars"

    def operate(self, text: str = None, params: dict = None) -> str:
        digest = hmac.new(params[self.KEY], text.encode("utf-8"), hashlib.sha256).hexdigest()
        return f"<{params['entity_type']}:{digest[:params[self.HEX_CHARS]]}>"

    def validate(self, params: dict = None) -> None:
        key = params.get(self.KEY)
        if not isinstance(key, bytes) or len(key) < MIN_HASH_KEY_BYTES:
            raise InvalidParamError(f"{KEYED_HASH_OPERATOR}: '{self.KEY}' must be at least "
                                    f"{MIN_HASH_KEY_BYTES} bytes")
        hex_chars = params.get(self.HEX_CHARS)
        if not isinstance(hex_chars, int) or not 8 <= hex_chars <= 64:
            raise InvalidParamError(f"{KEYED_HASH_OPERATOR}: '{self.HEX_CHARS}' must be from 8 to 64")

    def operator_name(self) -> str:
        return KEYED_HASH_OPERATOR

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize


class TailMask(Mask):
    """Presidio's mask over the whole value but its last `keep_last` code points.

    A value no longer than `keep_last` is masked whole, so a short value is never shown in full.
    """

    KEEP_LAST = "keep_last"

    def operate(self, text: str = None, params: dict = None) -> str:
        keep = params[self.KEEP_LAST]
        to_mask = len(text) - keep if len(text) > keep else len(text)
        return super().operate(text, {self.MASKING_CHAR: params[self.MASKING_CHAR],
                                      self.CHARS_TO_MASK: to_mask, self.FROM_END: False})

    def validate(self, params: dict = None) -> None:
        keep = params.get(self.KEEP_LAST)
        if not isinstance(keep, int) or keep < 0:
            raise InvalidParamError(f"{MASK_OPERATOR}: '{self.KEEP_LAST}' must be an integer >= 0")
        super().validate({self.MASKING_CHAR: params.get(self.MASKING_CHAR), self.CHARS_TO_MASK: 0,
                          self.FROM_END: False})

    def operator_name(self) -> str:
        return MASK_OPERATOR


class DecryptError(ValueError):
    """A value that is not an `encrypt` replacement made under this key, or one altered since."""


@functools.lru_cache(maxsize=8)
def _aead(key: bytes) -> AESGCM:
    """AES-256-GCM under the key HKDF-SHA256 derives from `key` (derived once per key)."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_ENCRYPT_KDF_INFO).derive(key)
    return AESGCM(derived)


def _tenant_binding(tenant: str | None) -> bytes:
    """AES-GCM associated data: a value sealed for one tenant does not open for another."""
    return b"ztgate-tenant:" + (tenant or DEFAULT_TENANT).encode("utf-8")


class AeadEncrypt(Operator):
    """`enc:v2:` + base64(nonce || ciphertext || tag): AES-256-GCM, a fresh random nonce per value,
    the tenant as associated data."""

    KEY = "key"
    TENANT = "tenant"

    def operate(self, text: str = None, params: dict = None) -> str:
        nonce = os.urandom(NONCE_BYTES)
        binding = _tenant_binding(params.get(self.TENANT))
        sealed = _aead(params[self.KEY]).encrypt(nonce, text.encode("utf-8"), binding)
        return ENCRYPTED_PREFIX + base64.b64encode(nonce + sealed).decode("ascii")

    def validate(self, params: dict = None) -> None:
        key = params.get(self.KEY)
        if not isinstance(key, bytes) or len(key) < MIN_ENCRYPT_KEY_BYTES:
            raise InvalidParamError(f"{ENCRYPT_OPERATOR}: '{self.KEY}' must be at least "
                                    f"{MIN_ENCRYPT_KEY_BYTES} bytes")

    def operator_name(self) -> str:
        return ENCRYPT_OPERATOR

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize


def open_sealed(key: bytes, value: str, tenant: str | None = None) -> str:
    """Undoes `AeadEncrypt`; DecryptError if `value` is not one of its outputs under `key` for
    `tenant` (None: `default`), intact."""
    if value.startswith(_UNBOUND_PREFIX):
        raise DecryptError(f"{_UNBOUND_PREFIX!r} values were sealed before values were bound to their "
                           f"tenant and are not opened; encrypt the original again")
    if not value.startswith(ENCRYPTED_PREFIX):
        raise DecryptError(f"not an encrypt replacement (they start with {ENCRYPTED_PREFIX!r})")
    try:
        raw = base64.b64decode(value[len(ENCRYPTED_PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        raise DecryptError("an encrypt replacement is base64 after its prefix; this is not") from None
    if len(raw) < NONCE_BYTES + TAG_BYTES:
        raise DecryptError("encrypt replacement too short: truncated")
    try:
        plain = _aead(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], _tenant_binding(tenant))
    except InvalidTag:
        raise DecryptError("encrypt replacement failed authentication: altered, truncated, "
                           "encrypted under another key, or for another tenant") from None
    return plain.decode("utf-8")


CUSTOM_OPERATORS: tuple[type[Operator], ...] = (Pseudonymize, KeyedHash, TailMask, AeadEncrypt, Surrogate)


def build_engine() -> AnonymizerEngine:
    """A Presidio AnonymizerEngine with ztgate's operators registered (reference path; see module doc)."""
    engine = AnonymizerEngine()
    for operator_cls in CUSTOM_OPERATORS:
        engine.add_anonymizer(operator_cls)
    return engine


def _as_bytes(key: bytes | str | None) -> bytes | None:
    return key.encode("utf-8") if isinstance(key, str) else key


class Operators:
    """The operator set of one server: keys checked once, operator instances built once, no shared state.

    `hash_key` (>= 16 bytes) enables `hash`; `encrypt_key` (>= 16 bytes) enables `encrypt`.
    Both come from the service configuration (ztgate/redaction/anonymising/keys.py), never from a policy file.
    """

    def __init__(self, *, hash_key: bytes | str | None = None, encrypt_key: bytes | str | None = None,
                 hash_hex_chars: int = DEFAULT_HASH_HEX_CHARS) -> None:
        self._hash_key = _as_bytes(hash_key)
        self._encrypt_key = _as_bytes(encrypt_key)
        self._hash_hex_chars = hash_hex_chars
        self._by_name: dict[str, Operator] = {
            PSEUDONYMIZE_OPERATOR: Pseudonymize(), KEYED_HASH_OPERATOR: KeyedHash(),
            MASK_OPERATOR: TailMask(), "replace": Replace(), ENCRYPT_OPERATOR: AeadEncrypt(),
            SURROGATE_OPERATOR: Surrogate(),
        }
        try:
            if self._hash_key is not None:
                self._by_name[KEYED_HASH_OPERATOR].validate(self._hash_params())
            if self._encrypt_key is not None:
                self._by_name[ENCRYPT_OPERATOR].validate({AeadEncrypt.KEY: self._encrypt_key})
        except InvalidParamError as exc:
            raise ConfigError(f"redaction operator keys: {exc}") from None
        self._configs: dict[ResolvedRule, OperatorConfig] = {}

    def _hash_params(self) -> dict:
        return {KeyedHash.KEY: self._hash_key, KeyedHash.HEX_CHARS: self._hash_hex_chars}

    def missing_keys(self, actions: Iterable[Action]) -> list[str]:
        """Names of the keys that `actions` need and this operator set lacks."""
        actions = set(actions)
        missing = []
        if Action.HASH in actions and self._hash_key is None:
            missing.append("hash_key")
        if Action.ENCRYPT in actions and self._encrypt_key is None:
            missing.append("encrypt_key")
        return missing

    def check(self, policies: Iterable[Policy]) -> None:
        """Start-up check: every policy's actions are usable; ConfigError naming policy and key if not."""
        for policy in policies:
            missing = self.missing_keys(policy.actions())
            if missing:
                raise ConfigError(f"policy '{policy.name}' uses hash/encrypt but no {', '.join(missing)} "
                                  f"is configured for the redaction service")

    def config_for(self, rule: ResolvedRule) -> OperatorConfig:
        """The OperatorConfig for a replacing rule (not block/allow); cached, params are static."""
        config = self._configs.get(rule)
        if config is None:
            config = self._build_config(rule)
            self._configs[rule] = config
        return config

    def _build_config(self, rule: ResolvedRule) -> OperatorConfig:
        missing = self.missing_keys([rule.action])
        if missing:
            raise ConfigError(f"action '{rule.action.value}' needs {missing[0]}, which is not configured")
        match rule.action:
            case Action.PSEUDONYMIZE:
                return OperatorConfig(PSEUDONYMIZE_OPERATOR)
            case Action.SURROGATE:
                return OperatorConfig(SURROGATE_OPERATOR)
            case Action.MASK:
                return OperatorConfig(MASK_OPERATOR, {TailMask.MASKING_CHAR: rule.mask_char,
                                                      TailMask.KEEP_LAST: rule.mask_keep_last})
            case Action.REDACT:
                return OperatorConfig("replace")
            case Action.HASH:
                return OperatorConfig(KEYED_HASH_OPERATOR, self._hash_params())
            case Action.ENCRYPT:
                return OperatorConfig(ENCRYPT_OPERATOR, {AeadEncrypt.KEY: self._encrypt_key})
        raise ValueError(f"action '{rule.action.value}' replaces nothing")

    def replace(self, entity_type: str, value: str, rule: ResolvedRule,
                allocator: PlaceholderAllocator | None = None, *, tenant: str | None = None,
                context: str = "") -> str:
        """The replacement of one detected `value` under `rule` (pseudonymize and surrogate need an
        allocator, a surrogate avoids what is in `context`; encrypt binds the value to `tenant`, None
        meaning `default`)."""
        config = self.config_for(rule)
        params = dict(config.params)
        params["entity_type"] = entity_type
        if config.operator_name == ENCRYPT_OPERATOR:
            params[AeadEncrypt.TENANT] = tenant
        if config.operator_name in (PSEUDONYMIZE_OPERATOR, SURROGATE_OPERATOR):
            if allocator is None:
                raise ValueError(f"{rule.action.value} needs a placeholder allocator")
            params[Pseudonymize.ALLOCATOR] = allocator
            params[Surrogate.CONTEXT] = context
        return self._by_name[config.operator_name].operate(text=value, params=params)

    def operator_configs(self, policy: Policy, allocator: PlaceholderAllocator | None = None
                         ) -> dict[str, OperatorConfig]:
        """Per entity type, the OperatorConfig for `AnonymizerEngine.anonymize` (replacing actions only)."""
        configs: dict[str, OperatorConfig] = {}
        for entity_type in sorted(ALL_ENTITY_TYPES):
            rule = policy.rule_for(entity_type)
            if rule.action in (Action.BLOCK, Action.ALLOW):
                continue
            config = self.config_for(rule)
            params = dict(config.params)
            if config.operator_name in (PSEUDONYMIZE_OPERATOR, SURROGATE_OPERATOR):
                params[Pseudonymize.ALLOCATOR] = allocator
            configs[entity_type] = OperatorConfig(config.operator_name, params)
        return configs

    def decrypt(self, ciphertext: str, tenant: str | None = None) -> str:
        """Undoes `encrypt` with the configured key for `tenant`; DecryptError if the value was
        altered or sealed for another tenant."""
        if self._encrypt_key is None:
            raise ConfigError("no encrypt_key is configured")
        return open_sealed(self._encrypt_key, ciphertext, tenant)
