"""A Japanese name with its reading in kana in brackets, as a writer gives their own name or a form asks for it
("はじめまして、森川 咲良（もりかわ さくら）です", "氏名：高畑 千尋（たかはた ちひろ）"): the name and its reading are
both the person's. A reading alone is no evidence (a textbook writes "夏目漱石（なつめ そうせき）の代表作"), so the
name must introduce the writer (です, と申します after the brackets; はじめまして, 私は before it) or fill a name
label of a form. spaCy's English model reads neither the name nor the kana; the CJK rule (``cjk_names``) reads a
labelled name, not the reading that follows it."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KANA = "\u3041-\u3096\u30a1-\u30fa\u30fc"
_NAME_READING = re.compile(
    rf"(?<![{_HAN}])([{_HAN}]{{1,4}}(?:[ \u3000]?[{_HAN}]{{1,4}})?)[ \u3000]?[（(][ \u3000]*"
    rf"([{_KANA}]{{1,10}}(?:[ \u3000・][{_KANA}]{{1,10}})?)[ \u3000]*[）)]")
# After the brackets: the writer's own name (です, と申します); before the name: a greeting or "I am", or a form's
# name label with its colon.
_INTRODUCED = re.compile(r"[ \u3000]*(?:です|と申します|と言います|といいます|でございます)")
_BEFORE = re.compile(
    r"(?:はじめまして|初めまして|私は|わたしは|僕は|ぼくは|(?:氏名|お名前|名前|フリガナ|ふりがな|担当者?|署名|申込者|保護者|"
    r"差出人|受取人)[ \t\u3000]*[:：]?)[、,， \t\u3000]*$")

# Characters before a name its introducing cue and label may take (the longest cue, a colon, some blanks).
_CUE_REACH = 48


class KanaReadingRecognizer(ContextRule):
    NAME = "KanaReadingRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _NAME_READING.finditer(text):
            # The cue stands right before the name: a bounded look-back keeps a long line of readings linear.
            line_start = max(text.rfind("\n", max(0, m.start() - _CUE_REACH), m.start()) + 1, m.start() - _CUE_REACH)
            if _INTRODUCED.match(text, m.end()) is None and _BEFORE.search(text[line_start:m.start()]) is None:
                continue
            out.append((m.start(1), m.end(1), "PERSON"))
            out.append((m.start(2), m.end(2), "PERSON"))
        return out
