"""Judging the claims once or several times, all contexts at once or one at a time, and the majority verdict.

A *judgement* gives every claim one verdict. With ``votes=k`` there are k judgements, each its own requests
(and cache entries): the first shows the contexts in their original order, every later one in another order
drawn from a seeded generator, so position bias is averaged out and a run is reproducible. With
``judging="per_context"`` a judgement asks about one context per request, and a claim is supported when any
context supports it. Whatever the judge was shown, the verdicts come back in the original numbering.

Claims written word for word in a passage are decided first, by code (:func:`._stated.stated_support`): they
are never sent to the judge, and every vote counts them as supported.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...llm import gather_paid
from ...usage import Usage
from .._quoted_judge import Plan
from ._claims import Claim
from ._evidence import ClaimVerdict, Quote, UnverifiedPolicy, Verification
from ._judge import Judged, Judging, judge_claims
from ._stated import stated_support
from ._verify import Checked, Contexts

__all__ = ["Plan", "Voted", "context_orders", "judge_votes"]

_WORST: tuple[Verification, ...] = ("unverified", "corrected", "verified")


@dataclass(frozen=True)
class Voted:
    """The final verdict per claim (with its votes), each judgement's score, and what judging cost."""

    verdicts: list[ClaimVerdict]
    judgement_values: list[float]
    agreement: float | None
    usage: Usage
    reasks: int


def context_orders(texts: Sequence[str], votes: int, seed: int) -> list[list[int]]:
    """The order in which each judgement shows the contexts (original indices, first shown first).

    The first order is the original one. Later ones are drawn from a generator seeded with ``seed`` and the
    contexts' text, so they are the same on every run and differ from sample to sample; each differs from the
    orders drawn before it while the contexts allow that many orders (with n contexts, n! of them), after
    which they start over.
    """
    n = len(texts)
    identity = list(range(n))
    if votes <= 1:
        return [identity]
    digest = hashlib.sha256("\x1f".join(texts).encode("utf-8")).hexdigest()
    rng = random.Random(f"{seed}:{digest}")
    possible = math.factorial(n) if n <= 12 else None
    orders, used = [identity], {tuple(identity)}
    for _ in range(1, votes):
        if possible is not None and len(used) >= possible:
            used = set()
        order = identity[:]
        rng.shuffle(order)
        while tuple(order) in used:  # an unused order exists, so a draw finds one (expected draws <= n!)
            rng.shuffle(order)
        used.add(tuple(order))
        orders.append(order)
    return orders


async def judge_votes(
    setup: Judging,
    claims: Sequence[Claim],
    contexts: Contexts,
    plan: Plan,
    *,
    first: list[ClaimVerdict] | None = None,
) -> Voted:
    """Judge ``claims`` ``plan.votes`` times and take the majority per claim (a tie counts as unsupported).

    ``first``: the first judgement when it is already made (the one-call mode judges as it decomposes).

    Raises:
        LLMOutputError, LLMRequestError, CacheMissError: a request could not be answered (the others are
            cancelled; the exception carries the usage of what was paid).
    """
    stated = [stated_support(c.text, contexts) for c in claims]
    open_claims = [c for c, s in zip(claims, stated, strict=True) if s is None]
    orders = context_orders(contexts.texts, plan.votes, plan.seed)
    tasks = [
        asyncio.ensure_future(_judgement(setup, open_claims, contexts, order, number, plan))
        for number, order in enumerate(orders)
        if (number or first is None) and open_claims
    ]
    done = await gather_paid(tasks)
    if first is not None:
        done.insert(0, ([v for v, s in zip(first, stated, strict=True) if s is None], Usage(), 0))
    elif not open_claims:
        done = [([], Usage(), 0) for _ in orders]
    judgements = [_with_stated(claims, stated, verdicts) for verdicts, _, _ in done]
    usage = Usage.total([u for _, u, _ in done])
    reasks = sum(r for _, _, r in done)
    verdicts = [_majority([j[i] for j in judgements]) for i in range(len(claims))]
    values = [sum(v.supported for v in j) / len(j) for j in judgements] if claims else []
    agreement = sum(v.unanimous for v in verdicts) / len(verdicts) if plan.votes > 1 and verdicts else None
    return Voted(verdicts, values, agreement, usage, reasks)


def _with_stated(claims: Sequence[Claim], stated: list[Quote | None], judged: list[ClaimVerdict]) -> list[ClaimVerdict]:
    """One judgement's verdicts on every claim: the stated claims' verdicts by code, the judge's for the rest."""
    rest = iter(judged)
    return [
        next(rest) if quote is None else stated_verdict(claim, quote)
        for claim, quote in zip(claims, stated, strict=True)
    ]


def stated_verdict(claim: Claim, quote: Quote) -> ClaimVerdict:
    """The verdict of code on a claim written word for word in a passage."""
    return ClaimVerdict(
        claim=claim.text,
        supported=True,
        supporting_contexts=[quote.context],
        reason=f"Stated word for word in passage {quote.context + 1}.",
        support=[quote],
        verification="stated",
        origin=claim.origin,
        votes=[True],
    )


async def _judgement(
    setup: Judging, claims: Sequence[Claim], contexts: Contexts, order: list[int], number: int, plan: Plan
) -> tuple[list[ClaimVerdict], Usage, int]:
    """One verdict per claim from one judgement, in the original context numbering."""
    texts = [c.text for c in claims]
    variant = number or None  # the first judgement is the request a single vote would send
    if plan.judging == "together":
        judged, usage, reasks = await judge_claims(setup, texts, _shown(contexts, order), variant=variant)
        pairs = zip(claims, judged, strict=True)
        return [claim_verdict(c, _renumbered(j, order), plan.unverified) for c, j in pairs], usage, reasks
    tasks = [asyncio.ensure_future(judge_claims(setup, texts, _shown(contexts, [i]), variant=variant)) for i in order]
    done = await gather_paid(tasks)
    by_context = {
        i: [claim_verdict(c, _renumbered(j, [i]), plan.unverified) for c, j in zip(claims, judged, strict=True)]
        for i, (judged, _, _) in zip(order, done, strict=True)
    }
    verdicts = [_any_context([by_context[i][k] for i in sorted(by_context)]) for k in range(len(claims))]
    return verdicts, Usage.total([u for _, u, _ in done]), sum(r for _, _, r in done)


def _shown(contexts: Contexts, order: list[int]) -> Contexts:
    """The contexts as one request shows them: those of ``order``, in that order."""
    if order == list(range(len(contexts))):
        return contexts
    return Contexts([contexts.texts[i] for i in order])


def _renumbered(judged: Judged, order: list[int]) -> Judged:
    """``judged`` with its quotes' context indices taken from the order shown back to the original one.

    The judge's reason numbers passages as it saw them; when that is not the original numbering, the reason
    says what was shown (free text is not rewritten: a number in it may mean something else)."""
    checked = judged.checked
    quotes = [q.model_copy(update={"context": order[q.context], "cited": order[q.cited]}) for q in checked.quotes]
    reason = judged.reason
    if len(order) == 1 and order != [0]:
        reason = f"{reason} [passage {order[0] + 1} shown alone]"
    elif order != sorted(order):
        reason = f"{reason} [passages shown in the order {', '.join(str(i + 1) for i in order)}]"
    return Judged(
        reason, Checked(quotes, checked.verification, checked.problem, checked.feedback, checked.check, checked.note)
    )


def claim_verdict(claim: Claim, judged: Judged, policy: UnverifiedPolicy) -> ClaimVerdict:
    """One judgement's verdict on ``claim``, counted by the ``unverified`` policy."""
    checked = judged.checked
    counted = checked.verification in ("verified", "corrected") or (
        checked.verification == "unverified" and policy == "supported"
    )
    return ClaimVerdict(
        claim=claim.text,
        supported=counted,
        supporting_contexts=sorted({q.context for q in checked.quotes}) if counted else [],
        reason=judged.reason,
        support=checked.quotes,
        verification=checked.verification,
        problem=checked.problem,
        check=checked.check,
        note=checked.note,
        origin=claim.origin,
        votes=[counted],
    )


def _any_context(verdicts: list[ClaimVerdict]) -> ClaimVerdict:
    """The verdicts on one claim from each context alone, as one: supported when any context supports it.

    Supported: the quotes and contexts of every supporting context, checked as the least certain of them.
    Not supported: an unverified verdict when there is one (so that it is counted and shown), else a contested
    one, else the first context's reason.
    """
    supporting = [v for v in verdicts if v.supported]
    if not supporting:
        flagged = (v for level in ("unverified", "contested") for v in verdicts if v.verification == level)
        return next(flagged, verdicts[0])
    verification = next(w for w in _WORST if any(v.verification == w for v in supporting))
    return supporting[0].model_copy(
        update={
            "supporting_contexts": sorted({i for v in supporting for i in v.supporting_contexts}),
            "support": [q for v in supporting for q in v.support],
            "verification": verification,
            "problem": next((v.problem for v in supporting if v.problem), None),
            "check": next((v.check for v in supporting if v.check), None),
        }
    )


def _majority(verdicts: list[ClaimVerdict]) -> ClaimVerdict:
    """The verdicts of every judgement on one claim, as one: the strict majority (a tie is unsupported),
    shown with the first judgement that agrees with it, and every vote."""
    votes = [v.supported for v in verdicts]
    supported = sum(votes) * 2 > len(votes)
    shown = next(v for v in verdicts if v.supported == supported)  # a tie has unsupported votes
    return shown if shown.votes == votes else shown.model_copy(update={"votes": votes})
