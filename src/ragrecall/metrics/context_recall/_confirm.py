"""Independent confirmation: each claim code found supported goes, with only its evidence sentences and the
sentences around them (not the whole passages), to a confirming LLM — the judge's own with a separate prompt,
or another model (a jury of two). A claim stays supported only when confirmed; otherwise it is unsupported
and ``"refuted"``. The prompt names what to check: roles, hedges, conditions, attribution, denials, bounds and
amounts, time, subject, numbers and polarity.

The request is ``task="context_recall.confirm"`` with ``inputs={"claims": [claim, …], "evidence":
[[sentence, …] for each claim], "around": [[sentence, …] for each claim], "language": …}`` (``around``: the
sentences just before and after the evidence in its passage, which show its frame, as ``<sentence>`` data
blocks); the reply is ``{"verdicts": [{"claim": n, "entailed": true | false}]}`` (claims numbered from 1, a
short ``reason`` allowed), checked for one verdict per claim. Many claims
share a request (up to ``claims_per_call``). Claims stated word for word in a passage are asked about too: a
denial code does not read ("…, a story long since disproved") would otherwise stand.

A claim's evidence is the sentence(s) holding each of its quotes, preceded by the passage's first sentence
naming the claim's subject when the evidence sentence only refers to it ("He was born in 1879").
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ...llm import LLM, InvalidReplyError, LLMRequest, ask, data_block, gather_paid
from ...usage import Usage
from ._evidence import ClaimVerdict
from ._facts import PROBLEMS, Evidence, claim_facts
from ._prompting import Prompts, claim_block
from ._verify import Contexts

__all__ = ["Confirmation", "ConfirmedClaims", "confirm_verdicts", "evidence_sentences", "sentences_around"]


class Confirmation(BaseModel):
    """The confirming model's verdict on one numbered claim."""

    model_config = ConfigDict(extra="forbid")

    claim: int
    """The claim's number as shown (1-based)."""
    entailed: bool
    """True when the evidence sentences alone state the claim."""
    reason: str = ""
    """Optional: one short sentence."""


class ConfirmedClaims(BaseModel):
    """Reply of the confirmation step: one verdict per claim."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[Confirmation]


async def confirm_verdicts(
    llm: LLM,
    prompts: Prompts,
    language: str,
    verdicts: list[ClaimVerdict],
    contexts: Contexts,
    *,
    claims_per_call: int,
    max_repairs: int,
) -> tuple[list[ClaimVerdict], Usage]:
    """``verdicts`` with every supported claim confirmed or refuted (module docstring), and the
    usage of the confirmation requests.

    Raises:
        LLMOutputError, LLMRequestError, CacheMissError: a request could not be answered (the others are
            cancelled; the exception carries the usage of what was paid).
    """
    asked = [i for i, v in enumerate(verdicts) if v.supported]
    if not asked:
        return verdicts, Usage()
    chunks = [asked[i : i + claims_per_call] for i in range(0, len(asked), claims_per_call)]
    tasks = [
        asyncio.ensure_future(
            _confirm_chunk(llm, prompts, language, [verdicts[i] for i in chunk], contexts, max_repairs)
        )
        for chunk in chunks
    ]
    done = await gather_paid(tasks)
    out = list(verdicts)
    for chunk, (entailed, _, _) in zip(chunks, done, strict=True):
        for i, ok in zip(chunk, entailed, strict=True):
            out[i] = _confirmed(verdicts[i]) if ok else _refuted(verdicts[i])
    return out, Usage.total([u for _, u, _ in done])


async def _confirm_chunk(
    llm: LLM,
    prompts: Prompts,
    language: str,
    verdicts: Sequence[ClaimVerdict],
    contexts: Contexts,
    max_repairs: int,
) -> tuple[list[bool], Usage, int]:
    """Whether each of ``verdicts`` is entailed by its evidence sentences; the usage; no follow-ups (0)."""
    claims = [v.claim for v in verdicts]
    evidence = [evidence_sentences(v, contexts) for v in verdicts]
    around = [sentences_around(v, contexts, shown) for v, shown in zip(verdicts, evidence, strict=True)]
    items = "\n".join(
        f"{claim_block(claim, n)}\n"
        + "\n".join(data_block("evidence", s, n) for s in sentences)
        + "".join(f"\n{data_block('sentence', s, n)}" for s in near)
        for n, (claim, sentences, near) in enumerate(zip(claims, evidence, around, strict=True), 1)
    )
    template = prompts.get("confirm", language)
    request = LLMRequest(
        template.render(items=items),
        ConfirmedClaims,
        template.version,
        "context_recall.confirm",
        {"claims": claims, "evidence": evidence, "around": around, "language": language},
    )
    reply = await ask(llm, request, check=lambda r: _check(r, len(claims)), max_repairs=max_repairs)
    entailed = {v.claim: v.entailed for v in reply.parsed.verdicts}
    return [entailed[n] for n in range(1, len(claims) + 1)], reply.usage, 0


def _check(reply: ConfirmedClaims, n_claims: int) -> None:
    got = sorted(v.claim for v in reply.verdicts)
    if got != list(range(1, n_claims + 1)):
        raise InvalidReplyError(f"expected exactly one verdict for each claim 1..{n_claims}, got claim number(s) {got}")


def evidence_sentences(verdict: ClaimVerdict, contexts: Contexts) -> list[str]:
    """The sentences a confirming model sees for ``verdict``: each quote's sentence(s), in quote order, without
    repeats, each after the earlier sentence of its passage naming the claim's subject when it names none."""
    names = list(claim_facts(verdict.claim).names)[:1]  # the subject
    out: list[str] = []
    for quote in verdict.support:
        if quote.start is None or quote.end is None:
            continue
        ev = Evidence.of(quote, contexts)
        if names and not any(_mentions(ev.text, n.words) for n in names):
            text = contexts.texts[quote.context]
            earlier = [text[s:e] for s, e in contexts.sentences(quote.context) if e <= ev.start]
            naming = next((s for s in earlier if any(_mentions(s, n.words) for n in names)), None)
            if naming is not None and naming not in out:
                out.append(naming)
        if ev.text not in out:
            out.append(ev.text)
    return out


def sentences_around(verdict: ClaimVerdict, contexts: Contexts, shown: list[str]) -> list[str]:
    """The sentences just before and after each quote's evidence in its passage, not already shown: what frames
    the evidence ("Critics claimed that …" before it, "This was later disproven." after it)."""
    out: list[str] = []
    for quote in verdict.support:
        if quote.start is None or quote.end is None:
            continue
        ev = Evidence.of(quote, contexts)
        text = contexts.texts[quote.context]
        spans = contexts.sentences(quote.context)
        before = [text[s:e] for s, e in spans if e <= ev.start][-1:]
        after = [text[s:e] for s, e in spans if s >= ev.end][:1]
        out += [s for s in before + after if s not in shown and s not in out]
    return out


def _mentions(text: str, words: tuple[str, ...]) -> bool:
    folded = text.casefold()
    return all(w in folded for w in words)


def _confirmed(verdict: ClaimVerdict) -> ClaimVerdict:
    return verdict.model_copy(update={"confirmed": True})


def _refuted(verdict: ClaimVerdict) -> ClaimVerdict:
    return verdict.model_copy(
        update={
            "supported": False,
            "supporting_contexts": [],
            "verification": "refuted",
            "confirmed": False,
            "problem": PROBLEMS["refuted"],
            "check": "refuted",
        }
    )
