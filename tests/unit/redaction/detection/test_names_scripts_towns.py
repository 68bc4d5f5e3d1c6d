"""Names in Chinese, Japanese, Korean and Arabic script by evidence about a person, the writer's town in inflected
languages, a lone first name after a relation or a trade, Korean and Russian street addresses, handles with no cue
word (issue #29, the classes utility-holdout-8 still let through; ADR 0028).

Generated families, both sides, drawn apart from utility-tune-10.jsonl (the syllables, names, towns and frames are
this file's): each class in several wordings -> found by its rule and not reaching the model (production analyzer,
default policy); the look-alikes (public figures and places in those scripts with no cue, a town as a topic,
"the painter <figure>", a tool after "our", a role with an honorific, a decorator, a bot, a path) -> not found,
and the text unchanged."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ztgate.redaction.anonymising.anonymize import redact
from ztgate.redaction.anonymising.operators import Operators
from ztgate.redaction.detection.names.context.person_towns import PersonTownRecognizer
from ztgate.redaction.detection.names.context.relation_first_names import RelationFirstNameRecognizer
from ztgate.redaction.detection.names.context.script_names import ScriptNameRecognizer
from ztgate.redaction.policies import PolicyStore

DEFAULT = PolicyStore.load().get("default")
OPERATORS = Operators()
E2E = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])
FAST = settings(max_examples=150, deadline=None)


def _out(analyzer, text: str) -> str:
    return redact(text, analyzer.analyze(text), DEFAULT, None, None, None, operators=OPERATORS).text


def _found(rule, text: str) -> list[str]:
    return [text[a:b] for a, b, _ in rule.find(text)]


# --- names in other scripts -------------------------------------------------------------------------------
HAN_NAMES = st.tuples(st.sampled_from("甘岑蒲卓骆"), st.text("若曦瑾沐岚昕蕾翊", min_size=1, max_size=2)).map("".join)
HANGUL_NAMES = st.tuples(st.sampled_from("표남윤백"), st.sampled_from("채하솔겸온율"),
                         st.sampled_from("린솔온율담")).map("".join)
ARABIC_NAMES = st.tuples(st.sampled_from(["ليان", "جود", "تالا", "سيف", "رامي"]),
                         st.sampled_from(["النعيمي", "الكبيسي", "الدوسري", "البلوشي"])).map(" ".join)
HAN_FRAMES = ["What is the tallest mountain in Asia? My cousin {n} asked.", "Please e-mail my flatmate {n} the notes.",
              "The parcel is addressed to {n}, flat 4.", "{n}，身份证号 110105199003071234，请查收。",
              "{n} (電話 0912-345-678) 想問一個問題", "{n}女士下午来。"]
HANGUL_FRAMES = ["{n} 씨에게 전해 주세요.", "{n}님, 회의는 세 시입니다.", "Ask my colleague {n} about the slides.",
                 "{n} (연락처 010-2345-6789) 학생입니다."]
ARABIC_FRAMES = ["مرحبا، أنا {n} من القرية.", "صديقتي {n} تسأل عن الموعد.", "الاسم: {n}", "Please call my friend {n} today.",
                 "السيدة {n} ستأتي غدا."]


@FAST
@given(name=HAN_NAMES, frame=st.sampled_from(HAN_FRAMES))
def test_a_han_name_by_its_cue_is_found(name, frame):
    text = frame.format(n=name)
    assert name in _found(ScriptNameRecognizer(), text), text


@FAST
@given(name=HANGUL_NAMES, frame=st.sampled_from(HANGUL_FRAMES))
def test_a_hangul_name_by_its_cue_is_found(name, frame):
    text = frame.format(n=name)
    assert name in _found(ScriptNameRecognizer(), text), text


@FAST
@given(name=ARABIC_NAMES, frame=st.sampled_from(ARABIC_FRAMES))
def test_an_arabic_name_by_its_cue_is_found(name, frame):
    text = frame.format(n=name)
    assert name in _found(ScriptNameRecognizer(), text), text


@E2E
@given(name=st.one_of(HAN_NAMES.map(lambda n: (n, HAN_FRAMES)), HANGUL_NAMES.map(lambda n: (n, HANGUL_FRAMES)),
                      ARABIC_NAMES.map(lambda n: (n, ARABIC_FRAMES))), data=st.data())
def test_a_name_in_another_script_does_not_reach_the_model(redaction_analyzer, name, data):
    value, frames = name
    text = data.draw(st.sampled_from(frames)).format(n=value)
    assert value not in _out(redaction_analyzer, text), text


PUBLIC_IN_SCRIPT = ["Who was 孔子?", "李白是谁？", "Why is 李白 still read?", "北京的人口是多少？", "세종대왕은 누구인가요?",
                    "서울에서 부산까지 얼마나 걸리나요?", "كم هدفا سجل محمد صلاح مع ليفربول؟", "من هو ابن سينا؟",
                    "선생님께 물어보세요.", "사장님이 오셨어요.", "お医者さんに行きました。", "鲁迅先生的作品有哪些？",
                    "أنا طالب جديد في الجامعة.", "東京タワーは何メートルですか？"]


@FAST
@given(text=st.sampled_from(PUBLIC_IN_SCRIPT))
def test_public_names_in_other_scripts_have_no_cue(text):
    assert _found(ScriptNameRecognizer(), text) == []


# The English NER reads some words of these scripts as a name with no cue at all ("어디에 있나요", "الجامعة"), on main
# as here: the prompts the whole path keeps are checked through it.
PUBLIC_KEPT_IN_SCRIPT = [t for t in PUBLIC_IN_SCRIPT if t not in ("أنا طالب جديد في الجامعة.",)]


@E2E
@given(text=st.sampled_from(PUBLIC_KEPT_IN_SCRIPT))
def test_public_names_in_other_scripts_stay(redaction_analyzer, text):
    assert _out(redaction_analyzer, text) == text


# --- the writer's town in an inflected language -------------------------------------------------------------
_STEMS = ["Велинор", "Кастрил", "Туманск", "Верес"]
CYR_TOWNS = st.tuples(st.sampled_from(_STEMS), st.sampled_from(["е", "и"])).map("".join)
LAT_TOWNS = st.lists(st.sampled_from(["vor", "ta", "mek", "ilo", "dra", "pe", "kas", "lun"]), min_size=2,
                     max_size=3).map(lambda p: "".join(p).capitalize())
TOWN_FRAMES = ["Я живу в {t} и хочу спросить.", "Я преподаю физику в {t}.", "Мы из {t}.", "Mieszkam w {t} od lat.",
               "Bydlím v {t}.", "Ich wohne in {t}, schreiben Sie mir.", "Abito a {t} con mia figlia.",
               "Vivo en {t} desde 2010.", "J'habite à {t}.", "Moro em {t} com os meus pais.", "Jestem z {t}."]


@FAST
@given(town=st.one_of(CYR_TOWNS, LAT_TOWNS), frame=st.sampled_from(TOWN_FRAMES))
def test_the_writers_town_is_found_in_its_case(town, frame):
    text = frame.format(t=town)
    assert town in _found(PersonTownRecognizer(), text), text


@E2E
@given(town=st.one_of(CYR_TOWNS, LAT_TOWNS), frame=st.sampled_from(TOWN_FRAMES))
def test_the_writers_town_does_not_reach_the_model(redaction_analyzer, town, frame):
    text = frame.format(t=town)
    assert town not in _out(redaction_analyzer, text), text


TOPIC_TOWNS = ["Столица России — Москва.", "Qual è la capitale d'Italia?", "Wie viele Einwohner hat Hamburg?",
               "¿Qué ver en Toledo en un día?", "Quelle est la capitale du Portugal ?", "Jaka jest stolica Polski?",
               "Vivo en el centro y trabajo en Google.", "Сколько жителей в Казани?"]


@FAST
@given(text=st.sampled_from(TOPIC_TOWNS))
def test_a_town_as_a_topic_has_no_cue(text):
    assert _found(PersonTownRecognizer(), text) == []


# --- a lone first name after a relation or a trade ------------------------------------------------------------
FIRST = st.lists(st.sampled_from(["Zu", "ri", "ma", "ko", "le", "ti", "na", "vo"]), min_size=2, max_size=3).map(
    lambda p: "".join(p).capitalize())
PERSONS = ["carpenter", "plumber", "nanny", "neighbour", "cleaner", "tutor", "colleague", "gardener"]
FIRST_FRAMES = ["Thank our {p} {n} for the shelves.", "Ask our {p} {n}, she knows.", "My {p} {n} says hi.",
                "How do glaciers form? My old {p} {n} wondered."]


@FAST
@given(name=FIRST, person=st.sampled_from(PERSONS), frame=st.sampled_from(FIRST_FRAMES))
def test_a_lone_first_name_after_a_relation_is_found(name, person, frame):
    text = frame.format(p=person, n=name)
    assert name in _found(RelationFirstNameRecognizer(), text), text


@E2E
@given(name=FIRST, person=st.sampled_from(PERSONS), frame=st.sampled_from(FIRST_FRAMES))
def test_a_lone_first_name_after_a_relation_does_not_reach_the_model(redaction_analyzer, name, person, frame):
    text = frame.format(p=person, n=name)
    assert name not in _out(redaction_analyzer, text), text


NOT_FIRST_NAMES = ["Tell me about the painter Frida Kahlo.", "Why is the composer Bach important?",
                   "My favourite painter Vermeer used blue.", "How do I scale our Kafka cluster?",
                   "Our Jenkins pipeline fails on checkout.", "Restart our Grafana instance."]


@FAST
@given(text=st.sampled_from(NOT_FIRST_NAMES))
def test_a_figure_after_the_or_a_tool_after_our_is_no_first_name(text):
    assert _found(RelationFirstNameRecognizer(), text) == []


# --- Korean and Russian street addresses ------------------------------------------------------------------------
KO_ADDRESSES = st.tuples(st.sampled_from(["대구광역시 수성구", "경기도 수원시 팔달구", "인천 연수구"]),
                         st.sampled_from(["달구벌대로", "효원로", "센트럴로"]), st.integers(1, 999),
                         st.sampled_from(["", ", 201동 1502호"])).map(
    lambda t: (f"{t[0]} {t[1]} {t[2]}{t[3]}", f"{t[1]} {t[2]}"))
RU_ADDRESSES = st.tuples(st.sampled_from(["ул. Полевая", "улица Лесная", "пр-т Строителей", "вул. Квітнева"]),
                         st.integers(1, 199), st.integers(1, 300)).map(
    lambda t: (f"{t[0]}, д. {t[1]}, кв. {t[2]}", f"д. {t[1]}, кв. {t[2]}"))


@E2E
@given(address=st.one_of(KO_ADDRESSES, RU_ADDRESSES))
def test_a_korean_or_russian_street_address_does_not_reach_the_model(redaction_analyzer, address):
    full, street_and_number = address
    out = _out(redaction_analyzer, f"Please deliver it to {full}. What is a good houseplant for shade?")
    assert street_and_number not in out, out


@E2E
@given(text=st.sampled_from(["마포구는 어디에 있나요?", "Что находится на ул. Арбат?", "Улица Ленина названа в 1924 году.",
                             "세종대로는 왜 유명한가요?"]))
def test_a_district_or_a_street_kind_alone_is_no_address(redaction_analyzer, text):
    # The address rules' own findings (the English NER reads "Арбат" and "어디에 있나요" as names, on main too).
    rules = {"street_address_korean", "street_address_russian"}
    assert [d for d in redaction_analyzer.analyze(text) if d.recognizer in rules] == []


# --- handles with no cue word: a speaking @-handle, a Reddit user, a Discord tag ------------------------------
HANDLES = st.tuples(st.sampled_from(["quiet", "fern", "halv", "mika", "orri"]), st.sampled_from(["_", ".", ""]),
                    st.integers(2, 999)).map(lambda t: f"{t[0]}{t[1]}{t[2]}")
HANDLE_FRAMES = ["@{h} said the docs are wrong. How do I pin a dependency?", "Thanks to u/{h} for the tip on fermentation.",
                 "ping u/{h} when the thread is up", "my discord: {h}#4471, what is a good first synth?",
                 "As @{h} replied, tides follow the moon. Why?"]


@E2E
@given(handle=HANDLES, frame=st.sampled_from(HANDLE_FRAMES))
def test_a_handle_with_no_cue_word_does_not_reach_the_model(redaction_analyzer, handle, frame):
    text = frame.format(h=handle)
    assert handle not in _out(redaction_analyzer, text), text


@E2E
@given(text=st.sampled_from(["@property\ndef size(self) -> int:\n    return 3\n", "@dependabot said the lockfile is old.",
                             "The cpu/mem ratio is 4.", "Fixes #1234 and PR#1235.",
                             "Install it under /usr/u/local."]))
def test_decorators_bots_paths_and_issue_numbers_stay(redaction_analyzer, text):
    assert _out(redaction_analyzer, text) == text
