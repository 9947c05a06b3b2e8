"""LLM context recall: how many of the reference's claims the retrieved contexts support, every "supported"
backed by quotes that ragrecall found in the contexts.

``mode="claims"`` (default): decompose the reference into claims (:mod:`._decompose`, with the coverage check
of :mod:`._coverage`), then judge them against the numbered contexts (:mod:`._judge`, with the quote check of
:mod:`._verify`). ``mode="single"``: claims and verdicts in one call (:mod:`._single`), checked the same way.

Claims the sample already has (``reference_claims``) are judged as given, with no decomposition. Each claim
is judged ``votes`` times, all contexts at once or one per request (:mod:`._votes`); its verdict is the
majority.

``value = supported claims / claims``. Contexts are shown to the LLM numbered from 1; the evidence reports
0-based indices into ``retrieved_contexts``, like every other ragrecall evidence record.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...errors import ConfigurationError, NoClaimsError, UnverifiedVerdictError
from ...llm import LLM, PromptTemplate, spent_before
from ...results import MetricResult
from ...schema import Sample
from ...usage import Usage
from .._quoted_judge import QuotedJudge
from ..base import Metric
from ._claims import Claim
from ._confirm_step import confirm_or_fail, keep_judged, kept_judged
from ._coverage import states_facts
from ._decompose import decompose
from ._evidence import ClaimRecallEvidence, ClaimVerdict, DroppedClaim, JudgingMode, Mode, UnverifiedPolicy
from ._judge import Judging
from ._prompting import Prompts, language_of
from ._single import single_call
from ._verify import Contexts
from ._votes import Plan, Voted, claim_verdict, judge_votes

__all__ = ["ContextRecall", "LLMContextRecall"]

_MODE_STEPS: dict[str, tuple[str, ...]] = {
    "claims": ("decompose", "cover", "judge", "recheck"),
    "single": ("single", "single_fix", "judge", "recheck"),
}


@dataclass(frozen=True)
class ContextRecall(QuotedJudge, Metric):
    """Share of the reference's claims that the retrieved contexts support, judged by an LLM and checked.

    Needs ``retrieved_contexts`` and either ``reference`` or ``reference_claims``. A blank reference is
    unscorable and an empty retrieval scores 0, both without an LLM call.

    Claims given with the sample (``reference_claims``, e.g. nuggets written by annotators) are judged exactly
    as given, in their order, with no decomposition call (in either mode); the evidence says so
    (``claims_given``) and marks each claim ``origin="given"``. An empty list is unscorable.

    Repeated judgements (``votes`` > 1) answer "would the score be the same if I ran it again?": the claims
    are decomposed once and judged ``votes`` times, each judgement its own requests and cache entries, the
    first showing the contexts in their original order and each later one in another order drawn from a
    generator seeded with ``seed`` (reproducible; position bias averages out). A claim's verdict is the strict
    majority of its votes; **a tie counts as unsupported** (with an even number of votes, half is not
    enough). The evidence keeps every vote (``ClaimVerdict.votes``), the share of unanimous claims
    (``agreement``) and the score of each judgement alone (``judgement_values``). Judging costs ``votes``
    times as many requests; with temperature 0 and a single context every judgement asks the same question,
    so votes then measure only the endpoint's own nondeterminism.

    No claims, no score, and never a silent one: a reference that ends with no claim is *unscorable* only when
    it states no checkable fact by the coverage rules (:func:`._coverage.states_facts`: it is made only of
    layout, such as headings, citation marks, links, step labels and lead-ins ending in a colon, and of
    sentences with no content word, number or negation). A reference that states facts always ends with claims
    or fails: with ``coverage``, sentences no claim covers become claims; without, an empty claim list is an
    invalid reply, asked again within ``max_repairs``, then a :class:`~ragrecall.errors.NoClaimsError`.

    A claim written word for word in a passage (after normalising case, width, whitespace and punctuation),
    with its numbers and no negation around it, is supported by code (``"stated"``) and never sent to the
    judge. Every "supported" verdict quotes the contexts; ragrecall locates each quote (exactly after
    normalising, else by fuzzy alignment at ``quote_threshold`` or above), moves a quote cited to the wrong
    context to the right one, widens it to the sentence holding it, and checks that sentence against the claim:
    polarity, subject, numbers (digits, words, scale words), units, ranges, several quotes adding up, and the
    predicate (:mod:`._checks`). A verdict that fails is put back to the judge once, naming the rule and not
    where to look, then counted by ``unverified``. An "unsupported" verdict is asked again once when a passage
    sentence holds all the claim's terms and numbers with its polarity; if it stays, it is ``"contested"``.
    With ``confirm``, every supported claim then goes, with its evidence sentences only, to a confirming
    model, and stays supported only when confirmed (else ``"refuted"``); the judge's outcome is kept first
    (checkpoint, cache), and a confirming model that fails after its retries fails the sample with
    :class:`~ragrecall.errors.ConfirmationError` (a rerun asks only it) or, when dead, stops the run. With
    ``coverage``, every sentence of the reference must be covered by a claim and every claim grounded in the
    reference; the judge is asked once to fix gaps and inventions, then uncovered sentences become claims of
    their own and ungrounded claims are dropped.

    Args:
        llm: any :class:`ragrecall.llm.LLM` (the OpenAI adapter, a fake, the offline judge). It may be left out
            when :func:`~ragrecall.evaluate` gives one (``evaluate(..., llm=...)``, as in Ragas); scoring
            without one raises :class:`~ragrecall.errors.ConfigurationError`.
        mode: ``"claims"`` (two steps, default) or ``"single"`` (one call).
        language: ``"auto"`` (Chinese prompts when the reference is mostly Han characters, English
            otherwise), ``"en"`` or ``"zh"``. Claims always come back in the reference's language.
        claims_per_call: most claims judged in one request; more are split into concurrent requests.
        max_repairs: follow-up requests allowed per request: replies that fail their schema, and the one
            follow-up about coverage or unverified quotes. With 0, nothing is asked again.
        quote_threshold: least fuzzy similarity, in (0, 1], at which a quote counts as found (1.0: exact
            matches only, after normalisation). Default 0.9.
        unverified: how a "supported" verdict whose quotes did not check out counts: ``"unsupported"``
            (default), ``"supported"`` (trust the judge; still flagged in the evidence) or ``"fail"`` (the
            sample fails with :class:`~ragrecall.errors.UnverifiedVerdictError`).
        coverage: check that the claims cover the reference and only it (default True).
        votes: judgements per claim (default 1); the verdict is their majority, a tie unsupported.
        judging: ``"together"`` (default: every context in one request) or ``"per_context"`` (one request per
            context, a claim supported when any context supports it: immune to position bias and to contexts
            too long to share a prompt, at ``len(retrieved_contexts)`` times the judging requests; with
            ``mode="claims"`` only).
        seed: seeds the context orders of the judgements after the first (default 0).
        confirm: None (default: no confirmation), True (the judge's own LLM, with the separate ``confirm``
            prompt) or an LLM (another model: a jury of two). One more request per ``claims_per_call``
            supported claims of a sample.
        prompts: step (``"decompose"``, ``"judge"``, ``"single"``, ``"cover"``, ``"recheck"``,
            ``"single_fix"``, ``"confirm"``) → prompt text, path or :class:`~ragrecall.llm.PromptTemplate`,
            replacing the shipped prompt for every language.
        name: the name results carry; default ``context_recall`` (Ragas's column) whatever the settings;
            :meth:`settings_name` adds those that differ, e.g. ``context_recall(mode=single,quote_threshold=0.8)``.

    Raises (from ``ascore``/``score``): :class:`~ragrecall.errors.LLMOutputError` when the replies stay
    invalid after every repair (:class:`~ragrecall.errors.NoClaimsError` when what stayed wrong is an empty
    claim list); :class:`~ragrecall.errors.LLMRequestError` when requests keep failing. Batch
    scoring records either as a failed result with its cause.
    """

    llm: LLM | None = None
    mode: Mode = "claims"
    language: str = "auto"
    claims_per_call: int = 20
    max_repairs: int = 2
    quote_threshold: float = 0.9
    unverified: UnverifiedPolicy = "unsupported"
    coverage: bool = True
    votes: int = 1
    judging: JudgingMode = "together"
    seed: int = 0
    confirm: LLM | bool | None = None
    prompts: Mapping[str, str | Path | PromptTemplate] | None = field(default=None, compare=False)
    name: str = ""
    _prompts: Prompts = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("reference", "retrieved_contexts")
    optional_fields: ClassVar[tuple[str, ...]] = ("reference_claims",)
    metric_name: ClassVar[str] = "context_recall"
    # How many claims share a request and how often a reply is asked again change the cost, not what is measured.
    unnamed_settings: ClassVar[frozenset[str]] = frozenset({"claims_per_call", "max_repairs"})

    def __post_init__(self) -> None:
        self._check_judge_settings()
        if self.mode not in ("claims", "single"):
            raise ConfigurationError(f"mode must be 'claims' or 'single', got {self.mode!r}")
        for name in ("claims_per_call", "max_repairs", "votes", "seed"):
            value = getattr(self, name)
            low = 0 if name in ("max_repairs", "seed") else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigurationError(f"{name} must be an integer >= {low}, got {value!r}")
        if self.judging == "per_context" and self.mode == "single":
            raise ConfigurationError(
                "judging='per_context' needs mode='claims': the one-call mode judges every context at once"
            )
        if not isinstance(self.coverage, bool):
            raise ConfigurationError(f"coverage must be True or False, got {self.coverage!r}")
        object.__setattr__(self, "_prompts", Prompts.load(self.prompts))
        self._set_name(self.name)

    def _non_default_settings(self) -> dict[str, Any]:
        return self._with_confirm_name(super()._non_default_settings())

    def settings(self) -> dict[str, Any]:
        return {
            # Sampling parameters, output mode, judge thresholds: what makes two runs of one model differ.
            **self._judge_settings(),
            "mode": self.mode,
            "language": self.language,
            "claims_per_call": self.claims_per_call,
            "max_repairs": self.max_repairs,
            "quote_threshold": self.quote_threshold,
            "unverified": self.unverified,
            "coverage": self.coverage,
            "prompt_versions": self._prompts.versions(),
            # Only when not the default, so that checkpoints written before these settings existed still resume.
            **({"votes": self.votes, "seed": self.seed} if self.votes != 1 else {}),
            **({"judging": self.judging} if self.judging != "together" else {}),
            **({"confirm": self._confirm_setting()} if self.confirm is not None else {}),
        }

    def language_of(self, reference: str) -> str:
        """The prompt language used for ``reference`` under this metric's ``language`` setting."""
        return language_of(reference, self.language)

    def _check(self, sample: Sample, where: str | None) -> None:
        needed = ("retrieved_contexts",) if sample.reference_claims is not None else self.required_fields
        sample.require(*needed, where=where)

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        reference = sample.reference or ""
        given = sample.reference_claims
        contexts = list(sample.retrieved_contexts or [])
        if given is None and not reference.strip():
            return MetricResult.unscorable(self.name, "reference is empty: nothing to recall", sample_id=sample.id)
        if given is not None and not given:
            return MetricResult.unscorable(
                self.name, "reference_claims is empty: nothing to recall", sample_id=sample.id
            )
        language = self.language_of(reference if given is None or reference.strip() else "\n".join(given))
        steps = ("judge", "recheck") if given is not None else _MODE_STEPS[self.mode]
        steps += ("confirm",) if self.confirm is not None else ()
        base: dict[str, Any] = {
            "mode": self.mode,
            "language": language,
            "model": self.judge.model_name,
            "prompt_versions": {s: self._prompts.get(s, language).version for s in steps},
            "unverified_policy": self.unverified,
            "claims_given": given is not None,
            "judging": self.judging,
            "votes": self.votes,
            "confirm_model": self.confirmer.model_name if self.confirmer is not None else None,
        }
        if not any(c.strip() for c in contexts):  # nothing, or only blank text, was retrieved
            return MetricResult.scored(self.name, 0.0, self._nothing_retrieved(base, given), sample_id=sample.id)
        voted, dropped, usage, reasks = await self._run(reference, given, Contexts(contexts), language)
        verdicts = voted.verdicts
        unverified = [v for v in verdicts if v.verification == "unverified"]
        if unverified and self.unverified == "fail":
            error = UnverifiedVerdictError(
                f"{len(unverified)} supported verdict(s) did not check out against the contexts: "
                + "; ".join(f"claim {v.claim!r}: {v.problem}" for v in unverified)
            )
            error.usage = usage
            raise error
        used = sorted({i for v in verdicts for i in v.supporting_contexts})
        evidence = ClaimRecallEvidence(
            **base,
            claims=verdicts,
            contexts_used=used,
            context_utilisation=len(used) / len(contexts),
            stated=sum(v.verification == "stated" for v in verdicts),
            verified=sum(v.verification == "verified" for v in verdicts),
            corrected=sum(v.verification == "corrected" for v in verdicts),
            unverified=len(unverified),
            contested=sum(v.verification == "contested" for v in verdicts),
            refuted=sum(v.verification == "refuted" for v in verdicts),
            confirmed=sum(v.confirmed is True for v in verdicts),
            failed_checks=dict(Counter(v.check for v in verdicts if v.check is not None)),
            coverage_claims=sum(v.origin == "coverage" for v in verdicts),
            dropped_claims=len(dropped),
            dropped=dropped,
            reasks=reasks,
            agreement=voted.agreement,
            judgement_values=voted.judgement_values,
        )
        if not verdicts:
            if states_facts(reference):  # the steps above never leave a reference with facts without claims
                raise NoClaimsError(
                    "the reference has text but no claims were obtained after every repair", attempts=None, usage=usage
                )
            reason = "the reference states no checkable fact"
            return MetricResult.unscorable(self.name, reason, evidence, sample_id=sample.id, usage=usage)
        value = sum(v.supported for v in verdicts) / len(verdicts)
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id, usage=usage)

    def _nothing_retrieved(self, base: dict[str, Any], given: list[str] | None) -> ClaimRecallEvidence:
        """The evidence of an empty retrieval: given claims are listed, each unsupported (no request is made)."""
        if given is None:
            return ClaimRecallEvidence(**base)
        votes = [False] * self.votes
        claims = [
            ClaimVerdict(
                claim=c,
                supported=False,
                supporting_contexts=[],
                reason="nothing was retrieved",
                origin="given",
                votes=votes,
            )
            for c in given
        ]
        agreement = 1.0 if self.votes > 1 else None
        return ClaimRecallEvidence(**base, claims=claims, agreement=agreement, judgement_values=[0.0] * self.votes)

    async def _run(
        self, reference: str, given: list[str] | None, contexts: Contexts, language: str
    ) -> tuple[Voted, list[DroppedClaim], Usage, int]:
        """:meth:`_judged` (or what an earlier run of this pair kept of it), confirmed if asked (``_confirm_step``)."""
        confirmer = self.confirmer
        kept = kept_judged() if confirmer is not None else None
        if kept is not None:
            voted, dropped, usage, reasks = kept.unpack()
        else:
            voted, dropped, usage, reasks = await self._judged(reference, given, contexts, language)
            if confirmer is not None and voted.verdicts:
                keep_judged(voted, dropped, usage, reasks)  # the judge's paid work outlives the confirmer's failure
        if confirmer is not None and voted.verdicts:
            verdicts, spent = await confirm_or_fail(
                confirmer,
                self._prompts,
                language,
                voted.verdicts,
                contexts,
                claims_per_call=self.claims_per_call,
                max_repairs=self.max_repairs,
                spent=usage,
            )
            voted = dataclasses.replace(voted, verdicts=verdicts)
            usage += spent
        return voted, dropped, usage, reasks

    async def _judged(
        self, reference: str, given: list[str] | None, contexts: Contexts, language: str
    ) -> tuple[Voted, list[DroppedClaim], Usage, int]:
        """The claims (given, decomposed, or from the one call), judged by the plan; what was dropped; what
        everything cost; how many follow-ups were asked."""
        judge = self.judge
        setup = Judging(judge, self._prompts, language, self.claims_per_call, self.max_repairs, self.quote_threshold)
        plan = Plan(self.votes, self.judging, self.seed, self.unverified)
        first: list[ClaimVerdict] | None = None
        if given is not None:
            claims, dropped, usage, reasks = [Claim(c, "given") for c in given], [], Usage(), 0
        elif self.mode == "single":
            out = await single_call(setup, reference, contexts, coverage=self.coverage)
            claims, dropped, usage, reasks = out.claims, out.dropped, out.usage, out.reasks
            first = [claim_verdict(c, j, self.unverified) for c, j in zip(out.claims, out.judged, strict=True)]
        else:
            dec = await decompose(
                judge, self._prompts, language, reference, max_repairs=self.max_repairs, coverage=self.coverage
            )
            claims, dropped, usage, reasks = dec.claims, dec.dropped, dec.usage, dec.reasks
        if not claims:
            return Voted([], [], None, Usage(), 0), dropped, usage, reasks
        with spent_before(usage):
            voted = await judge_votes(setup, claims, contexts, plan, first=first)
        return voted, dropped, usage + voted.usage, reasks + voted.reasks


LLMContextRecall = ContextRecall
"""Ragas spelling of :class:`ContextRecall`."""
