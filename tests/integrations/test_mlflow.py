"""ragrecall metrics as MLflow GenAI scorers, against the real MLflow package (mlflow-skinny): called through the
Scorer base class's ``run`` and inside ``mlflow.genai.evaluate`` with a traced app whose retriever span MLflow
records, on a local file store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# No usage reports from MLflow in tests: nothing may leave the machine.
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
os.environ.setdefault("DO_NOT_TRACK", "true")

mlflow = pytest.importorskip("mlflow.genai.scorers", reason="MLflow is not installed (the mlflow extra)")

from mlflow.entities import AssessmentSourceType, Document, SpanType  # noqa: E402

from ragrecall import ContextRecall, IDBasedContextRecall, NonLLMContextRecall, OfflineJudge  # noqa: E402
from ragrecall.integrations.mlflow import RagrecallScorer, sample_from_mlflow, scorers  # noqa: E402

PASSAGES = {
    "d1": "The Eiffel Tower is in Paris, on the Champ de Mars.",
    "d2": "The Louvre is the world's most visited museum.",
}


def test_id_recall_through_the_scorer_base_class() -> None:
    scorer = RagrecallScorer(IDBasedContextRecall())
    feedback = scorer.run(
        inputs={"question": "Where is the tower?"},
        outputs={"retrieved_context_ids": ["d1", "d9"]},
        expectations={"reference_context_ids": ["d1", "d2"]},
    )
    assert scorer.name == "id_based_context_recall" and feedback.name == "id_based_context_recall"
    assert feedback.value == 0.5 and feedback.error is None
    assert feedback.rationale == "id_based_context_recall = 0.5000; missing ID 'd2'"
    assert feedback.metadata == {"status": "scored"}
    assert feedback.source.source_type == AssessmentSourceType.CODE
    assert feedback.source.source_id == "IDBasedContextRecall"


def test_claim_recall_names_its_judge_and_counts() -> None:
    scorer = RagrecallScorer(ContextRecall(OfflineJudge()), name="recall")
    feedback = scorer.run(
        inputs="Where is the Eiffel Tower, and how tall is it?",
        outputs={"retrieved_contexts": [PASSAGES["d1"]]},
        expectations={"expected_response": "The Eiffel Tower is in Paris. It is 330 metres tall."},
    )
    direct = ContextRecall(OfflineJudge()).score(
        reference="The Eiffel Tower is in Paris. It is 330 metres tall.", retrieved_contexts=[PASSAGES["d1"]]
    )
    assert feedback.name == "recall" and feedback.value == direct.value == 0.5
    assert feedback.source.source_type == AssessmentSourceType.LLM_JUDGE
    assert feedback.source.source_id == "offline-lexical-judge"
    assert feedback.metadata is not None and feedback.metadata["claims"] == 2 and feedback.metadata["supported"] == 1
    assert feedback.rationale is not None and "It is 330 metres tall." in feedback.rationale


def test_expected_facts_are_the_claims() -> None:
    sample = sample_from_mlflow(
        outputs={"retrieved_contexts": ["a"]}, expectations={"expected_facts": ["Paris is in France."], "id": 7}
    )
    assert sample.reference_claims == ["Paris is in France."] and sample.id == 7 and sample.reference is None


def test_nothing_to_measure_has_no_value_and_a_missing_field_is_an_error() -> None:
    scorer = RagrecallScorer(IDBasedContextRecall())
    empty = scorer.run(outputs={"retrieved_context_ids": ["d1"]}, expectations={"reference_context_ids": []})
    assert empty.value is None and empty.error is None
    assert empty.rationale is not None and empty.rationale.startswith("unscorable: ")
    assert empty.metadata == {"status": "unscorable"}
    missing = scorer.run(outputs={"retrieved_context_ids": ["d1"]}, expectations={})
    assert missing.value is None and missing.error is not None
    assert missing.error.error_code == "MissingFieldError"
    assert "reference_context_ids" in (missing.error.error_message or "")
    bad = scorer.run(outputs={"retrieved_context_ids": "d1"}, expectations={"reference_context_ids": ["d1"]})
    assert bad.error is not None and "retrieved_context_ids" in (bad.error.error_message or "")


@pytest.mark.parametrize("trace", ["tr-123", {"spans": []}, 7])
def test_a_trace_that_is_not_a_trace_is_a_feedback_error(trace: Any) -> None:
    scorer = RagrecallScorer(IDBasedContextRecall())
    for feedback in (
        scorer(expectations={"reference_context_ids": ["d1"]}, trace=trace),
        scorer.run(expectations={"reference_context_ids": ["d1"]}, trace=trace),
    ):
        assert feedback.value is None and feedback.error is not None
        assert feedback.error.error_code == "InvalidSampleError"
        message = feedback.error.error_message or ""
        expected = f"expected an mlflow.entities.Trace (or None), got {type(trace).__name__}"
        assert message == f"MLflow row: field 'trace': {expected}"


def test_only_metrics_are_wrapped() -> None:
    with pytest.raises(TypeError, match="wraps a ragrecall metric, got str"):
        RagrecallScorer("context_recall")  # type: ignore[arg-type]
    assert [s.name for s in scorers([IDBasedContextRecall(), NonLLMContextRecall()])] == [
        "id_based_context_recall",
        "non_llm_context_recall",
    ]


def test_evaluate_reads_the_retriever_span_of_a_traced_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mlflow as ml

    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.setenv("MLFLOW_GENAI_EVAL_SKIP_TRACE_VALIDATION", "true")
    ml.set_tracking_uri((tmp_path / "mlruns").as_uri())

    @ml.trace(span_type=SpanType.RETRIEVER)
    def retrieve(question: str) -> list[Document]:
        found = ["d1"] if "tower" in question else ["d2", "d1"]
        return [Document(page_content=PASSAGES[d], metadata={"doc_uri": d}, id=d) for d in found]

    @ml.trace
    def app(question: str) -> str:
        return " ".join(doc.page_content for doc in retrieve(question))

    rows: list[dict[str, Any]] = [
        {
            "inputs": {"question": "Where is the tower?"},
            "expectations": {
                "reference_context_ids": ["d1", "d2"],
                "expected_response": "The Eiffel Tower is in Paris.",
            },
        },
        {
            "inputs": {"question": "Which museum is most visited?"},
            "expectations": {"reference_context_ids": ["d2"], "expected_response": "The Louvre is the most visited."},
        },
    ]
    result = ml.genai.evaluate(
        data=rows, predict_fn=app, scorers=scorers([IDBasedContextRecall(), ContextRecall(OfflineJudge())])
    )
    assert result.metrics["id_based_context_recall/mean"] == pytest.approx((0.5 + 1.0) / 2)
    expected = [
        ContextRecall(OfflineJudge()).score(reference=r["expectations"]["expected_response"], retrieved_contexts=c)
        for r, c in zip(rows, [[PASSAGES["d1"]], [PASSAGES["d2"], PASSAGES["d1"]]], strict=True)
    ]
    values = [r.value for r in expected if r.value is not None]
    assert result.metrics["context_recall/mean"] == pytest.approx(sum(values) / len(values))


def test_without_mlflow_the_import_names_the_extra() -> None:
    code = "import sys; sys.modules['mlflow'] = None; import ragrecall.integrations.mlflow"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ragrecall.errors.MissingExtraError: ragrecall.integrations.mlflow needs mlflow, in the mlflow extra: "
        "pip install 'ragrecall[mlflow]'"
    )
