"""compare(): paired on the samples both runs scored."""

from __future__ import annotations

import pytest

from ragrecall import IDBasedContextRecall, InputError
from ragrecall.evaluation import compare, evaluate

METRIC = IDBasedContextRecall()


def run(retrieved: list[list[str]], ids: bool = True) -> object:
    samples = [
        {**({"id": f"q{i}"} if ids else {}), "retrieved_context_ids": r, "reference_context_ids": ["a", "b"]}
        for i, r in enumerate(retrieved)
    ]
    return evaluate(samples, [METRIC], show_progress=False)


def test_better_system_has_positive_difference_and_small_p() -> None:
    a = run([["a"]] * 30)  # 0.5 each
    b = run([["a", "b"]] * 25 + [["a"]] * 5)  # mostly 1.0
    result = compare(a, b, METRIC.name)  # type: ignore[arg-type]
    assert result.paired == 30
    assert result.mean_a == 0.5 and result.mean_difference == pytest.approx(25 * 0.5 / 30)
    assert result.ci_low is not None and result.ci_high is not None and 0 < result.ci_low <= result.ci_high
    assert result.p_value is not None and result.p_value < 0.001
    assert "B − A +0.4167" in str(result)


def test_only_samples_scored_in_both_are_paired() -> None:
    a = run([["a"], ["a"], ["a"]])
    samples = [
        {"id": "q0", "retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "b"]},
        {"id": "q1", "retrieved_context_ids": ["a"], "reference_context_ids": []},  # unscorable
        {"id": "q2"},  # failed
    ]
    b = evaluate(samples, [METRIC], show_progress=False)
    result = compare(a, b, METRIC.name)  # type: ignore[arg-type]
    assert result.paired == 1 and result.mean_difference == 0.5
    assert (result.failed_a, result.unscorable_a, result.failed_b, result.unscorable_b) == (0, 0, 1, 1)
    assert str(result).endswith("over 1 paired samples; not scored: A 0 failed, 0 unscorable; B 1 failed, 1 unscorable")


def test_pairs_by_id_not_position() -> None:
    a = run([["a"], ["a", "b"]])
    samples = [
        {"id": "q1", "retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "b"]},
        {"id": "q0", "retrieved_context_ids": ["a"], "reference_context_ids": ["a", "b"]},
    ]
    b = evaluate(samples, [METRIC], show_progress=False)
    assert compare(a, b, METRIC.name).mean_difference == 0.0  # type: ignore[arg-type]


def test_without_ids_sizes_must_match() -> None:
    with pytest.raises(InputError, match="cannot pair the runs"):
        compare(run([["a"]], ids=False), run([["a"], ["b"]], ids=False), METRIC.name)  # type: ignore[arg-type]


def test_unknown_metric() -> None:
    with pytest.raises(KeyError, match="no metric named 'nope'"):
        compare(run([["a"]]), run([["a"]]), "nope")  # type: ignore[arg-type]
