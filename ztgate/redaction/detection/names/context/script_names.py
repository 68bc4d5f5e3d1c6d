"""A name in Chinese, Japanese, Korean or Arabic script tied to a person by words the CJK rule does not read: an
English relation or verb before it ("my colleague 王秀英", "registered to 한지수"), an honorific after it (김민지 씨,
山田さん, 王女士), an identity or contact label right after it ("陈志明，身份证号", "林雅婷 (身分證字號"), and in Arabic
a self-introduction, a relation with its possessive, a title or a label ("أنا ليلى الحمادي", "زميلي أحمد الحربي").
A Han or Hangul name must open with a common surname; a bare public name (孔子, 세종대왕, محمد صلاح) has no cue and
stays. The Arabic writer's own town after such a name ("... من إربد") is reported as a LOCATION."""

from __future__ import annotations

import re
import unicodedata

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.cjk_names import (_HAN, _HANGUL, _ZH_AFTER,
                                                                  _ZH_COMPOUND_SURNAMES, _ZH_SURNAMES)
from ztgate.redaction.detection.names.context.language_cues import KIN_STOPS_HI
from ztgate.redaction.detection.wordlists import words

# Korean family names, one syllable and two (data/words/korean_family_names.txt).
_KO_FAMILY_NAMES = words("korean_family_names")
_KO_SURNAMES = frozenset(n for n in _KO_FAMILY_NAMES if len(n) == 1)
_KO_COMPOUND_SURNAMES = tuple(n for n in _KO_FAMILY_NAMES if len(n) == 2)
_ARABIC = "\u0621-\u064a\u0671-\u06d3"
_AR_WORD = rf"[{_ARABIC}][{_ARABIC}\u064b-\u065f]*"

# English words before a name in another script: a relation after a possessive, or a verb of people.
_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues") - {"named", "called"}), key=len,
                             reverse=True))
_KIN = ("gran|granny|nan|grandad|grandparents|parents|in-laws|mother-in-law|father-in-law|sister-in-law|"
        "brother-in-law|son-in-law|daughter-in-law|stepmother|stepfather|stepson|stepdaughter|godmother|godfather|"
        "cousin|twin|ex|teacher|student|tutor|classmate|client|patient|doctor|nurse")
_EN_CUE = (rf"(?:\b(?i:my|our|his|her|their|your)[ \t]+(?:[a-z]+[ \t]+)?(?i:{_KIN}|{_RELATIONS})|"
           r"\b(?i:registered[ \t]+to|addressed[ \t]+to|send[ \t]+(?:it[ \t]+)?to|sent[ \t]+(?:it[ \t]+)?to|"
           r"belongs[ \t]+to|signed[ \t]+by|issued[ \t]+to|"
           r"contact|ask|call|ping|tell|email|e-mail|text|message|cc|attn:?|dear|hi|hello|mr\.?|mrs\.?|ms\.?|dr\.?))"
           r"[ \t]*,?[ \t]*")
_EN_BEFORE_HAN = re.compile(rf"{_EN_CUE}([{_HAN}]{{2,4}})(?![{_HAN}])")
_EN_BEFORE_HANGUL = re.compile(rf"{_EN_CUE}([{_HANGUL}]{{2,8}})")
_EN_BEFORE_ARABIC = re.compile(rf"{_EN_CUE}({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")

# Honorifics after a name: Korean 씨/님 (a three-syllable name, so 선생님 and 사장님 stay), Japanese ones, and the
# Chinese 女士 and 小姐 (not 先生, which also follows public figures: 鲁迅先生).
_KO_HONORIFIC = re.compile(rf"(?<![{_HANGUL}])([{_HANGUL}]{{3,4}})[ \t]?(?:씨|님|선생님|교수님|팀장님|과장님|부장님|대리님)")
# The writer's own name after 저는 and before the copula ("저는 선우재민입니다"): a role takes the frame as often
# (저는 학생입니다, 저는 한국인입니다), so the run must be a name by its family name and no word of these endings.
_KO_I_AM = re.compile(rf"(?:^|(?<=[\s,.!?]))(?:저는|전)[ \t]+([{_HANGUL}]{{3,4}}?)(?:입니다|이에요|예요|이라고[ \t]*합니다|라고[ \t]*합니다)")
_KO_NOT_NAME_ENDS = ("인", "생", "관", "님", "가")
_KO_ROLES = frozenset("공무원 연구원 은행원 사무원 변호사 기술자 노동자 전공자 소유자 유튜버 주부님 고객님 조교수 부교수 정교사 "
                      "회계사 세무사 노무사 약사님 한의사 수의사 이발사 미용사 요리사 운전사 조종사 전도사 목사님 신부님 선교사 "
                      "기관사 장교님 하사관 이등병 일등병 상등병 장학생 임산부 여대생 남학생 여학생 고객님".split())
# Someone the writer sends a reply or a letter to ("답장은 제갈수빈에게 보내 주세요", "박지훈한테 전해 줘").
_KO_SEND_TO = re.compile(rf"(?<![{_HANGUL}])([{_HANGUL}]{{3,4}}?)(?:에게|한테|께)[ \t]+(?:\S+[ \t]+)?"
                         rf"(?:보내|전해|전달|연락|편지|답장|메일|이메일|문자)")
_JA_HONORIFIC = re.compile(rf"(?<![{_HAN}])([{_HAN}]{{2,4}})(?:さん|様|さま|先生|氏|くん|ちゃん)")
_ZH_HONORIFIC = re.compile(rf"(?<![{_HAN}])([{_HAN}]{{1,3}})(?:女士|小姐)")
_KANA = re.compile("[\u3041-\u30ff]")
# A word before さん or 様 that ends in one of these is a role or a group (お医者さん, 大家さん, 利用者様), no name.
_JA_NOT_NAME_ENDS = frozenset("者家屋員人方客様皆同生長")

# An identity or contact label right after a name (at the start of a line or a clause).
_ID_LABELS = (r"(?:身份证号?|身份證號?|身分證字號|身分证|护照|護照|手机|手機|电话|電話|邮箱|郵箱|住址|地址|"
              r"주민등록번호|전화|휴대폰|핸드폰|연락처|주소|여권|電話番号|携帯|メール|住所|"
              r"(?i:tel|phone|mobile|email|e-mail|passport|id|dob|born|ssn)\b|\+?\d[\d \-]{6,})")
_NAME_THEN_LABEL = re.compile(
    rf"(?:^|(?<=[\s(（\[:：,，;；]))([{_HAN}]{{2,4}}|[{_HANGUL}]{{3}})[ \t]*[,，、(（:：]?[ \t]*{_ID_LABELS}", re.M)

# Arabic cues: a self-introduction, a relation with its possessive suffix (and a clitic before it: لأخي, وأختي,
# بصديقي), a title, a name label.
_AR_INTRO = re.compile(rf"(?<![{_ARABIC}])(?:أنا|انا|اسمي|إسمي)[ \t]+({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
_AR_RELATION = re.compile(
    rf"(?<![{_ARABIC}])(?:[وفلب]|ول|فل)?(?:زميلي|زميلتي|صديقي|صديقتي|أخي|أختي|اخي|اختي|زوجي|زوجتي|جاري|جارتي|ابني|ابنتي|بنتي|"
    rf"أمي|امي|أبي|ابي|والدي|والدتي|عمي|عمتي|خالي|خالتي|مديري|مديرتي|جدي|جدتي|معلمي|معلمتي|أستاذي|أستاذتي|استاذي|"
    rf"استاذتي|مدرسي|مدرستي|رئيسي|رئيستي|طبيبي|طبيبتي|شريكي|شريكتي|خطيبي|خطيبتي|حماتي|حماي|مشرفي|مشرفتي|مدربي|"
    rf"مدربتي|جارتنا|جارنا)[ \t]+"
    rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
_AR_TITLE = re.compile(rf"(?<![{_ARABIC}])(?:السيد|السيدة|الآنسة|الاستاذ|الأستاذ|الأستاذة|الاستاذة)[ \t]+"
                       rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
_AR_LABEL = re.compile(rf"(?<![{_ARABIC}])(?:الاسم|الإسم|اسم المريض|اسم المرسل|المرسل إليه)[ \t]*[:：][ \t]*"
                       rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
# "Sign it as" (وقّعها باسم) and "send it to" (أرسل الإجابة إلى, اكتب إلى): a full name follows, so the name must have
# two words at least and end in a family name (with the article, or after بن/بنت/أبو): "إلى مدينة جدة" is a place.
_AR_SIGN_AS = re.compile(rf"(?<![{_ARABIC}])[وف]?(?:وق\u0651?ع|أمض)\S*[ \t]+(?:ب)?(?:اسم|إسم)[ \t]+"
                         rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
_AR_SEND_TO = re.compile(rf"(?<![{_ARABIC}])[وف]?(?:أرسل|ارسل|إرسال|ارسال|أرسلي|ابعث|اكتب|اكتبي|راسل|راسلي|وجه|وجّه)\S*"
                         rf"(?:[ \t]+{_AR_WORD}){{0,2}}?[ \t]+(?:إلى|الى)[ \t]+({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,3}})")
# Words that end an Arabic name (prepositions, pronouns, conjunctions, a number's label).
_AR_STOPS = frozenset("من في على إلى الى عن مع هو هي و يا رقم هاتفي هاتف جوالي عمري وأنا وانا لكن ثم أو او قد لقد "
                      "كان كانت يعمل تعمل يسكن تسكن يعيش تعيش سوف سيأتي ستأتي".split())
# A present-tense verb's prefix: a word after the given name that opens with one ends the name ("تسأل", "سيأتي");
# after بن, بنت or أبو the next word is a name whatever it opens with.
_AR_VERB_PREFIXES = ("ي", "ت", "سي", "ست", "ن")
_AR_NAME_LINKS = frozenset({"بن", "بنت", "أبو", "ابو", "ابن"})
# Given names that open as a present-tense verb does (يوسف, تامر, نبيل): a name's middle word where a family name
# with its article follows ("طارق يوسف العمري"); any other such word still ends the name ("مازن تاريخ الأهرامات").
_AR_GIVEN_VERB_LIKE = frozenset("يوسف يحيى ياسر ياسين يزن يونس يعقوب يامن يزيد يعرب يسرى يمنى تامر تميم توفيق تركي تيسير "
                                "تغريد تسنيم نبيل نادر ناصر نزار نعيم نجيب نور نورة نوال نادية نسرين نضال نايف نواف نصر "
                                "سيف سيد ستار".split())
# "عبد" and the divine name after it are one given name (عبد الرحمن, عبد الله): the article there closes nothing.
_AR_SERVANT = frozenset({"عبد"})
# Words after "أنا" that are a role or a state, not a name ("أنا طالب", "أنا مهندسة").
_AR_ROLES = frozenset("طالب طالبة مهندس مهندسة طبيب طبيبة معلم معلمة مدرس مدرسة أستاذ استاذ موظف موظفة مدير مديرة "
                      "هنا سعيد سعيدة آسف آسفة متأكد متأكدة جديد جديدة أم أب مريض مريضة ممرض ممرضة محامي محامية "
                      "باحث باحثة مبرمج مبرمجة".split())
# The writer's own town after an Arabic self-introduction ("أنا ليلى الحمادي من إربد"), or after "I live in".
_AR_TOWN = re.compile(rf"[ \t]+(?:من|في)[ \t]+({_AR_WORD})")
# The writer's or the family's origin and move ("أنا من سوهاج", "عائلتي من الكرك", "انتقلت عائلتي إلى المنيا",
# "انتقلنا إلى", "ولدت في"): a first person or the writer's family, so "انتقلت الخلافة إلى بغداد" stays.
_AR_FAMILY = r"(?:عائلتي|أسرتي|اسرتي|أهلي|اهلي|والداي|والدي|أصلي|اصلي|أصولي)"
_AR_FROM = re.compile(rf"(?<![{_ARABIC}])(?:أنا|انا|نحن|{_AR_FAMILY})[ \t]+(?:من|مِن)[ \t]+({_AR_WORD})")
_AR_MOVED_TO = re.compile(rf"(?<![{_ARABIC}])(?:(?:انتقلت|انتقلنا|رحلت|رحلنا|هاجرت|هاجرنا)(?:[ \t]+{_AR_FAMILY})?[ \t]+"
                          rf"(?:إلى|الى|ل)[ \t]*|(?:ولدت|وُلدت|نشأت|ترعرعت|كبرت)[ \t]+(?:في|ب)[ \t]*)({_AR_WORD})")
# Words after "أنا من" that are a group, not a town ("أنا من محبي ...", "أنا من المعجبين").
_AR_NOT_TOWNS = frozenset("محبي عشاق أنصار مؤيدي هواة متابعي جيل الذين المعجبين المهتمين أشد أكثر أول".split())
_AR_LIVE_IN = re.compile(rf"(?<![{_ARABIC}])(?:أسكن|أعيش|اسكن|اعيش|أقيم|اقيم|ساكن|ساكنة)[ \t]+(?:في|ب)[ \t]*({_AR_WORD})")


# Devanagari: the writer's "मैं … हूँ" and someone written or sent to ("… को ईमेल करें", "… को पत्र लिखना है"), a
# name there only where its last word is a family name (data/words/hindi_family_names.txt): the same frames take a
# role, a state or a place ("मैं छात्र हूँ", "मैं ठीक हूँ", "दिल्ली को भेजें").
_DEV_WORD = r"[\u0900-\u0963\u0971-\u097f]+"
_HI_FAMILY_NAMES = frozenset(unicodedata.normalize("NFKC", w) for w in words("hindi_family_names"))
_HI_MIDDLE = frozenset(unicodedata.normalize("NFKC", w) for w in "कुमार चंद्र चन्द्र प्रसाद नाथ लाल देवी रानी प्रकाश सिंह".split())
_HI_I_AM = re.compile(rf"(?<![\u0900-\u097f])मैं[ \t]+((?:{_DEV_WORD}[ \t]+){{1,2}}{_DEV_WORD})[ \t]+(?:हूँ|हूं)")
_HI_SEND_TO = re.compile(rf"((?:{_DEV_WORD}[ \t]+){{1,2}}{_DEV_WORD})[ \t]+(?:को|से)[ \t]+(?:ई-?मेल|मेल|भेज|लिख|पत्र|"
                         rf"चिट्ठी|संदेश|मैसेज|फ़ोन|फोन|कॉल|बता|संपर्क)")


def _hindi_name(run: str) -> tuple[int, int] | None:
    """The given name, any middle name and the family name at the end of run (offsets in run), where the last word
    is a family name and the word before it no family name too (a given name opens the name)."""
    parts = run.split()
    if parts[-1] not in _HI_FAMILY_NAMES or len(parts) < 2:
        return None
    n = 3 if len(parts) >= 3 and parts[-2] in _HI_MIDDLE and parts[-3] not in _HI_FAMILY_NAMES else 2
    if parts[-n] in _HI_FAMILY_NAMES or parts[-n] in KIN_STOPS_HI:
        return None
    start = run.rindex(" ".join(parts[-n:])) if " ".join(parts[-n:]) in run else None
    return None if start is None else (start, len(run))


def _han_name(run: str) -> bool:
    """A Han name opens with a common surname and has two to four characters."""
    return 2 <= len(run) <= 4 and (run[0] in _ZH_SURNAMES or run.startswith(_ZH_COMPOUND_SURNAMES))


def _ko_name(run: str) -> bool:
    """A Hangul name of three syllables opening with a common family name, or of four opening with a two-syllable
    one (남궁지현)."""
    return (len(run) == 3 and run[0] in _KO_SURNAMES) or (len(run) == 4 and run.startswith(_KO_COMPOUND_SURNAMES))


def _full_arabic_name(run: str) -> int:
    """The length of a full Arabic name at the start of run: two words at least, the last a family name (with the
    article) or after بن/بنت/أبو; 0 where none."""
    if _AR_RELATION.match(run):
        return 0  # "إلى زميلي …": the relation rule reads the name after it
    n = _arabic_name(run, intro=False)
    kept = run[:n].split()
    if len(kept) < 2 or not (kept[-1].startswith("ال") or kept[-2] in _AR_NAME_LINKS):
        return 0
    return n


def _ko_own_name(run: str) -> bool:
    """A Hangul name where a role or a title takes the same frame (저는 …입니다, …께 편지): a name by its family name,
    no role of the list and not ending as roles and titles do (한국인, 대학생, 선생님)."""
    return _ko_name(run) and run not in _KO_ROLES and not (len(run) == 3 and run.endswith(_KO_NOT_NAME_ENDS))


def _arabic_name(run: str, intro: bool) -> int:
    """The length of the Arabic name at the start of run (0 where none): words up to the first stop word, verb or
    family name with its article; after
    "أنا" (which a role follows as often) two words at least, the first no role and the second a family name
    (with the article, or after بن/بنت/أبو)."""
    kept: list[str] = []
    parts = run.split()
    for i, w in enumerate(parts):
        family_next = w in _AR_GIVEN_VERB_LIKE and i + 1 < len(parts) and parts[i + 1].startswith("ال")
        if w in _AR_STOPS or (kept and (w.startswith("و") or (w.startswith(_AR_VERB_PREFIXES) and not family_next
                                                             and kept[-1] not in _AR_NAME_LINKS))):
            break
        kept.append(w)
        if len(kept) > 1 and w.startswith("ال") and kept[-2] not in _AR_SERVANT:
            break  # the family name with its article closes the name (not the second word of عبد الله)
    if not kept or kept[0].startswith("ال") or kept[0] in _AR_ROLES:
        return 0
    if intro and (len(kept) < 2 or not (kept[1].startswith("ال") or kept[1] in _AR_NAME_LINKS)):
        return 0
    return len(" ".join(kept))


class ScriptNameRecognizer(ContextRule):
    NAME = "ScriptNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        has_cjk = re.search(f"[{_HAN}{_HANGUL}]", text) is not None
        has_arabic = re.search(f"[{_ARABIC}]", text) is not None
        has_devanagari = re.search("[\u0900-\u097f]", text) is not None
        if not (has_cjk or has_arabic or has_devanagari):
            return []
        out: list[Span] = []
        if has_devanagari:
            for pattern in (_HI_I_AM, _HI_SEND_TO):
                for m in pattern.finditer(text):
                    span = _hindi_name(m.group(1))
                    if span is not None:
                        out.append((m.start(1) + span[0], m.start(1) + span[1], "PERSON"))
        if has_cjk:
            out += self._cjk(text)
        if has_arabic:
            out += self._arabic(text)
        return out

    @staticmethod
    def _cjk(text: str) -> list[Span]:
        out: list[Span] = []
        for m in _EN_BEFORE_HAN.finditer(text):
            if _han_name(m.group(1)):
                out.append((m.start(1), m.end(1), "PERSON"))
        for m in _EN_BEFORE_HANGUL.finditer(text):
            # The name before its particle: "한지수 (", "김민지가", "박서연은".
            run = m.group(1)
            if _ko_name(run[:3]) and (len(run) == 3 or re.match("(?:이|가|은|는|을|를|와|과|의|도|씨|님|에게|한테)$",
                                                                 run[3:]) is not None):
                out.append((m.start(1), m.start(1) + 3, "PERSON"))
        for m in _KO_HONORIFIC.finditer(text):
            if _ko_name(m.group(1)):
                out.append((m.start(1), m.end(1), "PERSON"))
        for pattern in (_KO_I_AM, _KO_SEND_TO):
            for m in pattern.finditer(text):
                if _ko_own_name(m.group(1)):
                    out.append((m.start(1), m.end(1), "PERSON"))
        japanese = _KANA.search(text) is not None
        for m in _JA_HONORIFIC.finditer(text):
            if japanese and m.group(1)[-1] not in _JA_NOT_NAME_ENDS:
                out.append((m.start(1), m.end(1), "PERSON"))
        for m in _ZH_HONORIFIC.finditer(text):
            if m.group(1)[0] in _ZH_SURNAMES or _han_name(m.group(1)):
                out.append((m.start(1), m.end(1), "PERSON"))
        for m in _NAME_THEN_LABEL.finditer(text):
            run = m.group(1)
            if (_han_name(run) and not any(ch in _ZH_AFTER for ch in run[1:])) or _ko_name(run):
                out.append((m.start(1), m.end(1), "PERSON"))
        return out

    @staticmethod
    def _arabic(text: str) -> list[Span]:
        out: list[Span] = []
        for pattern, intro in ((_AR_INTRO, True), (_AR_RELATION, False), (_AR_TITLE, False), (_AR_LABEL, False),
                               (_EN_BEFORE_ARABIC, False)):
            for m in pattern.finditer(text):
                n = _arabic_name(m.group(1), intro)
                if not n:
                    continue
                out.append((m.start(1), m.start(1) + n, "PERSON"))
                town = _AR_TOWN.match(text, m.start(1) + n)
                if intro and town is not None:
                    out.append((town.start(1), town.end(1), "LOCATION"))
        for pattern in (_AR_SIGN_AS, _AR_SEND_TO):
            for m in pattern.finditer(text):
                n = _full_arabic_name(m.group(1))
                if n:
                    out.append((m.start(1), m.start(1) + n, "PERSON"))
        for pattern in (_AR_LIVE_IN, _AR_FROM, _AR_MOVED_TO):
            for m in pattern.finditer(text):
                if m.group(1) not in _AR_STOPS and m.group(1) not in _AR_NOT_TOWNS:
                    out.append((m.start(1), m.end(1), "LOCATION"))
        return out
