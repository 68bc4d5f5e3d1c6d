"""Public list ``knowledge_requests``: a name on no list (PERSON, LOCATION, NRP) is public where it is the topic of a
knowledge request in a text with no evidence of a private person anywhere; a rule from the absence of private
evidence, not a list of names. Kept when: the text holds no such evidence (``_private_context.
private_person_in_text``); the name's sentence asks (a question, an explain/describe/compare/summarise request); no
sentence that mentions the name speaks of a private person's matters (said, told, meant, thinks, a reply, coming,
reporting, went, sold, now, this week, "NAME's e-mail/notes/quote"); and something makes it a topic of knowledge:
knowledge words in its sentence (a deed, a work, a prize, a record, a science, an empire, a dish, "famous", "named
after", a year before 2016, a century, a decade, a sport), an epithet after it ("Suleiman the Magnificent"), a
determiner before it ("the Bosphorus", "which Beatle"), for an NRP a lower-case noun after it ("the Galilean moons"),
a sporting affiliation asked about ("Which country did NAME represent?", "Which club did NAME play for?"), or a lone
figure ("Tell me about NAME." where no sentence of the text speaks of a private matter). Words of lasting fame ("still
remembered today") are no private moment, "tell me" is the user's request, and a private team ("the office league") is
a private matter. ``person_ties`` applies on top. The default policy keeps it; ``strict`` does not. The trade:
docs/security.md (its two decisions on knowledge requests). Cue words written by hand."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import (
    MAX_MENTIONS, clause_asks, clause_bounds, private_person_in_text)
from ztgate.redaction.detection.public.encyclopedic_persons import asks
from ztgate.redaction.detection.text_shape import sentence_bounds

# What a private person's matters sound like in the sentence of the name.
_PRIVATE_SENTENCE = re.compile(
    r"(?i)\b(?:say|says|said|saying|tell(?!\s+(?:me|us)\b)|tells|told|mean|means|meant|thinks?|feels?|felt|"
    r"repl(?:y|ies|ied)|respond(?:s|ed)?|complain(?:s|ed)?|mention(?:s|ed)?|upset|angry|annoyed|worried|coming|"
    r"joining|leaving|quitting|talking|reporting|asking|wants?|wanted|needs?|owes?|owed|go|goes|went|gone|sold|"
    r"sells?|bought|buys?|lent|borrowed|paid|did\s+you\s+(?:see|hear|meet|know|read|notice)|"
    r"wr(?:ite|ites|ote|itten)\s+(?:to|back|me|us|him|her|them|an?\s+(?:e-?mail|note|message|letter))|"
    r"now|today|tonight|tomorrow|yesterday|yet|again|lately|recently|currently|still|"
    r"this\s+(?:morning|afternoon|evening|week|weekend|month|year|quarter)|"
    r"(?:next|last)\s+(?:week|month|year|night|time|quarter)|so\s+far)\b"
    # a team or a match of a private life ("the office league", "the company football team")
    r"|\b(?:office|company|work|pub|school|corporate|charity|staff|five-a-side|amateur|local|sunday|"
    r"intramural|departmental|team-building)\s+(?:league|team|tournament|match|game|quiz|run|race|cup|"
    r"football|squad)\b"
    # the name's document or matter
    r"|['’]s?\s+(?:[\w\-]+\s+)?(?i:e-?mails?|messages?|notes|note|memo|reports?|proposals?|quotes?|complaints?|"
    r"requests?|plans?|presentations?|cv|resume|application|invoices?|schedule|calendar|diary|posts?|comments?|"
    r"reviews?|answers?|repl(?:y|ies)|texts?|drafts?|slides|files?|documents?|budget|expenses|tickets?|"
    r"orders?|accounts?|results|figures|numbers|opinions?|ideas?|suggestions?|questions?|decisions?|views?|"
    r"birthday|party|wedding|house|flat|car|phone|number|address|salary|grades?|homework|essay|thesis)\b")
# Words of encyclopedic knowledge: deeds, works, prizes, records, sciences, realms, an era.
_KNOWLEDGE = re.compile(
    r"(?i)\b(?:achiev\w*|contribut\w*|discover\w*|invent\w*|found(?:ed|er|ing)?|design(?:ed)?|develop(?:ed)?|"
    r"creat(?:e|ed|or)|compos(?:e|ed|er)|paint(?:ed|er|ing|ings)?|sculpt\w*|taught|teach|prov(?:e|ed)|"
    r"calculat\w*|spread|rul(?:e|ed|er)|reign\w*|conquer\w*|captur\w*|built|build|led|defend(?:ed)?|"
    r"won|win|set|climb(?:ed)?|explor\w*|translat\w*|deciph\w*|observ\w*|predict\w*|patent\w*|pioneer\w*|"
    r"famous|famed|known|renowned|celebrated|legendary|remembered|historic\w*|named\s+after|"
    r"records?|prizes?|awards?|medals?|olympics?|championships?|titles?|marathon|innings|grand\s+slams?|"
    r"discovery|theor(?:y|ies|em)|laws?|experiments?|elements?|planets?|moons?|stars?|genes?|species|"
    r"mathematics|mathematician|physics|physicist|chemistry|chemist|biology|astronomy|science|scientists?|"
    r"philosoph\w*|history|legacy|religion|empires?|kingdoms?|dynast(?:y|ies)|emperor|empress|king|queen|"
    r"wars?|battles?|revolution|army|armies|navy|pyramids?|temples?|tombs?|monuments?|voyages?|expeditions?|"
    r"styles?|symphon(?:y|ies)|operas?|novels?|poems?|poetry|albums?|songs?|films?|paintings?|"
    r"languages?|protocols?|programming|algorithms?|dish|dishes|cuisine|region|centur(?:y|ies)|ancient|"
    r"medieval|era|BC|BCE|AD|CE|admired|revered|revolts?|rebellions?|uprisings?|conquests?|sports?|"
    r"athletes?|olympians?|world\s+cups?)\b"
    r"|\b(?:1\d\d\d|200\d|201[0-5])\b|\b1\d\d0s\b")
# Words of lasting fame that read like a private moment's ("still", "today"): "Explain why NAME is still
# remembered today". Cues of a private sentence inside such a phrase are not read as one.
_LASTING = re.compile(
    r"(?i)\b(?:still\s+)?(?:remembered|admired|revered|celebrated|famous|known|honou?red|studied|read|quoted|"
    r"influential|important|relevant|popular|taught|performed|played|visited)\s+(?:today|now|nowadays|"
    r"to\s+this\s+day)\b|\bstill\s+(?=(?:remembered|admired|revered|celebrated|famous|known|honou?red|studied|"
    r"read|quoted|influential|important|relevant|popular|taught|performed|played|visited)\b)")
# A sporting affiliation asked about: "Which country did NAME represent", "Which club did NAME play for".
_AFFILIATION = re.compile(
    r"(?i)\b(?:which|what)\s+(?:country|nation|national\s+team|team|club|side|franchise|flag)\s+"
    r"(?:did|does|do|has|had)\s+$")
_AFFILIATION_VERB = re.compile(
    r"(?i)\s+(?:(?:first|later|once|ever)\s+)?(?:represent(?:ed)?|play(?:ed)?\s+for|compete(?:d)?\s+for|"
    r"run\s+for|ran\s+for|race(?:d)?\s+for|ride\s+for|rode\s+for|box(?:ed)?\s+for|swim\s+for|swam\s+for|"
    r"captain(?:ed)?|coach(?:ed)?|manage(?:d)?|sign(?:ed)?\s+for|score(?:d)?\s+for|debut(?:ed)?\s+for)\b")
# A lone figure asked about, nothing else in the request: "Tell me about NAME." (no sentence of the text may speak
# of a private person's matters).
_LONE_BEFORE = re.compile(
    r"(?i)^\W*(?:please\s+)?tell\s+(?:me|us)\s+(?:(?:a\s+(?:bit|little)|more|briefly|something)\s+)?about\s+$")
_LONE_AFTER = re.compile(r"\s*[.?!]?\s*$")
# An epithet right after a name ("the Great", "the Magnificent", "the Conqueror").
_EPITHET = re.compile(r"\s+the\s+(?-i:[A-Z][a-z]{3,})\b(?!\s+(?-i:[A-Z]))")
_EPITHET_IN = re.compile(r"\S\s+the\s+(?-i:[A-Z][a-z]{3,})$")
# A determiner before the name: no private person's name takes one ("the Bosphorus", "which Beatle").
_DETERMINER = re.compile(r"(?i)(?<![\w'’])(?:the|which|what|a|an|each|every|both)\s+$")
# An NRP used as an adjective: a lower-case noun right after it ("Galilean moons", "French region").
_ADJECTIVE_USE = re.compile(r"\s+[a-z][a-z\-]+\b")
_SENTENCE_END = re.compile(r"[!?\n]|(?<![A-Z])(?<!\bSt)(?<!\bMt)\.(?=\s|$)")
# How far the sentence is read around the name.
SENTENCE_REACH = 200


def in_frame(text: str, start: int, end: int, entity_type: str) -> bool:
    """Whether text[start:end] is the topic of a knowledge request in a text with no private evidence (module
    doc); nothing about ``person_ties``."""
    if private_person_in_text(text, start, end) or not asks(text, start, end):
        return False
    lo, hi = sentence_bounds(text, start, end, _SENTENCE_END, SENTENCE_REACH, with_end=True)
    if _private_sentence(text, lo, hi) or _private_mention(text, start, end):
        return False
    # A person in a clause of its own that does not ask, beside the writer or a message's words, is no topic of
    # the question in another clause ("NAME and I disagree: who painted ...?", "Please pass this to NAME: who was
    # ...?"; ADR 0047). A place there stays the question's ("Two nights in X: why are its walls blue?").
    if entity_type == "PERSON" and _aside(text, start, end, lo, hi):
        return False
    if _KNOWLEDGE.search(text, lo, start) is not None or _KNOWLEDGE.search(text, end, hi) is not None:
        return True
    if (_AFFILIATION.search(text, lo, start) is not None and _AFFILIATION_VERB.match(text, end, hi) is not None) or (
            _LONE_BEFORE.match(text, lo, start) is not None and _LONE_AFTER.fullmatch(text, end, hi) is not None
            and not _private_sentence(text, 0, len(text))):
        return True
    if (_EPITHET.match(text, end, hi) is not None or _EPITHET_IN.search(text, start, end) is not None
            or _DETERMINER.search(text, max(lo, start - 12), start)):
        return True
    return entity_type == "NRP" and _ADJECTIVE_USE.match(text, end, hi) is not None


def _aside(text: str, start: int, end: int, lo: int, hi: int) -> bool:
    """The name's clause of the sentence text[lo:hi] (cut at a colon, a semicolon, a dash or a bracket,
    ``clause_bounds``) is another than the sentence's, does not ask, and holds the writer or a message's words
    (``_ASKER_IN_CLAUSE``) beside the name."""
    c_lo, c_hi = clause_bounds(text, start, end, lo, hi)
    if (c_lo, c_hi) == (lo, hi) or clause_asks(text, c_lo, c_hi, start):
        return False
    return _ASKER_IN_CLAUSE.search(text[c_lo:start] + " " + text[end:c_hi]) is not None


# The writer or a message in a name's own clause: a first-person pronoun, a message's verb or a greeting.
_ASKER_IN_CLAUSE = re.compile(
    r"\bI\b|(?i:\b(?:i['’]m|me|my|we|us|our|please|pass|forward|send|sent|cc|from|to|thanks|thank|ask|asks|"
    r"asked|asking|quick|question|hi|hello|dear|says|said|tell|told)\b)")


def _private_sentence(text: str, lo: int, hi: int) -> bool:
    """text[lo:hi] speaks of a private person's matters; words of lasting fame ("still remembered today") are not
    read as such."""
    lasting = [m.span() for m in _LASTING.finditer(text, lo, hi)]
    return any(not any(a <= m.start() and m.end() <= b for a, b in lasting)
               for m in _PRIVATE_SENTENCE.finditer(text, lo, hi))


def _private_mention(text: str, start: int, end: int) -> bool:
    """Another mention of the name, or of its last word, sits in a sentence of a private person's matters ("Which
    major did NAME win? NAME asked again yesterday."); past ``MAX_MENTIONS`` mentions, fails closed."""
    value = text[start:end].strip()
    words_of = re.sub(r"['’]s?$", "", value).split()
    for word in {" ".join(words_of), words_of[-1] if words_of else value}:
        if len(word) < 3:
            continue
        mentions = list(itertools.islice(re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text), MAX_MENTIONS + 1))
        if len(mentions) > MAX_MENTIONS:
            return True
        for mention in mentions:
            if start <= mention.start() < end:
                continue
            lo, hi = sentence_bounds(text, mention.start(), mention.end(), _SENTENCE_END, SENTENCE_REACH,
                                     with_end=True)
            if _private_sentence(text, lo, hi):
                return True
    return False


@dataclass(frozen=True, slots=True)
class KnowledgeRequests(FramePublicList):
    """A name is kept where it is the topic of a knowledge request and the text has no private evidence."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        return in_frame(text, start, end, entity_type)


def load() -> PublicList:
    return KnowledgeRequests("knowledge_requests", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
