"""The samples of a run, read from whatever ``evaluate`` was given."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._inputs import collection_rows
from ..dataset import Dataset
from ..errors import InvalidSampleError
from ..metrics.base import SampleLike
from ..schema import Sample

if TYPE_CHECKING:
    from ._run import DatasetLike

__all__ = ["load_samples"]


def load_samples(dataset: DatasetLike, renames: Mapping[str, str], places: Sequence[int] | None) -> list[SampleLike]:
    """The samples, dicts validated once here; an invalid record stays as given so that each metric records
    its error (naming the sample) as a failure instead of stopping the run.

    Raises:
        InvalidSampleError: every record is invalid — an input error, not a scoring failure; the message
            gives the first record's problem.
    """
    if isinstance(dataset, (str, os.PathLike)):
        return list(Dataset.load(dataset, column_map=renames))
    if isinstance(dataset, Dataset) and not renames:
        return list(dataset)
    samples: list[SampleLike] = []
    first: InvalidSampleError | None = None
    for index, record in enumerate(collection_rows(dataset, renames)):
        if isinstance(record, Sample):
            samples.append(record)
            continue
        try:
            where = f"sample {index if places is None else places[index]}"
            samples.append(Sample.from_dict(record, where=where))
        except InvalidSampleError as exc:
            first = first or exc
            samples.append(record)
    if first is not None and not any(isinstance(s, Sample) for s in samples):
        count = f"all {len(samples)} samples are" if len(samples) > 1 else "the sample is"
        raise InvalidSampleError(f"{first.problem} ({count} invalid)", where=first.where, field=first.field) from first
    return samples
