"""Nugget recall reaches the labelling page, calibrate and the corrected mean through its evidence alone
(``labelled_items``, ``labelled_field``, ``value_of_labels``): nuggets are labelled supported or not, the labels
file lists them as reference_nuggets with their importance, and the corrected mean reads the labels through the
chosen score."""

from __future__ import annotations

from typing import Any

import pytest

from ragrecall import NuggetRecall, OfflineJudge, Sample, calibrate, evaluate
from ragrecall.calibration import corrected_mean, labelled_scores
from ragrecall.labelling import choose, page_data

CONTEXTS = ["The Eiffel Tower is 330 metres tall.", "Work on the tower ended in 1889."]
NUGGETS = [
    {"text": "The Eiffel Tower is 330 metres tall", "importance": "vital"},
    {"text": "Work on the tower ended in 1889", "importance": "okay"},
    {"text": "The tower is painted bright yellow", "importance": "vital"},
]


def samples(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"s{i}", "user_input": "Eiffel Tower", "retrieved_contexts": CONTEXTS, "reference_nuggets": NUGGETS}
        for i in range(n)
    ]


def test_the_labelling_page_shows_nuggets_and_writes_them_back_as_reference_nuggets() -> None:
    result = evaluate(samples(3), [NuggetRecall(OfflineJudge())], show_progress=False)
    chosen = choose(result, 2, metric="nugget_recall")
    data = page_data(result, chosen, "nugget_recall")
    sample = data["samples"][0]
    assert sample["labelled_field"] == "reference_nuggets"
    assert [(c["claim"], c["importance"], c["supported"]) for c in sample["claims"]] == [
        ("The Eiffel Tower is 330 metres tall", "vital", True),
        ("Work on the tower ended in 1889", "okay", True),
        ("The tower is painted bright yellow", "vital", False),
    ]


def test_calibrate_compares_nugget_labels_and_the_corrected_mean_reads_them_by_the_score() -> None:
    pytest.importorskip("scipy")
    labelled = [
        Sample(**s, claim_labels=[True, True, i % 2 == 0])  # people say the third nugget is there, half the time
        for i, s in enumerate(samples(10))
    ]
    metric = NuggetRecall(OfflineJudge())
    cal = calibrate(metric, labelled, show_progress=False)
    assert cal.labelled_claims == 30 and cal.claim_samples == 10
    assert cal.accuracy == pytest.approx(25 / 30)
    run = evaluate(samples(12), [metric], show_progress=False)
    mean = corrected_mean(run, "nugget_recall", labelled_scores(labelled))
    # By people's labels the strict vital score is 1 (both vital nuggets there) or 1/2, 0.75 on average (the share
    # of nuggets labelled supported would give 5/6); the judge says 1/2 everywhere, so the correction is the labels'.
    assert mean.n_labelled == 10
    assert mean.mean == pytest.approx(0.75, abs=1e-9)


def test_claim_labels_pair_with_reference_nuggets_when_there_are_no_claims() -> None:
    from ragrecall.errors import InvalidSampleError

    with pytest.raises(InvalidSampleError, match="2 labels for 3 reference_nuggets"):
        Sample(reference_nuggets=NUGGETS, claim_labels=[True, False])
