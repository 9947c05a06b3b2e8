"""A nuggets file joined to samples: a topic's ``qid`` is a sample's ``id`` (compared as strings)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import InputError
from ._types import NuggetTopic

if TYPE_CHECKING:
    from ..schema import Sample

__all__ = ["join_nuggets"]


def join_nuggets(samples: Iterable[Sample], topics: Sequence[NuggetTopic]) -> tuple[list[Sample], list[str]]:
    """``samples`` with each one whose ``id`` is a topic's ``qid`` given that topic's nuggets as
    ``reference_nuggets`` (samples with no topic are left as they are); and the qids no sample has.

    Raises:
        InputError: a sample that has its own ``reference_nuggets`` also has a topic (which to score would be a
            guess), naming the sample.
    """
    by_qid = {str(t.qid): t for t in topics}
    used: set[str] = set()
    out: list[Sample] = []
    for index, sample in enumerate(samples):
        key = None if sample.id is None else str(sample.id)
        topic = by_qid.get(key) if key is not None else None
        if topic is None:
            out.append(sample)
            continue
        if sample.reference_nuggets is not None:
            raise InputError(
                f"sample {index} (id={sample.id!r}) has its own reference_nuggets and nuggets in the nuggets file; "
                "keep one of them"
            )
        used.add(str(topic.qid))
        out.append(sample.model_copy(update={"reference_nuggets": list(topic.nuggets)}))
    return out, [str(t.qid) for t in topics if str(t.qid) not in used]
