"""`ztgate bench utility --answers`: placeholders or surrogates - which gives better answers through the gateway.

Prompts that carry a private person's name and e-mail address and whose answer should use them ("Write a
two-line note to <name> at <email> about the meeting"), sent greedy through a whole suite of its own
(`ztgate up`, the eval's: bench/ztgate_bench/eval/suite.py) as two tenants: one under the `default` policy
(chat's default since ADR 0007: stand-ins of the same kind, ztgate/redaction/anonymising/surrogates.py), one under
the same policy with `chat_pseudonyms: placeholder` (numbered placeholders, `<PERSON_1>`), and once directly to the
primary (no redaction: what the model does with the real values). Each answer, as the caller gets it (restored), is checked for facts:
- the person's full name appears; the person's given name or surname appears;
- the e-mail address appears;
- no placeholder (`<PERSON_1>`) and no stand-in is left (a name of the surrogate lists, an `example.*`
  address), i.e. nothing the caller did not write.
Only counts are reported, never an answer's text.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# The private persons (none on the surrogate lists, none a public figure) and their addresses.
PERSONS: tuple[tuple[str, str], ...] = (
    ("Maria Gonzalez", "maria.gonzalez@fastmail.com"),
    ("Tomasz Kowalski", "t.kowalski@posteo.de"),
    ("Aiko Tanaka", "aiko.tanaka@mailbox.org"),
    ("Priya Raman", "priya.raman@zoho.com"),
    ("Lars Eriksen", "lars.eriksen@proton.me"),
    ("Fatima Haddad", "fhaddad@gmx.net"),
)
TEMPLATES: tuple[str, ...] = (
    "Write a two-line note to {name} at {email} about the meeting.",
    "Draft a short email to {name} ({email}) confirming our meeting on Monday.",
    "Write one sentence thanking {name} for the report, and say it will be sent to {email}.",
    "Tell {name} at {email} in two lines that the meeting moved to Friday.",
)
# Tenants of the two redacting systems; the second's policy is `default` with placeholders on chat.
SURROGATE_TENANT = "golden"          # the eval suite's own tenant: the `default` policy
PLACEHOLDER_TENANT = "utility-placeholders"
SYSTEMS = ("direct (no redaction)", "placeholders (chat_pseudonyms: placeholder)", "surrogates (default)")
MAX_TOKENS = 48
CALL_TIMEOUT_S = 300.0
_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]*_[0-9]+>|<[A-Z][A-Z_]*>")


@dataclass(frozen=True, slots=True)
class Case:
    prompt: str
    name: str
    email: str


def cases() -> list[Case]:
    return [Case(t.format(name=name, email=email), name, email) for t in TEMPLATES for name, email in PERSONS]


@dataclass(slots=True)
class Tally:
    system: str
    answers: int = 0
    full_name: int = 0
    some_name: int = 0
    email: int = 0
    clean: int = 0          # no placeholder, no stand-in left
    all_facts: int = 0
    errors: list[str] = field(default_factory=list)
    # (prompt, answer) of each answer that holds a placeholder or a stand-in: `--examples FILE` writes
    # them for reading (the cases' own text, never a report).
    left: list[tuple[str, str]] = field(default_factory=list)

    def add(self, case: Case, answer: str) -> None:
        from ztgate.redaction.anonymising import surrogates

        self.answers += 1
        full = case.name in answer
        some = any(re.search(rf"\b{re.escape(word)}\b", answer) for word in case.name.split())
        mail = case.email in answer
        stand_ins = set(surrogates.GIVEN_NAMES) | set(surrogates.SURNAMES)
        clean = (not _PLACEHOLDER.search(answer) and not re.search(r"@example\.(com|org|net)\b", answer)
                 and not any(re.search(rf"\b{w}\b", answer) for w in stand_ins))
        self.full_name += full
        self.some_name += some
        self.email += mail
        self.clean += clean
        self.all_facts += full and mail and clean
        if not clean:
            self.left.append((case.prompt, answer))


def markdown(tallies: Sequence[Tally]) -> str:
    n = tallies[0].answers + len(tallies[0].errors)
    lines = [f"{n} prompts ({len(TEMPLATES)} templates x {len(PERSONS)} private persons), greedy, "
             f"max_tokens {MAX_TOKENS}; answers as the caller gets them (restored).", "",
             "| system | full name | given name or surname | e-mail | no placeholder or stand-in left | all facts |",
             "|---|---|---|---|---|---|"]
    for t in tallies:
        def cell(k: int) -> str:
            return f"{k}/{t.answers} ({100 * k / t.answers:.0f}%)" if t.answers else "-"
        lines.append(f"| {t.system} | {cell(t.full_name)} | {cell(t.some_name)} | {cell(t.email)} | "
                     f"{cell(t.clean)} | {cell(t.all_facts)} |" + (f" ({len(t.errors)} errors)" if t.errors else ""))
    return "\n".join(lines)


async def _ask(target, tallies: dict[str, Tally]) -> None:
    from ztgate.common.identity import bearer
    from ztgate.common.tls import open_channel
    from ztgate.gen.inference.v1 import inference_pb2 as ipb
    from ztgate.gen.inference.v1 import inference_pb2_grpc

    gateway = target.gateway_channel()
    direct = open_channel(target.primary, target.tls)
    try:
        via = {"direct (no redaction)": (inference_pb2_grpc.InferenceStub(direct), ()),
               SYSTEMS[1]: (inference_pb2_grpc.InferenceStub(gateway),
                            tuple(bearer(target.tokens[PLACEHOLDER_TENANT]))),
               SYSTEMS[2]: (inference_pb2_grpc.InferenceStub(gateway),
                            tuple(bearer(target.tokens[SURROGATE_TENANT])))}
        for case in cases():
            request = ipb.GenerateRequest(messages=[ipb.ChatMessage(role="user", content=case.prompt)],
                                          sampling=ipb.SamplingParams(max_tokens=MAX_TOKENS))
            for system, (stub, metadata) in via.items():
                try:
                    reply = await stub.Generate(request, timeout=CALL_TIMEOUT_S, metadata=metadata)
                except Exception as exc:  # noqa: BLE001 - counted and named, the run goes on
                    tallies[system].errors.append(type(exc).__name__)
                    continue
                tallies[system].add(case, reply.text)
    finally:
        await gateway.close()
        await direct.close()


def run(config_path: Path | None = None) -> list[Tally]:
    """Starts a suite of its own with the placeholder tenant's policy, asks every case of every system."""
    from ztgate_bench.eval.schema import Goldens
    from ztgate_bench.eval.suite import own_suite

    workdir = Path(tempfile.mkdtemp(prefix="ztgate-utility-answers-"))
    policies = workdir / "policies"
    policies.mkdir()
    from ztgate.redaction.config import DEFAULT_POLICY_DIR

    default = (DEFAULT_POLICY_DIR / "default.yaml").read_text(encoding="utf-8")
    (policies / f"{PLACEHOLDER_TENANT}.yaml").write_text(
        default.replace("name: default", f"name: {PLACEHOLDER_TENANT}\ntenants: [{PLACEHOLDER_TENANT}]", 1)
        .replace("chat_pseudonyms: surrogate", "chat_pseudonyms: placeholder", 1), encoding="utf-8")
    tallies = {system: Tally(system) for system in SYSTEMS}
    with own_suite(config_path, Goldens().policies.resolve(), workdir / "suite", extra_policies=(policies,),
                   tenants=(PLACEHOLDER_TENANT,), plain=False) as target:
        asyncio.run(_ask(target, tallies))
    return list(tallies.values())
