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
    after the name, "है"; a pronoun that is no name, "Sie" in "Ich heiße Sie willkommen"); where the frame takes
    other words as often (Russian "я"), the fewest capitalised words that make a name (a given and a family name)."""

    language: str
    frames: tuple[str, ...]
    script: Script
    stops: frozenset[str] = frozenset()
    min_words: int = 1


INTRODUCTIONS: tuple[Introduction, ...] = (
    Introduction("ru", (r"меня[ \t]+зовут", r"моё[ \t]+имя", r"мое[ \t]+имя", r"моя[ \t]+фамилия"), "cased"),
    Introduction("uk", (r"мене[ \t]+звати", r"моє[ \t]+ім['’]я", r"моє[ \t]+прізвище"), "cased"),
    Introduction("bg", (r"казвам[ \t]+се", r"името[ \t]+ми[ \t]+е", r"аз[ \t]+се[ \t]+казвам"), "cased"),
    Introduction("el", (r"με[ \t]+λένε", r"ονομάζομαι", r"λέγομαι", r"το[ \t]+όνομά[ \t]+μου[ \t]+είναι",
                        r"είμαι[ \t]+(?:ο|η)"), "cased"),
    Introduction("ru-ya", (r"(?:^|(?<=[,.!?:;]))[ \t]*я[ \t]*[—–-]?",), "cased", min_words=2),
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


@dataclass(frozen=True, slots=True)
class Kinship:
    """A language's way of naming a relative or a friend: the words before the relation word (a possessive or a
    preposition that governs it, ``before``; empty where none stands there, Greek puts it after), the relation words with any inflection (regular expressions: "брат\\w*" reads брату, братом,
    братишка), what stands between the relation and the name (Greek "ο γιος μου ο Σπυράκος"), the script's way of
    marking a name and, where nouns are capitalised too (German), that the name must be a known given name."""

    language: str
    before: str
    relations: str
    script: Script
    between: str = ""
    given_name_only: bool = False


_RU_REL = (r"брат\w*|братишк\w*|сестр\w*|сестрёнк\w*|сестренк\w*|мам\w*|пап\w*|сын\w*|сыночк\w*|доч\w*|дочурк\w*|"
           r"внук\w*|внучк\w*|племянни\w*|подруг\w*|подружк\w*|друг\w*|друж\w*|муж\w*|жен\w*|бабушк\w*|бабул\w*|"
           r"дедушк\w*|дяд\w*|тёт\w*|тет\w*|кузен\w*|кузин\w*|коллег\w*|сосед\w*|крестни\w*|одноклассни\w*|"
           r"парн\w*|парень|девушк\w*|свекров\w*|тёщ\w*|тещ\w*|зят\w*|невестк\w*|учител\w*|учительниц\w*|"
           r"преподавател\w*|начальни\w*|руководител\w*|классн\w*[ \t]+руководител\w*|врач\w*|тренер\w*|"
           r"наставни\w*|репетитор\w*|научн\w*[ \t]+руководител\w*")
KINSHIPS: tuple[Kinship, ...] = (
    Kinship("ru", r"мо[йяеёи]|мо(?:его|ему|им|ей|ею|ю|их|ими|ём|ем)|наш\w*|с|со|у|к|ко|для|от|про|о|об", _RU_REL,
            "cased"),
    Kinship("uk", r"мі[йї]|мо[яєї]|мого|моєї|моєму|моїй|моїм|моїх|мою|наш\w*|з|із|зі|до|для|від|у|в|про",
            r"брат\w*|братик\w*|сестр\w*|сестричк\w*|дон\w*|доч\w*|син\w*|синочк\w*|онук\w*|онуч\w*|племінни\w*|"
            r"подруг\w*|друг\w*|чолов\w*|дружин\w*|бабус\w*|дідус\w*|дяд\w*|тітк\w*|кум\w*|сусід\w*|колег\w*|"
            r"викладач\w*|вчител\w*|вчительк\w*|учител\w*|керівни\w*|начальни\w*|лікар\w*|тренер\w*|"
            r"наставни\w*|репетитор\w*",
            "cased"),
    Kinship("bg", r"мо[йяеи]\w*|наш\w*|с|със|на|за|от",
            r"брат\w*|сестр\w*|дъщер\w*|син\w*|внук\w*|внучк\w*|приятел\w*|съпруг\w*|баба\w*|дядо\w*|леля\w*|"
            r"чичо\w*|вуйчо\w*|братовчед\w*|колег\w*|съсед\w*", "cased"),
    Kinship("el", "",
            r"γιο[ςυ]?|γιε|κόρη[ς]?|αδερφ\w*|αδελφ\w*|ξαδέρφ\w*|ξάδερφ\w*|φίλ\w*|φιλενάδ\w*|σύζυγ\w*|άντρα[ς]?|"
            r"γυναίκα|μητέρα|μάνα|μαμά|πατέρα[ς]?|μπαμπά[ς]?|γιαγιά|παππού[ς]?|θεί\w*|ανιψ\w*|εγγον\w*|"
            r"συνάδελφ\w*|γείτον\w*|γειτόνισσα|δάσκαλ\w*|δασκάλ\w*|καθηγητ\w*|προϊστάμεν\w*|διευθυντ\w*|"
            r"γιατρ\w*|σύντροφ\w*|αρραβωνιαστικ\w*|κουμπάρ\w*|νονά|νονό[ςυ]?|πεθερ\w*|κουνιάδ\w*", "cased",
            between=r"[ \t]+(?:μου|μας)(?:[ \t]+(?:ο|η|τον|την|του|της))?"),
    Kinship("de", r"mein\w*|unser\w*|dein\w*",
            r"schwester\w*|bruder|brüder\w*|tochter|töchter\w*|sohn\w*|söhne\w*|mutter|mama|mutti|vater\w*|papa|"
            r"oma|opa|tante|onkel\w*|cousine?n?|neffe\w*|nichte\w*|enkel\w*|freund\w*|frau|mann\w*|kolleg\w*|"
            r"nachbar\w*|schwager\w*|schwägerin|patenkind\w*|kind\w*", "cased", given_name_only=True),
    Kinship("pl", r"m[óo]j|moja|moje|moi|mojego|mojej|mojemu|moim|moją|moich|nasz\w*|z|ze|u|do|dla|od|o",
            r"brat\w*|braciszk\w*|siostr\w*|siostrzeń\w*|siostrzeni\w*|bratan\w*|córk\w*|córeczk\w*|syn\w*|mam\w*|"
            r"tat\w*|babci\w*|babk\w*|dziad\w*|wnucz\w*|wnuk\w*|cioci\w*|ciotk\w*|wuj\w*|kuzyn\w*|przyjaciel\w*|"
            r"przyjaciół\w*|koleg\w*|koleżank\w*|mąż|męż\w*|żon\w*|sąsiad\w*|chłopak\w*|dziewczyn\w*|"
            r"narzeczon\w*", "cased"),
    Kinship("cs", r"můj|moje|moji|mého|mé|mému|mou|mým|mými|mých|náš\w*|naš\w*|s|se|u|k|ke|pro|od|o",
            r"bratr\w*|brách\w*|sestr\w*|sestřenic\w*|bratran\w*|dcer\w*|syn\w*|mám\w*|maminc\w*|tát\w*|táta|"
            r"babičk\w*|děd\w*|vnuk\w*|vnučk\w*|kamarád\w*|přítel\w*|manžel\w*|tet\w*|strýc\w*|soused\w*|"
            r"koleg\w*|neteř\w*|synovec\w*", "cased"),
    Kinship("es", r"mi|mis|nuestr[oa]s?",
            r"herman[oa]s?|hij[oa]s?|prim[oa]s?|amig[oa]s?|abuel[oa]s?|tí[oa]s?|sobrin[oa]s?|novi[oa]s?|"
            r"espos[oa]s?|marido|mujer|vecin[oa]s?|compañer[oa]s?|suegr[oa]s?|niet[oa]s?|madre|padre|mamá|papá",
            "cased"),
    Kinship("it", r"mio|mia|miei|mie|nostr[oaie]",
            r"fratell\w*|sorell\w*|figli\w*|cugin\w*|amic\w*|nonn\w*|zi[oaie]|nipot\w*|marito|moglie|"
            r"fidanzat\w*|vicin\w*|collega|colleghi|mamma|papà|madre|padre|suocer\w*", "cased"),
    Kinship("fr", r"mon|ma|mes|notre|nos",
            r"frère|frères|sœur|soeur|sœurs|soeurs|fils|fille|cousin|cousine|ami|amie|copain|copine|grand-mère|"
            r"grand-père|mamie|papi|tante|oncle|neveu|nièce|mari|femme|voisin|voisine|collègue|beau-frère|"
            r"belle-sœur|belle-soeur|mère|père|petit-fils|petite-fille", "cased"),
    Kinship("pt", r"meu|minha|meus|minhas|noss[oa]s?",
            r"irmão|irmã|irmãos|irmãs|filh[oa]s?|prim[oa]s?|amig[oa]s?|avó|avô|ti[oa]s?|sobrinh[oa]s?|marido|"
            r"esposa|mulher|namorad[oa]|vizinh[oa]|colega|mãe|pai|net[oa]", "cased"),
    Kinship("nl", r"mijn|onze|ons",
            r"broer\w*|zus\w*|zuster|zoon\w*|dochter\w*|neef\w*|nicht\w*|vriend\w*|oma|opa|tante|oom|man|vrouw|"
            r"buurman|buurvrouw|collega|moeder|vader|kleinzoon|kleindochter", "cased"),
    Kinship("sv-no-da", r"min|mitt|mina|mine|vår|vårt|våra|vores",
            r"bror|broder|syster|søster|dotter|datter|son|sønn|søn|mamma|pappa|mormor|farmor|morfar|farfar|"
            r"kusin|kusine|fætter|fetter|vän|venn|ven|veninde|väninna|venninne|fru|kone|granne|nabo|kollega",
            "cased"),
    # Turkish marks the possessive with a suffix on the relation ("oğlum", "kızımız", "annemin"): no word before.
    Kinship("tr", "",
            r"(?:oğl|kız|anne|baba|eş|kardeş|torun|kuzen|arkadaş|komşu|teyze|amca|dayı|hala|abla|abi|ağabey|yeğen|"
            r"koca|kar|nişanlı|sevgili|dede|nine|babaanne|anneanne|gelin|damat|kayınvalide)"
            r"(?:[ıiuü]?m|[ıiuü]?m[ıiuü]z)", "cased"),
    Kinship("hi", r"(?:मेरा|मेरी|मेरे|हमारा|हमारी|हमारे)(?:[ \t]+(?:छोटी|छोटा|छोटे|बड़ी|बड़ा|बड़े|प्यारी|प्यारा|प्यारे))?",
            r"भाई|बहन|बेटा|बेटी|बेटे|माँ|मां|पापा|पिताजी|पिता|दादी|दादा|नानी|नाना|चाचा|चाची|मामा|मामी|मौसी|बुआ|"
            r"भतीजा|भतीजी|भतीजे|भांजा|भांजी|भांजे|दोस्त|सहेली|पत्नी|पति|पड़ोसी|पड़ोसन|सहकर्मी|भैया|दीदी|पोता|"
            r"पोती|नाती|नातिन|कज़िन|कजिन|शिक्षक|शिक्षिका|अध्यापक|अध्यापिका|टीचर|गुरुजी|गुरु|सहपाठी|बॉस|मैनेजर|"
            r"डॉक्टर|मित्र|साथी|सास|ससुर|देवर|ननद|भाभी|जीजा|जीजाजी|साली|साला|मकान[ \t]+मालिक|प्रोफेसर|प्रोफ़ेसर", "uncased"),
    # Thai: a relation or a role and its possessive (ของฉัน, ของผม), ชื่อ ("named") or a space, an optional title,
    # then a given name and a family name split by one space, read as a Thai self-introduction's name is; Thai
    # puts no space between words, so a relation is no word of its own (ตา, อา, น้า are inside หน้าตา, หน้า: left out).
    Kinship("th", "",
            r"เพื่อนร่วมงาน|เพื่อนสนิท|เพื่อน|ภรรยา|ภริยา|สามี|แฟน|คู่หมั้น|ลูกสาว|ลูกชาย|ลูก|พี่สาว|พี่ชาย|น้องสาว|"
            r"น้องชาย|พี่|น้อง|คุณแม่|คุณพ่อ|แม่|พ่อ|ยาย|ปู่|ป้า|ลุง|หลาน|คุณครู|ครู|อาจารย์|หัวหน้า|"
            r"เจ้านาย|เพื่อนบ้าน|ลูกพี่ลูกน้อง|แม่บ้าน", "thai",
            between=r"ของ(?:ฉัน|ผม|ดิฉัน|เรา|หนู|กระผม)(?:[ \t]*ชื่อ[ \t]*|[ \t])"),
)
# Devanagari words after a relation that are no name: postpositions, pronouns, adverbs, a copula and the verbs a
# sentence goes on with ("मेरी बहन को", "मेरे भाई ने", "मेरी बहन बहुत ...", "मेरी बहन पूछती है").
KIN_STOPS_HI: frozenset[str] = frozenset(nfkc(tuple(
    "को ने से का की के है हैं था थी थे और भी बहुत अभी कल आज हमेशा एक यह वह ये वो जो ही तो में पर लिए साथ नहीं क्या "
    "कैसे कब कहाँ कौन बोली बोला कहती कहता कहा पूछ पूछा पूछी पूछती पूछता चाहती चाहता चाहते रहती रहता रहते "
    "जानना जानती जानता अब फिर सबसे ज़्यादा ज्यादा".split())))

# Labels of a form's name field in the scripts whose keys the key-value rule does not read (a Devanagari vowel
# sign is no word character there) or whose words it does not list: a person's name follows the colon
# ("आवेदक: सुरेंद्र कुशवाहा", "ชื่อ: สุนิสา แก้วประเสริฐ", "Ονοματεπώνυμο: ...", "שם מלא: ...").
NAME_FIELD_LABELS: tuple[str, ...] = nfkc((
    "नाम", "पूरा नाम", "आवेदक", "आवेदक का नाम", "प्रार्थी", "मरीज़ का नाम", "मरीज का नाम", "पिता का नाम", "माता का नाम",
    "ชื่อ", "ชื่อ-นามสกุล", "ชื่อ-สกุล", "ชื่อผู้ติดต่อ", "ผู้ติดต่อ", "Όνομα", "Ονοματεπώνυμο", "Επώνυμο", "שם", "שם מלא",
    "الاسم الكامل", "نام", "نام و نام خانوادگی", "Họ và tên", "Họ tên", "Nama", "Nama lengkap",
))
# Closings after which a writer signs with their name alone on the next line, in other languages than English
# (the English ones are ``sign_offs``).
CLOSINGS: tuple[str, ...] = nfkc((
    "С уважением", "С наилучшими пожеланиями", "Спасибо", "З повагою", "С уважение", "Με εκτίμηση", "Ευχαριστώ",
    "敬具", "よろしくお願いします", "よろしくお願いいたします", "此致", "敬礼", "谢谢", "謝謝", "감사합니다", "올림", "드림",
    "सादर", "धन्यवाद", "भवदीय", "مع تحياتي", "مع خالص التحيات", "شكرا", "شكراً", "ขอบคุณ", "ด้วยความเคารพ",
    "Trân trọng", "Hormat saya", "Salam",
))
