"""The two-step comparison of string recall gives exactly the best match that comparing every pair gives."""

from __future__ import annotations

import random
import string
from typing import Any

import numpy as np
import pytest
from rapidfuzz import process
from rapidfuzz.distance import Indel, Levenshtein

from ragrecall import NonLLMContextRecall, Sample
from ragrecall.metrics import _best_match, _pair_work, string_recall
from ragrecall.metrics._best_match import LEVELS, pair_lists, pruned_similarities, row_best

SCORERS: dict[str, Any] = {"levenshtein": Levenshtein.normalized_similarity, "indel": Indel.normalized_similarity}


def _edited(rng: random.Random, text: str, edits: int) -> str:
    chars = list(text)
    for _ in range(edits):
        pos = rng.randrange(len(chars) + 1)
        op = rng.random()
        if op < 0.4 and pos < len(chars):
            chars[pos] = rng.choice("abcxyz ")
        elif op < 0.7:
            chars.insert(pos, rng.choice("abcxyz "))
        elif chars and pos < len(chars):
            del chars[pos]
    return "".join(chars)


def _cases(seed: int, samples: int) -> tuple[list[list[str]], list[list[str]]]:
    """References that are exact copies, near copies (from 0 to many edits, so every level is used), near
    copies of a text whose likely match is another one, copies of a text retrieved twice (ties), texts
    sharing only a start or an end with a retrieved one, or unrelated; retrieved lists of every size from 0,
    with empty and repeated texts."""
    rng = random.Random(seed)
    refs: list[list[str]] = []
    rets: list[list[str]] = []
    for _ in range(samples):
        size = rng.choice([0, 1, 2, 3, 5, 10])
        ret = ["".join(rng.choices(string.ascii_lowercase + " ", k=rng.randint(0, 80))) for _ in range(size)]
        if size > 2 and rng.random() < 0.3:
            ret[rng.randrange(size)] = ret[0]  # the same text twice: the first index must win a tie
        ref: list[str] = []
        if size > 2 and len(ret[0]) > 40 and rng.random() < 0.5:
            # The likely match (same start) is not the best: a later text is closer by an edit or a few.
            ret[2] = ret[0][:12] + _edited(rng, ret[0][12:], rng.randint(2, 6))
            ref.append(ret[0][:12] + _edited(rng, ret[2][12:], 1))
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            source = rng.choice(ret) if ret else ""
            if kind < 0.5 and source:
                ref.append(_edited(rng, source, rng.choice([0, 0, 1, 2, 4, 8, 16, 40])) or "q")
            elif kind < 0.7 and source:
                ref.append(source[:12] + "".join(rng.choices("xyz", k=30)))  # same start, else unrelated
            elif kind < 0.8 and source:
                ref.append("".join(rng.choices("xyz", k=30)) + source[-12:])
            else:
                ref.append("".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 60))))
        refs.append(ref)
        rets.append(ret)
    return refs, rets


@pytest.mark.parametrize("scorer", sorted(SCORERS))
@pytest.mark.parametrize("seed", range(6))
def test_two_steps_give_every_pairs_best_and_its_first_position(scorer: str, seed: int) -> None:
    fn = SCORERS[scorer]
    refs, rets = _cases(seed, 300)
    cutoffs: list[float | None] = []

    def kernel(queries: list[str], choices: list[str], cutoff: float | None) -> np.ndarray:
        cutoffs.append(cutoff)
        return np.asarray(process.cpdist(queries, choices, scorer=fn, dtype=np.float64, score_cutoff=cutoff))

    lengths = [len(ret) for ref, ret in zip(refs, rets, strict=True) for _ in ref]
    queries, choices = pair_lists(refs, rets)
    every = np.asarray(process.cpdist(queries, choices, scorer=fn, dtype=np.float64))
    best, where = row_best(every, lengths)
    pruned = pruned_similarities(refs, rets, kernel)
    got_best, got_where = row_best(pruned, lengths)
    assert got_best.tolist() == best.tolist()  # exactly, not approximately
    assert got_where.tolist() == where.tolist()
    assert set(LEVELS) & set(cutoffs), "no pair was compared with a cutoff: the test data miss what they test"
    assert int(np.count_nonzero(pruned != every)) > 0, "no similarity was cut: nothing was pruned"


def test_the_metric_gives_the_same_results_with_and_without_two_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    refs, rets = _cases(7, 400)
    samples = [
        Sample(id=i, retrieved_contexts=ret, reference_contexts=ref)
        for i, (ref, ret) in enumerate(zip(refs, rets, strict=True))
        if all(r.strip() for r in ref)
    ]
    calls: list[int] = []
    real = _best_match.pruned_similarities

    def counted(*args: object, **kwargs: object) -> np.ndarray:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(string_recall, "pruned_similarities", counted)
    for metric in (NonLLMContextRecall(), NonLLMContextRecall(scorer="indel", threshold=0.7)):
        two_steps = [r.model_dump() for r in metric.batch_score(samples)]
        assert calls, "the two steps were not used"
        calls.clear()
        monkeypatch.setattr(string_recall, "_PRUNE_MIN_PAIRS", 10**12)
        every_pair = [r.model_dump() for r in metric.batch_score(samples)]
        assert not calls
        monkeypatch.undo()
        monkeypatch.setattr(string_recall, "pruned_similarities", counted)
        assert two_steps == every_pair


def test_other_scorers_and_single_samples_compare_every_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("two steps used")

    monkeypatch.setattr(string_recall, "pruned_similarities", refuse)
    refs, rets = _cases(3, 200)
    samples = [
        Sample(id=i, retrieved_contexts=ret, reference_contexts=ref)
        for i, (ref, ret) in enumerate(zip(refs, rets, strict=True))
        if all(r.strip() for r in ref)
    ]
    for scorer in ("jaro_winkler", "token_set", "partial"):
        results = NonLLMContextRecall(scorer=scorer).batch_score(samples[:50], on_error="raise")
        assert len(results) == 50 and all(r.failure is None for r in results)
    big = Sample(id="one", retrieved_contexts=["a b c"] * 10, reference_contexts=["a b d"] * 5)
    assert NonLLMContextRecall().score(big).value == 1.0  # 50 pairs: under the least pass that pays


def test_two_steps_are_taken_only_where_their_first_call_runs_on_as_many_cores() -> None:
    metric = NonLLMContextRecall()
    heavy = _pair_work.PARALLEL_MIN_WORK
    assert not metric._prunes(heavy / 1000, 100, 10)  # too few pairs to pay for a second call
    assert metric._prunes(heavy / 10, 1000, 100)  # every call on one core either way
    assert metric._prunes(heavy * 100, 100_000, 10_000)  # both steps' calls on every core
    # One call over 10,000 short pairs runs on every core; a first step of 1,000 of them would not.
    assert not metric._prunes(heavy / 10, 10_000, 1_000)
    assert not NonLLMContextRecall(scorer="jaro_winkler")._prunes(heavy / 10, 1000, 100)


@pytest.mark.parametrize("scorer", sorted(SCORERS))
def test_pairs_on_a_level_and_texts_beyond_ascii_keep_the_best_exact(scorer: str) -> None:
    """rapidfuzz may give 0 for a pair exactly on its cutoff (``"aaaaa"`` against ``"bbaaa"`` at 0.6): pairs on
    every level and one margin above it, non-ASCII and emoji texts and a long text still give every pair's
    best."""
    fn = SCORERS[scorer]
    refs: list[list[str]] = []
    rets: list[list[str]] = []
    for size in (20, 40, 60, 80, 100):
        ref = "a" * size
        for similarity in (*LEVELS, *(level + _best_match.MARGIN for level in LEVELS)):
            edits = round(size * (1 - similarity))
            # The likely match (same start) is exactly as similar as a text before it, which must win the tie.
            likely = "a" * 12 + "b" * edits + "a" * (size - 12 - edits)
            refs.append([ref])
            rets.append(["z" * size, "b" * edits + "a" * (size - edits), likely])
    refs += [["été à Zürich 🍵 naïve"], ["🍵" * 30], ["x" * 5000 + "y"]]
    rets += [["ete a Zurich naive", "été à Zürich 🍵 naïf", "été"], ["🍵" * 29 + "☕", "🍵"], ["x" * 5000, "y" * 5001]]

    def kernel(queries: list[str], choices: list[str], cutoff: float | None) -> np.ndarray:
        return np.asarray(process.cpdist(queries, choices, scorer=fn, dtype=np.float64, score_cutoff=cutoff))

    lengths = [len(ret) for ref, ret in zip(refs, rets, strict=True) for _ in ref]
    every = np.asarray(process.cpdist(*pair_lists(refs, rets), scorer=fn, dtype=np.float64))
    best, where = row_best(every, lengths)
    got_best, got_where = row_best(pruned_similarities(refs, rets, kernel), lengths)
    assert got_best.tolist() == best.tolist()
    assert got_where.tolist() == where.tolist()
