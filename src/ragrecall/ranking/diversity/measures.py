"""The intent-aware measures of ndeval, the TREC Web track's diversity evaluation tool, as value objects.

Each names itself as ndeval's column does (``alpha-nDCG@10``, ``ERR-IA@20``), except subtopic recall, named
``S-recall@k`` (ndeval's ``strec@k`` is read too). With ``A`` the query's subtopics that some document is
relevant to, ``g_i`` the gain of the document at rank ``i`` (1-based) — the sum over the subtopics it is
relevant to of ``(1 - alpha)`` to the power of how many documents above it were relevant to that subtopic —
and ``g*_i`` the gains of the ideal ranking (built greedily, ties going to the greater document ID, as
ndeval does):

- ``alpha-DCG@k`` = Σ_{i≤k} g_i / log2(i+1), divided by the same sum for a ranking whose every document is
  relevant to every subtopic ("ideal ideal", collection independent) — Clarke et al., SIGIR 2008;
- ``alpha-nDCG@k`` = Σ_{i≤k} g_i / log2(i+1) over Σ_{i≤k} g*_i / log2(i+1) (the ideal ranking's);
- ``ERR-IA@k`` and ``nERR-IA@k``: the same two normalisations of Σ_{i≤k} g_i / i — Chapelle et al., CIKM 2009,
  intent aware (Agrawal et al., WSDM 2009) with uniform intents;
- ``NRBP`` = (1 - (1-alpha)·beta) / A · Σ_i g_i · beta^(i-1) over the whole ranking, ``nNRBP`` = NRBP over the
  ideal ranking's — Clarke et al., ICTIR 2009;
- ``MAP-IA`` = the mean over the A subtopics of each one's average precision;
- ``P-IA@k`` = Σ_{i≤k} (subtopics document i is relevant to) / (k · A);
- ``S-recall@k`` = subtopics covered by the first k documents / A — Zhai et al., SIGIR 2003.

A query without any relevant document scores 0 on all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...errors import ConfigurationError

__all__ = ["DIVERSITY_MEASURES", "NDEVAL_MEASURES", "DiversityMeasure", "parse_diversity_measure"]


@dataclass(frozen=True)
class DiversityMeasure:
    """An intent-aware measure, at a cutoff ``k`` (measures with ``CUT``) or over the whole ranking."""

    cutoff: int | None = None
    NAME: ClassVar[str] = ""
    NDEVAL: ClassVar[str] = ""
    """ndeval's name for it (without the cutoff)."""
    CUT: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.CUT and (isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or self.cutoff < 1):
            raise ConfigurationError(f"{self.NAME} needs a cutoff k >= 1 ({self.NAME}@10), got {self.cutoff!r}")
        if not self.CUT and self.cutoff is not None:
            raise ConfigurationError(f"{self.NAME} has no cutoff (it covers the whole ranking), got @{self.cutoff}")

    def __str__(self) -> str:
        return f"{self.NAME}@{self.cutoff}" if self.CUT else self.NAME

    @property
    def ndeval_name(self) -> str:
        """The column name ndeval prints."""
        return f"{self.NDEVAL}@{self.cutoff}" if self.CUT else self.NDEVAL


class ERRIA(DiversityMeasure):
    NAME = NDEVAL = "ERR-IA"


class NERRIA(DiversityMeasure):
    NAME = NDEVAL = "nERR-IA"


class AlphaDCG(DiversityMeasure):
    NAME = NDEVAL = "alpha-DCG"


class AlphaNDCG(DiversityMeasure):
    NAME = NDEVAL = "alpha-nDCG"


class NRBP(DiversityMeasure):
    NAME = NDEVAL = "NRBP"
    CUT = False


class NNRBP(DiversityMeasure):
    NAME = NDEVAL = "nNRBP"
    CUT = False


class MAPIA(DiversityMeasure):
    NAME = NDEVAL = "MAP-IA"
    CUT = False


class PIA(DiversityMeasure):
    NAME = NDEVAL = "P-IA"


class SRecall(DiversityMeasure):
    NAME = "S-recall"
    NDEVAL = "strec"


DIVERSITY_MEASURES: dict[str, type[DiversityMeasure]] = {
    m.NAME.lower(): m for m in (ERRIA, NERRIA, AlphaDCG, AlphaNDCG, NRBP, NNRBP, MAPIA, PIA, SRecall)
}
_ALIASES = {"strec": SRecall, "α-ndcg": AlphaNDCG, "α-dcg": AlphaDCG, "err_ia": ERRIA, "alpha_ndcg": AlphaNDCG}
_PATTERN = re.compile(r"^\s*([^@\s]+)\s*(?:@\s*(\d+))?\s*$")


def parse_diversity_measure(text: str | DiversityMeasure) -> DiversityMeasure:
    """A measure from its name: ``alpha-nDCG@10``, ``ERR-IA@20``, ``S-recall@5`` (or ``strec@5``), ``NRBP``...

    Raises:
        ConfigurationError: an unknown name (the message lists the known ones) or a missing or extra cutoff.
    """
    if isinstance(text, DiversityMeasure):
        return text
    match = _PATTERN.match(text) if isinstance(text, str) else None
    kind = None
    if match:
        name = match.group(1).lower()
        kind = DIVERSITY_MEASURES.get(name) or _ALIASES.get(name)
    if match is None or kind is None:
        known = ", ".join(m.NAME + ("@k" if m.CUT else "") for m in DIVERSITY_MEASURES.values())
        raise ConfigurationError(f"unknown diversity measure {text!r}; known: {known}")
    return kind(int(match.group(2)) if match.group(2) else None)


NDEVAL_MEASURES: tuple[DiversityMeasure, ...] = (
    *(ERRIA(k) for k in (5, 10, 20)),
    *(NERRIA(k) for k in (5, 10, 20)),
    *(AlphaDCG(k) for k in (5, 10, 20)),
    *(AlphaNDCG(k) for k in (5, 10, 20)),
    NRBP(),
    NNRBP(),
    MAPIA(),
    *(PIA(k) for k in (5, 10, 20)),
    *(SRecall(k) for k in (5, 10, 20)),
)
"""What ndeval prints, in its order."""
