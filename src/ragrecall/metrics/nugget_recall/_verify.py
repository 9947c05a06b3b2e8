"""Check a nugget's label against the contexts, with the code that checks claim quotes.

- ``support``: the quotes must state the whole nugget, checked exactly as a supported claim
  (:func:`ragrecall.metrics.context_recall.check_support`: located, the sentence holding each quote, polarity,
  subject, numbers, units, ranges, quotes adding up, predicate).
- ``partial_support``: three checks, all of which must pass.
  1. ``part`` is words of the nugget: every content term of the part occurs in the nugget (check ``"part"``).
  2. The quotes state the part, checked as a claim would be (the same :func:`check_support`).
  3. Nothing in the quotes' sentences contradicts the rest of the nugget: the same check is run with the whole
     nugget, and it must pass or fail only in a way the part explains — a check that finds something of the
     nugget *absent* from the evidence (``subject``, ``number``, ``range``, ``predicate``, ``off_topic``,
     ``unrelated``) whose detail (the missing name or number) is not in the part. A failure that reads as a
     contradiction (``polarity``: a negation differs; ``unit``: the units differ) is never explained by the part.
     What this cannot see: a different value stated for the rest of the nugget ("6 km" where the nugget says
     "5 km") reads as "number not in evidence", so it is explained, as an absent number would be.
- ``not_support``: nothing to check.

Deterministic, no LLM call. The feedback for the judge names the failure and the rule, never where to look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...text.locate import fold
from ...text.terms import content_terms
from ..context_recall import Checked, Contexts, Support, check_support
from ._replies import Assigned

__all__ = ["EXPLAINED_BY_PART", "CheckedNugget", "check_assignment"]

EXPLAINED_BY_PART = frozenset({"subject", "number", "range", "predicate", "off_topic", "unrelated"})
"""Checks whose failure on the whole nugget means "something of it is absent from the evidence"."""


@dataclass(frozen=True)
class CheckedNugget:
    """The judge's label on one nugget, its quotes checked."""

    label: str
    """The judge's label."""
    checked: Checked
    part: str | None
    reason: str


def check_assignment(nugget: str, assigned: Assigned, contexts: Contexts, *, threshold: float) -> CheckedNugget:
    """Check ``assigned`` (quotes numbering contexts from 1) against ``contexts``."""
    reason = assigned.reason.strip()
    if assigned.label == "not_support":
        return CheckedNugget("not_support", Checked([], "none"), None, reason)
    if assigned.label == "support":
        checked = check_support(nugget, True, assigned.support, contexts, threshold=threshold)
        return CheckedNugget("support", checked, None, reason)
    part = assigned.part.strip()
    return CheckedNugget(
        "partial_support", check_partial(nugget, part, assigned.support, contexts, threshold), part, reason
    )


def check_partial(nugget: str, part: str, support: Sequence[Support], contexts: Contexts, threshold: float) -> Checked:
    """The three checks of a partial support (module docstring)."""
    foreign = sorted(content_terms(part) - content_terms(nugget))
    if foreign:
        problem = f"part not in the nugget: {', '.join(foreign[:5])}"
        feedback = "the part must be words of the nugget itself; give the words of the nugget the quote states"
        quotes = check_support(part, True, support, contexts, threshold=threshold).quotes
        return Checked(quotes, "unverified", problem, feedback, "part")
    stated = check_support(part, True, support, contexts, threshold=threshold)
    if stated.verification == "unverified":
        problem = f"part: {stated.problem}" if stated.problem else "part not stated"
        return Checked(stated.quotes, "unverified", problem, stated.feedback, stated.check)
    whole = check_support(nugget, True, support, contexts, threshold=threshold)
    if whole.verification != "unverified" or _explained(whole, part):
        return stated
    problem = f"the evidence contradicts the rest of the nugget: {whole.problem}"
    feedback = "the quoted passage contradicts the nugget; a partial support must not contradict what it leaves out"
    return Checked(stated.quotes, "unverified", problem, feedback, whole.check)


def _explained(whole: Checked, part: str) -> bool:
    """True when the whole nugget failed only because something outside ``part`` is absent from the evidence."""
    if whole.check not in EXPLAINED_BY_PART:
        return False
    detail = (whole.problem or "").partition(":")[2].strip()
    return not detail or fold(detail) not in fold(part)
