"""The corrected mean of a run from people's labels: which label stands for each sample, how the labelled samples
pair with the run's (by id *and* by the content they were labelled on), the one rule for repeated labels, and
the refusals when they cannot pair."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from ..errors import InputError, InvalidSampleError
from ..results import Evidence
from ..schema import Sample, describe_record
from ._fingerprint import content_fingerprint, field_words, first_difference, label_fingerprint
from ._ppi import MIN_LABELLED, CorrectedMean, LeftOut, ppi_mean

if TYPE_CHECKING:
    from ..evaluation import EvaluationResult, SampleRow

__all__ = [
    "INCLUSION_KEY",
    "MIN_LABELLED",
    "LabelledScore",
    "corrected_mean",
    "labelled_pairs",
    "labelled_score",
    "labelled_scores",
    "one_label_each",
]

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
    fingerprint: dict[str, str] = Field(default_factory=dict)
    """What the person saw: field name → digest of its content (``retrieved_contexts``, ``reference`` ...), as
    the labelling page recorded it or as the row's own texts give it. The label applies to a run's sample only
    when the run judged the same content (:func:`corrected_mean`)."""
    labelled_claims: list[str] = Field(default_factory=list)
    """The claims the person labelled (the row's ``reference_claims`` when it has ``claim_labels``): a label
    whose passages are the run's pairs with it when these are among the claims the run judged."""
    answers: str = ""
    """A digest of the labels themselves (the claims labelled, their labels, ``human_score``): two rows of one
    sample and content with the same ``answers`` are one label given twice."""

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
    said = json.dumps([sample.reference_claims, labels, sample.human_score], ensure_ascii=False)
    return LabelledScore(
        index=index,
        sample_id=sample.id,
        claims=claims,
        claim_labels=list(labels) if labels is not None else None,
        human_score=sample.human_score,
        judge=judge,
        inclusion_probability=float(probability) if probability is not None else None,
        fingerprint=label_fingerprint(index, sample),
        labelled_claims=list(sample.reference_claims or []) if labels is not None else [],
        answers=hashlib.sha256(said.encode("utf-8")).hexdigest()[:16],
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
    """Every labelled sample of ``samples`` as a :class:`LabelledScore`, in order, with repeats folded by the one
    rule (:func:`one_label_each`).

    Raises:
        InputError: two rows label the same sample and content differently.
    """
    return one_label_each([s for i, sample in enumerate(samples) if (s := labelled_score(i, sample)) is not None])


def one_label_each(labelled: Sequence[LabelledScore]) -> list[LabelledScore]:
    """The one rule for repeated labels, applied by every command and function that reads labels: rows with the
    same id *and* the same content (:attr:`LabelledScore.fingerprint`: every field both rows record is equal)
    label one sample; when they say the same
    (:attr:`LabelledScore.answers`) they count once (the first is kept), when they differ they are refused.
    Rows of one id labelled on different content (the passages of two systems) are different labels and are
    all kept: each pairs with the run that judged its content.

    Raises:
        InputError: in one line, naming the id and both rows (counted from 1 in the labels), when two rows
            label the same sample and content differently.
    """
    kept: dict[str, list[LabelledScore]] = defaultdict(list)
    out: list[LabelledScore] = []
    for label in labelled:
        if label.sample_id is None:
            out.append(label)
            continue
        earlier = kept[str(label.sample_id)]
        seen = next((other for other in earlier if _same_content(other, label)), None)
        if seen is None:
            earlier.append(label)
            out.append(label)
        elif seen.answers != label.answers:
            raise _conflict(seen, label)
    return out


def _same_content(a: LabelledScore, b: LabelledScore) -> bool:
    """True when two labels of one id were made on the same content: every field both record is equal (a row
    written by the labelling page records the run's fields, one written elsewhere the texts it holds)."""
    shared = a.fingerprint.keys() & b.fingerprint.keys()
    return all(a.fingerprint[field] == b.fingerprint[field] for field in shared)


def _conflict(a: LabelledScore, b: LabelledScore) -> InputError:
    return InputError(
        f"conflicting labels for sample id {a.sample_id!r}: rows {a.index + 1} and {b.index + 1} of the labels "
        "label the same passages and claims differently; ragrecall keeps one label per sample and content "
        "(identical repeats count once): keep one of the rows, or give the raters' mean as human_score"
    )


def corrected_mean(
    result: EvaluationResult,
    metric: str,
    labelled: Sequence[LabelledScore],
    *,
    confidence: float = 0.95,
) -> CorrectedMean:
    """The mean of ``metric`` over ``result`` corrected by the labels (:func:`ragrecall.ppi_mean`).

    A label pairs with the run's sample of the same id (compared as strings) *and* the same content of the
    fields the metric's verdict rests on (:meth:`ragrecall.results.Evidence.judged_fields`: for claim recall
    the retrieved passages and the reference or given claims): a label made on other passages says nothing
    about this run's verdict. Labels that do not pair are left out, counted by reason in
    :attr:`CorrectedMean.left_out`, and their samples join the unlabelled part. The judge's value on each
    labelled sample is the run's, so both parts come from the same judge in the same settings. Repeated labels
    follow :func:`one_label_each`. Labels carrying inclusion probabilities are weighted by their inverse.

    Raises:
        InputError: the run has no such metric; no labelled id is among the run's samples; two labels of one
            sample and content disagree; fewer than :data:`MIN_LABELLED` labels pair with scored samples (the
            message says why the others were left out); inclusion probabilities given for some labels only.
    """
    unlabelled, judge, human, weights, left = _pairs(result, metric, labelled)
    out = ppi_mean(unlabelled, judge, human, confidence=confidence, weights=weights)
    not_paired = sum(len(item.ids) for item in left)
    return out.model_copy(update={"metric": metric, "not_paired": not_paired, "left_out": left})


def labelled_pairs(
    result: EvaluationResult, metric: str, labelled: Sequence[LabelledScore]
) -> tuple[list[float], list[float], list[float], list[float] | None]:
    """``(unlabelled, labelled_judge, labelled_human, weights)`` for :func:`ragrecall.ppi_mean`: the labels
    paired with the run's scored samples as :func:`corrected_mean` pairs them, and the run's other scored values.

    Raises:
        InputError: as :func:`corrected_mean` says.
    """
    unlabelled, judge, human, weights, _ = _pairs(result, metric, labelled)
    return unlabelled, judge, human, weights


_NOT_IN_RUN = "their ids are not in this run"
_NOT_SCORED = "this run has no value for them (failed or unscorable)"
_NO_TEXT = "this run does not keep their samples' texts to check what was judged"
_NO_LABEL = "they carry no label this metric reads (claim_labels or human_score)"


def _pairs(
    result: EvaluationResult, metric: str, labelled: Sequence[LabelledScore]
) -> tuple[list[float], list[float], list[float], list[float] | None, list[LeftOut]]:
    if metric not in result.metrics:
        raise InputError(
            f"the results have no metric {metric!r}; they have {', '.join(result.metrics) or 'none'}; "
            "pass metric= one of them"
        )
    if not labelled:
        raise InputError("no labelled sample: the labels carry neither claim_labels nor human_score")
    by_id: dict[str, list[LabelledScore]] = defaultdict(list)
    for label in one_label_each(labelled):
        if label.sample_id is not None:
            by_id[str(label.sample_id)].append(label)
    rows = {str(row.sample_id) for row in result.rows if row.sample_id is not None}
    if not any(key in rows for key in by_id):
        first = next(iter(by_id), None)
        raise InputError(
            f"none of the {len(labelled)} labelled samples has an id among the {len(result)} samples of the "
            f"results (first labelled id: {first!r}); label samples of this run, paired by id"
        )
    left: dict[str, list[str]] = defaultdict(list)
    judge: list[float] = []
    human: list[float] = []
    unlabelled: list[float] = []
    probabilities: list[float | None] = []
    for row in result.rows:
        key = str(row.sample_id) if row.sample_id is not None else None
        labels = by_id.pop(key, []) if key is not None else []
        value = row.results[metric].value
        if value is None:
            left[_NOT_SCORED].extend(str(lab.sample_id) for lab in labels)
            continue
        applies, reason = _applicable(row, metric, labels)
        said = _said(applies, row.results[metric].evidence) if applies else None
        if applies is not None and said is None:
            reason = _NO_LABEL
        if reason is not None:
            left[reason].append(str(row.sample_id))
        if applies is None or said is None:
            unlabelled.append(value)  # no label applies to it: the sample is one of the unlabelled
            continue
        judge.append(value)
        human.append(said)
        probabilities.append(applies.inclusion_probability)
    for key, labels in by_id.items():
        left[_NOT_IN_RUN].extend(key for _ in labels)
    out_left = [LeftOut(reason=reason, ids=ids) for reason, ids in left.items() if ids]
    if len(human) < MIN_LABELLED:
        why = "; ".join(item.text() for item in out_left)
        raise InputError(
            f"no corrected mean of {metric}: {len(human)} labelled "
            f"{'sample applies' if len(human) == 1 else 'samples apply'} to this run and it needs at least "
            f"{MIN_LABELLED}" + (f" ({why})" if why else "")
        )
    given = [p for p in probabilities if p is not None]
    if given and len(given) != len(probabilities):
        raise InputError(
            f"{INCLUSION_KEY} is given for {len(given)} of {len(probabilities)} labelled samples; give it for all "
            "(labels drawn by strata) or none (a uniform random draw)"
        )
    weights = [1.0 / p for p in given] if given else None
    return unlabelled, judge, human, weights, out_left


def _same_judgement(
    label: LabelledScore, run: dict[str, str], fields: tuple[str, ...], judged: list[str] | None
) -> bool:
    """True when ``label`` was made on what the run judged: every judged field's content is the same, or the
    retrieved passages are the same and every claim the label labels is one the run's verdict judged (a label
    says "these passages support this claim", whatever reference the claim came from)."""
    differs = first_difference(label.fingerprint, run, fields)
    if differs is None:
        return True
    if judged is None or not label.labelled_claims:
        return False
    retrieved = tuple(f for f in fields if f.startswith("retrieved_"))
    return first_difference(label.fingerprint, run, retrieved) is None and set(label.labelled_claims) <= set(judged)


def _applicable(row: SampleRow, metric: str, labels: list[LabelledScore]) -> tuple[LabelledScore | None, str | None]:
    """The label of ``labels`` made on the content the run judged for ``row`` (repeats folded as
    :func:`one_label_each` folds them), or None and why none applies (None and None when there is no label)."""
    if not labels:
        return None, None
    if row.sample is None:
        return None, _NO_TEXT
    evidence = row.results[metric].evidence
    fields = evidence.judged_fields() if evidence is not None else ("retrieved_contexts", "reference")
    run = content_fingerprint(row.sample, fields)
    judged = evidence.judged_items() if evidence is not None else None
    matching = [lab for lab in labels if _same_judgement(lab, run, fields, judged)]
    if not matching:
        field = first_difference(labels[0].fingerprint, run, fields)
        assert field is not None
        words = field_words(field)
        if field not in labels[0].fingerprint:
            return None, f"their labels do not record the {words} this run judged"
        verb = "differ" if words.endswith("s") else "differs"
        return None, f"their {words} {verb} from this run's"
    for other in matching[1:]:
        if other.answers != matching[0].answers:
            raise _conflict(matching[0], other)
    return matching[0], None
