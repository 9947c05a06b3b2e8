"""The relevance string: the grades of the first documents retrieved, one character each."""

from __future__ import annotations

from .._ranked import Ranked

__all__ = ["relstrings"]


def relstrings(ranked: Ranked, length: int = 10) -> list[str]:
    """Per query, the grades of its first ``length`` documents retrieved as one string: the grade when it is 0
    to 9, ``>`` above 9, ``-`` for a document absent from the judgments, ``.`` for one judged with a negative
    grade (in the pool but unjudged). Not a number, so not a :class:`~.._measure.Measure`: trec_eval's
    ``relstring`` prints it for each query only.

    Cite: trec_eval's documentation of ``relstring`` (github.com/usnistgov/trec_eval).
    """
    depth = [min(max(length, 0), int(n)) for n in ranked.n_ret.tolist()]
    rows = [["-"] * d for d in depth]
    early = ranked.hit_pos <= length
    hits = zip(
        ranked.hit_query[early].tolist(), ranked.hit_pos[early].tolist(), ranked.hit_grade[early].tolist(), strict=True
    )
    for q, pos, grade in hits:
        if pos <= depth[q]:
            rows[q][pos - 1] = ">" if grade > 9 else str(grade) if grade >= 0 else "."
    return ["".join(row) for row in rows]
