"""What the steps pass to each other: claims with their origin, and what scoring one sample produced."""

from __future__ import annotations

from dataclasses import dataclass

from ...usage import Usage
from ._evidence import DroppedClaim, Origin
from ._judge import Judged

__all__ = ["Claim", "Outcome"]


@dataclass(frozen=True)
class Claim:
    """A claim to judge and where it came from."""

    text: str
    origin: Origin


@dataclass(frozen=True)
class Outcome:
    """What scoring a sample produced, in either mode: the claims, their checked verdicts (aligned), what was
    dropped, what it cost, and how many follow-up requests were sent."""

    claims: list[Claim]
    judged: list[Judged]
    dropped: list[DroppedClaim]
    usage: Usage
    reasks: int
