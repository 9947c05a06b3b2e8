"""Bulk evaluation of a run against judgments, trec_eval style, vectorised with numpy."""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from ..errors import ConfigurationError, InputError, NothingToEvaluateError
from ._build import Missing, finish, rank_slices
from ._judged import prepare_judged
from ._measure import Measure
from ._parse import parse_measure
from ._ranked import Ranked
from ._scan import scan_run
from ._table import Qrels, Run
from ._vocab import without_arrow
from .trec_io import read_qrels, read_run

__all__ = ["RunEvaluation", "evaluate_run", "rank_run"]

QrelsLike = Qrels | Mapping[Any, Mapping[Any, int]] | str | os.PathLike[str] | IO[Any]
"""Judgments: a :class:`Qrels`, ``{query: {doc: grade}}``, a TREC qrels path (``.gz`` too) or file object."""
RunLike = Run | Mapping[Any, Mapping[Any, float]] | str | os.PathLike[str] | IO[Any]
"""A run: a :class:`Run`, ``{query: {doc: score}}``, a TREC run path (``.gz`` too) or file object."""


@dataclass(frozen=True, eq=False)
class RunEvaluation:
    """The outcome of :func:`evaluate_run`: means always, per-query values when asked for."""

    measures: tuple[Measure, ...]
    """The measures, in the order given."""
    query_ids: tuple[str, ...]
    """The evaluated queries, sorted."""
    means: dict[str, float]
    """Measure string (``str(measure)``) → value over the evaluated queries: the mean, or what the measure's
    ``AGGREGATE`` says (a sum for counts such as ``NumRet``, a geometric mean for ``GMAP``)."""
    per_query: dict[str, dict[str, float]] | None
    """``{query_id: {measure: value}}`` when ``per_query=True``, else None."""
    missing: Missing
    """How judged queries absent from the run were counted."""
    n_missing: int
    """Judged queries absent from the run (counted as 0 with ``missing="zero"``, skipped otherwise)."""
    values: dict[str, NDArray[np.float64]] = field(repr=False)
    """Measure string → per-query values aligned with ``query_ids``."""

    def __getitem__(self, measure: str | Measure) -> float:
        """The mean of ``measure`` (a string or a Measure)."""
        return self.means[str(parse_measure(measure))]


def evaluate_run(
    qrels: QrelsLike,
    run: RunLike,
    measures: Iterable[str | Measure] | str | Measure,
    *,
    per_query: bool = False,
    missing: Missing = "skip",
    expected_positions: Mapping[str, Mapping[str, int]] | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    threads: int | None = None,
) -> RunEvaluation:
    """Evaluate ``run`` against ``qrels`` with trec_eval's semantics.

    Per query, the run is ordered by score descending (compared as float32), ties broken by document ID
    descending byte-wise; the rank column of a file is never read. Documents absent from the judgments are
    not relevant. Means are over the queries that are both judged and run (``missing="skip"``, trec_eval's
    default), or over every judged query with the absent ones scoring 0 (``missing="zero"``, trec_eval's
    ``-c``). Queries run but not judged are ignored. A query judged with no relevant document is evaluated
    and scores 0 on every measure.

    A run given as a path is read and evaluated block by block when pyarrow is installed and each query's
    lines are together (the usual layout): worker threads parse the blocks and this thread ranks them, keeping
    only the judged documents found and the depth of each query, so memory stays small whatever the size of
    the file. Other runs, and files this path cannot take, are read whole first
    (:func:`~ragrecall.ranking.read_run`); the results are the same.

    Args:
        qrels: judgments (see :data:`QrelsLike`).
        run: the run (see :data:`RunLike`).
        measures: measure strings or :class:`Measure` objects (``"nDCG@10"``, ``AP``, ``Recall@100``).
        per_query: also return ``{query: {measure: value}}``.
        missing: ``"skip"`` or ``"zero"``, see above.
        expected_positions: for ExtRR, ``{query: {doc: maximum expected position}}``; documents without an
            entry use the grade rule (see :class:`~ragrecall.ranking.measures.extrr.ExtendedReciprocalRank`).
        depth: look at the first ``depth`` documents of each query only (trec_eval's ``-M``).
        judged_only: take every document absent from the judgments (or judged with a negative grade) out of
            the run before measuring, the others moving up (trec_eval's ``-J``); applied after ``depth``.
        threads: most threads that parse one file (default: ``$RAGRECALL_THREADS``, else one per core up to
            4). With more than one, the judgments are read (by their own threads) while the run's first blocks
            are parsed: for that moment the two files' threads run side by side.

    Raises:
        ConfigurationError: a measure string cannot be read, or ``missing`` is not "skip" or "zero".
        FileFormatError: a file has a malformed line (with its path and line number).
        NothingToEvaluateError: no query of the run is in the judgments (whatever ``missing`` says: a run
            that answers none of the judged queries is the wrong run or the wrong judgments, not a score of 0).
        InputError: a document is listed twice for one query, or a score is NaN.
    """
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    parsed = tuple(dict.fromkeys(parse_measure(m) for m in measures))
    if not parsed:
        raise ConfigurationError("give at least one measure, e.g. ['nDCG@10', 'AP']")
    ranked, n_missing = rank_run(
        qrels,
        run,
        missing=missing,
        expected_positions=expected_positions,
        depth=depth,
        judged_only=judged_only,
        threads=threads,
    )
    values = {str(m): m.compute(ranked) for m in parsed}
    means = {str(m): m.aggregate(values[str(m)]) for m in parsed}
    table = None
    if per_query:
        columns = {name: v.tolist() for name, v in values.items()}
        table = {q: {name: col[i] for name, col in columns.items()} for i, q in enumerate(ranked.query_ids)}
    return RunEvaluation(parsed, ranked.query_ids, means, table, missing, n_missing, values)


def rank_run(
    qrels: QrelsLike,
    run: RunLike,
    *,
    missing: Missing = "skip",
    expected_positions: Mapping[str, Mapping[str, int]] | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    threads: int | None = None,
) -> tuple[Ranked, int]:
    """``run`` joined with ``qrels`` and ordered, as :func:`evaluate_run` measures it, and the number of judged
    queries absent from the run. The arguments and errors are those of :func:`evaluate_run`."""
    if missing not in ("skip", "zero"):
        raise ConfigurationError(f"missing must be 'skip' or 'zero', got {missing!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ConfigurationError(f"depth must be a positive integer, got {depth!r}")
    with without_arrow() if _small(qrels) and _small(run) else nullcontext():
        # Read once: while the first blocks of a run file are parsed (see scan_run), or else here.
        judgments = functools.cache(lambda: prepare_judged(_as_qrels(qrels, threads)))
        want_docs = bool(expected_positions)
        parts = (
            scan_run(run, judgments, hit_docs=want_docs, threads=threads)
            if isinstance(run, (str, os.PathLike))
            else None
        )
        judged = judgments()
        if parts is None:
            parts = rank_slices(judged, _as_run(run, threads), hit_docs=want_docs)
    n_missing = len(set(judged.query_ids).difference(*(p.query_ids for p in parts)))
    if n_missing == len(judged.query_ids):
        raise NothingToEvaluateError(
            f"no query of the run ({_label(run, 'run')}) is in the judgments ({_label(qrels, 'qrels')}): "
            f"there is nothing to evaluate ({len(judged.query_ids)} judged queries)"
        )
    ranked = finish(judged, parts, missing=missing, expected_positions=expected_positions)
    if depth is not None:
        ranked = ranked.truncated(depth)
    if judged_only:
        ranked = ranked.judged_only()
    return ranked, n_missing


_SMALL_BYTES = 1 << 18
"""Inputs up to this size (each) are read and ranked without pyarrow: importing it costs more than it saves."""


def _small(source: object) -> bool:
    """Whether ``source`` is a file (or bytes read from standard input) of at most :data:`_SMALL_BYTES`."""
    if isinstance(source, io.BytesIO):
        return source.getbuffer().nbytes <= _SMALL_BYTES
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        return False
    try:
        return os.path.getsize(source) <= _SMALL_BYTES
    except OSError:
        return False


def _label(source: QrelsLike | RunLike, what: str) -> str:
    """The file name of a path or a file object, else ``what`` given in memory."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None) or getattr(source, "source", None)
    return name if isinstance(name, str) else f"{what} given in memory"


def _as_qrels(qrels: QrelsLike, threads: int | None) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, Mapping):
        return Qrels.from_dict(qrels)
    if isinstance(qrels, (str, os.PathLike)) or hasattr(qrels, "read"):
        return read_qrels(qrels, threads=threads)
    raise InputError(f"qrels: expected a Qrels, a mapping, a path or a file object, got {type(qrels).__name__}")


def _as_run(run: RunLike, threads: int | None) -> Run:
    if isinstance(run, Run):
        return run
    if isinstance(run, Mapping):
        return Run.from_dict(run)
    if isinstance(run, (str, os.PathLike)) or hasattr(run, "read"):
        return read_run(run, threads=threads)
    raise InputError(f"run: expected a Run, a mapping, a path or a file object, got {type(run).__name__}")
