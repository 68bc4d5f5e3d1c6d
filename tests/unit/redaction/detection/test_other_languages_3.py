"""Private values in other languages, third round (issue #29, ADR 0046): a private person's name in Han, kanji,
Hangul (two-syllable family names), Arabic, Devanagari, Thai, Greek and Cyrillic after a frame of the writer's own
life (a role, "I am", "sign as", "send to"), the writer's town after a frame of living, moving or origin in those
languages and Turkish, and Indonesian and Malay street addresses.

Generated families drawn apart from utility-tune-21.jsonl (the names, towns, streets and frames are this file's),
both sides: each class over frames, names and layouts -> found with the value's own span; the look-alikes (a role
after 저는 …입니다, a public figure with a two-syllable family name, a place after "send to", a town asked about, a
street named with no number, a year before a street) -> not found, and questions about public figures and places in
those languages reach the model unchanged."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.redaction.detection.test_private_value_classes_7 import _out
from ztgate.redaction.detection.names.context.cjk_names import CjkNameRecognizer
from ztgate.redaction.detection.names.context.kin_names import KinNameRecognizer
from ztgate.redaction.detection.names.context.person_towns import PersonTownRecognizer
from ztgate.redaction.detection.names.context.script_names import ScriptNameRecognizer
from ztgate.redaction.detection.names.context.self_introductions import SelfIntroductionRecognizer
from ztgate.redaction.detection.patterns.scanner import PatternScanner

FAST = settings(max_examples=30, deadline=None)
SCAN = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
CJK = CjkNameRecognizer()
SCRIPT = ScriptNameRecognizer()
KIN = KinNameRecognizer()
INTRO = SelfIntroductionRecognizer()
TOWNS = PersonTownRecognizer()


def _found(rule: object, text: str, kind: str = "PERSON") -> list[str]:
    text = unicodedata.normalize("NFKC", text)
    return [text[a:b] for a, b, k in rule.find(text) if k == kind]  # type: ignore[attr-defined]


def _joined(parts: str, lo: int = 1, hi: int = 2) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(parts.split()), min_size=lo, max_size=hi).map("".join)


# --- Chinese and Japanese names ------------------------------------------------------------------------------
ZH_NAMES = st.tuples(st.sampled_from(list("邓许潘袁罗梁宋彭") + ["司徒", "上官"]), _joined("志 雅 文 静 浩 婷 宇 欣 嘉 明")
                     ).map("".join)
ZH_FRAMES = ["我的导师{n}说下周回国。", "请把表格转发给{n}。", "我徒弟{n}很聪明。", "信的署名写{n}就好。", "落款：{n}",
             "我的主管{n}今天休假。", "把照片寄给{n}吧。"]


@FAST
@given(name=ZH_NAMES, frame=st.sampled_from(ZH_FRAMES))
def test_a_chinese_name_after_a_role_or_a_sign_or_send_frame_is_found(name, frame):
    assert name in _found(CJK, frame.format(n=name))


@FAST
@given(frame=st.sampled_from(["署名写清楚。", "请转发给我们。", "把文件寄给大家。", "落款：二〇二四年"]))
def test_a_sign_or_send_frame_before_no_surname_is_no_name(frame):
    assert _found(CJK, frame) == []


JA_FAMILY = st.sampled_from(["野々村", "佐々岡", "奈々瀬", "久々津", "小田切", "柳沢", "梅原"])
JA_GIVEN = st.sampled_from(["奈々", "健太", "美咲", "菜々子", "翔", "彩花"])
JA_FRAMES = ["先輩の{n}が留学します。", "恩師の{n}に会いました。", "手紙の最後は「{n}より」にしてください。",
             "担任の{n}に相談しました。"]


@FAST
@given(family=JA_FAMILY, given_name=JA_GIVEN, space=st.sampled_from([" ", "\u3000", ""]),
       frame=st.sampled_from(JA_FRAMES))
def test_a_japanese_name_with_its_iteration_mark_after_a_frame_is_found(family, given_name, space, frame):
    name = f"{family}{space}{given_name}"
    assert unicodedata.normalize("NFKC", name) in _found(CJK, frame.format(n=name))


# --- Korean names: two-syllable family names, 저는 …입니다, …에게 보내 --------------------------------------------
KO_COMPOUND = st.sampled_from(["남궁", "선우", "제갈", "독고", "황보"])
KO_GIVEN = st.tuples(st.sampled_from(list("서지민하도유수예")), st.sampled_from(list("연준윤아훈원빈진"))).map("".join)
KO_FRAMES = ["{n} 씨가 내일 와요.", "{n} 선생님께 여쭤보세요.", "안녕하세요, 저는 {n}입니다.", "답장은 {n}에게 보내 주세요.",
             "제 직장 동료인 {n} 씨를 소개합니다.", "담임 선생님이신 {n} 선생님이 추천하셨어요.", "{n}한테 메일 보내 줘."]


@FAST
@given(family=KO_COMPOUND, given_name=KO_GIVEN, frame=st.sampled_from(KO_FRAMES))
def test_a_korean_name_with_a_two_syllable_family_name_is_found(family, given_name, frame):
    name = family + given_name
    text = frame.format(n=name)
    assert name in _found(SCRIPT, text) + _found(CJK, text)


@FAST
@given(role=st.sampled_from(["한국인", "대학생", "공무원", "연구원", "변호사", "유학생", "회사원", "간호사"]))
def test_a_role_after_jeoneun_is_no_name(role):
    assert _found(SCRIPT, f"안녕하세요, 저는 {role}입니다.") == []


@pytest.mark.parametrize("text", ["제갈량은 어떤 인물인가요?", "남궁억 선생은 무엇을 했나요?", "선생님께 편지를 쓰고 싶어요.",
                                  "황보인은 조선의 재상이었나요?"])
def test_a_public_figure_or_a_title_in_korean_is_no_finding(text):
    assert _found(SCRIPT, text) + _found(CJK, text) == []


# --- Arabic names: roles, عبد compounds, sign-as and send-to -----------------------------------------------
AR_GIVEN = st.sampled_from(["سلمى", "فراس", "لينا", "مروان", "رغد", "باسل"])
AR_MIDDLE = st.sampled_from(["عبد الكريم", "عبد العزيز", "يوسف", "تامر", "خليل", "نبيل"])
AR_FAMILY = st.sampled_from(["الزعبي", "الشمري", "المصري", "الحسيني", "الدوسري"])
AR_FRAMES = ["معلمتي {n} تقول ذلك.", "أستاذي {n} نصحني.", "وقّعها باسم {n} من فضلك.", "أرسل الملف إلى {n} غداً.",
             "يرجى إرسال النتيجة إلى {n} على بريده."]


@FAST
@given(given_name=AR_GIVEN, middle=AR_MIDDLE, family=AR_FAMILY, frame=st.sampled_from(AR_FRAMES))
def test_an_arabic_three_part_name_after_a_frame_is_found_whole(given_name, middle, family, frame):
    name = f"{given_name} {middle} {family}"
    assert name in _found(SCRIPT, frame.format(n=name))


@pytest.mark.parametrize("text", ["أرسل الطرد إلى مدينة جدة.", "اكتب إلى الوزارة.", "بسم الله الرحمن الرحيم",
                                  "أريد أن أشرح لأخي مازن تاريخ الأهرامات."])
def test_an_arabic_send_frame_before_a_place_or_a_common_noun_finds_no_full_name(text):
    assert all(len(v.split()) <= 1 for v in _found(SCRIPT, text))


# --- Devanagari: मैं … हूँ and … को ईमेल with a family name; relations with three words ---------------------------
HI_GIVEN = st.sampled_from(["रोहित", "पल्लवी", "विकास", "नेहा", "अमित", "कविता"])
HI_FAMILY = st.sampled_from(["शर्मा", "त्रिपाठी", "अग्रवाल", "चौहान", "कुलकर्णी", "श्रीवास्तव"])


@FAST
@given(given_name=HI_GIVEN, family=HI_FAMILY,
       frame=st.sampled_from(["नमस्ते, मैं {n} हूँ।", "कृपया जवाब {n} को ईमेल करें।", "यह पत्र {n} को भेजना है।"]))
def test_a_hindi_name_ending_in_a_family_name_after_a_frame_is_found(given_name, family, frame):
    name = f"{given_name} {family}"
    assert unicodedata.normalize("NFKC", name) in _found(SCRIPT, frame.format(n=name))


@FAST
@given(word=st.sampled_from(["छात्र", "ठीक", "भारतीय", "तैयार", "डॉक्टर"]))
def test_a_role_or_a_state_after_main_is_no_name(word):
    assert _found(SCRIPT, f"मैं {word} हूँ।") == []


@FAST
@given(relation=st.sampled_from(["मेरे शिक्षक", "मेरी अध्यापिका", "मेरे बॉस", "मेरी भाभी"]), given_name=HI_GIVEN,
       middle=st.sampled_from(["कुमार", "प्रसाद", "चंद्र"]), family=HI_FAMILY)
def test_a_three_word_hindi_name_after_a_relation_is_found_whole(relation, given_name, middle, family):
    name = f"{given_name} {middle} {family}"
    assert unicodedata.normalize("NFKC", name) in _found(KIN, f"{relation} {name} ने यह बताया।")


# --- Thai, Greek and Cyrillic ----------------------------------------------------------------------------------
TH_GIVEN = st.sampled_from(["วรรณา", "ธีรพงษ์", "สุดารัตน์", "ปกรณ์"])
TH_FAMILY = st.sampled_from(["บุญมา", "แสงทอง", "วงศ์ใหญ่"])


@FAST
@given(relation=st.sampled_from(["เพื่อนร่วมงาน", "ภรรยา", "หัวหน้า", "น้องสาว"]),
       owner=st.sampled_from(["ของฉัน", "ของผม"]), title=st.sampled_from(["", "นางสาว", "นาย"]),
       given_name=TH_GIVEN, family=TH_FAMILY)
def test_a_thai_name_after_a_relation_and_its_possessive_is_found(relation, owner, title, given_name, family):
    text = f"{relation}{owner} {title}{given_name} {family} จะมาพรุ่งนี้"
    assert any(unicodedata.normalize("NFKC", f"{given_name} {family}") in v for v in _found(KIN, text))


@FAST
@given(owner=st.sampled_from(["ของฉัน", "ของผม"]), verb=st.sampled_from(["ไปเที่ยวทะเล", "จะมาพรุ่งนี้", "ทำงานหนัก"]))
def test_a_thai_relation_before_a_verb_is_no_name(owner, verb):
    assert _found(KIN, f"เพื่อน{owner} {verb}") == []


GREEK_NAMES = st.tuples(st.sampled_from(["Αντώνης", "Μαρίνα", "Θοδωρής"]), st.sampled_from(["Λαμπράκης", "Ζαχαρίου"]))
CYR_NAMES = st.tuples(st.sampled_from(["Олеся", "Тимур", "Вадим"]), st.sampled_from(["Петровна", "Ильич"]),
                      st.sampled_from(["Гончарова", "Белов"]))


@FAST
@given(name=GREEK_NAMES, frame=st.sampled_from(["Η δασκάλα μου η {n} είπε", "Ο καθηγητής μου ο {n} είπε",
                                                 "Είμαι η {n} και ρωτώ"]))
def test_a_greek_name_after_a_teacher_or_eimai_is_found(name, frame):
    full = " ".join(name)
    assert full in _found(KIN, frame.format(n=full)) + _found(INTRO, frame.format(n=full))


@FAST
@given(name=CYR_NAMES, relation=st.sampled_from(["Моя учительница", "Мой научный руководитель", "Мій викладач"]))
def test_a_cyrillic_name_with_a_patronymic_after_a_teacher_is_found_whole(name, relation):
    full = " ".join(name)
    assert full in _found(KIN, f"{relation} {full} посоветовал(а) это.")


@FAST
@given(name=CYR_NAMES)
def test_russian_ya_takes_two_capitalised_words_and_no_single_one(name):
    assert f"{name[0]} {name[2]}" in _found(INTRO, f"Здравствуйте, я {name[0]} {name[2]}, учитель.")
    assert _found(INTRO, f"Честно, я {name[2]} не знаю.") == []


# --- the writer's own town -------------------------------------------------------------------------------------
TOWN_FRAMES = [
    ("我去年搬到了{t}，", _joined("华 安 平 宁 丰 阳 溪", 2, 2), "{t}的历史有多久？"),
    ("我老家在{t}。", _joined("华 安 平 宁 丰 阳 溪", 2, 2), "{t}的历史有多久？"),
    ("昨年{t}に引っ越しました。", _joined("津 沢 岡 原 野 瀬", 2, 2), "{t}の歴史を教えてください。"),
    ("実家は{t}です。", _joined("津 沢 岡 原 野 瀬", 2, 2), "{t}の歴史を教えてください。"),
    ("저는 {t}에 살고 있어요.", _joined("양 천 주 산 진 포", 2, 2), "{t}의 인구는 얼마인가요?"),
    ("우리 가족은 {t} 출신이에요.", _joined("양 천 주 산 진 포", 2, 2), "{t}의 인구는 얼마인가요?"),
    ("मैं {t} में रहती हूँ।", _joined("रा म पु र गढ़ ना", 2, 3), "{t} का इतिहास क्या है?"),
    ("मेरा परिवार {t} से है।", _joined("रा म पु र गढ़ ना", 2, 3), "{t} का इतिहास क्या है?"),
    ("ฉันอาศัยอยู่ที่อำเภอ{t} ", _joined("บาง นา สม ทอง ละ", 2, 3), "{t}มีประชากรเท่าไร"),
    ("Μένω στη {t} με τα παιδιά.", _joined("λα ρι σα κο νη", 2, 3).map(str.capitalize), "Ποια είναι η ιστορία της {t};"),
    ("Κατάγομαι από τη {t}.", _joined("λα ρι σα κο νη", 2, 3).map(str.capitalize), "Ποια είναι η ιστορία της {t};"),
    ("Geçen yıl {t}'a taşındık.", _joined("ka ra su lu ta", 2, 3).map(str.capitalize), "{t}'ın tarihi nedir?"),
    ("Ailem {t}'tan, ben de orada büyüdüm.", _joined("ka ra su lu ta", 2, 3).map(str.capitalize), "{t}'ın tarihi nedir?"),
    ("انتقلت عائلتي إلى {t} قبل سنة.", _joined("سر حا مو نة", 2, 3), "ما تاريخ {t}؟"),
    ("Моя семья из {t}, а я живу тут.", _joined("ве ри га ло ны", 2, 3).map(str.capitalize), "Какова история {t}?"),
]


@FAST
@given(data=st.data(), case=st.sampled_from(TOWN_FRAMES))
def test_the_writers_town_after_a_frame_is_found_and_the_same_town_asked_about_is_not(data, case):
    frame, towns, topic = case
    town = data.draw(towns)
    rule = SCRIPT if "عائلتي" in frame else TOWNS
    assert unicodedata.normalize("NFKC", town) in _found(rule, frame.format(t=town), "LOCATION")
    assert _found(rule, topic.format(t=town), "LOCATION") == []


# --- Indonesian and Malay street addresses ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def scanner(hs_cache_dir: Path) -> PatternScanner:
    return PatternScanner(cache_dir=hs_cache_dir)


def _values(scanner: PatternScanner, text: str) -> list[str]:
    return [text[d.start:d.end] for d in scanner.scan(text) if d.recognizer.startswith("street_address_")]


STREET_WORDS = st.lists(st.sampled_from(["Cendana", "Pahlawan", "Raya", "Merpati", "Damai", "Indah", "II"]),
                        min_size=1, max_size=3).map(" ".join)


@SCAN
@given(kind=st.sampled_from(["Jl.", "Jln.", "Jalan", "Gg.", "Gang"]), street=STREET_WORDS, number=st.integers(1, 250),
       letter=st.sampled_from(["", "A", "C"]), tail=st.sampled_from(["", ", RT 02/RW 11", ", Kel. Sukamaju",
                                                                     ", Kec. Cibeunying"]))
def test_an_indonesian_street_with_its_number_is_found(scanner, kind, street, number, letter, tail):
    value = f"{kind} {street} No. {number}{letter}{tail}"
    assert value in _values(scanner, f"Kirim ke {value}, Bandung. Terima kasih.")
    assert _values(scanner, f"Apa sejarah {kind} {street} di Bandung?") == []


@SCAN
@given(number=st.integers(1, 250), kind=st.sampled_from(["Jalan", "Lorong", "Persiaran"]), street=STREET_WORDS,
       estate=st.sampled_from(["", ", Taman Sri Muda", ", Taman Desa"]))
def test_a_malay_street_number_first_is_found_and_a_year_is_not(scanner, number, kind, street, estate):
    value = f"No. {number}, {kind} {street} 4{estate}"
    assert value in _values(scanner, f"Sila hantar ke {value}, Shah Alam.")
    assert _values(scanner, f"Pada 2019, {kind} {street} ditutup.") == []


# --- end to end: public figures and places asked about in these languages are kept --------------------------------
@pytest.mark.parametrize("text", ["诸葛亮是谁？", "제갈량은 어떤 인물인가요?", "부산의 인구는 얼마인가요?", "कानपुर का इतिहास क्या है?",
                                  "من هو عبد الرحمن الداخل؟", "Πού βρίσκεται η Θεσσαλονίκη;",
                                  "วัดพระแก้วสร้างขึ้นเมื่อใด"])
def test_a_public_figure_or_place_asked_about_is_kept(redaction_analyzer, text):
    assert _out(redaction_analyzer, text) == text
