"""The third Ragas 0.4 script (RunConfig, token_usage_parser, experiment_name, total_tokens, total_cost) runs on
ragrecall by import swap, with Ragas's values; what it sets reaches the run, and what has no effect says so once."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz.distance import Levenshtein

from helpers.ragas_swap import run_swapped
from ragrecall import EvaluationResult, FakeLLM, RunConfig, evaluate
from ragrecall.cost import TokenUsage
from ragrecall.errors import ConfigurationError, FailedSamplesWarning, TransportError
from ragrecall.llm import LLMStack, RetryPolicy
from ragrecall.metrics import ContextRecall

SCRIPT = Path(__file__).with_name("ragas_04_script_3.py")


@pytest.fixture(scope="module")
def run() -> tuple[dict[str, Any], int, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g, requests = run_swapped(SCRIPT, lines=4)
    return g, requests, list(caught)


def test_the_script_runs_with_ragas_values(run: tuple[dict[str, Any], int, list[Any]]) -> None:
    g, requests, _ = run
    result = g["result"]
    assert isinstance(result, EvaluationResult)
    assert g["context_recall"] == [0.5, 1.0, 0.0]  # as the first script: one of two claims, one of one, none
    expected = [
        sum(
            max(1 - Levenshtein.normalized_distance(rc, ref) for rc in r["retrieved_contexts"]) > 0.5
            for ref in r["reference_contexts"]
        )
        / len(r["reference_contexts"])
        for r in g["records"]
    ]
    assert g["string_recall"] == expected
    means = {m: sum(result[m]) / 3 for m in result.metrics}
    assert g["printed"] == "{" + ", ".join(f"'{m}': {v:0.4f}" for m, v in means.items()) + "}"
    assert requests > 0


def test_usage_cost_and_the_runs_name(run: tuple[dict[str, Any], int, list[Any]]) -> None:
    g, _, _ = run
    result, tokens = g["result"], g["tokens"]
    assert isinstance(tokens, TokenUsage)
    assert tokens.input_tokens == result.usage.prompt_tokens > 0
    assert tokens.output_tokens == result.usage.completion_tokens > 0
    assert g["cost"] == pytest.approx(tokens.input_tokens * 5e-6 + tokens.output_tokens * 15e-6)
    assert result.run.name == "retriever-bm25"


def test_what_has_no_effect_is_said_once(run: tuple[dict[str, Any], int, list[Any]]) -> None:
    _, _, caught = run
    idle = [w for w in caught if "accepted with no effect" in str(w.message)]
    assert len(idle) == 1
    assert "token_usage_parser (ragrecall counts every request's tokens itself)" in str(idle[0].message)
    assert not [w for w in caught if issubclass(w.category, FailedSamplesWarning)]


def test_run_config_sets_workers_and_the_retry_policy() -> None:
    with pytest.raises(ConfigurationError, match=r"RunConfig.max_workers must be a number >= 1, got 0"):
        RunConfig(max_workers=0)
    # A judge that always times out: with max_retries=1 each request gets two attempts, not the stack's six.
    attempts: list[int] = []

    def failing(request: Any) -> Any:
        attempts.append(1)
        return TransportError("no answer", kind="timeout", retryable=True)

    policy = RetryPolicy(max_attempts=6, initial_wait=0, jitter=0)
    llm = LLMStack(FakeLLM(failing), retry=policy, breaker_threshold=None)
    sample = {"reference": "A is B.", "retrieved_contexts": ["A is B, says the text."], "reference_claims": ["A is C."]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate([sample], [ContextRecall(llm)], run_config=RunConfig(max_retries=1), show_progress=False)
    assert result.results("context_recall")[0].status == "failed"
    assert len(attempts) == 2
    failed = [w for w in caught if issubclass(w.category, FailedSamplesWarning)]
    assert len(failed) == 1
    assert failed[0].filename == __file__  # it names the line that called evaluate()
    text = str(failed[0].message)
    assert text.startswith("evaluate() finished with failures, kept apart from the scores")
    assert "context_recall: 1 of 1 samples failed (LLMRequestError ×1); first, sample 0:" in text
    assert text.endswith("Every failure with its type and message: result.failures")
    assert str(result) == "{'context_recall': nan}"


def test_ragas_module_names_for_the_run_settings() -> None:
    from ragrecall.cost import get_token_usage_for_openai
    from ragrecall.run_config import RunConfig as FromModule

    assert FromModule is RunConfig
    usage = get_token_usage_for_openai(
        type("Reply", (), {"usage": type("U", (), {"prompt_tokens": 7, "completion_tokens": 3})()})()
    )
    assert (usage.input_tokens, usage.output_tokens) == (7, 3)
    assert usage.cost(1e-6, 2e-6) == pytest.approx(7e-6 + 6e-6)
