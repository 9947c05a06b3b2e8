"""CalibrationResult.corrected: labelled samples paired with an evaluated run by id, a metric biased against
people corrected (coverage over many label draws), and the one-line refusals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ragrecall import IDBasedContextRecall, InputError, calibrate, evaluate
from ragrecall.calibration import CalibrationResult, content_fingerprint
from ragrecall.evaluation import EvaluationResult

POOL = 1200


def pool_samples(seed: int = 0) -> tuple[list[dict[str, Any]], np.ndarray]:
    """Samples whose ID recall is k/4 and whose human score is that less about 0.15 plus noise: the metric is
    biased against people. Returns the samples (with ``human_score``) and the human scores."""
    rng = np.random.default_rng(seed)
    found = rng.integers(0, 5, size=POOL)
    human = np.clip(found / 4 - 0.15 + rng.normal(0, 0.12, size=POOL), 0, 1).round(3)
    samples = [
        {
            "id": f"q{i}",
            "reference_context_ids": ["a", "b", "c", "d"],
            "retrieved_context_ids": [*["a", "b", "c", "d"][:k], "x"],
            "human_score": float(h),
        }
        for i, (k, h) in enumerate(zip(found, human, strict=True))
    ]
    return samples, human


@pytest.fixture(scope="module")
def run() -> tuple[EvaluationResult, list[dict[str, Any]], np.ndarray]:
    samples, human = pool_samples()
    unlabelled = [{k: v for k, v in s.items() if k != "human_score"} for s in samples]
    return evaluate(unlabelled, [IDBasedContextRecall()], show_progress=False), samples, human


def test_a_biased_metric_is_corrected_to_what_people_say(run: Any) -> None:
    result, samples, human = run
    rng = np.random.default_rng(1)
    chosen = rng.choice(POOL, size=120, replace=False)
    calibration = calibrate(IDBasedContextRecall(), [samples[i] for i in chosen], show_progress=False)
    corrected = calibration.corrected(result)
    truth = float(human.mean())
    assert corrected.metric == "id_based_context_recall"
    assert corrected.n_labelled == 120 and corrected.n_unlabelled == POOL - 120
    assert corrected.low <= truth <= corrected.high
    judge = corrected.judge_only
    assert judge.mean - truth > 0.1  # the metric alone is off by its bias ...
    assert not judge.low <= truth <= judge.high  # ... and its interval does not cover what people say
    assert corrected.half_width < corrected.classical.half_width


def test_coverage_over_many_label_draws(run: Any) -> None:
    result, samples, human = run
    calibration = calibrate(IDBasedContextRecall(), samples[:20], show_progress=False)
    truth = float(human.mean())
    rng = np.random.default_rng(2)
    covered = 0
    draws = 300
    for _ in range(draws):
        chosen = rng.choice(POOL, size=80, replace=False)
        labelled = [
            calibration.labelled[0].model_copy(
                update={"sample_id": f"q{i}", "human_score": float(human[i]), "fingerprint": _seen(result, i)}
            )
            for i in chosen
        ]
        covered += _covers(calibration.model_copy(update={"labelled": labelled}).corrected(result), truth)
    # Labels drawn without replacement from a finite pool: the interval (which ignores that) is a little
    # conservative, never short.
    assert 0.93 <= covered / draws <= 0.995


def _seen(result: EvaluationResult, i: int) -> dict[str, str]:
    """What a person labelling sample ``i`` of the run saw."""
    sample = result.rows[i].sample
    assert sample is not None
    return content_fingerprint(sample)


def _covers(corrected: Any, truth: float) -> bool:
    return bool(corrected.low <= truth <= corrected.high)


def test_inclusion_probabilities_weight_the_labels(run: Any) -> None:
    result, samples, human = run
    calibration = calibrate(IDBasedContextRecall(), samples[:20], show_progress=False)
    # Over-sample the samples whose recall is low (k = 0, 1): unweighted, the labels would pull the mean down.
    values = np.array(result.values("id_based_context_recall"))
    low = np.flatnonzero(values <= 0.25)
    high = np.flatnonzero(values > 0.25)
    rng = np.random.default_rng(3)
    chosen = [(i, 40 / low.size) for i in rng.choice(low, 40, replace=False)]
    chosen += [(i, 40 / high.size) for i in rng.choice(high, 40, replace=False)]
    template = calibration.labelled[0]
    labelled = [
        template.model_copy(
            update={
                "sample_id": f"q{i}",
                "human_score": float(human[i]),
                "inclusion_probability": p,
                "fingerprint": _seen(result, i),
            }
        )
        for i, p in chosen
    ]
    corrected = calibration.model_copy(update={"labelled": labelled}).corrected(result)
    assert corrected.weighted
    assert corrected.low <= float(human.mean()) <= corrected.high
    unweighted = [lab.model_copy(update={"inclusion_probability": None}) for lab in labelled]
    biased = calibration.model_copy(update={"labelled": unweighted}).corrected(result).classical.mean
    assert biased < corrected.classical.mean - 0.05


def test_refusals_are_one_line(run: Any) -> None:
    result, samples, _ = run
    calibration: CalibrationResult = calibrate(IDBasedContextRecall(), samples[:20], show_progress=False)
    with pytest.raises(InputError, match=r"^the results have no metric 'recall'; they have id_based_context_recall"):
        calibration.corrected(result, "recall")
    elsewhere = [lab.model_copy(update={"sample_id": f"other-{lab.sample_id}"}) for lab in calibration.labelled]
    with pytest.raises(InputError, match=r"none of the 20 labelled samples has an id among the 1200 samples"):
        calibration.model_copy(update={"labelled": elsewhere}).corrected(result)
    few = calibrate(IDBasedContextRecall(), samples[:9], show_progress=False)
    with pytest.raises(InputError, match=r"^no corrected mean of id_based_context_recall: 9 labelled samples apply"):
        few.corrected(result)
    mixed = [
        lab.model_copy(update={"inclusion_probability": 0.5 if i % 2 else None})
        for i, lab in enumerate(calibration.labelled)
    ]
    with pytest.raises(InputError, match=r"inclusion_probability is given for 10 of 20 labelled samples"):
        calibration.model_copy(update={"labelled": mixed}).corrected(result)
    with pytest.raises(InputError) as caught:
        few.corrected(result)
    assert "\n" not in str(caught.value)


def test_a_bad_inclusion_probability_names_the_sample() -> None:
    sample = {"id": "z", "reference_context_ids": ["a"], "retrieved_context_ids": ["a"], "human_score": 1.0}
    sample["metadata"] = {"inclusion_probability": 0}
    with pytest.raises(InputError, match=r"metadata.inclusion_probability.*\(0, 1\], got 0"):
        calibrate(IDBasedContextRecall(), [sample], show_progress=False)
