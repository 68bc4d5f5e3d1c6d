"""Cue tables of languages other than English, one table a concept, read by the rules that own the concept:
the frames of a self-introduction (``self_introductions``), the labels of a postal address (``address_labels``)
and the reference labels of Japanese, Chinese and Korean (``person_identifiers``). Birth-date labels are the
pattern rules' context words (rules/pii.yaml, ``birth_context``) and national identifiers' labels their own
country's rule (rules/national_ids.yaml): each concept keeps one owner.

spaCy's English model reads none of these languages: a name or a value there is found by the words a writer puts
before it, the same few in every prompt of a language ("Меня зовут", "Ich heiße", "मेरा नाम", "ผมชื่อ", "Адрес:",
"予約番号"). Written by hand for ztgate from general knowledge of the languages; no external source."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal


def nfkc(words: tuple[str, ...]) -> tuple[str, ...]:
    """The cues as the analyzer's text spells them (its NFKC view, normalise.py: Thai "ำ" is two code points
    there), so a table is written as people type it and read as the rules see it."""
    return tuple(unicodedata.normalize("NFKC", w) for w in words)

# How a script marks a name: capitals (Latin, Cyrillic, Greek), words without capitals split by spaces
# (Hebrew, Devanagari), or no spaces between words at all (Thai: a name's parts are split by one space).
Script = Literal["cased", "uncased", "thai"]


@dataclass(frozen=True, slots=True)
class Introduction:
    """A language's self-introduction: the frames before the name (regular expressions, matched ignoring case),
    the script's way of marking a name, and the words that end a name where no punctuation does (a copula
    after the name, "है"; a pronoun that is no name, "Sie" in "Ich heiße Sie willkommen")."""

    language: str
    frames: tuple[str, ...]
    script: Script
    stops: frozenset[str] = frozenset()


INTRODUCTIONS: tuple[Introduction, ...] = (
    Introduction("ru", (r"меня[ \t]+зовут", r"моё[ \t]+имя", r"мое[ \t]+имя", r"моя[ \t]+фамилия"), "cased"),
    Introduction("uk", (r"мене[ \t]+звати", r"моє[ \t]+ім['’]я", r"моє[ \t]+прізвище"), "cased"),
    Introduction("bg", (r"казвам[ \t]+се", r"името[ \t]+ми[ \t]+е", r"аз[ \t]+се[ \t]+казвам"), "cased"),
    Introduction("el", (r"με[ \t]+λένε", r"ονομάζομαι", r"λέγομαι", r"το[ \t]+όνομά[ \t]+μου[ \t]+είναι"), "cased"),
    Introduction("de", (r"ich[ \t]+heiße", r"ich[ \t]+heisse", r"mein[ \t]+name[ \t]+ist"), "cased",
                 frozenset({"Sie", "Ihnen", "Dich", "Euch", "Ihr", "Du"})),
    Introduction("sv", (r"jag[ \t]+heter", r"mitt[ \t]+namn[ \t]+är"), "cased"),
    Introduction("no", (r"jeg[ \t]+heter", r"mitt[ \t]+navn[ \t]+er"), "cased"),
    Introduction("da", (r"jeg[ \t]+hedder", r"mit[ \t]+navn[ \t]+er"), "cased"),
    Introduction("nl", (r"ik[ \t]+heet", r"mijn[ \t]+naam[ \t]+is"), "cased"),
    Introduction("fi", (r"nimeni[ \t]+on", r"minun[ \t]+nimeni[ \t]+on"), "cased"),
    Introduction("es", (r"me[ \t]+llamo", r"mi[ \t]+nombre[ \t]+es"), "cased"),
    Introduction("pt", (r"chamo-me", r"me[ \t]+chamo", r"(?:o[ \t]+)?meu[ \t]+nome[ \t]+é"), "cased"),
    Introduction("it", (r"mi[ \t]+chiamo", r"il[ \t]+mio[ \t]+nome[ \t]+è"), "cased"),
    Introduction("fr", (r"je[ \t]+m['’]appelle", r"mon[ \t]+nom[ \t]+est"), "cased"),
    Introduction("pl", (r"nazywam[ \t]+się", r"mam[ \t]+na[ \t]+imię", r"moje[ \t]+imię[ \t]+to"), "cased"),
    Introduction("cs", (r"jmenuji[ \t]+se", r"jmenuju[ \t]+se"), "cased"),
    Introduction("tr", (r"benim[ \t]+adım", r"benim[ \t]+ismim", r"ismim"), "cased"),
    Introduction("hi", (r"मेरा[ \t]+नाम", r"मेरा[ \t]+शुभ[ \t]+नाम"), "uncased",
                 frozenset({"है", "हैं", "हूँ", "हूं", "और", "तथा", "मैं", "से", "में", "का", "की", "के", "क्या", "कैसे",
                            "नहीं", "भी", "तो"})),
    Introduction("he", (r"שמי", r"קוראים[ \t]+לי", r"השם[ \t]+שלי[ \t]+הוא"), "uncased",
                 frozenset({"אני", "ואני", "מ", "גר", "גרה", "בן", "בת", "הוא", "היא", "עם", "של"})),
    Introduction("th", (r"ผมชื่อ", r"ฉันชื่อ", r"ดิฉันชื่อ", r"หนูชื่อ", r"เราชื่อ", r"ชื่อของฉันคือ", r"ชื่อของผมคือ"),
                 "thai"),
)

# Labels of a postal address in the scripts that neither the street layouts nor NER read (Cyrillic, Greek, Hebrew,
# Arabic, Devanagari, Thai, CJK; a value with a house number follows: "Адрес: ул. ...", "כתובת:", "ที่อยู่:",
# "पता:", "العنوان:"), matched ignoring case, before a colon. Latin-script labels (Anschrift, Adresse, Dirección)
# are left to those rules, which split the street from the town and its postcode.
ADDRESS_LABELS: tuple[str, ...] = nfkc((
    "адрес", "адреса", "по адресу", "адрес за кореспонденция", "домашний адрес", "адрес проживания", "διεύθυνση",
    "διεύθυνση κατοικίας", "כתובת", "כתובת מגורים", "العنوان", "عنوان", "عنواني", "पता", "मेरा पता", "ที่อยู่",
    "住所", "地址", "住址", "通讯地址", "通訊地址", "주소", "집 주소",
))

# Japanese, Chinese and Korean labels of a reference that names a person's booking, membership, customer
# account, order or record; a value with a digit follows, after a colon, a particle (は, 是, 는/은) or a space.
CJK_REFERENCE_LABELS: tuple[str, ...] = nfkc((
    "予約番号", "予約コード", "確認番号", "会員番号", "会員ID", "お客様番号", "顧客番号", "注文番号", "受付番号",
    "診察券番号", "患者番号", "社員番号", "学籍番号", "保険証番号", "管理番号",
    "订单号", "订单编号", "訂單編號", "訂單號碼", "预订号", "预约号", "預約編號", "预订编号", "确认号", "会员号",
    "会员卡号", "會員編號", "会员编号", "客户号", "客户编号", "客戶編號", "病历号", "病歷號", "学号", "學號", "工号",
    "员工编号", "保单号", "保單號碼",
    "예약번호", "예약 번호", "주문번호", "주문 번호", "회원번호", "회원 번호", "고객번호", "고객 번호", "접수번호",
    "학번", "사번", "환자번호", "확인번호",
    # A passport's number is a person's too.
    "护照号码", "护照号", "护照", "護照號碼", "護照", "旅券番号", "パスポート番号", "여권번호", "여권 번호",
))

# Labels of a person's national or civil identifier in other languages than English, of the countries whose
# number no rule of rules/national_ids.yaml reads: a value of digits follows. A country with a layout and
# check-digit rule there (PESEL, TCKN, 身分證字號, ЕГН, ת.ז., Aadhaar ...) owns its labels: its number with a failing
# check digit is a typo, an example or a surrogate and stays (ADR 0020). Words are matched ignoring case; acronyms
# exactly as written (so "nik" or "oib" in prose stay).
NATIONAL_ID_LABEL_WORDS: tuple[str, ...] = nfkc((
    "αριθμός ταυτότητας", "αριθμός μητρώου κοινωνικής ασφάλισης", "αριθμός φορολογικού μητρώου",
    "เลขประจำตัวประชาชน", "เลขบัตรประชาชน", "บัตรประชาชนเลขที่", "número de contribuinte", "nº de contribuinte",
    "n.º de contribuinte", "contribuinte", "cartão de cidadão", "número de utente", "número de identificación",
    "número de identidad", "номер паспорта", "серия и номер паспорта", "паспорт серии", "номер на лична карта",
    "رقم الهوية", "رقم الهوية الوطنية", "الرقم القومي", "رقم البطاقة الشخصية", "steueridentifikationsnummer",
    "steuer-id", "personalausweisnummer", "số cmnd", "số cccd", "căn cước công dân", "nomor induk kependudukan",
))
NATIONAL_ID_LABEL_ACRONYMS: tuple[str, ...] = nfkc((
    "ΑΜΚΑ", "Α.Μ.Κ.Α.", "ΑΦΜ", "Α.Φ.Μ.", "ΑΔΤ", "NIF", "NIPC", "NISS", "RG", "СНИЛС", "ИНН", "ЛНЧ", "РНОКПП", "ІПН",
    "NIP", "CCCD", "CMND", "NIK", "EMŠO", "OIB", "JMBG", "ЈМБГ",
))
