"""One assignment: every nugget of a sample labelled against the numbered contexts in one request, each quote
checked (:mod:`._verify`); labels whose quotes fail are put back to the judge once (``nugget_recall.recheck``),
in the same conversation and within the same repair budget, and their new labels checked the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...llm import LLM, LLMRequest, ask, ask_again, escape_data, spent_before
from ...usage import Usage
from ..context_recall import Contexts, number_contexts
from ._prompting import NuggetPrompts, nugget_block, number_nuggets, query_block
from ._replies import Assignments, check_assignments
from ._verify import CheckedNugget, check_assignment

__all__ = ["Assigning", "assign_nuggets"]


@dataclass(frozen=True)
class Assigning:
    """What an assignment needs besides the nuggets and contexts."""

    llm: LLM
    prompts: NuggetPrompts
    language: str
    max_repairs: int
    quote_threshold: float
    query: str | None


async def assign_nuggets(
    setup: Assigning, nuggets: Sequence[str], contexts: Contexts, *, variant: int | None = None
) -> tuple[list[CheckedNugget], Usage, int]:
    """One checked label per nugget, in order; the usage of every request; how many follow-ups were sent.

    Raises:
        LLMOutputError, LLMRequestError, CacheMissError: the request could not be answered (with the usage paid).
    """
    template = setup.prompts.get("assign", setup.language)
    texts = list(nuggets)
    request = LLMRequest(
        template.render(
            query=query_block(setup.query), contexts=number_contexts(contexts.texts), nuggets=number_nuggets(texts)
        ),
        Assignments,
        template.version,
        "nugget_recall.assign",
        {"query": setup.query, "nuggets": texts, "contexts": list(contexts.texts), "language": setup.language},
        variant=variant,
    )
    everyone = range(1, len(texts) + 1)
    reply = await ask(
        setup.llm, request, check=lambda r: check_assignments(r, everyone, len(contexts)), max_repairs=setup.max_repairs
    )
    checked = {
        a.nugget: check_assignment(texts[a.nugget - 1], a, contexts, threshold=setup.quote_threshold)
        for a in reply.parsed.assignments
    }
    asked = [n for n in everyone if checked[n].checked.verification == "unverified"]
    if not asked:
        return [checked[n] for n in everyone], reply.usage, 0
    problems = "\n".join(
        f"- {nugget_block(texts[n - 1], n)}: {escape_data(checked[n].checked.feedback or '')}" for n in asked
    )
    message, version = setup.prompts.follow_up("recheck", setup.language, request.prompt_version, problems=problems)
    with spent_before(reply.usage):
        follow = await ask_again(
            setup.llm,
            request,
            reply,
            message,
            Assignments,
            task="nugget_recall.recheck",
            inputs={
                "query": setup.query,
                "nuggets": [texts[n - 1] for n in asked],
                "numbers": asked,
                "contexts": list(contexts.texts),
                "problems": [checked[n].checked.feedback or "" for n in asked],
                "language": setup.language,
            },
            prompt_version=version,
            check=lambda r: check_assignments(r, asked, len(contexts)),
            max_repairs=setup.max_repairs,
        )
    if follow.reply is not None:
        for a in follow.reply.parsed.assignments:
            checked[a.nugget] = check_assignment(texts[a.nugget - 1], a, contexts, threshold=setup.quote_threshold)
    return [checked[n] for n in everyone], reply.usage + follow.usage, int(follow.asked)
