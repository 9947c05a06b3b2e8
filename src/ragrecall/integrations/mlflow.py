"""ragrecall's metrics as MLflow GenAI scorers, for ``mlflow.genai.evaluate`` and MLflow's monitoring.

Needs MLflow (the ``mlflow`` extra: ``pip install 'ragrecall[mlflow]'``, which brings ``mlflow-skinny`` and
pandas; a full ``mlflow`` install works the same). Wrap any metric::

    import mlflow
    from ragrecall import ContextRecall, IDBasedContextRecall, llm_factory
    from ragrecall.integrations.mlflow import RagrecallScorer

    scorers = [RagrecallScorer(ContextRecall(llm_factory("gpt-4o-mini"))), RagrecallScorer(IDBasedContextRecall())]
    mlflow.genai.evaluate(data=rows, predict_fn=my_app, scorers=scorers)

Where a sample's fields come from (MLflow's ``inputs``, ``outputs``, ``expectations`` and ``trace``):

- ``user_input``: ``inputs["user_input"]``, else ``inputs["question"]``, ``inputs["query"]`` or
  ``inputs["input"]``, or ``inputs`` itself when it is a string;
- ``response``: ``outputs`` when it is a string, else ``outputs["response"]``;
- ``retrieved_contexts`` and ``retrieved_context_ids``: from ``outputs`` when it is a mapping holding them, else
  from the trace's ``RETRIEVER`` spans, in span order: each document's ``page_content``, and its ``id`` (else
  its ``metadata["doc_uri"]``) when every document has one;
- ``reference``: ``expectations["reference"]``, else MLflow's ``expectations["expected_response"]``;
  ``reference_claims``: ``expectations["reference_claims"]``, else MLflow's ``expectations["expected_facts"]``;
- ``reference_contexts``, ``reference_context_ids``, ``relevance`` and ``id``: the expectations' keys of those
  names.

Each call gives one ``Feedback``: the metric's value, a rationale saying what was missed (claims, passages or
IDs), and in ``metadata`` the result's status and the evidence's counts. Nothing to measure is not zero: an
unscorable sample gives a feedback with no value and the reason as its rationale. A sample that cannot be
scored (a missing field, an LLM failure after its retries) gives a feedback whose ``error`` holds the cause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import PrivateAttr

from .._extras import need
from ..errors import InvalidSampleError, RagrecallError
from ..metrics.base import Metric
from ..results import MetricResult
from ..schema import Sample

need("mlflow.genai.scorers", "mlflow", "ragrecall.integrations.mlflow")

from mlflow.entities import AssessmentSource, AssessmentSourceType, Feedback, SpanType, Trace  # noqa: E402
from mlflow.genai.scorers import Scorer  # noqa: E402

__all__ = ["RagrecallScorer", "sample_from_mlflow", "scorers"]

_QUESTION_KEYS = ("user_input", "question", "query", "input")
_PASSED_EXPECTATIONS = ("reference_contexts", "reference_context_ids", "relevance", "id")
_SHOWN_MISSING = 5
"""How many missed items a rationale names before it says how many more there are."""


class RagrecallScorer(Scorer):
    """An MLflow GenAI scorer that scores each row with one ragrecall metric.

    Args:
        metric: the metric; its ``name`` is the scorer's name unless ``name`` is given.
        name: the name MLflow shows (and prefixes its aggregates with: ``context_recall/mean``).
    """

    _metric: Metric = PrivateAttr()

    def __init__(self, metric: Metric, *, name: str | None = None) -> None:
        if not isinstance(metric, Metric):
            raise TypeError(f"RagrecallScorer wraps a ragrecall metric, got {type(metric).__name__}")
        super().__init__(name=name or metric.name)
        self._metric = metric

    @property
    def metric(self) -> Metric:
        """The wrapped metric."""
        return self._metric

    def __call__(
        self,
        *,
        inputs: Any = None,
        outputs: Any = None,
        expectations: dict[str, Any] | None = None,
        trace: Trace | None = None,
        session: list[Trace] | None = None,
    ) -> Feedback:
        """Score one row: the sample built by :func:`sample_from_mlflow`, as a ``Feedback``. ``session`` (a
        conversation's traces) is not read: a ragrecall metric scores one retrieval at a time."""
        source = _source(self._metric)
        try:
            sample = sample_from_mlflow(inputs=inputs, outputs=outputs, expectations=expectations, trace=trace)
            result = self._metric.score(sample)
        except (RagrecallError, ValueError, TypeError) as exc:
            return Feedback(name=self.name, error=exc, source=source)
        return feedback_from_result(result, name=self.name, source=source)


def scorers(metrics: Sequence[Metric]) -> list[RagrecallScorer]:
    """One :class:`RagrecallScorer` per metric, named as the metrics are."""
    return [RagrecallScorer(metric) for metric in metrics]


def sample_from_mlflow(
    *,
    inputs: Any = None,
    outputs: Any = None,
    expectations: Mapping[str, Any] | None = None,
    trace: Trace | None = None,
) -> Sample:
    """The :class:`~ragrecall.Sample` an MLflow row describes (the module's docstring lists where each field
    comes from).

    Raises:
        InvalidSampleError: a field holds a value of the wrong type (naming the field), or ``trace`` is not an
            MLflow ``Trace``.
    """
    if trace is not None and not isinstance(trace, Trace):
        expected = f"expected an mlflow.entities.Trace (or None), got {type(trace).__name__}"
        raise InvalidSampleError(expected, where="MLflow row", field="trace")
    fields: dict[str, Any] = {}
    if isinstance(inputs, str):
        fields["user_input"] = inputs
    elif isinstance(inputs, Mapping):
        question = next((inputs[k] for k in _QUESTION_KEYS if inputs.get(k) is not None), None)
        if question is not None:
            fields["user_input"] = str(question)
    if isinstance(outputs, str):
        fields["response"] = outputs
    elif isinstance(outputs, Mapping):
        for key in ("response", "retrieved_contexts", "retrieved_context_ids"):
            if outputs.get(key) is not None:
                fields[key] = outputs[key]
    if "retrieved_contexts" not in fields and trace is not None:
        fields.update(_retrieved_from_trace(trace))
    expected = dict(expectations or {})
    reference = expected.get("reference", expected.get("expected_response"))
    if reference is not None:
        fields["reference"] = reference
    claims = expected.get("reference_claims", expected.get("expected_facts"))
    if claims is not None:
        fields["reference_claims"] = claims
    fields.update({key: expected[key] for key in _PASSED_EXPECTATIONS if expected.get(key) is not None})
    return Sample(**fields)


def feedback_from_result(result: MetricResult, *, name: str, source: AssessmentSource | None = None) -> Feedback:
    """A ``Feedback`` carrying ``result``: its value (None when unscorable), a rationale, and in ``metadata`` its
    status and the evidence's counts."""
    metadata: dict[str, Any] = {"status": result.status}
    if result.evidence is not None:
        metadata.update(result.evidence.counts())
    if result.failure is not None:
        return Feedback(
            name=name, error=f"{result.failure.type}: {result.failure.message}", source=source, metadata=metadata
        )
    if result.value is None:
        rationale = f"unscorable: {result.reason}"
    else:
        missing = result.evidence.missing_items() if result.evidence is not None else []
        rationale = f"{result.metric} = {result.value:.4f}"
        if missing:
            more = len(missing) - _SHOWN_MISSING
            rationale += "; missing " + "; ".join(missing[:_SHOWN_MISSING]) + (f"; and {more} more" if more > 0 else "")
    return Feedback(name=name, value=result.value, rationale=rationale, source=source, metadata=metadata)


def _source(metric: Metric) -> AssessmentSource:
    """An LLM judge's model for metrics that ask one; the metric's class for those computed in code."""
    model = metric.settings().get("model")
    if model:
        return AssessmentSource(source_type=AssessmentSourceType.LLM_JUDGE, source_id=str(model))
    return AssessmentSource(source_type=AssessmentSourceType.CODE, source_id=type(metric).__name__)


def _retrieved_from_trace(trace: Trace) -> dict[str, list[str]]:
    """The documents of the trace's retriever spans: their text, and their ids when every one has one."""
    texts: list[str] = []
    ids: list[str | None] = []
    # SpanType's members are plain strings, which the method's annotation does not say.
    for span in trace.search_spans(span_type=SpanType.RETRIEVER):  # type: ignore[arg-type]
        for document in span.outputs or []:
            if isinstance(document, Mapping):
                texts.append(str(document.get("page_content", "")))
                meta = document.get("metadata") or {}
                found = document.get("id") or (meta.get("doc_uri") if isinstance(meta, Mapping) else None)
                ids.append(None if found is None else str(found))
            else:
                texts.append(str(document))
                ids.append(None)
    out: dict[str, list[str]] = {"retrieved_contexts": texts} if texts else {}
    if texts and all(i is not None for i in ids):
        out["retrieved_context_ids"] = [i for i in ids if i is not None]
    return out
