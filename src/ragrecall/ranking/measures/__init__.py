"""The ranking measures, one file each: what a measure computes (its docstring gives the formula and a
citation), never how files are read or runs are joined.

To add a measure: write its file here (a frozen dataclass subclassing :class:`~.._measure.Measure` with a
``compute(ranked)``), then register it in :data:`REGISTRY` below; :func:`~ragrecall.ranking.parse_measure`
then reads its name. A measure that trec_eval also has gets one row in :mod:`ragrecall.ranking.trec_names`.
"""

from .._measure import Measure
from .ap import AP
from .bing import BinG
from .bpref import Bpref
from .err import ERR
from .extrr import ExtRR
from .fmeasure import F
from .g import G
from .gm_bpref import GMBpref
from .gmap import GMAP
from .infap import infAP
from .iprec import IPrec
from .iprec_avg import IPrecAvg
from .judged import Judged
from .ndcg import nDCG
from .ndcg_rel import nDCGRel
from .num_nonrel_judged_ret import NumNonRelJudgedRet
from .num_q import NumQ
from .num_rel import NumRel
from .num_rel_ret import NumRelRet
from .num_ret import NumRet
from .precision import P
from .rbp import RBP
from .rbp_resid import RBPResid
from .recall import Recall
from .relative_p import RelativeP
from .rndcg import RnDCG
from .rprec import Rprec
from .rr import RR
from .set_ap import SetAP
from .success import Success
from .unjudged import Unj
from .utility import Utility

__all__ = ["REGISTRY"]

REGISTRY: tuple[Measure, ...] = (
    Recall,
    P,
    F,
    RR,
    Success,
    AP,
    nDCG,
    ERR,
    Rprec,
    ExtRR,
    NumQ,
    NumRet,
    NumRel,
    NumRelRet,
    NumNonRelJudgedRet,
    GMAP,
    Bpref,
    GMBpref,
    infAP,
    IPrec,
    IPrecAvg,
    Utility,
    BinG,
    G,
    nDCGRel,
    RnDCG,
    RelativeP,
    SetAP,
    RBP,
    RBPResid,
    Unj,
    Judged,
)
"""Every measure, with its default parameters, in the order ``parse_measure`` lists them."""
