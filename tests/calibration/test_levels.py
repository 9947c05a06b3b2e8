"""Calibration that reads well: agreement per verification level, and kappa's band named only when its interval
stays in it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragrecall import ClaimRecallEvidence, ContextRecall, OfflineJudge, calibrate
from ragrecall.calibration import CalibrationResult, Interval, calibration_section, calibration_table, kappa_reading

LABELS = Path(__file__).parents[2] / "examples" / "calibration" / "labels.jsonl"


def test_kappa_is_named_only_when_its_interval_stays_in_one_band() -> None:
    assert kappa_reading(0.7, Interval(low=0.62, high=0.78, resamples=2000), 300) == "substantial"
    reading = kappa_reading(0.664, Interval(low=0.450, high=0.888, resamples=2000), 14)
    # 14 samples give a width of 0.438; 0.2 needs 14 * (0.438 / 0.2)^2 = 67.1, so 68 samples: 54 more.
    assert reading == (
        "too few labels to tell: the 95% interval spans moderate to almost perfect (Landis & Koch); about 54 more "
        "labelled samples would narrow it to one band's width (0.2)"
    )
    assert kappa_reading(0.5, None, 10) == "moderate"
    assert kappa_reading(None, None, 0) is None


@pytest.fixture(scope="module")
def example() -> CalibrationResult:
    return calibrate(ContextRecall(OfflineJudge()), LABELS, show_progress=False)


def test_agreement_per_verification_level(example: CalibrationResult) -> None:
    result = example
    levels = result.by_level
    assert sum(item.claims for item in levels) == result.labelled_claims
    # Recount from the run's own verdicts and the labels, level by level.
    run = result.evaluation
    assert run is not None
    claims: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    for row, scored in zip(run.rows, run.results("context_recall"), strict=True):
        labels = row.sample.claim_labels if row.sample is not None else None
        if not labels or not isinstance(scored.evidence, ClaimRecallEvidence):
            continue
        for label, verdict in zip(labels, scored.evidence.claims, strict=True):
            claims[verdict.verification] += 1
            agreed[verdict.verification] += label == verdict.supported
    assert {item.level: item.claims for item in levels} == dict(claims)
    assert {item.level: item.agreed for item in levels} == dict(agreed)
    assert [item.claims for item in levels] == sorted(claims.values(), reverse=True)
    text = calibration_table(result)
    assert "by verification level of the verdict (which levels to trust):" in text
    for item in levels:
        assert f"  {item.level}" in text and f"accuracy {item.accuracy:.0%}" in text
    assert "By verification level of the verdict" in calibration_section(result)


def test_the_example_is_too_small_to_name_a_band(example: CalibrationResult) -> None:
    reading = example.kappa_reading
    assert reading is not None
    assert reading.startswith("too few labels to tell: the 95% interval spans moderate to almost perfect")
    assert reading in calibration_table(example)
