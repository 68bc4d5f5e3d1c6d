"""Lines of an address label: up to three lines, each a capitalised run, right above a line with an e-mail
address or a phone number; the first is the person, the others places ("Maria Kowalski\\nHaderup")."""

from __future__ import annotations

import re

from ztgate.redaction.detection.names.context.base import ContextRule, Span
from ztgate.redaction.detection.names.context.shapes import NAME_RUN, name_words

# A short line (an address label's) and the contact value it may hold.
_SHORT_LINE = re.compile(r"(?m)^[^\n]{1,120}$")
_CONTACT_IN_LINE = re.compile(r"[\w.+\-]{1,64}@[\w\-]{1,63}\.\w|\+?\d[\d ()\-]{7,24}\d")
_RUN_LINE = re.compile(rf"(?m)^[ \t]*({NAME_RUN})[ \t]*,?[ \t]*$")


class ContactBlockRecognizer(ContextRule):
    NAME = "ContactBlockRecognizer"
    SCORE = 0.9
    ENTITIES = ("PERSON", "LOCATION")

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for contact in _SHORT_LINE.finditer(text):
            if _CONTACT_IN_LINE.search(contact.group()) is None:
                continue
            runs: list[re.Match[str]] = []
            pos = contact.start() - 1
            for _ in range(3):
                if pos <= 0:
                    break
                start = text.rfind("\n", 0, pos) + 1
                m = _RUN_LINE.fullmatch(text, start, pos)
                if m is None or not name_words(m.group(1)):
                    break
                runs.append(m)
                pos = start - 1
            runs.reverse()
            for i, m in enumerate(runs):
                out.append((m.start(1), m.end(1), "PERSON" if i == 0 and len(runs) > 1 else "LOCATION"))
        return out
