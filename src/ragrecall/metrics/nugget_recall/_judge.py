"""Labelling the nuggets once or several times, all contexts at once or one at a time, and the final label.

Nuggets written word for word in a passage are supported by code (``stated``, as claims are) and never sent to
the judge. A *judgement* labels every other nugget: with ``judging="together"`` in one request showing every
context, with ``"per_context"`` in one request per context, the nugget's label the best over passages (support
over partial support over not_support). With ``votes=k`` there are k judgements, the first showing the contexts
in their order and each later one in another order (seeded; the same orders claim recall draws); a nugget's
label is the lower median of its k labels (so a tie between two grades takes the lower one, as a tie counts
unsupported for claims). A label whose quotes did not check out counts by the ``unverified`` policy.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ...llm import gather_paid
from ...nuggets import Importance, Label
from ...usage import Usage
from .._quoted_judge import Plan
from ..context_recall import Contexts, context_orders, stated_support
from ._assign import Assigning, assign_nuggets
from ._evidence import NuggetOrigin, NuggetVerdict, UnverifiedPolicy
from ._verify import CheckedNugget

__all__ = ["Item", "Plan", "Voted", "judge_nuggets"]

RANK: dict[str, int] = {"not_support": 0, "partial_support": 1, "support": 2}


@dataclass(frozen=True)
class Item:
    """A nugget to label."""

    text: str
    importance: Importance
    origin: NuggetOrigin = "given"


@dataclass(frozen=True)
class Voted:
    """The final verdict per nugget, the share of unanimous nuggets, what judging cost."""

    verdicts: list[NuggetVerdict]
    agreement: float | None
    usage: Usage
    reasks: int


@dataclass(frozen=True)
class _One:
    """One judgement's view of one nugget."""

    label: Label
    checked: CheckedNugget
    passages: dict[int, Label]


async def judge_nuggets(setup: Assigning, items: Sequence[Item], contexts: Contexts, plan: Plan) -> Voted:
    """Label ``items`` against ``contexts`` by ``plan`` (module docstring).

    Raises:
        LLMOutputError, LLMRequestError, CacheMissError: a request could not be answered (the others are
            cancelled; the exception carries the usage of what was paid).
    """
    stated = [stated_support(item.text, contexts) for item in items]
    open_items = [item for item, quote in zip(items, stated, strict=True) if quote is None]
    orders = context_orders(contexts.texts, plan.votes, plan.seed)
    if open_items:
        tasks = [
            asyncio.ensure_future(_judgement(setup, [i.text for i in open_items], contexts, order, number, plan))
            for number, order in enumerate(orders)
        ]
        done = await gather_paid(tasks)
    else:
        done = [([], Usage(), 0) for _ in orders]
    verdicts: list[NuggetVerdict] = []
    rest = iter(range(len(open_items)))
    for item, quote in zip(items, stated, strict=True):
        if quote is not None:
            verdicts.append(
                NuggetVerdict(
                    text=item.text,
                    importance=item.importance,
                    label="support",
                    support=[quote],
                    verification="stated",
                    reason=f"Stated word for word in passage {quote.context + 1}.",
                    origin=item.origin,
                    votes=["support"] * plan.votes,
                    passage_labels={quote.context: "support"},
                )
            )
            continue
        k = next(rest)
        verdicts.append(_final(item, [judged[k] for judged, _, _ in done]))
    agreement = sum(len(set(v.votes)) == 1 for v in verdicts) / len(verdicts) if plan.votes > 1 and verdicts else None
    return Voted(verdicts, agreement, Usage.total([u for _, u, _ in done]), sum(r for _, _, r in done))


def _final(item: Item, ones: list[_One]) -> NuggetVerdict:
    """The lower median of the judgements' labels, shown with the first judgement that gave it."""
    labels = [one.label for one in ones]
    label = sorted(labels, key=RANK.__getitem__)[(len(labels) - 1) // 2]
    shown = next(one for one in ones if one.label == label)
    checked = shown.checked.checked
    return NuggetVerdict(
        text=item.text,
        importance=item.importance,
        label=label,
        judged=shown.checked.label,
        support=checked.quotes,
        part=shown.checked.part,
        verification=checked.verification,
        problem=checked.problem,
        check=checked.check,
        reason=shown.checked.reason,
        origin=item.origin,
        votes=labels,
        passage_labels=shown.passages,
    )


async def _judgement(
    setup: Assigning, texts: list[str], contexts: Contexts, order: list[int], number: int, plan: Plan
) -> tuple[list[_One], Usage, int]:
    """One label per nugget from one judgement, quotes in the original context numbering."""
    variant = number or None  # the first judgement is the request a single vote would send
    if plan.judging == "together":
        checked, usage, reasks = await assign_nuggets(setup, texts, _shown(contexts, order), variant=variant)
        ones = [_one(_renumbered(c, order), plan.unverified, None) for c in checked]
        return ones, usage, reasks
    tasks = [asyncio.ensure_future(assign_nuggets(setup, texts, _shown(contexts, [i]), variant=variant)) for i in order]
    done = await gather_paid(tasks)
    by_passage = {
        i: [_one(_renumbered(c, [i]), plan.unverified, i) for c in checked]
        for i, (checked, _, _) in zip(order, done, strict=True)
    }
    ones = [_best([by_passage[i][k] for i in sorted(by_passage)]) for k in range(len(texts))]
    return ones, Usage.total([u for _, u, _ in done]), sum(r for _, _, r in done)


def _one(checked: CheckedNugget, policy: UnverifiedPolicy, passage: int | None) -> _One:
    """The label ``checked`` counts for under ``policy``, and the passages it credits."""
    level = checked.checked.verification
    trusted = level in ("verified", "corrected") or (level == "unverified" and policy == "supported")
    label: Label = checked.label if trusted else "not_support"  # type: ignore[assignment]
    if label == "not_support":
        return _One(label, checked, {})
    where = {passage} if passage is not None else {q.context for q in checked.checked.quotes if q.found}
    return _One(label, checked, dict.fromkeys(sorted(where), label))


def _best(ones: list[_One]) -> _One:
    """The labels of one nugget from each passage alone, as one: the best label, shown with the first passage
    that gave it (its quotes with those of every passage giving the same label); every passage's label kept."""
    top = max(ones, key=lambda one: RANK[one.label])
    if top.label == "not_support":
        flagged = next((one for one in ones if one.checked.checked.verification == "unverified"), ones[0])
        return flagged
    same = [one for one in ones if one.label == top.label]
    quotes = [q for one in same for q in one.checked.checked.quotes]
    first = same[0].checked
    passages = {i: label for one in ones for i, label in one.passages.items()}
    return _One(
        top.label, dataclasses.replace(first, checked=dataclasses.replace(first.checked, quotes=quotes)), passages
    )


def _shown(contexts: Contexts, order: list[int]) -> Contexts:
    if order == list(range(len(contexts))):
        return contexts
    return Contexts([contexts.texts[i] for i in order])


def _renumbered(checked: CheckedNugget, order: list[int]) -> CheckedNugget:
    """``checked`` with its quotes' context indices taken back from the order shown to the original one."""
    c = checked.checked
    quotes = [q.model_copy(update={"context": order[q.context], "cited": order[q.cited]}) for q in c.quotes]
    return dataclasses.replace(checked, checked=dataclasses.replace(c, quotes=quotes))
