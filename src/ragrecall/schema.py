"""The one sample schema every metric reads.

Field names follow Ragas (``SingleTurnSample``) so that migrating costs an import line. The schema knows
nothing about files: loaders live in :mod:`ragrecall.dataset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    StrictBool,
    ValidationError,
    WithJsonSchema,
)
from rapidfuzz.distance import Levenshtein

from .errors import InvalidSampleError, MissingFieldError
from .nuggets import Nugget

__all__ = ["ContextId", "Sample", "SingleTurnSample", "describe_record", "id_key", "split_extras"]


def _check_id(value: Any) -> str | int:
    # bool is a subclass of int, and 1.0 == 1: neither is accepted as an ID, on purpose.
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f"expected a str or int ID, got {value!r} ({type(value).__name__})")
    return value


ContextId = Annotated[
    str | int,
    PlainValidator(_check_id),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
]
"""A document or context ID: str or int, compared as a string (``1`` equals ``"1"``)."""


def _check_grades(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a mapping of ID to integer grade, got {type(value).__name__}")
    out: dict[str, int] = {}
    for key, grade in value.items():
        _check_id(key)
        if isinstance(grade, bool) or not isinstance(grade, int):
            raise ValueError(f"expected an integer grade for ID {key!r}, got {grade!r} ({type(grade).__name__})")
        out[str(key)] = grade
    return out


Grades = Annotated[
    dict[str, int],
    PlainValidator(_check_grades),
    WithJsonSchema({"type": "object", "additionalProperties": {"type": "integer"}}),
]


def id_key(value: str | int) -> str:
    """The form under which IDs are compared: ``1`` and ``"1"`` are the same ID."""
    return value if isinstance(value, str) else str(value)


# What each field expects, in words, for error messages.
_EXPECTED: dict[str, str] = {
    "id": "a str or int sample ID",
    "user_input": "a string (the question)",
    "response": "a string (the generated answer)",
    "reference": "a string (the reference answer)",
    "retrieved_contexts": "a list of strings (the retrieved passages, in rank order)",
    "reference_contexts": "a list of strings (the passages that should be retrieved)",
    "retrieved_context_ids": "a list of str or int IDs (in rank order)",
    "reference_context_ids": "a list of str or int IDs",
    "relevance": "a mapping of ID to integer grade",
    "metadata": "a mapping of string keys to values",
    "reference_claims": "a list of strings (the reference's key facts, one claim each)",
    "reference_nuggets": 'a list of nuggets, each a string or {"text": ..., "importance": "vital" or "okay"}',
    "claim_labels": "a list of true/false (JSON booleans, not 1/0 or text), one per reference claim",
    "human_score": "a number in [0, 1] (not text or true/false)",
}


class Sample(BaseModel):
    """One question of an evaluation set: what was asked, retrieved and answered, and what was expected.

    Every field is optional; each metric states which it needs and raises :class:`MissingFieldError`
    naming the field when it is absent. An *empty* list or string is not absent: it means "nothing", and
    metrics treat it as such (an empty reference is unscorable, an empty retrieval scores 0).

    Keys that are not fields (a DataFrame's ``category`` column, a JSON record's ``source``) are data, not
    errors: they go to ``metadata`` under their own names. A key one edit away from a field (``referense``,
    ``User_input``) is an error with a "did you mean", so that a typo cannot silently score nothing.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)

    id: ContextId | None = None
    """Optional identifier, echoed in results and error messages."""
    user_input: str | None = None
    """The question or query."""
    retrieved_contexts: list[str] | None = None
    """Retrieved passages, in rank order."""
    reference_contexts: list[str] | None = None
    """Passages that should have been retrieved."""
    retrieved_context_ids: list[ContextId] | None = None
    """IDs of the retrieved passages, in rank order."""
    reference_context_ids: list[ContextId] | None = None
    """IDs of the passages that should have been retrieved."""
    response: str | None = None
    """The answer generated from the retrieved contexts."""
    reference: str | None = None
    """The reference (ground-truth) answer."""
    relevance: Grades | None = None
    """Graded judgments: ID → grade (≥ 1 relevant by default, 0 judged not relevant)."""
    reference_claims: list[str] | None = None
    """The reference's key facts (nuggets), one claim each. When given, :class:`~ragrecall.ContextRecall`
    judges exactly these claims, in this order, and makes no decomposition call."""
    reference_nuggets: list[Nugget] | None = None
    """TREC-style nuggets: the facts a good answer must contain, each ``{"text", "importance"}`` with importance
    ``"vital"`` or ``"okay"``; a bare string, or a nugget without importance, is vital (as nuggetizer reads
    them). Read by :class:`~ragrecall.NuggetRecall`."""
    claim_labels: list[StrictBool] | None = None
    """A person's judgement for each of ``reference_claims`` (same order; for each of ``reference_nuggets`` when
    the sample has no ``reference_claims``): does the retrieved context support it? Booleans only (``"yes"``,
    ``1`` and ``"true"`` are refused). Read only by :func:`ragrecall.calibrate`, never by metrics."""
    human_score: Annotated[float, Strict()] | None = None
    """A person's score of the sample's context recall, a number in [0, 1] (text such as ``"0.5"`` and booleans
    are refused; a CSV cell is read as a number). Read only by :func:`ragrecall.calibrate`."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Free data carried along, never read by metrics."""

    def __init__(self, **data: Any) -> None:
        # pydantic routes model_validate() through a custom __init__ too, but wraps what it raises in a
        # ValidationError; Sample(...) and Sample.from_dict(...) raise InvalidSampleError directly.
        data = split_extras(data, where=None)
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise _to_sample_error(exc, data, where=None) from exc
        self._check_labels()

    def _check_labels(self) -> None:
        """The checks that span fields: claims that say something, one label per claim, a score in [0, 1]."""
        where = describe_record(None, {"id": self.id})
        for i, claim in enumerate(self.reference_claims or []):
            if not claim.strip():
                raise InvalidSampleError(
                    f"item [{i}]: a claim is blank; expected a non-empty statement",
                    where=where,
                    field="reference_claims",
                )
        for i, nugget in enumerate(self.reference_nuggets or []):
            if not nugget.text.strip():
                raise InvalidSampleError(
                    f"item [{i}]: a nugget is blank; expected a non-empty statement",
                    where=where,
                    field="reference_nuggets",
                )
        if self.claim_labels is not None:
            items, field = (
                (self.reference_claims, "reference_claims")
                if self.reference_claims is not None or self.reference_nuggets is None
                else (self.reference_nuggets, "reference_nuggets")
            )
            if items is None:
                raise InvalidSampleError(
                    "claim labels need the claims they label: add reference_claims (or reference_nuggets)",
                    where=where,
                    field="claim_labels",
                )
            if len(self.claim_labels) != len(items):
                raise InvalidSampleError(
                    f"{len(self.claim_labels)} labels for {len(items)} {field}; expected one "
                    "true/false per claim, in the same order",
                    where=where,
                    field="claim_labels",
                )
        score = self.human_score
        if score is not None and not 0.0 <= score <= 1.0:  # NaN fails both comparisons
            raise InvalidSampleError(f"expected a number in [0, 1], got {score!r}", where=where, field="human_score")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str | None = None) -> Sample:
        """Validate a mapping into a Sample.

        Raises:
            InvalidSampleError: naming ``where`` (e.g. ``"line 3 of data.jsonl"``), the record's id when it
                has one, the field and what was expected.
        """
        if not isinstance(data, Mapping):
            raise InvalidSampleError(
                f"expected a mapping of field names to values, got {type(data).__name__}", where=where
            )
        try:
            return cls(**data)
        except InvalidSampleError as exc:
            # Re-raise with the caller's location; the pydantic error stays chained as the cause.
            raise type(exc)(exc.problem, where=describe_record(where, data), field=exc.field) from exc.__cause__

    def to_dict(self) -> dict[str, Any]:
        """The sample as a plain dict, absent fields (and empty metadata) left out (Ragas's ``to_dict``)."""
        return self.model_dump(exclude_none=True, exclude_defaults=True)

    def get_features(self) -> list[str]:
        """The names of the fields this sample has (Ragas's ``get_features``)."""
        return list(self.to_dict())

    def require(self, *fields: str, where: str | None = None) -> None:
        """Raise :class:`MissingFieldError` for the first of ``fields`` that is None."""
        for name in fields:
            if getattr(self, name) is None:
                raise MissingFieldError(
                    f"this metric needs it, but it is missing; expected {_EXPECTED.get(name, 'a value')}",
                    where=describe_record(where, {"id": self.id}),
                    field=name,
                )


SingleTurnSample = Sample
"""Alias for users migrating from Ragas."""


def describe_record(where: str | None, data: Mapping[str, Any]) -> str | None:
    """Add the record's id to a location string: ``"sample 3"`` → ``"sample 3 (id='q7')"``."""
    sample_id = data.get("id")
    if sample_id is None:
        return where
    return f"{where} (id={sample_id!r})" if where else f"sample id={sample_id!r}"


def split_extras(data: Mapping[str, Any], *, where: str | None) -> dict[str, Any]:
    """``data`` with its keys that are not Sample fields moved into ``metadata``, under their own names.

    Raises:
        InvalidSampleError: a key is one edit away from a field (a typo: "did you mean"), or an extra key is
            also a key of the ``metadata`` given in the same record.
    """
    known = Sample.model_fields
    extras = {str(k): v for k, v in data.items() if k not in known}
    if not extras:
        return dict(data)
    for key in extras:
        close = _one_edit_away(key)
        if close is not None:
            raise InvalidSampleError(
                f"unknown field; did you mean {close!r}? (to keep it as data, map it to metadata)",
                where=describe_record(where, data),
                field=key,
            )
    out = {k: v for k, v in data.items() if k in known}
    given = out.get("metadata")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        return out | {"metadata": given}  # the field's own validation names what was expected
    clash = sorted(set(extras) & {str(k) for k in given})
    if clash:
        raise InvalidSampleError(
            f"the column {clash[0]!r} is also a key of metadata; rename one of them",
            where=describe_record(where, data),
            field=clash[0],
        )
    out["metadata"] = {**given, **extras}
    return out


def _one_edit_away(name: str) -> str | None:
    """The Sample field one edit (insertion, deletion, substitution; case ignored) away from ``name``, if any.

    ``id`` is matched only up to case: ``idx`` and ``ids`` are common columns of their own."""
    folded = name.casefold()
    for field in Sample.model_fields:
        limit = 0 if len(field) <= 2 else 1
        if Levenshtein.distance(folded, field, score_cutoff=limit) <= limit:
            return field
    return None


def _to_sample_error(exc: ValidationError, data: Mapping[str, Any], *, where: str | None) -> InvalidSampleError:
    err = exc.errors(include_url=False)[0]
    loc = err.get("loc", ())
    field = str(loc[0]) if loc else None
    position = "".join(f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in loc[1:2])
    expected = _EXPECTED.get(field or "", "a valid value")
    if position and field in ("retrieved_contexts", "reference_contexts"):
        expected = "a string"
    elif position and field == "claim_labels":
        expected = "true or false (a JSON boolean, not 1/0 or text)"
    elif position and field == "reference_nuggets":
        expected = _NUGGET_PARTS.get(str(loc[2]) if len(loc) > 2 else "", _NUGGET_PARTS[""])
    given = err.get("input")
    detail = err.get("msg", "")
    if err.get("type") == "value_error":
        problem = detail.removeprefix("Value error, ")
    elif err.get("type") == "extra_forbidden" and field == "reference_nuggets" and len(loc) > 2:
        problem = f"unknown key {loc[2]!r}; a nugget has only 'text' and 'importance'"
    else:
        problem = f"expected {expected}, got {_short(given)} ({type(given).__name__})"
        if not position and isinstance(given, str) and field in ("retrieved_contexts", "reference_contexts"):
            problem += "; wrap a single passage in a list"
    if position:
        problem = f"item {position}: {problem}"
    return InvalidSampleError(problem, where=describe_record(where, data), field=field)


_NUGGET_PARTS = {
    "": 'a string or {"text": ..., "importance": "vital" or "okay"}',
    "text": "a non-empty string as the nugget's text",
    "importance": "'vital' or 'okay' as its importance",
}


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
