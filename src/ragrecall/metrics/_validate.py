"""A record validated for one metric: a field the metric does not read that fails validation (a ``None`` inside
a list) is left out, so that only the metrics that read that field fail on the record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidSampleError
from ..schema import Sample

__all__ = ["validated"]


def validated(record: Any, where: str | None, required: tuple[str, ...], optional: tuple[str, ...]) -> Sample:
    """``record`` as a Sample for a metric that reads ``required`` and, when present, ``optional`` fields. A
    metric that declares no required fields (a user's own, whose reads are not known) keeps every field.

    Raises:
        InvalidSampleError: the record is invalid in a field the metric reads, or as a whole.
    """
    try:
        return Sample.from_dict(record, where=where)
    except InvalidSampleError as exc:
        field = exc.field
        if not required or field is None or field in (*required, *optional) or not isinstance(record, Mapping):
            raise
        if field not in record or field not in Sample.model_fields:
            raise  # a key one edit from a field keeps its "did you mean": a typo must not score silently
        return validated({k: v for k, v in record.items() if k != field}, where, required, optional)
