"""Confirmation of nugget labels by claim recall's confirming step: each supported nugget (its text) and each
partly supported one (its part) goes, with only its evidence sentences, to the confirming model
(``task="context_recall.confirm"``); a label not confirmed becomes ``not_support``, ``"refuted"``."""

from __future__ import annotations

from ...llm import LLM
from ...usage import Usage
from ..context_recall import ClaimVerdict, Contexts, Prompts, confirm_verdicts
from ._evidence import NuggetVerdict

__all__ = ["confirm_nuggets"]


async def confirm_nuggets(
    llm: LLM, prompts: Prompts, language: str, verdicts: list[NuggetVerdict], contexts: Contexts, *, max_repairs: int
) -> tuple[list[NuggetVerdict], Usage]:
    """``verdicts`` with every support and partial support confirmed or refuted, and what it cost."""
    asked = [i for i, v in enumerate(verdicts) if v.label != "not_support"]
    if not asked:
        return verdicts, Usage()
    claims = [
        ClaimVerdict(
            claim=verdicts[i].part or verdicts[i].text,
            supported=True,
            supporting_contexts=sorted({q.context for q in verdicts[i].support}),
            reason="",
            support=verdicts[i].support,
            verification=verdicts[i].verification,
        )
        for i in asked
    ]
    confirmed, usage = await confirm_verdicts(
        llm, prompts, language, claims, contexts, claims_per_call=len(claims), max_repairs=max_repairs
    )
    out = list(verdicts)
    for i, c in zip(asked, confirmed, strict=True):
        if c.confirmed:
            out[i] = out[i].model_copy(update={"confirmed": True})
        else:
            out[i] = out[i].model_copy(
                update={
                    "confirmed": False,
                    "label": "not_support",
                    "verification": "refuted",
                    "problem": c.problem,
                    "check": "refuted",
                    "passage_labels": {},
                }
            )
    return out, usage
