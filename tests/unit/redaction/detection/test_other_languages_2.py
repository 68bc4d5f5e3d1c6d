"""Private values in other languages, second round (issue #29, ADR 0039): a relative or a friend named in the
language itself after a relation word in any inflection, a Korean vocative, a Japanese name with its kana reading,
a name or a town alone on a contact block's line or after a form's label in a script the English model does not
read, a village's address with no house number.

Generated families drawn apart from utility-tune-15.jsonl (the syllables, names, relations' forms, frames and
numbers are this file's), both sides: each class over languages, inflections, scripts and layouts -> found with the
value's own span; the look-alikes (a relation before a lower-case word, a title holding a relation word, a German
noun after a relation, a reading in a textbook sentence, a lone line with no contact evidence, an adjective with a
vocative's ending, an address label before a phrase) -> not found."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from ztgate.redaction.detection.names.context.address_labels import AddressLabelRecognizer
from ztgate.redaction.detection.names.context.cjk_names import ko_vocatives
from ztgate.redaction.detection.names.context.contact_lines import ContactLineRecognizer
from ztgate.redaction.detection.names.context.kana_readings import KanaReadingRecognizer
from ztgate.redaction.detection.names.context.kin_names import KinNameRecognizer

FAST = settings(max_examples=40, deadline=None)
KIN = KinNameRecognizer()
KANA = KanaReadingRecognizer()
CONTACT = ContactLineRecognizer()


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _found(rule: KinNameRecognizer | KanaReadingRecognizer | ContactLineRecognizer, text: str) -> list[str]:
    text = _nfkc(text)
    return [text[a:b] for a, b, _ in rule.find(text)]


def _word(parts: str) -> st.SearchStrategy[str]:
    """A capitalised name word of two or three syllables drawn from a script's syllables."""
    syllables = parts.split()
    return st.lists(st.sampled_from(syllables), min_size=2, max_size=3).map(lambda p: "".join(p).capitalize())


CYRILLIC = _word("ла ми ро ва ся ни ко та ре ша ле")
LATIN = _word("ma ri lo ne ta sa vi ko le da")
GREEK = _word("λε ο νι κα ρα μι στα θη πο")
DEVANAGARI = st.lists(st.sampled_from("सु नी ता रा मे श वि का जय अनु".split()), min_size=2, max_size=3).map("".join)

# Relations in an inflected form after a possessive or a preposition that governs it, per language: (before the
# name, a name strategy, a sentence's continuation).
CASED_KIN = [
    ("Вчера я говорил с моим братишкой", CYRILLIC, " о школе."),
    ("Подарок для моей бабушки", CYRILLIC, " уже готов."),
    ("У сестрёнки", CYRILLIC, " завтра экзамен."),
    ("Мы с подружкой", CYRILLIC, " идём в кино."),
    ("Моя племянница", CYRILLIC, " спрашивает про Луну."),
    ("Я написав моєму синочку", CYRILLIC, " листа."),
    ("Разом із дружиною", CYRILLIC, " ми їдемо до Львова."),
    ("Моята сестра", CYRILLIC, " учи в Пловдив."),
    ("Spotkałam się z moją przyjaciółką", LATIN, " w parku."),
    ("Moja córeczka", LATIN, " pyta o dinozaury."),
    ("Můj synovec", LATIN, " chce vědět, proč."),
    ("Mi prima", LATIN, " vive en Granada."),
    ("Ma cousine", LATIN, " adore la peinture."),
    ("Mia nipote", LATIN, " studia a Bologna."),
    ("A minha avó", LATIN, " faz anos amanhã."),
    ("Mijn buurvrouw", LATIN, " vroeg het me."),
    ("Min kusin", LATIN, " undrar varför."),
    ("Ο ανιψιός μου ο", GREEK, " ρωτάει συνέχεια."),
    ("Η κόρη μας η", GREEK, " πάει σχολείο."),
]


@FAST
@given(case=st.sampled_from(CASED_KIN), data=st.data())
def test_a_relative_after_an_inflected_relation_word_is_found(case, data):
    before, names, after = case
    name = data.draw(names)
    assert _found(KIN, f"{before} {name}{after}") == [_nfkc(name)]


@FAST
@given(relation=st.sampled_from(["meiner Schwester", "meinem Sohn", "unsere Tochter", "mein Onkel"]),
       name=st.sampled_from(["Lene", "Jonas", "Greta", "Matthias", "Henrike", "Karla"]),
       noun=st.sampled_from(["Mathematik", "Geld", "Bescheid", "Blumen", "Deutsch", "Zeit"]))
def test_german_reads_a_given_name_after_a_relation_and_no_noun(relation, name, noun):
    assert _found(KIN, f"Ich will {relation} {name} helfen.") == [name]
    assert _found(KIN, f"Ich will {relation} {noun} geben.") == []


@FAST
@given(possessive=st.sampled_from(["मेरी", "मेरे", "हमारी", "मेरा"]),
       relation=st.sampled_from(["बहन", "भाई", "बेटी", "दोस्त", "सहेली", "छोटी बहन", "बड़े भाई"]),
       given_name=DEVANAGARI, family=st.one_of(st.none(), DEVANAGARI),
       after=st.sampled_from(["को", "ने", "से", "का"]))
def test_a_devanagari_name_after_a_relation_ends_at_its_postposition(possessive, relation, given_name, family,
                                                                      after):
    name = given_name if family is None else f"{given_name} {family}"
    assert _found(KIN, f"{possessive} {relation} {name} {after} किताब चाहिए।") == [_nfkc(name)]


@FAST
@given(case=st.sampled_from([
    "Мой брат по оружию погиб на фронте.",  # a lower-case word after the relation
    "О чём роман «Братья Карамазовы» Достоевского?",  # a title: no possessive before the relation
    "Кто такая Сестра Керри в романе Драйзера?",
    "Wann lebten die Brüder Grimm?",
    "Mój brat jest starszy ode mnie.",
    "मेरी बहन बहुत खुश है।",  # an adverb after the relation
    "मेरे भाई को किताब चाहिए।",  # a postposition after the relation
    "Η κόρη του Δία ήταν η Αθηνά.",  # a relation without "my"
]))
def test_a_relation_word_without_a_name_after_its_possessive_is_not_found(case):
    assert _found(KIN, case) == []


HAN = st.lists(st.sampled_from("森川高畑佐藤健太咲良千尋悠真美和田中彩花"), min_size=1, max_size=2).map("".join)
READINGS = st.lists(st.sampled_from("さくらちひろはなこゆうまあやか"), min_size=2, max_size=4).map("".join)


@FAST
@given(family=HAN, given_name=HAN, reading_family=READINGS, reading_given=READINGS,
       frame=st.sampled_from(["はじめまして、{n}です。", "{n}と申します。", "私は{n}です。", "氏名：{n}",
                              "お名前: {n}\n電話: 03-5555-0101"]),
       brackets=st.sampled_from([("（", "）"), ("(", ")")]))
def test_a_name_and_its_kana_reading_are_found_where_the_writer_gives_them(family, given_name, reading_family,
                                                                          reading_given, frame, brackets):
    name, reading = f"{family} {given_name}", f"{reading_family} {reading_given}"
    text = frame.format(n=f"{name}{brackets[0]}{reading}{brackets[1]}")
    assert _found(KANA, text) == [name, reading]


@FAST
@given(family=HAN, given_name=HAN, reading=READINGS,
       frame=st.sampled_from(["{n}の代表作を教えてください。", "{n}は何年に生まれましたか？", "教科書に{n}が出てきます。"]))
def test_a_reading_in_a_sentence_about_a_public_figure_is_not_found(family, given_name, reading, frame):
    assert _found(KANA, frame.format(n=f"{family}{given_name}（{reading} {reading}）")) == []


SCRIPT_NAMES = st.one_of(
    st.tuples(CYRILLIC, CYRILLIC).map(" ".join),
    st.tuples(GREEK, GREEK).map(" ".join),
    st.lists(st.sampled_from("邵可欣王志明林雅婷"), min_size=3, max_size=3).map("".join),
    st.sampled_from(["윤채원", "박지훈", "한서연", "정민호"]),
    st.tuples(DEVANAGARI, DEVANAGARI).map(" ".join),
    st.sampled_from(["ريم الشمري", "سامي العتيبي", "هدى الكعبي"]),
    st.sampled_from(["สุนิสา แก้วประเสริฐ", "ธนพล ศรีสุข"]),
)
PHONES = st.tuples(st.integers(900, 999), st.integers(100, 999), st.integers(1000, 9999)).map(
    lambda p: f"+{p[0] % 90 + 7} {p[0]} {p[1]}-{p[2]}")
EVIDENCE = st.one_of(PHONES, PHONES.map(lambda p: f"Тел.: {p}"), PHONES.map(lambda p: f"手机：{p}"),
                     st.just("〒980-0811 仙台市青葉区一番町2-7-14"), PHONES.map(lambda p: f"मोबाइल: {p}"))


@FAST
@given(name=SCRIPT_NAMES, evidence=EVIDENCE, name_first=st.booleans(),
       signing=st.sampled_from(["", " 드림", "-- "]), closing=st.sampled_from(["", "С уважением,\n", "此致\n"]))
def test_a_name_alone_on_a_contact_blocks_line_is_found(name, evidence, name_first, signing, closing):
    line = f"-- {name}" if signing == "-- " else f"{name}{signing}"
    block = f"{line}\n{evidence}" if name_first else f"{evidence}\n{line}"
    text = f"Ответьте, пожалуйста, на вопрос выше.\n\n{closing}{block}"
    assert _nfkc(name) in _found(CONTACT, text)


@FAST
@given(name=SCRIPT_NAMES, heading=st.sampled_from(["Прокомментируй эти строки:", "请解释这首诗：", "이 시를 설명해 줘:"]))
def test_a_lone_line_with_no_contact_evidence_in_its_block_is_not_found(name, heading):
    text = f"{heading}\nЯ помню чудное мгновенье\n{name}"
    assert _found(CONTACT, text) == []


@FAST
@given(label=st.sampled_from(["आवेदक", "नाम", "ชื่อ", "Ονοματεπώνυμο", "שם מלא"]), name=SCRIPT_NAMES)
def test_a_name_after_a_forms_name_label_is_found(label, name):
    assert _found(CONTACT, f"Анкета\n{label}: {name}\nВопрос: что такое СНГ?") == [_nfkc(name)]


@FAST
@given(town=CYRILLIC, cue=st.sampled_from(["г. ", "город ", "с. "]), phone=PHONES)
def test_a_town_in_a_contact_block_is_found(town, cue, phone):
    assert _nfkc(town) in _found(CONTACT, f"Вопрос выше.\n\nОльга Ветрова\n{cue}{town}\n{phone}")


@FAST
@given(street=st.sampled_from(["临园路东段", "中山路", "解放大街", "南锣鼓巷"]), number=st.integers(1, 999),
       phone=PHONES)
def test_a_chinese_street_and_number_in_a_contact_block_is_found(street, number, phone):
    address = f"绵阳市涪城区{street}{number}号"
    assert address in _found(CONTACT, f"请问故宫几点开门？\n\n王志明\n{phone}\n{address}")


@FAST
@given(stem=st.sampled_from(["서윤", "지민", "민준", "하은", "도현", "수빈", "예준", "지호", "유나", "시우"]),
       tail=st.sampled_from([", 같이 하자", "! 밥 먹자", ", 생일 축하해"]), quote=st.sampled_from(["", "\"", "“"]))
def test_a_korean_given_name_before_its_vocative_ending_is_found(stem, tail, quote):
    final = (ord(stem[-1]) - 0xAC00) % 28 != 0
    text = f"엄마가 말했다. {quote}{stem}{'아' if final else '야'}{tail}"
    assert [text[a:b] for a, b, _ in ko_vocatives(text)] == [stem]
    wrong = f"엄마가 말했다. {quote}{stem}{'야' if final else '아'}{tail}"
    assert ko_vocatives(wrong) == []


@FAST
@given(word=st.sampled_from(["아니야", "괜찮아", "진짜야", "그래야", "친구야", "엄마야"]),
       tail=st.sampled_from([", 괜찮아", "! 정말", ", 알았어"]))
def test_words_with_a_vocatives_ending_are_not_names(word, tail):
    assert ko_vocatives(f"그는 말했다. {word}{tail}") == []


@FAST
@given(label=st.sampled_from(["पता", "Адрес", "العنوان", "ที่อยู่"]),
       parts=st.lists(st.sampled_from(["ग्राम पिपरिया", "ज़िला होशंगाबाद", "село Лесное", "Тверская область",
                                       "قرية الجبعة", "อำเภอแม่ริม"]), min_size=2, max_size=3, unique=True))
def test_a_village_address_with_no_house_number_is_found(label, parts):
    value = ", ".join(parts)
    text = _nfkc(f"{label}: {value}\nСпасибо")
    assert [text[a:b] for a, b, _ in AddressLabelRecognizer().find(text)] == [_nfkc(value)]


@FAST
@given(label=st.sampled_from(["पता", "Адрес", "العنوان"]),
       value=st.sampled_from(["не знаю", "नहीं पता", "لا أعرف", "спросите у соседа"]))
def test_an_address_label_before_one_phrase_is_not_found(label, value):
    text = _nfkc(f"{label}: {value}")
    assert AddressLabelRecognizer().find(text) == []
