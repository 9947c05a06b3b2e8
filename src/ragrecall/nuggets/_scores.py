"""The nugget scores: nuggetizer's four (V_strict, V, A_strict, A) and ragrecall's weighted one.

With ``s`` nuggets labelled ``support``, ``p`` labelled ``partial_support`` and ``n`` nuggets in all (every
other label, ``not_support`` and ``failed`` included, counts 0):

- ``strict_*`` = s / n, partial support counting 0;
- ``vital`` and ``all`` = (s + 0.5 p) / n;
- ``*_vital`` over the nuggets whose importance is ``vital``, ``*_all`` over every nugget;
- ``weighted`` = Σ wᵢ cᵢ / Σ wᵢ over every nugget, with w = 1 for a vital nugget and 0.5 for any other, and
  c = 1 for support, 0.5 for partial support, 0 otherwise.

A nugget is vital when its importance is ``"vital"`` (callers read a missing importance as vital, as nuggetizer
reads its nuggets files; any other importance, ``"failed"`` included, is not vital). With no vital nugget the
vital scores have nothing to measure: None here (unscorable), or 0.0 with ``nuggetizer_compat`` (what nuggetizer
writes). No nugget at all: every score None, or 0.0 with ``nuggetizer_compat``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

__all__ = ["IMPORTANCES", "LABELS", "SCORES", "Importance", "Label", "Score", "credit", "nugget_scores"]

Label = Literal["support", "partial_support", "not_support"]
Importance = Literal["vital", "okay"]
Score = Literal["strict_vital", "vital", "strict_all", "all", "weighted"]
LABELS: tuple[Label, ...] = ("support", "partial_support", "not_support")
"""The three grades of a nugget's assignment, best first."""
IMPORTANCES: tuple[Importance, ...] = ("vital", "okay")
SCORES: tuple[Score, ...] = ("strict_vital", "vital", "strict_all", "all", "weighted")
"""Every score a nugget recall result carries, in nuggetizer's order then ragrecall's own."""
_OKAY_WEIGHT = 0.5
_PARTIAL = 0.5


def credit(label: str, *, strict: bool = False) -> float:
    """What one nugget's assignment counts: 1 for ``support``, 0.5 for ``partial_support`` (0 when ``strict``),
    0 for anything else (``not_support``, ``failed``)."""
    if label == "support":
        return 1.0
    return _PARTIAL if label == "partial_support" and not strict else 0.0


def nugget_scores(
    nuggets: Iterable[tuple[str | None, str]], *, nuggetizer_compat: bool = False
) -> dict[Score, float | None]:
    """The five scores of ``(importance, assignment)`` pairs (see the module's formulas).

    Computed as nuggetizer computes them (integer counts, then one division), so that its numbers come out
    bit for bit. A score with nothing to average is None, or 0.0 when ``nuggetizer_compat``.
    """
    empty = 0.0 if nuggetizer_compat else None
    n_all = n_vital = strict_all = strict_vital = partial_all = partial_vital = 0
    weighted_sum = weights = 0.0
    for importance, label in nuggets:
        vital = importance == "vital"
        n_all += 1
        n_vital += vital
        supported, partial = label == "support", label == "partial_support"
        strict_all += supported
        partial_all += partial
        if vital:
            strict_vital += supported
            partial_vital += partial
        weight = 1.0 if vital else _OKAY_WEIGHT
        weights += weight
        weighted_sum += weight * credit(label)
    return {
        "strict_vital": strict_vital / n_vital if n_vital else empty,
        "vital": (strict_vital + _PARTIAL * partial_vital) / n_vital if n_vital else empty,
        "strict_all": strict_all / n_all if n_all else empty,
        "all": (strict_all + _PARTIAL * partial_all) / n_all if n_all else empty,
        "weighted": weighted_sum / weights if weights else empty,
    }
