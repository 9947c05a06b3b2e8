"""Ranking measures of the IR literature, computed as trec_eval computes them.

Measures are small value objects (``nDCG@10``, ``AP``, ``Recall(rel=2)@100``, ``F(beta=2)@5``, ``Bpref``,
``IPrec@0.5``, ``RBP(p=0.8)``, ``Judged@10``), one file each in :mod:`.measures`, that :func:`parse_measure`
also reads from strings, trec_eval's names included (``ndcg_cut.10``, ``bpref``, ``iprec_at_recall_0.50``).
:func:`evaluate_run` scores a whole run against judgments (dicts, or TREC files read by :func:`read_run` /
:func:`read_qrels`); :class:`RankingMetric` scores one :class:`~ragrecall.Sample` like every other metric;
:func:`parse_ranking` reads the ranking an LLM reranker wrote.

Every name is imported on first use: ``import ragrecall.ranking`` loads nothing (``ragrecall trec`` on a small
run needs no numpy), evaluating runs and reading TREC files does not load pydantic and the Sample machinery
(:class:`RankingMetric`, :func:`parse_ranking`), and a run evaluated on three measures loads those three
(``MEASURES`` holds them all).
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

__all__ = [
    "AP",
    "ERR",
    "GMAP",
    "MEASURES",
    "NDCG",
    "RBP",
    "RNDCG",
    "RR",
    "AveragePrecision",
    "BinG",
    "BinaryG",
    "BinaryPreference",
    "Bpref",
    "ExpectedReciprocalRank",
    "ExtRR",
    "ExtendedReciprocalRank",
    "F",
    "FMeasure",
    "G",
    "GMBpref",
    "GeometricBpref",
    "GeometricMAP",
    "IPrec",
    "IPrecAvg",
    "InferredAP",
    "InterpolatedPrecision",
    "InterpolatedPrecisionAverage",
    "Judged",
    "JudgedShare",
    "Measure",
    "NDCGRel",
    "NormalizedGain",
    "NumNonRelJudgedRet",
    "NumNonRelevantJudgedRetrieved",
    "NumQ",
    "NumQueries",
    "NumRel",
    "NumRelRet",
    "NumRelevant",
    "NumRelevantRetrieved",
    "NumRet",
    "NumRetrieved",
    "P",
    "ParsedRanking",
    "Precision",
    "Qrels",
    "RBPResid",
    "RBPResidual",
    "RPrecision",
    "RankBiasedPrecision",
    "RankedItem",
    "RankingEvidence",
    "RankingMetric",
    "Recall",
    "RecallMeasure",
    "ReciprocalRank",
    "RelativeP",
    "RelativePrecision",
    "RnDCG",
    "Rprec",
    "Run",
    "RunEvaluation",
    "SetAP",
    "SetAveragePrecision",
    "Success",
    "SuccessMeasure",
    "Unj",
    "Unjudged",
    "Utility",
    "UtilityMeasure",
    "evaluate_run",
    "infAP",
    "nDCG",
    "nDCGRel",
    "open_input",
    "parse_measure",
    "parse_ranking",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]

_LAZY = {
    "Measure": "._measure",
    "parse_measure": "._parse",
    "open_input": "._source",
    "Qrels": "._table",
    "Run": "._table",
    "RunEvaluation": ".evaluate",
    "evaluate_run": ".evaluate",
    "read_qrels": ".trec_io",
    "read_run": ".trec_io",
    "write_qrels": ".trec_io",
    "write_run": ".trec_io",
    "MEASURES": "._parse",
    "AP": ".measures.ap",
    "AveragePrecision": ".measures.ap",
    "BinaryG": ".measures.bing",
    "BinG": ".measures.bing",
    "BinaryPreference": ".measures.bpref",
    "Bpref": ".measures.bpref",
    "ERR": ".measures.err",
    "ExpectedReciprocalRank": ".measures.err",
    "ExtendedReciprocalRank": ".measures.extrr",
    "ExtRR": ".measures.extrr",
    "F": ".measures.fmeasure",
    "FMeasure": ".measures.fmeasure",
    "G": ".measures.g",
    "NormalizedGain": ".measures.g",
    "GeometricBpref": ".measures.gm_bpref",
    "GMBpref": ".measures.gm_bpref",
    "GMAP": ".measures.gmap",
    "GeometricMAP": ".measures.gmap",
    "InferredAP": ".measures.infap",
    "infAP": ".measures.infap",
    "InterpolatedPrecision": ".measures.iprec",
    "IPrec": ".measures.iprec",
    "InterpolatedPrecisionAverage": ".measures.iprec_avg",
    "IPrecAvg": ".measures.iprec_avg",
    "Judged": ".measures.judged",
    "JudgedShare": ".measures.judged",
    "NDCG": ".measures.ndcg",
    "nDCG": ".measures.ndcg",
    "NDCGRel": ".measures.ndcg_rel",
    "nDCGRel": ".measures.ndcg_rel",
    "NumNonRelevantJudgedRetrieved": ".measures.num_nonrel_judged_ret",
    "NumNonRelJudgedRet": ".measures.num_nonrel_judged_ret",
    "NumQ": ".measures.num_q",
    "NumQueries": ".measures.num_q",
    "NumRel": ".measures.num_rel",
    "NumRelevant": ".measures.num_rel",
    "NumRelevantRetrieved": ".measures.num_rel_ret",
    "NumRelRet": ".measures.num_rel_ret",
    "NumRet": ".measures.num_ret",
    "NumRetrieved": ".measures.num_ret",
    "P": ".measures.precision",
    "Precision": ".measures.precision",
    "RBP": ".measures.rbp",
    "RankBiasedPrecision": ".measures.rbp",
    "RBPResid": ".measures.rbp_resid",
    "RBPResidual": ".measures.rbp_resid",
    "Recall": ".measures.recall",
    "RecallMeasure": ".measures.recall",
    "RelativeP": ".measures.relative_p",
    "RelativePrecision": ".measures.relative_p",
    "RNDCG": ".measures.rndcg",
    "RnDCG": ".measures.rndcg",
    "Rprec": ".measures.rprec",
    "RPrecision": ".measures.rprec",
    "RR": ".measures.rr",
    "ReciprocalRank": ".measures.rr",
    "SetAP": ".measures.set_ap",
    "SetAveragePrecision": ".measures.set_ap",
    "Success": ".measures.success",
    "SuccessMeasure": ".measures.success",
    "Unj": ".measures.unjudged",
    "Unjudged": ".measures.unjudged",
    "Utility": ".measures.utility",
    "UtilityMeasure": ".measures.utility",
    "RankedItem": ".metric",
    "RankingEvidence": ".metric",
    "RankingMetric": ".metric",
    "ParsedRanking": "._parse_ranking",
    "parse_ranking": "._parse_ranking",
}

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time these names resolve lazily
    from ._measure import Measure
    from ._parse import MEASURES, parse_measure
    from ._parse_ranking import ParsedRanking, parse_ranking
    from ._source import open_input
    from ._table import Qrels, Run
    from .evaluate import RunEvaluation, evaluate_run
    from .measures.ap import AP, AveragePrecision
    from .measures.bing import BinaryG, BinG
    from .measures.bpref import BinaryPreference, Bpref
    from .measures.err import ERR, ExpectedReciprocalRank
    from .measures.extrr import ExtendedReciprocalRank, ExtRR
    from .measures.fmeasure import F, FMeasure
    from .measures.g import G, NormalizedGain
    from .measures.gm_bpref import GeometricBpref, GMBpref
    from .measures.gmap import GMAP, GeometricMAP
    from .measures.infap import InferredAP, infAP
    from .measures.iprec import InterpolatedPrecision, IPrec
    from .measures.iprec_avg import InterpolatedPrecisionAverage, IPrecAvg
    from .measures.judged import Judged, JudgedShare
    from .measures.ndcg import NDCG, nDCG
    from .measures.ndcg_rel import NDCGRel, nDCGRel
    from .measures.num_nonrel_judged_ret import NumNonRelevantJudgedRetrieved, NumNonRelJudgedRet
    from .measures.num_q import NumQ, NumQueries
    from .measures.num_rel import NumRel, NumRelevant
    from .measures.num_rel_ret import NumRelevantRetrieved, NumRelRet
    from .measures.num_ret import NumRet, NumRetrieved
    from .measures.precision import P, Precision
    from .measures.rbp import RBP, RankBiasedPrecision
    from .measures.rbp_resid import RBPResid, RBPResidual
    from .measures.recall import Recall, RecallMeasure
    from .measures.relative_p import RelativeP, RelativePrecision
    from .measures.rndcg import RNDCG, RnDCG
    from .measures.rprec import Rprec, RPrecision
    from .measures.rr import RR, ReciprocalRank
    from .measures.set_ap import SetAP, SetAveragePrecision
    from .measures.success import Success, SuccessMeasure
    from .measures.unjudged import Unj, Unjudged
    from .measures.utility import Utility, UtilityMeasure
    from .metric import RankedItem, RankingEvidence, RankingMetric
    from .trec_io import read_qrels, read_run, write_qrels, write_run
