"""One query's intent-aware values, computed as ndeval computes them (see :mod:`.measures`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._qrels import TopicJudgments
from .measures import ERRIA, MAPIA, NERRIA, NNRBP, NRBP, PIA, AlphaDCG, AlphaNDCG, DiversityMeasure, SRecall

__all__ = ["Topic", "ideal_ranking", "topic_values", "walk_ideal"]


def _discount(i: int) -> float:
    """ndeval's discount of the document at 0-based position ``i``."""
    return math.log(2.0) / math.log(i + 2.0)


def ideal_ranking(judged: TopicJudgments, alpha: float) -> list[str]:
    """The relevant documents in the greedy ideal order: at each rank the document adding the most gain, ties
    going to the greater document ID (ndeval's approximation of an NP-hard ideal)."""
    gain = [1.0] * len(judged.subtopics)
    left = {doc: tuple(sorted(s)) for doc, s in judged.relevant.items() if s}
    out = []
    while left:
        best = max(left, key=lambda doc: (sum(gain[j] for j in left[doc]), doc))
        for j in left.pop(best):
            gain[j] *= 1.0 - alpha
        out.append(best)
    return out


@dataclass(frozen=True)
class Topic:
    """Running sums over one ranking: ``dcg[k]``, ``err[k]``, ``hits[k]`` (subtopic relevances) and
    ``covered[k]`` over its first k documents (k = 0..len), plus NRBP's sum and each subtopic's precision
    sum."""

    dcg: list[float]
    err: list[float]
    hits: list[int]
    covered: list[int]
    nrbp: float
    precision_sums: list[float]

    def at(self, values: list[float] | list[int], k: int) -> float:
        """A running sum over the first ``k`` documents (all of them when the ranking is shorter)."""
        return float(values[min(k, len(values) - 1)])


def _walk(judged: TopicJudgments, ranking: list[str], alpha: float, beta: float) -> Topic:
    n = len(judged.subtopics)
    gain = [1.0] * n
    seen = [0] * n
    dcg, err, hits, covered = [0.0], [0.0], [0], [0]
    nrbp, decay = 0.0, 1.0
    precision = [0.0] * n
    for i, doc in enumerate(ranking):
        score = 0.0
        relevant = sorted(judged.relevant.get(doc, ()))
        fresh = 0
        for j in relevant:
            score += gain[j]
            gain[j] *= 1.0 - alpha
            fresh += seen[j] == 0
            seen[j] += 1
            precision[j] += seen[j] / (i + 1)
        dcg.append(dcg[-1] + score * _discount(i))
        err.append(err[-1] + score / (i + 1))
        hits.append(hits[-1] + len(relevant))
        covered.append(covered[-1] + fresh)
        nrbp += score * decay
        decay *= beta
    return Topic(dcg, err, hits, covered, nrbp, precision)


def topic_values(
    judged: TopicJudgments,
    ranking: list[str],
    ideal: Topic,
    measures: tuple[DiversityMeasure, ...],
    alpha: float,
    beta: float,
) -> dict[DiversityMeasure, float]:
    """Each measure's value for ``ranking`` (documents best first), ``ideal`` being :func:`walk_ideal`'s."""
    covered = judged.covered
    if covered == 0:
        return dict.fromkeys(measures, 0.0)
    run = _walk(judged, ranking, alpha, beta)
    out: dict[DiversityMeasure, float] = {}
    for m in measures:
        k = m.cutoff or 0
        if isinstance(m, AlphaDCG):
            ideal_ideal = sum(covered * (1.0 - alpha) ** i * _discount(i) for i in range(k))
            out[m] = run.at(run.dcg, k) / ideal_ideal
        elif isinstance(m, AlphaNDCG):
            value = run.at(run.dcg, k)
            out[m] = value / ideal.at(ideal.dcg, k) if value else 0.0
        elif isinstance(m, ERRIA):
            ideal_ideal = sum(covered * (1.0 - alpha) ** i / (i + 1) for i in range(k))
            out[m] = run.at(run.err, k) / ideal_ideal
        elif isinstance(m, NERRIA):
            value = run.at(run.err, k)
            out[m] = value / ideal.at(ideal.err, k) if value else 0.0
        elif isinstance(m, NRBP):
            out[m] = run.nrbp * (1.0 - (1.0 - alpha) * beta) / covered
        elif isinstance(m, NNRBP):
            out[m] = run.nrbp / ideal.nrbp if ideal.nrbp else 0.0
        elif isinstance(m, MAPIA):
            parts = (s / n for s, n in zip(run.precision_sums, judged.per_subtopic, strict=True) if n)
            out[m] = sum(parts) / covered
        elif isinstance(m, PIA):
            out[m] = run.at(run.hits, k) / (k * covered)
        elif isinstance(m, SRecall):
            out[m] = run.at(run.covered, k) / covered
        else:  # pragma: no cover - every measure class is handled above
            raise TypeError(f"no computation for {m!r}")
    return out


def walk_ideal(judged: TopicJudgments, alpha: float, beta: float) -> Topic:
    """The running sums of the ideal ranking."""
    return _walk(judged, ideal_ranking(judged, alpha), alpha, beta)
