"""Results of scoring one sample: the value or the reason there is none, plus the evidence.

A :class:`MetricResult` is in exactly one of three states:

- ``"scored"``: ``value`` is a finite float in [0, 1];
- ``"unscorable"``: there was nothing to measure (e.g. an empty reference); ``value`` is None and ``reason``
  says why. Aggregates count these apart, never as 0;
- ``"failed"``: scoring raised (e.g. the LLM kept answering out of schema); ``value`` is None and ``failure``
  holds the exception's type and message. Only batch APIs produce this state: a single ``score()`` raises.

Evidence records are typed per metric family. Each derives from :class:`Evidence` with a distinct ``kind``;
they are registered on definition so that a result read back from JSON gets its evidence's own class.
"""

from __future__ import annotations

import importlib
import math
import traceback as _traceback
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, field_validator, model_validator

from .errors import InvalidSampleError
from .rendering import InputNotes, Passages, fields_html
from .usage import Usage

__all__ = [
    "ContextMatch",
    "Evidence",
    "Failure",
    "FoundID",
    "IDRecallEvidence",
    "MetricResult",
    "Status",
    "StringRecallEvidence",
]

Status = Literal["scored", "unscorable", "failed"]


# The package exporting each evidence kind of a lazily imported module, and the kind's class name there, so
# that reading JSON can load the class.
_KIND_MODULES = {
    "claim_recall": ("ragrecall.metrics", "ClaimRecallEvidence"),
    "nugget_recall": ("ragrecall.metrics", "NuggetRecallEvidence"),
    "ranking": ("ragrecall.ranking", "RankingEvidence"),
    "parsed_ranking": ("ragrecall.ranking", "ParsedRanking"),
    "string_similarity": ("ragrecall.metrics", "StringSimilarityEvidence"),
}


class Evidence(BaseModel):
    """Base of the per-metric evidence records; ``kind`` names the record type.

    Evidence of a kind no class is registered for (a user's own metric) keeps its fields as extra data.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    kind: str
    """Discriminator naming the evidence type."""

    _registry: ClassVar[dict[str, type[Evidence]]] = {}

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        default = cls.model_fields["kind"].default
        if isinstance(default, str):
            Evidence._registry[default] = cls

    def missing_items(self) -> list[str]:
        """Short descriptions of the reference items that were not found (for failure messages)."""
        return []

    def judged_items(self) -> list[str] | None:
        """The items a person labels one by one as this verdict judged them (claims); None when it has none."""
        return None

    def judged_fields(self) -> tuple[str, ...]:
        """The sample fields this verdict rests on. A person's label applies to it only when it was made on the
        same content of these fields: labels pair with a run by id *and* by these fields (see
        :func:`ragrecall.calibration.corrected_mean`). By default the retrieved passages and the reference."""
        return ("retrieved_contexts", "reference")

    # How the evidence shows itself: the summary, the report and the exports call these alone, whatever the kind.

    def counts(self) -> dict[str, int]:
        """Counts worth summing over a dataset (e.g. verified and unverified verdicts); empty by default."""
        return {}

    @classmethod
    def counts_text(cls, counts: Mapping[str, int]) -> str:
        """``counts`` (this kind's :meth:`counts` summed over a run) in words, for the summary; by default each
        count and its name, ``"3 hits, 1 near miss"``."""
        return ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items())

    def to_html(self, passages: Passages) -> str:
        """This verdict on one sample as HTML for the report, naming retrieved passages with ``passages``; by
        default every field as a nested list."""
        data = self.model_dump(mode="json")
        data.pop("kind", None)
        return fields_html(data)

    def note_inputs(self, notes: InputNotes, metric: str, prefix: str) -> None:
        """Add this verdict's marks to the sample's inputs shown in the report (spans to highlight, notes on
        passages); ``prefix`` is ``"<metric> "`` when another metric of the same kind marks them too, else
        ``""``. None by default."""
        return None

    @classmethod
    def legend_html(cls) -> str:
        """HTML shown once above the report's samples when a metric of this kind is in the run (what its labels
        mean); empty by default."""
        return ""

    # What people label item by item (the labelling page, calibrate, the corrected mean read these alone).

    def labelled_items(self) -> list[Any] | None:
        """The items people label one by one for this verdict (claims, nuggets), each shaped as a
        :class:`~ragrecall.ClaimVerdict` (``claim``, ``supported``, ``reason``, ``verification``, ``support``,
        ``votes``, ``origin``: ``"given"`` for the sample's own items, which labels pair with one to one), in the
        sample's order; None (the default) for a kind that is not labelled item by item."""
        return None

    def labelled_field(self) -> str:
        """The sample field a labels file lists the labelled items in, ``claim_labels`` pairing with it."""
        return "reference_claims"

    def value_of_labels(self, labels: list[bool]) -> float | None:
        """This metric's value with people's labels (one per labelled item, True for supported) in place of the
        judge's; by default the share labelled supported (None for no label)."""
        return sum(labels) / len(labels) if labels else None

    def columns(self) -> dict[str, Any]:
        """Values of this verdict that exports give a column each (``<metric>:<key>`` in ``to_records``,
        ``to_csv`` and ``to_pandas``); none by default."""
        return {}

    @classmethod
    def of_kind(cls, kind: str | None) -> type[Evidence]:
        """The class registered for ``kind`` (loading a lazily imported one), or :class:`Evidence` when none is."""
        if kind is not None and kind not in Evidence._registry and kind in _KIND_MODULES:
            package, name = _KIND_MODULES[kind]
            getattr(importlib.import_module(package), name)  # a lazy export: its module loads here
        return Evidence._registry.get(kind or "", Evidence)

    @classmethod
    def parse_any(cls, data: Any) -> Any:
        """Turn a dict carrying a registered ``kind`` into an instance of that evidence class."""
        if isinstance(data, dict):
            target = cls.of_kind(str(data.get("kind")))
            if target is not Evidence:
                return target.model_validate(data)
        return data


class Failure(BaseModel):
    """Why a sample could not be scored: the exception that ended its attempt."""

    model_config = ConfigDict(frozen=True)

    type: str
    """The exception's class name, e.g. ``"LLMOutputError"``."""
    message: str
    """The exception's message, including its chained cause when there is one."""
    traceback: str | None = None
    """The formatted traceback, when it was captured."""

    @classmethod
    def from_exception(cls, exc: BaseException, *, with_traceback: bool = True) -> Failure:
        """Record ``exc`` (and its direct cause) as a failure."""
        message = str(exc) or exc.__class__.__name__
        cause = exc.__cause__
        # An invalid sample's message already says what was expected; the validator's own text adds lines and a URL.
        if cause is not None and str(cause) and str(cause) not in message and not isinstance(exc, InvalidSampleError):
            message = f"{message} (caused by {cause.__class__.__name__}: {cause})"
        tb = "".join(_traceback.format_exception(exc)) if with_traceback else None
        return cls(type=exc.__class__.__name__, message=message, traceback=tb)


class MetricResult(BaseModel):
    """The outcome of one metric on one sample."""

    model_config = ConfigDict(frozen=True)

    metric: str
    """Name of the metric that produced the result, e.g. ``"id_based_context_recall"``."""
    status: Status
    """``"scored"``, ``"unscorable"`` or ``"failed"``."""
    value: float | None = None
    """The score in [0, 1] when scored, else None."""
    reason: str | None = None
    """Why the sample is unscorable (None otherwise)."""
    failure: Failure | None = None
    """What went wrong when the status is ``"failed"``."""
    evidence: SerializeAsAny[Evidence] | None = None
    """Typed evidence: which reference items were found, where, and why."""
    sample_id: str | int | None = None
    """The scored sample's ``id``, when it has one."""
    usage: Usage = Field(default_factory=Usage)
    """LLM tokens and cost spent on this result (zero for metrics without an LLM)."""

    @field_validator("evidence", mode="before")
    @classmethod
    def _evidence_subclass(cls, v: Any) -> Any:
        return Evidence.parse_any(v)

    @model_validator(mode="after")
    def _check_state(self) -> MetricResult:
        if self.status == "scored":
            if self.value is None or not math.isfinite(self.value) or not 0.0 <= self.value <= 1.0:
                raise ValueError(f"a scored result needs a finite value in [0, 1], got {self.value!r}")
        elif self.value is not None:
            raise ValueError(f"a {self.status} result has no value, got {self.value!r}")
        if self.status == "unscorable" and not self.reason:
            raise ValueError("an unscorable result needs a reason")
        if self.status == "failed" and self.failure is None:
            raise ValueError("a failed result needs a failure record")
        return self

    @property
    def is_scored(self) -> bool:
        """True when the result carries a value."""
        return self.status == "scored"

    @classmethod
    def scored(
        cls,
        metric: str,
        value: float,
        evidence: Evidence | None = None,
        *,
        sample_id: str | int | None = None,
        usage: Usage | None = None,
    ) -> MetricResult:
        """A result with a value in [0, 1]."""
        return cls(
            metric=metric,
            status="scored",
            value=float(value),
            evidence=evidence,
            sample_id=sample_id,
            usage=usage or Usage(),
        )

    @classmethod
    def unscorable(
        cls,
        metric: str,
        reason: str,
        evidence: Evidence | None = None,
        *,
        sample_id: str | int | None = None,
        usage: Usage | None = None,
    ) -> MetricResult:
        """A result for a sample with nothing to measure; ``reason`` says why."""
        return cls(
            metric=metric,
            status="unscorable",
            reason=reason,
            evidence=evidence,
            sample_id=sample_id,
            usage=usage or Usage(),
        )

    @classmethod
    def failed(
        cls,
        metric: str,
        exc: BaseException,
        *,
        sample_id: str | int | None = None,
        usage: Usage | None = None,
    ) -> MetricResult:
        """A result recording that scoring raised ``exc``.

        Tokens already spent are kept: without ``usage``, the exception's own ``usage`` attribute (set by the
        LLM path on errors raised after paid calls) is used.
        """
        if usage is None:
            spent = getattr(exc, "usage", None)
            usage = spent if isinstance(spent, Usage) else Usage()
        return cls(
            metric=metric,
            status="failed",
            failure=Failure.from_exception(exc),
            sample_id=sample_id,
            usage=usage,
        )

    def __repr__(self) -> str:
        head = f"{self.metric}={self.value:.4f}" if self.value is not None else f"{self.metric}: {self.status}"
        if self.status == "unscorable":
            head += f" ({self.reason})"
        elif self.failure is not None:
            head += f" ({self.failure.type}: {self.failure.message})"
        return f"MetricResult({head})"

    def __str__(self) -> str:
        """One short line: the value (or the state and its cause) and what was missed, first item named; the
        evidence in full is ``result.evidence``."""
        if self.value is None:
            cause = self.reason if self.status == "unscorable" else f"{self.failure.type}" if self.failure else ""
            return _clip(f"{self.metric}: {self.status}" + (f" ({cause})" if cause else ""))
        missing = self.evidence.missing_items() if self.evidence is not None else []
        text = f"{self.metric} = {self.value:.4f}"
        if missing:
            text += f"; {len(missing)} missing, first: {missing[0]}"
        return _clip(text)


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# The evidence of ID recall and string recall lives in its own module; imported here, once this module is whole,
# so that it is registered (and importable from here) wherever results are.
from ._match_evidence import ContextMatch, FoundID, IDRecallEvidence, StringRecallEvidence  # noqa: E402
