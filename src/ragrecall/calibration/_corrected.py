"""The corrected mean of a run from people's labels: which label stands for each sample, how the labelled samples
pair with the run's (by id), and the refusals when they cannot."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from ..errors import InputError, InvalidSampleError
from ..results import Evidence
from ..schema import Sample, describe_record
from ._ppi import CorrectedMean, ppi_mean

if TYPE_CHECKING:
    from ..evaluation import EvaluationResult

__all__ = [
    "INCLUSION_KEY",
    "MIN_LABELLED",
    "LabelledScore",
    "corrected_mean",
    "labelled_pairs",
    "labelled_score",
    "labelled_scores",
]

MIN_LABELLED = 10
"""Fewest labelled samples paired with a run for a corrected mean: below it the normal interval means little."""

INCLUSION_KEY = "inclusion_probability"
"""The ``metadata`` key of a labelled sample holding the probability with which it was drawn for labelling."""


class LabelledScore(BaseModel):
    """What people said about one labelled sample, as a number the metric's value can be compared with."""

    model_config = ConfigDict(frozen=True)

    index: int
    """0-based position of the sample in the labels file."""
    sample_id: str | int | None
    claims: float | None = None
    """Share of the sample's claims labelled supported (its context recall by people's labels), or None."""
    claim_labels: list[bool] | None = None
    """The labels themselves, one per labelled item (a metric turns them into its own value:
    :meth:`~ragrecall.results.Evidence.value_of_labels`)."""
    human_score: float | None = None
    """The sample's ``human_score``, or None."""
    judge: float | None = None
    """The judge's value on the labelled sample in the calibration run (None when not scored there)."""
    inclusion_probability: float | None = None
    """The probability with which the sample was drawn for labelling (``ragrecall label --strategy
    stratified`` records it); None for a uniform random draw."""

    def human(self, claim_metric: bool) -> float | None:
        """The label standing for the sample: the share of claims labelled supported for a metric that judges
        claims (when claims were labelled), else ``human_score``."""
        if claim_metric and self.claims is not None:
            return self.claims
        return self.human_score


def labelled_score(index: int, sample: Sample, judge: float | None = None) -> LabelledScore | None:
    """The labels of ``sample`` as a :class:`LabelledScore`; None when it carries none (an empty claim list
    is labelled, with no share of claims).

    Raises:
        InvalidSampleError: its ``metadata.inclusion_probability`` is not a number in (0, 1].
    """
    labels = sample.claim_labels
    claims = sum(labels) / len(labels) if labels else None
    if labels is None and sample.human_score is None:
        return None
    probability = sample.metadata.get(INCLUSION_KEY)
    if probability is not None and not (
        isinstance(probability, (int, float)) and not isinstance(probability, bool) and 0.0 < probability <= 1.0
    ):
        raise InvalidSampleError(
            f"expected a number in (0, 1], got {probability!r}",
            where=describe_record(f"sample {index}", {"id": sample.id}),
            field=f"metadata.{INCLUSION_KEY}",
        )
    return LabelledScore(
        index=index,
        sample_id=sample.id,
        claims=claims,
        claim_labels=list(labels) if labels is not None else None,
        human_score=sample.human_score,
        judge=judge,
        inclusion_probability=float(probability) if probability is not None else None,
    )


def _said(label: LabelledScore, evidence: Evidence | None) -> float | None:
    """The value people's labels give the sample under this metric: its items' labels turned into the metric's
    value by its evidence (the share supported for claim recall, the chosen score for nugget recall), else
    ``human_score``."""
    if evidence is not None and evidence.labelled_items() is not None and label.claim_labels:
        value = evidence.value_of_labels(label.claim_labels)
        if value is not None:
            return value
    return label.human_score


def labelled_scores(samples: Iterable[Sample]) -> list[LabelledScore]:
    """Every labelled sample of ``samples`` as a :class:`LabelledScore`, in order."""
    return [s for i, sample in enumerate(samples) if (s := labelled_score(i, sample)) is not None]


def corrected_mean(
    result: EvaluationResult,
    metric: str,
    labelled: Sequence[LabelledScore],
    *,
    confidence: float = 0.95,
) -> CorrectedMean:
    """The mean of ``metric`` over ``result`` corrected by the labels (:func:`ragrecall.ppi_mean`).

    Labelled samples pair with the run's samples by id (compared as strings); the judge's value on each is the
    run's, so both parts come from the same judge in the same settings. The run's other scored samples are the
    unlabelled part. Labels carrying inclusion probabilities are weighted by their inverse.

    Raises:
        InputError: the run has no such metric; no labelled id is among the run's samples; fewer than
            :data:`MIN_LABELLED` labelled samples pair with scored samples of the run; inclusion probabilities
            given for some labelled samples only.
    """
    unlabelled, judge, human, weights = labelled_pairs(result, metric, labelled)
    out = ppi_mean(unlabelled, judge, human, confidence=confidence, weights=weights)
    not_paired = len(labelled) - len(human)
    return out.model_copy(update={"metric": metric, "not_paired": not_paired})


def labelled_pairs(
    result: EvaluationResult, metric: str, labelled: Sequence[LabelledScore]
) -> tuple[list[float], list[float], list[float], list[float] | None]:
    """``(unlabelled, labelled_judge, labelled_human, weights)`` for :func:`ragrecall.ppi_mean`: the labelled
    samples paired with the run's scored samples by id, and the run's other scored values.

    Raises:
        InputError: as :func:`corrected_mean` says.
    """
    if metric not in result.metrics:
        raise InputError(
            f"the results have no metric {metric!r}; they have {', '.join(result.metrics) or 'none'}; "
            "pass metric= one of them"
        )
    if not labelled:
        raise InputError("no labelled sample: the labels carry neither claim_labels nor human_score")
    by_id = {str(s.sample_id): s for s in labelled if s.sample_id is not None}
    rows = {str(row.sample_id): row for row in result.rows if row.sample_id is not None}
    if not any(key in rows for key in by_id):
        first = next(iter(by_id), None)
        raise InputError(
            f"none of the {len(labelled)} labelled samples has an id among the {len(result)} samples of the "
            f"results (first labelled id: {first!r}); label samples of this run, paired by id"
        )
    judge: list[float] = []
    human: list[float] = []
    unlabelled: list[float] = []
    probabilities: list[float | None] = []
    for row in result.rows:
        scored = row.results[metric]
        label = by_id.get(str(row.sample_id)) if row.sample_id is not None else None
        if scored.value is None:
            continue
        if label is None:
            unlabelled.append(scored.value)
            continue
        said = _said(label, scored.evidence)
        if said is not None:
            judge.append(scored.value)
            human.append(said)
            probabilities.append(label.inclusion_probability)
    if len(human) < MIN_LABELLED:
        raise InputError(
            f"only {len(human)} labelled samples pair with scored samples of {metric}; the corrected mean needs at "
            f"least {MIN_LABELLED}"
        )
    given = [p for p in probabilities if p is not None]
    if given and len(given) != len(probabilities):
        raise InputError(
            f"{INCLUSION_KEY} is given for {len(given)} of {len(probabilities)} labelled samples; give it for all "
            "(labels drawn by strata) or none (a uniform random draw)"
        )
    weights = [1.0 / p for p in given] if given else None
    return unlabelled, judge, human, weights
