"""The decomposition step: the reference into atomic claims, checked to cover the reference and only it.

The judge's claim list is checked (:mod:`._coverage`). When a sentence of the reference is not covered or a
claim is not grounded, the judge is told which, once, in the same conversation and within the same repair
budget, and answers with a corrected list. What is still wrong after that is fixed without it: an uncovered
sentence becomes a claim of its own, verbatim; an ungrounded or duplicate claim is dropped and recorded.

Without the coverage check, nothing fills an empty list: for a reference that states facts
(:func:`._coverage.states_facts`) an empty claim list is an invalid reply, asked again within the repair
budget, then a :class:`~ragrecall.errors.NoClaimsError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...llm import LLM, LLMRequest, ask_again, spent_before
from ...usage import Usage
from ._claims import Claim
from ._coverage import CoverageReport, analyse, states_facts
from ._evidence import DroppedClaim
from ._prompting import Prompts, claim_block, one_line, reference_block, say, sentence_block
from ._replies import ClaimList, ask_for_claims, check_claim_list, require_claims

__all__ = ["Decomposition", "decompose"]


@dataclass(frozen=True)
class Decomposition:
    """The claims to judge, what was dropped, and what it cost."""

    claims: list[Claim]
    dropped: list[DroppedClaim]
    usage: Usage
    reasks: int


async def decompose(
    llm: LLM, prompts: Prompts, language: str, reference: str, *, max_repairs: int, coverage: bool
) -> Decomposition:
    """Decompose ``reference``; with ``coverage``, check and complete the claims (see the module docstring).

    Raises:
        NoClaimsError: without ``coverage``, the claim list of a reference that states facts stayed empty.
        LLMOutputError, LLMRequestError, CacheMissError: no valid claim list (carrying the usage paid).
    """
    template = prompts.get("decompose", language)
    request = LLMRequest(
        template.render(reference=reference_block(reference)),
        ClaimList,
        template.version,
        "context_recall.decompose",
        {"reference": reference, "language": language},
    )
    need_claims = not coverage and states_facts(reference)  # with coverage, uncovered sentences become claims

    def check(reply: ClaimList) -> None:
        check_claim_list(reply)
        if need_claims:
            require_claims(reply.claims)

    reply = await ask_for_claims(llm, request, check=check, max_repairs=max_repairs)
    claims = [one_line(c) for c in reply.parsed.claims]
    if not coverage:
        return Decomposition([Claim(c, "decomposition") for c in claims], [], reply.usage, 0)
    report = analyse(reference, claims)
    if not report.needs_attention:
        return Decomposition(_final_claims(report), report.dropped(), reply.usage, 0)
    message, version = prompts.follow_up("cover", language, template.version, **_cover_message_values(report, language))
    with spent_before(reply.usage):
        follow = await ask_again(
            llm,
            request,
            reply,
            message,
            ClaimList,
            task="context_recall.cover",
            inputs={
                "reference": reference,
                "claims": claims,
                "uncovered": [f.text for f in report.uncovered],
                "invented": [f.text for f in report.ungrounded],
                "language": language,
            },
            prompt_version=version,
            check=check_claim_list,
            max_repairs=max_repairs,
        )
    if follow.reply is not None:
        report = analyse(reference, [one_line(c) for c in follow.reply.parsed.claims])
    return Decomposition(_final_claims(report), report.dropped(), reply.usage + follow.usage, int(follow.asked))


def _final_claims(report: CoverageReport) -> list[Claim]:
    """The kept claims, then one claim per sentence still uncovered: the sentence, on one line."""
    added = [Claim(one_line(f.text), "coverage") for f in report.uncovered]
    return [Claim(c, "decomposition") for c in report.kept] + added


def _cover_message_values(report: CoverageReport, language: str) -> dict[str, str]:
    """The ``uncovered`` and ``invented`` lists of the cover prompt: one ``- <sentence>…</sentence> (why)`` or
    ``- <claim id="n">…</claim> (why)`` line each, numbered as in the reply, or a word for none."""
    uncovered = [f"- {sentence_block(f.text)} ({f.reason})" for f in report.uncovered]
    invented = [f"- {claim_block(f.text, f.index + 1)} ({f.reason})" for f in report.ungrounded]
    none = say("none", language)
    return {"uncovered": "\n".join(uncovered) or none, "invented": "\n".join(invented) or none}
