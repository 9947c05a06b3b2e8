"""Ranking measures of the IR literature, computed as trec_eval computes them.

Measures are small value objects (``nDCG@10``, ``AP``, ``Recall(rel=2)@100``, ``F(beta=2)@5``) that
:func:`parse_measure` also reads from strings. :func:`evaluate_run` scores a whole run against judgments
(dicts, or TREC files read by :func:`read_run` / :func:`read_qrels`); :class:`RankingMetric` scores one
:class:`~ragrecall.Sample` like every other metric; :func:`parse_ranking` reads the ranking an LLM reranker
wrote.

:class:`RankingMetric` and :func:`parse_ranking` (with their evidence models) are imported on first use, so
that evaluating runs and reading TREC files does not load pydantic and the Sample machinery.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports
from ._measure import Measure
from ._parse import MEASURES, parse_measure
from ._table import Qrels, Run
from .evaluate import RunEvaluation, evaluate_run
from .measures.ap import AP, AveragePrecision
from .measures.err import ERR, ExpectedReciprocalRank
from .measures.extrr import ExtendedReciprocalRank, ExtRR
from .measures.fmeasure import F, FMeasure
from .measures.ndcg import NDCG, nDCG
from .measures.precision import P, Precision
from .measures.recall import Recall, RecallMeasure
from .measures.rprec import Rprec, RPrecision
from .measures.rr import RR, ReciprocalRank
from .measures.success import Success, SuccessMeasure
from .trec_io import read_qrels, read_run, write_qrels, write_run

__all__ = [
    "AP",
    "ERR",
    "MEASURES",
    "NDCG",
    "RR",
    "AveragePrecision",
    "ExpectedReciprocalRank",
    "ExtRR",
    "ExtendedReciprocalRank",
    "F",
    "FMeasure",
    "Measure",
    "P",
    "ParsedRanking",
    "Precision",
    "Qrels",
    "RPrecision",
    "RankedItem",
    "RankingEvidence",
    "RankingMetric",
    "Recall",
    "RecallMeasure",
    "ReciprocalRank",
    "Rprec",
    "Run",
    "RunEvaluation",
    "Success",
    "SuccessMeasure",
    "evaluate_run",
    "nDCG",
    "parse_measure",
    "parse_ranking",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]

_LAZY = {
    "RankedItem": ".metric",
    "RankingEvidence": ".metric",
    "RankingMetric": ".metric",
    "ParsedRanking": "._parse_ranking",
    "parse_ranking": "._parse_ranking",
}

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time these names resolve lazily
    from ._parse_ranking import ParsedRanking, parse_ranking
    from .metric import RankedItem, RankingEvidence, RankingMetric
