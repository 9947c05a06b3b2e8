"""trec_eval's measure names: its families, their parameter syntax and defaults, its groups, its order.

``-m NAME[.PARAMS]`` names a family (``P``, ``ndcg_cut``, ``iprec_at_recall`` ...) or a group (``official``,
``all_trec``, ``set``). A family expands into the columns trec_eval prints (``P.5,10`` into ``P_5`` and
``P_10``), each computed by one of this package's measures. Families print in trec_eval's table order, whatever
the order they were asked for in, and the parameters of the first ``-m`` that gives some for a family win.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError
from ._measure import Measure
from .measures import measure_named

__all__ = ["GROUPS", "TREC_FAMILIES", "Column", "TrecFamily", "is_trec_name", "parse_trec_single", "trec_columns"]

_CUTS = ("5", "10", "15", "20", "30", "100", "200", "500", "1000")
_MULTS = tuple(f"{x / 10:.1f}" for x in range(2, 21, 2))
_TENTHS = tuple(f"{x / 10:.1f}" for x in range(11))  # 0.0, 0.1, ... 1.0: IPrecAvg's eleven points


@dataclass(frozen=True)
class TrecFamily:
    """One trec_eval measure family: its name, how its parameters read, and the measure behind each column."""

    name: str
    style: str
    """``plain`` (no parameters), ``cut_long`` / ``cut_double`` (a list of cutoffs, one column each),
    ``params`` (a list of numbers, one column) or ``pairs`` (``name=value`` pairs, one column)."""
    build: Callable[[Any], Measure] | None
    """The measure of one column, from its parameter (a cutoff, the list of numbers, or the pairs); None for
    ``runid`` and ``relstring``, which are not numbers."""
    default: tuple[str, ...] = ()
    per_query: bool = True
    """Printed for each query with ``-q`` (``gm_map``, ``num_q``... are printed in the summary only)."""
    summary: bool = True
    """Printed in the summary (``relstring`` is printed for each query only)."""


@dataclass(frozen=True)
class Column:
    """One printed row name and what computes it."""

    label: str
    family: TrecFamily
    measure: Measure | None
    param: Any = field(default=None, compare=False)
    """The column's parameter: its cutoff or level, or the length of ``relstring``."""


def _m(name: str) -> Any:
    """The measure called ``name``, its module imported now (a family is built only when asked for)."""
    return measure_named(name)


def _pairs(text: Sequence[str]) -> list[tuple[str, str]]:
    return [tuple(p.split("=", 1)) for p in text]  # type: ignore[misc]


def _gains(pairs: list[tuple[str, str]]) -> str:
    return ",".join(f"{k}={_atof(v)!r}" for k, v in pairs if re.fullmatch(r"[+-]?\d+", k))


def _rbp(pairs: list[tuple[str, str]]) -> Measure:
    p = next((_atof(v) for k, v in pairs if k == "p"), 0.9)
    return _m("RBP")(p=p, gains=_gains(pairs))  # type: ignore[no-any-return]


TREC_FAMILIES: tuple[TrecFamily, ...] = (
    TrecFamily("runid", "plain", None, per_query=False),
    TrecFamily("num_q", "plain", lambda _: _m("NumQ"), per_query=False),
    TrecFamily("num_ret", "plain", lambda _: _m("NumRet")),
    TrecFamily("num_rel", "plain", lambda _: _m("NumRel")),
    TrecFamily("num_rel_ret", "plain", lambda _: _m("NumRelRet")),
    TrecFamily("map", "plain", lambda _: _m("AP")),
    TrecFamily("gm_map", "plain", lambda _: _m("GMAP"), per_query=False),
    TrecFamily("Rprec", "plain", lambda _: _m("Rprec")),
    TrecFamily("bpref", "plain", lambda _: _m("Bpref")),
    TrecFamily("recip_rank", "plain", lambda _: _m("RR")),
    TrecFamily("iprec_at_recall", "cut_double", lambda r: _m("IPrec") @ r, _TENTHS),
    TrecFamily("P", "cut_long", lambda k: _m("P") @ k, _CUTS),
    TrecFamily("relstring", "params", None, ("10",), summary=False),
    TrecFamily("recall", "cut_long", lambda k: _m("Recall") @ k, _CUTS),
    TrecFamily("infAP", "plain", lambda _: _m("infAP")),
    TrecFamily("gm_bpref", "plain", lambda _: _m("GMBpref"), per_query=False),
    TrecFamily(
        "Rprec_mult", "cut_double", lambda m: _m("Rprec")(mult=m), tuple(f"{x / 10:.1f}" for x in range(2, 21, 2))
    ),
    TrecFamily("utility", "params", lambda v: _m("Utility")(a=v[0], b=v[1], c=v[2], d=v[3]), ("1", "-1", "0", "0")),
    TrecFamily("11pt_avg", "params", lambda v: _m("IPrecAvg")(recalls=tuple(v)), _TENTHS),
    TrecFamily("binG", "plain", lambda _: _m("BinG")),
    TrecFamily("G", "pairs", lambda v: _m("G")(gains=_gains(v))),
    TrecFamily("ndcg", "pairs", lambda v: _m("nDCG")(gains=_gains(v))),
    TrecFamily("ndcg_rel", "pairs", lambda v: _m("nDCGRel")(gains=_gains(v))),
    TrecFamily("Rndcg", "pairs", lambda v: _m("RnDCG")(gains=_gains(v))),
    TrecFamily("ndcg_cut", "cut_long", lambda k: _m("nDCG") @ k, _CUTS),
    TrecFamily("map_cut", "cut_long", lambda k: _m("AP") @ k, _CUTS),
    TrecFamily("relative_P", "cut_long", lambda k: _m("RelativeP") @ k, _CUTS),
    TrecFamily("success", "cut_long", lambda k: _m("Success") @ k, ("1", "5", "10")),
    TrecFamily("set_P", "plain", lambda _: _m("P")),
    TrecFamily("set_relative_P", "plain", lambda _: _m("RelativeP")),
    TrecFamily("set_recall", "plain", lambda _: _m("Recall")),
    TrecFamily("set_map", "plain", lambda _: _m("SetAP")),
    TrecFamily("set_F", "params", lambda v: _m("F")(beta=math.sqrt(v[0])), ("1.0",)),
    TrecFamily("num_nonrel_judged_ret", "plain", lambda _: _m("NumNonRelJudgedRet")),
    TrecFamily("rbp", "pairs", _rbp),
    TrecFamily("rbp_resid", "plain", lambda _: _m("RBPResid")),
    TrecFamily("unj", "cut_long", lambda k: _m("Unj") @ k, ("5", "10", "20")),
)
"""trec_eval 10's measures that read TREC qrels, in the order it prints them."""

_BY_NAME = {f.name: f for f in TREC_FAMILIES}
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref")
GROUPS: dict[str, tuple[str, ...]] = {
    "official": (*_OFFICIAL, "recip_rank", "iprec_at_recall", "P"),
    "all_trec": tuple(f.name for f in TREC_FAMILIES),
    "set": (*_OFFICIAL[:5], "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"),
}
"""trec_eval's groups of measures (its "nicknames")."""


def is_trec_name(spec: str) -> bool:
    """Whether ``spec`` (``NAME`` or ``NAME.PARAMS``) names a trec_eval family or group."""
    name = spec.split(".", 1)[0]
    return name in _BY_NAME or name in GROUPS


def trec_columns(specs: Sequence[str], *, rel: int = 1, n_docs: int = 0) -> list[Column]:
    """The columns trec_eval prints for ``-m`` arguments ``specs``, in its order.

    ``rel`` is trec_eval's ``-l`` (the lowest relevant grade), given to every measure with a relevance
    threshold; ``n_docs`` its ``-N`` (the collection size, for ``utility``).

    Raises:
        ConfigurationError: an unknown name, or parameters trec_eval would refuse; the message lists the names.
    """
    marked: set[str] = set()
    params: dict[str, str] = {}
    for spec in specs:
        name, _, raw = spec.partition(".")
        if "." in spec and not raw:
            raise ConfigurationError(f"measure {spec!r} has an empty parameter list")
        if name in GROUPS:
            marked.update(GROUPS[name])
        elif name in _BY_NAME:
            marked.add(name)
        else:
            known = ", ".join([*GROUPS, *_BY_NAME])
            raise ConfigurationError(f"unknown trec_eval measure {spec!r}; known names: {known}")
        if raw and name not in params:
            params[name] = raw
    columns: list[Column] = []
    for family in TREC_FAMILIES:
        if family.name in marked:
            given = params.get(family.name)
            try:
                columns.extend(_expand(family, given, rel, n_docs))
            except ConfigurationError as exc:
                if str(exc).startswith(family.name):
                    raise
                raise ConfigurationError(f"{family.name}.{given}: {exc}") from exc
    return columns


def _expand(family: TrecFamily, raw: str | None, rel: int, n_docs: int) -> list[Column]:
    build = family.build or _no_measure
    values = raw.split(",") if raw is not None else list(family.default)
    if family.style == "plain":
        return [Column(family.name, family, _with(build(None), rel, n_docs) if family.build else None)]
    label = family.name if raw is None else f"{family.name}_{raw}"
    if family.style == "cut_long":
        cuts = sorted(_atol(v) for v in values)
        _check_cuts(family.name, cuts, positive=True)
        return [Column(f"{family.name}_{k}", family, _with(build(k), rel, n_docs), k) for k in cuts]
    if family.style == "cut_double":
        points = sorted(_atof(v) for v in values)
        _check_cuts(family.name, points, positive=False)
        return [Column(f"{family.name}_{x:3.2f}", family, _with(build(x), rel, n_docs), x) for x in points]
    if family.style == "params":
        numbers = [_atof(v) for v in values]
        if family.build is None:  # relstring: the length of the string
            return [Column(label, family, None, int(numbers[0]))]
        if family.name == "utility" and len(numbers) != 4:
            raise ConfigurationError(f"utility takes 4 coefficients (a,b,c,d), got {raw!r}")
        return [Column(label, family, _with(build(numbers), rel, n_docs))]
    pairs = _pairs(values)
    if any(len(p) != 2 for p in pairs):
        raise ConfigurationError(f"{family.name}: parameters are name=value pairs, got {raw!r}")
    return [Column(label, family, _with(build(pairs), rel, n_docs))]


def _no_measure(_: Any) -> Measure:
    raise ConfigurationError("this trec_eval name is not a number")  # pragma: no cover - runid, relstring


def _with(measure: Measure, rel: int, n_docs: int) -> Measure:
    names = {f for f in measure.__dataclass_fields__}
    changes: dict[str, Any] = {}
    if "rel" in names and rel != 1:
        changes["rel"] = rel
    if "n_docs" in names and n_docs:
        changes["n_docs"] = n_docs
    return measure(**changes) if changes else measure


def _check_cuts(name: str, cuts: Sequence[float], *, positive: bool) -> None:
    if positive and cuts and cuts[0] <= 0:
        raise ConfigurationError(f"{name}: cutoffs must be positive, got {cuts[0]}")
    if len(set(cuts)) != len(cuts):
        raise ConfigurationError(f"{name}: a cutoff is given twice")


def _atol(text: str) -> int:
    """The integer a number starts with, as C's ``strtol`` reads it (``"23.4"`` is 23)."""
    match = re.match(r"\s*([+-]?\d+)", text)
    if match is None:
        raise ConfigurationError(f"expected an integer cutoff, got {text!r}")
    return int(match.group(1))


def _atof(text: str) -> float:
    """The number a string starts with, as C's ``atof`` reads it (``".25"`` is 0.25)."""
    match = re.match(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", text)
    if match is None:
        raise ConfigurationError(f"expected a number, got {text!r}")
    return float(match.group(1))


def parse_trec_single(text: str) -> Measure | None:
    """The measure of a trec_eval name that prints a single column (``bpref``, ``P_10``, ``P.10``,
    ``ndcg_cut.10``, ``iprec_at_recall_0.50``, ``Rprec_mult_2.00``, ``set_F``), or None when ``text`` is not one.

    Raises:
        ConfigurationError: the name is trec_eval's but its parameters are refused.
    """
    name, dot, raw = text.partition(".")
    family = _BY_NAME.get(name)
    if family is None:  # NAME_VALUE spelling: the longest family name that prefixes text
        for candidate in sorted(_BY_NAME, key=len, reverse=True):
            if text.startswith(candidate + "_") and _BY_NAME[candidate].style.startswith("cut"):
                family, raw, dot = _BY_NAME[candidate], text[len(candidate) + 1 :], "."
                break
    if family is None or family.build is None:
        return None
    columns = _expand(family, raw if dot else None, 1, 0)
    return columns[0].measure if len(columns) == 1 else None
