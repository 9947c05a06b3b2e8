"""nuggetizer's files, read and written: nuggets (``{"query", "qid", "nuggets"}`` per line) and assignments.

Assignment lines are nuggetizer's, in either of its two shapes:

- ``kind="answers"``: one line per query, ``{"query", "qid", "answer_text", "response_length", "run_id",
  "nuggets"}``;
- ``kind="retrieval"``: one line per (query, passage), ``{"text", "qid", "candidate_text", "docid",
  "nuggets"}``;

each nugget ``{"text", "importance", "assignment"}``. ragrecall adds what it checked under a key of each nugget,
``"ragrecall"``, that nuggetizer's scripts never read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import ValidationError

from .._files import atomic_text, load_json
from ..dataset import open_text, text_lines
from ..errors import FileFormatError
from ._types import NuggetTopic

__all__ = ["file_metrics", "iter_jsonl", "read_assignments", "read_nuggets", "write_jsonl", "write_nuggets"]

PathLike = str | os.PathLike[str]


def iter_jsonl(path: PathLike) -> Iterator[tuple[int, Any]]:
    """``(line number, JSON value)`` for each non-blank line of ``path`` (plain or ``.gz``).

    Raises:
        FileFormatError: a line is not JSON, naming the file and line.
    """
    name, handle = open_text(path)
    with handle:
        for number, line in enumerate(text_lines(handle, name), start=1):
            if not line.strip():
                continue
            try:
                yield number, load_json(line, path=name, line=number)
            except json.JSONDecodeError as exc:
                raise FileFormatError(f"not JSON ({exc.msg})", path=name, line=number) from exc


def read_nuggets(path: PathLike) -> list[NuggetTopic]:
    """nuggetizer's nuggets file: one :class:`NuggetTopic` per line (a nugget without ``importance`` is vital).

    Raises:
        FileFormatError: a line is not JSON or not a topic (a ``qid``, a list of ``nuggets`` each with its
            ``text`` and an importance of ``vital`` or ``okay``), naming the line and the nugget; a ``qid``
            seen twice.
    """
    topics: list[NuggetTopic] = []
    seen: dict[str, int] = {}
    name = os.fspath(path)
    for number, value in iter_jsonl(path):
        if not isinstance(value, dict):
            raise FileFormatError(
                f"expected an object with 'qid' and 'nuggets', got {type(value).__name__}", path=name, line=number
            )
        try:
            topic = NuggetTopic.model_validate(value)
        except ValidationError as exc:
            raise FileFormatError(_first_problem(exc), path=name, line=number) from exc
        key = str(topic.qid)
        if key in seen:
            raise FileFormatError(f"qid {topic.qid!r} again (first on line {seen[key]})", path=name, line=number)
        seen[key] = number
        topics.append(topic)
    return topics


def write_nuggets(path: PathLike, topics: Iterable[NuggetTopic]) -> None:
    """Write ``topics`` as nuggetizer's nuggets file (atomically; ``.gz`` compressed)."""
    write_jsonl(
        path, ({"query": t.query, "qid": t.qid, "nuggets": [n.model_dump() for n in t.nuggets]} for t in topics)
    )


def read_assignments(path: PathLike) -> list[dict[str, Any]]:
    """nuggetizer's assignment lines (either shape, with or without ragrecall's key), as dicts, in file order,
    each checked to have a ``qid`` and a list of ``nuggets`` each with its ``assignment``.

    Raises:
        FileFormatError: a line is not JSON.
        InputError: a line is not an assignment record, naming the file, line and nugget.
    """
    from ._metrics import record_scores

    name = os.fspath(path)
    records: list[dict[str, Any]] = []
    for number, value in iter_jsonl(path):
        record_scores(value, f"{name}:{number}")
        records.append(value)
    return records


def file_metrics(path: PathLike) -> Iterator[dict[str, Any]]:
    """The metrics lines of an assignment file (:func:`~ragrecall.nuggets.nugget_metrics`), read and scored one
    line at a time; errors name the file and line."""
    from ._metrics import metrics_lines

    name = os.fspath(path)
    return metrics_lines((f"{name}:{number}", value) for number, value in iter_jsonl(path))


def write_jsonl(path: PathLike, records: Iterable[dict[str, Any]]) -> None:
    """One JSON object per line, written atomically (``.gz`` compressed), non-ASCII text kept as is."""
    with atomic_text(path) as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def _first_problem(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "the line"
    shown = {"nuggets": "nuggets", "qid": "qid"}.get(where, where)
    if error["loc"][:1] == ("nuggets",) and len(error["loc"]) >= 2:
        shown = f"nugget {int(error['loc'][1]) + 1}" + (f" {error['loc'][2]!r}" if len(error["loc"]) > 2 else "")
    return f"{shown}: {error['msg']}"
