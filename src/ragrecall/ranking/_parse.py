"""Read measure strings such as ``nDCG@10``, ``F(beta=2)@5``, ``RR(rel=2)`` or trec_eval's ``ndcg_cut_10``.

A small hand-written parser (a regular-expression tokenizer and a recursive reading of one grammar rule),
never ``eval``::

    measure := NAME [ "(" param { "," param } ")" ] [ "@" INTEGER ]
    param   := NAME "=" ( INTEGER | NUMBER | NAME | QUOTED )
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from typing import Any

from ..errors import ConfigurationError
from ._measure import Measure
from .measures import MODULES, measure_named, registry
from .trec_names import GROUPS, TREC_FAMILIES, parse_trec_single

__all__ = ["MEASURES", "parse_measure"]

# Other spellings people write (→ the canonical name); matched case-sensitively like the canonical names.
_ALIASES: dict[str, str] = {
    "R": "Recall",
    "MRR": "RR",
    "MAP": "AP",
    "NDCG": "nDCG",
    "ndcg": "nDCG",
    "HitRate": "Success",
    "Hit_Rate": "Success",
    "recip_rank": "RR",
    "map": "AP",
    "set_P": "P",
    "set_recall": "Recall",
}


MEASURES: dict[str, Measure]
"""Every measure by its canonical name, with default parameters (built on first use, by ``__getattr__``)."""


def __getattr__(name: str) -> object:
    if name == "MEASURES":  # built on first use: it imports every measure
        return _measures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _measures() -> dict[str, Measure]:
    """``MEASURES``: every measure by its canonical name, with default parameters."""
    return {m.NAME: m for m in registry()}


# A trec_eval name: letters, digits and underscores, then its parameters after "." or "_" (P.10, P_10,
# ndcg_cut.10, iprec_at_recall_0.50, set_F.0.5, ndcg.1=3,2=9).
_TREC_SHAPE = re.compile(r"^[A-Za-z0-9_]+(?:[._][-+0-9.,=A-Za-z_]*)?$")

_TOKEN_RE = re.compile(
    r"""\s*(?:
        (?P<number>[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<quoted>'[^']*'|"[^"]*")
      | (?P<punct>[()@,=])
    )""",
    re.VERBOSE,
)


@functools.cache
def _folded() -> dict[str, str]:
    """Every measure name and alias in lower case → the canonical name."""
    return {n.lower(): _ALIASES.get(n, n) for n in (*MODULES, *_ALIASES)}


def parse_measure(text: str | Measure) -> Measure:
    """Turn a measure string into a :class:`Measure`; a Measure is returned as is.

    Accepts the canonical form that ``str(measure)`` prints (``nDCG@10``, ``AP(rel=2)@100``,
    ``F(beta=0.5)@5``, ``nDCG(gain=exp)@10``, ``ERR(g_max=3)@20``), a few common aliases (``MRR``, ``MAP``,
    ``R@10``, ``HitRate@10``) and trec_eval's names of one column (``P_10``, ``P.10``, ``recall_100``,
    ``ndcg_cut_10``, ``map``, ``map_cut_100``, ``recip_rank``, ``success_10``, ``bpref``, ``infAP``,
    ``iprec_at_recall_0.50``, ``Rprec_mult_2.00``, ``rbp.p=0.8``, ``ndcg.1=3,2=9``, ``num_rel_ret`` ...).

    Raises:
        ConfigurationError: the string is malformed, names an unknown measure or parameter, or gives a bad
            value; the message points at the problem.
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise ConfigurationError(f"expected a measure string such as 'nDCG@10', got {text!r}")
    source = text.strip()
    trec = parse_trec_single(source) if _TREC_SHAPE.match(source) else None
    if trec is not None:
        trec.check_usable()
        return trec
    tokens = _tokenize(source)
    reader = _Reader(source, tokens)
    measure = reader.measure()
    measure.check_usable()
    return measure


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN_RE.match(text, pos)
        if match is None or match.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ConfigurationError(f"cannot read measure {text!r}: unexpected {text[pos:].strip()[:1]!r} at {pos}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind), match.start(kind)))
        pos = match.end()
    return tokens


class _Reader:
    def __init__(self, text: str, tokens: list[tuple[str, str, int]]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0

    def _fail(self, expected: str) -> ConfigurationError:
        if self.i < len(self.tokens):
            _, value, at = self.tokens[self.i]
            return ConfigurationError(f"cannot read measure {self.text!r}: expected {expected} at {at}, got {value!r}")
        return ConfigurationError(f"cannot read measure {self.text!r}: expected {expected} at the end")

    def _peek(self, value: str) -> bool:
        return self.i < len(self.tokens) and self.tokens[self.i][0] == "punct" and self.tokens[self.i][1] == value

    def _take(self, kind: str, expected: str) -> str:
        if self.i >= len(self.tokens) or self.tokens[self.i][0] != kind:
            raise self._fail(expected)
        value = self.tokens[self.i][1]
        self.i += 1
        return value

    def measure(self) -> Measure:
        name = self._take("name", "a measure name")
        base = measure_named(_ALIASES.get(name, name))
        if base is None:  # names are matched whatever their case: ndcg, NDCG, recall, RECALL
            base = measure_named(_folded().get(name.lower(), ""))
        if base is None:
            trec = [*GROUPS, *(f.name for f in TREC_FAMILIES)]
            close = difflib.get_close_matches(name.lower(), [*_folded(), *(t.lower() for t in trec)], n=1, cutoff=0.6)
            if close:
                names = [*trec, *_ALIASES, *MODULES]
                spelled = next((n for n in names if n == close[0]), None) or next(
                    n for n in names if n.lower() == close[0]
                )
                raise ConfigurationError(f"unknown measure {name!r} in {self.text!r}; did you mean {spelled!r}?")
            raise ConfigurationError(
                f"unknown measure {name!r} in {self.text!r}; known measures: {', '.join(MODULES)}; trec_eval "
                f"names: {', '.join(trec)}"
            )
        params: dict[str, Any] = {}
        if self._peek("("):
            self.i += 1
            while True:
                key = self._take("name", "a parameter name")
                if key in params:
                    raise ConfigurationError(f"parameter {key!r} given twice in {self.text!r}")
                if not self._peek("="):
                    raise self._fail("'='")
                self.i += 1
                params[key] = self._value()
                if self._peek(","):
                    self.i += 1
                    continue
                if self._peek(")"):
                    self.i += 1
                    break
                raise self._fail("',' or ')'")
        if base.AT in params:
            raise ConfigurationError(f"write the {base.AT} as @value, not as a parameter, in {self.text!r}")
        at: Any = None
        if self._peek("@"):
            self.i += 1
            if base.AT == "cutoff":
                raw = self._take("number", "an integer cutoff after '@'")
                if not re.fullmatch(r"\d+", raw):
                    raise ConfigurationError(f"the cutoff must be a positive integer, got {raw!r} in {self.text!r}")
                at = int(raw)
            else:
                at = float(self._take("number", f"a {base.AT} after '@'"))
        if self.i != len(self.tokens):
            raise self._fail("the end of the measure")
        measure = base(**params) if params else base
        return dataclasses.replace(measure, **{base.AT: at}) if at is not None else measure

    def _value(self) -> Any:
        if self.i >= len(self.tokens):
            raise self._fail("a value")
        kind, raw, _ = self.tokens[self.i]
        self.i += 1
        if kind == "number":
            return int(raw) if re.fullmatch(r"[+-]?\d+", raw) else float(raw)
        if kind == "quoted":
            return raw[1:-1]
        if kind == "name":
            return {"true": True, "false": False}.get(raw.lower(), raw)
        self.i -= 1
        raise self._fail("a value")
