"""Policies: the shipped default, loading and validation of files, lookup by name and tenant."""

from __future__ import annotations

from pathlib import Path

import pytest

from ztgate.common.config import ConfigError
from ztgate.common.errors import InvalidArgument
from ztgate.redaction.policies import (
    BUILTIN_POLICY_DIR,
    CHAT_SURROGATE_TYPES,
    Action,
    ChatPseudonyms,
    Policy,
    PolicyStore,
    UnknownPolicyError,
    load_policy_file,
)
from ztgate.redaction.types import ALL_ENTITY_TYPES, SECRET_ENTITY_TYPES

DATA = Path(__file__).parent / "data" / "policies"
ACME = DATA / "acme.yaml"


@pytest.fixture(scope="module")
def store() -> PolicyStore:
    return PolicyStore.load([ACME])


def write(tmp_path: Path, body: str, name: str = "p.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


# --- the shipped default -------------------------------------------------------------------------------

def test_default_policy_lists_every_supported_entity_type_explicitly():
    default = load_policy_file(BUILTIN_POLICY_DIR / "default.yaml")
    assert default.name == "default"
    assert set(default.entities) == ALL_ENTITY_TYPES


@pytest.mark.parametrize("entity_type", sorted(ALL_ENTITY_TYPES))
def test_default_policy_pseudonymises_pii_and_redacts_secrets(entity_type):
    rule = PolicyStore.load().resolve().rule_for(entity_type)
    expected = Action.REDACT if entity_type in SECRET_ENTITY_TYPES else Action.PSEUDONYMIZE
    assert rule.action is expected
    assert rule.threshold == 0.5


def test_entity_type_unknown_to_ztgate_gets_the_pii_defaults():
    policy = Policy(name="p", default_action=Action.MASK, default_threshold=0.3)
    rule = policy.rule_for("SOMETHING_NEW")
    assert (rule.action, rule.threshold) == (Action.MASK, 0.3)


# --- lookup ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("policy", "tenant", "expected"), [
    (None, None, "default"),
    ("", "", "default"),
    (None, "acme", "acme-strict"),
    ("", "acme-staging", "acme-strict"),
    (None, "globex", "default"),            # a tenant without a policy of its own
    ("default", "acme", "default"),         # an explicit name wins over the tenant's policy
    ("acme-strict", None, "acme-strict"),
])
def test_resolve_prefers_explicit_name_then_tenant_then_default(store, policy, tenant, expected):
    assert store.resolve(policy, tenant).name == expected


def test_unknown_policy_name_is_a_typed_invalid_argument(store):
    with pytest.raises(UnknownPolicyError, match="unknown policy 'nope'") as caught:
        store.resolve("nope", "acme")
    assert isinstance(caught.value, InvalidArgument)
    assert caught.value.status == "INVALID_ARGUMENT"


def test_store_lists_names(store):
    assert store.names() == ["acme-strict", "default", "strict"]
    assert [p.name for p in store.policies()] == ["acme-strict", "default", "strict"]


# --- the example tenant policy -----------------------------------------------------------------------------

def test_example_tenant_policy_fills_in_defaults(store):
    acme = store.get("acme-strict")
    assert acme.tenants == {"acme", "acme-staging"}
    assert acme.rule_for("PERSON").threshold == 0.7
    assert acme.rule_for("LOCATION").threshold == 0.6          # bare action: policy default threshold
    assert acme.rule_for("PHONE_NUMBER").action is Action.REDACT  # not listed: default_action
    assert acme.rule_for("JWT").action is Action.REDACT           # not listed secret: default_secret_action
    card = acme.rule_for("CREDIT_CARD")
    assert (card.action, card.mask_char, card.mask_keep_last) == (Action.MASK, "#", 4)
    assert acme.actions() >= {Action.HASH, Action.ENCRYPT, Action.BLOCK, Action.ALLOW}


@pytest.mark.parametrize(("value", "allowed"), [
    ("support@acme.example", True),
    ("Support@acme.example", False),          # exact values are case-sensitive
    ("support@acme.example.org", False),      # whole value, not a substring
    ("bot@noreply.acme.example", True),       # pattern, full match
    ("bot@noreply.acme.example.evil", False),
])
def test_allow_list_matches_whole_values(store, value, allowed):
    assert store.get("acme-strict").allow.allows(value) is allowed


def test_bare_action_is_short_for_a_rule_with_only_an_action():
    short = Policy.model_validate({"name": "a", "entities": {"PERSON": "mask"}})
    full = Policy.model_validate({"name": "a", "entities": {"PERSON": {"action": "mask"}}})
    assert short == full


# --- validation: every problem names the file and the key ---------------------------------------------------

@pytest.mark.parametrize(("body", "key", "reason"), [
    ("name: p\ncolour: red\n", "colour", "unknown key"),
    ("name: p\nentities:\n  PERSON: {action: mask, colour: red}\n", "entities.PERSON.colour", "unknown key"),
    ("name: p\nallow: {values: [a], regexes: [b]}\n", "allow.regexes", "unknown key"),
    ("name: p\nentities:\n  PASSPORT: redact\n", "entities", "unknown entity type(s) PASSPORT"),
    ("name: p\nentities:\n  PERSON: shred\n", "entities.PERSON.action", "Input should be"),
    ("name: p\nentities:\n  PERSON: {action: mask, threshold: 1.5}\n",
     "entities.PERSON.threshold", "less than"),
    ("name: p\nentities:\n  PERSON: {action: mask, mask_char: '**'}\n",
     "entities.PERSON.mask_char", "at most 1"),
    ("name: p\ndefault_threshold: -0.1\n", "default_threshold", "greater than"),
    ("name: 'has space'\n", "name", "should match pattern"),
    ("description: no name\n", "name", "Field required"),
    ("name: p\nallow:\n  patterns: ['(unclosed']\n", "allow.patterns.0", "regular expression"),
    ("name: p\ndefault_action: erase\n", "default_action", "Input should be"),
    ("name: p\ntenants: ['']\n", "tenants", "a tenant name cannot be empty"),
])
def test_invalid_policy_file_names_file_and_key(tmp_path, body, key, reason):
    path = write(tmp_path, body)
    with pytest.raises(ConfigError) as caught:
        load_policy_file(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"  {key}: " in message
    assert reason in message


@pytest.mark.parametrize("action", ["pseudonymize", "encrypt", "allow"])
@pytest.mark.parametrize("secret", ["AWS_SECRET_KEY", "PASSWORD", "JWT"])
def test_policy_asking_to_keep_a_secret_recoverable_is_rejected_at_load(tmp_path, secret, action):
    path = write(tmp_path, f"name: p\nentities:\n  {secret}: {action}\n")
    with pytest.raises(ConfigError, match=rf"entities.{secret}.action: '{action}' is not allowed for secret"):
        load_policy_file(path)


@pytest.mark.parametrize("action", ["redact", "mask", "hash", "block"])
def test_secret_safe_actions_are_accepted_for_secrets(tmp_path, action):
    policy = load_policy_file(write(tmp_path, f"name: p\nentities:\n  GITHUB_TOKEN: {action}\n"))
    assert policy.rule_for("GITHUB_TOKEN").action.value == action


def test_partial_mask_of_a_secret_is_rejected(tmp_path):
    path = write(tmp_path, "name: p\nentities:\n  PASSWORD: {action: mask, mask_keep_last: 2}\n")
    with pytest.raises(ConfigError, match="entities.PASSWORD.mask_keep_last: a secret is masked whole"):
        load_policy_file(path)


def test_unsafe_default_secret_action_is_rejected(tmp_path):
    path = write(tmp_path, "name: p\ndefault_secret_action: pseudonymize\n")
    with pytest.raises(ConfigError, match="default_secret_action: 'pseudonymize' is not allowed for secret"):
        load_policy_file(path)


def test_default_action_applies_to_pii_only(tmp_path):
    policy = load_policy_file(write(tmp_path, "name: p\ndefault_action: pseudonymize\n"))
    assert policy.rule_for("PERSON").action is Action.PSEUDONYMIZE
    assert policy.rule_for("OPENAI_API_KEY").action is Action.REDACT


# --- reading files ----------------------------------------------------------------------------------------

def test_explicit_file_that_is_missing_is_an_error_not_a_fallback(tmp_path):
    missing = tmp_path / "absent.yaml"
    with pytest.raises(ConfigError, match=f"cannot read configuration file {missing}"):
        PolicyStore.load([missing])


@pytest.mark.parametrize(("body", "reason"), [
    ("", "is empty"),
    ("- a\n- b\n", "must hold a mapping"),
    ("name: [unclosed\n", "not valid YAML"),
])
def test_unusable_file_is_an_error(tmp_path, body, reason):
    with pytest.raises(ConfigError, match=reason):
        PolicyStore.load([write(tmp_path, body)])


def test_directory_without_policy_files_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="holds no"):
        PolicyStore.load([tmp_path])


def test_directory_loads_every_yaml_file(tmp_path):
    write(tmp_path, "name: one\ntenants: [t1]\n", "one.yaml")
    write(tmp_path, "name: two\ntenants: [t2]\n", "two.yml")
    write(tmp_path, "not a policy", "notes.txt")
    store = PolicyStore.load([tmp_path])
    assert store.names() == ["default", "one", "strict", "two"]
    assert store.resolve(tenant="t2").name == "two"


def test_a_single_path_is_accepted_as_well_as_a_list():
    assert PolicyStore.load(ACME).names() == ["acme-strict", "default", "strict"]
    assert PolicyStore.load(str(ACME)).names() == ["acme-strict", "default", "strict"]


def test_shipped_policy_directory_can_be_given_explicitly():
    assert PolicyStore.load([BUILTIN_POLICY_DIR]).names() == ["default", "strict"]


def test_same_policy_name_in_two_files_is_an_error_naming_both(tmp_path):
    first = write(tmp_path, "name: dup\n", "a.yaml")
    second = write(tmp_path, "name: dup\n", "b.yaml")
    with pytest.raises(ConfigError, match=f"'dup' is defined in both {first} and {second}"):
        PolicyStore.load([first, second])


def test_tenant_claimed_by_two_policies_is_an_error(tmp_path):
    write(tmp_path, "name: a\ntenants: [acme]\n", "a.yaml")
    write(tmp_path, "name: b\ntenants: [acme]\n", "b.yaml")
    with pytest.raises(ConfigError, match="tenant 'acme' is claimed by policies 'a'"):
        PolicyStore.load([tmp_path])


def test_a_given_default_policy_replaces_the_shipped_one(tmp_path):
    store = PolicyStore.load([write(tmp_path, "name: default\ndefault_action: mask\n")])
    assert store.resolve().rule_for("PERSON").action is Action.MASK


def test_store_without_a_default_policy_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no policy named 'default'"):
        PolicyStore.load([write(tmp_path, "name: other\n")], builtin=False)


# --- chat_pseudonyms: what the gateway's chat scrub writes (ADR 0007) -----------------------------------

@pytest.mark.parametrize("name", ["default", "strict"])
def test_shipped_policies_say_surrogates_for_chat_and_keep_placeholders_elsewhere(name):
    policy = load_policy_file(BUILTIN_POLICY_DIR / f"{name}.yaml")
    assert policy.chat_pseudonyms is ChatPseudonyms.SURROGATE
    assert "chat_pseudonyms: surrogate" in (BUILTIN_POLICY_DIR / f"{name}.yaml").read_text()  # stated, not implied
    chat = policy.for_chat
    for entity_type in sorted(ALL_ENTITY_TYPES):
        swapped = entity_type in CHAT_SURROGATE_TYPES
        assert policy.rule_for(entity_type).action is not Action.SURROGATE  # the Redaction API: as written
        assert (chat.rule_for(entity_type).action is Action.SURROGATE) == swapped, entity_type
        if not swapped:
            assert chat.rule_for(entity_type) == policy.rule_for(entity_type), entity_type
    assert chat.name == policy.name and chat.allow is policy.allow and chat.for_chat is chat


def test_chat_surrogates_cover_no_secret_and_no_payment_or_national_identifier():
    assert not CHAT_SURROGATE_TYPES & SECRET_ENTITY_TYPES
    assert not CHAT_SURROGATE_TYPES & {"CREDIT_CARD", "IBAN_CODE", "US_SSN", "ID_NUMBER"}


def test_a_policy_without_the_key_gets_surrogates_for_chat(tmp_path):
    policy = load_policy_file(write(tmp_path, "name: mine\nentities: {PERSON: pseudonymize, EMAIL_ADDRESS: mask}\n"))
    assert policy.chat_pseudonyms is ChatPseudonyms.SURROGATE
    assert policy.for_chat.rule_for("PERSON").action is Action.SURROGATE
    assert policy.for_chat.rule_for("EMAIL_ADDRESS").action is Action.MASK  # only pseudonymize changes


def test_placeholders_for_chat_are_one_key_away(tmp_path):
    policy = load_policy_file(write(tmp_path, "name: mine\nchat_pseudonyms: placeholder\n"
                                              "entities: {PERSON: {action: pseudonymize, threshold: 0.8}}\n"))
    assert policy.for_chat is policy
    assert policy.for_chat.rule_for("PERSON").action is Action.PSEUDONYMIZE


def test_chat_surrogates_keep_each_rules_threshold(tmp_path):
    policy = load_policy_file(write(tmp_path, "name: mine\ndefault_threshold: 0.4\n"
                                              "entities: {PERSON: {action: pseudonymize, threshold: 0.8},"
                                              " LOCATION: pseudonymize}\n"))
    assert policy.for_chat.rule_for("PERSON").threshold == 0.8
    assert policy.for_chat.rule_for("LOCATION").threshold == 0.4


def test_an_unknown_chat_pseudonyms_value_names_the_key(tmp_path):
    with pytest.raises(ConfigError, match="chat_pseudonyms"):
        load_policy_file(write(tmp_path, "name: mine\nchat_pseudonyms: fake\n"))
