"""The context recognizers, one per rule (detection/names/context/): each is its own Presidio recognizer with
its own name and score, registered in the analyzer, and what it finds carries its name."""

from __future__ import annotations

import inspect

import pytest

from ztgate.redaction.detection.analyzer import Analyzer
from ztgate.redaction.detection.names.context import CONTEXT_RECOGNIZER_NAMES, CONTEXT_RULES, ContextRule

# One text per rule, the value it must find there and the value's type. Invented names: no list or NER
# label outscores the rule on them.
EXAMPLES: dict[str, tuple[str, str, str]] = {
    "CuedPlaceRecognizer": ("She lives in Vellinor now.", "Vellinor", "LOCATION"),
    "CjkNameRecognizer": ("我叫赵嘉怡，想问一个问题。", "赵嘉怡", "PERSON"),
    "ScriptNameRecognizer": ("Please ask my colleague 甘沐岚 today.", "甘沐岚", "PERSON"),
    "PersonTownRecognizer": ("Mieszkam w Vellinorze od lat.", "Vellinorze", "LOCATION"),
    "RelationFirstNameRecognizer": ("Our carpenter Quaxtor fixed the door.", "Quaxtor", "PERSON"),
    "PersonIdentifierLabelRecognizer": ("My swim club number is QZ-448213, thanks.", "QZ-448213", "ID_NUMBER"),
    "KeyValueFieldRecognizer": ('{"displayName": "Quaxtor Vellim", "id": 7}', "Quaxtor Vellim", "PERSON"),
    "SqlInsertFieldRecognizer": ("INSERT INTO users (id, name) VALUES (1, 'Quaxtor Vellim');", "Quaxtor Vellim",
                                 "PERSON"),
    "CsvColumnFieldRecognizer": ("id,name,plan\n1,Quaxtor Vellim,gold\n", "Quaxtor Vellim", "PERSON"),
    "ContactBlockRecognizer": ("Quaxtor Vellim\nVellinor\nqv@example.org\n", "Quaxtor Vellim", "PERSON"),
    "DisplayNameRecognizer": ("Please write to Quaxtor Vellim <qv@example.org> today.", "Quaxtor Vellim", "PERSON"),
    "HeaderNameRecognizer": ("Fix the cache key\n\nReviewed-by: Quaxtor Vellim\n", "Quaxtor Vellim", "PERSON"),
    "SignOffRecognizer": ("The patch is attached.\n\nThanks,\nQuaxtor\n", "Quaxtor", "PERSON"),
    "GreetingRecognizer": ("Dear Quaxtor,\nthe build is green again.", "Quaxtor", "PERSON"),
    "TodoHandleRecognizer": ("x = 1  # TODO(qvellim): drop after the migration", "qvellim", "PERSON"),
    "ChatSpeakerRecognizer": ("# [14:02] Quaxtor Vellim: restarting the worker\n", "Quaxtor Vellim", "PERSON"),
    "SubjectNameRecognizer": ("Subject: Contract renewal - Quaxtor Vellim\n\nHello all", "Quaxtor Vellim",
                              "PERSON"),
    "LatinNameInOtherScriptRecognizer": ("请联系Quaxtor Vellim确认", "Quaxtor Vellim", "PERSON"),
    "LowerCaseUserNameRecognizer": ("reviewer: marta.vellim\nlabels: [db]\n", "marta.vellim", "PERSON"),
    "SelfIntroductionRecognizer": ("Hi, I'm Vellim Quaxtor and I rent flat 4.", "Vellim Quaxtor", "PERSON"),
    "RoleAppositionRecognizer": ("Our CFO, Quaxtor Vellim, signed it.", "Quaxtor Vellim", "PERSON"),
    "KinAppositionRecognizer": ("Quaxtor, my daughter, asked me.", "Quaxtor", "PERSON"),
    "BarrelledNameRecognizer": ("Quick one from Elspeth Quaxtor-Vellim: why?", "Elspeth Quaxtor-Vellim", "PERSON"),
    "BirthColumnRecognizer": ("name,dob,plan\nQuaxtor Vellim,1994-05-16,gold\n", "1994-05-16", "DATE_OF_BIRTH"),
    "RecordColumnRecognizer": ("name|member_id|plan\nQuaxtor Vellim|QV-4471|gold\n", "QV-4471", "ID_NUMBER"),
    # The format-free rules start from a given name on the shipped lists ("Marta") and an invented surname.
    "PersonKeyRecognizer": ("// codeOwner=Marta Vellim\n", "Marta Vellim", "PERSON"),
    # An author-like slot asks no list: an invented given name and surname.
    "AuthorSlotRecognizer": ("\" Maintainer:  Quaxtor Vellim\n", "Quaxtor Vellim", "PERSON"),
    # A publisher-like slot and a version line's end ask no list either (ADR 0038).
    "PublisherSlotRecognizer": ('!define PRODUCT_PUBLISHER "Quaxtor Vellim"\n', "Quaxtor Vellim", "PERSON"),
    "VersionLineRecognizer": ("C     VERSION 2.3   11-MAR-1994   Quaxtor Vellim\n", "Quaxtor Vellim", "PERSON"),
    "CommentSubjectRecognizer": ("# Marta Vellim will rotate the keys\n", "Marta Vellim", "PERSON"),
    "TranscriptSpeakerRecognizer": ("<Marta Vellim> the deploy is stuck again\n", "Marta Vellim", "PERSON"),
    "SplitNameRecognizer": ('Authors@R: person("Quaxtor", "Vellim", role = "aut")\n', "Vellim", "PERSON"),
    "DisputePartyRecognizer": ("My lawsuit Quaxtor v. Vellim was filed last week.\n", "Quaxtor", "PERSON"),
    "LicencePlateRecognizer": ("Our van (Kennzeichen QV-ZT 4821) was towed.", "QV-ZT 4821", "ID_NUMBER"),
    "HealthDetailRecognizer": ("My uncle Quaxtor was diagnosed with gout last spring.", "gout", "HEALTH_DETAIL"),
    "HealthPhraseRecognizer": ("My aunt Quaxtor called; since her stroke she walks slowly.", "stroke", "HEALTH_DETAIL"),
    "UnlabelledPhoneRecognizer": ("Which ferry goes to Faro? My aunt Rosa Lima, 912 604 358, asked.", "912 604 358",
                                  "PHONE_NUMBER"),
    "NameFormRecognizer": ("Bu soruyu kuzenim Dilvara'nın ödevi için soruyorum.", "Dilvara", "PERSON"),
    "AddressLabelRecognizer": ("כתובת: רחוב וולנור 17, חיפה", "רחוב וולנור 17, חיפה", "LOCATION"),
    "KinNameRecognizer": ("Вчера с моей кузиной Квирой ходили в музей.", "Квирой", "PERSON"),
    "KanaReadingRecognizer": ("氏名：槙野 瑠璃（まきの るり）", "まきの るり", "PERSON"),
    "ContactLineRecognizer": ("Заранее спасибо.\n\nВельмира Квашнина\n+7 921 555-01-77", "Вельмира Квашнина", "PERSON"),
    "OwnedFirmRecognizer": ("My uncle's company Quillsworth & Sons went bankrupt.", "Quillsworth", "PERSON"),
    "ReferenceShapeRecognizer": ("Mon numéro de dossier est QVX-2024-48213, merci.", "QVX-2024-48213", "ID_NUMBER"),
    "BareHandleRecognizer": ("Follow quaxtor_vellim, she paints every day.", "quaxtor_vellim", "PERSON"),
}


def test_every_rule_has_a_name_a_score_and_a_module_of_its_own() -> None:
    assert len(CONTEXT_RECOGNIZER_NAMES) == len(CONTEXT_RULES)  # names are unique
    assert {rule.NAME for rule in CONTEXT_RULES} == set(EXAMPLES)  # and each has an example below
    for rule in CONTEXT_RULES:
        assert rule.NAME == rule.__name__ and 0 < rule.SCORE <= 1 and rule.ENTITIES
        module = inspect.getmodule(rule)
        assert [c for _, c in inspect.getmembers(module, inspect.isclass)
                if issubclass(c, ContextRule) and c.__module__ == module.__name__] == [rule], rule.NAME


@pytest.mark.parametrize("rule", CONTEXT_RULES, ids=lambda rule: rule.NAME)
def test_a_rule_reports_under_its_own_name_and_score(rule: type[ContextRule]) -> None:
    text, value, entity_type = EXAMPLES[rule.NAME]
    results = rule().analyze(text, list(rule.ENTITIES))
    found = [(text[r.start:r.end], r.entity_type, r.score, r.recognition_metadata["recognizer_name"])
             for r in results]
    assert (value, entity_type, rule.SCORE, rule.NAME) in found
    assert rule().analyze(text, ["EMAIL_ADDRESS"]) == []  # only the types asked for


@pytest.mark.parametrize("rule", CONTEXT_RULES, ids=lambda rule: rule.NAME)
def test_the_analyzer_runs_each_rule_and_its_findings_carry_its_name(redaction_analyzer: Analyzer,
                                                                     rule: type[ContextRule]) -> None:
    text, value, entity_type = EXAMPLES[rule.NAME]
    found = {(text[d.start:d.end], d.entity_type): d for d in redaction_analyzer.analyze(text)}
    detection = found[(value, entity_type)]
    assert (detection.recognizer, detection.score) == (rule.NAME, rule.SCORE)
