"""A name or a town with no cue of its own, written in a script spaCy's English model does not read (Cyrillic,
Greek, Han, Hangul, Arabic, Devanagari, Thai), where a contact block or a form makes it a person's: alone on a
line of a block (lines with no blank line between) that also holds a phone, a phone or address label, a postal
mark or a closing ("Варвара Шишкина / г. Кострома / +7 912 ...", "윤채원 드림 / 010-...", "邵可欣 / 手机：..."), a
name then the person's phone on one line ("Зарина Хабибуллина, тел. 8 917 ..."), or after a form's name label
(``language_cues.NAME_FIELD_LABELS``: "आवेदक: ...", "ชื่อ: ..."). In such a block a Cyrillic town after "г."
or "город" and a Chinese street address with its number (…路…18号) are reported as LOCATION.

A lone line with no such evidence in its block stays: a poem's author under it ("Александр Пушкин"), a heading."""

from __future__ import annotations

import re
import unicodedata

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.language_cues import ADDRESS_LABELS, CLOSINGS, NAME_FIELD_LABELS
from ztgate.redaction.detection.wordlists import phrases

_CYR_GREEK_CAP = "А-ЯЁІЇЄҐЎΑ-ΩΆΈΉΊΌΎΏ"
_CYR_GREEK_LOW = "а-яёіїєґўα-ωάέήίόύώϊϋΐΰ'’\\-"
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = "\uac00-\ud7a3"
_ARABIC = "\u0621-\u064a\u0671-\u06d3\u06cc\u06a9\u06af\u067e\u0686\u0698"
_DEVANAGARI = "\u0900-\u0963\u0971-\u097f"
_THAI = "\u0e01-\u0e4e"
_NAME_SHAPES = (
    rf"[{_CYR_GREEK_CAP}][{_CYR_GREEK_LOW}]+(?:[ \t]+[{_CYR_GREEK_CAP}][{_CYR_GREEK_LOW}]+){{1,2}}",
    rf"[{_HAN}]{{2,4}}|[{_HAN}]{{1,3}}[ \u3000][{_HAN}]{{1,3}}",
    rf"[{_HANGUL}]{{2,4}}",
    rf"[{_ARABIC}][{_ARABIC}\u064b-\u065f]+(?:[ \t]+[{_ARABIC}][{_ARABIC}\u064b-\u065f]+){{1,2}}",
    rf"[{_DEVANAGARI}]+(?:[ \t]+[{_DEVANAGARI}]+){{1,2}}",
    # Thai is written without spaces: a name is a given name and a family name split by one space.
    rf"[{_THAI}]{{2,16}}[ \t][{_THAI}]{{2,20}}",
)
_NAME = "(?:" + "|".join(_NAME_SHAPES) + ")"
# A name line: the name, then a Korean or Japanese signing word (드림, 올림, 拝, より) or nothing.
_NAME_LINE = re.compile(rf"[ \t\u3000]*(?:[-–—~～]+[ \t]*)?({_NAME})[ \t\u3000]*(?:드림|올림|배상|拝|より)?[ \t\u3000]*")
# A name, a comma, then a phone label or a phone on the same line.
_NAME_THEN_PHONE = re.compile(rf"[ \t]*({_NAME})[ \t]*[,，、;][ \t]*(?=\S)")
# Han names end in these when they are a place, a firm or a body instead (仙台市, 株式会社, 市役所).
_HAN_NOT_NAME_ENDS = frozenset("市区県都府道町村省州路街号社院校部課局所店館園寺宮城港駅")
_PHONE = re.compile(r"(?:\+|(?<!\d))\d[\d \-().]{6,18}\d(?!\d)")
_PHONE_LABELS = frozenset(unicodedata.normalize("NFKC", p) for p in phrases("phone_labels")) | {
    "tel", "tel.", "phone", "mobile", "тел.", "моб.", "मोबाइल", "फ़ोन", "โทร", "เบอร์โทร", "โทรศัพท์", "điện thoại",
    "telepon", "τηλ.", "τηλέφωνο", "κινητό", "טלפון", "נייד", "جوال", "موبايل", "تلفن", "همراه"}
_LABEL_RE = re.compile(
    r"(?i:" + "|".join(re.escape(w) for w in sorted(_PHONE_LABELS | set(ADDRESS_LABELS), key=len, reverse=True))
    + r")[ \t]*[:：.]?")
_CLOSING = re.compile(r"[ \t]*(?:" + "|".join(re.escape(c) for c in sorted(CLOSINGS, key=len, reverse=True))
                      + r")[ \t]*[,，、!！.]?[ \t]*$")
_POSTAL = re.compile(r"〒[ \t]*\d{3}-?\d{4}")
_FIELD = re.compile(
    r"(?m)^[ \t]*(?:" + "|".join(re.escape(w).replace(r"\ ", r"[ \t]+")
                                 for w in sorted(NAME_FIELD_LABELS, key=len, reverse=True))
    + rf")[ \t]*[:：][ \t]*({_NAME})[ \t]*$")
_TOWN = re.compile(rf"(?<![^\W\d_])(?:г\.|город|с\.|село|пос\.|пгт)[ \t]*([{_CYR_GREEK_CAP}][{_CYR_GREEK_LOW}]+(?:-[{_CYR_GREEK_CAP}][{_CYR_GREEK_LOW}]+)?)")
_ZH_STREET = re.compile(rf"[{_HAN}]{{2,16}}(?:路|街|道|巷|弄|胡同)[{_HAN}]{{0,4}}\d{{1,5}}号(?:院|楼)?(?:\d{{1,4}}室)?")
_NON_LATIN = re.compile(rf"[{_CYR_GREEK_CAP}{_CYR_GREEK_LOW[:-5]}{_HAN}{_HANGUL}{_ARABIC}{_DEVANAGARI}{_THAI}]")


def _blocks(text: str) -> list[tuple[int, list[tuple[int, str]]]]:
    """The text's blocks: runs of non-blank lines, each line with its offset."""
    blocks: list[tuple[int, list[tuple[int, str]]]] = []
    current: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        if line.strip():
            current.append((offset, line))
        elif current:
            blocks.append((current[0][0], current))
            current = []
        offset += len(line) + 1
    if current:
        blocks.append((current[0][0], current))
    return blocks


def _evidence(line: str) -> bool:
    """A line that holds a phone, a phone or address label, a postal mark or a closing."""
    return (_PHONE.search(line) is not None or _POSTAL.search(line) is not None
            or _CLOSING.match(line) is not None or _LABEL_RE.match(line.strip()) is not None)


# Short lines of a block that are a greeting or a thanks, no name.
_NOT_NAMES = frozenset({"你好", "您好", "大家好", "谢谢", "謝謝", "以上", "안녕하세요", "감사합니다", "شكرا جزيلا", "شكراً جزيلاً"})


def _name_ok(name: str) -> bool:
    """No greeting, and no Han word that ends as a place's, a firm's or a body's name does."""
    if name in _NOT_NAMES:
        return False
    return not (re.fullmatch(f"[{_HAN} \u3000]+", name) and name[-1] in _HAN_NOT_NAME_ENDS)


def _name_on(line: str) -> tuple[int, int] | None:
    """The name of a line that is only a name, or a name then a comma and the person's phone or its label."""
    alone = _NAME_LINE.fullmatch(line)
    if alone is not None:
        return alone.span(1)
    lead = _NAME_THEN_PHONE.match(line)
    if lead is not None and _evidence(line[lead.end():]):
        return lead.span(1)
    return None


class ContactLineRecognizer(ContextRule):
    NAME = "ContactLineRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        if _NON_LATIN.search(text) is None:
            return []
        out: list[Span] = []
        for m in _FIELD.finditer(text):
            out.append((m.start(1), m.end(1), "PERSON"))
        for _, lines in _blocks(text):
            if not any(_evidence(line) for _, line in lines):
                continue
            for offset, line in lines:
                name = _name_on(line)
                if name is not None and _name_ok(line[name[0]:name[1]]) and _CLOSING.match(line) is None:
                    out.append((offset + name[0], offset + name[1], "PERSON"))
                for t in _TOWN.finditer(line):
                    out.append((offset + t.start(1), offset + t.end(1), "LOCATION"))
                for s in _ZH_STREET.finditer(line):
                    out.append((offset + s.start(), offset + s.end(), "LOCATION"))
        return out
