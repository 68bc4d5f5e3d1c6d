"""Presidio operators for each policy action, configured once and applied span by span.

Each action maps to a presidio-anonymizer `Operator` and an `OperatorConfig`:

| action       | operator                        | replacement                                          |
|--------------|---------------------------------|------------------------------------------------------|
| pseudonymize | `Pseudonymize` (ours)           | `<PERSON_1>` from the session allocator (vault)      |
| mask         | `TailMask` (ours, on `Mask`)    | `************1111`: every code point but a kept tail |
| redact       | Presidio `replace`, no value    | `<ENTITY_TYPE>` (not "": keeps the LLM's context)    |
| hash         | `KeyedHash` (ours)              | `<ENTITY_TYPE:3fa9c2d1e0b4>`: HMAC-SHA256, truncated |
| encrypt      | Presidio `encrypt`              | AES-CBC ciphertext, base64; `Operators.decrypt` undoes it |

`AnonymizerEngine.anonymize` costs ~100-200 us for five spans (it copies results, re-resolves conflicts,
builds an operator instance per span and formats debug strings), most of the layer's budget. So the hot
path (`Operators.replace`, driven by anonymize.py) calls the same operator instances directly on spans
that `overlaps.py` already made disjoint (~1 us a span). `build_engine()` registers our operators on a
real `AnonymizerEngine` and `Operators.operator_configs` gives the matching configs; a test checks that
both paths give the same text. Never feed the engine unresolved spans: its own conflict rules differ
from overlaps.py, and pass `merge_entities_with_spaces=False`, or it joins "Ada Lovelace" spans itself.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Protocol

from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import InvalidParamError, OperatorConfig
from presidio_anonymizer.operators import Decrypt, Encrypt, Mask, Operator, OperatorType, Replace

from services.common.config import ConfigError
from services.redaction.policies import Action, Policy, ResolvedRule
from services.redaction.types import ALL_ENTITY_TYPES

PSEUDONYMIZE_OPERATOR = "ztgate_pseudonymize"
KEYED_HASH_OPERATOR = "ztgate_keyed_hash"
MASK_OPERATOR = "ztgate_mask"
# Smallest HMAC key accepted, in bytes.
MIN_HASH_KEY_BYTES = 16
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


CUSTOM_OPERATORS: tuple[type[Operator], ...] = (Pseudonymize, KeyedHash, TailMask)


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

    `hash_key` (>= 16 bytes) enables `hash`; `encrypt_key` (16, 24 or 32 bytes) enables `encrypt`.
    Both come from the service configuration, never from a policy file.
    """

    def __init__(self, *, hash_key: bytes | str | None = None, encrypt_key: bytes | str | None = None,
                 hash_hex_chars: int = DEFAULT_HASH_HEX_CHARS) -> None:
        self._hash_key = _as_bytes(hash_key)
        self._encrypt_key = _as_bytes(encrypt_key)
        self._hash_hex_chars = hash_hex_chars
        self._by_name: dict[str, Operator] = {
            PSEUDONYMIZE_OPERATOR: Pseudonymize(), KEYED_HASH_OPERATOR: KeyedHash(),
            MASK_OPERATOR: TailMask(), "replace": Replace(), "encrypt": Encrypt(),
        }
        try:
            if self._hash_key is not None:
                self._by_name[KEYED_HASH_OPERATOR].validate(self._hash_params())
            if self._encrypt_key is not None:
                self._by_name["encrypt"].validate({Encrypt.KEY: self._encrypt_key})
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
            case Action.MASK:
                return OperatorConfig(MASK_OPERATOR, {TailMask.MASKING_CHAR: rule.mask_char,
                                                      TailMask.KEEP_LAST: rule.mask_keep_last})
            case Action.REDACT:
                return OperatorConfig("replace")
            case Action.HASH:
                return OperatorConfig(KEYED_HASH_OPERATOR, self._hash_params())
            case Action.ENCRYPT:
                return OperatorConfig("encrypt", {Encrypt.KEY: self._encrypt_key})
        raise ValueError(f"action '{rule.action.value}' replaces nothing")

    def replace(self, entity_type: str, value: str, rule: ResolvedRule,
                allocator: PlaceholderAllocator | None = None) -> str:
        """The replacement of one detected `value` under `rule` (pseudonymize needs an allocator)."""
        config = self.config_for(rule)
        params = dict(config.params)
        params["entity_type"] = entity_type
        if config.operator_name == PSEUDONYMIZE_OPERATOR:
            if allocator is None:
                raise ValueError("pseudonymize needs a placeholder allocator")
            params[Pseudonymize.ALLOCATOR] = allocator
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
            if config.operator_name == PSEUDONYMIZE_OPERATOR:
                params[Pseudonymize.ALLOCATOR] = allocator
            configs[entity_type] = OperatorConfig(config.operator_name, params)
        return configs

    def decrypt(self, ciphertext: str) -> str:
        """Undoes `encrypt` (Presidio's decrypt operator with the configured key)."""
        if self._encrypt_key is None:
            raise ConfigError("no encrypt_key is configured")
        return Decrypt().operate(text=ciphertext, params={Decrypt.KEY: self._encrypt_key})
