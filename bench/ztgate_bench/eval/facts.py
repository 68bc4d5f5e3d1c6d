"""Reviewed facts of an answer golden: what must appear in every answer of a case and what must not.

An answer is judged on its text (through the gateway, and from each engine directly): every `must_contain`
string must be in it and no `must_not_contain` string may be, compared case-insensitively; and no redaction
placeholder (`<LOCATION_1>`) may be left in it, listed or not - a placeholder in an answer means the model saw
one where the user wrote a value, or the gateway did not restore it.
"""

from __future__ import annotations

from ztgate_bench.eval.schema import AnswerCase


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
    return out


def answer_problems(case: AnswerCase, gateway: str | None, engines: dict[str, dict], stream: str | None = None
                    ) -> list[str]:
    """The problems of every answer observed for case: the gateway's, the stream's and each engine's."""
    out = problems(case, gateway, "gateway")
    out += problems(case, stream, "stream")
    for name in sorted(engines):
        out += problems(case, engines[name].get("text"), f"direct {name}")
    return out
