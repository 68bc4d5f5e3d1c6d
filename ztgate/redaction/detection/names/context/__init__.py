"""Names and places no list holds, where the words around them say what they are: one Presidio recognizer per
rule, one rule a module, each reporting under its own name (``Finding.recognizer``) with its own score, so that a
finding, a metric's tier and the golden gate's report say which rule found it.

``CONTEXT_RULES`` is the order the analyzer runs them (a span two rules find alike keeps the name of the first).
They read: cued places; fields named for a person or a place; contact blocks, display names, headers, sign-offs,
greetings, chat and transcript speakers, subject lines; names in other scripts by their cues (a kana reading, a
relative in the writer's language, a contact block's or a form's line); user names, self-introductions,
appositions, a lone first name after a relation or a trade, or before one in apposition; a given name before a
double-barrelled surname; record columns and identifier labels; persons in
person keys, author-like and publisher-like slots and at a program header's version line's end; comment subjects;
a dispute's parties; licence plates; health details; phone numbers with no phone word; a named person's name in
another form; a postal address after its label in another language; the surname of a private person's family firm
("my uncle's company NAME & Sons"). docs/architecture.md lists them."""

from __future__ import annotations

from ztgate.redaction.detection.names.context.address_labels import AddressLabelRecognizer
from ztgate.redaction.detection.names.context.owned_firms import OwnedFirmRecognizer
from ztgate.redaction.detection.names.context.author_slots import AuthorSlotRecognizer
from ztgate.redaction.detection.names.context.barrelled_names import BarrelledNameRecognizer
from ztgate.redaction.detection.names.context.base import ContextRule
from ztgate.redaction.detection.names.context.cjk_names import CjkNameRecognizer
from ztgate.redaction.detection.names.context.bare_handles import BareHandleRecognizer
from ztgate.redaction.detection.names.context.birth_columns import BirthColumnRecognizer
from ztgate.redaction.detection.names.context.chat_lines import ChatSpeakerRecognizer
from ztgate.redaction.detection.names.context.contact_blocks import ContactBlockRecognizer
from ztgate.redaction.detection.names.context.contact_lines import ContactLineRecognizer
from ztgate.redaction.detection.names.context.csv_columns import CsvColumnFieldRecognizer
from ztgate.redaction.detection.names.context.comment_subjects import CommentSubjectRecognizer
from ztgate.redaction.detection.names.context.cued_places import CuedPlaceRecognizer
from ztgate.redaction.detection.names.context.dispute_parties import DisputePartyRecognizer
from ztgate.redaction.detection.names.context.display_names import DisplayNameRecognizer
from ztgate.redaction.detection.names.context.greetings import GreetingRecognizer
from ztgate.redaction.detection.names.context.health_details import HealthDetailRecognizer
from ztgate.redaction.detection.names.context.health_phrases import HealthPhraseRecognizer
from ztgate.redaction.detection.names.context.header_names import HeaderNameRecognizer
from ztgate.redaction.detection.names.context.kana_readings import KanaReadingRecognizer
from ztgate.redaction.detection.names.context.key_values import KeyValueFieldRecognizer
from ztgate.redaction.detection.names.context.kin_appositions import KinAppositionRecognizer
from ztgate.redaction.detection.names.context.kin_names import KinNameRecognizer
from ztgate.redaction.detection.names.context.licence_plates import LicencePlateRecognizer
from ztgate.redaction.detection.names.context.lower_identifiers import LowerCaseUserNameRecognizer
from ztgate.redaction.detection.names.context.other_script import LatinNameInOtherScriptRecognizer
from ztgate.redaction.detection.names.context.person_keys import PersonKeyRecognizer
from ztgate.redaction.detection.names.context.person_towns import PersonTownRecognizer
from ztgate.redaction.detection.names.context.publisher_slots import PublisherSlotRecognizer
from ztgate.redaction.detection.names.context.person_identifiers import PersonIdentifierLabelRecognizer
from ztgate.redaction.detection.names.context.record_columns import RecordColumnRecognizer
from ztgate.redaction.detection.names.context.reference_shapes import ReferenceShapeRecognizer
from ztgate.redaction.detection.names.context.relation_first_names import RelationFirstNameRecognizer
from ztgate.redaction.detection.names.context.role_appositions import RoleAppositionRecognizer
from ztgate.redaction.detection.names.context.script_names import ScriptNameRecognizer
from ztgate.redaction.detection.names.context.self_introductions import SelfIntroductionRecognizer
from ztgate.redaction.detection.names.context.sign_offs import SignOffRecognizer
from ztgate.redaction.detection.names.context.split_names import SplitNameRecognizer
from ztgate.redaction.detection.names.context.sql_inserts import SqlInsertFieldRecognizer
from ztgate.redaction.detection.names.context.subject_names import SubjectNameRecognizer
from ztgate.redaction.detection.names.context.todo_handles import TodoHandleRecognizer
from ztgate.redaction.detection.names.context.transcript_speakers import TranscriptSpeakerRecognizer
from ztgate.redaction.detection.names.context.name_forms import NameFormRecognizer
from ztgate.redaction.detection.names.context.unlabelled_phones import UnlabelledPhoneRecognizer
from ztgate.redaction.detection.names.context.version_lines import VersionLineRecognizer

CONTEXT_RULES: tuple[type[ContextRule], ...] = (
    CuedPlaceRecognizer, PersonTownRecognizer, KeyValueFieldRecognizer, SqlInsertFieldRecognizer,
    CsvColumnFieldRecognizer, ContactBlockRecognizer, DisplayNameRecognizer, HeaderNameRecognizer, SignOffRecognizer, GreetingRecognizer,
    TodoHandleRecognizer, ChatSpeakerRecognizer, SubjectNameRecognizer, LatinNameInOtherScriptRecognizer,
    CjkNameRecognizer, ScriptNameRecognizer, KanaReadingRecognizer, KinNameRecognizer, ContactLineRecognizer,
    LowerCaseUserNameRecognizer, SelfIntroductionRecognizer,
    RoleAppositionRecognizer, RelationFirstNameRecognizer, KinAppositionRecognizer, BarrelledNameRecognizer,
    BirthColumnRecognizer, RecordColumnRecognizer, PersonIdentifierLabelRecognizer, ReferenceShapeRecognizer,
    BareHandleRecognizer, PersonKeyRecognizer,
    AuthorSlotRecognizer, PublisherSlotRecognizer, VersionLineRecognizer, CommentSubjectRecognizer, TranscriptSpeakerRecognizer, SplitNameRecognizer,
    DisputePartyRecognizer, LicencePlateRecognizer, HealthDetailRecognizer, HealthPhraseRecognizer, UnlabelledPhoneRecognizer,
    NameFormRecognizer, AddressLabelRecognizer, OwnedFirmRecognizer,
)
CONTEXT_RECOGNIZER_NAMES: frozenset[str] = frozenset(rule.NAME for rule in CONTEXT_RULES)


def context_recognizers() -> list[ContextRule]:
    """One instance of every context rule, in the order the analyzer runs them."""
    return [rule() for rule in CONTEXT_RULES]
