"""What the judge must reply at each step, and the structural checks every reply passes before it is used.

Numbers in replies are as shown to the model: claims and contexts count from 1.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic.json_schema import SkipJsonSchema

from ...errors import NoClaimsError
from ...llm._ask import Check, RepairsExhaustedError, ask
from ...llm._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT

__all__ = [
    "ClaimList",
    "JudgedClaims",
    "Quoted",
    "SingleClaim",
    "SingleReply",
    "Support",
    "Unsupported",
    "Verdict",
    "ask_for_claims",
    "check_claim_list",
    "check_judged",
    "check_single",
    "require_claims",
]

NO_CLAIMS = "the claim list is empty, but the reference states facts: give each of them as a claim"
"""The problem shown to the judge when it lists no claim for a reference that states facts."""


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClaimList(_Reply):
    """Reply of the decomposition step (and of its follow-up about coverage)."""

    claims: list[str]
    """The reference's atomic, self-contained claims, in its language."""


class Support(_Reply):
    """One supporting context of a verdict and the passage of it that states the claim."""

    context: int
    """The context's number as shown (1-based)."""
    quote: str
    """The shortest passage of that context, copied verbatim, that states the claim."""


class Verdict(_Reply):
    """The judge's verdict on one numbered claim."""

    claim: int
    """The claim's number as shown (1-based)."""
    supported: bool
    """True when the contexts state the claim."""
    support: list[Support]
    """The quote from the context that states the claim best (more only when no one context states all of
    it); [] when unsupported."""
    reason: str = ""
    """One short sentence for an unsupported claim; "" when supported (the quote is the reason)."""


class Quoted(_Reply):
    """A supported claim and the passage of one context that states it."""

    claim: int
    """The claim's number as shown (1-based)."""
    context: int
    """The context's number as shown (1-based)."""
    quote: str
    """The shortest passage of that context, copied verbatim, that states the claim."""


class Unsupported(_Reply):
    """A claim no context states, and why."""

    claim: int
    """The claim's number as shown (1-based)."""
    reason: str
    """One short sentence, in the language of the claims."""


class JudgedClaims(_Reply):
    """Reply of the judging step (and of its follow-up, for the claims asked about): each claim in one list,
    the supported ones with their quote (a claim that needs two contexts appears twice), the others with a reason.

    Grouping by verdict keeps the reply short: no ``supported`` flag, no empty reason, no list per claim. A
    reply in the earlier shape, ``{"verdicts": [{"claim", "supported", "support", "reason"}]}``, is read too.
    """

    supported: list[Quoted] = []
    unsupported: list[Unsupported] = []
    given_verdicts: SkipJsonSchema[list[Verdict] | None] = None
    """The verdicts of a reply in the earlier shape; None for a grouped reply."""

    @model_validator(mode="before")
    @classmethod
    def _read_earlier_shape(cls, data: Any) -> Any:
        if isinstance(data, dict) and "verdicts" in data:
            return {**{k: v for k, v in data.items() if k != "verdicts"}, "given_verdicts": data["verdicts"]}
        return data

    @cached_property
    def verdicts(self) -> list[Verdict]:
        """One verdict per claim entry: the quotes of a supported claim gathered, in the order given."""
        if self.given_verdicts is not None:
            return self.given_verdicts
        gathered: dict[int, Verdict] = {}
        for q in self.supported:
            verdict = gathered.setdefault(q.claim, Verdict(claim=q.claim, supported=True, support=[]))
            verdict.support.append(Support(context=q.context, quote=q.quote))
        unsupported = [Verdict(claim=u.claim, supported=False, support=[], reason=u.reason) for u in self.unsupported]
        return [*gathered.values(), *unsupported]


class SingleClaim(_Reply):
    """A claim of the reference with its verdict, in the one-call mode."""

    claim: str
    supported: bool
    support: list[Support]
    reason: str = ""


class SingleReply(_Reply):
    """Reply of the one-call mode: claims with their verdicts."""

    claims: list[SingleClaim]


def check_claim_list(reply: ClaimList) -> None:
    """Every claim states something."""
    _check_not_blank(reply.claims)


def require_claims(claims: Sequence[object]) -> None:
    """At least one claim (for a reference that states facts, when nothing else would supply claims)."""
    if not claims:
        raise InvalidReplyError(NO_CLAIMS)


async def ask_for_claims(
    llm: LLM, request: LLMRequest[OutputT], *, check: Check[OutputT], max_repairs: int
) -> LLMReply[OutputT]:
    """:func:`~ragrecall.llm._ask.ask`, where a claim list still empty after every repair (the last reply's
    problem is :data:`NO_CLAIMS`) raises :class:`~ragrecall.errors.NoClaimsError` saying so.

    Raises:
        NoClaimsError: the last of ``1 + max_repairs`` replies listed no claim.
        LLMOutputError, LLMRequestError, CacheMissError: as :func:`~ragrecall.llm._ask.ask`.
    """
    try:
        return await ask(llm, request, check=check, max_repairs=max_repairs)
    except RepairsExhaustedError as exc:
        last = exc.__cause__
        if not (isinstance(last, InvalidReplyError) and last.problem == NO_CLAIMS):
            raise
        plural = "s" if exc.attempts > 1 else ""
        raise NoClaimsError(
            f"the reference has text but no claims were obtained after {exc.attempts} attempt{plural}",
            attempts=exc.attempts,
            usage=exc.usage,
        ) from last


def check_judged(reply: JudgedClaims, numbers: Collection[int], n_contexts: int) -> None:
    """Exactly one verdict for each claim number in ``numbers``, each citing contexts that exist."""
    got = [v.claim for v in reply.verdicts]
    if sorted(got) != sorted(numbers):
        wanted = _describe_numbers(sorted(numbers))
        raise InvalidReplyError(
            f"expected exactly one verdict for each claim {wanted}, got {len(got)} verdict(s) for claim number(s) {got}"
        )
    for v in reply.verdicts:
        _check_support(f"claim {v.claim}", v.supported, v.support, n_contexts)


def check_single(reply: SingleReply, n_contexts: int) -> None:
    """Every claim states something and cites contexts that exist."""
    _check_not_blank([c.claim for c in reply.claims])
    for i, c in enumerate(reply.claims, 1):
        _check_support(f"claim {i}", c.supported, c.support, n_contexts)


def _describe_numbers(numbers: Sequence[int]) -> str:
    if numbers and numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"{numbers[0]}..{numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


def _check_not_blank(claims: Sequence[str]) -> None:
    for i, claim in enumerate(claims, 1):
        if not claim.strip():
            raise InvalidReplyError(f"claim {i} is blank; every claim must state a fact")


def _check_support(what: str, supported: bool, support: Sequence[Support], n_contexts: int) -> None:
    if not supported:
        return  # an unsupported claim cites nothing, whatever came with it
    if not support:
        raise InvalidReplyError(
            f"{what} is marked supported but quotes no context; give each supporting context and its quote"
        )
    bad = [s.context for s in support if not 1 <= s.context <= n_contexts]
    if bad:
        raise InvalidReplyError(f"{what} cites context number(s) {bad}, but the contexts are numbered 1..{n_contexts}")
    blank = [s.context for s in support if not s.quote.strip()]
    if blank:
        raise InvalidReplyError(f"{what} gives an empty quote for context(s) {blank}; quote the passage verbatim")
