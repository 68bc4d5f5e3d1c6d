"""The redaction pipeline: detections + policy -> redacted text and findings, writing pseudonyms to the vault.

Steps run in a fixed order, each on the previous one's survivors: offsets checked, thresholds, allows
dropped (before overlaps, so a value let through never shadows one that must go), blocks raised before
anything is replaced or stored, overlaps resolved, replacements, then pseudonyms in one vault
transaction committed only when everything succeeded. Findings never carry the original value. The
steps one by one: docs/architecture.md ("Module notes").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import NamedTuple

from ztgate.common.errors import PermissionDenied, ZtgateError
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.context.person_keys import keyed_by_person
from ztgate.redaction.detection.names.person_ties import PersonIndex, ties_to_person
from ztgate.redaction.detection.overlaps import resolve_overlaps
from ztgate.redaction.detection.public import PublicList, enclosing_names
from ztgate.redaction.detection.public.topic_places import TopicPlaces
from ztgate.redaction.detection.public.travel_places import TravelPlaces
from ztgate.redaction.policies import Action, Policy, ResolvedRule
from ztgate.redaction.types import SECRET_ENTITY_TYPES, Detection
from ztgate.redaction.vault import PseudonymTransaction, Vault


class Finding(NamedTuple):
    """A detection as acted on: input offsets (code points), what replaced it and why.

    A NamedTuple rather than a frozen dataclass: building one is ~10x cheaper, and a prompt can have many.
    """

    entity_type: str
    start: int
    end: int
    score: float
    recognizer: str
    # The text that replaced the span in the output (a placeholder, mask, tag or ciphertext).
    replacement: str
    action: Action


@dataclass(frozen=True, slots=True)
class RedactOutcome:
    text: str
    findings: tuple[Finding, ...]


class BlockedError(PermissionDenied):
    """The policy blocks an entity type found in the text; the message names types, never values.

    `detections` are the ones that blocked (offsets and recognizers, no values), for the metrics.
    """

    def __init__(self, entity_types: Iterable[str], policy: str,
                 detections: Sequence[Detection] = ()) -> None:
        self.entity_types: list[str] = sorted(set(entity_types))
        self.policy = policy
        self.detections: tuple[Detection, ...] = tuple(detections)
        super().__init__(f"request blocked by policy '{policy}': it contains {', '.join(self.entity_types)}")


class InvalidDetectionError(ZtgateError):
    """A detector produced offsets outside the text: a bug in a detector, answered as INTERNAL."""


def _check_offsets(text: str, detections: Sequence[Detection]) -> None:
    length = len(text)
    for detection in detections:
        if not 0 <= detection.start < detection.end <= length:
            raise InvalidDetectionError(
                f"{detection.recognizer} gave {detection.entity_type} at "
                f"[{detection.start}, {detection.end}) in a text of {length} code points")


def applicable(text: str, detections: Sequence[Detection], policy: Policy
               ) -> list[tuple[Detection, ResolvedRule]]:
    """Steps 1-3: the detections the policy acts on, each with its rule (overlaps not yet resolved)."""
    _check_offsets(text, detections)
    allow = policy.allow
    check_allow_list = bool(allow.values or allow.patterns)
    public_lists = allow.public_lists
    kept: list[tuple[Detection, ResolvedRule]] = []
    for detection in detections:
        rule = policy.rule_for(detection.entity_type)
        if detection.score < rule.threshold or rule.action is Action.ALLOW:
            continue
        if (check_allow_list and detection.entity_type not in SECRET_ENTITY_TYPES
                and allow.allows(text[detection.start:detection.end])):
            continue
        kept.append((detection, rule))
    if public_lists:
        kept = _without_public(text, kept, public_lists)
    return kept


def _without_public(text: str, kept: list[tuple[Detection, ResolvedRule]], lists: Sequence[PublicList]
                    ) -> list[tuple[Detection, ResolvedRule]]:
    """Drop values on the policy's public lists that the text does not tie to a person; the private persons
    found (names on no list, or tied) are evidence that ties a place or a nationality in their sentence - but
    not a "person" whose value is a place or an organisation on a list (NER reads "the Roman Empire" as one),
    nor one whose very span another recognizer reads as a public place ("our office in Lyon": one word read
    both ways, and nothing about a person around it)."""
    places = {(d.start, d.end) for d, _ in kept if d.entity_type == "LOCATION" and _public(text, d, lists, ())}
    persons = PersonIndex([d for d, _ in kept if d.entity_type == "PERSON" and not _public(text, d, lists, ())
                           and not _on_any_list(text[d.start:d.end], lists) and not _read_as_place(text, d, places)])
    return [(d, rule) for d, rule in kept
            if not (_public(text, d, lists, persons)
                    or (d.entity_type == "PERSON" and _read_as_place(text, d, places)
                        and _public(text, Detection("LOCATION", d.start, d.end, d.score, d.recognizer), lists,
                                    persons)))]


def _read_as_place(text: str, person: Detection, places: set[tuple[int, int]]) -> bool:
    """A PERSON whose exact span (of ``places``: the public places' spans) is read as a public place too, with no
    title, greeting or relation before it, and not the value of a person's key ("Participants: ..., NAME")."""
    return ((person.start, person.end) in places and not ties_to_person(text, person)
            and not keyed_by_person(text, person.start))


def _on_any_list(value: str, lists: Sequence[PublicList]) -> bool:
    return any(public_list.has(value) for public_list in lists)


def _public(text: str, detection: Detection, lists: Sequence[PublicList],
            persons: Sequence[Detection] | PersonIndex) -> bool:
    """On a list for its type, or a place word inside a public figure's full name ("Florence" in "Florence
    Nightingale": the first name is not a place here), and nothing ties it to a person; a place kept only by
    its sentence (``topic_places``) is kept only where the text names no private person at all."""
    return (any(public_list.holds_at(text, detection.start, detection.end, detection.entity_type)
                and not (persons and isinstance(public_list, TopicPlaces))
                and not _place_read_as_a_person_beside_one(text, detection, public_list, persons)
                for public_list in lists)
            or (detection.entity_type == "LOCATION" and _in_public_name(text, detection, lists))
            ) and not ties_to_person(text, detection, persons,
                                     group_places=any(p.preceded_by is not None for p in lists),
                                     visits=any(isinstance(p, TravelPlaces) for p in lists))


def _place_read_as_a_person_beside_one(text: str, detection: Detection, public_list: PublicList,
                                       persons: Sequence[Detection] | PersonIndex) -> bool:
    """A listed place NER typed PERSON in the sentence of a private person found (``endonyms``: "New starter NAME
    (born ...) joins the Krakow team"): that is the person's workplace or home, as a LOCATION's ties would say."""
    if detection.entity_type != "PERSON" or not persons or not getattr(public_list, "persons_in_clean_sentences_only",
                                                                        False):
        return False
    index = persons if isinstance(persons, PersonIndex) else PersonIndex(persons)
    return index.in_sentence_of_one(text, detection.start)


def _in_public_name(text: str, detection: Detection, lists: Sequence[PublicList]) -> bool:
    """The detection, or a longer name around it, is a public person's on a list (``public_figures``): NER
    reads "Florence Nightingale" whole as a place, or "Florence" alone."""
    return any(public_list.has(text[a:b])
               for a, b in ((detection.start, detection.end), *enclosing_names(text, detection.start, detection.end))
               for public_list in lists if "PERSON" in public_list.entity_types and "LOCATION" not in
               public_list.entity_types)


def analyze(text: str, detections: Sequence[Detection], policy: Policy) -> list[Detection]:
    """What `redact` would replace or block, as disjoint detections sorted by start; changes nothing."""
    return resolve_overlaps(detection for detection, _ in applicable(text, detections, policy))


def redact(text: str, detections: Sequence[Detection], policy: Policy, vault: Vault | None,
           tenant: str | None, session_id: str | None, *, operators: Operators) -> RedactOutcome:
    """Applies `policy` to `detections` of `text` (see module doc for the steps).

    Pseudonyms go to `vault` under (tenant, session_id); with no vault or no session id they are
    numbered consistently within this call only and nothing is stored (not restorable).
    Raises BlockedError (PERMISSION_DENIED) when a `block` applies, SessionFullError when the session is
    full, InvalidDetectionError for offsets outside the text.
    """
    kept = applicable(text, detections, policy)
    if not kept:
        return RedactOutcome(text, ())
    blocked = [detection for detection, rule in kept if rule.action is Action.BLOCK]
    if blocked:
        raise BlockedError([detection.entity_type for detection in blocked], policy.name, blocked)

    resolved = resolve_overlaps(detection for detection, _ in kept)
    rules = [policy.rule_for(detection.entity_type) for detection in resolved]
    replacements: list[str | None] = [None] * len(resolved)
    pseudonymised: list[int] = []
    for index, (detection, rule) in enumerate(zip(resolved, rules)):
        if rule.action in _VAULT_ACTIONS:
            pseudonymised.append(index)
        else:
            value = text[detection.start:detection.end]
            replacements[index] = operators.replace(detection.entity_type, value, rule, tenant=tenant)
    if pseudonymised:
        context = (vault.transaction(tenant, session_id) if vault is not None and session_id
                   else nullcontext(PseudonymTransaction(None, _EPHEMERAL_MAX_ENTRIES)))
        with context as txn:
            # Persons first: an e-mail address made of a person's name then gets one made of the
            # person's stand-in (surrogates.email_of_person), wherever it stands in the text.
            for index in sorted(pseudonymised, key=lambda i: resolved[i].entity_type != "PERSON"):
                detection = resolved[index]
                replacements[index] = operators.replace(
                    detection.entity_type, text[detection.start:detection.end], rules[index], txn,
                    context=text)

    parts: list[str] = []
    findings: list[Finding] = []
    position = 0
    for detection, rule, replacement in zip(resolved, rules, replacements):
        parts.append(text[position:detection.start])
        parts.append(replacement)
        position = detection.end
        findings.append(Finding(detection.entity_type, detection.start, detection.end, detection.score,
                                detection.recognizer, replacement, rule.action))
    parts.append(text[position:])
    return RedactOutcome("".join(parts), tuple(findings))


# Actions whose replacements the vault allocates (and Restore puts back).
_VAULT_ACTIONS = frozenset({Action.PSEUDONYMIZE, Action.SURROGATE})
# Session-less calls store nothing, so their only bound is the text itself.
_EPHEMERAL_MAX_ENTRIES = 1 << 30
