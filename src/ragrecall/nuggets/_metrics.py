"""nuggetizer's metrics lines, reproduced: one per assignment record, then the mean over them (``"qid": "all"``).

nuggetizer's rules, exactly: ``support`` counts 1, ``partial_support`` 0.5 (0 in the strict scores), any other
assignment (``not_support``, ``failed``) 0; a record with no vital nugget scores 0.0 on the vital scores (and one
with no nugget 0.0 on all four); the ``all`` line is the plain mean over records, each record once however many
nuggets it has (a retrieval file has a record per passage, so its mean is over passages). One difference: a
nugget with no ``importance`` key reads as vital, as nuggetizer's own readers of nuggets files do, where its
metrics script would stop with a ``KeyError`` (an importance of ``null`` is not vital, in both).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..errors import InputError
from ._scores import Score, nugget_scores

__all__ = ["METRIC_KEYS", "metrics_lines", "nugget_metrics", "record_scores"]

METRIC_KEYS = ("strict_vital_score", "strict_all_score", "vital_score", "all_score")
"""The score keys of a metrics line, in nuggetizer's order."""
_SCORE_OF: dict[str, Score] = {
    "strict_vital_score": "strict_vital",
    "strict_all_score": "strict_all",
    "vital_score": "vital",
    "all_score": "all",
}


def nugget_metrics(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """nuggetizer's metrics of assignment ``records`` (what :func:`~ragrecall.nuggets.read_assignments` reads,
    or nuggetizer's own assignment lines as dicts): ``{"qid", "strict_vital_score", "strict_all_score",
    "vital_score", "all_score"}`` per record, in order, then the means with ``"qid": "all"``.

    Raises:
        InputError: a record is not an object with ``qid`` and a list of ``nuggets``, a nugget has no
            ``assignment`` or a non-text one, or there is no record at all (nothing to average); the message
            names the record (1-based) and the nugget.
    """
    return list(metrics_lines((f"record {i}", r) for i, r in enumerate(records, start=1)))


def metrics_lines(records: Iterable[tuple[str, Any]]) -> Iterator[dict[str, Any]]:
    """:func:`nugget_metrics` one line at a time, holding only the scores (for files of any length);
    ``records`` are ``(where, record)`` pairs, ``where`` naming the record in errors (``"data.jsonl:7"``)."""
    sums: dict[str, list[float]] = {key: [] for key in METRIC_KEYS}
    for where, record in records:
        line = record_scores(record, where)
        for key in METRIC_KEYS:
            sums[key].append(line[key])
        yield line
    if not sums[METRIC_KEYS[0]]:
        raise InputError("no assignment records: nothing to average")
    # statistics.mean is exact (then rounded once), as nuggetizer's own mean is.
    yield {"qid": "all", **{key: statistics.mean(values) for key, values in sums.items()}}


def record_scores(record: Mapping[str, Any], where: str) -> dict[str, Any]:
    """One record's metrics line, by nuggetizer's rules (see the module)."""
    if not isinstance(record, Mapping) or "qid" not in record:
        raise InputError(f"{where}: expected an object with 'qid' and 'nuggets', got {_kind(record)}")
    nuggets = record.get("nuggets")
    if not isinstance(nuggets, list):
        raise InputError(f"{where} (qid {record['qid']!r}): 'nuggets' must be a list, got {_kind(nuggets)}")
    pairs: list[tuple[str | None, str]] = []
    for i, nugget in enumerate(nuggets, start=1):
        if type(nugget) is not dict and not isinstance(nugget, Mapping):  # dict first: the ABC check is slow
            raise InputError(f"{where} (qid {record['qid']!r}): nugget {i} must be an object, got {_kind(nugget)}")
        label = nugget.get("assignment")
        importance = nugget.get("importance", "vital")
        if not isinstance(label, str):
            raise InputError(
                f"{where} (qid {record['qid']!r}): nugget {i} needs an 'assignment' (support, partial_support, "
                f"not_support or failed), got {_kind(label)}"
            )
        if importance is not None and not isinstance(importance, str):
            raise InputError(
                f"{where} (qid {record['qid']!r}): nugget {i}: 'importance' must be text (vital or okay), "
                f"got {_kind(importance)}"
            )
        pairs.append((importance, label))
    scores = nugget_scores(pairs, nuggetizer_compat=True)
    return {"qid": record["qid"], **{key: scores[_SCORE_OF[key]] for key in METRIC_KEYS}}


def _kind(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"[:80]
