"""The evidence of claim recall: every claim, the verdict on it, the quotes behind it and where they were found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...rendering import InputNotes, Passages, fields_html
from ...results import Evidence

__all__ = [
    "MAX_REASON",
    "QUOTE_WINDOW",
    "VERIFICATION_LEVELS",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "DroppedClaim",
    "JudgingMode",
    "Mode",
    "Origin",
    "Quote",
    "UnverifiedPolicy",
    "Verification",
]

QUOTE_WINDOW = 80
"""Characters of context kept on each side of a located quote, for display."""
MAX_REASON = 1000
"""The most characters of a judge's ``reason`` kept in a verdict (a longer one is cut, ending in "…"): a
model that writes megabytes of reason must not make megabytes of results."""

Mode = Literal["claims", "single"]
Verification = Literal["stated", "verified", "corrected", "unverified", "contested", "refuted", "none"]
VERIFICATION_LEVELS: tuple[Verification, ...] = (
    "stated",
    "verified",
    "corrected",
    "unverified",
    "contested",
    "refuted",
    "none",
)
"""Every level of :attr:`ClaimVerdict.verification`, from the best evidenced to the least."""
Origin = Literal["decomposition", "coverage", "given"]
JudgingMode = Literal["together", "per_context"]
UnverifiedPolicy = Literal["unsupported", "supported", "fail"]


class Quote(BaseModel):
    """A passage the judge quoted as support, and where ragrecall found it."""

    model_config = ConfigDict(frozen=True)

    context: int
    """0-based index into ``retrieved_contexts`` of the context holding the quote (the cited one when the
    quote was found nowhere)."""
    cited: int
    """0-based index of the context the judge cited; differs from ``context`` when the citation was corrected."""
    quote: str
    """The quote, as the judge wrote it."""
    match: Literal["exact", "fuzzy", "none"] = "none"
    """How it was found: exactly after normalisation, by fuzzy alignment, or not at all."""
    start: int | None = None
    """Start of the located passage in that context's original text; None when the quote was not found."""
    end: int | None = None
    """End (exclusive) of the located passage; None when not found."""
    similarity: float = 0.0
    """1.0 for an exact match after normalisation, else the fuzzy similarity of the best alignment found."""
    passage: str | None = None
    """The located passage as the context writes it (``context_text[start:end]``)."""
    before: str = ""
    """Up to :data:`QUOTE_WINDOW` characters of the context just before the passage, for display."""
    after: str = ""
    """Up to :data:`QUOTE_WINDOW` characters of the context just after the passage, for display."""
    sentence: str | None = None
    """The sentence(s) of the context holding the passage: the evidence the checks read; None when the quote
    was not found."""

    @property
    def found(self) -> bool:
        """True when the quote was located in a context."""
        return self.start is not None


class ClaimVerdict(BaseModel):
    """One claim of the reference and the verdict on it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    """The claim, in the reference's language."""
    supported: bool
    """Whether the claim counts as supported: stated word for word in a passage, or the judge said so and its
    quotes were verified (or, for unverified verdicts, what the ``unverified`` policy decided), and, with
    ``confirm``, the confirming model agreed."""
    supporting_contexts: list[int]
    """0-based indices into ``retrieved_contexts`` of the contexts that support it (none when not supported)."""
    reason: str
    """The judge's one-sentence reason for an unsupported verdict; usually "" for a supported one, whose quotes
    are its reason (the prompts ask for no reason then). At most :data:`MAX_REASON` characters are kept."""
    support: list[Quote] = Field(default_factory=list)
    """The judge's quotes, each with where it was found; [] when the judge said unsupported."""

    @field_validator("reason")
    @classmethod
    def _bounded_reason(cls, reason: str) -> str:
        return reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 1] + "…"

    verification: Verification = "none"
    """What code established about the verdict (the docs page "Claims and verdicts", ``docs/concepts/claims.md``,
    says what each promises):

    - ``"stated"``: the claim is written word for word (after normalisation) in a passage, with its numbers and
      no negation around it: supported by code, the judge not asked;
    - ``"verified"``: every quote was found in the context it cites, and the sentences holding them passed every
      check (polarity, subject, numbers, units, ranges, quotes adding up, predicate);
    - ``"corrected"``: the same, after moving a quote to the context it really comes from;
    - ``"unverified"``: the judge said supported but a quote was found nowhere or its sentence failed a check
      (``problem`` says which), after one re-ask;
    - ``"contested"``: the judge said unsupported, asked again, and still did, although a passage sentence holds
      every term and number of the claim with the same polarity;
    - ``"refuted"``: the checks passed but the confirming model did not confirm the claim from its evidence;
    - ``"none"``: the judge said unsupported and nothing contradicted it."""
    problem: str | None = None
    """Why the verdict is not verified, e.g. ``"number not in evidence: 1900"`` or ``"negation differs: the
    evidence negates the claim"``."""
    check: str | None = None
    """The check that failed (``"number"``, ``"polarity"``, ``"subject"`` …), None when none did."""
    note: str | None = None
    """What code could not read and left to the judge and the confirmer, e.g. ``"predicate not checked by code:
    its words are not in the evidence"`` (a predicate written in other words: "passed away" for "died");
    None when code read everything it checks."""
    confirmed: bool | None = None
    """With ``confirm``: True when the confirming model found the claim entailed by its evidence sentences,
    False when it did not (the claim is then ``"refuted"``); None when not asked (confirmation off, or the
    claim not supported)."""
    origin: Origin = "decomposition"
    """``"decomposition"``: a claim the judge found in the reference; ``"coverage"``: a sentence of the
    reference no claim covered, added verbatim; ``"given"``: one of the sample's ``reference_claims``."""
    votes: list[bool] = Field(default_factory=list)
    """Whether each judgement counted the claim as supported, in judgement order (one entry per vote; the
    first judgement saw the contexts in their original order). ``supported`` is their strict majority: a tie
    counts as unsupported. The reason and quotes shown are those of the first judgement that agrees with it."""

    @property
    def unanimous(self) -> bool:
        """True when every judgement gave the same verdict (always, with one vote)."""
        return len(set(self.votes)) <= 1

    @model_validator(mode="before")
    @classmethod
    def _unchecked_when_absent(cls, data: Any) -> Any:
        # Verdicts written before quotes were verified said "supported" with nothing checked.
        if isinstance(data, dict) and "verification" not in data and data.get("supported"):
            return {**data, "verification": "unverified"}
        return data


class DroppedClaim(BaseModel):
    """A claim of the decomposition that was left out of the score, and why."""

    model_config = ConfigDict(frozen=True)

    claim: str
    reason: str
    """E.g. ``"not grounded in the reference: 1 of 4 terms occur in it"`` or ``"duplicate of claim 2"``."""


class ClaimRecallEvidence(Evidence):
    """The claims, the verdict on each with its verified quotes, and which retrieved contexts did any supporting."""

    kind: Literal["claim_recall"] = "claim_recall"
    mode: Mode
    """``"claims"`` (decompose, then judge) or ``"single"`` (one call)."""
    language: str
    """Language of the prompts used (``"en"``, ``"zh"``)."""
    model: str
    """The LLM's model name."""
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    """Step → version of the prompt used."""
    claims: list[ClaimVerdict] = Field(default_factory=list)
    """One entry per claim: the decomposition's claims in the order given, then coverage claims."""
    contexts_used: list[int] = Field(default_factory=list)
    """0-based indices of the retrieved contexts that support at least one claim, ascending."""
    context_utilisation: float | None = None
    """``len(contexts_used) / len(retrieved_contexts)``; None when nothing was retrieved."""
    unverified_policy: UnverifiedPolicy = "unsupported"
    """How unverified verdicts were counted."""
    stated: int = 0
    """Claims written word for word in a passage, supported by code without asking the judge."""
    verified: int = 0
    """Verdicts whose quotes were all found in the cited contexts and whose sentences passed every check."""
    corrected: int = 0
    """Verdicts verified after a quote was moved to the context it comes from."""
    unverified: int = 0
    """"Supported" verdicts whose quotes did not check out (after one re-ask)."""
    contested: int = 0
    """"Unsupported" verdicts kept after a re-ask although a passage sentence holds all the claim's terms."""
    refuted: int = 0
    """Verdicts that passed the checks but were not confirmed by the confirming model."""
    confirmed: int = 0
    """Verdicts the confirming model confirmed."""
    confirm_model: str | None = None
    """The confirming model's name; None when confirmation was off."""
    failed_checks: dict[str, int] = Field(default_factory=dict)
    """Check → how many verdicts failed it (``"number"``, ``"polarity"``, ``"subject"``, ``"contested"``,
    ``"refuted"`` …; see ``ClaimVerdict.check``)."""
    coverage_claims: int = 0
    """Sentences of the reference that no claim covered, added as claims of their own."""
    dropped_claims: int = 0
    """Claims of the decomposition left out of the score (listed in ``dropped``)."""
    dropped: list[DroppedClaim] = Field(default_factory=list)
    """The claims left out and why: not grounded in the reference, or duplicates."""
    reasks: int = 0
    """Follow-up requests made because of coverage or verification problems (schema repairs not included)."""
    claims_given: bool = False
    """True when the claims are the sample's ``reference_claims``: judged as given, no decomposition call."""
    judging: JudgingMode = "together"
    """``"together"``: each judgement showed every context at once; ``"per_context"``: one context per
    request, a claim supported when any context supports it."""
    votes: int = 1
    """Judgements per claim."""
    agreement: float | None = None
    """With ``votes`` > 1: the share of claims whose judgements were unanimous; None with one vote."""
    judgement_values: list[float] = Field(default_factory=list)
    """The score each judgement alone would have given (supported claims by that judgement / claims), in
    judgement order, so the spread of a repeated judgement is visible; [] when there were no claims."""

    @property
    def unstable_claims(self) -> list[ClaimVerdict]:
        """The claims whose judgements disagreed."""
        return [c for c in self.claims if not c.unanimous]

    def missing_items(self) -> list[str]:
        return [f"claim {c.claim!r}" for c in self.claims if not c.supported]

    def labelled_items(self) -> list[ClaimVerdict]:
        return list(self.claims)

    def judged_items(self) -> list[str] | None:
        return [c.claim for c in self.claims]

    def judged_fields(self) -> tuple[str, ...]:
        """The retrieved passages, and the claims judged: the sample's ``reference_claims`` when they were given,
        else the reference they were drawn from."""
        return ("retrieved_contexts", "reference_claims" if self.claims_given else "reference")

    def counts(self) -> dict[str, int]:
        return {
            "claims": len(self.claims),
            "supported": sum(c.supported for c in self.claims),
            "stated": self.stated,
            "verified": self.verified,
            "corrected": self.corrected,
            "unverified": self.unverified,
            "contested": self.contested,
            **({"refuted": self.refuted, "confirmed": self.confirmed} if self.confirm_model is not None else {}),
            "coverage_claims": self.coverage_claims,
            "dropped_claims": self.dropped_claims,
            **({"unstable_claims": len(self.unstable_claims)} if self.votes > 1 else {}),
        }

    # How it shows (see Evidence); the rendering module imports this one, so it is imported on first use.

    @classmethod
    def counts_text(cls, counts: Mapping[str, int]) -> str:
        from ._render import counts_text

        return counts_text(counts)

    def to_html(self, passages: Passages) -> str:
        from ._render import claims_html

        data = self.model_dump(mode="json")
        data.pop("kind")
        return claims_html(data, passages) or fields_html(data)

    def note_inputs(self, notes: InputNotes, metric: str, prefix: str) -> None:
        from ._render import note_claims

        note_claims(notes, self.model_dump(mode="json"), metric, prefix)

    @classmethod
    def legend_html(cls) -> str:
        from ._render import levels_legend

        return levels_legend()
