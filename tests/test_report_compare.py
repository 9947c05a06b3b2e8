"""The report of one run compared with another: paired deltas with bootstrap intervals, winners and losers."""

from __future__ import annotations

import re

import pytest

from ragrecall import IDBasedContextRecall, InputError
from ragrecall.evaluation import EvaluationResult, compare, evaluate, paired_rows
from ragrecall.report import render_report

REF = ["a", "b", "c", "d"]


def run(retrieved: dict[str, list[str] | None], metrics: list[object] | None = None) -> EvaluationResult:
    samples = [
        {"id": sid, "reference_context_ids": REF if sid != "q5" else []}
        | ({"retrieved_context_ids": ids} if ids is not None else {})
        for sid, ids in retrieved.items()
    ]
    return evaluate(samples, metrics or [IDBasedContextRecall()], show_progress=False)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def runs() -> tuple[EvaluationResult, EvaluationResult]:
    base = run({"q0": ["a"], "q1": ["a"], "q2": ["a", "b", "c"], "q3": ["a", "b"], "q4": ["a"], "q5": ["a"]})
    # New: other order, q0 and q1 better (q0 most), q2 worse, q3 the same, q4 failed, q5 unscorable in both,
    # q6 new.
    new = run(
        {"q6": ["a"], "q2": ["a"], "q1": ["a", "b"], "q0": ["a", "b", "c"], "q3": ["b", "a"], "q4": None, "q5": ["a"]}
    )
    return base, new


def test_paired_rows_pair_by_id_in_the_new_runs_order(runs: tuple[EvaluationResult, EvaluationResult]) -> None:
    base, new = runs
    pairs = paired_rows(base, new)
    assert [(a.sample_id, b.sample_id) for a, b in pairs] == [(f"q{i}", f"q{i}") for i in (2, 1, 0, 3, 4, 5)]


def test_paired_rows_pair_by_position_without_ids_and_refuse_unequal_sizes() -> None:
    rows = [{"retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}] * 3
    a = evaluate(rows, [IDBasedContextRecall()], show_progress=False)
    b = evaluate(rows, [IDBasedContextRecall()], show_progress=False)
    assert [(x.index, y.index) for x, y in paired_rows(a, b)] == [(0, 0), (1, 1), (2, 2)]
    c = evaluate(rows[:2], [IDBasedContextRecall()], show_progress=False)
    with pytest.raises(InputError, match=r"differ in size \(3 vs 2\)"):
        paired_rows(a, c)
    with pytest.raises(InputError, match="cannot pair"):
        render_report(c, base=a)


def section(page: str, name: str) -> str:
    match = re.search(rf"<section id='{name}'>(.*?)</section>", page, re.S)
    assert match
    return match.group(1)


def test_comparison_states_paired_deltas_with_their_intervals(runs: tuple[EvaluationResult, EvaluationResult]) -> None:
    base, new = runs
    page = render_report(new, base=base, names=("base.jsonl", "new.jsonl"))
    assert (
        page.index("<section id='failures'>")
        < page.index("<section id='comparison'>")
        < page.index("<section id='summary'>")
    )
    comparison = section(page, "comparison")
    c = compare(base, new, "id_based_context_recall")
    assert c.paired == 4 and c.mean_a is not None and c.mean_b is not None and c.mean_difference is not None
    assert c.ci_low is not None and c.ci_high is not None and c.p_value is not None
    # Each cell is labelled with its column, so that under 600 px a row reads as a card.
    assert (
        "<td class='m' data-label='metric'>id_based_context_recall</td>"
        f"<td class='num a' data-label='base.jsonl'>{c.mean_a:.3f}</td>"
        f"<td class='num b' data-label='new.jsonl'>{c.mean_b:.3f}</td>"
        f"<td class='num d' data-label='Δ'>{c.mean_difference:+.3f}</td>"
        f"<td class='num ci' data-label='95% CI of Δ'>[{c.ci_low:+.3f}, {c.ci_high:+.3f}]</td>"
        f"<td class='num p' data-label='p'>{c.p_value:.4f}</td><td class='num n' data-label='paired'>4</td>"
    ) in comparison
    assert "Not paired: 0 samples of base.jsonl and 1 of new.jsonl have no partner" in comparison
    assert "<th class='num a'>base.jsonl</th><th class='num b'>new.jsonl</th>" in comparison


def test_winners_and_losers_are_listed_largest_change_first(runs: tuple[EvaluationResult, EvaluationResult]) -> None:
    base, new = runs
    comparison = section(render_report(new, base=base), "comparison")
    assert "<h3>id_based_context_recall: 2 better, 1 worse, 2 unchanged, 1 changed status</h3>" in comparison
    better = comparison[comparison.index("better in new") : comparison.index("worse in new")]
    # q0: 0.25 → 0.75, q1: 0.25 → 0.5 (links point at the sample's entry in the new run: q0 is its index 3).
    assert re.findall(r"href='#s(\d+)'>(q\d)</a>", better) == [("3", "q0"), ("2", "q1")]
    assert "<td class=num>0.250</td><td class=num>0.750</td><td class=num><span class='ok'>+0.500</span>" in better
    worse = comparison[comparison.index("worse in new") : comparison.index("status changed")]
    assert re.findall(r">(q\d)</a>", worse) == ["q2"]
    assert "<span class='miss'>-0.500</span>" in worse
    status = comparison[comparison.index("status changed") :]
    assert ">q4</a></td><td class=num>0.250</td><td class=num><span class='miss'>failed</span>" in status


def test_each_sample_shows_its_change_and_each_run_its_settings() -> None:
    base = run({"q0": ["a"], "q1": ["a"]})
    new = run({"q0": ["a"], "q1": ["a", "b"]})
    assert new.run is not None
    # The same metric under other settings (as a run with another judge model would record them).
    metrics = {"id_based_context_recall": {"class": "IDBasedContextRecall", "settings": {"k": 2}}}
    new = EvaluationResult(new.rows, new.metrics, run=new.run.model_copy(update={"metrics": metrics}))
    page = render_report(new, base=base)
    assert "title='change from the base run'>+0.250</span>" in page
    run_section = section(page, "run")
    assert "<h3>new (this report)</h3>" in run_section and "<h3>base</h3>" in run_section
    assert "<span class='changed' title='differs from the other run'>k=2</span>" in run_section
    assert "<span class='changed' title='differs from the other run'>k=null</span>" in run_section
    assert "id_based_context_recall: 1 better, 0 worse, 1 unchanged</h3>" in section(page, "comparison")


def test_a_changed_sample_keeps_the_base_runs_verdicts_at_hand(runs: tuple[EvaluationResult, EvaluationResult]) -> None:
    base, new = runs
    page = render_report(new, base=base)
    q2 = page[page.index("<details class='sample' id='s1'") :]
    q2 = q2[: q2.index("</details></div></div></details>")]  # the sample, with the base run's block inside it
    assert "<details class='base'><summary>the base run's verdicts where they differ (id_based_context_recall)" in q2
    # Base: a, b and c of a-d found; new: only a.
    base_block = q2[q2.index("<details class='base'>") :]
    assert "found: <code>a</code> at rank 1, <code>b</code> at rank 2, <code>c</code> at rank 3" in base_block
    unchanged = page[page.index("<details class='sample' id='s4'") :]
    assert "<details class='base'>" not in unchanged[: unchanged.index("</details>")]
