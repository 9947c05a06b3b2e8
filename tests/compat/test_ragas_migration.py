"""A Ragas 0.4 context-recall script runs on ragrecall once its import lines say ragrecall instead of ragas.

The script (``ragas_04_script.py``) uses every call a Ragas user makes for context recall. The test rewrites
only its import lines, mechanically, runs it against the local OpenAI-compatible server (the real ``openai``
SDK, over HTTP on 127.0.0.1, no key) and checks the values and their types.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from helpers.ragas_swap import run_swapped
from ragrecall import Dataset, EvaluationResult, MetricResult, Sample

pd = pytest.importorskip("pandas")
pytest.importorskip("datasets")

SCRIPT = Path(__file__).with_name("ragas_04_script.py")


@pytest.fixture(scope="module")
def run() -> tuple[dict[str, Any], int]:
    return run_swapped(SCRIPT, lines=4)


def test_the_datasets_are_ragrecall_datasets_every_way_they_are_built(run: tuple[dict[str, Any], int]) -> None:
    g, _ = run
    dataset = g["dataset"]
    assert isinstance(dataset, Dataset) and len(dataset) == 3 and isinstance(dataset[0], Sample)
    assert g["first_sample"] == g["samples"][0]
    for other in ("from_list", "from_pandas", "from_hf"):
        assert g[other] == dataset, other
    assert g["records"][2] == {
        "user_input": "Who wrote Hamlet?",
        "response": "Shakespeare.",
        "reference": "Hamlet was written by William Shakespeare.",
        "retrieved_contexts": ["Macbeth is a tragedy."],
        "reference_contexts": ["Hamlet was written by William Shakespeare."],
        "retrieved_context_ids": ["doc-macbeth"],
        "reference_context_ids": [],
    }
    # Ragas's SingleTurnSample field order.
    assert list(g["frame"].columns) == [
        "user_input",
        "retrieved_contexts",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
        "response",
        "reference",
    ]


def test_evaluate_with_llm_gives_lists_of_floats_and_a_frame_with_the_inputs(run: tuple[dict[str, Any], int]) -> None:
    g, _ = run
    result = g["result"]
    assert isinstance(result, EvaluationResult)
    # The offline judge's claims are the reference's sentences: tower in Paris yes, 330 metres no; 1989 yes;
    # Hamlet no. ID recall of the third sample has nothing to recall: NaN, as Ragas gives, never 0.
    assert g["context_recall_scores"] == [0.5, 1.0, 0.0]
    assert all(type(v) is float for v in g["context_recall_scores"])
    assert g["id_scores"][:2] == [0.5, 1.0] and math.isnan(g["id_scores"][2])
    assert g["mean_context_recall"] == pytest.approx(0.5) and g["mean_id_recall"] == pytest.approx(0.75)
    assert result["non_llm_context_recall"] == [0.5, 1.0, 0.0]
    frame = g["result_frame"]
    # Ragas's layout: the dataset's columns, then one column per metric.
    assert list(frame.columns) == [
        *g["frame"].columns,
        "context_recall",
        "non_llm_context_recall",
        "id_based_context_recall",
    ]
    assert frame.loc[0, "retrieved_contexts"] == ["The Eiffel Tower is in Paris, on the Champ de Mars."]
    assert list(frame["context_recall"]) == [0.5, 1.0, 0.0]
    assert math.isnan(frame.loc[2, "id_based_context_recall"])
    details = result.to_pandas(details=True)
    assert details.loc[2, "id_based_context_recall:status"] == "unscorable"
    assert "reference_context_ids is empty" in details.loc[2, "id_based_context_recall:detail"]
    assert list(g["report"]["question"]) == [s.user_input for s in g["samples"]]


def test_single_turn_calls_return_floats_as_ragas_does(run: tuple[dict[str, Any], int]) -> None:
    g, _ = run
    assert type(g["single_llm_score"]) is float and g["single_llm_score"] == 0.5
    assert type(g["single_legacy_name_score"]) is float and g["single_legacy_name_score"] == 1.0
    assert type(g["single_string_score"]) is float and g["single_string_score"] == 0.5
    assert type(g["single_id_score"]) is float and math.isnan(g["single_id_score"])  # unscorable: NaN


def test_the_collections_api_returns_results_with_value(run: tuple[dict[str, Any], int]) -> None:
    g, requests = run
    assert isinstance(g["collections_result"], MetricResult) and g["collections_result"].value == 0.5
    assert all(isinstance(r, MetricResult) for r in g["collections_batch"])
    assert g["collections_values"] == [0.5, 1.0, 0.0]
    # Every LLM call went through the real SDK to the local server: 3 samples × (decompose + judge) in the
    # evaluation, 2 single calls, then 1 + 3 collection calls, each with two requests. Claims written word for
    # word in a passage are decided without the judge: "The Eiffel Tower is in Paris." (the 330 metres claim
    # still goes to the judge) and the Berlin Wall sample's only claim, which so needs no judge request in
    # any of the 3 calls that score it (the evaluation, the second single call, the collection batch).
    assert requests == 2 * (3 + 2 + 1 + 3) - 3
    stated = [row.results["context_recall"].evidence.stated for row in g["result"].rows]
    assert stated == [1, 1, 0]
