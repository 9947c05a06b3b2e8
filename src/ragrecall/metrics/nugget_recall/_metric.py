"""Nugget recall of the retrieved set: how many of the sample's nuggets (TREC-style facts, vital or okay) the
retrieved passages support, with nuggetizer's three grades and scores, every label backed by checked quotes.

Nuggets come from ``reference_nuggets``, or from the reference: its claims (claim recall's decomposition),
labelled vital or okay by the judge in one request (``nugget_recall.importance``). They are labelled against
the retrieved passages (:mod:`._judge`, :mod:`._assign`, with the checks of :mod:`._verify`); the value is the
``score`` chosen among the five (:mod:`ragrecall.nuggets`' formulas), the evidence holds all five.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ...errors import ConfigurationError, MissingFieldError, UnverifiedVerdictError
from ...llm import LLM, LLMRequest, PromptTemplate, ask, spent_before
from ...nuggets import SCORES, Score, nugget_scores
from ...results import MetricResult
from ...schema import Sample, describe_record
from ...usage import Usage
from .._quoted_judge import QuotedJudge
from ..base import Metric
from ..context_recall import Contexts, Prompts, decompose, language_of
from ._assign import Assigning
from ._confirm import confirm_nuggets
from ._evidence import Judging, NuggetRecallEvidence, NuggetVerdict, UnverifiedPolicy
from ._judge import Item, Plan, Voted, judge_nuggets
from ._prompting import NuggetPrompts, number_nuggets, query_block
from ._replies import Importances, check_importances

__all__ = ["NuggetRecall"]


@dataclass(frozen=True, init=False)
class NuggetRecall(QuotedJudge, Metric):
    """Nugget recall of the retrieved set, TREC style: each nugget labelled ``support``, ``partial_support`` or
    ``not_support`` by the best passage, every label backed by quotes that ragrecall checks.

    Needs ``retrieved_contexts`` and either ``reference_nuggets`` or ``reference``. An empty nugget list (or a
    blank reference) is unscorable and an empty retrieval labels every nugget ``not_support``, both without an
    LLM call.

    One request (``task="nugget_recall.assign"``) labels all of a sample's nuggets against the numbered
    passages. A ``support`` must quote the passage stating the whole nugget; a ``partial_support`` quotes the
    passage stating its ``part`` (words of the nugget), and nothing in the quoted sentences may contradict the
    rest of the nugget (:mod:`._verify` says exactly what is checked). Quotes are checked by claim recall's code,
    with its levels (stated, verified, corrected, unverified). A label whose quotes fail is asked again once
    (``nugget_recall.recheck``), then counted by ``unverified`` (default: ``not_support``). A nugget written word
    for word in a passage is supported by code (``stated``) without asking.

    Scores (``score=``), with support 1, partial support 0.5 and not_support 0:

    - ``"strict_vital"`` (default; nuggetizer's V_strict): full supports among vital nuggets / vital nuggets;
    - ``"vital"`` (V): (supports + 0.5 partial supports) among vital nuggets / vital nuggets;
    - ``"strict_all"`` (A_strict) and ``"all"`` (A): the same over every nugget;
    - ``"weighted"``: Σ weight × credit / Σ weight, vital nuggets weighing 1 and okay ones 0.5.

    The default is V_strict because the TREC 2024 RAG Track's nugget evaluation leads with it (Pradeep et al.,
    "The Great Nugget Recall", 2025): full support of the vital nuggets is the score it reports first and the
    one its agreement with assessors is read on. A sample with no vital nugget is unscorable for the vital scores
    (never a silent 0), unless ``nuggetizer_compat=True``, which gives 0.0 as nuggetizer does.

    Args:
        llm: any :class:`ragrecall.llm.LLM`; may be left out when :func:`~ragrecall.evaluate` gives one.
        score: which of the five scores is the value (the evidence holds all five).
        nuggetizer_compat: a sample with no vital nugget scores 0.0 on the vital scores, as nuggetizer writes.
        language: ``"auto"`` (Chinese prompts for mostly-Han nuggets), ``"en"`` or ``"zh"``.
        max_repairs: follow-up requests allowed per request (schema repairs and the one recheck).
        quote_threshold: least fuzzy similarity, in (0, 1], at which a quote counts as found (default 0.9).
        unverified: how a label whose quotes did not check out counts: ``"unsupported"`` (as ``not_support``,
            default), ``"supported"`` (as the judge said; still flagged) or ``"fail"`` (the sample fails).
        votes: judgements per nugget (default 1); the label is the lower median of the votes.
        judging: ``"together"`` (every passage in one request) or ``"per_context"`` (one request per passage,
            a nugget's label the best over passages).
        seed: seeds the passage orders of the judgements after the first.
        confirm: None (default), True (the judge's own LLM) or another LLM: every support and partial support
            then goes, with its evidence sentences only, to claim recall's confirming step
            (``task="context_recall.confirm"``, the nugget's text or the partial's part as the claim); a label
            not confirmed becomes ``not_support`` (``"refuted"``).
        prompts: step (``"assign"``, ``"recheck"``, ``"importance"``) → prompt text, path or template.
        name: the name results carry; default ``nugget_recall``.
    """

    llm: LLM | None = None
    score_kind: Score = "strict_vital"
    """The ``score=`` argument (``score`` itself is the sync scoring method every metric has)."""
    nuggetizer_compat: bool = False
    language: str = "auto"
    max_repairs: int = 2
    quote_threshold: float = 0.9
    unverified: UnverifiedPolicy = "unsupported"
    votes: int = 1
    judging: Judging = "together"
    seed: int = 0
    confirm: LLM | bool | None = None
    prompts: Mapping[str, str | Path | PromptTemplate] | None = field(default=None, compare=False)
    name: str = ""
    _prompts: NuggetPrompts = field(init=False, repr=False, compare=False)
    _claim_prompts: Prompts = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("retrieved_contexts",)
    metric_name: ClassVar[str] = "nugget_recall"
    unnamed_settings: ClassVar[frozenset[str]] = frozenset({"max_repairs"})
    setting_aliases: ClassVar[dict[str, str]] = {"score": "score_kind"}
    """Constructor arguments stored under another field (``-m nugget_recall(score=all)`` reads them)."""

    def __init__(
        self,
        llm: LLM | None = None,
        score: Score | None = None,
        *,
        nuggetizer_compat: bool = False,
        language: str = "auto",
        max_repairs: int = 2,
        quote_threshold: float = 0.9,
        unverified: UnverifiedPolicy = "unsupported",
        votes: int = 1,
        judging: Judging = "together",
        seed: int = 0,
        confirm: LLM | bool | None = None,
        prompts: Mapping[str, str | Path | PromptTemplate] | None = None,
        name: str = "",
        score_kind: Score | None = None,
    ) -> None:
        if score is not None and score_kind is not None and score != score_kind:
            raise ConfigurationError(f"score={score!r} and score_kind={score_kind!r} disagree; give score= alone")
        given = {
            "llm": llm,
            "score_kind": score if score is not None else score_kind if score_kind is not None else "strict_vital",
            "nuggetizer_compat": nuggetizer_compat,
            "language": language,
            "max_repairs": max_repairs,
            "quote_threshold": quote_threshold,
            "unverified": unverified,
            "votes": votes,
            "judging": judging,
            "seed": seed,
            "confirm": confirm,
            "prompts": prompts,
            "name": name,
        }
        for key, value in given.items():
            object.__setattr__(self, key, value)
        self.__post_init__()

    def _non_default_settings(self) -> dict[str, Any]:
        out = super()._non_default_settings()
        if "score_kind" in out:
            out = {("score" if k == "score_kind" else k): v for k, v in out.items()}
        return self._with_confirm_name(out)

    def __post_init__(self) -> None:
        self._check_judge_settings()
        if self.score_kind not in SCORES:
            raise ConfigurationError(f"score must be one of {', '.join(SCORES)}, got {self.score_kind!r}")
        for name in ("max_repairs", "votes", "seed"):
            value = getattr(self, name)
            low = 1 if name == "votes" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigurationError(f"{name} must be an integer >= {low}, got {value!r}")
        if not isinstance(self.nuggetizer_compat, bool):
            raise ConfigurationError(f"nuggetizer_compat must be True or False, got {self.nuggetizer_compat!r}")
        object.__setattr__(self, "_prompts", NuggetPrompts.load(self.prompts))
        object.__setattr__(self, "_claim_prompts", Prompts.load(None))
        self._set_name(self.name)

    def settings(self) -> dict[str, Any]:
        return {
            **self._judge_settings(),
            "score": self.score_kind,
            "nuggetizer_compat": self.nuggetizer_compat,
            "language": self.language,
            "max_repairs": self.max_repairs,
            "quote_threshold": self.quote_threshold,
            "unverified": self.unverified,
            "votes": self.votes,
            "judging": self.judging,
            "seed": self.seed,
            "prompt_versions": self._prompts.versions(),
            **({"confirm": self._confirm_setting()} if self.confirm is not None else {}),
        }

    def _check(self, sample: Sample, where: str | None) -> None:
        sample.require("retrieved_contexts", where=where)
        if sample.reference_nuggets is None and sample.reference is None:
            raise MissingFieldError(
                "nugget recall needs the nuggets: give reference_nuggets (a list of {text, importance}) or a "
                "reference to take them from",
                where=describe_record(where, {"id": sample.id}),
                field="reference_nuggets",
            )

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        given = sample.reference_nuggets
        reference = sample.reference or ""
        if given is not None and not given:
            return MetricResult.unscorable(
                self.name, "reference_nuggets is empty: nothing to recall", sample_id=sample.id
            )
        if given is None and not reference.strip():
            return MetricResult.unscorable(self.name, "reference is empty: nothing to recall", sample_id=sample.id)
        language = language_of("\n".join(n.text for n in given) if given else reference, self.language)
        contexts = list(sample.retrieved_contexts or [])
        usage, reasks = Usage(), 0
        if given is not None:
            items = [Item(n.text, n.importance) for n in given]
        else:
            items, usage, reasks = await self._nuggets_of(reference, sample.user_input, language)
        if not items:
            reason = "the reference states no checkable fact"
            return MetricResult.unscorable(self.name, reason, sample_id=sample.id, usage=usage)
        if not any(c.strip() for c in contexts):
            verdicts = [
                NuggetVerdict(
                    text=i.text,
                    importance=i.importance,
                    label="not_support",
                    reason="nothing was retrieved",
                    origin=i.origin,
                    votes=["not_support"] * self.votes,
                )
                for i in items
            ]
            voted = Voted(verdicts, 1.0 if self.votes > 1 else None, Usage(), 0)
        else:
            setup = Assigning(
                self.judge, self._prompts, language, self.max_repairs, self.quote_threshold, sample.user_input
            )
            with spent_before(usage):
                voted = await judge_nuggets(
                    setup, items, Contexts(contexts), Plan(self.votes, self.judging, self.seed, self.unverified)
                )
            usage, reasks = usage + voted.usage, reasks + voted.reasks
            confirmer = self.confirmer
            if confirmer is not None:
                with spent_before(usage):
                    confirmed, spent = await confirm_nuggets(
                        confirmer,
                        self._claim_prompts,
                        language,
                        voted.verdicts,
                        Contexts(contexts),
                        max_repairs=self.max_repairs,
                    )
                voted = Voted(confirmed, voted.agreement, voted.usage, voted.reasks)
                usage += spent
        unverified = [v for v in voted.verdicts if v.verification == "unverified"]
        if unverified and self.unverified == "fail":
            error = UnverifiedVerdictError(
                f"{len(unverified)} label(s) did not check out against the contexts: "
                + "; ".join(f"nugget {v.text!r}: {v.problem}" for v in unverified)
            )
            error.usage = usage
            raise error
        return self._result(sample, voted, given is not None, language, usage, reasks)

    def _result(
        self, sample: Sample, voted: Voted, given: bool, language: str, usage: Usage, reasks: int
    ) -> MetricResult:
        verdicts = voted.verdicts
        scores = nugget_scores([(v.importance, v.label) for v in verdicts], nuggetizer_compat=self.nuggetizer_compat)
        steps = ("assign", "recheck") if given else ("assign", "recheck", "importance")
        versions = {s: self._prompts.get(s, language).version for s in steps}
        if self.confirm is not None:
            versions["confirm"] = self._claim_prompts.get("confirm", language).version
        evidence = NuggetRecallEvidence(
            score=self.score_kind,
            scores=scores,
            nuggetizer_compat=self.nuggetizer_compat,
            nuggets=verdicts,
            nuggets_given=given,
            language=language,
            model=self.judge.model_name,
            prompt_versions=versions,
            judging=self.judging,
            votes=self.votes,
            agreement=voted.agreement,
            unverified_policy=self.unverified,
            contexts_used=sorted({i for v in verdicts for i in v.passage_labels}),
            reasks=reasks,
            confirm_model=self.confirmer.model_name if self.confirmer is not None else None,
        )
        value = scores[self.score_kind]
        if value is None:
            reason = (
                f"no vital nugget: the {self.score_kind} score has nothing to average "
                "(nuggetizer_compat=True gives 0.0, as nuggetizer does)"
            )
            return MetricResult.unscorable(self.name, reason, evidence, sample_id=sample.id, usage=usage)
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id, usage=usage)

    async def _nuggets_of(self, reference: str, query: str | None, language: str) -> tuple[list[Item], Usage, int]:
        """The reference's claims (claim recall's decomposition), each labelled vital or okay in one request."""
        judge = self.judge
        dec = await decompose(
            judge, self._claim_prompts, language, reference, max_repairs=self.max_repairs, coverage=True
        )
        texts = [c.text for c in dec.claims]
        if not texts:
            return [], dec.usage, dec.reasks
        template = self._prompts.get("importance", language)
        request = LLMRequest(
            template.render(query=query_block(query), nuggets=number_nuggets(texts)),
            Importances,
            template.version,
            "nugget_recall.importance",
            {"query": query, "nuggets": texts, "language": language},
        )
        with spent_before(dec.usage):
            reply = await ask(
                judge, request, check=lambda r: check_importances(r, len(texts)), max_repairs=self.max_repairs
            )
        importance = {i.nugget: i.importance for i in reply.parsed.importance}
        items = [Item(text, importance[n], "reference") for n, text in enumerate(texts, start=1)]
        return items, dec.usage + reply.usage, dec.reasks
