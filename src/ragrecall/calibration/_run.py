"""``calibrate``: run a metric over labelled samples and measure how far its judge agrees with the labels."""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Iterable

from .._files import csv_field_limit
from .._sync import run_sync
from ..dataset import Dataset, open_text, text_lines
from ..errors import ConfigurationError, MissingFieldError
from ..evaluation import DatasetLike, EvaluationResult, aevaluate
from ..metrics.base import Metric
from ..metrics.context_recall import ClaimVerdict
from ..results import MetricResult
from ..schema import Sample, describe_record
from ..usage import Usage
from ._corrected import LabelledScore, labelled_score, one_label_each
from ._figures import claim_figures, claim_intervals, confusion_cells, score_figures, score_intervals
from ._result import (
    CalibrationResult,
    ClaimDisagreement,
    Confusion,
    Interval,
    LevelAgreement,
    NotCompared,
    ScoreDisagreement,
)

__all__ = ["acalibrate", "calibrate", "calibration_of"]

Cells = tuple[int, int, int, int]


def calibrate(
    metric: Metric,
    samples: DatasetLike,
    *,
    max_concurrency: int = 16,
    show_progress: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    n_resamples: int = 2000,
    seed: int = 0,
    score_tolerance: float = 0.2,
) -> CalibrationResult:
    """Run ``metric`` over labelled samples and measure its agreement with the labels.

    ``samples`` is anything :func:`ragrecall.evaluate` takes (a Dataset, a list of Samples or dicts, a
    JSONL/CSV path). Each sample carries ``reference_claims`` with ``claim_labels`` (one true/false per claim:
    does the retrieved context support it, by a person's judgement), or a ``human_score`` in [0, 1], or both.
    The metric runs through :func:`ragrecall.evaluate` (same concurrency, progress and ``checkpoint``); claim
    labels pair with the verdicts of :class:`~ragrecall.ContextRecall` on the given claims (in order), human
    scores with the metric's value (any metric).

    Reports accuracy, Cohen's kappa, precision/recall/F1 of "supported" and the confusion table for claim
    labels; Spearman, Kendall tau-b, mean absolute error and bias for scores; each with a percentile bootstrap
    interval (``n_resamples`` resamples of samples, seeded by ``seed``; see :class:`CalibrationResult`). Samples
    the metric failed on or found unscorable are listed in ``not_compared`` and counted, never dropped
    silently. Every claim whose verdict differs from its label is listed with the judge's reason and quotes;
    every sample whose value is off its human score by more than ``score_tolerance`` is listed too.

    Needs the ``calibrate`` extra (scipy, scikit-learn).

    Raises:
        ImportError: scipy or scikit-learn is missing, naming the extra (before any request).
        MissingFieldError: a sample has neither ``claim_labels`` nor ``human_score`` ("missing labels
            field"), naming the sample (or the file's line).
        InvalidSampleError: a sample is invalid, e.g. its label count does not match its claims.
        InputError: two rows label the same sample and content differently (the one rule for repeated labels,
            :func:`ragrecall.calibration.one_label_each`: identical repeats count once, conflicts are refused).
        ConfigurationError: bad arguments.
    """
    return run_sync(
        acalibrate(
            metric,
            samples,
            max_concurrency=max_concurrency,
            show_progress=show_progress,
            checkpoint=checkpoint,
            n_resamples=n_resamples,
            seed=seed,
            score_tolerance=score_tolerance,
        )
    )


async def acalibrate(
    metric: Metric,
    samples: DatasetLike,
    *,
    max_concurrency: int = 16,
    show_progress: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    n_resamples: int = 2000,
    seed: int = 0,
    score_tolerance: float = 0.2,
) -> CalibrationResult:
    """Asynchronous :func:`calibrate`."""
    from ._figures import _libraries

    _libraries()  # a missing extra is said before anything is spent
    if not isinstance(metric, Metric):
        raise ConfigurationError(f"calibrate takes one Metric, got {type(metric).__name__}")
    _check_args(n_resamples, seed, score_tolerance)
    dataset = labelled_dataset(samples)
    run = await aevaluate(
        dataset, [metric], max_concurrency=max_concurrency, show_progress=show_progress, checkpoint=checkpoint
    )
    result = calibration_of(run, metric.name, n_resamples=n_resamples, seed=seed, score_tolerance=score_tolerance)
    llm = getattr(metric, "llm", None)
    model = result.model or getattr(llm, "model_name", None)  # also when every sample failed
    out = result.model_copy(update={"settings": metric.settings(), "model": model})
    out._evaluation = run
    return out


def labelled_dataset(samples: DatasetLike) -> Dataset:
    """The samples, validated, each with labels.

    Raises:
        MissingFieldError: the first sample with neither ``claim_labels`` nor ``human_score``, named by its
            line when ``samples`` is a file, else by its index (and id).
    """
    if isinstance(samples, Dataset):
        dataset = samples
    elif isinstance(samples, (str, os.PathLike)):
        dataset = Dataset.load(samples)
    elif isinstance(samples, Iterable):
        dataset = Dataset(samples)
    else:
        raise ConfigurationError(f"expected samples, a Dataset or a file path, got {type(samples).__name__}")
    labelled: list[LabelledScore] = []
    for index, sample in enumerate(dataset):
        if sample.claim_labels is None and sample.human_score is None:
            if isinstance(samples, (str, os.PathLike)):
                where = f"line {_record_line(samples, index)} of {os.fspath(samples)}"
            else:
                where = f"sample {index}"
            raise MissingFieldError(
                "missing labels field: expected claim_labels (one true/false per reference_claims) or human_score "
                "(a number in [0, 1])",
                where=describe_record(where, {"id": sample.id}),
            )
        label = labelled_score(index, sample)
        assert label is not None  # it has labels
        labelled.append(label)
    kept = {label.index for label in one_label_each(labelled)}
    if len(kept) == len(dataset):
        return dataset
    return Dataset([sample for index, sample in enumerate(dataset) if index in kept])


def calibration_of(
    run: EvaluationResult,
    metric: str,
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    score_tolerance: float = 0.2,
) -> CalibrationResult:
    """The calibration figures of ``metric`` in a finished run whose rows carry their labelled samples (as
    :func:`ragrecall.evaluate` and ``EvaluationResult.from_jsonl`` give them): no request is made."""
    _check_args(n_resamples, seed, score_tolerance)
    results = run.results(metric)
    per_sample: list[Cells] = []
    human: list[bool] = []
    judge: list[bool] = []
    scores: list[tuple[int, str | int | None, float, float]] = []
    not_compared: list[NotCompared] = []
    claim_disagreements: list[ClaimDisagreement] = []
    levels: list[tuple[str, bool, bool]] = []
    # One label per sample and content (identical repeats once, conflicts refused), as everywhere labels are read.
    labelled = one_label_each(
        [
            label
            for row, result in zip(run.rows, results, strict=True)
            if row.sample is not None and (label := labelled_score(row.index, row.sample, result.value)) is not None
        ]
    )
    kept = {label.index for label in labelled}
    for row, result in zip(run.rows, results, strict=True):
        sample = row.sample
        if sample is None or row.index not in kept:
            continue  # no labels to compare (an unlabelled row of a run given directly), or a repeat
        if result.status != "scored":
            not_compared.append(_left_out(row.index, row.sample_id, result))
            continue
        if sample.claim_labels is not None:
            verdicts = _verdicts(result, sample)
            if verdicts is None:
                message = (
                    f"its claim labels were not compared: {result.metric} gave no verdicts on its reference_claims"
                )
                left = NotCompared(index=row.index, sample_id=row.sample_id, status="no verdicts", message=message)
                not_compared.append(left)
            else:
                cells = _compare_claims(row.index, row.sample_id, sample.claim_labels, verdicts, claim_disagreements)
                per_sample.append(cells)
                human.extend(sample.claim_labels)
                judge.extend(v.supported for v in verdicts)
                levels.extend(
                    (str(v.verification), label, v.supported)
                    for label, v in zip(sample.claim_labels, verdicts, strict=True)
                )
        if sample.human_score is not None and result.value is not None:
            scores.append((row.index, row.sample_id, sample.human_score, result.value))

    figures: dict[str, float | None] = {**claim_figures(human, judge)}
    intervals = claim_intervals(per_sample, n_resamples=n_resamples, seed=seed) if per_sample else {}
    tp, fp, fn, tn = confusion_cells(human, judge)
    h_scores, m_scores = [s[2] for s in scores], [s[3] for s in scores]
    figures.update(score_figures(h_scores, m_scores))
    if scores:
        intervals.update(score_intervals(h_scores, m_scores, n_resamples=n_resamples, seed=seed))
    models = (m for r in results if isinstance(m := getattr(r.evidence, "model", None), str))
    return CalibrationResult(
        metric=metric,
        model=next(models, None),
        samples=len(run),
        claim_samples=len(per_sample),
        labelled_claims=len(human),
        score_samples=len(scores),
        **figures,
        confusion=Confusion(tp=tp, fp=fp, fn=fn, tn=tn),
        human_supported=sum(human) / len(human) if human else None,
        judge_supported=sum(judge) / len(judge) if judge else None,
        bias=math.fsum(m - h for h, m in zip(h_scores, m_scores, strict=True)) / len(scores) if scores else None,
        intervals={
            name: Interval(low=ci[0], high=ci[1], resamples=used)
            for name, (ci, used) in intervals.items()
            if ci is not None
        },
        n_resamples=n_resamples,
        seed=seed,
        failed=sum(n.status == "failed" for n in not_compared),
        unscorable=sum(n.status == "unscorable" for n in not_compared),
        not_compared=not_compared,
        score_tolerance=score_tolerance,
        claim_disagreements=claim_disagreements,
        score_disagreements=_score_disagreements(scores, score_tolerance),
        usage=Usage.total([r.usage for r in results]),
        labelled=labelled,
        by_level=_by_level(levels),
    )


def _by_level(levels: list[tuple[str, bool, bool]]) -> list[LevelAgreement]:
    """Agreement per verification level (the level taken as a plain string), most claims first."""
    groups: dict[str, list[tuple[bool, bool]]] = {}
    for level, label, said in levels:
        groups.setdefault(level, []).append((label, said))
    out = [
        LevelAgreement(
            level=level,
            claims=len(pairs),
            agreed=sum(label == said for label, said in pairs),
            judged_supported=sum(said for _, said in pairs),
            labelled_supported=sum(label and said for label, said in pairs),
        )
        for level, pairs in groups.items()
    ]
    return sorted(out, key=lambda item: (-item.claims, item.level))


def _verdicts(result: MetricResult, sample: Sample) -> list[ClaimVerdict] | None:
    """The labelled items of the evidence (claims, nuggets: :meth:`~ragrecall.results.Evidence.labelled_items`)
    when they are the sample's own and pair one to one with its labels, or None."""
    evidence = result.evidence
    items = evidence.labelled_items() if evidence is not None else None
    if not items or not all(item.origin == "given" for item in items):
        return None
    if len(items) != len(sample.claim_labels or []):
        return None
    return list(items)


def _compare_claims(
    index: int,
    sample_id: str | int | None,
    labels: list[bool],
    verdicts: list[ClaimVerdict],
    disagreements: list[ClaimDisagreement],
) -> Cells:
    tp = fp = fn = tn = 0
    for i, (label, verdict) in enumerate(zip(labels, verdicts, strict=True)):
        said = verdict.supported
        tp += label and said
        fp += (not label) and said
        fn += label and not said
        tn += not (label or said)
        if label != said:
            disagreements.append(
                ClaimDisagreement(
                    index=index,
                    sample_id=sample_id,
                    claim_index=i,
                    claim=verdict.claim,
                    human=label,
                    judge=said,
                    reason=verdict.reason,
                    quotes=verdict.support,
                    verification=verdict.verification,
                    votes=verdict.votes if len(verdict.votes) > 1 else [],
                )
            )
    return tp, fp, fn, tn


def _left_out(index: int, sample_id: str | int | None, result: MetricResult) -> NotCompared:
    if result.failure is not None:
        message = f"{result.failure.type}: {' '.join(result.failure.message.split())}"
        return NotCompared(index=index, sample_id=sample_id, status="failed", message=message)
    return NotCompared(index=index, sample_id=sample_id, status="unscorable", message=result.reason or "unscorable")


def _score_disagreements(
    scores: list[tuple[int, str | int | None, float, float]], tolerance: float
) -> list[ScoreDisagreement]:
    off = [
        ScoreDisagreement(index=i, sample_id=sid, human=h, metric=m, difference=m - h)
        for i, sid, h, m in scores
        if abs(m - h) > tolerance + 1e-12  # a difference equal to the tolerance is within it, despite float noise
    ]
    return sorted(off, key=lambda d: (-abs(d.difference), d.index))


def _check_args(n_resamples: int, seed: int, score_tolerance: float) -> None:
    for name, value, low in (("n_resamples", n_resamples, 100), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigurationError(f"{name} must be an integer >= {low}, got {value!r}")
    t = score_tolerance
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 <= t < 1.0:
        raise ConfigurationError(f"score_tolerance must be a number in [0, 1), got {t!r}")


def _record_line(path: str | os.PathLike[str], index: int) -> int | None:
    """The line where record ``index`` (0-based) of a JSONL or CSV file starts, as the loaders count them."""
    name, handle = open_text(path, newline="")
    try:
        if name.lower().removesuffix(".gz").endswith(".csv"):
            with csv_field_limit():
                reader = csv.reader(text_lines(handle, name))
                next(reader, None)  # the header
                start = 2
                for i, _ in enumerate(reader):
                    if i == index:
                        return start
                    start = reader.line_num + 1
            return None
        records = (n for n, line in enumerate(text_lines(handle, name), start=1) if line.strip())
        return next((n for i, n in enumerate(records) if i == index), None)
    finally:
        handle.close()
