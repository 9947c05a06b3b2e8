"""What every metric has: ``ascore``/``score`` on one sample, ``abatch_score``/``batch_score`` on many.

A metric is configuration plus a pure computation: nothing about a scored sample is kept on ``self``, so one
metric object can score many samples at once. The logic of a metric is written once:

- LLM metrics subclass :class:`Metric` and implement the async ``_ascore_sample``; the sync ``score`` is the
  shared wrapper (:func:`ragrecall._sync.run_sync`), not a second copy;
- pure metrics (IDs, strings, rankings) subclass :class:`SyncMetric` and implement ``_score_sample``; their
  ``ascore`` simply returns that result, and ``_score_samples`` may vectorise a whole batch.

A batch of a pure metric runs in a worker thread, in passes of at most :data:`PASS_SAMPLES` samples. A thread
cannot be interrupted from outside, so when the task awaiting it is cancelled (Ctrl-C, a timeout) a flag is
set, and the thread stops before its next pass (or sooner, where a metric checks the flag itself).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from .._pool import run_pool
from .._sync import run_sync
from ..errors import ConfigurationError, EndpointDownError
from ..results import MetricResult
from ..schema import Sample
from ._validate import validated

__all__ = [
    "PASS_SAMPLES",
    "Metric",
    "OnError",
    "SampleLike",
    "StopRequested",
    "SyncMetric",
    "check_batch_args",
    "check_stop",
    "sample_id_of",
    "setting_text",
]

SampleLike = Sample | Mapping[str, Any]
"""A :class:`Sample`, or a mapping of its fields."""

OnError = Literal["record", "raise"]

PASS_SAMPLES = 1024
"""Most samples a pure metric scores in one pass (one vectorised call) between two looks at the stop flag."""


class StopRequested(BaseException):
    """Raised inside a pure metric's worker thread when the caller has stopped waiting for it.

    A :class:`BaseException`, like :class:`asyncio.CancelledError`, so that no per-sample handler records it as
    a failure; it never reaches the caller, whose await was already cancelled.
    """


def check_stop(stop: threading.Event | None) -> None:
    """Raise :class:`StopRequested` when ``stop`` is set (None: never)."""
    if stop is not None and stop.is_set():
        raise StopRequested


class Metric(ABC):
    """Base of every metric.

    Subclasses are frozen dataclasses whose fields are their settings, and set ``required_fields``: the
    Sample fields that must be present (not None) for the metric to run.
    """

    required_fields: ClassVar[tuple[str, ...]] = ()
    optional_fields: ClassVar[tuple[str, ...]] = ()
    """Fields read when present, besides ``required_fields`` (see :func:`validated`)."""
    metric_name: ClassVar[str] = "metric"
    unnamed_settings: ClassVar[frozenset[str]] = frozenset()
    """Settings left out of the default name: they never change a value (size limits) or are named apart."""

    @property
    def name(self) -> str:
        """The name results carry, e.g. ``"id_based_context_recall"``.

        Dataclass metrics take ``name=`` and, without it, get :meth:`default_name`."""
        return self.metric_name

    @property
    def named_by_user(self) -> bool:
        """True when the name was given with ``name=`` rather than derived from the settings."""
        return bool(getattr(self, "_given_name", False))

    def default_name(self) -> str:
        """``metric_name``, whatever the settings: Ragas's column name (``NonLLMContextRecall(threshold=0.6)``
        gives ``non_llm_context_recall``). When two metrics of one evaluation would share it, ``evaluate`` adds
        the settings in which they differ."""
        return self.metric_name

    def settings_name(self) -> str:
        """``metric_name`` followed by the settings that differ from their defaults, in the form the command line
        reads: ``non_llm_context_recall(threshold=0.8,scorer=partial)`` (the name a metric built from such a
        spec carries)."""
        return self.metric_name + settings_suffix(self._non_default_settings())

    def named_by_settings(self) -> Metric:
        """A copy of this metric whose results are named by :meth:`settings_name` (still a default name, not
        one given with ``name=``)."""
        clone = copy.copy(self)
        object.__setattr__(clone, "name", self.settings_name())
        return clone

    def check_ready(self) -> None:
        """Raise :class:`~ragrecall.errors.ConfigurationError` when the metric cannot score at all (an LLM metric
        without an LLM); called before any sample is scored."""
        return None  # most metrics can always score

    def _non_default_settings(self) -> dict[str, Any]:
        if not dataclasses.is_dataclass(self):
            return {}
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init or f.name in ("name", "llm") or f.name in self.unnamed_settings:
                continue
            default = f.default if f.default is not dataclasses.MISSING else None
            value = getattr(self, f.name)
            if value != default:
                out[f.name] = value
        return out

    def __post_init__(self) -> None:
        """Store the name results carry, for a dataclass metric with a ``name`` field and no checks of its own (a
        metric with its own ``__post_init__`` stores it there)."""
        if dataclasses.is_dataclass(self) and any(f.name == "name" for f in dataclasses.fields(self)):
            self._set_name(getattr(self, "name", ""))

    def _set_name(self, name: object) -> None:
        """Check ``name=`` and store the name results carry (the default name when ``name`` is None or empty)."""
        if name is not None and not isinstance(name, str):
            raise ConfigurationError(f"name must be a string, got {name!r} ({type(name).__name__})")
        if name is not None and (name != name.strip() or any(c in name for c in "\r\n\t")):
            raise ConfigurationError(f"name must be one line without surrounding spaces, got {name!r}")
        object.__setattr__(self, "_given_name", bool(name))
        object.__setattr__(self, "name", name or self.default_name())

    def settings(self) -> dict[str, Any]:
        """The metric's settings as plain data (what makes two metric objects score differently)."""
        if not dataclasses.is_dataclass(self):
            return {}
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "name":  # what results are called, not how they are computed
                continue
            value = getattr(self, f.name)
            if value is None or isinstance(value, (str, int, float, bool)):
                out[f.name] = value
            else:
                out[f.name] = getattr(value, "__name__", type(value).__name__)
        return out

    # -- one sample -------------------------------------------------------------------------------------

    async def ascore(self, sample: SampleLike | None = None, /, **fields: Any) -> MetricResult:
        """Score one sample, given as a :class:`Sample`, a mapping, or its fields as keyword arguments.

        Raises:
            InvalidSampleError: a field has the wrong type, or is unknown.
            MissingFieldError: a field this metric needs is absent.
            LLMError: (LLM metrics) the LLM could not produce a valid answer.
        """
        return await self._ascore_sample(self._prepare(sample, fields))

    def score(self, sample: SampleLike | None = None, /, **fields: Any) -> MetricResult:
        """Synchronous :meth:`ascore`; works in scripts and inside a running event loop (notebooks)."""
        return self._score_sync(self._prepare(sample, fields))

    async def single_turn_ascore(
        self, sample: SampleLike, callbacks: Any = None, timeout: float | None = None
    ) -> float:
        """Ragas's call: the value as a float, as Ragas returns it — NaN when the sample is unscorable (use
        :meth:`ascore` for the result with its reason and evidence). ``callbacks`` is accepted and ignored;
        ``timeout`` bounds the whole call in seconds (:class:`TimeoutError`).

        Raises what :meth:`ascore` raises."""
        if timeout is not None:
            return _as_float(await asyncio.wait_for(self.ascore(sample), timeout))
        return _as_float(await self.ascore(sample))

    def single_turn_score(self, sample: SampleLike, callbacks: Any = None, timeout: float | None = None) -> float:
        """Synchronous :meth:`single_turn_ascore`: a float, NaN when unscorable."""
        if timeout is not None:
            return run_sync(self.single_turn_ascore(sample, timeout=timeout))
        return _as_float(self.score(sample))

    # -- many samples -----------------------------------------------------------------------------------

    async def abatch_score(
        self,
        samples: Iterable[SampleLike],
        *,
        max_concurrency: int = 16,
        on_error: OnError = "record",
    ) -> list[MetricResult]:
        """Score many samples; results come back in input order.

        At most ``max_concurrency`` samples are in flight at once. With ``on_error="record"`` (default) a
        sample that fails (invalid, missing a field, LLM failure) becomes a result with status ``"failed"``
        and its cause, and every other sample is still scored; with ``"raise"`` the first error propagates.
        """
        check_batch_args(max_concurrency, on_error)
        self.check_ready()
        items = list(samples)
        results: list[MetricResult | None] = [None] * len(items)

        async def one(index: int) -> None:
            results[index] = await self._ascore_item(items[index], f"sample {index}", on_error)

        await run_pool(range(len(items)), max_concurrency, one)
        return [r for r in results if r is not None]

    def batch_score(
        self,
        samples: Iterable[SampleLike],
        *,
        max_concurrency: int = 16,
        on_error: OnError = "record",
    ) -> list[MetricResult]:
        """Synchronous :meth:`abatch_score`."""
        return run_sync(self.abatch_score(samples, max_concurrency=max_concurrency, on_error=on_error))

    async def _ascore_item(self, raw: SampleLike, where: str, on_error: OnError) -> MetricResult:
        """Validate and score one batch item; with ``on_error="record"`` any failure becomes a failed result."""
        try:
            return await self._ascore_sample(self._prepare(raw, {}, where=where))
        except EndpointDownError:
            raise  # the endpoint is dead: the whole run stops, the sample is left for a resume
        except Exception as exc:  # recorded with its traceback, never swallowed
            if on_error == "raise":
                raise
            return MetricResult.failed(self.name, exc, sample_id=sample_id_of(raw))

    # -- for subclasses ---------------------------------------------------------------------------------

    @abstractmethod
    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        """Score a validated sample whose required fields are present."""

    def _score_sync(self, sample: Sample) -> MetricResult:
        return run_sync(self._ascore_sample(sample))

    def _check(self, sample: Sample, where: str | None) -> None:
        """Raise MissingFieldError when a field this metric needs is absent; override for richer rules."""
        sample.require(*self.required_fields, where=where)

    def _prepare(self, sample: SampleLike | None, fields: Mapping[str, Any], where: str | None = None) -> Sample:
        self.check_ready()
        if sample is None:
            sample = Sample.from_dict(fields, where=where)
        elif fields:
            raise TypeError("pass a sample or its fields as keyword arguments, not both")
        elif not isinstance(sample, Sample):
            sample = validated(sample, where, self.required_fields, self.optional_fields)
        self._check(sample, where)
        return sample

    def _prepare_batch(
        self, samples: Iterable[SampleLike], max_concurrency: int, on_error: OnError
    ) -> list[Sample | MetricResult]:
        check_batch_args(max_concurrency, on_error)
        out: list[Sample | MetricResult] = []
        for index, raw in enumerate(samples):
            try:
                out.append(self._prepare(raw, {}, where=f"sample {index}"))
            except Exception as exc:  # recorded with its traceback, never swallowed
                if on_error == "raise":
                    raise
                out.append(MetricResult.failed(self.name, exc, sample_id=sample_id_of(raw)))
        return out


class SyncMetric(Metric):
    """A metric that computes without I/O; ``ascore`` returns the synchronous result."""

    @abstractmethod
    def _score_sample(self, sample: Sample) -> MetricResult:
        """Score a validated sample whose required fields are present."""

    def _score_samples(self, samples: Sequence[Sample]) -> list[MetricResult]:
        """Score many validated samples; override to vectorise. Must return one result per sample, in order."""
        return [self._score_sample(s) for s in samples]

    def _score_pass(self, samples: Sequence[Sample], stop: threading.Event | None) -> list[MetricResult]:
        """Score one pass of a batch (at most :data:`PASS_SAMPLES` samples). Override, calling
        :func:`check_stop` as it goes, when one pass can take long (a metric whose one sample can be slow)."""
        return self._score_samples(samples)

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        return self._score_sample(sample)

    def _score_sync(self, sample: Sample) -> MetricResult:
        return self._score_sample(sample)

    async def abatch_score(
        self,
        samples: Iterable[SampleLike],
        *,
        max_concurrency: int = 16,
        on_error: OnError = "record",
    ) -> list[MetricResult]:
        """Score many samples in vectorised passes, off the event loop; results in input order.

        ``max_concurrency`` is accepted for a uniform signature; pure metrics do not need it. Cancelling the
        awaiting task also stops the worker thread, before its next pass (see the module docstring).
        """
        stop = threading.Event()
        try:
            return await asyncio.to_thread(self._batch_score, samples, max_concurrency, on_error, stop)
        finally:
            stop.set()  # after a cancellation: the thread stops at its next look; otherwise it has finished

    def batch_score(
        self,
        samples: Iterable[SampleLike],
        *,
        max_concurrency: int = 16,
        on_error: OnError = "record",
    ) -> list[MetricResult]:
        """Score many samples in vectorised passes; results in input order (see :meth:`abatch_score`)."""
        return self._batch_score(samples, max_concurrency, on_error, None)

    def _batch_score(
        self, samples: Iterable[SampleLike], max_concurrency: int, on_error: OnError, stop: threading.Event | None
    ) -> list[MetricResult]:
        """:meth:`batch_score`, in passes of :data:`PASS_SAMPLES`; raises :class:`StopRequested` between passes
        once ``stop`` is set."""
        prepared = self._prepare_batch(samples, max_concurrency, on_error)
        valid = [item for item in prepared if isinstance(item, Sample)]
        scored: list[MetricResult] = []
        for start in range(0, len(valid), PASS_SAMPLES):
            check_stop(stop)
            part = valid[start : start + PASS_SAMPLES]
            try:
                scored.extend(self._score_pass(part, stop))
            except Exception:
                if on_error == "raise":
                    raise
                # One bad sample must not sink the pass: score one by one to isolate it.
                scored.extend(self._score_one_recorded(s, stop) for s in part)
        computed = iter(scored)
        return [next(computed) if isinstance(item, Sample) else item for item in prepared]

    def _score_one_recorded(self, sample: Sample, stop: threading.Event | None) -> MetricResult:
        check_stop(stop)
        try:
            return self._score_pass([sample], stop)[0]
        except Exception as exc:  # recorded with its traceback, never swallowed
            return MetricResult.failed(self.name, exc, sample_id=sample.id)


def sample_id_of(raw: Any) -> str | int | None:
    """The ``id`` of a Sample or of a raw mapping, when it is a valid ID."""
    value = raw.id if isinstance(raw, Sample) else raw.get("id") if isinstance(raw, Mapping) else None
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def check_batch_args(max_concurrency: int, on_error: str, *, what: str = "max_concurrency") -> None:
    """Raise ConfigurationError unless max_concurrency (named ``what``) is a positive int and on_error is
    record/raise."""
    if isinstance(max_concurrency, bool) or not isinstance(max_concurrency, int) or max_concurrency < 1:
        raise ConfigurationError(f"{what} must be a positive integer, got {max_concurrency!r}")
    if on_error not in ("record", "raise"):
        raise ConfigurationError(f"on_error must be 'record' or 'raise', got {on_error!r}")


def _as_float(result: MetricResult) -> float:
    return math.nan if result.value is None else float(result.value)


def setting_text(value: Any) -> str:
    """A setting as the command line writes it: ``true``, ``0.8``, ``partial``, a callable's name."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, Mapping):
        return "custom"
    return str(getattr(value, "__name__", type(value).__name__))


def settings_suffix(settings: Mapping[str, Any]) -> str:
    """``"(k=v,k2=v2)"`` for non-empty ``settings``, else ``""``."""
    if not settings:
        return ""
    return "(" + ",".join(f"{k}={setting_text(v)}" for k, v in settings.items()) + ")"
