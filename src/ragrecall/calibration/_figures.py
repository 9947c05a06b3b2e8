"""The agreement figures of a judge against people's labels, and their bootstrap intervals.

Point estimates come from scikit-learn (accuracy, Cohen's kappa, precision/recall/F1, the confusion matrix,
mean absolute error) and SciPy (Spearman's rho, Kendall's tau-b), so every figure is the one those libraries
print. The intervals resample *samples*, not claims: the claims of one sample share its contexts (and, with
an LLM judge, one request), so they are not independent, and resampling them one by one would give intervals
that are too narrow. Each resample draws as many labelled samples as there are, with replacement, and
recomputes the figure over all the claims (or scores) of the drawn samples.

Why the resamples are not computed by the library calls themselves: scikit-learn validates its inputs on every
call, so kappa, precision/recall/F1 and accuracy per resample took 14.6 s for 2,000 resamples of 30 samples on
the 2-core Xeon, against 12 ms vectorised (``benchmarks/calibration_bench.py``, which checks both agree). A
resample of claims only changes the four cells of the confusion table, so the figures of all resamples are
computed at once from their tables (:func:`table_figures`); a test checks that on any table these agree with
scikit-learn. The score figures use SciPy's vectorised ``rankdata``, ``pearsonr`` and ``kendalltau`` along an
axis.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._extras import need

__all__ = [
    "CLAIM_FIGURES",
    "SCORE_FIGURES",
    "claim_figures",
    "cluster_interval",
    "score_figures",
    "table_figures",
]

CLAIM_FIGURES = ("accuracy", "kappa", "precision", "recall", "f1")
SCORE_FIGURES = ("spearman", "kendall", "mae")

Interval = tuple[float, float]


def _libraries() -> tuple[Any, Any]:
    """scikit-learn's metrics and SciPy's stats, or a MissingExtraError naming the extra to install."""
    stats = need("scipy.stats", "calibrate", "calibrate")
    metrics = need("sklearn.metrics", "calibrate", "calibrate")
    return metrics, stats


def _finite(value: Any) -> float | None:
    number = float(value)
    return number if np.isfinite(number) else None


def claim_figures(human: Sequence[bool], judge: Sequence[bool]) -> dict[str, float | None]:
    """Accuracy, Cohen's kappa, and precision/recall/F1 of "supported", by scikit-learn; None where undefined
    (no claims; kappa when both columns are one and the same constant; precision when the judge never says
    supported; recall when the labels never do)."""
    if not human:
        return dict.fromkeys(CLAIM_FIGURES)
    metrics, _ = _libraries()
    y_true, y_pred = np.asarray(human, dtype=bool), np.asarray(judge, dtype=bool)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")  # undefined figures come back as NaN, turned into None below
        kappa = metrics.cohen_kappa_score(y_true, y_pred, labels=[False, True])
        precision, recall, f1, _support = metrics.precision_recall_fscore_support(
            y_true, y_pred, average="binary", pos_label=True, zero_division=np.nan
        )
        accuracy = metrics.accuracy_score(y_true, y_pred)
    return {
        "accuracy": _finite(accuracy),
        "kappa": _finite(kappa),
        "precision": _finite(precision),
        "recall": _finite(recall),
        "f1": _finite(f1),
    }


def confusion_cells(human: Sequence[bool], judge: Sequence[bool]) -> tuple[int, int, int, int]:
    """``(tp, fp, fn, tn)`` with "supported" as the positive class, by scikit-learn's ``confusion_matrix``."""
    if not human:
        return 0, 0, 0, 0
    metrics, _ = _libraries()
    (tn, fp), (fn, tp) = metrics.confusion_matrix(human, judge, labels=[False, True]).tolist()
    return int(tp), int(fp), int(fn), int(tn)


def score_figures(human: Sequence[float], values: Sequence[float]) -> dict[str, float | None]:
    """Spearman's rho and Kendall's tau-b (SciPy; None when either column is constant or there are fewer
    than two pairs) and the mean absolute error (scikit-learn; None with no pairs)."""
    if not human:
        return dict.fromkeys(SCORE_FIGURES)
    metrics, stats = _libraries()
    h, v = np.asarray(human, dtype=float), np.asarray(values, dtype=float)
    mae = _finite(metrics.mean_absolute_error(h, v))
    if h.size < 2:
        return {"spearman": None, "kendall": None, "mae": mae}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant column: SciPy warns and returns NaN
        spearman = stats.spearmanr(h, v).statistic
        kendall = stats.kendalltau(h, v).statistic  # tau-b: accounts for ties, which scores have many of
    return {"spearman": _finite(spearman), "kendall": _finite(kendall), "mae": mae}


def table_figures(tables: np.ndarray) -> dict[str, np.ndarray]:
    """The claim figures of many confusion tables at once: ``tables`` has shape (n, 4) holding tp, fp, fn, tn;
    each figure is an array of n values, NaN where undefined (as :func:`claim_figures` returns None)."""
    tp, fp, fn, tn = (tables[:, i].astype(float) for i in range(4))
    total = tp + fp + fn + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = (tp + tn) / total
        # Agreement expected by chance from the two raters' own rates of "supported" and "unsupported".
        chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (total * total)
        return {
            "accuracy": observed,
            "kappa": (observed - chance) / (1.0 - chance),
            "precision": tp / (tp + fp),
            "recall": tp / (tp + fn),
            "f1": 2 * tp / (2 * tp + fp + fn),
        }


def _score_resamples(human: np.ndarray, values: np.ndarray) -> dict[str, np.ndarray]:
    """Spearman, Kendall tau-b, MAE and bias (mean of metric - human) of every row of ``human``/``values``
    (shape: resamples × pairs)."""
    _, stats = _libraries()
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")
        spearman = stats.pearsonr(stats.rankdata(human, axis=1), stats.rankdata(values, axis=1), axis=1).statistic
        kendall = stats.kendalltau(human, values, axis=1).statistic
    difference = values - human
    return {
        "spearman": spearman,
        "kendall": kendall,
        "mae": np.abs(difference).mean(axis=1),
        "bias": difference.mean(axis=1),
    }


def cluster_interval(
    clusters: int,
    figures: Callable[[np.ndarray], dict[str, np.ndarray]],
    *,
    n_resamples: int,
    seed: int,
    confidence: float = 0.95,
) -> dict[str, tuple[Interval | None, int]]:
    """Percentile bootstrap intervals of figures computed over resampled clusters (labelled samples).

    ``figures`` receives the drawn cluster indices, shape (resamples, clusters), and returns each figure's
    value per resample. A resample where a figure is undefined (NaN: e.g. every drawn sample has the same
    human score) is left out of that figure's interval; the count of resamples used is returned with it.
    Fewer than two clusters, or fewer than half of the resamples defined, give no interval.
    """
    if clusters < 2:
        return {}
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, clusters, size=(n_resamples, clusters))
    alpha = (1.0 - confidence) / 2.0
    out: dict[str, tuple[Interval | None, int]] = {}
    for name, values in figures(drawn).items():
        defined = values[np.isfinite(values)]
        if defined.size * 2 < n_resamples:
            out[name] = (None, int(defined.size))
            continue
        low, high = np.quantile(defined, [alpha, 1.0 - alpha])
        out[name] = ((float(low), float(high)), int(defined.size))
    return out


def claim_intervals(
    per_sample: Sequence[tuple[int, int, int, int]], *, n_resamples: int, seed: int
) -> dict[str, tuple[Interval | None, int]]:
    """Bootstrap intervals of the claim figures, resampling samples: ``per_sample`` holds each labelled
    sample's (tp, fp, fn, tn)."""
    cells = np.asarray(per_sample, dtype=np.int64).reshape(-1, 4)
    return cluster_interval(
        len(cells), lambda drawn: table_figures(cells[drawn].sum(axis=1)), n_resamples=n_resamples, seed=seed
    )


def score_intervals(
    human: Sequence[float], values: Sequence[float], *, n_resamples: int, seed: int
) -> dict[str, tuple[Interval | None, int]]:
    """Bootstrap intervals of the score figures, resampling the (human, metric) pairs of samples."""
    h, v = np.asarray(human, dtype=float), np.asarray(values, dtype=float)
    return cluster_interval(
        len(h), lambda drawn: _score_resamples(h[drawn], v[drawn]), n_resamples=n_resamples, seed=seed
    )
