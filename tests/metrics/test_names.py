"""Every metric takes name=; without it, the name is Ragas's column name whatever the settings, and metrics built
from a command-line spec carry the settings that differ from the defaults."""

from __future__ import annotations

from typing import Any

import pytest

from ragrecall import (
    ConfigurationError,
    ContextRecall,
    FakeLLM,
    IDBasedContextRecall,
    LLMContextRecall,
    NonLLMContextRecall,
    OfflineJudge,
    RankingMetric,
    evaluate,
)

SAMPLE: dict[str, Any] = {
    "id": "s1",
    "reference": "Paris is the capital of France.",
    "retrieved_contexts": ["Paris is the capital of France."],
    "reference_contexts": ["Paris is the capital of France."],
    "retrieved_context_ids": ["a"],
    "reference_context_ids": ["a", "b"],
}


@pytest.mark.parametrize(
    ("metric", "default"),
    [
        (IDBasedContextRecall(), "id_based_context_recall"),
        (IDBasedContextRecall(k=5), "id_based_context_recall@5"),
        (NonLLMContextRecall(), "non_llm_context_recall"),
        (NonLLMContextRecall(threshold=0.8), "non_llm_context_recall"),
        (NonLLMContextRecall(scorer="partial", normalize=True), "non_llm_context_recall"),
        (NonLLMContextRecall(max_chars=1000), "non_llm_context_recall"),  # a size limit never changes a value
        (ContextRecall(OfflineJudge()), "context_recall"),
        (ContextRecall(OfflineJudge(), mode="single"), "context_recall"),
        (ContextRecall(OfflineJudge(), quote_threshold=0.8, coverage=False), "context_recall"),
        (ContextRecall(OfflineJudge(), max_repairs=0, claims_per_call=5), "context_recall"),  # cost, not meaning
        (RankingMetric("nDCG@10"), "nDCG@10"),
    ],
)
def test_default_names_are_ragas_column_names_and_name_overrides(metric: Any, default: str) -> None:
    assert metric.name == default and not metric.named_by_user
    assert metric.score(SAMPLE).metric == default
    named = type(metric)(**{**_init(metric), "name": "mine"})
    assert named.name == "mine" and named.named_by_user and named.score(SAMPLE).metric == "mine"
    assert named.settings() == metric.settings()  # the name is not a setting: checkpoints stay valid


def _init(metric: Any) -> dict[str, Any]:
    import dataclasses

    return {f.name: getattr(metric, f.name) for f in dataclasses.fields(metric) if f.init and f.name != "name"}


def test_settings_names_parse_back_on_the_command_line() -> None:
    from ragrecall.metric_specs import parse_metric

    for metric in (NonLLMContextRecall(threshold=0.8, scorer="partial"), IDBasedContextRecall(k=3)):
        parsed = parse_metric(metric.settings_name())
        assert parsed.name == metric.settings_name() and not parsed.named_by_user
    assert NonLLMContextRecall(threshold=0.8, scorer="partial").settings_name() == (
        "non_llm_context_recall(threshold=0.8,scorer=partial)"
    )
    judge = ContextRecall(OfflineJudge(), quote_threshold=0.8, coverage=False)
    assert judge.settings_name() == "context_recall(quote_threshold=0.8,coverage=false)"


@pytest.mark.parametrize("bad", [3, " padded", "two\nlines"])
def test_a_bad_name_is_refused(bad: Any) -> None:
    with pytest.raises(ConfigurationError, match="name must be"):
        NonLLMContextRecall(name=bad)


def test_two_thresholds_in_one_evaluation_never_collide() -> None:
    result = evaluate([SAMPLE], [NonLLMContextRecall(), NonLLMContextRecall(threshold=0.99)], show_progress=False)
    assert result.metrics == ("non_llm_context_recall(threshold=0.5)", "non_llm_context_recall(threshold=0.99)")
    alone = evaluate([SAMPLE], [NonLLMContextRecall(threshold=0.6)], show_progress=False)
    assert alone.metrics == ("non_llm_context_recall",)  # Ragas's column, whatever the settings


def test_two_judges_in_one_evaluation_are_set_apart_by_model() -> None:
    a, b = OfflineJudge(model_name="judge-a"), OfflineJudge(model_name="judge-b")
    result = evaluate([SAMPLE], [ContextRecall(a), ContextRecall(b)], show_progress=False)
    assert result.metrics == ("context_recall(model=judge-a)", "context_recall(model=judge-b)")
    assert [r.metric for r in result.rows[0].results.values()] == list(result.metrics)
    single = evaluate([SAMPLE], [ContextRecall(a, mode="single"), ContextRecall(b, mode="single")], show_progress=False)
    assert single.metrics == ("context_recall(model=judge-a)", "context_recall(model=judge-b)")


def test_names_chosen_alike_or_metrics_alike_are_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"two metrics are named 'x'; .* give each a name="):
        evaluate([SAMPLE], [NonLLMContextRecall(name="x"), IDBasedContextRecall(name="x")], show_progress=False)
    with pytest.raises(ConfigurationError, match=r"two metrics are named 'id_based_context_recall'"):
        evaluate([SAMPLE], [IDBasedContextRecall(), IDBasedContextRecall()], show_progress=False)


def test_evaluate_gives_its_llm_to_llm_metrics_without_one() -> None:
    judge, own = OfflineJudge(model_name="given"), FakeLLM([], model_name="own")
    metric = LLMContextRecall(name="mine")
    result = evaluate([SAMPLE], [metric, LLMContextRecall()], llm=judge, show_progress=False)
    assert result.metrics == ("mine", "context_recall")
    assert result.results("mine")[0].evidence.model == "given"  # type: ignore[union-attr]
    assert metric.llm is None  # the caller's metric is left as it was
    kept = ContextRecall(own, mode="single")
    with pytest.raises(ConfigurationError, match=r"two metrics are named"):
        evaluate([SAMPLE], [kept, kept], llm=judge, show_progress=False)


def test_an_llm_metric_without_an_llm_says_where_to_give_one() -> None:
    with pytest.raises(
        ConfigurationError, match=r"context_recall needs an LLM: pass llm= to the metric, or to evaluate"
    ):
        evaluate([SAMPLE], [LLMContextRecall()], show_progress=False)
    with pytest.raises(ConfigurationError, match=r"needs an LLM"):
        LLMContextRecall().score(SAMPLE)
    with pytest.raises(ConfigurationError, match=r"needs an LLM"):
        LLMContextRecall().batch_score([SAMPLE])
