"""The writer's own town in the scripts with no capitals and in Greek and Turkish: the frame of living, moving or
origin bounds it (``person_towns`` reports them; its docstring says which frames). A frame is the writer's (a
first-person subject or verb, the writer's family or home), so a town said of a historical figure ("家康は江戸に移り
住んだ") or asked about stays."""

from __future__ import annotations

import re
import unicodedata

from ztgate.redaction.detection.names.context.base import Span

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = "\uac00-\ud7a3"
_DEV = r"[\u0900-\u0963\u0971-\u097f]+"
_THAI = "\u0e01-\u0e4e"
_GREEK_UP = "Α-ΩΆΈΉΊΌΎΏΪΫ"
_GREEK_WORD = rf"[{_GREEK_UP}][α-ωάέήίόύώϊϋΐΰς]+(?:-[{_GREEK_UP}]?[α-ωάέήίόύώϊϋΐΰς]+)?"
_TR_WORD = r"[A-ZÇĞİÖŞÜ][a-zçğıöşüâîû]+"


def _nfkc(source: str) -> re.Pattern[str]:
    """The pattern as the analyzer's NFKC view spells it (Thai "ำ" is two code points there)."""
    return re.compile(unicodedata.normalize("NFKC", source))


# Chinese: a first-person subject and a verb of living, moving or origin; the town is the Han run after it, up to
# punctuation or a word that follows a place (工作, 上学, 的 ...).
_ZH = _nfkc(rf"(?:我|我们|我們)(?:的)?(?:家|老家|父母|爸妈|爸媽)?(?:现在|現在|一直|目前|去年|今年|最近|刚|剛|已经|已經)?"
            rf"(?:住在|住|在|搬到了|搬到|搬去了|搬去|搬回了|搬回|来自|來自|是|出生在|生在|长大在)([{_HAN}]{{2,8}})")
_ZH_FRAMES_NEEDING_HOME = ("在", "是")  # "我在…" and "我是…" take anything; only after 家/老家 are they a home's
_ZH_ENDS = ("工作", "上班", "上学", "上學", "读书", "讀書", "念书", "生活", "长大", "長大", "出生", "定居", "住", "的", "了",
            "和", "跟", "与", "與", "也", "都", "时", "時", "附近", "旁边", "旁邊", "这", "這", "那", "里", "裡")
# Japanese: a polite verb of living or moving after the town and に, or 実家は/出身は before it, or 出身です after it.
_JA = _nfkc(rf"(?<![{_HAN}々])([{_HAN}々]{{2,6}})(?:に(?:住んでいます|住んでます|住んでおります|引っ越しました|"
            rf"引っ越してきました|引っ越します|引越しました|越してきました|移り住みました|暮らしています|転勤しました|転勤になりました)|"
            rf"で(?:生まれました|育ちました|生まれ育ちました)|(?:の)?出身(?:です|で))")
_JA_AFTER = _nfkc(rf"(?:実家|出身|地元|故郷|ふるさと)(?:は|が)[ \t\u3000]*([{_HAN}々]{{2,6}})(?=で|です|に|の|、|。)")
_JA_TIME = ("去年", "昨年", "今年", "先月", "先週", "来月", "最近", "春", "夏", "秋", "冬", "昔", "今")
# Korean: the writer or the writer's family as the subject, then the town and its particle before a verb of living,
# moving or birth, or 출신; 고향은 … before a copula.
_KO_SUBJECT = r"(?:저는|전|제가|저희는|우리는|저희[ \t]+가족은|우리[ \t]+가족은|저희[ \t]+부모님은|우리[ \t]+부모님은|부모님은)"
_KO = _nfkc(rf"{_KO_SUBJECT}[ \t]+(?:[{_HANGUL}]+[ \t]+){{0,2}}?([{_HANGUL}]{{2,5}}?)(?:(?:에서|에|으로|로)[ \t]+"
            rf"(?:살|거주|이사|지내|자랐|태어|왔)|[ \t]*출신)")
_KO_HOME = _nfkc(rf"(?:제|저희|우리)?[ \t]*고향은[ \t]+([{_HANGUL}]{{2,5}}?)(?:이에요|예요|입니다|이고|이며|이라서)")
_KO_NOT_TOWNS = frozenset("여기 거기 저기 이곳 그곳 집 회사 학교 시골 도시 외국 해외 혼자 지방 근처 동네 기숙사 원룸".split())
# Hindi: मैं/हम/मेरा परिवार/मेरा घर, up to three words, the town, में/से and a verb of living, coming or birth.
_HI_NOT_TOWNS = frozenset(unicodedata.normalize("NFKC", w) for w in
                          "घर यहाँ यहां वहाँ वहां शहर गाँव गांव देश विदेश हॉस्टल किराए इस उस एक दो तीन साल महीने समय "
                          "दिनों बचपन कब कहाँ कहां भी ही तो अभी".split())
_HI = _nfkc(rf"(?<![\u0900-\u097f])(?:मैं|हम|मेरा[ \t]+परिवार|हमारा[ \t]+परिवार|मेरा[ \t]+घर|मेरा[ \t]+गाँव|मेरा[ \t]+गांव|"
            rf"मेरे[ \t]+माता-पिता|मेरा[ \t]+ससुराल|मेरी[ \t]+ससुराल)[ \t]+(?:{_DEV}[ \t]+){{0,3}}?({_DEV})[ \t]+(?:में|से)[ \t]+"
            rf"(?:रहता|रहती|रहते|रहकर|हूँ|हूं|है|हैं|शिफ्ट|आया|आई|आए|बस|पला|पली|पले|पैदा|जन्मा|जन्मी)")
# Thai: the writer or the writer's home or family and a verb of living, moving, origin or birth; a bare อยู่ที่ (is
# at) only before a district's, a subdistrict's or a province's word.
_TH_SUBJECT = r"(?:ฉัน|ผม|ดิฉัน|เรา|หนู|บ้านผม|บ้านฉัน|บ้านดิฉัน|บ้านเรา|ครอบครัวของ(?:ฉัน|ผม)|ครอบครัวผม|ครอบครัวฉัน|พ่อแม่ของ(?:ฉัน|ผม))"
_TH_ADMIN = r"(?:อำเภอ|อ\.|ตำบล|ต\.|จังหวัด|จ\.|เขต|แขวง)"
_TH = _nfkc(rf"{_TH_SUBJECT}(?:(?:อาศัยอยู่|พักอยู่|ย้ายไปอยู่|ย้ายมาอยู่|ย้ายไป|ย้ายมา|มาจาก|เกิดที่|เกิดและโตที่|โตที่)(?:ที่)?[ \t]*"
            rf"{_TH_ADMIN}?|อยู่(?:ที่)?[ \t]*{_TH_ADMIN})[ \t]*([{_THAI}]{{2,30}})")
_TH_CUTS = _nfkc("(?:อำเภอ|ตำบล|จังหวัด|เขต|แขวง|ครับ|ค่ะ|คะ|และ|แต่|ซึ่ง|กับ|มา|ตั้งแต่|เมื่อ|นาน|ได้|แล้ว)")
# Greek: a first-person verb of living, working, moving or origin and its preposition with the article.
_EL = re.compile(rf"(?<![^\W\d_])(?i:μένω|μένουμε|ζω|ζούμε|κατοικώ|κατοικούμε|δουλεύω|εργάζομαι|σπουδάζω|μετακόμισα|"
                 rf"μετακομίσαμε|γεννήθηκα|μεγάλωσα|κατάγομαι|είμαι|είμαστε)[ \t]+(?:στην|στη|στον|στο|στα|στις|στους|σε|"
                 rf"(?i:από)(?:[ \t]+(?:την|τη|το|τον|τα))?)[ \t]+({_GREEK_WORD}(?:[ \t]+{_GREEK_WORD})?)")
_EL_STREET_KINDS = frozenset({"Οδός", "Οδό", "Οδού", "Λεωφόρος", "Λεωφόρο", "Πλατεία", "Πάροδος"})
# Turkish: the town with its case suffix right before a verb of living or moving in the first person, or the
# writer's family's origin in the ablative ("Ailem Tokat'tan").
_TR_LIVE = re.compile(rf"(?<!\w)({_TR_WORD}(?:[ ]{_TR_WORD})?)['’](?:da|de|ta|te|a|e|ya|ye)[ \t]+"
                      rf"(?:yaşıyorum|yaşıyoruz|oturuyorum|oturuyoruz|taşındım|taşındık|taşınacağım|taşınacağız|"
                      rf"doğdum|büyüdüm|çalışıyorum|kalıyorum|ikamet[ \t]+ediyorum)")
_TR_FROM = re.compile(rf"(?<!\w)(?:[Aa]ilem|[Aa]ilemiz|[Aa]nnemler|[Bb]abamlar|[Aa]nnem|[Bb]abam|[Bb]en|[Bb]iz)[ \t]+"
                      rf"(?:de[ \t]+|da[ \t]+|aslen[ \t]+)?({_TR_WORD})['’](?:dan|den|tan|ten)(?=[\s,.;!?]|$)")


def _zh_town(run: str) -> str:
    """The town at the start of run: up to the first word that follows a place."""
    end = len(run)
    for word in _ZH_ENDS:
        at = run.find(word, 2)
        if at != -1:
            end = min(end, at)
    return run[:min(end, 6)]


def script_towns(text: str) -> list[Span]:
    """The writer's own towns by the frames of the scripts with no capitals, Greek and Turkish."""
    out: list[Span] = []
    for m in _ZH.finditer(text):
        frame = m.group(0)[:m.start(1) - m.start()]
        if frame.endswith(_ZH_FRAMES_NEEDING_HOME) and not any(w in frame for w in ("家", "父母", "爸妈", "爸媽")):
            continue
        town = _zh_town(m.group(1))
        if len(town) >= 2:
            out.append((m.start(1), m.start(1) + len(town), "LOCATION"))
    for pattern in (_JA, _JA_AFTER):
        for m in pattern.finditer(text):
            start, run = m.start(1), m.group(1)
            for word in _JA_TIME:
                if run.startswith(word) and len(run) - len(word) >= 2:
                    start, run = start + len(word), run[len(word):]
            out.append((start, start + len(run), "LOCATION"))
    for pattern in (_KO, _KO_HOME):
        for m in pattern.finditer(text):
            if m.group(1) not in _KO_NOT_TOWNS:
                out.append((m.start(1), m.end(1), "LOCATION"))
    for m in _HI.finditer(text):
        if m.group(1) not in _HI_NOT_TOWNS:
            out.append((m.start(1), m.end(1), "LOCATION"))
    for m in _TH.finditer(text):
        run = m.group(1)
        cut = _TH_CUTS.search(run, 1)
        run = run[:cut.start()] if cut else run
        if len(run) >= 2:
            out.append((m.start(1), m.start(1) + len(run), "LOCATION"))
    for m in _EL.finditer(text):
        if m.group(1).split()[0] not in _EL_STREET_KINDS:  # a street is the address rule's
            out.append((m.start(1), m.end(1), "LOCATION"))
    for pattern in (_TR_LIVE, _TR_FROM):
        for m in pattern.finditer(text):
            out.append((m.start(1), m.end(1), "LOCATION"))
    return out
