"""Reviewed facts of an answer golden: what must appear in every answer of a case and what must not.

An answer is judged on its text (through the gateway, and from each engine directly): every `must_contain`
string must be in it and no `must_not_contain` string may be, compared case-insensitively; and no redaction
placeholder (`<LOCATION_1>`) may be left in it, listed or not - a placeholder in an answer means the model saw
one where the user wrote a value, or the gateway did not restore it. The answers the caller reads (the gateway's
and the stream's) may hold no stand-in the prompt does not (chat's default writes stand-ins, ADR 0007): an
address on a reserved `example.*` domain, or a given name and a surname of the surrogate lists joined by a
space, "." or "_" in any case; and they must hold every value of a pseudonym case's `restores`.
"""

from __future__ import annotations

import re
from functools import cache

from ztgate_bench.eval.schema import AnswerCase


@cache
def _stand_in() -> re.Pattern[str]:
    from ztgate.redaction.anonymising import surrogates

    def names(words: tuple[str, ...]) -> str:
        return "|".join(map(re.escape, words))
    return re.compile(rf"[A-Za-z0-9._%+-]+@(?:{names(surrogates.EMAIL_DOMAINS)})\b"
                      rf"|\b(?i:{names(surrogates.GIVEN_NAMES)})[ ._](?i:{names(surrogates.SURNAMES)})\b")


def stand_ins_left(answer: str, prompt: str) -> list[str]:
    """The stand-ins in `answer` that `prompt` does not hold (what the gateway did not restore)."""
    return [m.group(0) for m in _stand_in().finditer(answer) if m.group(0) not in prompt]


def problems(case: AnswerCase, answer: str | None, where: str) -> list[str]:
    """What is wrong with one answer of case (an empty list when it keeps its facts)."""
    from ztgate.redaction.vault import PLACEHOLDER_RE

    if answer is None:
        return []
    folded = answer.casefold()
    out = [f"{where}: must contain {value!r}" for value in case.must_contain if value.casefold() not in folded]
    out += [f"{where}: must not contain value #{i + 1} of `must_not_contain`"
            for i, value in enumerate(case.must_not_contain) if value.casefold() in folded]
    out += [f"{where}: placeholder {m.group(0)} in the answer" for m in PLACEHOLDER_RE.finditer(answer)]
    if where in ("gateway", "stream"):
        out += [f"{where}: stand-in #{i + 1} left unrestored"
                for i, _ in enumerate(stand_ins_left(answer, case.prompt))]
        out += [f"{where}: value #{i + 1} of `restores` missing"
                for i, value in enumerate(case.restores) if value not in answer]
    return out


def answer_problems(case: AnswerCase, gateway: str | None, engines: dict[str, dict], stream: str | None = None
                    ) -> list[str]:
    """The problems of every answer observed for case: the gateway's, the stream's and each engine's."""
    out = problems(case, gateway, "gateway")
    out += problems(case, stream, "stream")
    for name in sorted(engines):
        out += problems(case, engines[name].get("text"), f"direct {name}")
    return out
