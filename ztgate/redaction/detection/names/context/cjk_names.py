"""A name written in Chinese, Japanese or Korean script next to evidence that it is a person's: a
self-introduction (我叫, 私は…です, …と申します, 제 이름은…입니다), a form or contact label (姓名, 联系人, 氏名, 이름,
연락처), a relation (我妈妈, 母の, 엄마), a Korean vocative (서윤아,) or a signature line ("-- 佐藤健太").

The other rules read capitalised Latin words (``other_script`` finds "John Smith" inside Chinese text), and spaCy's
English model reads no CJK name at all: the scripts have no capitals, and their words are not split by spaces, so
a name there is found only by the words around it. Han names are bounded by the script's own stops (a
punctuation mark, a particle in kana, a verb or a preposition that follows a name: 在, 是, 的 ...); Korean names by
the particle after them (입니다, 은/는, 씨). A bare name with no cue (a public figure: 村上春樹, 孫文) stays."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = "\uac00-\ud7a3"
# A Han name: two to four characters, or a transliterated one joined by a middle dot (阿依古丽·买买提).
_HAN_NAME = rf"[{_HAN}]{{2,4}}(?:[·・•][{_HAN}]{{1,6}})?"
# A Japanese name may be written with a space between family and given name (佐藤 健太), and with the iteration
# mark 々 (佐々木, 野々村), which is no Han ideograph.
_JA_NAME = rf"[{_HAN}][{_HAN}々]{{0,4}}(?:[ \u3000][{_HAN}][{_HAN}々]{{0,2}})?[{_HAN}]?"
_KO_RUN = rf"[{_HANGUL}]{{2,8}}"

# Titles in Han after a Japanese name (森岡先生, 田中様, 山本氏, 健太君).
_JA_HAN_TITLES = ("先生", "先輩", "様", "氏", "君")
# Characters that follow a Chinese name and end it when no punctuation does ("我叫王志明在上海工作").
_ZH_AFTER = set("在是的和与跟也都住来從从今现現已很说說问問告觉覺知喜爱愛要想让讓给給对對会會去家就吧吗嗎呢啊，,。、；;：:（(")
# Particles and copulas that close a Korean name ("박서연입니다", "김민준은", "이수진 씨").
_KO_PARTICLES = re.compile(r"(?:입니다|이에요|예요|이고요|이고|이라고|라고|이며|씨|님|은|는|이|가|을|를|와|과|의|도|에게|한테)$")

_LABELS_ZH = r"(?:姓名|名字|联系人|聯絡人|聯繫人|联络人|收件人|收货人|收貨人|寄件人|申请人|申請人|患者|病人|学生姓名|學生姓名|家长|家長)"
_LABELS_JA = r"(?:氏名|お名前|名前|担当者|担当|受取人|宛名|署名)"
_LABELS_KO = r"(?:이름|성명|성함|연락처|담당자|보호자|수령인|받는\s?사람|보내는\s?사람|신청인|환자)"
_REL_ZH = r"(?:我|我的|我们|我們|他的|她的)(?:导师|導師|主管|经理|經理|上司|徒弟|师父|師父|师傅|師傅|班主任|医生|醫生|合伙人|合夥人|搭档|搭檔|队友|隊友|前妻|前夫|对象|對象|同学|同學|学生|學生|老板|老闆|领导|領導|闺蜜|閨蜜|男朋友|女朋友|未婚妻|未婚夫|舅舅|阿姨|叔叔|姑姑|岳母|岳父|嫂子|姐夫|孙子|孫子|孙女|孫女|表妹|表弟|客户|客戶|房东|房東|房客|保姆|同桌|教练|教練|妈妈|媽媽|母亲|母親|爸爸|父亲|父親|妻子|老婆|丈夫|老公|先生|太太|儿子|兒子|女儿|女兒|哥哥|姐姐|弟弟|妹妹|朋友|同事|老师|老師|奶奶|爷爷|爺爺|外婆|外公|室友|邻居|鄰居|表姐|表哥|堂兄)"
_REL_JA = r"(?:先輩|後輩|恩師|担任|担任の先生|主治医|家内|嫁|彼女|恋人|知人|同級生|幼なじみ|幼馴染|義姉|義兄|義妹|義弟|大家|母|父|妻|夫|主人|息子|娘|兄|姉|弟|妹|祖母|祖父|友人|友達|同僚|上司|部下|義母|義父|姪|甥|孫|いとこ|従姉妹|従兄弟|親友|叔母|叔父|伯母|伯父|彼氏|婚約者)"
_REL_KO = r"(?:엄마|어머니|아빠|아버지|아내|남편|친구|남동생|여동생|동생|언니|누나|형|오빠|할머니|할아버지|동료|아들|딸|조카|사촌|이모|고모|삼촌|손자|손녀|남자친구|여자친구|남친|여친)"

# A role or a relation in Korean, then its adnominal copula ("who is my ..."), before a name: "담임 선생님이신 …",
# "제 직장 동료인 …", "후배인 …" (a bare 선생님 is followed by common nouns as often: 선생님 말씀).
_ROLE_KO = (r"(?:선생님|교수님|팀장님|과장님|부장님|대리님|사장님|원장님|실장님|선배|후배|상사|동료|친구|동기|"
            r"남자친구|여자친구|약혼자|약혼녀|룸메이트|이웃)(?:이신|인|이자)")
# Chinese "sign it as" and "send it to": 署名写/落款/签名 and 转发给/发给/寄给/写信给 before a name with a surname.
_SIGN_ZH = r"(?:署名|落款|签名|簽名)(?:写|寫|为|為|是|用)?[ \t]*[:：]?[ \t]*"
_SEND_ZH = r"(?:转发给|轉發給|发给|發給|寄给|寄給|写信给|寫信給|回复给|回覆給|交给|交給|转交给|轉交給)[ \t]*"

_CUES: tuple[tuple[re.Pattern[str], str], ...] = (
    # Chinese self-introductions and relations, then a Han name.
    (re.compile(rf"(?:我叫|我名叫|我的名字是|我的名字叫|本人|我是)[ \t]*({_HAN_NAME})"), "zh"),
    (re.compile(rf"{_REL_ZH}[ \t]*[,，]?[ \t]*(?:叫)?({_HAN_NAME})"), "zh_rel"),
    (re.compile(rf"(?:{_SIGN_ZH}|{_SEND_ZH})({_HAN_NAME})"), "zh"),
    # Labels in Chinese, then a name; in Japanese, a name that may hold a space (氏名: 佐藤 健太).
    (re.compile(rf"{_LABELS_ZH}[ \t]*[:：]?[ \t\u3000]*({_HAN_NAME})"), "label"),
    # (Not before a Chinese verb: 署名写…, 署名为… is the Chinese sign-as cue's, which needs a surname.)
    (re.compile(rf"{_LABELS_JA}[ \t]*[:：]?[ \t\u3000]*(?![写寫为為是用])({_JA_NAME})(?![{_HAN}])"), "ja"),
    # Japanese: 私は…です, 私の名前は…です, …と申します, a relation with の.
    (re.compile(rf"(?:私|わたし|僕|ぼく)(?:の名前)?は[ \t\u3000]*({_JA_NAME})(?:です|と申します|といいます)"), "ja"),
    (re.compile(rf"({_JA_NAME})(?:と申します|と言います|といいます)"), "ja"),
    # A letter's sender: "「森本 拓海より」", a name alone before より at a line's or a quotation's start.
    (re.compile(rf"(?:^|(?<=[「『\n]))[ \t\u3000]*({_JA_NAME})[ \t\u3000]*より(?=[ \t\u3000]*(?:[」』\n]|$))", re.M), "ja"),
    (re.compile(rf"{_REL_JA}の({_JA_NAME})(?=[がはをにとものさ様、。\s]|$)"), "ja"),
    # A given name in kana after a relation (妹のみずきが, 娘のユイちゃん): hiragana before a particle, unless a
    # common noun (妹のおもちゃが); katakana, which loanwords use as often (母のパソコン), only before an honorific.
    (re.compile(rf"{_REL_JA}の([\u3041-\u3096]{{2,5}})(?=ちゃん|くん|さん|が|は|も|と|、)"), "ja_kana"),
    (re.compile(rf"{_REL_JA}の([\u30a1-\u30fa\u30fc]{{2,6}})(?=ちゃん|くん|さん)"), "ja_kana"),
    # Korean: 제 이름은 … (not 저는 …입니다, which a role follows as often: 저는 학생입니다), a label, a relation.
    (re.compile(rf"(?:제[ \t]*이름은|내[ \t]*이름은|저의[ \t]*이름은)[ \t]*({_KO_RUN})"), "ko_intro"),
    (re.compile(rf"{_LABELS_KO}[ \t]*[:：]?[ \t]*({_KO_RUN}|{_HAN_NAME})"), "ko"),
    (re.compile(rf"{_REL_KO}[ \t]+({_KO_RUN})"), "ko"),
    (re.compile(rf"{_ROLE_KO}[ \t]+({_KO_RUN})"), "ko"),
    # A signature line: a dash and a name alone on the line ("-- 佐藤健太", "—— 陈静怡", "- 박지훈").
    (re.compile(rf"(?m)^[ \t]*(?:--|—+|–|-|～|〜)[ \t]*({_HAN_NAME}|{_JA_NAME}|[{_HANGUL}]{{2,4}})[ \t]*$"), "sig"),
)

# Chinese surnames (the hundred most common, single characters, in simplified and traditional forms, and the
# common two-character ones): after 我是 ("I am") a name must open with one, since a role follows as often
# ("我是学生", I am a student). Source: the surname frequency tables of China's 2020 census as widely published;
# written out by hand for ztgate.
_ZH_SURNAMES = frozenset(
    "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何林罗羅高郑鄭梁谢謝宋唐许許韩韓冯馮邓鄧曹彭曾肖田董袁潘于蒋蔣蔡余杜叶葉"
    "程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚陆陸汪范金石廖贾賈夏韦韋付方白邹鄒孟熊秦邱江尹薛闫閻段雷侯龙龍史陶黎贺賀顾顧毛郝龚龔邵"
    "万萬钱錢严嚴覃武戴莫孔向汤湯常温溫康施文牛樊葛邢安齐齊易乔喬伍庞龐颜顏倪庄莊聂聶章鲁魯岳翟殷詹申欧歐耿关關兰蘭焦俞左柳甘祝包"
    "宁寧尚符舒阮柯纪紀梅童凌毕畢单單季裴霍涂成苗谷盛曲翁冉骆駱蓝藍路游辛靳管柴蒙鲍鮑华華喻祁蒲房滕屈饶饒解牟艾尤阳陽时時穆农農司"
    "卓古吉缪繆简簡车車项項连連芦蘆麦麥褚娄婁窦竇戚岑景党黨宫宮费費卜冷晏席卫衛米柏宗瞿桂全佟应應臧闵閔苟邬鄔边邊卞姬师師和仇栾欒"
    "隋商刁沙荣榮巫寇桑郎甄丛叢仲虞敖巩鞏明佘池乐樂")
_ZH_COMPOUND_SURNAMES = ("欧阳", "歐陽", "司马", "司馬", "上官", "诸葛", "諸葛", "东方", "東方", "皇甫", "令狐", "慕容",
                         "司徒", "夏侯", "尉迟", "尉遲")


# Common nouns written in hiragana that follow a relation and its の (妹のおもちゃが, 母のことが): no given name.
_KANA_NOUNS = frozenset(
    "こと もの ため ところ ほう おもちゃ おかげ せい うち まえ あと よう とき ひと かた なか そば いえ へや "
    "ほん しごと がっこう かいしゃ はなし こども あかちゃん からだ かお て あたま おなか ごはん おべんとう "
    "たんじょうび けっこん びょうき けが かぜ しゅみ くるま いぬ ねこ ぶん かわり".split())


# A Korean given name called out with its vocative ending at a clause's start ("서윤아, 같이 하자", "지호야!"): -아
# after a syllable with a final consonant, -야 after one without. Two syllables, the given name alone; the few words
# that take these endings too (아니야, 그래야, 괜찮아) are no name.
_KO_VOCATIVE = re.compile(rf"(?:^|(?<=[\s\"'“‘「『(]))([{_HANGUL}]{{2}})(아|야)(?=[ \t]*[,，!！~])")
_KO_NOT_VOCATIVE = frozenset("아니 그래 진짜 정말 너무 이거 저거 그거 여기 저기 거기 어디 누구 친구 자기 여보 엄마 아빠 언니 오빠 "
                             "누나 동생 아가 얘들 애들 세상 하늘 사랑 바보 괜찮 귀찮 그렇 이렇 저렇 어떻 뭐야 당연 역시 "
                             "제발 설마 맙소 대박 최고".split())


def ko_vocatives(text: str) -> list[Span]:
    """Korean given names before their vocative ending (the syllable's final consonant agreeing with it)."""
    out: list[Span] = []
    for m in _KO_VOCATIVE.finditer(text):
        stem, ending = m.group(1), m.group(2)
        final = (ord(stem[-1]) - 0xAC00) % 28 != 0
        if stem not in _KO_NOT_VOCATIVE and final == (ending == "아"):
            out.append((m.start(1), m.end(1), "PERSON"))
    return out


def _zh_name(name: str, need_surname: bool) -> tuple[int, int] | None:
    """The name's own span inside the matched run (start offset, end offset), cut at the first character that
    follows a name; None where too short or, when a surname is needed, not opening with one."""
    end = len(name)
    for i, ch in enumerate(name):
        if i >= 2 and ch in _ZH_AFTER:
            end = i
            break
    compound = name.startswith(_ZH_COMPOUND_SURNAMES)
    name = name[:min(end, 4 if compound else 3)] if need_surname else name[:end]
    if len(name) < 2:
        return None
    if need_surname and not (name[0] in _ZH_SURNAMES or compound):
        return None
    return 0, len(name)


def _ko_name(run: str) -> tuple[int, int] | None:
    """A Korean name of two to four syllables before its particle ("박서연입니다" -> "박서연")."""
    name = run
    for _ in range(2):
        stripped = _KO_PARTICLES.sub("", name)
        if stripped == name:
            break
        name = stripped
    return (0, len(name)) if 2 <= len(name) <= 4 else None


class CjkNameRecognizer(ContextRule):
    NAME = "CjkNameRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON",)

    def find(self, text: str) -> list[Span]:
        if re.search(f"[{_HAN}{_HANGUL}]", text) is None:
            return []
        out: list[Span] = []
        for pattern, kind in _CUES:
            for m in pattern.finditer(text):
                run = m.group(1).rstrip(" \t\u3000")
                start = m.start(1)
                if kind == "ja_kana":
                    span = None if run in _KANA_NOUNS else (0, len(run))
                elif kind in ("ko", "ko_intro") and re.fullmatch(f"[{_HANGUL}]+", run):
                    span = _ko_name(run)
                elif kind in ("zh", "zh_rel"):
                    span = _zh_name(run, need_surname=True)
                elif kind in ("label", "sig") and "·" not in run and re.fullmatch(f"[{_HAN}]+", run):
                    span = _zh_name(run, need_surname=False)
                else:
                    if kind == "ja" and run.endswith(_JA_HAN_TITLES) and len(run) > 3:
                        run = run[:-2] if run.endswith(("先生", "先輩")) else run[:-1]  # 森岡先生: the title is no name
                    span = (0, len(run)) if len(run.replace(" ", "")) >= 2 else None
                if span is not None:
                    out.append((start + span[0], start + span[1], "PERSON"))
        return out + ko_vocatives(text)
