"""Diversity evaluation with subtopic judgments, as the NTCIR/TREC ``ndeval`` tool computes it: α-nDCG@k,
ERR-IA@k, subtopic recall (S-recall@k) and the rest of ndeval's columns.

:func:`evaluate_diversity` scores a run against ``query subtopic doc grade`` judgments
(:func:`read_subtopic_qrels`); the measures are value objects parsed from their names
(:func:`parse_diversity_measure`); ``ragrecall ndeval QRELS RUN`` prints ndeval's CSV.
"""

from ._qrels import SubtopicQrels, TopicJudgments, read_subtopic_qrels
from ._run import RankedRun, read_ranked_run
from .evaluate import DiversityEvaluation, evaluate_diversity
from .measures import (
    ERRIA,
    MAPIA,
    NDEVAL_MEASURES,
    NERRIA,
    NNRBP,
    NRBP,
    PIA,
    AlphaDCG,
    AlphaNDCG,
    DiversityMeasure,
    SRecall,
    parse_diversity_measure,
)

__all__ = [
    "ERRIA",
    "MAPIA",
    "NDEVAL_MEASURES",
    "NERRIA",
    "NNRBP",
    "NRBP",
    "PIA",
    "AlphaDCG",
    "AlphaNDCG",
    "DiversityEvaluation",
    "DiversityMeasure",
    "RankedRun",
    "SRecall",
    "SubtopicQrels",
    "TopicJudgments",
    "evaluate_diversity",
    "parse_diversity_measure",
    "read_ranked_run",
    "read_subtopic_qrels",
]
