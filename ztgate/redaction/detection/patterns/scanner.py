"""Tier 1 of redaction: the whole rule catalogue in one Hyperscan database, validated in Python."""

from __future__ import annotations

import bisect
import hashlib
import logging
import platform
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import hyperscan

from ztgate.common.atomic import write_atomically
from ztgate.redaction.detection.patterns.catalogue import Catalogue, CatalogueError, Context, Rule, load_catalogue, python_flags
from ztgate.common import paths
from ztgate.redaction.detection.patterns.offsets import Utf8Offsets
from ztgate.redaction.detection.text_shape import UNSPACED_LETTERS
from ztgate.redaction.types import Detection
from ztgate.redaction.detection.patterns.validators import VALIDATORS

logger = logging.getLogger(__name__)

# Directory for compiled databases; defaults to ~/.cache/ztgate. Keyed by catalogue hash and
# Hyperscan version, so one directory serves any number of catalogues and upgrades.
_CACHE_MAGIC = b"ZTGATE-HSDB-2\n"  # bump when what is compiled changes in code (e.g. context phrases)
_DIGEST_SIZE = 32
_GUARD_LOOKBACK = 32  # code points a not_before guard may look at
# Of the matches of one rule that start at one place (Hyperscan reports every end), at most this many,
# longest first, are judged when the longer ones fail their checks. Judging a match costs its length
# (the validator, the value groups), so without a cap a run with an end at every character (a JWT
# followed by "-a-a-a...") would cost its length squared. 64 is more ends than any bounded rule has
# (the longest, IPv6 with an IPv4 tail, is 45 characters), so only unbounded rules are capped, and
# those that run to a delimiter are `longest_only` anyway.
MAX_PREFIXES_JUDGED = 64


# The cache folder is declared once (ztgate/common/paths.py); these names are kept for callers.
default_cache_dir = paths.cache_dir
CACHE_DIR_ENV = paths.CACHE_DIR_ENV


def context_phrases(catalogue: Catalogue) -> tuple[str, ...]:
    """Every context word or phrase of the catalogue, lower-cased, in a stable order (their expression ids
    follow the rules' in the database)."""
    return tuple(sorted({w.lower() for r in catalogue.rules if r.context for w in (*r.context.words,
                                                                                     *r.context.deny)}))


def _phrase_pattern(phrase: str) -> str:
    """A context phrase as a Hyperscan pattern: its words joined by any run of spaces, underscores or
    dashes ("date of birth" also finds date_of_birth)."""
    return r"[\s_\-]+".join(re.escape(word) for word in phrase.split())


@dataclass(frozen=True, slots=True)
class _ContextCheck:
    """A rule's context: the phrase ids that confirm a value and those that veto it, and the window."""

    confirm: frozenset[int]
    deny: frozenset[int]
    required: bool
    boost: float
    before: int
    after: int

    @classmethod
    def build(cls, context: Context, phrase_ids: dict[str, int]) -> _ContextCheck:
        return cls(frozenset(phrase_ids[w.lower()] for w in context.words),
                   frozenset(phrase_ids[w.lower()] for w in context.deny),
                   context.required, context.boost, context.before, context.after)

    def score(self, scan: _ScanText, start: int, end: int, base: float) -> float | None:
        """The score with context applied, or None when the context drops the value.

        The nearest word decides: a confirming word boosts the score, a deny word nearer than any
        confirming word drops the value, and so does the lack of a confirming word when one is required.
        A word counts when it lies wholly inside the window before or after the value.
        """
        lo, hi = start - self.before, end + self.after
        confirm = deny = None  # distance in code points from the value to the nearest word of each kind
        words, starts = scan.words, scan.word_starts
        # Only the words that start in the two windows are visited (found by bisection), so the cost is
        # bounded by the windows (`before`/`after` are at most 512), not by the words in the text.
        for first, last, after in ((bisect.bisect_left(starts, lo), bisect.bisect_left(starts, start), False),
                                   (bisect.bisect_left(starts, end), bisect.bisect_left(starts, hi), True)):
            for index in range(first, last):
                word_start, word_end, phrase = words[index]
                if after:
                    if word_end > hi:
                        continue
                    distance = word_start - end
                elif word_end <= start:
                    distance = start - word_end
                else:
                    continue
                if phrase in self.confirm:
                    confirm = distance if confirm is None else min(confirm, distance)
                elif phrase in self.deny:
                    deny = distance if deny is None else min(deny, distance)
        if confirm is not None and (deny is None or confirm <= deny):
            return min(1.0, base + self.boost)
        if self.required or deny is not None:
            return None
        return base


class _ScanText:
    """One text being scanned: the context words found in it (whole words only, by start), and the
    validators' verdicts so far (a value is often judged by several rules: a JWT by jwt, bearer_token
    and the header rule)."""

    __slots__ = ("text", "words", "word_starts", "_verdicts")

    def __init__(self, text: str, words: list[tuple[int, int, int]]) -> None:
        self.text = text
        self.words = words  # (start, end, phrase id), code points, sorted
        self.word_starts = [word[0] for word in words]  # for bisection: a context window is found in O(log n)
        self._verdicts: dict[tuple[Callable[[str], bool | None], str], bool | None] = {}

    def verdict(self, validator: Callable[[str], bool | None], start: int, end: int) -> bool | None:
        key = (validator, self.text[start:end])
        if key not in self._verdicts:
            self._verdicts[key] = validator(key[1])
        return self._verdicts[key]


@dataclass(frozen=True, slots=True)
class _CompiledRule:
    rule_id: str
    entity: str
    score: float
    longest_only: bool
    value_regex: re.Pattern[str] | None
    value_groups: tuple[str, ...]
    validator: Callable[[str], bool | None] | None
    context: _ContextCheck | None
    not_before: re.Pattern[str] | None
    not_after: re.Pattern[str] | None

    @classmethod
    def build(cls, rule: Rule, phrase_ids: dict[str, int]) -> _CompiledRule:
        groups = rule.value_groups
        return cls(
            rule_id=rule.id,
            entity=rule.entity,
            score=rule.score,
            longest_only=rule.longest_only,
            value_regex=re.compile(rule.pattern, python_flags(caseless=rule.caseless, unicode=rule.unicode))
            if groups else None,
            value_groups=groups,
            validator=VALIDATORS[rule.validator] if rule.validator else None,
            context=_ContextCheck.build(rule.context, phrase_ids) if rule.context else None,
            not_before=re.compile(f"(?:{rule.not_before})\\Z") if rule.not_before else None,
            not_after=re.compile(rule.not_after) if rule.not_after else None,
        )

    def evaluate(self, scan: _ScanText, start: int, end: int) -> Detection | None:
        """The detection for one Hyperscan match [start, end) in code points, or None if it fails a check."""
        text = scan.text
        if self.value_regex is not None:
            start, end = self._value_span(text, start, end)
            if start >= end:
                return None
        if self.not_before is not None and self.not_before.search(text, max(0, start - _GUARD_LOOKBACK), start):
            return None
        if self.not_after is not None and self.not_after.match(text, end):
            return None
        # The validator runs before the context check: its verdict is shared by every rule that judges
        # the same value, and it refuses most candidates of the rules whose context is costly.
        if self.validator is not None and scan.verdict(self.validator, start, end) is False:
            return None
        score: float | None = self.score
        if self.context is not None:
            score = self.context.score(scan, start, end, self.score)
            if score is None:
                return None
        return Detection(self.entity, start, end, round(score, 4), self.rule_id)

    def _value_span(self, text: str, start: int, end: int) -> tuple[int, int]:
        match = self.value_regex.fullmatch(text, start, end) if self.value_regex is not None else None
        if match is None:
            # Python `re` and Hyperscan disagree on this span: report all of it rather than nothing.
            logger.debug("rule %s: value groups did not match the Hyperscan span", self.rule_id)
            return start, end
        for group in self.value_groups:
            group_start, group_end = match.span(group)
            if group_start >= 0:
                return group_start, group_end
        return start, end


def _collect(rule_index: int, start: int, end: int, _flags: int, hits: list[tuple[int, int, int]]) -> None:
    hits.append((rule_index, start, end))


class PatternScanner:
    """Scans text for every catalogue rule at once and returns validated detections.

    The compiled database is cached on disk under the catalogue hash and Hyperscan version; a missing,
    stale or corrupt cache file is replaced by a fresh compile. Scanning is thread-safe: each thread
    gets its own Hyperscan scratch space.
    """

    def __init__(
        self,
        catalogue: Catalogue | None = None,
        *,
        cache_dir: Path | str | None = None,
        use_cache: bool = True,
    ) -> None:
        self._catalogue = catalogue if catalogue is not None else load_catalogue()
        self._phrases = context_phrases(self._catalogue)
        phrase_ids = {phrase: len(self._catalogue.rules) + i for i, phrase in enumerate(self._phrases)}
        self._rules = tuple(_CompiledRule.build(rule, phrase_ids) for rule in self._catalogue.rules)
        self._cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self._use_cache = use_cache
        self._local = threading.local()  # one Hyperscan scratch per thread: a scratch serves one scan at a time
        self._clone_lock = threading.Lock()
        self.database_source: str = ""  # "cache" or "compiled", for logs and tests
        self._db = self._load_or_compile()
        self._prototype_scratch = hyperscan.Scratch(self._db)

    @property
    def catalogue(self) -> Catalogue:
        return self._catalogue

    @property
    def cache_path(self) -> Path:
        """Where the compiled database for this catalogue lives."""
        key = f"{self._catalogue.sha256[:32]}-hs{hyperscan.__version__}-{platform.machine() or 'unknown'}"
        return self._cache_dir / f"patterns-{key}.hsdb"

    def scan(self, text: str) -> list[Detection]:
        """Validated detections in `text`, ordered by start; offsets are code points (end exclusive).

        For each rule, a match inside a longer accepted match of the same rule is dropped, and of the
        matches that start at one place the longest that passes the checks wins (of the longest
        `MAX_PREFIXES_JUDGED`). Matches of different rules may overlap: resolving those is the caller's job.

        Cost: linear in the text (tests/unit/redaction/test_scan_cost.py). Hyperscan reports at most one
        match per rule and end (the leftmost start); judging one costs its length, and at most
        `MAX_PREFIXES_JUDGED` are judged per start; a context check visits only the words inside its
        window, found by bisection.
        """
        if not text:
            return []
        encoded = Utf8Offsets(text)
        hits: list[tuple[int, int, int]] = []
        self._db.scan(encoded.data, match_event_handler=_collect, context=hits, scratch=self._scratch())
        rules = self._rules
        if not hits or min(hits)[0] >= len(rules):
            return []  # nothing but context words
        hits.sort(key=lambda hit: (hit[0], hit[1], -hit[2]))
        split = bisect.bisect_left(hits, (len(rules),))  # rule matches first, then context words
        to_cp = None if encoded.is_ascii else encoded.codepoints(o for hit in hits for o in hit[1:])
        state = _ScanText(text, _whole_words(text, hits[split:], to_cp))
        del hits[split:]
        detections: list[Detection] = []
        current_rule = -1
        accepted_end = -1  # furthest byte end accepted so far for the current rule
        judged_start = -1  # start of the last match judged for the current rule
        judged = 0  # matches judged from that start
        for rule_index, start, end in hits:
            if rule_index != current_rule:
                current_rule, accepted_end, judged_start = rule_index, -1, -1
            elif end <= accepted_end:
                continue  # inside a longer accepted match of the same rule
            elif start == judged_start:
                if rules[rule_index].longest_only or judged >= MAX_PREFIXES_JUDGED:
                    continue  # a prefix of a match that failed its checks
                judged += 1
            if start != judged_start:
                judged_start, judged = start, 1
            if to_cp is not None:
                detection = rules[rule_index].evaluate(state, to_cp[start], to_cp[end])
            else:
                detection = rules[rule_index].evaluate(state, start, end)
            if detection is not None:
                accepted_end = end
                detections.append(detection)
        return _drop_contained_values(detections)

    def _scratch(self) -> hyperscan.Scratch:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            with self._clone_lock:  # once per thread; cloning only reads the prototype, but cheaply kept serial
                scratch = self._local.scratch = self._prototype_scratch.clone()
        return scratch

    # --- database build and cache ---------------------------------------------------------------

    def _load_or_compile(self) -> hyperscan.Database:
        if self._use_cache:
            db = self._load_cached()
            if db is not None:
                self.database_source = "cache"
                return db
        db = self._compile()
        self.database_source = "compiled"
        if self._use_cache:
            self._store(db)
        return db

    def _load_cached(self) -> hyperscan.Database | None:
        path = self.cache_path
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            logger.warning("cannot read the pattern database cache %s: %s", path, exc)
            return None
        header = len(_CACHE_MAGIC) + _DIGEST_SIZE
        payload = blob[header:]
        if (
            len(blob) <= header
            or not blob.startswith(_CACHE_MAGIC)
            or hashlib.sha256(payload).digest() != blob[len(_CACHE_MAGIC):header]
        ):
            logger.warning("pattern database cache %s is corrupt; recompiling", path)
            return None
        try:
            db = hyperscan.loadb(payload, hyperscan.HS_MODE_BLOCK)
            hyperscan.Scratch(db)  # proves the database is usable on this CPU
        except (hyperscan.error, TypeError, ValueError) as exc:
            logger.warning("pattern database cache %s is unusable (%s); recompiling", path, exc)
            return None
        return db

    def _store(self, db: hyperscan.Database) -> None:
        path = self.cache_path
        payload = hyperscan.dumpb(db)
        blob = _CACHE_MAGIC + hashlib.sha256(payload).digest() + payload
        try:
            write_atomically(path, blob)
        except OSError as exc:
            logger.warning("cannot write the pattern database cache %s: %s", path, exc)

    def _compile(self) -> hyperscan.Database:
        rules = self._catalogue.rules
        expressions = [rule.pattern.encode("utf-8") for rule in rules]
        expressions += [_phrase_pattern(phrase).encode("utf-8") for phrase in self._phrases]
        flags = [_hs_flags(rule) for rule in rules] + [_PHRASE_FLAGS] * len(self._phrases)
        ext = [_hs_ext(rule) for rule in rules] + [_NO_EXT] * len(self._phrases)
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        try:
            db.compile(expressions=expressions, ids=list(range(len(expressions))), flags=flags, ext=ext)
        except hyperscan.error as exc:
            raise self._compile_error(exc) from None
        logger.info("compiled %d pattern rules and %d context phrases into a %d-byte Hyperscan database",
                    len(rules), len(self._phrases), db.size())
        return db

    def _compile_error(self, exc: hyperscan.error) -> CatalogueError:
        """Find the rule Hyperscan refuses, to name it (the multi-pattern error does not)."""
        for rule in self._catalogue.rules:
            single = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            try:
                single.compile(expressions=[rule.pattern.encode("utf-8")], ids=[0], flags=[_hs_flags(rule)],
                               ext=[_hs_ext(rule)])
            except hyperscan.error as rule_exc:
                source = self._catalogue.sources.get(rule.id, "<catalogue>")
                return CatalogueError(f"{source}: rule {rule.id!r}: Hyperscan cannot compile the pattern: {rule_exc}")
        return CatalogueError(f"Hyperscan cannot compile the catalogue: {exc}")


def _hs_flags(rule: Rule) -> int:
    flags = hyperscan.HS_FLAG_SOM_LEFTMOST | hyperscan.HS_FLAG_UTF8
    if rule.unicode:
        flags |= hyperscan.HS_FLAG_UCP
    if rule.caseless:
        flags |= hyperscan.HS_FLAG_CASELESS
    return flags


_NO_EXT = (0, 0, 0, 0, 0, 0)
# Context phrases match case-insensitively in any script; whole-word checks are done in Python.
_PHRASE_FLAGS = (hyperscan.HS_FLAG_SOM_LEFTMOST | hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_UCP
                 | hyperscan.HS_FLAG_CASELESS)


def _hs_ext(rule: Rule) -> tuple[int, int, int, int, int, int]:
    """Hyperscan extended parameters: (flags, min_offset, max_offset, min_length, edit, hamming distance)."""
    if rule.min_length is None:
        return _NO_EXT
    return (hyperscan.HS_EXT_FLAG_MIN_LENGTH, 0, 0, rule.min_length, 0, 0)


# Letters of scripts written without spaces between words: Thai, kana, Han.
_UNSPACED = re.compile(f"[{UNSPACED_LETTERS}]")


def _spaced_letter(c: str) -> bool:
    return c.isalpha() and _UNSPACED.match(c) is None


def _whole_words(text: str, word_hits: list[tuple[int, int, int]],
                 to_cp: dict[int, int] | None) -> list[tuple[int, int, int]]:
    """Context-phrase matches that are whole words, as (start, end, phrase id) in code points, sorted by start.

    A phrase is cut out of a longer word when a letter of a spaced script touches a letter of one ("tel" in
    "hotel"); scripts that write words without spaces (Han, kana, Thai) have no such edge, so "電話" counts
    in "電話番号"."""
    words = []
    size = len(text)
    for phrase, start, end in word_hits:
        if to_cp is not None:
            start, end = to_cp[start], to_cp[end]
        if ((start == 0 or not (_spaced_letter(text[start - 1]) and _spaced_letter(text[start])))
                and (end == size or not (_spaced_letter(text[end]) and _spaced_letter(text[end - 1])))):
            words.append((start, end, phrase))
    words.sort()
    return words


def _drop_contained_values(detections: list[Detection]) -> list[Detection]:
    """Per rule, drop value spans inside another value span of the same rule; order by start."""
    detections.sort(key=lambda d: (d.recognizer, d.start, -d.end))
    kept: list[Detection] = []
    rule, furthest = "", -1
    for detection in detections:
        if detection.recognizer != rule:
            rule, furthest = detection.recognizer, -1
        elif detection.end <= furthest:
            continue
        kept.append(detection)
        furthest = max(furthest, detection.end)
    kept.sort(key=lambda d: (d.start, -d.end, d.recognizer))
    return kept
