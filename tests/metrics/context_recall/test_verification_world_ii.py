"""The second verification world (English and Chinese) and the worlds measured first blind, then tuned on: lies a
real judge plausibly tells — swapped roles, comparatives, quantifiers, bounds, hedges, conditionals, attribution,
time, fractions, percentage points, membership, refusals, one-word swaps, claims copied into a frame — and the
honest forms that must not be flagged (Traditional Chinese, dates, number words, converses, synonyms, symmetric
predicates, hedged claims, honest unsupported verdicts). Through the judge path (a scripted judge quoting
real passage text), the ``stated`` path (frames probes) and the decomposition (claims swapping their reference
sentence's roles). Definitions in :mod:`helpers.verification_world`.

``verification_world_ii.json`` was written for this round's tuning; ``…_ii_heldout`` to ``…_xv_heldout``,
``…_xvii_heldout`` and ``…_xviii_heldout`` were each measured once blind before this code was tuned on them;
``…_xvi_heldout`` and ``…_xix_heldout`` were measured once blind near the round's end, then read, and
``…_xx_heldout`` once blind on the final code, not tuned on (the first blind figures are in
``benchmarks/results/verification_world_heldout_*_first_blind.txt``): here they pin what the code now does on
them.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers.verification_world import (
    SampleOutcome,
    load_world,
    score_decompositions,
    score_frames,
    score_world,
)

HERE = Path(__file__).resolve().parent
WORLD = load_world(HERE / "verification_world_ii.json")
LIES = [s for s in WORLD if s["lie"]]
HONEST = [s for s in WORLD if not s["lie"]]
LIE_CLASSES = (
    "roles", "comparative", "quantifier", "bound", "hedge", "conditional", "attribution", "time", "fraction",
    "percent_points", "membership", "refusal", "word_swap", "frame_stated",
)  # fmt: skip
HONEST_CLASSES = (
    "traditional", "dates", "number_forms", "converse", "synonym", "symmetric", "hedged_claim", "same_direction",
    "honest_unsupported", "plain_verbatim", "negation_control",
)  # fmt: skip
CODE_MISSES: dict[str, str] = {}


def ids(sample: dict[str, Any]) -> str:
    return str(sample["id"])


def describe(outcome: SampleOutcome) -> str:
    return "; ".join(f"{c.role} {c.text!r}: {c.supported} {c.verification} {c.problem}" for c in outcome.claims)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, SampleOutcome]:
    return {o.id: o for o in score_world(WORLD)}


def test_every_class_is_in_both_languages() -> None:
    counts = Counter((s["language"], s["class"]) for s in WORLD)
    for language in ("en", "zh"):
        assert all(counts[language, c] >= 3 for c in LIE_CLASSES + HONEST_CLASSES), counts


def _lie(sample: dict[str, Any]) -> Any:
    reason = CODE_MISSES.get(sample["id"])
    return pytest.param(sample, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else sample


@pytest.mark.parametrize("sample", [_lie(s) for s in LIES], ids=ids)
def test_a_lie_is_caught_by_code(sample: dict[str, Any], outcomes: dict[str, SampleOutcome]) -> None:
    outcome = outcomes[sample["id"]]
    assert not outcome.failed and outcome.caught, describe(outcome)


@pytest.mark.parametrize("sample", WORLD, ids=ids)
def test_no_honest_or_background_verdict_is_flagged(sample: dict[str, Any], outcomes: dict[str, SampleOutcome]) -> None:
    outcome = outcomes[sample["id"]]
    honest = outcome.claims if not sample["lie"] else outcome.background
    assert not outcome.failed and not [c for c in honest if c.flagged], describe(outcome)


@pytest.mark.parametrize(
    ("world", "lies", "honest_samples", "background"),
    [
        ("verification_world_ii_heldout.json", 102, 3, 3),
        ("verification_world_iii_heldout.json", 99, 1, 3),
        ("verification_world_iv_heldout.json", 91, 7, 9),
        ("verification_world_v_heldout.json", 107, 2, 9),
        ("verification_world_vi_heldout.json", 111, 3, 6),
        ("verification_world_vii_heldout.json", 101, 1, 4),
        ("verification_world_viii_heldout.json", 105, 6, 14),
        ("verification_world_ix_heldout.json", 107, 14, 56),
        ("verification_world_x_heldout.json", 105, 3, 14),
        ("verification_world_xi_heldout.json", 102, 1, 4),
        ("verification_world_xii_heldout.json", 101, 0, 5),
        ("verification_world_xiii_heldout.json", 104, 0, 1),
        ("verification_world_xiv_heldout.json", 109, 1, 0),
        ("verification_world_xv_heldout.json", 109, 1, 1),
        ("verification_world_xvi_heldout.json", 104, 1, 1),
        ("verification_world_xvii_heldout.json", 108, 2, 6),
        ("verification_world_xviii_heldout.json", 108, 0, 2),
        ("verification_world_xix_heldout.json", 107, 0, 1),
        ("verification_world_xx_heldout.json", 109, 0, 0),
        # honest-only stress worlds (every verdict right), written blind and tuned on: 90 samples, 270 background
        # claims; 31 samples and 23 background verdicts flagged on the code before they were read
        # blind on the code before it was read (first figures 103, 4, 9), then read
        ("verification_world_xxi_heldout.json", 104, 0, 3),
        ("verification_world_honest_stress_i.json", 0, 9, 7),
        # the second, read after the first was tuned on: 24 samples and 28 background verdicts flagged on the code
        # before this round's last session and on the code tuned on the first alike (its forms were new)
        ("verification_world_honest_stress_ii.json", 0, 7, 8),
        # the third, written blind while the first two were read, scored once on the final code (23, 21), then read
        ("verification_world_honest_stress_iii.json", 0, 21, 19),
        # the fourth, paraphrasing harder (arithmetic, combined passages), scored blind on the landed code (77, 119),
        # then read: most of what is left needs arithmetic code does not do
        ("verification_world_honest_stress_iv.json", 0, 64, 88),
        # blind first (72, 15, 33), then read
        ("verification_world_xxii_heldout.json", 91, 15, 31),
        # blind on f415c8f (69, 20, 48); on b869e7a, after a review's fixes, 68; not read
        ("verification_world_xxiii_heldout.json", 68, 20, 48),
    ],
)
def test_the_worlds_first_measured_blind_hold_their_figures(
    world: str, lies: int, honest_samples: int, background: int
) -> None:
    scored = score_world(load_world(HERE / world))
    assert not [o.id for o in scored if o.failed]
    assert sum(o.caught for o in scored if o.lie) >= lies
    assert sum(any(c.flagged for c in o.claims) for o in scored if not o.lie) <= honest_samples
    assert sum(c.flagged for o in scored for c in o.background) <= background


# Per world: at most how many framed claims are stated and plain controls missed; at least how many swapped
# decompositions are caught and at most how many honest ones are flagged. Three honest decompositions of world
# VIII say their sentence in other words ("passed away", 去世 for 逝世 after 他, "lack a connection"): replaced by
# the sentence, which costs a claim its place, not a verdict.
PROBES = {
    "verification_world_ii": (0, 0, 14, 2),
    "verification_world_ii_heldout": (0, 0, 9, 2),
    "verification_world_iii_heldout": (1, 0, 11, 2),
    "verification_world_iv_heldout": (2, 1, 9, 2),
    "verification_world_v_heldout": (2, 0, 9, 2),
    "verification_world_vi_heldout": (1, 0, 8, 2),
    "verification_world_vii_heldout": (0, 0, 10, 2),
    "verification_world_viii_heldout": (0, 0, 9, 3),
    "verification_world_ix_heldout": (1, 0, 7, 0),
    "verification_world_x_heldout": (0, 0, 11, 0),
    "verification_world_xi_heldout": (0, 0, 10, 0),
    "verification_world_xii_heldout": (0, 0, 10, 0),
    # its writer swapped the bad and the fixed claim of three English decompositions: 8 of the 9 well-formed caught
    "verification_world_xiii_heldout": (0, 0, 8, 0),
    "verification_world_xiv_heldout": (1, 0, 12, 0),
    "verification_world_xv_heldout": (1, 0, 11, 0),
    "verification_world_xvi_heldout": (1, 0, 12, 0),
    # two honest decompositions name an event ("The succession took place in 1998") code does not read as the verb
    "verification_world_xvii_heldout": (1, 0, 11, 2),
    "verification_world_xviii_heldout": (2, 0, 11, 1),
    "verification_world_xix_heldout": (0, 0, 10, 0),
    "verification_world_xx_heldout": (1, 0, 11, 1),
    "verification_world_xxi_heldout": (0, 0, 11, 0),
    "verification_world_xxii_heldout": (1, 0, 11, 0),
    "verification_world_xxiii_heldout": (1, 0, 8, 2),
}


@pytest.mark.parametrize("world", PROBES)
def test_a_claim_copied_into_a_frame_is_not_stated_and_a_plain_sentence_is(world: str) -> None:
    stated, plain_missed, _, _ = PROBES[world]
    items = json.loads((HERE / f"{world}_frames.json").read_text(encoding="utf-8"))
    outcomes = score_frames(items)
    framed = [o for o in outcomes if not o.asserted]
    assert len(framed) >= 40
    assert sum(o.stated for o in framed) <= stated, [o.id for o in framed if o.stated]
    assert not [o.id for o in framed if o.frame == "negation" and o.stated]  # "It is false that …", 并非 …
    plain = [o for o in outcomes if o.asserted and o.frame.removeprefix("asserted_") == "plain"]
    assert plain and sum(not o.stated for o in plain) <= plain_missed, [o.id for o in plain if not o.stated]


@pytest.mark.parametrize("world", PROBES)
def test_a_decomposition_that_swaps_its_sentence_is_not_grounded(world: str) -> None:
    _, _, caught, flagged = PROBES[world]
    items = json.loads((HERE / f"{world}_decompositions.json").read_text(encoding="utf-8"))
    outcomes = score_decompositions(items, fixing=False)
    assert sum(o.caught for o in outcomes) >= caught
    assert sum(o.flagged for o in outcomes) <= flagged  # honest decompositions: converses and synonyms kept
