"""Public list ``named_sites``: a named natural or scientific site or a garden whose head is a generic noun, by
the shape of its name (``data/public/site_heads.txt``, written by hand: the words that end or start such a name,
in ten languages; no site is listed): a rock unit or fossil site ("the Morrison Formation", "the Burgess Shale",
"the Messel Pit"), a garden ("the Arnold Arboretum", "Jardim Botânico de Curitiba", "Kebun Raya Bogor"), a cave
or an island group ("Cueva de Altamira", "Kepulauan Mentawai", "Dechenhöhle", "Atta-Höhle"). Holds for LOCATION,
PERSON and NRP (spaCy reads "Jardim Botânico ..." and "...höhle" as persons). A residence or an address is caught
by ``person_ties``; a name after a relation or a title ("my neighbour Jordan Shale") or before a verb of people
is refused (``person_frame``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ztgate.redaction.detection.public import PublicList, data_words, heads_pattern
from ztgate.redaction.detection.public._data import read_lines
from ztgate.redaction.detection.public._person_frame import person_frame

_WORD = r"[^\W\d_][\w'’.\-]*"
_ARTICLES = r"(?:la|le|les|el|los|las|o|a|os|as|il|lo|die|der|das|de|het)"


@dataclass(frozen=True, slots=True)
class NamedSites(PublicList):
    """A site's or a garden's name by its head (module doc); refused in a person's frame."""

    def holds_at(self, text: str, start: int, end: int, entity_type: str) -> bool:
        if person_frame(text, start, end):
            return False
        return PublicList.holds_at(self, text, start, end, entity_type)


def load() -> PublicList:
    words = data_words(read_lines("site_heads.txt"))
    heads = [w for w in words if not w.endswith((" *", " -"))]
    starts = "|".join(sorted((re.escape(w[:-2].casefold()) for w in words if w.endswith(" *")), key=len,
                             reverse=True))
    suffixes = "|".join(sorted({re.escape(w[:-2].casefold()) for w in words if w.endswith(" -")}, key=len,
                               reverse=True))
    # An article NER took in with the name stays ("la grotte de Niaux", "el Jardín Botánico ...").
    start_pattern = re.compile(rf"(?:{_ARTICLES} )?(?:{starts}) {_WORD}(?: {_WORD}){{0,3}}")
    # "dechenhöhle", "atta-höhle": a compound of at least three letters before the head.
    compound = re.compile(rf"[^\W\d_]{{3,}}[\w\-]*?-?(?:{suffixes})")
    return NamedSites("named_sites", frozenset({"LOCATION", "PERSON", "NRP"}), frozenset(),
                      (heads_pattern(heads), start_pattern, compound))
