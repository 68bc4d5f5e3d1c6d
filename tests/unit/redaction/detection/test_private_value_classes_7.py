"""Private values that reached the model on utility-holdout-7 (issue #29, seen): references after labels no rule
listed, names in CJK script near person evidence, the town a person lives or works in said in prose, addresses in
Japanese and street-number-postcode layouts, and chat handles speaking without an '@'.

Generated families, both sides, drawn apart from utility-tune-7.jsonl (the label nouns, syllables, names, towns and
layouts are this file's): each class in several wordings -> found (recognizer level) and not reaching the model
(through the production analyzer and the default policy); the everyday look-alikes of each class (order, invoice,
ticket, issue, PR, build, version, flight, ISBN, error and product codes; a public figure's name in CJK script
with no cue; a town as a topic or a trip; a year after a number; a bot speaking in a log) -> not found, and the
text unchanged.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.context.cjk_names import CjkNameRecognizer
from ztgate.redaction.detection.names.context.cued_places import CuedPlaceRecognizer
from ztgate.redaction.detection.names.context.person_identifiers import PersonIdentifierLabelRecognizer
from ztgate.redaction.detection.patterns.validators import user_name_shaped
from ztgate.redaction.policies import PolicyStore

DEFAULT = PolicyStore.load().get("default")
OPERATORS = Operators()
E2E = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
FAST = settings(max_examples=150, deadline=None)

_SYLLABLES = ["vor", "ta", "mek", "ilo", "sun", "dra", "pe", "kas", "lun", "bri", "zo", "hem"]
_WORD = st.lists(st.sampled_from(_SYLLABLES), min_size=2, max_size=3).map("".join)
_TOWN = _WORD.map(str.capitalize)


def _out(analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text


def _found(rule, text: str) -> list[str]:
    return [text[a:b] for a, b, _ in rule.find(text)]


# --- references after a label of any wording -------------------------------------------------------------
PERSON_LABELS = ["learner", "volunteer", "season pass", "rider", "pensioner", "donor", "athlete", "cardholder",
                 "enrolment", "alumni", "resident permit", "swim club", "credit union", "dental plan"]
MARKERS = ["number", "no.", "ID", "code", "ref", "#", "Nr."]
CODES = st.one_of(
    st.integers(10**5, 10**10).map(str),
    st.tuples(st.sampled_from(["QX", "LM", "BRK", "Z"]), st.integers(1000, 999999)).map(lambda t: f"{t[0]}-{t[1]}"),
    st.tuples(st.integers(1000, 9999), st.integers(1000, 9999), st.integers(100, 9999)).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}"),
).filter(lambda v: len(set(v.replace(" ", ""))) > 2)  # one digit repeated is no reference (``reference_code``)
REFERENCE_FRAMES = [
    "Why is the sea salty? My {label} {marker} {code}, in case the form asks.",
    "{Label} {marker}: {code}\nWhat does a barometer measure?",
    "For the sign-up sheet (my {label} {marker} is {code}): how do tides work?",
    "How do vaccines train the immune system? -- {label} {marker} {code}",
]


@FAST
@given(label=st.sampled_from(PERSON_LABELS), marker=st.sampled_from(MARKERS), code=CODES,
       frame=st.sampled_from(REFERENCE_FRAMES))
def test_a_reference_after_any_persons_label_is_found(label, marker, code, frame):
    text = frame.format(label=label, Label=label.capitalize(), marker=marker, code=code)
    assert code in _found(PersonIdentifierLabelRecognizer(), text), text


@E2E
@given(label=st.sampled_from(PERSON_LABELS), marker=st.sampled_from(MARKERS), code=CODES,
       frame=st.sampled_from(REFERENCE_FRAMES))
def test_a_reference_after_any_persons_label_does_not_reach_the_model(redaction_analyzer, label, marker, code,
                                                                      frame):
    text = frame.format(label=label, Label=label.capitalize(), marker=marker, code=code)
    assert code not in _out(redaction_analyzer, text), text


THING_LABELS = ["order", "invoice", "ticket", "issue", "PR", "build", "version", "flight", "ISBN", "error",
                "product", "model", "part", "tracking", "batch", "seat", "room", "page", "job", "commit",
                "release", "promo", "zip", "course", "prime", "process"]
REFERENCE_LOOKALIKES = [
    "Our {label} {marker} {code} was processed twice: how do I write a polite complaint?",
    "What does {label} {marker} {code} in this log line mean?",
    "{Label} {marker}: {code}. Is that the right format for the form?",
]


@FAST
@given(label=st.sampled_from(THING_LABELS), marker=st.sampled_from(MARKERS), code=CODES,
       frame=st.sampled_from(REFERENCE_LOOKALIKES))
def test_a_things_number_is_no_persons_reference(label, marker, code, frame):
    text = frame.format(label=label, Label=label.capitalize(), marker=marker, code=code)
    assert _found(PersonIdentifierLabelRecognizer(), text) == [], text


@given(n=st.integers(1, 9999), marker=st.sampled_from(MARKERS), year=st.integers(1950, 2030))
def test_a_short_number_a_year_or_a_function_word_label_is_no_reference(n, marker, year):
    rule = PersonIdentifierLabelRecognizer()
    for text in (f"My locker {marker} {n} is near the door.", f"Their grant {marker} {year} was approved.",
                 f"There are no {10 ** 5 + n} people in the hall."):
        assert _found(rule, text) == [], text


# --- names in CJK script ---------------------------------------------------------------------------------
ZH_SURNAMES = ["赵", "钱", "孙", "周", "吴", "郑", "冯", "何", "罗", "高"]
ZH_GIVEN = ["嘉怡", "子涵", "浩然", "雨桐", "建国", "丽", "伟", "思远", "若曦", "明"]
ZH_NAMES = st.tuples(st.sampled_from(ZH_SURNAMES), st.sampled_from(ZH_GIVEN)).map("".join)
JA_NAMES = st.tuples(st.sampled_from(["中村", "小林", "山本", "加藤", "吉田", "松本"]),
                     st.sampled_from(["陽菜", "蓮", "結衣", "大翔", "美咲", "翼"])).map("".join)
KO_NAMES = st.tuples(st.sampled_from(["김", "이", "최", "정", "강", "윤"]),
                     st.sampled_from(["하준", "지우", "서윤", "도윤", "민서", "예준"])).map("".join)
ZH_FRAMES = ["我叫{n}，想问一下：Why is the sky blue?", "Why is the sky blue? 收件人：{n} 电话：139 0000 1234",
             "我的朋友{n}问：why is the sky blue?", "Why is the sky blue?\n—— {n}"]
JA_FRAMES = ["私は{n}です。Why is the sky blue?", "{n}と申します。Why is the sky blue?",
             "Why is the sky blue? 氏名：{n}", "Why is the sky blue? 祖母の{n}が聞いています。"]
KO_FRAMES = ["제 이름은 {n}입니다. Why is the sky blue?", "Why is the sky blue? 성명: {n}",
             "Why is the sky blue? 친구 {n}에게 물어봤어요."]


@FAST
@given(data=st.one_of(st.tuples(ZH_NAMES, st.sampled_from(ZH_FRAMES)), st.tuples(JA_NAMES, st.sampled_from(JA_FRAMES)),
                      st.tuples(KO_NAMES, st.sampled_from(KO_FRAMES))))
def test_a_cjk_name_near_person_evidence_is_found(data):
    name, frame = data
    text = frame.format(n=name)
    assert name in _found(CjkNameRecognizer(), text), text


@E2E
@given(data=st.one_of(st.tuples(ZH_NAMES, st.sampled_from(ZH_FRAMES)), st.tuples(JA_NAMES, st.sampled_from(JA_FRAMES)),
                      st.tuples(KO_NAMES, st.sampled_from(KO_FRAMES))))
def test_a_cjk_name_near_person_evidence_does_not_reach_the_model(redaction_analyzer, data):
    name, frame = data
    text = frame.format(n=name)
    assert name not in _out(redaction_analyzer, text), text


CJK_LOOKALIKES = ["What did 鲁迅 write about in {w}?", "Summarise 夏目漱石's novel 坊っちゃん for a class on {w}.",
                  "我是学生，{w} 是什么意思？", "Who was 李白, and why is his poem about the moon famous?",
                  "저는 학생입니다. What does {w} mean?", "What is 東京タワー made of?"]


@E2E
@given(w=_WORD, frame=st.sampled_from(CJK_LOOKALIKES))
def test_a_cjk_public_name_or_role_without_a_cue_stays(redaction_analyzer, w, frame):
    text = frame.format(w=w)
    assert _found(CjkNameRecognizer(), text) == [], text
    assert _out(redaction_analyzer, text) == text


# --- a person's town in prose ---------------------------------------------------------------------------
TOWN_FRAMES = ["How do I cook lentils? My aunt in {t} swears by soaking them.",
               "Why do leaves change colour? Our granddaughter up in {t} asked us.",
               "I teach biology to year 9 in {t}; how do I explain osmosis?",
               "I work as a pharmacist in {t}. What is a half-life?",
               "My in-laws still in {t} want to know how solar panels work.",
               "My partner in {t} asked me what a tariff is."]
TOWN_TOPICS = ["We spent a night in {t} on the way north: what should we have seen?",
               "Our conference in {t} needs a keynote: suggest three topics.",
               "What is the history of the cathedral in {t}?",
               "I work at the {t} office of a bank; what is a swap?",
               "Write an e-mail to our partner in {t} asking to meet at the fair."]  # a business's partner


@FAST
@given(town=_TOWN, frame=st.sampled_from(TOWN_FRAMES))
def test_a_persons_town_in_prose_is_found(town, frame):
    text = frame.format(t=town)
    assert town in _found(CuedPlaceRecognizer(), text), text


@FAST
@given(town=_TOWN, frame=st.sampled_from(TOWN_TOPICS))
def test_a_town_as_a_topic_or_trip_is_not_cued(town, frame):
    text = frame.format(t=town)
    assert _found(CuedPlaceRecognizer(), text) == [], text


# Cues the strong-place list already reads, through the whole pipeline with towns on the gazetteer.
RESIDENCE_FRAMES = ["We moved to {t} last year. What is a heat pump?", "Born and raised in {t}, I never learnt to ski."]


@E2E
@given(town=st.sampled_from(["Sandomierz", "Ystad", "Tromsø", "Bayeux", "Matera", "Kutná Hora"]),
       frame=st.sampled_from(TOWN_FRAMES + RESIDENCE_FRAMES))
def test_a_known_town_said_of_a_person_does_not_reach_the_model(redaction_analyzer, town, frame):
    text = frame.format(t=town)
    assert town not in _out(redaction_analyzer, text), text


# --- addresses in other layouts --------------------------------------------------------------------------
STREETS = st.tuples(st.sampled_from(["ul.", "Rua", "Calle", "Avenida", "via"]), _TOWN, st.integers(1, 300),
                    st.sampled_from(["", "/4", "A"]))
POSTCODES = st.sampled_from(["80-827", "4050-032", "28005", "40124", "31-042", "1000-001"])


@E2E
@given(street=STREETS, postcode=POSTCODES, town=st.sampled_from(["Gdańsk", "Porto", "Sevilla", "Bologna", "Kraków"]))
def test_a_postcode_after_a_street_number_does_not_reach_the_model(redaction_analyzer, street, postcode, town):
    kind, name, number, suffix = street
    text = f"What is a good bread recipe? Please post it to {kind} {name} {number}{suffix}, {postcode} {town}."
    assert postcode not in _out(redaction_analyzer, text), text


@E2E
@given(a=st.integers(100, 999), b=st.integers(0, 9999), block=st.integers(1, 9), lot=st.integers(1, 40))
def test_a_japanese_postal_address_does_not_reach_the_model(redaction_analyzer, a, b, block, lot):
    address = f"福岡県福岡市中央区天神{block}-{lot}-3"
    text = f"Which festival is Hakata known for? 住所: 〒{a}-{b:04d} {address}"
    out = _out(redaction_analyzer, text)
    assert f"{a}-{b:04d}" not in out and address not in out, text


@E2E
@given(n=st.integers(2, 300), year=st.integers(1990, 2024))
def test_a_number_and_a_year_are_no_postcode(redaction_analyzer, n, year):
    text = f"Chapter {n}, {year} Olympics: which city hosted them?"
    assert "Olympics" in _out(redaction_analyzer, text)


# --- chat speakers without an '@' --------------------------------------------------------------------------
USER_NAMES = st.tuples(_WORD, st.sampled_from(["_", ".", ""]), _WORD, st.integers(1, 2015)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]}{t[3]}")


@E2E
@given(handle=USER_NAMES, stamp=st.sampled_from(["[21:14]", "[2024-11-03 21:14]", "<09:41>", "(7:02 PM)"]))
def test_a_chat_speaker_without_an_at_does_not_reach_the_model(redaction_analyzer, handle, stamp):
    text = f"{stamp} {handle}: quick one, why is the sky blue?\n{stamp} {handle}: thanks!"
    assert handle not in _out(redaction_analyzer, text), text


@given(prefix=st.sampled_from(["ci", "build", "deploy", "cron"]), suffix=st.sampled_from(["runner", "agent", "worker"]),
       sep=st.sampled_from(["_", "-", "."]), n=st.integers(0, 9))
def test_a_service_speaking_in_a_log_is_no_user_name(prefix, suffix, sep, n):
    assert not user_name_shaped(f"{prefix}{sep}{suffix}{n}")
    assert not user_name_shaped(f"nightly{sep}{suffix}{n}")
