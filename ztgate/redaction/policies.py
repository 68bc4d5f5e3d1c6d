"""Redaction policies: what to do with each entity type, loaded from YAML files and looked up per tenant.

A policy file holds one policy. Every key is declared once below, with a comment; an unknown key or an
invalid value stops loading with a message naming the file and the key. Secrets are never pseudonymised
or restorable: a policy that asks for `pseudonymize`, `encrypt` or `allow` on a secret entity type, or for a
partial mask of one, is rejected at load (we reject rather than coerce, so that what a file says is what
runs). Allow-lists apply to PII only, never to secrets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator

from ztgate.common.config import ConfigError, read_yaml
from ztgate.common.errors import InvalidArgument
from ztgate.common.settings import Strict
from ztgate.redaction.data_dirs import POLICIES_DIR
from ztgate.redaction.detection.public import PUBLIC_LISTS, PublicList
from ztgate.redaction.detection.public import load as load_public_list
from ztgate.redaction.types import ALL_ENTITY_TYPES, SECRET_ENTITY_TYPES

# The policies shipped with ztgate: `default.yaml` defines the policy named `default`, `strict.yaml` `strict`.
BUILTIN_POLICY_DIR = POLICIES_DIR
DEFAULT_POLICY_NAME = "default"
_POLICY_SUFFIXES = (".yaml", ".yml")


class Action(StrEnum):
    """What happens to a detected value."""

    PSEUDONYMIZE = "pseudonymize"  # numbered placeholder (<PERSON_1>), restorable through the vault
    SURROGATE = "surrogate"        # a stand-in of the same kind (surrogates.py), restorable like a placeholder
    MASK = "mask"                  # every code point replaced by mask_char (optionally keeping a tail)
    REDACT = "redact"              # replaced by <ENTITY_TYPE>
    HASH = "hash"                  # keyed HMAC-SHA256, truncated: <ENTITY_TYPE:3fa9c2...>
    ENCRYPT = "encrypt"            # AES-256-GCM ciphertext (authenticated), reversible with the key
    BLOCK = "block"                # the whole request is refused
    ALLOW = "allow"                # left as is


# Actions that keep no recoverable trace of a secret. Anything else on a secret type is rejected.
SECRET_SAFE_ACTIONS: frozenset[Action] = frozenset({Action.REDACT, Action.MASK, Action.HASH, Action.BLOCK})


class ChatPseudonyms(StrEnum):
    """What a `pseudonymize` rule writes on the gateway's scrub of chat and completion calls (ADR 0007)."""

    SURROGATE = "surrogate"      # a stand-in of the same kind for the CHAT_SURROGATE_TYPES, a placeholder else
    PLACEHOLDER = "placeholder"  # numbered placeholders, as the Redaction API writes them


# PII types whose `pseudonymize` becomes `surrogate` on chat (chat_pseudonyms: surrogate): a stand-in there
# helps the model (names, places, contact details, dates, network addresses) and tells it no more than a
# placeholder (type, layout and ordinal only). Card numbers, IBANs, SSNs and ID numbers keep placeholders:
# an answer gains nothing from a realistic one, and a stand-in the model copies in part ("ending in 4821")
# would reach the caller as a plausible wrong number where a placeholder shows itself. Secrets are never
# pseudonymised at all (SECRET_SAFE_ACTIONS).
CHAT_SURROGATE_TYPES: frozenset[str] = frozenset({
    "PERSON", "LOCATION", "EMAIL_ADDRESS", "PHONE_NUMBER", "DATE_OF_BIRTH", "IP_ADDRESS", "MAC_ADDRESS",
})


class UnknownPolicyError(InvalidArgument):
    """A request named a policy that is not loaded."""


class EntityRule(Strict):
    """How one entity type is handled. In YAML, a bare action (`PERSON: mask`) is short for {action: mask}."""

    # What to do with a detection of this type.
    action: Action
    # Smallest detection score acted on (inclusive); unset means the policy's default_threshold.
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    # mask only: the single character that replaces masked code points.
    mask_char: str = Field(default="*", min_length=1, max_length=1)
    # mask only: how many trailing code points stay visible (e.g. 4 for card numbers); PII types only.
    mask_keep_last: int = Field(default=0, ge=0, le=64)

    @model_validator(mode="before")
    @classmethod
    def _bare_action(cls, data: Any) -> Any:
        return {"action": data} if isinstance(data, str) else data


class AllowList(Strict):
    """Values that are never redacted (PII types only: a secret is redacted whatever these say)."""

    # Exact values, compared case-sensitively with the whole detected span.
    values: frozenset[str] = frozenset()
    # Regular expressions (Python syntax); a detected value that fully matches one is left as is.
    patterns: tuple[re.Pattern[str], ...] = ()
    # Public lists kept as public knowledge (ztgate/redaction/detection/public/: countries, regions, cities, landmarks,
    # organisations, public_figures, nationalities, historical, trade_routes, natural_features, products, eponyms,
    # facilities, product_models, organisation_places),
    # unless the text ties the value to a person (person_ties.py).
    public: tuple[str, ...] = ()

    @field_validator("public")
    @classmethod
    def _known_public_lists(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(names) - set(PUBLIC_LISTS))
        if unknown:
            raise ValueError(f"unknown public list(s) {', '.join(unknown)}; known: {', '.join(sorted(PUBLIC_LISTS))}")
        return names

    @cached_property
    def public_lists(self) -> tuple[PublicList, ...]:
        """The named public lists, loaded (once per process)."""
        return tuple(load_public_list(name) for name in self.public)

    def allows(self, value: str) -> bool:
        """True when `value` (the text of a detected span) is allow-listed."""
        if value in self.values:
            return True
        return any(pattern.fullmatch(value) for pattern in self.patterns)


@dataclass(frozen=True, slots=True)
class ResolvedRule:
    """An EntityRule with the policy defaults filled in: what the pipeline reads per detection."""

    action: Action
    threshold: float
    mask_char: str
    mask_keep_last: int


class Policy(Strict):
    """One named redaction policy."""

    # Name used in requests (`policy` field) and in tenant mappings; letters, digits, `_`, `-`, `.`.
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    # Free text for operators; never interpreted.
    description: str = ""
    # Tenants whose requests use this policy when they name none; a tenant may appear in one policy only.
    tenants: frozenset[str] = frozenset()
    # Action for PII entity types not listed under `entities`.
    default_action: Action = Action.REDACT
    # Action for secret entity types not listed under `entities`; must be one of redact, mask, hash, block.
    default_secret_action: Action = Action.REDACT
    # Threshold for entity types listed without one, and for types not listed.
    default_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    # Per entity type (names from ztgate/redaction/types.py): action, threshold, mask options.
    entities: dict[str, EntityRule] = Field(default_factory=dict)
    # Values never redacted.
    allow: AllowList = AllowList()
    # The gateway's scrub of chat and completion calls (Envoy's ext_proc: the Inference API and the
    # OpenAI-compatible door): `surrogate` writes a stand-in of the same kind instead of a numbered
    # placeholder for each CHAT_SURROGATE_TYPES type this policy pseudonymises (restored on the way back
    # alike; ADR 0007); `placeholder` keeps placeholders. The Redaction API always does what `entities` says.
    chat_pseudonyms: ChatPseudonyms = ChatPseudonyms.SURROGATE

    @field_validator("entities")
    @classmethod
    def _known_entity_types(cls, entities: dict[str, EntityRule]) -> dict[str, EntityRule]:
        unknown = sorted(set(entities) - ALL_ENTITY_TYPES)
        if unknown:
            raise ValueError(f"unknown entity type(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(ALL_ENTITY_TYPES))}")
        return entities

    @field_validator("tenants")
    @classmethod
    def _named_tenants(cls, tenants: frozenset[str]) -> frozenset[str]:
        if any(not tenant.strip() for tenant in tenants):
            raise ValueError("a tenant name cannot be empty (requests without a tenant use 'default')")
        return tenants

    @field_validator("default_secret_action")
    @classmethod
    def _secret_safe_default(cls, action: Action) -> Action:
        if action not in SECRET_SAFE_ACTIONS:
            raise ValueError(_secret_message(action))
        return action

    @model_validator(mode="after")
    def _secrets_never_recoverable(self) -> Policy:
        for entity_type, rule in self.entities.items():
            if entity_type not in SECRET_ENTITY_TYPES:
                continue
            if rule.action not in SECRET_SAFE_ACTIONS:
                raise ValueError(f"entities.{entity_type}.action: {_secret_message(rule.action)}")
            if rule.mask_keep_last:
                raise ValueError(f"entities.{entity_type}.mask_keep_last: a secret is masked whole; set 0")
        return self

    def model_post_init(self, _context: Any) -> None:
        self.rule_table  # noqa: B018 - built once here, so lookups on the request path are dict reads
        self.allow.public_lists  # noqa: B018 - read at load, not on the first request

    @cached_property
    def rule_table(self) -> dict[str, ResolvedRule]:
        """Resolved rule per known entity type (defaults filled in)."""
        return {entity_type: self._resolve(entity_type) for entity_type in ALL_ENTITY_TYPES}

    @cached_property
    def fallback_rule(self) -> ResolvedRule:
        """Rule for an entity type unknown to ztgate: the PII defaults."""
        return ResolvedRule(self.default_action, self.default_threshold, "*", 0)

    def _resolve(self, entity_type: str) -> ResolvedRule:
        rule = self.entities.get(entity_type)
        if rule is None:
            secret = entity_type in SECRET_ENTITY_TYPES
            return ResolvedRule(self.default_secret_action if secret else self.default_action,
                                self.default_threshold, "*", 0)
        threshold = self.default_threshold if rule.threshold is None else rule.threshold
        return ResolvedRule(rule.action, threshold, rule.mask_char, rule.mask_keep_last)

    def rule_for(self, entity_type: str) -> ResolvedRule:
        """The rule applied to `entity_type`; a type unknown to ztgate gets the PII defaults."""
        rule = self.rule_table.get(entity_type)
        return rule if rule is not None else self.fallback_rule

    @cached_property
    def for_chat(self) -> Policy:
        """This policy as the gateway applies it to chat and completion calls (`chat_pseudonyms`): itself,
        or a copy whose `pseudonymize` rules of the CHAT_SURROGATE_TYPES are `surrogate`."""
        swapped = {entity_type: EntityRule(action=Action.SURROGATE, threshold=rule.threshold)
                   for entity_type, rule in self.rule_table.items()
                   if entity_type in CHAT_SURROGATE_TYPES and rule.action is Action.PSEUDONYMIZE}
        if self.chat_pseudonyms is ChatPseudonyms.PLACEHOLDER or not swapped:
            return self
        fields = {name: getattr(self, name) for name in type(self).model_fields}
        return Policy.model_validate({**fields, "entities": {**self.entities, **swapped}})

    def actions(self) -> frozenset[Action]:
        """Every action this policy can apply (used to check operator keys at start-up)."""
        return frozenset(rule.action for rule in self.rule_table.values())


def _secret_message(action: Action) -> str:
    allowed = ", ".join(sorted(a.value for a in SECRET_SAFE_ACTIONS))
    return (f"'{action.value}' is not allowed for secret entity types: secrets are never pseudonymised, "
            f"restorable or passed through (use one of {allowed})")


def _describe(exc: ValidationError, path: Path) -> str:
    lines = [f"invalid policy file {path}:"]
    for err in exc.errors():
        if err["type"] == "extra_forbidden":
            reason = "unknown key"
        elif err["type"] == "value_error":
            reason = str(err["ctx"]["error"])  # our own validators' text, without "Value error, "
        else:
            reason = err["msg"]
        key = ".".join(str(part) for part in err["loc"])
        # Whole-policy checks have no location of their own; their message starts with the key path.
        lines.append(f"  {key}: {reason}" if key else f"  {reason}")
    return "\n".join(lines)


def load_policy_file(path: Path | str) -> Policy:
    """Reads and validates one policy file; any problem raises ConfigError naming the file and key."""
    path = Path(path)
    data = read_yaml(path)
    if not data:
        raise ConfigError(f"policy file {path} is empty")
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path)) from None


def _expand(sources: Iterable[Path | str]) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in _POLICY_SUFFIXES and p.is_file())
            if not found:
                raise ConfigError(f"policy directory {path} holds no *.yaml files")
            files.extend(found)
        else:
            files.append(path)  # read_yaml reports a missing or unreadable file
    return files


class PolicyStore:
    """Policies by name and tenant. Built once at start-up; read-only afterwards, so safe to share."""

    def __init__(self, policies: Mapping[str, Policy], tenants: Mapping[str, str]) -> None:
        if DEFAULT_POLICY_NAME not in policies:
            raise ConfigError(f"no policy named '{DEFAULT_POLICY_NAME}' is loaded")
        self._policies = dict(policies)
        self._tenants = dict(tenants)

    @classmethod
    def load(cls, sources: Iterable[Path | str] | Path | str = (), *, builtin: bool = True) -> PolicyStore:
        """Loads policy files and directories (every *.yaml / *.yml in them).

        With `builtin`, the shipped policies (`default`, `strict`) are loaded first; a given file may replace
        one by defining a policy of the same name. Two given files defining the same policy name, or claiming
        the same tenant, are an error naming both files.
        """
        if isinstance(sources, (str, Path)):
            sources = [sources]
        policies: dict[str, Policy] = {}
        origin: dict[str, Path] = {}
        if builtin:
            for path in _expand([BUILTIN_POLICY_DIR]):
                shipped = load_policy_file(path)
                policies[shipped.name] = shipped
        for path in _expand(sources):
            policy = load_policy_file(path)
            if policy.name in origin:
                raise ConfigError(f"policy '{policy.name}' is defined in both {origin[policy.name]} "
                                  f"and {path}")
            policies[policy.name] = policy
            origin[policy.name] = path
        tenants: dict[str, str] = {}
        for policy in policies.values():
            for tenant in policy.tenants:
                if tenant in tenants:
                    raise ConfigError(f"tenant '{tenant}' is claimed by policies '{tenants[tenant]}' "
                                      f"({origin.get(tenants[tenant], 'built-in')}) and '{policy.name}' "
                                      f"({origin.get(policy.name, 'built-in')})")
                tenants[tenant] = policy.name
        return cls(policies, tenants)

    def get(self, name: str) -> Policy:
        """The policy called `name`; UnknownPolicyError (INVALID_ARGUMENT) when none is loaded."""
        policy = self._policies.get(name)
        if policy is None:
            raise UnknownPolicyError(f"unknown policy '{name}'; loaded policies: "
                                     f"{', '.join(sorted(self._policies))}")
        return policy

    def resolve(self, policy: str | None = None, tenant: str | None = None) -> Policy:
        """The explicit policy if named, else the tenant's policy, else `default` (empty strings = unset)."""
        if policy:
            return self.get(policy)
        if tenant and tenant in self._tenants:
            return self._policies[self._tenants[tenant]]
        return self._policies[DEFAULT_POLICY_NAME]

    def names(self) -> list[str]:
        """Names of every loaded policy, sorted."""
        return sorted(self._policies)

    def policies(self) -> list[Policy]:
        """Every loaded policy, sorted by name."""
        return [self._policies[name] for name in sorted(self._policies)]
