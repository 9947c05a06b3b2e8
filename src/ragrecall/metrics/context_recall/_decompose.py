"""The decomposition step: the reference into atomic claims, checked to cover the reference and only it.

The judge's claim list is checked (:mod:`._coverage`). When a sentence of the reference is not covered or a
claim is not grounded, the judge is told which, once, in the same conversation and within the same repair
budget, and answers with a corrected list. What is still wrong after that is fixed without it: an uncovered
sentence becomes a claim of its own, verbatim; an ungrounded or duplicate claim is dropped and recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...llm._ask import ask, ask_again, spent_before
from ...llm._protocol import LLM, LLMRequest
from ...usage import Usage
from ._claims import Claim
from ._coverage import CoverageReport, Flagged, analyse
from ._evidence import DroppedClaim
from ._prompting import Prompts, json_line
from ._replies import ClaimList, check_claim_list

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
        LLMOutputError, LLMRequestError, CacheMissError: no valid claim list (carrying the usage paid).
    """
    template = prompts.get("decompose", language)
    request = LLMRequest(
        template.render(reference=reference),
        ClaimList,
        template.version,
        "context_recall.decompose",
        {"reference": reference, "language": language},
    )
    reply = await ask(llm, request, check=check_claim_list, max_repairs=max_repairs)
    claims = [c.strip() for c in reply.parsed.claims]
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
        report = analyse(reference, [c.strip() for c in follow.reply.parsed.claims])
    return Decomposition(_final_claims(report), report.dropped(), reply.usage + follow.usage, int(follow.asked))


def _final_claims(report: CoverageReport) -> list[Claim]:
    """The kept claims, then one verbatim claim per sentence still uncovered."""
    return [Claim(c, "decomposition") for c in report.kept] + [Claim(f.text, "coverage") for f in report.uncovered]


def _cover_message_values(report: CoverageReport, language: str) -> dict[str, str]:
    """The ``uncovered`` and ``invented`` lists of the cover prompt."""
    return {"uncovered": _lines(report.uncovered, language), "invented": _lines(report.ungrounded, language)}


_NONE = {"en": "(none)", "zh": "（无）"}


def _lines(flagged: list[Flagged], language: str) -> str:
    return "\n".join(f"- {json_line(f.text)} ({f.reason})" for f in flagged) or _NONE.get(language, "(none)")
