"""``evaluate_run`` on Ray: the run read in parallel, split by query, each query measured by the one-machine code.

Lines go to buckets by a hash of their query ID; every bucket is evaluated by :func:`ragrecall.ranking.rank_run`
and each measure's ``compute`` against the full judgments, exactly as one machine evaluates a run; the driver
puts the queries back in the order one machine gives them (sorted) and aggregates each measure with the
measure's own ``aggregate``, so the means are those one machine computes, bit for bit.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ConfigurationError, NothingToEvaluateError
from ...ranking import Measure, parse_measure, read_qrels
from ...ranking.evaluate import RunEvaluation, rank_run
from ._errors import raised_by_ragrecall

__all__ = ["Measured", "evaluate_run", "measured"]

_BUCKET = "__ragrecall_bucket"


@dataclass(frozen=True)
class Measured:
    """Per-query values of a distributed evaluation, queries sorted as one machine sorts them."""

    query_ids: tuple[str, ...]
    values: dict[str, np.ndarray]
    """Label → per-query values aligned with ``query_ids``."""
    strings: dict[str, list[str]]
    """Label → per-query relevance strings (trec_eval's ``relstring``), for the lengths asked."""
    n_missing: int
    """Judged queries absent from the run."""


def evaluate_run(
    qrels: str | os.PathLike[str] | bytes,
    run: Any,
    measures: Iterable[str | Measure] | str | Measure,
    *,
    per_query: bool = False,
    depth: int | None = None,
    judged_only: bool = False,
    partitions: int | None = None,
) -> RunEvaluation:
    """:func:`ragrecall.ranking.evaluate_run` on a Ray cluster, for runs too large for one machine.

    ``run`` is a TREC run path (plain or ``.gz``, a folder or glob of them, or any URI ``ray.data.read_text``
    reads, such as ``s3://bucket/runs/``), a Parquet path (``.parquet``, or a folder of them, read by
    ``ray.data.read_parquet``) with columns ``query``, ``doc`` and ``score``, or a ``ray.data.Dataset`` with
    those columns. ``qrels`` (judgments are small) is a local path or the file's bytes, read by the driver and
    sent to every task. The lines are split into ``partitions`` buckets by query (default: twice the cluster's
    CPUs); each is evaluated by the one-machine code, so per-query values and means are those of
    :func:`ragrecall.ranking.evaluate_run` and of ``ragrecall trec`` (``--ray`` runs the command this way).

    Judged queries absent from the run are skipped (trec_eval's default); counting them as 0 (``-c``) needs the
    one-machine path.

    Raises:
        ConfigurationError: no measures, or an unreadable measure string.
        NothingToEvaluateError: no query of the run is judged.
        FileFormatError, InputError: as the one-machine path, for a malformed line.
    """
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    parsed = tuple(dict.fromkeys(parse_measure(m) for m in measures))
    if not parsed:
        raise ConfigurationError("give at least one measure, e.g. ['nDCG@10', 'AP']")
    found = measured(
        qrels, run, {str(m): m for m in parsed}, depth=depth, judged_only=judged_only, partitions=partitions
    )
    means = {str(m): m.aggregate(found.values[str(m)]) for m in parsed}
    table = None
    if per_query:
        columns = {name: v.tolist() for name, v in found.values.items()}
        table = {q: {name: col[i] for name, col in columns.items()} for i, q in enumerate(found.query_ids)}
    return RunEvaluation(parsed, found.query_ids, means, table, "skip", found.n_missing, found.values)


def measured(
    qrels: str | os.PathLike[str] | bytes,
    run: Any,
    measures: Mapping[str, Measure],
    *,
    relstrings: Mapping[str, int] | None = None,
    depth: int | None = None,
    judged_only: bool = False,
    partitions: int | None = None,
) -> Measured:
    """Each query's value of every measure (by label), and its relevance strings of the lengths asked (label →
    length), computed on Ray (see :func:`evaluate_run`)."""
    import ray
    from ray.data.context import ShuffleStrategy

    judgments = _bytes(qrels)
    judged = read_qrels(io.BytesIO(judgments)).query_ids()
    lines = _lines(run)
    buckets = partitions or max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    keyed = lines.map_batches(_bucketed, fn_kwargs={"buckets": buckets}, batch_format="pyarrow")
    work = {
        "qrels": ray.put(judgments),
        "measures": dict(measures),
        "relstrings": dict(relstrings or {}),
        "depth": depth,
        "judged_only": judged_only,
    }
    # A few buckets move best by a sort shuffle of tasks: the hash shuffle starts aggregator actors, which cost
    # tens of seconds on a small cluster (measured: 36 s against 0.6 s for trec_eval's test run on 2 CPUs).
    context = keyed.context
    strategy, context.shuffle_strategy = context.shuffle_strategy, ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
    try:
        grouped = keyed.groupby(_BUCKET, num_partitions=buckets)
        parts = grouped.map_groups(_evaluated, fn_kwargs=work, batch_format="pyarrow")
        with raised_by_ragrecall(parts.context):
            tables = [ray.get(ref) for ref in parts.to_arrow_refs()]
    finally:
        context.shuffle_strategy = strategy
    import pyarrow as pa

    table = pa.concat_tables(tables) if tables else None
    if table is None or table.num_rows == 0:
        raise NothingToEvaluateError("no query of the run is in the judgments: check that they belong together")
    queries = table.column("query").to_pylist()
    order = sorted(range(len(queries)), key=queries.__getitem__)
    values = {label: table.column(label).to_numpy()[order] for label in measures}
    strings = {label: [table.column(label)[i].as_py() for i in order] for label in relstrings or {}}
    return Measured(tuple(queries[i] for i in order), values, strings, len(judged) - len(queries))


def _bytes(qrels: str | os.PathLike[str] | bytes) -> bytes:
    if isinstance(qrels, bytes):
        return qrels
    name = os.fspath(qrels)
    with gzip.open(name, "rb") if name.endswith(".gz") else open(name, "rb") as handle:
        return handle.read()


def _lines(run: Any) -> Any:
    """The run as a dataset of TREC lines (column ``text``)."""
    import ray

    if isinstance(run, (str, os.PathLike)):
        name = os.fspath(run)
        local = "://" not in name
        path = os.path.abspath(name) if local else name
        parquet = name.endswith(".parquet") or (local and os.path.isdir(name) and _parquet_folder(name))
        if not parquet:
            # Ray's read_text builds a row per line in Python (measured: 22 s of the 37 s for 5M lines on 2 CPUs);
            # each file's bytes are cut into lines by Arrow instead.
            return ray.data.read_binary_files(path).map_batches(_text_lines, batch_format="pyarrow")
        run = ray.data.read_parquet(path, columns=["query", "doc", "score"])
    return run.map_batches(_as_lines, batch_format="pyarrow")


def _parquet_folder(name: str) -> bool:
    return any(entry.endswith(".parquet") for entry in os.listdir(name))


def _as_lines(batch: Any) -> Any:
    """Rows ``query, doc, score`` as TREC lines, the score written so that it reads back as the same number."""
    import pyarrow as pa

    columns = (batch.column(c).to_pylist() for c in ("query", "doc", "score"))
    text = [f"{q} Q0 {d} 0 {float(s)!r} ray" for q, d, s in zip(*columns, strict=True)]
    return pa.table({"text": pa.array(text, pa.string())})


def _text_lines(batch: Any) -> Any:
    """Files' contents (column ``bytes``) as their lines (column ``text``), cut at each newline by Arrow; the
    empty string after a file's last newline is no line."""
    import pyarrow as pa
    import pyarrow.compute as pc

    pieces = []
    for data in batch.column("bytes").chunks:
        text = data.cast(pa.large_binary()).cast(pa.large_string())  # UTF-8, checked by Arrow
        for i in range(len(text)):
            lines = pc.split_pattern(text.slice(i, 1), "\n").flatten()
            if len(lines) and lines[len(lines) - 1].as_py() == "":
                lines = lines.slice(0, len(lines) - 1)
            pieces.append(lines)
    lines = pa.chunked_array(pieces, pa.large_string()) if pieces else pa.chunked_array([], pa.large_string())
    return pa.table({"text": lines})


def _bucketed(batch: Any, buckets: int) -> Any:
    """Each line with its bucket: a hash of its query ID (its first field), so that a query's lines meet.

    Arrow cuts the query IDs out and each distinct one is hashed once (a run has many lines per query), so that no
    line passes through Python; a blank line's ID is empty, bucket 0."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = batch.column("text").combine_chunks()
    fields = pc.utf8_split_whitespace(pc.utf8_ltrim_whitespace(text), max_splits=1)
    ids = pc.dictionary_encode(pc.list_element(fields, 0))
    hashed = np.array([zlib.crc32(q.encode("utf-8")) % buckets for q in ids.dictionary.to_pylist()], np.int32)
    keys = hashed[ids.indices.to_numpy(zero_copy_only=False)] if len(hashed) else np.zeros(len(text), np.int32)
    return pa.table({"text": text, _BUCKET: pa.array(keys, pa.int32())})


def _evaluated(
    group: Any,
    qrels: Any,
    measures: Mapping[str, Measure],
    relstrings: Mapping[str, int],
    depth: int | None,
    judged_only: bool,
) -> Any:
    """One bucket's queries measured by the one-machine code: a table of ``query`` and one column per label."""
    import pyarrow as pa
    import ray

    from ...ranking.measures.relstring import relstrings as relstring_values

    judgments = ray.get(qrels) if isinstance(qrels, ray.ObjectRef) else qrels
    data = ("\n".join(group.column("text").to_pylist()) + "\n").encode("utf-8")
    try:
        ranked, _ = rank_run(io.BytesIO(judgments), io.BytesIO(data), depth=depth, judged_only=judged_only)
    except NothingToEvaluateError:
        return _empty(measures, relstrings)
    columns: dict[str, Any] = {"query": pa.array(list(ranked.query_ids), pa.string())}
    for label, measure in measures.items():
        columns[label] = pa.array(np.asarray(measure.compute(ranked), dtype=np.float64))
    for label, length in relstrings.items():
        columns[label] = pa.array(relstring_values(ranked, length), pa.string())
    return pa.table(columns)


def _empty(measures: Sequence[str] | Mapping[str, Any], relstrings: Mapping[str, int]) -> Any:
    import pyarrow as pa

    columns: dict[str, Any] = {"query": pa.array([], pa.string())}
    columns.update({label: pa.array([], pa.float64()) for label in measures})
    columns.update({label: pa.array([], pa.string()) for label in relstrings})
    return pa.table(columns)
