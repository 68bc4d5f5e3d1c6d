"""Code identifiers and tools that NER or the gazetteer read as persons or places ("Box and Rc" in a Rust
question, "`HashMap`", "The pipeline runs on Travis").

A one-word span is a code identifier, not a name, when the text around it says code: inline code or code
punctuation touching it (``::``, generics, a call, a member access, a reference) or a version after it;
CamelCase that is no known given name ("RefCell", not "McDonald"); a sentence about a programming language
or a construct of code; or, even for a word spelt like a given name, a sentence about building and shipping
software - always with no person cue around it (a title, a greeting, an address cue, a verb of people) and
no strong place cue. Names of two words or more are never identifiers: a person named in a code question
stays a person. The rules and their tests: docs/architecture.md ("Redaction"), tests/unit/redaction/.
"""

from __future__ import annotations

import functools
import re

from ztgate.redaction.detection.names import gazetteer
from ztgate.redaction.detection.names.product_uses import used_as_product
from ztgate.redaction.detection.text_shape import (line_bounds, person_after, person_evidence, sentence_bounds,
                                                   strong_place_cue)

# Languages and constructs of code, lower case, matched as whole words in the span's sentence.
CODE_CONTEXT_WORDS = frozenset((
    "rust python java javascript typescript golang kotlin swift scala haskell ruby php elixir erlang ocaml zig "
    "dart lua perl clojure fortran cobol c++ c# f# numpy pandas struct structs trait traits impl enum enums "
    "generic generics crate crates interface interfaces fn lambda lambdas iterator iterators pointer pointers "
    "borrow borrowing borrowed compiler macro macros closure closures async namespace typeclass monad monads "
    "stdlib refactor "
    # Data work in code: a lone capitalised word on no list of given names beside these is a library ("read a
    # CSV with Polars", "plot it with Seaborn"); issue #29.
    "csv tsv json parquet dataframe dataframes import imports library libraries package packages install "
    "pip conda module modules plot plotting notebook jupyter").split())
# Building, shipping and running software: a lone capitalised word in such a sentence, with no person cue, is a
# tool, even one spelt like a given name ("The pipeline runs on Travis", "Thanks to Percy, the build takes four
# minutes", "See Luigi's documentation").
TOOLING_CONTEXT_WORDS = frozenset((
    "build builds pipeline pipelines runner runners plugin plugins sdk cache caches caching dependency "
    "dependencies workspace artefact artefacts artifact artifacts deploy deploys deployment deployments "
    "upgrade upgrades deprecated deprecates config configuration documentation repo repository repositories "
    "ci cli workflow workflows nightly linter formatter bundler compile compiles compiler toolchain "
    "container containers cluster clusters").split())
_CONTEXT = re.compile(r"(?<![\w+#])(?:" + "|".join(re.escape(w) for w in sorted(CODE_CONTEXT_WORDS, key=len,
                                                                                   reverse=True)) + r")(?![\w+#])",
                      re.IGNORECASE)
_TOOLING = re.compile(r"(?<![\w+#])(?:" + "|".join(re.escape(w) for w in sorted(TOOLING_CONTEXT_WORDS, key=len,
                                                                                   reverse=True)) + r")(?![\w+#])",
                      re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")
# ... or a hyphen gluing on a lower-case or numbered tail of two parts ("Theodora-sbom-0.4", "Rosalind-cli-v2"): an
# artefact's or a package's name, never a double-barrelled name ("Jean-Pierre", "Ní Bhriain-Walsh").
_CODE_AFTER = re.compile(r"::|<|>|\(|!\(|\[|\.[a-z_]|-[a-z\d]\w*[.\-]\w")
# A version right after the word ("Jasmine 3.2", "Hudson v1.4.2"), or a bump from one ("Bump Percy from 1.4").
_VERSION_AFTER = re.compile(r"(?:'s)?[ \t]+(?:v?\d+\.\d+|from[ \t]+v?\d+\.\d+)")
_CODE_BEFORE = re.compile(r"(?:::|<|&|\.|\*|,<)$")
_CAMEL = re.compile(r"[a-z][A-Z]")
# A name whose one inner capital follows a prefix ("McDonald", "DeShawn", "O'Brien", "VanDyke").
_PREFIXED_NAME = re.compile(r"(?:Mc|Mac|O['’]|D['’]|De|Di|Da|Du|La|Le|Van|Von|St|Fitz)[A-Z][a-z]+")
_ADDRESS_CUE = re.compile(r"(?i)\b(?:dear|hi|hello|hey|thanks|thank|ask|ping|cc|mr|mrs|ms|mx|dr|prof)\.?,?\s+$")


@functools.cache
def _given_names() -> frozenset[str]:
    excluded = gazetteer._exclusions()  # noqa: SLF001 - the same names the gazetteer knows
    return gazetteer._census_given_names(excluded) | gazetteer._world_given_names(excluded)  # noqa: SLF001


def given_name(word: str) -> bool:
    """A known given name (the gazetteer's census and world lists, case-folded)."""
    return word.casefold() in _given_names()


def code_identifier(text: str, start: int, end: int) -> bool:
    """text[start:end], one word found by NER, is a code identifier by the text around it (module doc)."""
    word = text[start:end]
    if not word or any(c.isspace() for c in word):
        return False
    lo, hi = line_bounds(text, start)
    if text.count("`", lo, start) % 2 == 1 and "`" in text[end:hi + 1]:
        return True
    if (_CODE_AFTER.match(text, end) or _CODE_BEFORE.search(text, max(lo, start - 2), start)
            or _VERSION_AFTER.match(text, end)):
        return True
    named = word.casefold() in _given_names() or _PREFIXED_NAME.fullmatch(word) is not None
    if not named and _CAMEL.search(word):
        return True
    if (_ADDRESS_CUE.search(text, max(lo, start - 12), start) or person_evidence(text, start, end)
            or person_after(text, end) or strong_place_cue(text, start)):
        return False
    if used_as_product(text, start, end):
        return True  # "See the Kirby docs", "import morgan" elsewhere in the text (product_uses.py)
    sentence = _sentence(text, start, end)
    return _TOOLING.search(text, *sentence) is not None or (
        not named and _CONTEXT.search(text, *sentence) is not None)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    return sentence_bounds(text, start, end, _SENTENCE_END, 200)
