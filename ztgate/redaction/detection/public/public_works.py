"""Public list ``public_works``: a person on no list, named as the topic of a question about public works or
records ("Which novel by ...", "Which ... novel", "How many medals did ... win?", "... the first woman to",
"named after ..."), with nothing in its sentence that ties it to a private person (``_PRIVATE``: a possessive
or relation word, a personal title, a self-introduction, a contact value or an ID-like token), nor in its paragraph (``_private_context``, shared with ``encyclopedic_persons``);
``person_ties`` applies on top. PERSON only; the default policy keeps it, strict does not. The shapes and why some are left
out on purpose: docs/security.md ("Decision on public figures on no list"). Cue words written by hand for
ztgate."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import FramePublicList, PublicList
from ztgate.redaction.detection.public._private_context import private_evidence
from ztgate.redaction.detection.text_shape import sentence_bounds
from ztgate.redaction.detection.wordlists import words

WORKS = (r"novels?|books?|films?|movies?|plays?|poems?|poetry|songs?|albums?|symphon(?:y|ies)|operas?|concertos?|"
         r"sonatas?|paintings?|sculptures?|buildings?|bridges?|works?|masterpieces?|stories|essays?|theor(?:y|ies)|"
         r"inventions?|discoveries|tournaments?|titles?|medals?|trophies|awards?|prizes?|"
         r"championships?|grand\s+slams?|races?|records?|elements?|missions?|expeditions?|roles?|speeches|speech|"
         r"treatises?|sitcoms?|portraits?|compositions?|operettas?|ballets?")
_AUTHORSHIP = (r"written|directed|composed|painted|designed|discovered|invented|founded|sung|recorded|sculpted|"
               r"built|conducted|choreographed|proposed|formulated|developed")
_VERBS = (r"win|design|direct|compose|paint|invent|discover|record|sing|star\s+in|found|build|sculpt|conduct|"
          r"write|publish|release|propose|formulate")
_FIRST = r"woman|man|human|astronaut|cosmonaut|female|black|african|american|european|asian|scientist"

# After the name, only works of art or letters ("Tom's records" or "Anna's designs" may be a private person's).
ARTWORKS = (r"novels?|films?|movies?|plays?|poems?|songs?|albums?|symphon(?:y|ies)|operas?|concertos?|sonatas?|"
            r"paintings?|sculptures?|masterpieces?|sitcoms?|ballets?|operettas?")
_AFTER_WORK = re.compile(rf"(?i)(?:['’]s)?\s+(?:(?:first|last|best|most\s+famous|early|late)\s+)?(?:{ARTWORKS})\b")
# Right before the name: a work of art or a book and "by" ("novel by", "film directed by"), a public work and
# a verb of authorship and "by" ("building designed by"), or "named after". A bare "designed by" or
# "discovered by" is not enough ("the bug was discovered by Tom").
_BEFORE = re.compile(
    rf"(?i)(?:\b(?:{ARTWORKS}|books?)\s+(?:(?:(?:was|were|is|are)\s+)?(?:{_AUTHORSHIP})\s+)?by\s+"
    rf"|\b(?:{WORKS})\s+(?:(?:was|were|is|are)\s+)?(?:{_AUTHORSHIP})\s+by\s+"
    rf"|\bnamed\s+after\s+)$")
_AFTER_VERB = re.compile(rf"(?i)\s+(?:{_VERBS})\b")
_AFTER_FIRST = re.compile(rf"(?i)\s+the\s+first\s+(?:{_FIRST})\b")
_DID_BEFORE = re.compile(rf"(?i)\b(?:which|what|how\s+many)\s+(?:[a-z]+\s+)?(?:{WORKS})\s+(?:did|does|has|had)\s+$")

# The relation words ("colleague", "landlord"); "named" and "called" are cues only after "my/our", caught apart.
_RELATIONS = "|".join(sorted((re.escape(w) for w in words("relation_cues") - {"named", "called"}), key=len,
                             reverse=True))
# Evidence of a private person anywhere in the sentence.
_PRIVATE = re.compile(
    rf"(?i)\b(?:my|our|your|i'm|i’m|i\s+am|we're|my\s+name|patient|client|customer|employee|tenant|applicant|"
    rf"{_RELATIONS})\b|(?-i:\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Madam)\b\.?)|@|\+?\d[\d\s().\-]{{6,}}\d"
    rf"|\b[A-Z]{{1,4}}-?\d{{5,}}\b")
_SENTENCE_END = re.compile(r"[.!?\n]")


@dataclass(frozen=True, slots=True)
class PublicWorks(FramePublicList):
    """A person is kept where its sentence asks about public works or records (module doc)."""

    def in_frame(self, text: str, start: int, end: int, entity_type: str) -> bool:
        lo, hi = sentence_bounds(text, start, end, _SENTENCE_END, 200)
        # The frame first: the paragraph-wide evidence reads every mention of the name, so it is read only for a
        # span in a frame (a text that names one person a thousand times took a minute).
        in_frame = (_BEFORE.search(text, lo, start) is not None
                    or _AFTER_WORK.match(text, end, hi) is not None
                    or _AFTER_FIRST.match(text, end, hi) is not None
                    or (_DID_BEFORE.search(text, lo, start) is not None
                        and _AFTER_VERB.match(text, end, hi) is not None))
        return in_frame and _PRIVATE.search(text, lo, hi) is None and not private_evidence(text, start, end)


def load() -> PublicList:
    return PublicWorks("public_works", frozenset({"PERSON"}), frozenset())
