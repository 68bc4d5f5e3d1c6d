"""A name in Chinese, Japanese, Korean or Arabic script tied to a person by words the CJK rule does not read: an
English relation or verb before it ("my colleague 王秀英", "registered to 한지수"), an honorific after it (김민지 씨,
山田さん, 王女士), an identity or contact label right after it ("陈志明，身份证号", "林雅婷 (身分證字號"), and in Arabic
a self-introduction, a relation with its possessive, a title or a label ("أنا ليلى الحمادي", "زميلي أحمد الحربي").
A Han or Hangul name must open with a common surname; a bare public name (孔子, 세종대왕, محمد صلاح) has no cue and
stays. The Arabic writer's own town after such a name ("... من إربد") is reported as a LOCATION."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.cjk_names import (_HAN, _HANGUL, _ZH_AFTER,
                                                                  _ZH_COMPOUND_SURNAMES, _ZH_SURNAMES)
from ztgate.redaction.detection.wordlists import words

# Korean family names (the ninety or so most common, 2015 census as widely published; written out by hand).
_KO_SURNAMES = frozenset("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형피두감음빈동온호범좌")
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
_EN_BEFORE_ARABIC = re.compile(rf"{_EN_CUE}({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,2}})")

# Honorifics after a name: Korean 씨/님 (a three-syllable name, so 선생님 and 사장님 stay), Japanese ones, and the
# Chinese 女士 and 小姐 (not 先生, which also follows public figures: 鲁迅先生).
_KO_HONORIFIC = re.compile(rf"(?<![{_HANGUL}])([{_HANGUL}]{{3}})[ \t]?(?:씨|님)")
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
_AR_INTRO = re.compile(rf"(?<![{_ARABIC}])(?:أنا|انا|اسمي|إسمي)[ \t]+({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,2}})")
_AR_RELATION = re.compile(
    rf"(?<![{_ARABIC}])(?:[وفلب]|ول|فل)?(?:زميلي|زميلتي|صديقي|صديقتي|أخي|أختي|اخي|اختي|زوجي|زوجتي|جاري|جارتي|ابني|ابنتي|بنتي|"
    rf"أمي|امي|أبي|ابي|والدي|والدتي|عمي|عمتي|خالي|خالتي|مديري|مديرتي|جدي|جدتي)[ \t]+"
    rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,2}})")
_AR_TITLE = re.compile(rf"(?<![{_ARABIC}])(?:السيد|السيدة|الآنسة|الاستاذ|الأستاذ|الأستاذة|الاستاذة)[ \t]+"
                       rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,2}})")
_AR_LABEL = re.compile(rf"(?<![{_ARABIC}])(?:الاسم|الإسم|اسم المريض|اسم المرسل|المرسل إليه)[ \t]*[:：][ \t]*"
                       rf"({_AR_WORD}(?:[ \t]+{_AR_WORD}){{0,2}})")
# Words that end an Arabic name (prepositions, pronouns, conjunctions, a number's label).
_AR_STOPS = frozenset("من في على إلى الى عن مع هو هي و يا رقم هاتفي هاتف جوالي عمري وأنا وانا لكن ثم أو او قد لقد "
                      "كان كانت يعمل تعمل يسكن تسكن يعيش تعيش سوف سيأتي ستأتي".split())
# A present-tense verb's prefix: a word after the given name that opens with one ends the name ("تسأل", "سيأتي");
# after بن, بنت or أبو the next word is a name whatever it opens with.
_AR_VERB_PREFIXES = ("ي", "ت", "سي", "ست", "ن")
_AR_NAME_LINKS = frozenset({"بن", "بنت", "أبو", "ابو", "ابن"})
# Words after "أنا" that are a role or a state, not a name ("أنا طالب", "أنا مهندسة").
_AR_ROLES = frozenset("طالب طالبة مهندس مهندسة طبيب طبيبة معلم معلمة مدرس مدرسة أستاذ استاذ موظف موظفة مدير مديرة "
                      "هنا سعيد سعيدة آسف آسفة متأكد متأكدة جديد جديدة أم أب مريض مريضة ممرض ممرضة محامي محامية "
                      "باحث باحثة مبرمج مبرمجة".split())
# The writer's own town after an Arabic self-introduction ("أنا ليلى الحمادي من إربد"), or after "I live in".
_AR_TOWN = re.compile(rf"[ \t]+(?:من|في)[ \t]+({_AR_WORD})")
_AR_LIVE_IN = re.compile(rf"(?<![{_ARABIC}])(?:أسكن|أعيش|اسكن|اعيش|أقيم|اقيم|ساكن|ساكنة)[ \t]+(?:في|ب)[ \t]*({_AR_WORD})")


def _han_name(run: str) -> bool:
    """A Han name opens with a common surname and has two to four characters."""
    return 2 <= len(run) <= 4 and (run[0] in _ZH_SURNAMES or run.startswith(_ZH_COMPOUND_SURNAMES))


def _ko_name(run: str) -> bool:
    """A Hangul name of three syllables opening with a common family name."""
    return len(run) == 3 and run[0] in _KO_SURNAMES


def _arabic_name(run: str, intro: bool) -> int:
    """The length of the Arabic name at the start of run (0 where none): words up to the first stop word, verb or
    family name with its article; after
    "أنا" (which a role follows as often) two words at least, the first no role and the second a family name
    (with the article, or after بن/بنت/أبو)."""
    kept: list[str] = []
    for w in run.split():
        if w in _AR_STOPS or (kept and (w.startswith("و") or (w.startswith(_AR_VERB_PREFIXES)
                                                             and kept[-1] not in _AR_NAME_LINKS))):
            break
        kept.append(w)
        if len(kept) > 1 and w.startswith("ال"):
            break  # the family name with its article closes the name
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
        if not (has_cjk or has_arabic):
            return []
        out: list[Span] = []
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
        for m in _AR_LIVE_IN.finditer(text):
            out.append((m.start(1), m.end(1), "LOCATION"))
        return out
