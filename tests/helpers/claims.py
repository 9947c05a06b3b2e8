"""Scripted replies for the claim-recall tests: reply builders and the usual sample."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ragrecall.metrics.context_recall._replies import Support
from ragrecall.metrics.context_recall._verify import Contexts, check_support

REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall. Paris hosted the 1900 Olympics."
# No claim is written word for word in a context, so that every claim goes to the (scripted) judge.
CONTEXTS = ["Paris is the capital city of France.", "The Eiffel Tower, in Paris, is 330 metres tall.", "Unrelated."]
CLAIMS = ["Paris is the capital of France.", "The Eiffel Tower is 330 metres tall.", "Paris hosted the 1900 Olympics."]


def support(*pairs: tuple[int, str]) -> list[dict[str, Any]]:
    """``support`` entries from (1-based context, quote) pairs."""
    return [{"context": c, "quote": q} for c, q in pairs]


def verdict(
    claim: int, supported: bool, quotes: Sequence[tuple[int, str]] = (), reason: str = "Because."
) -> dict[str, Any]:
    """One verdict of a judge reply."""
    return {"claim": claim, "reason": reason, "supported": supported, "support": support(*quotes)}


def single_claim(
    claim: str, supported: bool, quotes: Sequence[tuple[int, str]] = (), reason: str = "Because."
) -> dict[str, Any]:
    """One claim of a one-call reply."""
    return {"claim": claim, "reason": reason, "supported": supported, "support": support(*quotes)}


JUDGED = {
    "verdicts": [
        verdict(1, True, [(1, "Paris is the capital city of France.")]),
        verdict(2, True, [(2, "The Eiffel Tower, in Paris, is 330 metres tall")]),
        verdict(3, False),
    ]
}
"""The honest judgement of CLAIMS against CONTEXTS."""


# The batch samples' passages: only the first states a claim (claim 1, not word for word), so that an
# "unsupported" verdict on claims 2 and 3 is honest and not put back to the judge.
BATCH_CONTEXTS = ["Paris is the capital city of France.", "The Eiffel Tower stands in Paris.", "Unrelated."]
NOTHING_ELSE = [verdict(2, False), verdict(3, False)]
INVENTED = {"verdicts": [verdict(1, True, [(1, "Paris is a city of gold")])]}
# Five samples scored one after the other (max_concurrency=1), with every kind of evidence check: each
# sample's replies in the order they are asked for.
BATCH_REPLIES: list[Any] = [
    # honest: claim 1 verified
    {"claims": CLAIMS},
    {"verdicts": [verdict(1, True, [(1, "Paris is the capital")]), *NOTHING_ELSE]},
    # misplaced: claim 1 quoted from context 1 but cited as context 2, corrected
    {"claims": CLAIMS},
    {"verdicts": [verdict(1, True, [(2, "Paris is the capital")]), *NOTHING_ELSE]},
    # invented: claim 1's quote is nowhere, asked again, still nowhere
    {"claims": CLAIMS},
    {"verdicts": [INVENTED["verdicts"][0], *NOTHING_ELSE]},
    INVENTED,
    # gap: the 1900 sentence is missing, asked again, still missing: a coverage claim; claim 1 verified
    {"claims": CLAIMS[:2]},
    {"claims": CLAIMS[:2]},
    {"verdicts": [verdict(1, True, [(1, "Paris is the capital")]), *NOTHING_ELSE]},
    # extra: an invented claim, asked again, still there: dropped; claim 1 judged unsupported although passage 1
    # holds all its words, asked again, still unsupported: contested
    {"claims": [*CLAIMS, "Rome is in Italy."]},
    {"claims": [*CLAIMS, "Rome is in Italy."]},
    {"verdicts": [verdict(1, False), *NOTHING_ELSE]},
    {"verdicts": [verdict(1, False)]},
]


def batch_samples() -> list[dict[str, Any]]:
    names = ["honest", "misplaced", "invented", "gap", "extra"]
    return [{"id": name, "reference": REFERENCE, "retrieved_contexts": BATCH_CONTEXTS} for name in names]


def checked(claim: str, contexts: Sequence[str], *quotes: tuple[int, str]) -> tuple[str, str | None]:
    """The verification level and problem code gives a "supported" verdict on ``claim`` quoting ``quotes``
    ((1-based context, quote) pairs) from ``contexts``."""
    result = check_support(
        claim, True, [Support(context=c, quote=q) for c, q in quotes], Contexts(list(contexts)), threshold=0.9
    )
    return result.verification, result.problem


def assert_verified(claim: str, contexts: Sequence[str], *quotes: tuple[int, str]) -> None:
    """Assert code verifies a "supported" verdict on ``claim`` quoting ``quotes``."""
    verification, problem = checked(claim, contexts, *quotes)
    assert verification == "verified", problem


def assert_caught(claim: str, contexts: Sequence[str], quotes: Sequence[tuple[int, str]], check: str) -> None:
    """Assert code does not verify a "supported" verdict on ``claim`` quoting ``quotes``, with a problem that
    starts with ``check``."""
    verification, problem = checked(claim, contexts, *quotes)
    assert verification != "verified"
    assert problem is not None and problem.startswith(check), problem
