"""The second Ragas 0.4 script runs on ragrecall by import swap, with Ragas's values, column names and types.

Expected values are computed here as Ragas computes them (rapidfuzz's normalised distances; ``>`` threshold for
string recall), independently of ragrecall's metric code.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz.distance import Hamming, JaroWinkler, Levenshtein

from helpers.ragas_swap import run_swapped
from ragrecall import EvaluationDataset, EvaluationResult, MetricResult

pd = pytest.importorskip("pandas")
pytest.importorskip("datasets")

SCRIPT = Path(__file__).with_name("ragas_04_script_2.py")


@pytest.fixture(scope="module")
def g() -> dict[str, Any]:
    return run_swapped(SCRIPT, lines=4)[0]


def ragas_string_recall(retrieved: list[str], reference: list[str], threshold: float) -> float:
    best = [max(1 - Levenshtein.normalized_distance(rc, ref) for rc in retrieved) for ref in reference]
    return sum(b > threshold for b in best) / len(best)


def test_datasets_round_trip_with_ragas_features_and_dicts(g: dict[str, Any]) -> None:
    records = g["records"]
    assert type(g["dataset"]).__name__ == "EvaluationDataset" and isinstance(g["dataset"], EvaluationDataset)
    assert g["features"] == ["user_input", "retrieved_contexts", "reference_contexts", "response", "reference"]
    assert g["first_as_dict"] == records[0] and list(g["first_as_dict"]) == g["features"]
    assert g["hf_dataset"].column_names == g["features"] and g["hf_dataset"].num_rows == 3
    assert g["from_hf"] == g["dataset"] == g["from_jsonl"]


def test_evaluate_names_columns_as_ragas_whatever_the_settings(g: dict[str, Any]) -> None:
    result, records = g["result"], g["records"]
    assert isinstance(result, EvaluationResult)
    assert result.metrics == ("non_llm_context_recall", "non_llm_string_similarity", "context_recall")
    expected_recall = [ragas_string_recall(r["retrieved_contexts"], r["reference_contexts"], 0.6) for r in records]
    assert g["string_recall"] == expected_recall == [1.0, 0.5, 0.0]
    expected_similarity = [1 - Levenshtein.normalized_distance(r["reference"], r["response"]) for r in records]
    assert g["similarity"] == pytest.approx(expected_similarity) and g["nan_free"]
    assert all(type(v) is float for v in g["similarity"])
    assert list(g["frame"].columns) == [*g["features"], *result.metrics]
    assert g["scores"] == [{m: result[m][i] for m in result.metrics} for i in range(3)]
    assert all(type(v) is float for row in g["scores"] for v in row.values())
    assert g["scored_dataset"] == g["dataset"] and type(g["scored_dataset"]).__name__ == "EvaluationDataset"
    means = {m: sum(result[m]) / 3 for m in result.metrics}
    assert g["printed"] == "{" + ", ".join(f"'{m}': {v:0.4f}" for m, v in means.items()) + "}"
    assert g["context_recall_mean"] == pytest.approx(means["context_recall"])


def test_string_similarity_gives_ragas_numbers_for_every_distance(g: dict[str, Any]) -> None:
    reference, response = g["sample"].reference, g["sample"].response
    assert g["jaro_winkler"] == pytest.approx(1 - JaroWinkler.normalized_distance(reference, response))
    assert g["hamming"] == pytest.approx(1 - Hamming.normalized_distance(reference, response))
    assert type(g["jaro_winkler"]) is float and type(g["hamming"]) is float
    assert g["collections_value"] == pytest.approx(1 - Levenshtein.normalized_distance(reference, response))
    assert not math.isnan(g["collections_value"])


def test_the_batch_size_bounds_the_run_without_changing_values(g: dict[str, Any]) -> None:
    from ragrecall import ConfigurationError, evaluate
    from ragrecall.metrics import NonLLMStringSimilarity

    with pytest.raises(ConfigurationError, match="batch_size must be a positive integer, got 0"):
        evaluate(g["dataset"], [NonLLMStringSimilarity()], batch_size=0, show_progress=False)
    empty_reference = [{"reference": "", "response": "x"}, {"response": "x"}]  # unscorable, then an input error
    recorded = evaluate(empty_reference, [NonLLMStringSimilarity()], raise_exceptions=False, show_progress=False)
    assert [r.status for r in recorded.results("non_llm_string_similarity")] == ["unscorable", "failed"]
    with pytest.raises(ValueError, match="field 'reference'"):
        evaluate(empty_reference, [NonLLMStringSimilarity()], raise_exceptions=True, show_progress=False)
    again = evaluate(g["dataset"], [NonLLMStringSimilarity()], batch_size=1, show_progress=False)
    assert again["non_llm_string_similarity"] == g["similarity"]
    assert isinstance(again.results("non_llm_string_similarity")[0], MetricResult)
