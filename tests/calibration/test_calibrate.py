"""calibrate against a scripted judge on a hand-made table: every figure equals its hand computation."""

from __future__ import annotations

import json
import math
import sys
import warnings
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ragrecall
from helpers.claims import verdict
from ragrecall import ContextRecall, FakeLLM, MissingFieldError, NonLLMContextRecall
from ragrecall.calibration import calibration_section, calibration_table, kappa_band
from ragrecall.calibration._figures import claim_intervals, table_figures
from ragrecall.llm import LLMRequest

# The hand-made table: per sample, (person's label, judge's verdict) for each claim, and a human score.
TABLE: list[tuple[list[tuple[bool, bool]], float]] = [
    ([(True, True), (True, False)], 0.9),
    ([(True, True), (False, True), (False, False)], 0.4),
    ([(False, False)], 0.1),
    ([(True, True), (True, True), (True, True), (False, True)], 0.7),
    ([(True, True), (False, False), (True, False), (False, False)], 0.5),
]


def claim_text(s: int, c: int) -> str:
    return f"Part {s}-{c} weighs {s * 10 + c + 5} grams."


def passage_text(s: int, c: int) -> str:
    """What the first context says of claim ``c``: its weight, in other words than the claim, when the table's
    judge supports it (so that the judge is asked, and its quote checks out); otherwise no weight at all (so
    that its "unsupported" is not put back to it)."""
    if TABLE[s][0][c][1]:
        return f"Part {s}-{c} weighs exactly {s * 10 + c + 5} grams."
    return f"Part {s}-{c} is listed."


def table_samples() -> list[dict[str, Any]]:
    samples = []
    for s, (pairs, score) in enumerate(TABLE):
        claims = [claim_text(s, c) for c in range(len(pairs))]
        samples.append(
            {
                "id": f"s{s}",
                "reference_claims": claims,
                "claim_labels": [label for label, _ in pairs],
                "human_score": score,
                "retrieved_contexts": [" ".join(passage_text(s, c) for c in range(len(pairs))), "Unrelated text."],
            }
        )
    return samples


VERDICTS = {claim_text(s, c): said for s, (pairs, _) in enumerate(TABLE) for c, (_, said) in enumerate(pairs)}
PASSAGES = {claim_text(s, c): passage_text(s, c) for s, (pairs, _) in enumerate(TABLE) for c in range(len(pairs))}


def scripted_judge(request: LLMRequest[Any]) -> Any:
    """Says what the table's verdict column says, quoting the claim's sentence of the first context when it
    supports."""
    assert request.task == "context_recall.judge", request.task
    claims = request.inputs["claims"]
    shown = list(request.inputs["contexts"])
    first = shown.index(next(c for c in shown if "Part" in c)) + 1
    out = []
    for n, claim in enumerate(claims, start=1):
        said = VERDICTS[claim]
        out.append(verdict(n, said, [(first, PASSAGES[claim])] if said else [], reason=f"verdict {said} on {claim}"))
    return {"verdicts": out}


def hand_figures() -> dict[str, float]:
    """The figures by their textbook formulas, from the table alone."""
    pairs = [p for rows, _ in TABLE for p in rows]
    n = len(pairs)
    tp = sum(h and j for h, j in pairs)
    fp = sum(j and not h for h, j in pairs)
    fn = sum(h and not j for h, j in pairs)
    tn = sum(not h and not j for h, j in pairs)
    p_o = (tp + tn) / n
    p_e = ((tp + fp) / n) * ((tp + fn) / n) + ((fn + tn) / n) * ((fp + tn) / n)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    human = [score for _, score in TABLE]
    metric = [sum(j for _, j in rows) / len(rows) for rows, _ in TABLE]

    def ranks(xs: list[float]) -> list[int]:  # the table's columns have no ties
        return [sorted(xs).index(x) + 1 for x in xs]

    d2 = sum((a - b) ** 2 for a, b in zip(ranks(human), ranks(metric), strict=True))
    k = len(human)
    signs = [
        (human[a] - human[b]) * (metric[a] - metric[b]) for a, b in combinations(range(k), 2)
    ]  # concordant > 0, discordant < 0
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "accuracy": p_o,
        "kappa": (p_o - p_e) / (1 - p_e),
        "precision": precision,
        "recall": recall,
        "f1": 2 * precision * recall / (precision + recall),
        "spearman": 1 - 6 * d2 / (k * (k * k - 1)),
        "kendall": (sum(s > 0 for s in signs) - sum(s < 0 for s in signs)) / (k * (k - 1) / 2),
        "mae": sum(abs(m - h) for h, m in zip(human, metric, strict=True)) / k,
        "bias": sum(m - h for h, m in zip(human, metric, strict=True)) / k,
    }


def test_figures_equal_the_hand_computation_on_a_hand_made_table() -> None:
    llm = FakeLLM(scripted_judge)
    result = ragrecall.calibrate(ContextRecall(llm), table_samples())
    want = hand_figures()
    assert (want["tp"], want["fp"], want["fn"], want["tn"]) == (6, 2, 2, 4)  # the table is what it claims
    assert (result.confusion.tp, result.confusion.fp, result.confusion.fn, result.confusion.tn) == (6, 2, 2, 4)
    for name in ("accuracy", "kappa", "precision", "recall", "f1", "spearman", "kendall", "mae", "bias"):
        assert getattr(result, name) == pytest.approx(want[name]), name
    assert result.spearman == pytest.approx(0.5) and result.kappa == pytest.approx(5 / 12)
    assert (result.samples, result.claim_samples, result.labelled_claims, result.score_samples) == (5, 5, 14, 5)
    assert result.kappa_band == "moderate" and result.failed == result.unscorable == 0
    assert len(llm.requests) == 5  # one judging request per sample, no decomposition
    for name in ("accuracy", "kappa", "spearman", "mae"):
        interval = result.intervals[name]
        assert interval.low <= getattr(result, name) <= interval.high and interval.resamples <= 2000


def test_disagreements_carry_the_judges_evidence() -> None:
    result = ragrecall.calibrate(ContextRecall(FakeLLM(scripted_judge)), table_samples(), score_tolerance=0.3)
    wrong = [(d.sample_id, d.claim_index, d.human, d.judge) for d in result.claim_disagreements]
    assert wrong == [("s0", 1, True, False), ("s1", 1, False, True), ("s3", 3, False, True), ("s4", 2, True, False)]
    generous = result.claim_disagreements[1]
    assert generous.claim == claim_text(1, 1) and generous.reason == f"verdict True on {claim_text(1, 1)}"
    assert [q.passage for q in generous.quotes] == [passage_text(1, 1)] and generous.verification == "verified"
    # |metric - human|: s0 0.4, s1 0.267, s2 0.1, s3 0.3 (within 0.3), s4 0.25; only s0 is over 0.3
    assert [(d.sample_id, round(d.difference, 3)) for d in result.score_disagreements] == [("s0", -0.4)]
    text = calibration_table(result)
    assert "Cohen's kappa           0.417" in text
    # Five samples: the interval spans several bands, so the band is not named.
    assert "too few labels to tell: the 95% interval spans" in text and result.kappa_reading != "moderate"
    assert "label unsupported, judge supported" in text and "Landis & Koch (1977) convention" in text
    page = calibration_section(result)
    assert page.startswith("<section") and "Claim disagreements (4)" in page
    assert f"<td class=num>{hand_figures()['bias']:+.3f}</td>" in page
    assert json.loads(result.model_dump_json())["kappa_band"] == "moderate"


def test_failed_and_unscorable_samples_are_counted_never_dropped() -> None:
    samples = table_samples()
    samples.append({"id": "empty", "reference_claims": [], "claim_labels": [], "retrieved_contexts": ["x"]})
    samples.append({"id": "boom", "reference_claims": ["Boom."], "claim_labels": [True], "retrieved_contexts": ["x"]})

    def judge(request: LLMRequest[Any]) -> Any:
        if request.inputs["claims"] == ["Boom."]:
            raise RuntimeError("the endpoint fell over")
        return scripted_judge(request)

    result = ragrecall.calibrate(ContextRecall(FakeLLM(judge)), samples)
    assert (result.samples, result.failed, result.unscorable) == (7, 1, 1)
    assert [(n.sample_id, n.status) for n in result.not_compared] == [("empty", "unscorable"), ("boom", "failed")]
    assert "the endpoint fell over" in result.not_compared[1].message
    assert result.kappa == pytest.approx(hand_figures()["kappa"])  # the figures are over the compared samples
    assert "left out: sample 6 (id='boom'): failed: RuntimeError" in calibration_table(result)


def test_scores_alone_calibrate_any_metric_and_claim_figures_are_none() -> None:
    samples = [
        {"id": i, "reference_contexts": [ref], "retrieved_contexts": [got], "human_score": h}
        for i, (ref, got, h) in enumerate(
            [("alpha beta", "alpha beta", 1.0), ("gamma", "delta", 0.0), ("kappa lambda", "kappa lambda!", 0.8)]
        )
    ]
    result = ragrecall.calibrate(NonLLMContextRecall(), samples)
    assert result.labelled_claims == 0 and result.accuracy is None and result.kappa is None
    assert result.kappa_band is None and result.score_samples == 3
    assert [name for name, _, _ in result.figures()] == ["spearman", "kendall", "mae"]
    assert result.mae == pytest.approx((0 + 0 + 0.2) / 3)


def test_a_constant_column_leaves_correlations_undefined() -> None:
    samples = table_samples()
    for s in samples:
        s["human_score"] = 0.5
    result = ragrecall.calibrate(ContextRecall(FakeLLM(scripted_judge)), samples)
    assert result.spearman is None and result.kendall is None and result.mae is not None
    assert "spearman" not in result.intervals and "mae" in result.intervals


def test_claim_labels_without_verdicts_are_said_so() -> None:
    sample = {"reference_claims": ["A."], "claim_labels": [True], "reference_contexts": ["A."], "human_score": 1.0}
    result = ragrecall.calibrate(NonLLMContextRecall(), [{**sample, "retrieved_contexts": ["A."]}])
    assert [n.status for n in result.not_compared] == ["no verdicts"] and result.labelled_claims == 0
    assert result.score_samples == 1


def test_a_sample_without_labels_is_refused_naming_it_before_any_request(tmp_path: Path) -> None:
    llm = FakeLLM([])
    samples = [*table_samples(), {"id": "bare", "reference_claims": ["A."], "retrieved_contexts": ["A."]}]
    with pytest.raises(MissingFieldError, match=r"sample 5 \(id='bare'\): missing labels field"):
        ragrecall.calibrate(ContextRecall(llm), samples)
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in samples[4:]) + "\n", encoding="utf-8")
    with pytest.raises(MissingFieldError, match=r"line 2 of .*labels.jsonl \(id='bare'\): missing labels field"):
        ragrecall.calibrate(ContextRecall(llm), path)
    csv_path = tmp_path / "labels.csv"
    csv_path.write_text(
        'id,reference_claims,claim_labels,retrieved_contexts\n"o\nk","[""A.""]",[true],"[""A""]"\nbare,"[""A.""]",,"[""A""]"\n',
        encoding="utf-8",
    )
    with pytest.raises(MissingFieldError, match=r"line 4 of .*labels.csv"):  # the first record spans lines 2-3
        ragrecall.calibrate(ContextRecall(llm), csv_path)
    assert llm.requests == []


def test_the_intervals_resample_samples_not_claims() -> None:
    # Two samples of ten claims: one all agreements, one all disagreements. Drawing samples, a resample holds
    # both (accuracy 0.5) or one of them twice (1.0 or 0.0); drawing claims would give a narrow band around 0.5.
    cells = [(5, 0, 0, 5), (0, 5, 5, 0)]
    intervals = claim_intervals(cells, n_resamples=2000, seed=0)
    ci, used = intervals["accuracy"]
    assert ci == (0.0, 1.0) and used == 2000
    assert claim_intervals(cells, n_resamples=2000, seed=0) == intervals  # seeded


def test_the_vectorised_resample_figures_agree_with_scikit_learn() -> None:
    from sklearn.metrics import cohen_kappa_score, precision_recall_fscore_support

    rng = np.random.default_rng(3)
    for _ in range(50):
        tp, fp, fn, tn = (int(x) for x in rng.integers(0, 6, size=4))
        human = [True] * tp + [False] * fp + [True] * fn + [False] * tn
        judge = [True] * tp + [True] * fp + [False] * fn + [False] * tn
        if not human:
            continue
        got = {k: float(v[0]) for k, v in table_figures(np.array([[tp, fp, fn, tn]])).items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined figures: NaN with a warning
            kappa = cohen_kappa_score(human, judge, labels=[False, True])
            p, r, f, _ = precision_recall_fscore_support(human, judge, average="binary", zero_division=np.nan)
        for name, want in (("kappa", kappa), ("precision", p), ("recall", r), ("f1", f)):
            assert (math.isnan(got[name]) and math.isnan(want)) or got[name] == pytest.approx(want), (
                name,
                tp,
                fp,
                fn,
                tn,
            )


def test_bands_and_arguments() -> None:
    assert [kappa_band(k) for k in (-0.1, 0.0, 0.2, 0.21, 0.5, 0.75, 0.81, 1.0)] == [
        "poor",
        "slight",
        "slight",
        "fair",
        "moderate",
        "substantial",
        "almost perfect",
        "almost perfect",
    ]
    with pytest.raises(ragrecall.ConfigurationError, match="n_resamples"):
        ragrecall.calibrate(ContextRecall(FakeLLM([])), table_samples(), n_resamples=10)
    with pytest.raises(ragrecall.ConfigurationError, match="one Metric"):
        ragrecall.calibrate([ContextRecall(FakeLLM([]))], table_samples())  # type: ignore[arg-type]


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.metrics", None)
    llm = FakeLLM([])
    with pytest.raises(ImportError, match=r"pip install 'ragrecall\[calibrate\]'"):
        ragrecall.calibrate(ContextRecall(llm), table_samples())
    assert llm.requests == []


def test_disagreements_number_passages_from_1_as_the_judge_does() -> None:
    from ragrecall.calibration._html import _claim
    from ragrecall.calibration._result import ClaimDisagreement
    from ragrecall.calibration._text import describe_disagreement
    from ragrecall.metrics.context_recall import Quote

    quote = Quote(context=0, cited=0, quote="Paris is the capital", match="exact", start=0, end=20, passage="Paris")
    item = ClaimDisagreement(
        index=3, sample_id="q", claim_index=0, claim="Paris is the capital.", human=False, judge=True,
        reason="Context 1 says so.", quotes=[quote],
    )  # fmt: skip
    text = describe_disagreement(item)
    assert "quote (passage 1, exact)" in text and "#0" not in text
    assert "passage 1 (exact)" in _claim(item) and "#0" not in _claim(item)
