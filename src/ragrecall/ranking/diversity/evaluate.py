"""Evaluate a run against subtopic judgments with ndeval's semantics."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal

from ...errors import ConfigurationError, NothingToEvaluateError
from ._compute import topic_values, walk_ideal
from ._qrels import SubtopicQrels, natural_key, read_subtopic_qrels
from ._run import Order, RankedRun, read_ranked_run
from .measures import NDEVAL_MEASURES, DiversityMeasure, parse_diversity_measure

__all__ = ["DiversityEvaluation", "evaluate_diversity"]

SubtopicQrelsLike = SubtopicQrels | Mapping[Any, Mapping[Any, Mapping[Any, int]]] | str | os.PathLike[str] | IO[Any]
"""Subtopic judgments: a :class:`SubtopicQrels`, ``{query: {subtopic: {doc: grade}}}``, a path or a file."""
RankedRunLike = RankedRun | Mapping[Any, Mapping[Any, float] | Sequence[Any]] | str | os.PathLike[str] | IO[Any]
"""A run: a :class:`RankedRun`, ``{query: {doc: score}}``, ``{query: [doc, ...]}``, a path or a file."""


@dataclass(frozen=True)
class DiversityEvaluation:
    """The outcome of :func:`evaluate_diversity`."""

    measures: tuple[DiversityMeasure, ...]
    query_ids: tuple[str, ...]
    """The evaluated queries (judged and run), numbers in numeric order first, as ndeval orders them."""
    per_query: dict[str, dict[str, float]]
    """``{query: {measure name: value}}``."""
    means: dict[str, float]
    """Measure name → mean over the evaluated queries (over every judged query with ``missing="zero"``)."""
    run_id: str
    n_missing: int
    """Judged queries absent from the run."""

    def __getitem__(self, measure: str | DiversityMeasure) -> float:
        return self.means[str(parse_diversity_measure(measure))]


def evaluate_diversity(
    qrels: SubtopicQrelsLike,
    run: RankedRunLike,
    measures: Iterable[str | DiversityMeasure] | str | DiversityMeasure = NDEVAL_MEASURES,
    *,
    alpha: float = 0.5,
    beta: float = 0.5,
    order: Order = "rank",
    depth: int | None = None,
    missing: Literal["skip", "zero"] = "skip",
) -> DiversityEvaluation:
    """Evaluate ``run`` against subtopic judgments as ndeval does (see :mod:`.measures` for each measure).

    Args:
        qrels: subtopic judgments (``query subtopic doc grade``); a grade >= 1 is relevant to the subtopic.
        run: the run; a file's documents are ordered by its rank column (ndeval's default) or by score.
        measures: measure names or objects; default: ndeval's 21 columns.
        alpha: redundancy intolerance, in [0, 1] (α of α-nDCG, NRBP, ERR-IA).
        beta: patience of NRBP, in [0, 1].
        order: ``"rank"`` (ndeval's default) or ``"score"`` (ndeval ``-traditional``: score descending, ties
            by document ID descending). A run given as ``{query: {doc: score}}`` is ordered by score either way.
        depth: keep only the first ``depth`` documents of each query (ndeval ``-M``).
        missing: ``"skip"`` (mean over queries judged and run, ndeval's default) or ``"zero"`` (over every
            judged query, ndeval ``-c``).

    Raises:
        ConfigurationError: a parameter out of range or an unknown measure.
        FileFormatError: a malformed line, with its file and number.
        InputError: a rank or document repeats within a query.
        NothingToEvaluateError: no query of the run is judged.
    """
    for label, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ConfigurationError(f"{label} must be a number in [0, 1], got {value!r}")
    if order not in ("rank", "score"):
        raise ConfigurationError(f"order must be 'rank' or 'score', got {order!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ConfigurationError(f"depth must be a whole number >= 1, got {depth!r}")
    if missing not in ("skip", "zero"):
        raise ConfigurationError(f"missing must be 'skip' or 'zero', got {missing!r}")
    if isinstance(measures, (str, DiversityMeasure)):
        measures = [measures]
    parsed = tuple(dict.fromkeys(parse_diversity_measure(m) for m in measures))
    if not parsed:
        raise ConfigurationError("give at least one measure, e.g. ['alpha-nDCG@10']")
    judgments = _as_qrels(qrels)
    ranked = _as_run(run)
    common = sorted(set(judgments.topics) & set(ranked.rows), key=natural_key)
    if not common:
        raise NothingToEvaluateError(
            f"no query of the run ({ranked.source or 'given in memory'}) is in the subtopic judgments "
            f"({judgments.source or 'given in memory'}): there is nothing to evaluate"
        )
    per_query: dict[str, dict[str, float]] = {}
    for query in common:
        judged = judgments.topics[query]
        ranking = ranked.ranking(query, order, depth)
        values = topic_values(judged, ranking, walk_ideal(judged, alpha, beta), parsed, alpha, beta)
        per_query[query] = {str(m): v for m, v in values.items()}
    count = len(judgments.topics) if missing == "zero" else len(common)
    means = {str(m): sum(row[str(m)] for row in per_query.values()) / count for m in parsed}
    n_missing = len(set(judgments.topics) - set(ranked.rows))
    return DiversityEvaluation(parsed, tuple(common), per_query, means, ranked.run_id, n_missing)


def _as_qrels(qrels: SubtopicQrelsLike) -> SubtopicQrels:
    if isinstance(qrels, SubtopicQrels):
        return qrels
    if isinstance(qrels, Mapping):
        return SubtopicQrels.from_dict(qrels)
    return read_subtopic_qrels(qrels)


def _as_run(run: RankedRunLike) -> RankedRun:
    if isinstance(run, RankedRun):
        return run
    if isinstance(run, Mapping):
        return RankedRun.from_dict(run)
    return read_ranked_run(run)
