"""The calibration's text says what a person needs: a plan out of reach for the run says so and what is within
reach, the level table says what ``none`` is, and a disagreement without a reason prints no empty reason."""

from __future__ import annotations

import numpy as np

from ragrecall.calibration import ClaimDisagreement, plan_text, ppi_mean
from ragrecall.calibration._text import describe_disagreement


def test_a_plan_beyond_the_run_says_it_is_out_of_reach() -> None:
    rng = np.random.default_rng(0)
    human = rng.binomial(1, 0.6, 16).astype(float)
    item = ppi_mean(rng.random(48), np.clip(human + rng.normal(0, 0.3, 16), 0, 1), human)
    assert item.n_labelled + item.n_unlabelled == 64
    text = plan_text(0.02, 838, item)
    assert text.startswith("plan: ± 0.02 is out of reach for this run: it would take about 854 labelled samples")
    assert "the run has 64; labelling all 64 gives about ± " in text
    reach = float(text.split("gives about ± ")[1].split(",")[0])
    assert 0.02 < reach < item.classical.half_width  # every sample labelled: narrower than 16 labels, not 0.02
    within = plan_text(0.2, 10, item)
    assert within.startswith("plan: about 10 more labelled samples (26 in all)")


def test_an_empty_reason_is_not_printed() -> None:
    item = ClaimDisagreement(
        index=3, sample_id="q3", claim_index=0, claim="A is B.", human=False, judge=True, reason=""
    )
    assert describe_disagreement(item).splitlines()[1] == "    label unsupported, judge supported"
    given = item.model_copy(update={"reason": "passage 2 says so"})
    assert describe_disagreement(given).splitlines()[1] == "    label unsupported, judge supported: passage 2 says so"


def test_the_level_table_says_what_none_is() -> None:
    from ragrecall.calibration import CalibrationResult, LevelAgreement
    from ragrecall.calibration._text import level_lines

    levels = [
        LevelAgreement(level="verified", claims=4, agreed=4, judged_supported=4, labelled_supported=4),
        LevelAgreement(level="none", claims=3, agreed=2, judged_supported=0, labelled_supported=0),
    ]
    lines = level_lines(CalibrationResult(metric="context_recall", samples=2, by_level=levels))
    assert lines[-1] == "  (none: the judge said unsupported, with no quote to check, and nothing contradicted it)"
