"""Evidence of a private person around a name, one definition for the public lists that keep a name by its frame
(``encyclopedic_persons``, ``public_works``) so that no frame keeps a name another would hide. ``private_evidence``
reads the paragraph around the name and around its other mentions: a possessive or relation word, a
self-introduction, a personal title, a contact value, an ID, words of everyday private life or work, first
person, the settings of a private life, a sign-off or a signature, a record's line for the name.
``private_person_in_text`` reads the whole text, for the rules that keep a name or a place only where a text holds
no evidence of a private person anywhere (``knowledge_requests``, ``travel_places``, ``encyclopedic_persons``):
narrower words (no bare "I", "we" or "tomorrow": "How do I make ...", "We're staying in ..." speak of the user,
not of a person named), its list in the function's doc. Both read the text as one name sees it
(``scoped``): a sentence other than the name's whose evidence has an owner named in it ("I'm Teodoro Abaroa,
born 11/07/1984.", "My colleague Oddny Vesterhus needs this; her number is ...") speaks of that owner, not of
the name, and is left out (docs/adr/0037). Cue words written by hand for ztgate."""

from __future__ import annotations

import functools
import itertools
import re

from ztgate.redaction.detection.text_shape import CONTACT_VALUE, sentence_bounds
from ztgate.redaction.detection.wordlists import phrases, words

# Evidence of a private person in the paragraph around the name.
_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues") - {"named", "called"}), key=len,
                             reverse=True))
_PRIVATE_WORDS = re.compile(
    rf"(?i)\b(?:my|our|your|yours|mine|ours|i'm|i’m|i\s+am|i've|i’ve|i'd|i’d|we're|we’re|we've|we’ve|"
    r"my\s+name|patients?|clients?|customers?|employees?|tenants?|applicants?|residents?|candidates?|staff|"
    rf"coworkers?|colleagues?|{_RELATIONS}|"
    # everyday private life and work
    r"tonight|tomorrow|yesterday|this\s+(?:morning|afternoon|evening|week|weekend|month)|"
    r"next\s+(?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|last\s+(?:night|week|month)|"
    r"again|meetings?|appointments?|deadlines?|invoices?|lease|rent|salary|payroll|paycheck|tickets?|stand-?up|"
    r"sprints?|shifts?|inbox|interviews?|sick|birthday|wedding|hospital|clinic|diagnos\w*|prescri\w*|medication|"
    r"therapy|insurance|loan|mortgage|password|login|lives?\s+(?:at|in|on|near|with)|living\s+(?:at|in|with)|"
    r"live\s+(?:at|in|near|with)|resides?|address|moved\s+to|apartment|e-?mail|phone|mobile|cell\s*phone|contact|"
    r"whatsapp|slack|zoom|pull\s+request|PR|deploy\w*|bug|leak|outage|"
    r"incident|typo|promotion|fired|hired|resume|CV|dm|text\s+(?:him|her|me)|call\s+(?:him|her|me)|"
    r"late\s+(?:again|today|for|to)|at\s+(?:the\s+)?office|in\s+the\s+office|signed?\s+(?:the\s+)?(?:lease|"
    r"contract|form|offer)|ID|MRN|SSN|DOB|no\.\s*\d|"
    # first person, and the settings of a private life: work, school, a neighbourhood, a day of the week
    r"we|at\s+work|workplace|workmates?|school|classroom|neighbou?rhood|"
    r"neighbou?rs|local|funeral|audit|raffle|(?:on|by|this|next|last)\s+(?:monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday))\b"
    r"|(?-i:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Doctor)\b\.?|\b(?<![Tt]ell\s)(?<![Gg]ive\s)(?<![Ss]how\s)us\b)|@"
    r"|\b[A-Z]{1,4}-?\d{5,}\b")
# "I" as a pronoun, not a numeral after a capitalised word ("Elizabeth I", "World War I").
_I = re.compile(r"\bI\b")
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’\-]*)\s+$")
_DIGITS = re.compile(r"\+?\(?\d[\d\s().\-/]{6,}\d")
_SELF_INTRO = re.compile(r"(?i:\b(?:this\s+is|it['’]s|here\s+is))\s+[A-Z][\w'’\-]*\s+(?i:from|at|here|speaking)\b")
_SIGN_OFF = re.compile(
    r"(?im)^[ \t]*(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases("sign_offs"))
    + r")[ \t]*[,!.]?[ \t]*$|^--[ \t]*$")
_RECORD_LINE = re.compile(r"[|\t{}\[\]<>\"=;]|^[ \t]*[\w .\-]{1,30}:[ \t]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")

# How far the paragraph is read around the name.
PARAGRAPH_REACH = 300
# How many mentions of the name are read; past it the name is treated as private.
MAX_MENTIONS = 20


def private_evidence(text: str, start: int, end: int) -> bool:
    """Whether the paragraph around text[start:end], or around another mention of the same name or its last
    word in the text ("Best regards,\nAnna Kowalczyk" below the question), holds evidence of a private person
    (module doc)."""
    text = scoped(text, start, end)
    if _private_paragraph(text, start, end):
        return True
    value = text[start:end].strip()
    words_of = value.split()
    for word in {value, words_of[-1] if words_of else value}:
        if len(word) < 3:
            continue
        # The mentions are counted before any is read: a text that repeats the name past what is read fails
        # closed at once, so each span costs at most MAX_MENTIONS paragraphs, never more as the text grows.
        mentions = list(itertools.islice(re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text), MAX_MENTIONS + 1))
        if len(mentions) > MAX_MENTIONS:
            return True
        if any((m.start() < start or m.end() > end) and _private_paragraph(text, m.start(), m.end())
               for m in mentions):
            return True
    return False


def _private_paragraph(text: str, start: int, end: int) -> bool:
    """The paragraph around text[start:end] (blank lines bound it, at most ``PARAGRAPH_REACH`` characters each
    side) holds evidence of a private person, or the name's line is a record's."""
    lo = max(0, start - PARAGRAPH_REACH)
    breaks = [m.end() for m in _PARAGRAPH_BREAK.finditer(text, lo, start)]
    lo = breaks[-1] if breaks else lo
    hi = min(len(text), end + PARAGRAPH_REACH)
    found = _PARAGRAPH_BREAK.search(text, end, hi)
    hi = found.start() if found else hi
    if (any(m.end() <= start or m.start() >= end for m in _PRIVATE_WORDS.finditer(text, lo, hi))
            or _SELF_INTRO.search(text, lo, hi) or _pronoun_i(text, lo, hi)
            or _SIGN_OFF.search(text[lo:hi]) is not None):
        return True  # words inside the name itself are no evidence ("Mine" as a given name)
    if _phone_like(text, lo, hi):
        return True
    # The name's line, read within the paragraph's bounds (a text without line breaks was read whole per span).
    line_start = text.rfind("\n", lo, start) + 1 or lo
    line_end = text.find("\n", end, hi)
    line = text[line_start:hi if line_end < 0 else line_end]
    return _RECORD_LINE.search(line) is not None


def _pronoun_i(text: str, lo: int, hi: int) -> bool:
    """An "I" in text[lo:hi] that is the pronoun: no capitalised word right before it, or that word starts a
    sentence ("Then I found")."""
    for mention in _I.finditer(text, lo, hi):
        before = _WORD_BEFORE.search(text, max(lo, mention.start() - 40), mention.start())
        if before is None or before.group(1)[0].islower():
            return True
        ahead = text[max(lo, before.start() - 3):before.start()].rstrip()
        if not ahead or ahead[-1] in ".!?\n":
            return True
    return False


# Evidence of a private person anywhere in a text (``private_person_in_text``). Role words of a private life,
# after a possessive ("my colleague", "our client", "your patient") or right before a capitalised name
# ("patient Anna", "colleague Tom").
_ROLES = (rf"{_RELATIONS}|patients?|clients?|customers?|employees?|tenants?|applicants?|residents?|candidates?|"
          r"students?|pupils?|colleagues?|co-?workers?|teammates?|classmates?|friends?|neighbou?rs?|dentist|"
          r"therapist|tutor|teacher|coach|supervisor|landlord|landlady|guests?|passengers?|members?|users?|"
          r"subscribers?|staff|team|department|office|family|kids?|children|child|baby|wife|husband|school|"
          r"class|club|church|gym|village|street|neighbou?rhood|company|firm|shop|ward|practice|surgery|parents|"
          r"grandparents|relatives|in-laws|siblings|cousins|folks")
_TEXT_PRIVATE = re.compile(
    rf"(?i)\b(?:my|our|your)\s+(?:[\w\-]+\s+){{0,2}}?(?:{_ROLES})\b"
    rf"|\b(?:{_ROLES})\s+(?-i:[A-Z])"
    # self-introduction, titles of private persons
    r"|\b(?:my\s+name\s+is|i\s+am\s+called|call\s+me|(?:i['’]m|i\s+am|this\s+is|it['’]s)\s+(?-i:[A-Z][a-z]))"
    r"|(?-i:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Doctor|Madam|Mister)\b\.?\s+[A-Z])"
    # contact, identity, booking and member context, dates of birth, a home
    r"|\b(?:date\s+of\s+birth|d\.o\.b\.?|dob|birthday|social\s+security|passport|national\s+id|"
    r"(?:licen[cs]e|account|member(?:ship)?|policy|order|customer|patient|case|claim|student|employee|staff|"
    r"booking|reservation|reference|ticket|tracking)\s+(?:number|no\.?|id|code|ref)|booking|reservation|"
    r"passenger|boarding\s+pass|frequent\s+flyer|loyalty\s+(?:card|number)|check-?in|invoice|payslip|payroll|"
    r"salary|postcode|post\s+code|zip\s+code|(?-i:address)|home\s+address|lives?\s+(?:at|in|on|near|with)|"
    r"living\s+(?:at|in|with)|resides?|e-?mails?|phone\s+number|mobile\s+number|cell\s+number|whatsapp|"
    r"telegram|wechat|slack|voicemail|inbox|dm|text\s+(?:him|her|me|them)|password|login|patients?|"
    # workplace and everyday-life documents and events: a private person's matters
    r"meetings?|budget|deadlines?|bugs?|pull\s+requests?|deploy\w*|outage|incident|typo|stand-?ups?|sprints?|"
    r"shifts?|sick|wedding|funeral|insurance|mortgage|loan|audit|neighbou?rhood|fired|hired|"
    r"proposal|offsite|off-site|agenda|minutes\s+of|memo|"
    r"reports?\s+(?:to|on|for|about)|feedback|complaint|approv(?:e|ed|al)|holiday\s+request|leave\s+request|"
    r"performance\s+review|appraisal|promotion|new\s+hire|onboarding|reception|quarterly|spreadsheet|"
    r"presentation|roster|timesheet|rent|lease|appointment|interview|contract|supplier|vendor|warehouse|"
    r"(?:sales|finance|marketing|support|engineering|product|design|legal|hr|it|ops|accounts|data|project)\s+"
    r"team|at\s+(?:work|school|the\s+club)|raffle|sports\s+day|after\s+the\s+call|on\s+the\s+call|the\s+thread|"
    r"group\s+chat|team\s+chat)\b"
    # communication aimed at someone named ("write to Anna", "remind Tom", "send it to Priya")
    r"|(?-i:\b(?:[Ww]rite\s+to|[Ee]-?mail|[Cc]all|[Rr]ing|[Pp]hone|[Tt]ext|[Mm]essage|[Rr]emind|[Aa]sk|[Tt]ell|"
    r"[Ii]nvite|[Pp]ing|[Cc][Cc]|[Ff]orward\s+(?:it|this|that)\s+to|[Rr]eply\s+to|[Ss]end\s+(?:it\s+|this\s+|that\s+|"
    r"(?:the|an?)\s+[\w\-]+\s+)?to|[Mm]eet(?:ing)?\s+with|[Cc]ontact|[Nn]otify|[Ii]nform|[Tt]hank|[Cc]ongratulate)"
    r"\s+[A-Z][a-z])"
    # a greeting, or a name addressed at a sentence's start ("Anna, can you ...")
    r"|(?im:^[ \t]*(?:dear|hi|hello|hey|good\s+(?:morning|afternoon|evening))\b)"
    r"|(?m:(?:^|[.!?]\s+)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?,\s+(?i:can|could|would|will|please|do|did|are|have|is|"
    r"i|we|you|thanks|let|just|quick))"
    # identifiers, e-mail addresses and handles, numeric dates
    r"|\b[A-Z]{1,4}-?\d{5,}\b|[\w.+\-]@[\w\-]|(?<![\w@])@[A-Za-z][\w.]{2,}"
    r"|\b\d{1,2}[./\-]\d{1,2}[./\-](?:\d{4}|\d{2})\b|\b\d{4}-\d{2}-\d{2}\b")

# --- evidence with an owner of its own ------------------------------------------------------------------------
# A sentence's end: ., ! or ? before a space (not after a title's or a number's abbreviation: "Dr.", "no.",
# "Tel."), or a line break.
# A name's initial ("J. R. R. Tolkien", "John F. Kennedy") and "Jr."/"Sr." end no sentence.
_SENTENCE_END = re.compile(r"[?!](?=\s)|\.(?<!Dr\.)(?<!Mr\.)(?<!Ms\.)(?<!Mrs\.)(?<!St\.)(?<!Prof\.)(?<!\b[Nn]o\.)"
                           r"(?<!\b[Nn]r\.)(?<!\b[Tt]el\.)(?<!\b[Rr]ef\.)(?<!\b[A-Z]\.)(?<!\bJr\.)(?<!\bSr\.)(?=\s)|\n")
# Who a sentence's evidence belongs to, named in it: the writer introducing themself, a private role or relation
# with its name ("my colleague Oddny", "our landlord Ferdinand"), someone the message is sent to ("send the
# answer to Wanjiru"), a personal title and a name.
_OWNER = re.compile(
    r"(?i:\b(?:i['’]m|i\s+am|my\s+name\s+is|my\s+name['’]s|this\s+is|it['’]s|call\s+me|i\s+am\s+called))"
    r"\s+(?-i:[A-Z][\w'’\-]+)"
    rf"|(?i:\b(?:my|our|your)\s+(?:[\w\-]+\s+){{0,2}}?(?:{_ROLES}))\s+(?-i:[A-Z][\w'’\-]+)"
    r"|(?-i:\b(?:[Ww]rite|[Ss]end|[Rr]eply|[Ff]orward|[Ee]-?mail|[Tt]ext|[Mm]essage|[Pp]ass|[Gg]ive|[Ss]hare)\b"
    r"[^.!?\n]{0,40}?\bto\s+[A-Z][\w'’\-]+)"
    r"|(?-i:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Doctor)\b\.?\s+[A-Z][\w'’\-]+)")
# Third-person pronouns: before the owner is named, one may point back at the name ("Who is X? She said my ...").
_THIRD_PERSON = re.compile(r"(?i)\b(?:he|she|him|her|hers|his|they|them|their|theirs)\b")
_NAME_WORD = re.compile(r"[^\W\d_]{3,}")


# A paragraph that is a record or a signature names its owner on a line of its own: a name's label in the
# languages of the record layouts ztgate reads, a mail header's sender, or a sign-off (its name follows).
_NAME_LABELS = ("name", "full name", "nom", "nombre", "nome", "naam", "navn", "namn", "nimi", "imię", "jméno",
                "név", "имя", "фио", "ім'я", "όνομα", "नाम", "名前", "氏名", "姓名", "이름", "الاسم", "שם", "isim",
                "ad soyad", "tên", "ชื่อ", "from", "von", "sender", "signed")
_RECORD_OWNER = re.compile(r"(?im)^[ \t]*(?:" + "|".join(re.escape(label) for label in _NAME_LABELS)
                           + r")[ \t]*[:：][ \t]*\S")


def private_person_in_sentence(text: str, start: int, end: int) -> bool:
    """``private_person_in_text`` of the sentence around text[start:end] alone (at most ``PARAGRAPH_REACH``
    characters each side)."""
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, start - PARAGRAPH_REACH), start)),
             default=max(0, start - PARAGRAPH_REACH))
    found = _SENTENCE_END.search(text, end, min(len(text), end + PARAGRAPH_REACH))
    return _private_person_in_short_text(text[lo:found.start() if found else min(len(text), end + PARAGRAPH_REACH)])


def scoped(text: str, start: int, end: int) -> str:
    """The text as the name text[start:end] sees it: the asker's own clauses of its sentence (``asker_scoped``),
    each other paragraph that is a record or a signature with its owner (``_RECORD_OWNER``, a sign-off), and each
    other sentence whose evidence has an owner named in it (``_OWNER``), blanked (same length, so offsets hold)
    where no third-person pronoun comes before that owner and no word of the name is there. Other evidence in the
    name's own sentence, or with no owner, still counts."""
    text = asker_scoped(text, start, end)
    if _OWNER.search(text) is None and _RECORD_OWNER.search(text) is None and _SIGN_OFF.search(text) is None:
        return text
    name_words = {w.lower() for w in _NAME_WORD.findall(text[start:end])}
    pieces: list[str] = []
    for lo, hi, part in _pieces(text, _PARAGRAPH_BREAK):
        holds_name = lo <= start < hi or lo < end <= hi
        if not holds_name and _owned(part, name_words, _record_owner(part)):
            pieces.append(" " * len(part))
        else:
            pieces.append(_scoped_sentences(part, start - lo, end - lo, name_words))
    return "".join(pieces)


# --- the asker's own contact in a clause of its own (docs/adr/0042) ----------------------------------------------
# Where a clause of a sentence ends: a colon or a semicolon before a space, a dash between spaces, an em dash, a
# bracket ("Email me at ADDRESS: who was X?", "Call me on NUMBER — what year ...", "Text me (NUMBER) when ...").
_CLAUSE_END = re.compile(r"[:;：；](?=\s)|\s[-–—]\s|—|[()（）]|" + _SENTENCE_END.pattern)
# A clause that asks: it ends in a question mark, or a question word or a request stands before the name in it.
_ASKING = re.compile(r"(?i)\b(?:which|what|how|where|when|why|whom|who|whose|explain|describe|compare|summari[sz]e|"
                     r"outline|tell\s+(?:me|us)\s+about)\b")
# A value that is somebody's own: a contact value, an identifier ("ZT-448812"), a handle ("@dmitri_kov"); and a
# phone-like run of digits (``_phone_like``).
_OWN_VALUE = re.compile(CONTACT_VALUE.pattern + r"|\b[A-Z]{1,4}-?\d{5,}\b|(?<![\w@])@[A-Za-z][\w.]{2,}")
# A person the clause points at before the name: a pronoun of the first or third person, in the languages the
# clause forms are read in ("you" is the model asked; "me" and "us" after a request, "tell me about", are not).
_POINTER = re.compile(r"\bI\b|(?i:\b(?:i['’]m|my|mine|we|our|he|she|him|her|his|they|them|their|er|sie|ihr|ihm|"
                      r"ich|mein|meine|elle|lui|je|mon|mes|ella|él|yo|mis|io|hon|han|jag|mitt|jeg|zij|hij|ik|mijn|"
                      r"ona|mój|moja|moje|meu|minha)\b)")


def asker_scoped(text: str, start: int, end: int) -> str:
    """The text with the asker's own clauses of the name's sentence (``asker_clauses``) blanked (same length)."""
    spans = asker_clauses(text, start, end)
    if not spans:
        return text
    out = list(text)
    for lo, hi in spans:
        out[lo:hi] = " " * (hi - lo)
    return "".join(out)


def asker_clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The asker's own clauses of the sentence of text[start:end] (at most ``PARAGRAPH_REACH`` characters each
    side): where the name's clause asks a question of its own (``_ASKING``, "?") and no pronoun before the name in
    it points at a person, the sentence's other clauses, once one of them holds a contact or identity value
    (``_OWN_VALUE``), that hold no third person (a pronoun, an owner named, a word of the name: "Email Anna Berg at
    ...: she lives in X" keeps its tie): "Email me at ADDRESS: who was Ashoka?" speaks of the asker, not of
    Ashoka (docs/adr/0042). Adjacent clauses come as one run."""
    lo, hi = sentence_bounds(text, start, end, _SENTENCE_END, PARAGRAPH_REACH, with_end=True)
    if _OWN_VALUE.search(text, lo, hi) is None and not _phone_like(text, lo, hi):
        return []
    clauses = [(a + lo, b + lo, part) for a, b, part in _pieces(text[lo:hi], _CLAUSE_END)]
    own = next(((a, b) for a, b, _ in clauses if a <= start < b), None)
    if own is None:
        return []
    a, b = own
    if not (_ASKING.search(text, a, start) or text[a:b].rstrip().endswith(("?", "？"))) or _POINTER.search(text, a, start):
        return []
    name_words = {w.lower() for w in _NAME_WORD.findall(text[start:end])}
    # A clause right after a mention of the name is the name's apposition ("NAME (patient ID ...)"), not the asker's.
    others = [(c_lo, c_hi) for i, (c_lo, c_hi, part) in enumerate(clauses)
              if c_lo != a and not _third_person(part, name_words)
              and not (i and _last_word(clauses[i - 1][2]) in name_words)]
    if not any(_OWN_VALUE.search(text, c_lo, c_hi) or _phone_like(text, c_lo, c_hi) for c_lo, c_hi in others):
        return []
    runs: list[tuple[int, int]] = []  # adjacent clauses as one run: "(07700 900123)" is cut at its bracket
    for c_lo, c_hi in others:
        if runs and runs[-1][1] == c_lo:
            runs[-1] = (runs[-1][0], c_hi)
        else:
            runs.append((c_lo, c_hi))
    return runs


def clause_bounds(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """The clause of text[lo:hi] (a sentence) that holds text[start:end], cut as ``asker_clauses`` cuts it."""
    for a, b, _ in _pieces(text[lo:hi], _CLAUSE_END):
        if a + lo <= start < b + lo:
            return a + lo, max(b + lo, end)
    return lo, hi


def clause_asks(text: str, lo: int, hi: int, start: int) -> bool:
    """The clause text[lo:hi] asks: it ends in a question mark, or a question word or a request stands before
    start in it."""
    return _ASKING.search(text, lo, start) is not None or text[lo:hi].rstrip().endswith(("?", "？"))


def _last_word(clause: str) -> str:
    words_of = _NAME_WORD.findall(clause)
    return words_of[-1].lower() if words_of else ""


def _third_person(clause: str, name_words: set[str]) -> bool:
    """A third person in the clause: a pronoun, an owner named (``_OWNER``), or a word of the name."""
    return (_THIRD_PERSON.search(clause) is not None or _OWNER.search(clause) is not None
            or any(w.lower() in name_words for w in _NAME_WORD.findall(clause)))


def _scoped_sentences(text: str, start: int, end: int, name_words: set[str]) -> str:
    return "".join(
        part if lo <= start < hi or lo < end <= hi or not _owned(part, name_words, _OWNER.search(part))
        else " " * len(part)
        for lo, hi, part in _pieces(text, _SENTENCE_END))


def _pieces(text: str, ends: re.Pattern[str]) -> list[tuple[int, int, str]]:
    """The text cut after each match of ``ends``: (start, end, piece), covering it whole."""
    out: list[tuple[int, int, str]] = []
    lo = 0
    for found in itertools.chain(ends.finditer(text), (None,)):
        hi = found.end() if found is not None else len(text)
        if hi > lo:
            out.append((lo, hi, text[lo:hi]))
            lo = hi
    return out


def _record_owner(paragraph: str) -> re.Match[str] | None:
    return _RECORD_OWNER.search(paragraph) or _SIGN_OFF.search(paragraph)


def _owned(sentence: str, name_words: set[str], owner: re.Match[str] | None) -> bool:
    if owner is None:
        return False
    pronoun = _THIRD_PERSON.search(sentence)
    if pronoun is not None and pronoun.start() < owner.start():
        return False
    return not any(w.lower() in name_words for w in _NAME_WORD.findall(sentence))


# A record's layout: a field line ("Name: ", "From: "), a table row, a JSON key.
_TEXT_RECORD = re.compile(
    r"(?im)^[ \t]*(?:name|full\s+name|from|to|cc|bcc|subject|sent|tel|telephone|phone|mobile|fax|e-?mail|"
    r"address|dob|patient|customer|employee|passenger|member|signed|signature|attn|re)[ \t]*:"
    r"|^[ \t]*\|.*\|.*\||\"[\w\- ]+\"\s*:|\t[^\t\n]+\t")
# Past this length a text is no short request: its names are not kept by the text-wide rules.
TEXT_MAX_CHARS = 1200


def private_person_in_text(text: str, start: int | None = None, end: int | None = None) -> bool:
    """Whether the text holds evidence of a private person anywhere (module doc): a relation or a private role
    ("my colleague", "our client", "patient Anna"), a self-introduction, a personal title, contact, identity,
    booking or member words, a home, workplace and everyday-life matters (a meeting, a budget, an invoice, a
    complaint), communication aimed at someone named ("write to", "remind", "send it to"), a greeting or a
    name addressed, a sign-off or a signature, a record's layout, a contact value, an identifier, a numeric
    date; with a name's span, the text as that name sees it (``scoped``). Fails closed on a text longer than
    ``TEXT_MAX_CHARS``."""
    if len(text) > TEXT_MAX_CHARS:
        return True
    return _private_person_in_short_text(text if start is None or end is None else scoped(text, start, end))


# Cached for the several names of one text; only short texts are keys, so the cache holds at most 64 of them.
@functools.lru_cache(maxsize=64)
def _private_person_in_short_text(text: str) -> bool:
    if (_TEXT_PRIVATE.search(text) is not None or _TEXT_RECORD.search(text) is not None
            or _SIGN_OFF.search(text) is not None or _SELF_INTRO.search(text) is not None):
        return True
    return _phone_like(text, 0, len(text))


def _phone_like(text: str, lo: int, hi: int) -> bool:
    """A run of digits in text[lo:hi] long enough for a phone or an account number (nine digits), or one after "+"."""
    return any(len(re.sub(r"\D", "", m.group())) >= 9 or m.group().startswith("+") for m in _DIGITS.finditer(text, lo, hi))
