"""Choosing samples to label: a reproducible random draw, and a stratified one whose inclusion probabilities
add up (every stratum drawn, Horvitz-Thompson weights summing to the pool)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ragrecall import ContextRecall, IDBasedContextRecall, InputError, OfflineJudge, evaluate
from ragrecall.errors import ConfigurationError
from ragrecall.evaluation import EvaluationResult
from ragrecall.labelling import choose, stratum_of

SCRIPT = Path(sys.executable).with_name("ragrecall")


def pool(size: int = 60) -> EvaluationResult:
    """Samples whose retrieved contexts state 0 to 3 of their 3 claims (the offline judge finds the stated ones)."""
    facts = ["The river is 40 km long.", "The bridge opened in 1901.", "The town has 3 schools."]
    samples = [
        {
            "id": f"s{i}",
            "user_input": "Tell me about the town.",
            "reference_claims": facts,
            "retrieved_contexts": [" ".join(facts[: i % 4]) or "Nothing relevant here."],
        }
        for i in range(size)
    ]
    return evaluate(samples, [ContextRecall(OfflineJudge())], show_progress=False)


def test_a_random_draw_is_reproducible_and_unweighted() -> None:
    result = pool()
    first = choose(result, 12, seed=4)
    assert [c.sample_id for c in first] == [c.sample_id for c in choose(result, 12, seed=4)]
    assert [c.sample_id for c in first] != [c.sample_id for c in choose(result, 12, seed=5)]
    assert len({c.sample_id for c in first}) == 12
    assert all(c.inclusion_probability is None and c.stratum == "all" for c in first)


def test_a_stratified_draw_covers_every_stratum_and_its_weights_add_up() -> None:
    result = pool()
    chosen = choose(result, 12, seed=1, strategy="stratified")
    assert len(chosen) == 12 and len({c.sample_id for c in chosen}) == 12
    strata = Counter(
        stratum_of(r.evidence, r.value)  # type: ignore[arg-type]
        for r in result.results("context_recall")
    )
    assert {c.stratum for c in chosen} == set(strata)  # every stratum of the pool is drawn from
    for c in chosen:
        drawn = sum(d.stratum == c.stratum for d in chosen)
        assert c.inclusion_probability == pytest.approx(drawn / strata[c.stratum])
    # Horvitz-Thompson: the inverse probabilities of a stratified draw add up to the pool exactly.
    assert sum(1 / (c.inclusion_probability or 1) for c in chosen) == pytest.approx(len(result))


def test_neyman_gives_more_to_strata_with_more_spread() -> None:
    result = pool(200)
    chosen = choose(result, 40, seed=0, strategy="stratified")
    counts = Counter(c.stratum for c in chosen)
    # Four strata of 50: all-supported (value 1) and none-supported (0) have the least spread, the mixed bands
    # the most, so they get more labels.
    low, high = min(counts.values()), max(counts.values())
    assert high > low
    assert sum(counts.values()) == 40


def test_strata_follow_the_level_the_agreement_and_the_band() -> None:
    result = pool(8)
    seen = {stratum_of(r.evidence, r.value) for r in result.results("context_recall")}  # type: ignore[arg-type]
    assert all(len(s.split("/")) == 3 for s in seen)
    assert {s.split("/")[2] for s in seen} == {"low", "middle", "high"}
    assert {s.split("/")[1] for s in seen} == {"unanimous"}


def test_refusals() -> None:
    result = pool(10)
    with pytest.raises(ConfigurationError, match="-n 11 is more than the 10 samples that can be labelled"):
        choose(result, 11)
    with pytest.raises(ConfigurationError, match="-n must be a whole number of samples above 0, got 0"):
        choose(result, 0)
    with pytest.raises(ConfigurationError, match="strategy must be 'random' or 'stratified'"):
        choose(result, 2, strategy="neyman")  # type: ignore[arg-type]
    ids = evaluate(
        [{"id": "a", "reference_context_ids": ["x"], "retrieved_context_ids": ["x"]}],
        [IDBasedContextRecall()],
        show_progress=False,
    )
    with pytest.raises(InputError, match="no metric of the results judges claims"):
        choose(ids, 1)
    nameless = evaluate(
        [{"reference_claims": ["A."], "retrieved_contexts": ["A."]}],
        [ContextRecall(OfflineJudge())],
        show_progress=False,
    )
    with pytest.raises(InputError, match="no sample of the results can be labelled: none has an id"):
        choose(nameless, 1, metric="context_recall")


def test_the_command_writes_a_page_holding_the_chosen_claims(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    pool(20).to_jsonl(results)
    page = tmp_path / "label.html"
    done = subprocess.run(
        [str(SCRIPT), "label", str(results), "-n", "5", "--seed", "2", "-o", str(page)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "5 samples (15 claims) of context_recall to label written to" in done.stdout
    html = page.read_text(encoding="utf-8")
    for c in choose(EvaluationResult.from_jsonl(results), 5, seed=2):
        assert f'"id": "{c.sample_id}"' in html
    assert "The bridge opened in 1901." in html
    again = subprocess.run(
        [str(SCRIPT), "label", str(results), "-n", "5", "-o", str(results)], capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 2 and again.stderr.count("\n") == 1  # never overwrites the results
