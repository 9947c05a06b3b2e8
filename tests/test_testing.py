"""assert_recall: passes quietly, fails with the samples and what they missed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall import IDBasedContextRecall, NonLLMContextRecall, Sample
from ragrecall.testing import assert_recall

GOOD = {"id": "good", "retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "b"]}
HALF = {"id": "half", "retrieved_context_ids": ["a"], "reference_context_ids": ["a", "zz"]}
NONE = {"id": "none", "retrieved_context_ids": ["x"], "reference_context_ids": ["q1", "q2"]}


def test_passes_and_returns_results() -> None:
    results = assert_recall([GOOD, HALF], IDBasedContextRecall(), at_least=0.75)
    assert [r.value for r in results] == [1.0, 0.5]


def test_mean_failure_lists_worst_samples_with_missing_ids() -> None:
    with pytest.raises(AssertionError) as info:
        assert_recall([GOOD, HALF, NONE], IDBasedContextRecall(), at_least=0.9)
    lines = str(info.value).splitlines()
    assert lines[0] == "id_based_context_recall: mean 0.500 over 3 scored samples, expected at least 0.9"
    assert lines[1] == "- sample 2 (id='none'): 0.000; missing ID 'q1', ID 'q2'"
    assert lines[2] == "- sample 1 (id='half'): 0.500; missing ID 'zz'"


def test_per_sample_mode_and_failed_samples() -> None:
    with pytest.raises(AssertionError) as info:
        assert_recall([GOOD, HALF, {"id": "broken"}], IDBasedContextRecall(), at_least=0.4, per_sample=True)
    message = str(info.value)
    assert message.startswith("id_based_context_recall: 0 of 2 scored samples under 0.4")
    assert "- sample 2 (id='broken'): failed: MissingFieldError" in message


def test_string_recall_names_missed_passages() -> None:
    sample = {"retrieved_contexts": ["Paris is the capital."], "reference_contexts": ["Paris is the capital.", "zzz"]}
    with pytest.raises(AssertionError, match=r"missing reference passage 'zzz' \(best similarity 0\.00 < 0\.5\)"):
        assert_recall([sample], NonLLMContextRecall(), at_least=1.0)
    long = "The committee approved the budget of 1.2 million euros for the new library   after a long debate."
    sample = {"retrieved_contexts": ["Paris."], "reference_contexts": [long]}
    with pytest.raises(AssertionError) as info:
        assert_recall([Sample(**sample)], NonLLMContextRecall(), at_least=1.0)
    quoted = "'The committee approved the budget of 1.2 million euros for the new library afte…'"
    assert str(info.value).splitlines()[1].startswith(f"- sample 0: 0.000; missing reference passage {quoted}")


def test_pytest_shows_the_callers_line_not_the_helpers_source(tmp_path: Path) -> None:
    test = tmp_path / "test_retrieval.py"
    test.write_text(
        "from ragrecall import IDBasedContextRecall\n"
        "from ragrecall.testing import assert_recall\n\n"
        "def test_retriever():\n"
        "    assert_recall([{'retrieved_context_ids': ['a'], 'reference_context_ids': ['a', 'b']}],\n"
        "                  IDBasedContextRecall(), at_least=0.9)\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 1
    assert "missing ID 'b'" in done.stdout
    assert "def assert_recall" not in done.stdout and "ragrecall/testing.py" not in done.stdout
    assert "IDBasedContextRecall(), at_least=0.9)" in done.stdout  # the failing line of the user's test


def test_truncates_long_lists_and_checks_bound() -> None:
    with pytest.raises(AssertionError, match=r"\.\.\. and 8 more"):
        assert_recall([NONE] * 10, IDBasedContextRecall(), at_least=0.5, max_listed=2)
    with pytest.raises(ValueError, match="at_least must be in"):
        assert_recall([GOOD], IDBasedContextRecall(), at_least=2)
