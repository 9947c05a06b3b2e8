"""Sample: field types, ID rules, unknown fields, error messages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragrecall import InvalidSampleError, MissingFieldError, Sample, SingleTurnSample
from ragrecall.schema import id_key


def test_single_turn_sample_is_an_alias() -> None:
    assert SingleTurnSample is Sample


def test_all_fields_round_trip() -> None:
    data = {
        "id": "q1",
        "user_input": "Where is the Eiffel Tower?",
        "response": "In Paris.",
        "reference": "The Eiffel Tower is in Paris.",
        "retrieved_contexts": ["a", "b"],
        "reference_contexts": ["a"],
        "retrieved_context_ids": [1, "d2"],
        "reference_context_ids": ["1"],
        "relevance": {"1": 2, "d2": 0},
        "reference_claims": ["The Eiffel Tower is in Paris."],
        "reference_nuggets": [{"text": "The tower is in Paris.", "importance": "okay"}],
        "claim_labels": [True],
        "human_score": 1.0,
        "metadata": {"split": "dev"},
    }
    sample = Sample(**data)
    assert sample.model_dump() == data


@pytest.mark.parametrize("bad_id", [True, 1.0, None, ["x"]])
def test_ids_accept_only_str_and_int(bad_id: object) -> None:
    with pytest.raises(InvalidSampleError) as info:
        Sample(retrieved_context_ids=["a", bad_id])
    assert info.value.field == "retrieved_context_ids"
    assert "item [1]" in str(info.value)
    assert "str or int" in str(info.value)


def test_int_and_str_ids_compare_equal_as_keys() -> None:
    assert id_key(1) == id_key("1") == "1"


def test_unknown_field_suggests_the_close_one() -> None:
    with pytest.raises(InvalidSampleError) as info:
        Sample(retrieved_context=["a"])
    assert info.value.field == "retrieved_context"
    assert "did you mean 'retrieved_contexts'" in str(info.value)


def test_a_name_far_from_every_field_is_kept_in_metadata() -> None:
    sample = Sample(reference="x", category="books", idx=3, ids=[1], metadata={"source": "web"})
    assert sample.metadata == {"source": "web", "category": "books", "idx": 3, "ids": [1]}
    assert sample.to_dict() == {"reference": "x", "metadata": sample.metadata}


@pytest.mark.parametrize(
    ("key", "field"),
    [
        ("referense", "reference"),
        ("User_input", "user_input"),
        ("reference_context", "reference_contexts"),
        ("ID", "id"),
    ],
)
def test_a_name_one_edit_from_a_field_is_a_typo(key: str, field: str) -> None:
    with pytest.raises(InvalidSampleError, match=f"did you mean {field!r}") as info:
        Sample(**{key: "x"})
    assert info.value.field == key


def test_an_extra_key_clashing_with_a_metadata_key_is_refused() -> None:
    with pytest.raises(InvalidSampleError, match="'category' is also a key of metadata"):
        Sample(category="a", metadata={"category": "b"})


def test_to_dict_and_features_leave_absent_fields_out_in_ragas_order() -> None:
    sample = Sample(reference="r", user_input="q", retrieved_contexts=["c"])
    assert list(sample.to_dict()) == sample.get_features() == ["user_input", "retrieved_contexts", "reference"]


def test_single_string_for_a_list_field_says_to_wrap_it() -> None:
    with pytest.raises(InvalidSampleError) as info:
        Sample(retrieved_contexts="Paris is the capital of France.")
    message = str(info.value)
    assert info.value.field == "retrieved_contexts"
    assert "expected a list of strings" in message and "wrap a single passage in a list" in message


def test_non_string_context_names_item_and_record() -> None:
    with pytest.raises(InvalidSampleError) as info:
        Sample.from_dict({"id": "q7", "reference_contexts": ["ok", 3]}, where="line 4 of data.jsonl")
    assert str(info.value) == (
        "line 4 of data.jsonl (id='q7'): field 'reference_contexts': item [1]: expected a string, got 3 (int)"
    )
    assert info.value.where == "line 4 of data.jsonl (id='q7')"


def test_relevance_grades_must_be_integers() -> None:
    with pytest.raises(InvalidSampleError, match=r"integer grade for ID 'd1', got 1\.5"):
        Sample(relevance={"d1": 1.5})
    with pytest.raises(InvalidSampleError, match="integer grade"):
        Sample(relevance={"d1": True})
    assert Sample(relevance={7: 2}).relevance == {"7": 2}


def test_from_dict_rejects_non_mappings() -> None:
    with pytest.raises(InvalidSampleError, match="expected a mapping"):
        Sample.from_dict(["not", "a", "dict"], where="record 0")  # type: ignore[arg-type]


def test_require_names_the_missing_field_and_sample() -> None:
    sample = Sample(id="q9", retrieved_contexts=["a"])
    with pytest.raises(MissingFieldError) as info:
        sample.require("retrieved_contexts", "reference_contexts", where="sample 4")
    assert info.value.field == "reference_contexts"
    assert str(info.value).startswith("sample 4 (id='q9'): field 'reference_contexts': ")


def test_samples_are_frozen() -> None:
    sample = Sample(reference="x")
    with pytest.raises(Exception, match="frozen"):
        sample.reference = "y"  # type: ignore[misc]


def test_model_validate_also_rejects_unknown_fields() -> None:
    with pytest.raises(ValueError, match="did you mean 'reference'"):
        Sample.model_validate({"referense": "x"})


BOOLEAN = "true or false (a JSON boolean, not 1/0 or text)"


@pytest.mark.parametrize(
    ("labels", "score", "expected"),
    [
        (
            ["yes", "no"],
            None,
            "field 'claim_labels': item [0]: expected true or false (a JSON boolean, not 1/0 or text), got 'yes' (str)",
        ),
        (
            [1, 0],
            None,
            "field 'claim_labels': item [0]: expected true or false (a JSON boolean, not 1/0 or text), got 1 (int)",
        ),
        (None, "0.5", "field 'human_score': expected a number in [0, 1] (not text or true/false), got '0.5' (str)"),
        (None, True, "field 'human_score': expected a number in [0, 1] (not text or true/false), got True (bool)"),
        (None, 1.5, "field 'human_score': expected a number in [0, 1], got 1.5"),
    ],
)
def test_labels_are_booleans_and_scores_numbers_in_range(labels: Any, score: Any, expected: str, tmp_path: Any) -> None:
    from ragrecall import Dataset

    record: dict[str, Any] = {"id": "q7", "reference_claims": ["a", "b"], "retrieved_contexts": ["a"]}
    if labels is not None:
        record["claim_labels"] = labels
    if score is not None:
        record["human_score"] = score
    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps({"id": "q1", "human_score": 0.5}) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(InvalidSampleError) as info:
        Dataset.load(path)
    assert str(info.value) == f"line 2 of {path} (id='q7'): {expected}"
    assert Sample(human_score=1, claim_labels=[True, False], reference_claims=["a", "b"]).human_score == 1.0


def test_a_csv_score_cell_is_read_as_a_number_and_its_labels_as_json(tmp_path: Any) -> None:
    from ragrecall import Dataset

    path = tmp_path / "labels.csv"
    path.write_text('id,reference_claims,claim_labels,human_score\nq1,"[""a""]",[true],0.25\n', encoding="utf-8")
    (sample,) = Dataset.load(path)
    assert (sample.human_score, sample.claim_labels) == (0.25, [True])
    path.write_text('id,reference_claims,claim_labels,human_score\nq1,"[""a""]",[true],half\n', encoding="utf-8")
    with pytest.raises(InvalidSampleError, match=r"line 2 of .*labels.csv \(id='q1'\): field 'human_score': .* 'half'"):
        Dataset.load(path)


def test_reference_nuggets_read_bare_text_and_missing_importance_as_vital() -> None:
    sample = Sample(reference_nuggets=["a fact", {"text": "another"}, {"text": "a third", "importance": "okay"}])
    assert [(n.text, n.importance) for n in sample.reference_nuggets or []] == [
        ("a fact", "vital"),
        ("another", "vital"),
        ("a third", "okay"),
    ]


@pytest.mark.parametrize(
    ("nuggets", "words"),
    [
        ([{"text": "x", "importance": "big"}], "item [0]: expected 'vital' or 'okay' as its importance, got 'big'"),
        (["ok", 3], "item [1]: expected a string or"),
        ([{"text": "x", "weight": 1}], "item [0]: unknown key 'weight'"),
        (["ok", "  "], "item [1]: a nugget is blank"),
        ([{"importance": "vital"}], "item [0]: expected a non-empty string as the nugget's text"),
        ("one fact", "expected a list of nuggets"),
    ],
)
def test_bad_reference_nuggets_name_the_sample_and_item(nuggets: object, words: str) -> None:
    with pytest.raises(InvalidSampleError) as info:
        Sample.from_dict({"id": "q7", "reference_nuggets": nuggets}, where="line 3 of data.jsonl")
    message = str(info.value)
    assert info.value.field == "reference_nuggets"
    assert "\n" not in message and "line 3 of data.jsonl" in message and "q7" in message
    assert words in message
