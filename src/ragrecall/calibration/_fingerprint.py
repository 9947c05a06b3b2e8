"""What a label was made on: a short digest of each content field of the sample a person saw (retrieved
passages, reference, claims ...), so that a label pairs with a run's sample only when the run judged the same
content. The labelling page writes the digests of the run's sample into each label row
(``metadata.fingerprint``); for a labels file written elsewhere they are computed from the texts it stores."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InvalidSampleError
from ..schema import Sample, describe_record

__all__ = [
    "CONTENT_FIELDS",
    "FINGERPRINT_KEY",
    "content_fingerprint",
    "field_words",
    "first_difference",
    "label_fingerprint",
]

FINGERPRINT_KEY = "fingerprint"
"""The ``metadata`` key of a label row holding the digests of what the person saw (written by the labelling
page): field name → digest."""

# Fields that say who or what a sample is, or carry labels, rather than what a judge reads to give its verdict.
_NOT_CONTENT = frozenset({"id", "user_input", "response", "claim_labels", "human_score", "metadata"})

CONTENT_FIELDS: tuple[str, ...] = tuple(name for name in Sample.model_fields if name not in _NOT_CONTENT)
"""The sample fields a fingerprint covers: every field a metric may judge on (a field added to
:class:`ragrecall.Sample` later is covered too)."""

_WORDS = {
    "retrieved_contexts": "retrieved passages",
    "reference": "reference",
    "reference_claims": "claims",
    "reference_contexts": "reference passages",
    "retrieved_context_ids": "retrieved IDs",
    "reference_context_ids": "reference IDs",
    "relevance": "relevance judgments",
}

_DIGEST = re.compile(r"^[0-9a-f]{16}$")


def field_words(field: str) -> str:
    """How a person names ``field`` ("retrieved passages" for ``retrieved_contexts``)."""
    return _WORDS.get(field, field.replace("_", " "))


def _digest(value: Any) -> str:
    """A 64-bit digest of a field's value; IDs compare as strings, as everywhere else."""
    if isinstance(value, list):
        value = [item if isinstance(item, str) or item is None else str(item) for item in value]
    elif isinstance(value, dict):
        value = {str(k): v for k, v in value.items()}
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def content_fingerprint(sample: Sample, fields: Iterable[str] = CONTENT_FIELDS) -> dict[str, str]:
    """Field → digest for each of ``fields`` the sample has (a field it lacks is left out)."""
    out: dict[str, str] = {}
    for field in fields:
        value = getattr(sample, field, None)
        if value is not None:
            out[field] = _digest(value)
    return out


def label_fingerprint(index: int, sample: Sample) -> dict[str, str]:
    """What the person who labelled ``sample`` saw: the digests the labelling page stored in
    ``metadata.fingerprint`` when there are some, else the digests of the texts the row stores.

    Raises:
        InvalidSampleError: ``metadata.fingerprint`` is not a mapping of field names to 16-hex-digit digests.
    """
    stored = sample.metadata.get(FINGERPRINT_KEY)
    if stored is None:
        return content_fingerprint(sample)
    if not isinstance(stored, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and _DIGEST.match(v) for k, v in stored.items()
    ):
        raise InvalidSampleError(
            "expected a mapping of field names to 16-hex-digit digests, as the labelling page writes it",
            where=describe_record(f"sample {index}", {"id": sample.id}),
            field=f"metadata.{FINGERPRINT_KEY}",
        )
    return dict(stored)


def first_difference(label: Mapping[str, str], run: Mapping[str, str], fields: Iterable[str]) -> str | None:
    """The first of ``fields`` whose content differs between a label's fingerprint and a run sample's (a field
    absent on one side and present on the other differs); None when they agree on every one."""
    return next((field for field in fields if label.get(field) != run.get(field)), None)
