"""Public list ``work_titles``: the title of a work and its creator named with it, by the words around them,
with no list of works: a title right after a work's noun ("the novel Kokoro", "Kurosawa's film Ran"), after a
creator's possessive ("Hokusai's The Great Wave off Kanagawa"), or after a question about a work's content ("What
is the plot of Things Fall Apart?", "the themes of ..."); and the creator named with such a title ("... Kokoro by
Natsume Soseki", "Hokusai's The Great Wave ..."). A title is a run of capitalised words and the small words
between them ("of", "off", "with a"), ended by punctuation or by a word a question about a work goes on with
("by", "about", "set", "famous"); "the film Anna made" is no title. The sentence must ask (a question, or
"summarise", "explain", ...), and nothing in the paragraph or at another mention of the name may point to a
private person (``_private_context``); ``person_ties`` applies on top. PERSON, LOCATION and NRP (spaCy reads
titles and Japanese or Russian names as places). The default policy keeps it, strict does not. Cue words
written by hand for ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_evidence
from ztgate.redaction.detection.public.encyclopedic_persons import asks

# Nouns of a work a title follows ("the novel", "his film", "the opera").
WORK_NOUNS = (r"novels?|novell?as?|books?|stor(?:y|ies)|short\s+story|films?|movies?|plays?|poems?|songs?|albums?|"
              r"symphon(?:y|ies)|operas?|operettas?|concertos?|sonatas?|ballets?|musicals?|paintings?|"
              r"sculptures?|frescos?|frescoes|murals?|triptychs?|prints?|woodblock\s+prints?|photographs?|"
              r"series|sitcoms?|manga|animes?|comics?|graphic\s+novels?|epics?|sagas?|memoirs?|essays?|treatises?|"
              r"documentar(?:y|ies)|trilog(?:y|ies)|masterpieces?|works?|classics?|haikus?|sonnets?|hymns?|"
              r"suites?|requiems?|oratorios?|cantatas?|masses?|video\s+games?|games?")
# A question about a work's content, right before the title ("What is the plot of", "the ending of").
_ABOUT_WORK = (r"(?:the\s+)?(?:plot|storyline|synopsis|ending|themes?|moral|message|setting|symbolism|"
               r"protagonists?|main\s+characters?|characters?|opening\s+lines?|first\s+lines?|last\s+lines?|"
               r"first\s+chapter|last\s+chapter|meaning|summary|story)\s+(?:of|in)|summari[sz]e|who\s+(?:wrote|"
               r"directed|painted|composed|sang|sculpted|illustrated|filmed|recorded)")
_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# Small words inside a title ("The Great Wave off Kanagawa", "Girl with a Pearl Earring").
_SMALL = frozenset({"of", "off", "the", "a", "an", "and", "in", "on", "with", "to", "for", "at", "from", "upon",
                    "de", "la", "le", "du", "des", "der", "die", "das", "el", "il", "y", "&"})
_QUOTE = "\"“”'‘’«»"
_BEFORE_TITLE = re.compile(rf"(?:\b(?i:{WORK_NOUNS})|\b(?i:{_ABOUT_WORK}))\s+[{_QUOTE}]?$")
# A creator's possessive right before a title: the title must open with an article or a quote ("Hokusai's The
# Great Wave", "Ray's 'Pather Panchali'"), not any capitalised words ("Is Anna Berg's Garden Open?").
_POSSESSIVE_BEFORE = re.compile(rf"(?-i:\b[A-Z][\w\-]*)['’]s\s+(?P<quote>[{_QUOTE}])?$")
# After a creator's name: a possessive, maybe a work's noun, and a title's first capital ("'s film Ran").
_POSSESSIVE_AFTER = re.compile(
    rf"['’]s\s+(?:(?:(?:first|last|famous|best[-\s]known|early|late|great)\s+)?(?i:{WORK_NOUNS})\s+[{_QUOTE}]?"
    rf"|[{_QUOTE}]|(?=(?:The|A|An)\s))(?=[A-Z])")
_AFTER_TITLE = re.compile(
    rf"[{_QUOTE}]?(?:\s*(?:[?!.,;:)]|$)|\s+(?i:by|about|and|or|in|from|set|tells?|follows?|ends?|famous|known|"
    r"depicts?|shows?|considered|regarded|so|first|still|won|win|have|has|had|released|published|premiered|"
    r"painted|written|directed|composed)\b)")
_BY = re.compile(r"[" + _QUOTE + r"]?,?\s+by\s+$")
_CREATOR = re.compile(r"[A-Z][\w'’.\-]*(?:\s+(?:[A-Z][\w'’.\-]*|de|da|di|del|van|von|der|le|la)){0,3}")
# How many words a title holds at most, and how far it is read.
MAX_TITLE_WORDS = 8
_REACH = 100


def _title_words(text: str, lo: int, hi: int) -> list[re.Match[str]]:
    return list(_WORD.finditer(text, lo, hi))


def _is_title_word(word: str) -> bool:
    return word[0].isupper() or word in _SMALL


def _joined(text: str, a: re.Match[str], b: re.Match[str]) -> bool:
    return text[a.end():b.start()] in (" ", " & ")


def _title_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The run of title words holding text[start:end] (capitalised words and small words between them, at most
    MAX_TITLE_WORDS), if the span's words are all title words; (run start, run end), the run starting and ending
    with a capitalised word."""
    words = _title_words(text, max(0, start - _REACH), min(len(text), end + _REACH))
    inside = [i for i, w in enumerate(words) if w.start() < end and w.end() > start]
    if not inside or not all(_is_title_word(words[i].group()) for i in inside):
        return None
    first, last = inside[0], inside[-1]
    while (first > 0 and last - first < MAX_TITLE_WORDS and _is_title_word(words[first - 1].group())
           and not words[first - 1].group().endswith(("'s", "’s")) and _joined(text, words[first - 1], words[first])):
        first -= 1
    while (last + 1 < len(words) and last - first < MAX_TITLE_WORDS and _is_title_word(words[last + 1].group())
           and _joined(text, words[last], words[last + 1])):
        last += 1
    while first < inside[0] and not words[first].group()[0].isupper():
        first += 1
    while last > inside[-1] and not words[last].group()[0].isupper():
        last -= 1
    return words[first].start(), words[last].end()


def _framed_title(text: str, run_start: int, run_end: int) -> bool:
    """The title run text[run_start:run_end], or a run starting at one of its capitalised words, stands right
    after a work's noun, a question about a work or a creator's possessive, and is ended as a title is."""
    if _AFTER_TITLE.match(text, run_end, min(len(text), run_end + 40)) is None:
        return False
    lo = max(0, run_start - 60)
    for word in _title_words(text, run_start, run_end):
        if not word.group()[0].isupper():
            continue
        if _BEFORE_TITLE.search(text, lo, word.start()) is not None:
            return True
        possessive = _POSSESSIVE_BEFORE.search(text, lo, word.start())
        if possessive is not None and (possessive.group("quote") or word.group() in ("The", "A", "An")):
            return True
        if word.start() - run_start > 60:
            break
    return False


def title_ends_at(text: str, pos: int) -> bool:
    """A framed title ends right at pos (its last word ends there)."""
    if pos <= 0 or not text[pos - 1].isalnum():
        return False
    word = re.search(r"[^\W\d_][\w'’\-]*$", text[max(0, pos - 40):pos])
    if word is None or not word.group()[0].isupper():
        return False
    run = _title_around(text, pos - len(word.group()), pos)
    return run is not None and run[1] == pos and _framed_title(text, run[0], run[1])


def _creator(text: str, start: int, end: int) -> bool:
    """text[start:end] names the creator of a framed title: "<title> by NAME", or "NAME's <work noun> <title>" /
    "NAME's <title>"."""
    if _CREATOR.fullmatch(text, start, end) is None:
        return False
    by = _BY.search(text, max(0, start - 12), start)
    if by is not None and title_ends_at(text, by.start()):
        return True
    found = _POSSESSIVE_AFTER.match(text, end, min(len(text), end + 40))
    if found is None:
        return False
    run = _title_around(text, found.end(), found.end() + 1)
    return run is not None and run[0] == found.end() and _AFTER_TITLE.match(
        text, run[1], min(len(text), run[1] + 40)) is not None


@dataclass(frozen=True, slots=True)
class WorkTitles(FramePublicList):
    """A work's title and its creator named with it are kept (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if not asks(text, start, end):
            return False
        run = _title_around(text, start, end)
        framed = (run is not None and _framed_title(text, run[0], run[1])) or _creator(text, start, end)
        return framed and not private_evidence(text, start, end)


def load() -> PublicList:
    return WorkTitles("work_titles", frozenset({"PERSON", "LOCATION", "NRP"}), frozenset())
