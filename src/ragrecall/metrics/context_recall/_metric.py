"""LLM context recall: how many of the reference's claims the retrieved contexts support, every "supported"
backed by quotes that ragrecall found in the contexts.

``mode="claims"`` (default): decompose the reference into claims (:mod:`._decompose`, with the coverage check
of :mod:`._coverage`), then judge them against the numbered contexts (:mod:`._judge`, with the quote check of
:mod:`._verify`). ``mode="single"``: claims and verdicts in one call (:mod:`._single`), checked the same way.

``value = supported claims / claims``. Contexts are shown to the LLM numbered from 1; the evidence reports
0-based indices into ``retrieved_contexts``, like every other ragrecall evidence record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...errors import ConfigurationError, NoClaimsError, UnverifiedVerdictError
from ...llm._ask import spent_before
from ...llm._prompts import PromptTemplate
from ...llm._protocol import LLM
from ...results import MetricResult
from ...schema import Sample
from ..base import Metric
from ._claims import Claim, Outcome
from ._coverage import states_facts
from ._decompose import decompose
from ._evidence import ClaimRecallEvidence, ClaimVerdict, Mode, UnverifiedPolicy
from ._judge import Judged, Judging, judge_claims
from ._prompting import LANGUAGES, Prompts, language_of
from ._single import single_call
from ._verify import Contexts

__all__ = ["ContextRecall", "LLMContextRecall"]

_MODE_STEPS: dict[str, tuple[str, ...]] = {
    "claims": ("decompose", "cover", "judge", "recheck"),
    "single": ("single", "single_fix", "judge", "recheck"),
}
_POLICIES = ("unsupported", "supported", "fail")


@dataclass(frozen=True)
class ContextRecall(Metric):
    """Share of the reference's claims that the retrieved contexts support, judged by an LLM and checked.

    Needs ``reference`` and ``retrieved_contexts``. A blank reference is unscorable and an empty retrieval
    scores 0, both without an LLM call.

    No claims, no score, and never a silent one: a reference that ends with no claim is *unscorable* only when
    it states no checkable fact by the coverage rules (:func:`._coverage.states_facts`: it is made only of
    layout, such as headings, citation marks, links, step labels and lead-ins ending in a colon, and of
    sentences with no content word, number or negation). A reference that states facts always ends with claims
    or fails: with ``coverage``, sentences no claim covers become claims; without, an empty claim list is an
    invalid reply, asked again within ``max_repairs``, then a :class:`~ragrecall.errors.NoClaimsError`.

    Every "supported" verdict quotes the contexts; ragrecall locates each quote (exactly after normalising
    case, width, whitespace and punctuation, else by fuzzy alignment at ``quote_threshold`` or above), moves a
    quote cited to the wrong context to the right one, and requires every number of the claim in a located
    passage. A verdict that fails is put back to the judge once, then counted by ``unverified``. With
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
        prompts: step (``"decompose"``, ``"judge"``, ``"single"``, ``"cover"``, ``"recheck"``,
            ``"single_fix"``) → prompt text, path or :class:`~ragrecall.llm.PromptTemplate`, replacing the
            shipped prompt for every language.
        name: the name results carry; default ``context_recall`` followed by the settings that differ from
            their defaults, e.g. ``context_recall(mode=single,quote_threshold=0.8)``.

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
    prompts: Mapping[str, str | Path | PromptTemplate] | None = field(default=None, compare=False)
    name: str = ""
    _prompts: Prompts = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("reference", "retrieved_contexts")
    metric_name: ClassVar[str] = "context_recall"
    # How many claims share a request and how often a reply is asked again change the cost, not what is measured.
    unnamed_settings: ClassVar[frozenset[str]] = frozenset({"claims_per_call", "max_repairs"})

    def __post_init__(self) -> None:
        if self.llm is not None and not isinstance(self.llm, LLM):
            raise ConfigurationError(
                f"llm must implement ragrecall.llm.LLM (model_name and agenerate), got {type(self.llm).__name__}"
            )
        if self.mode not in ("claims", "single"):
            raise ConfigurationError(f"mode must be 'claims' or 'single', got {self.mode!r}")
        if self.language != "auto" and self.language not in LANGUAGES:
            raise ConfigurationError(f"language must be 'auto' or one of {', '.join(LANGUAGES)}, got {self.language!r}")
        for name in ("claims_per_call", "max_repairs"):
            value = getattr(self, name)
            low = 1 if name == "claims_per_call" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigurationError(f"{name} must be an integer >= {low}, got {value!r}")
        t = self.quote_threshold
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 < t <= 1.0:
            raise ConfigurationError(f"quote_threshold must be a number in (0, 1], got {t!r}")
        if self.unverified not in _POLICIES:
            raise ConfigurationError(
                f"unverified must be one of {', '.join(map(repr, _POLICIES))}, got {self.unverified!r}"
            )
        if not isinstance(self.coverage, bool):
            raise ConfigurationError(f"coverage must be True or False, got {self.coverage!r}")
        object.__setattr__(self, "_prompts", Prompts.load(self.prompts))
        self._set_name(self.name)

    def check_ready(self) -> None:
        if self.llm is None:
            raise ConfigurationError(
                f"{self.name} needs an LLM: pass llm= to the metric, or to evaluate() to give it to every LLM "
                "metric that has none"
            )

    @property
    def judge(self) -> LLM:
        """The LLM; :class:`~ragrecall.errors.ConfigurationError` when there is none."""
        self.check_ready()
        assert self.llm is not None
        return self.llm

    def settings(self) -> dict[str, Any]:
        llm_settings = getattr(self.llm, "settings", None)
        return {
            "model": self.llm.model_name if self.llm is not None else None,
            # Sampling parameters, output mode, judge thresholds: what makes two runs of one model differ.
            "llm": llm_settings() if callable(llm_settings) else {},
            "mode": self.mode,
            "language": self.language,
            "claims_per_call": self.claims_per_call,
            "max_repairs": self.max_repairs,
            "quote_threshold": self.quote_threshold,
            "unverified": self.unverified,
            "coverage": self.coverage,
            "prompt_versions": self._prompts.versions(),
        }

    def language_of(self, reference: str) -> str:
        """The prompt language used for ``reference`` under this metric's ``language`` setting."""
        return language_of(reference, self.language)

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        reference = sample.reference or ""
        contexts = list(sample.retrieved_contexts or [])
        if not reference.strip():
            return MetricResult.unscorable(self.name, "reference is empty: nothing to recall", sample_id=sample.id)
        language = self.language_of(reference)
        base: dict[str, Any] = {
            "mode": self.mode,
            "language": language,
            "model": self.judge.model_name,
            "prompt_versions": {s: self._prompts.get(s, language).version for s in _MODE_STEPS[self.mode]},
            "unverified_policy": self.unverified,
        }
        if not any(c.strip() for c in contexts):  # nothing, or only blank text, was retrieved
            return MetricResult.scored(self.name, 0.0, ClaimRecallEvidence(**base), sample_id=sample.id)
        outcome = await self._run(reference, Contexts(contexts), language)
        verdicts = [self._verdict(c, j) for c, j in zip(outcome.claims, outcome.judged, strict=True)]
        unverified = [v for v in verdicts if v.verification == "unverified"]
        if unverified and self.unverified == "fail":
            error = UnverifiedVerdictError(
                f"{len(unverified)} supported verdict(s) did not check out against the contexts: "
                + "; ".join(f"claim {v.claim!r}: {v.problem}" for v in unverified)
            )
            error.usage = outcome.usage
            raise error
        used = sorted({i for v in verdicts for i in v.supporting_contexts})
        evidence = ClaimRecallEvidence(
            **base,
            claims=verdicts,
            contexts_used=used,
            context_utilisation=len(used) / len(contexts),
            verified=sum(v.verification == "verified" for v in verdicts),
            corrected=sum(v.verification == "corrected" for v in verdicts),
            unverified=len(unverified),
            coverage_claims=sum(v.origin == "coverage" for v in verdicts),
            dropped_claims=len(outcome.dropped),
            dropped=outcome.dropped,
            reasks=outcome.reasks,
        )
        if not verdicts:
            if states_facts(reference):  # the steps above never leave a reference with facts without claims
                raise NoClaimsError(
                    "the reference has text but no claims were obtained after every repair",
                    attempts=None,
                    usage=outcome.usage,
                )
            reason = "the reference states no checkable fact"
            return MetricResult.unscorable(self.name, reason, evidence, sample_id=sample.id, usage=outcome.usage)
        value = sum(v.supported for v in verdicts) / len(verdicts)
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id, usage=outcome.usage)

    async def _run(self, reference: str, contexts: Contexts, language: str) -> Outcome:
        judge = self.judge
        setup = Judging(judge, self._prompts, language, self.claims_per_call, self.max_repairs, self.quote_threshold)
        if self.mode == "single":
            return await single_call(setup, reference, contexts, coverage=self.coverage)
        dec = await decompose(
            self.judge, self._prompts, language, reference, max_repairs=self.max_repairs, coverage=self.coverage
        )
        if not dec.claims:
            return Outcome([], [], dec.dropped, dec.usage, dec.reasks)
        with spent_before(dec.usage):
            judged, usage, reasks = await judge_claims(setup, [c.text for c in dec.claims], contexts)
        return Outcome(dec.claims, judged, dec.dropped, dec.usage + usage, dec.reasks + reasks)

    def _verdict(self, claim: Claim, judged: Judged) -> ClaimVerdict:
        checked = judged.checked
        counted = checked.verification in ("verified", "corrected") or (
            checked.verification == "unverified" and self.unverified == "supported"
        )
        return ClaimVerdict(
            claim=claim.text,
            supported=counted,
            supporting_contexts=sorted({q.context for q in checked.quotes}) if counted else [],
            reason=judged.reason,
            support=checked.quotes,
            verification=checked.verification,
            problem=checked.problem,
            origin=claim.origin,
        )


LLMContextRecall = ContextRecall
"""Ragas spelling of :class:`ContextRecall`."""
