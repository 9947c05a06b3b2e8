"""The judging step: claims against the numbered contexts, every "supported" verdict verified by its quotes.

Claims go in chunks of ``claims_per_call``, one request each, concurrently. Each reply passes its structural
check (one verdict per claim, contexts that exist, a quote per supporting context), then its quotes are
verified (:mod:`._verify`). Verdicts that fail verification, and "unsupported" verdicts a passage sentence
contradicts (:func:`._stated.contestable`), are put back to the judge once, in the same conversation and within
the same repair budget, naming each claim and the rule to follow (never where else to look); the judge answers
for those claims only, and its new verdicts replace theirs (checked again the same way, never re-asked again).
A contestable verdict that stays unsupported is recorded as ``"contested"``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from ...llm import LLM, FollowUp, LLMReply, LLMRequest, ask, ask_again, escape_data, gather_paid, spent_before
from ...usage import Usage
from ._facts import PROBLEMS
from ._prompting import Prompts, claim_block, number_claims, number_contexts
from ._replies import JudgedClaims, SingleClaim, Verdict, check_judged
from ._stated import contestable
from ._verify import Checked, Contexts, check_support

__all__ = ["Judged", "Judging", "judge_claims", "judged"]


@dataclass(frozen=True)
class Judged:
    """The judge's verdict on one claim, with its quotes checked."""

    reason: str
    checked: Checked


@dataclass(frozen=True)
class Judging:
    """What the judging step needs to know besides the claims and contexts."""

    llm: LLM
    prompts: Prompts
    language: str
    claims_per_call: int
    max_repairs: int
    quote_threshold: float


async def judge_claims(
    setup: Judging, claims: Sequence[str], contexts: Contexts, *, variant: int | None = None
) -> tuple[list[Judged], Usage, int]:
    """One checked verdict per claim, in claim order; the usage of every request; how many follow-ups were sent.

    ``variant`` numbers a repeated judgement (see :attr:`ragrecall.llm.LLMRequest.variant`).

    Raises:
        LLMOutputError, LLMRequestError, CacheMissError: a chunk could not be judged (the other chunks are
            cancelled; the exception carries the usage of what was paid).
    """
    size = setup.claims_per_call
    chunks = [list(claims[i : i + size]) for i in range(0, len(claims), size)]
    tasks = [asyncio.ensure_future(_judge_chunk(setup, chunk, contexts, variant)) for chunk in chunks]
    judged = await gather_paid(tasks)
    verdicts = [v for chunk_verdicts, _, _ in judged for v in chunk_verdicts]
    return verdicts, Usage.total([u for _, u, _ in judged]), sum(r for _, _, r in judged)


async def _judge_chunk(
    setup: Judging, claims: list[str], contexts: Contexts, variant: int | None
) -> tuple[list[Judged], Usage, int]:
    template = setup.prompts.get("judge", setup.language)
    request = LLMRequest(
        template.render(contexts=number_contexts(contexts.texts), claims=number_claims(claims)),
        JudgedClaims,
        template.version,
        "context_recall.judge",
        {"claims": claims, "contexts": list(contexts.texts), "language": setup.language},
        variant=variant,
    )
    everyone = range(1, len(claims) + 1)
    reply = await ask(
        setup.llm,
        request,
        check=lambda r: check_judged(r, everyone, len(contexts)),
        max_repairs=setup.max_repairs,
    )
    verdicts = {v.claim: judged(setup, claims[v.claim - 1], v, contexts) for v in reply.parsed.verdicts}
    usage = reply.usage
    unverified = [n for n in everyone if verdicts[n].checked.verification == "unverified"]
    contested = [
        n for n in everyone if verdicts[n].checked.verification == "none" and contestable(claims[n - 1], contexts)
    ]
    asked = sorted(unverified + contested)
    if not asked:
        return [verdicts[n] for n in everyone], usage, 0
    feedback = {n: verdicts[n].checked.feedback or "" for n in unverified}
    feedback.update({n: CONTESTED_FEEDBACK for n in contested})
    with spent_before(usage):
        follow = await _recheck(setup, request, reply, claims, asked, feedback, contexts)
    if follow.reply is not None:
        for v in follow.reply.parsed.verdicts:
            verdicts[v.claim] = judged(setup, claims[v.claim - 1], v, contexts)
    for n in contested:
        if verdicts[n].checked.verification == "none":
            verdicts[n] = Judged(verdicts[n].reason, Checked([], "contested", PROBLEMS["contested"], check="contested"))
    return [verdicts[n] for n in everyone], usage + follow.usage, int(follow.asked)


CONTESTED_FEEDBACK = (
    "judged unsupported; judge it again: it is supported only when a context states it, and then quote the words "
    "that state it"
)
"""What the re-ask says about an "unsupported" verdict that a passage sentence may contradict."""


async def _recheck(
    setup: Judging,
    request: LLMRequest[JudgedClaims],
    reply: LLMReply[JudgedClaims],
    claims: list[str],
    asked: list[int],
    feedback: dict[int, str],
    contexts: Contexts,
) -> FollowUp[JudgedClaims]:
    """Ask once more about the ``asked`` claim numbers, each with its ``feedback``, within what is left of the
    repair budget."""
    # The feedback echoes the judge's quotes: escaped, they cannot open or close a block either.
    problems = "\n".join(f"- {claim_block(claims[n - 1], n)}: {escape_data(feedback[n])}" for n in asked)
    message, version = setup.prompts.follow_up("recheck", setup.language, request.prompt_version, problems=problems)
    return await ask_again(
        setup.llm,
        request,
        reply,
        message,
        JudgedClaims,
        task="context_recall.recheck",
        inputs={
            "claims": [claims[n - 1] for n in asked],
            "numbers": asked,
            "contexts": list(contexts.texts),
            "language": setup.language,
        },
        prompt_version=version,
        check=lambda r: check_judged(r, asked, len(contexts)),
        max_repairs=setup.max_repairs,
    )


def judged(setup: Judging, claim: str, verdict: Verdict | SingleClaim, contexts: Contexts) -> Judged:
    """A verdict of either reply format on ``claim``, its quotes checked."""
    checked = check_support(claim, verdict.supported, verdict.support, contexts, threshold=setup.quote_threshold)
    return Judged(verdict.reason.strip(), checked)
