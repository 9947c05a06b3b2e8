"""The ranking measures, one file each: what a measure computes (its docstring gives the formula and a
citation), never how files are read or runs are joined.

To add a measure: write its file here (a frozen dataclass subclassing :class:`~.._measure.Measure` with a
``compute(ranked)``), then add its name and module to :data:`MODULES` below; :func:`~ragrecall.ranking.parse_measure`
then reads its name. A measure that trec_eval also has gets one row in :mod:`ragrecall.ranking.trec_names`.
"""

import functools
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._measure import Measure

__all__ = ["MODULES", "REGISTRY", "measure_named", "registry"]

MODULES: dict[str, str] = {
    "Recall": "recall",
    "P": "precision",
    "F": "fmeasure",
    "RR": "rr",
    "Success": "success",
    "AP": "ap",
    "nDCG": "ndcg",
    "ERR": "err",
    "Rprec": "rprec",
    "ExtRR": "extrr",
    "NumQ": "num_q",
    "NumRet": "num_ret",
    "NumRel": "num_rel",
    "NumRelRet": "num_rel_ret",
    "NumNonRelJudgedRet": "num_nonrel_judged_ret",
    "GMAP": "gmap",
    "Bpref": "bpref",
    "GMBpref": "gm_bpref",
    "infAP": "infap",
    "IPrec": "iprec",
    "IPrecAvg": "iprec_avg",
    "Utility": "utility",
    "BinG": "bing",
    "G": "g",
    "nDCGRel": "ndcg_rel",
    "RnDCG": "rndcg",
    "RelativeP": "relative_p",
    "SetAP": "set_ap",
    "RBP": "rbp",
    "RBPResid": "rbp_resid",
    "Unj": "unjudged",
    "Judged": "judged",
}
"""Every measure's name (in measure strings, and the name of its default instance in its module) → its
module, in the order ``parse_measure`` lists them. A module is imported when its measure is first asked for:
the command line computing three measures does not pay for the other thirty."""


def measure_named(name: str) -> "Measure | None":
    """The measure called ``name`` (its canonical name), with its default parameters; None if there is none."""
    module = MODULES.get(name)
    if module is None:
        return None
    measure: Measure = getattr(importlib.import_module(f".{module}", __name__), name)
    return measure


@functools.cache
def registry() -> "tuple[Measure, ...]":
    """Every measure, with its default parameters, in the order of :data:`MODULES`."""
    return tuple(m for m in map(measure_named, MODULES) if m is not None)


def __getattr__(name: str) -> object:
    if name == "REGISTRY":  # every measure (imports them all)
        return registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
