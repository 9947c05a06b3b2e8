"""trec_eval's official measures over a small run, in plain Python, for ``ragrecall trec`` on small files.

Importing numpy takes longer than evaluating a run of a few thousand lines, so the command evaluates such
runs here and imports nothing heavier than the standard library. What is computed is what the numpy path
computes, operation for operation (each value is trec_eval's loop: sums added in rank order, the same
divisions), and the tests hold the two paths' output equal byte for byte.

Only the plainest files are taken: ASCII, one judgment or result per line with trec_eval's fields,
numbers written plainly, no document listed twice for a query, no comment lines. Anything else, including
every fault, returns None and the numpy path reads the files, so that the rules of what is read and the
error messages live in one place (:mod:`._plain_read`).
"""

from __future__ import annotations

import bisect
import math
import os
import re
import struct

from ._aggregate import aggregate

__all__ = ["OFFICIAL", "SMALL_RUN_BYTES", "OfficialColumn", "SmallRun", "evaluate_small"]

SMALL_RUN_BYTES = 1 << 20
"""Runs and judgments up to this size each are evaluated here; larger ones with numpy, which is then faster."""

_P_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = tuple(i / 10 for i in range(11))  # each as float("0.i") reads it
_KINDS = {"gm_map": "gmean", "num_q": "sum", "num_ret": "sum", "num_rel": "sum", "num_rel_ret": "sum"}
"""How each summary is taken from the per-query values (the others are means), as the measures' AGGREGATE."""
# The names of ragrecall._files.MAX_LINE_ENV and ._source.THREADS_ENV, not imported: they load gzip,
# zlib, threading...
_MAX_LINE_ENV = "RAGRECALL_MAX_LINE"
_THREADS_ENV = "RAGRECALL_THREADS"

OfficialColumn = tuple[str, bool, bool, bool]
"""A printed row: its label, whether it has per-query rows, whether it has a summary row, whether it is a count."""

OFFICIAL: tuple[OfficialColumn, ...] = (
    ("runid", False, True, False),
    ("num_q", False, True, True),
    ("num_ret", True, True, True),
    ("num_rel", True, True, True),
    ("num_rel_ret", True, True, True),
    ("map", True, True, False),
    ("gm_map", False, True, False),
    ("Rprec", True, True, False),
    ("bpref", True, True, False),
    ("recip_rank", True, True, False),
    *((f"iprec_at_recall_{r:.2f}", True, True, False) for r in _RECALLS),
    *((f"P_{k}", True, True, False) for k in _P_CUTOFFS),
)
"""trec_eval's default measures (``-m official``), in its order."""
_IPREC_LABELS = tuple(label for label, _, _, _ in OFFICIAL if label.startswith("iprec_at_recall_"))
_P_LABELS = tuple(label for label, _, _, _ in OFFICIAL if label.startswith("P_"))

_SCORE = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GRADE = re.compile(rb"[+-]?[0-9]{1,18}")  # fits in 64 bits


class SmallRun:
    """The evaluated queries (sorted), each official measure's per-query values and summary, and the run ID."""

    __slots__ = ("means", "query_ids", "runid", "values")

    def __init__(
        self, query_ids: list[str], values: dict[str, list[float]], means: dict[str, float], runid: str
    ) -> None:
        self.query_ids = query_ids
        self.values = values
        self.means = means
        self.runid = runid


def evaluate_small(
    qrels_path: str,
    run_path: str,
    *,
    rel: int = 1,
    depth: int | None = None,
    judged_only: bool = False,
    missing_zero: bool = False,
    all_relevant: bool = False,
) -> SmallRun | None:
    """The official measures of the run at ``run_path`` against the judgments at ``qrels_path``, as
    ``ragrecall trec`` computes them; None when either file is not a small, plain one (see the module
    docstring) or no query of the run is judged, and the numpy path must read them.

    ``rel`` is the lowest relevant grade (``-l``), ``depth`` the documents kept per query (``-M``),
    ``judged_only`` drops the documents not judged, or judged below 0, after the depth (``-J``);
    ``missing_zero`` evaluates every judged query, those absent from the run with nothing retrieved, and
    ``all_relevant`` makes the summary ``num_rel`` count every judgment with grade >= 1 of every evaluated
    query, whatever the other options (trec_eval 10's ``-c``, which sets both).
    """
    if _environment_for_numpy():
        return None
    try:
        if os.path.getsize(run_path) > SMALL_RUN_BYTES or os.path.getsize(qrels_path) > SMALL_RUN_BYTES:
            return None
        with open(qrels_path, "rb") as handle:
            qrels_data = handle.read()
        with open(run_path, "rb") as handle:
            run_data = handle.read()
    except OSError:
        return None
    judged = _judgments(qrels_data)
    read = _results(run_data) if judged is not None else None
    if judged is None or read is None:
        return None
    results, runid = read
    if not any(q in judged for q in results):
        return None
    query_ids = sorted(judged if missing_zero else (q for q in results if q in judged))
    values: dict[str, list[float]] = {label: [] for label, _, _, _ in OFFICIAL[1:]}
    for q in query_ids:
        ranking = [doc for _, doc in results.get(q, ())][:depth]
        grades = judged[q]
        if judged_only:
            ranking = [doc for doc in ranking if grades.get(doc, -1) >= 0]
        for label, value in _measure(ranking, grades, rel):
            values[label].append(value)
    means = {label: aggregate(_KINDS.get(label, "mean"), column) for label, column in values.items()}
    if all_relevant:
        means["num_rel"] = float(sum(1 for q in query_ids for g in judged[q].values() if g >= 1))
    return SmallRun([q.decode("ascii") for q in query_ids], values, means, runid)


def _environment_for_numpy() -> bool:
    """Whether the environment sets what only the numpy path applies: a line limit (``$RAGRECALL_MAX_LINE``),
    or a thread count that is not plainly a whole number >= 1 (``$RAGRECALL_THREADS``, which it refuses)."""
    threads = os.environ.get(_THREADS_ENV, "").strip()
    return bool(os.environ.get(_MAX_LINE_ENV, "").strip()) or (
        bool(threads) and not (threads.isascii() and threads.isdigit() and int(threads) >= 1)
    )


def _plain(data: bytes) -> list[list[bytes]] | None:
    """Each non-blank line's fields, or None when the data is not plain ASCII (or holds a vertical tab, a form
    feed or a NUL, which the numpy path's reader treats apart)."""
    if not data.isascii() or b"\x0b" in data or b"\x0c" in data or b"\x00" in data:
        return None
    return [fields for fields in map(bytes.split, data.splitlines()) if fields]


def _judgments(data: bytes) -> dict[bytes, dict[bytes, int]] | None:
    """Query → document → grade; None unless every line is ``query iteration document grade``, each document
    judged once per query, with no comment line."""
    lines = _plain(data)
    if lines is None:
        return None
    judged: dict[bytes, dict[bytes, int]] = {}
    for fields in lines:
        if len(fields) != 4 or fields[0].startswith(b"#") or not _GRADE.fullmatch(fields[3]):
            return None
        docs = judged.setdefault(fields[0], {})
        if fields[2] in docs:
            return None
        docs[fields[2]] = int(fields[3])
    return judged


def _results(data: bytes) -> tuple[dict[bytes, list[tuple[float, bytes]]], str] | None:
    """Query → its documents in trec_eval's order (score descending as 32-bit floats, then document ID
    descending), and the run ID of the first line; None unless every line has at least the six fields, a
    plain number as score, and no document twice for a query."""
    lines = _plain(data)
    if not lines:
        return None
    rows: dict[bytes, dict[bytes, float]] = {}
    for fields in lines:
        if len(fields) < 6 or not _SCORE.fullmatch(fields[4]):  # words after the sixth field are read past
            return None
        docs = rows.setdefault(fields[0], {})
        if fields[2] in docs:
            return None
        docs[fields[2]] = float(fields[4])
    ranked: dict[bytes, list[tuple[float, bytes]]] = {}
    for query, docs in rows.items():
        # As float32, as trec_eval stores them. Native packing casts as C does, ±inf past float32's range as numpy
        # casts; a Python whose struct refused such a value would leave the file to the numpy path.
        try:
            scores = struct.unpack(f"{len(docs)}f", struct.pack(f"{len(docs)}f", *docs.values()))
        except OverflowError:
            return None
        ranked[query] = sorted(zip(scores, docs, strict=True), reverse=True)
    return ranked, lines[0][5].decode("ascii")


def _measure(ranking: list[bytes], grades: dict[bytes, int], rel: int) -> list[tuple[str, float]]:
    """One query's official values, each computed as trec_eval computes it (relevant: grade >= ``rel``;
    judged non-relevant: grade in [0, rel); documents not judged, or judged below 0, neither)."""
    num_rel = num_nonrel = 0
    for g in grades.values():
        if g >= rel:
            num_rel += 1
        elif g >= 0:
            num_nonrel += 1
    found = nonrel_above = in_r = 0
    ap = bpref = rr = 0.0
    precisions: list[float] = []  # at each relevant document retrieved
    positions: list[int] = []
    for position, doc in enumerate(ranking, start=1):
        grade = grades.get(doc)
        if grade is None:
            continue
        if grade >= rel:
            found += 1
            ap += found / position
            rr = rr or 1.0 / position
            in_r += position <= num_rel
            bpref += 1.0 if not nonrel_above else 1.0 - min(nonrel_above, num_rel) / min(num_nonrel, num_rel)
            precisions.append(found / position)
            positions.append(position)
        elif grade >= 0:
            nonrel_above += 1
    best = precisions[:]
    for i in range(len(best) - 2, -1, -1):
        best[i] = max(best[i], best[i + 1])
    out = [
        ("num_ret", float(len(ranking))),
        ("num_rel", float(num_rel)),
        ("num_rel_ret", float(found)),
        ("map", ap / num_rel if num_rel else 0.0),
        ("gm_map", ap / num_rel if num_rel else 0.0),
        ("Rprec", in_r / num_rel if num_rel else 0.0),
        ("bpref", bpref / num_rel if num_rel else 0.0),
        ("recip_rank", rr),
    ]
    for label, recall in zip(_IPREC_LABELS, _RECALLS, strict=True):
        wanted = math.floor(recall * num_rel + 0.5)
        reached = found >= max(wanted, 1)  # 0 when fewer relevant documents were retrieved than the level asks
        out.append((label, best[max(wanted, 1) - 1] if reached else 0.0))
    out.extend((label, bisect.bisect_right(positions, k) / k) for label, k in zip(_P_LABELS, _P_CUTOFFS, strict=True))
    out.append(("num_q", 1.0))
    return out
