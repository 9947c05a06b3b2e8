"""How far a figure written with a bound or a word of approximation reaches ("more than 6 million", 二十多公里,
"nearly 10,000", "about 500 feet", 九成), and the measures of units, so that a figure in one unit can be compared
with a figure in another. Deterministic, no LLM call."""

from __future__ import annotations

import re

from ...text.cues import cues_in
from ...text.numbers import Quantity
from ...text.segment import has_cjk

__all__ = ["SCALES", "base", "bounds_around", "bounds_before", "measure", "place", "within"]


def measure(q: Quantity, measures: frozenset[str] = frozenset()) -> tuple[str, float] | None:
    """The measure of a quantity and its size in that measure's base unit; a bare number is a count. A spelling
    that may mean units of several measures ("pounds": money or weight) means the one of ``measures`` (those the
    evidence writes figures of) when exactly one of them is there, and none otherwise."""
    if not q.units:
        return ("count", 1.0)
    known = {SCALES[u] for u in q.units if u in SCALES}
    if len({m for m, _ in known}) > 1:
        known = {k for k in known if k[0] in measures}
    return next(iter(known)) if len(known) == 1 else None


def within(ours: float, theirs: float, bounds: frozenset[str], place: float) -> bool:
    """Whether ``theirs`` is a figure the claim's bound on ``ours`` rounds: a Chinese figure with 多 or 余 (二十多,
    百余) anywhere before the next value of its last written digit (二十多公里 for 23 km, 五十多亿 for 53亿); a
    lower bound ("more than", 超过, 出头) up to a fifth above ("more than a thousand" for 1,150, 超过九成 for 93%);
    a plain upper bound ("fewer than", 不足) up to a fifth below ("fewer than a hundred" for 87); "nearly" (近) a
    tenth below; "about" (约) within 5 per cent either side."""
    if "odd" in bounds:
        return ours < theirs < ours + place
    if "lower" in bounds:
        return ours < theirs <= 1.2 * ours
    if "upper" in bounds:
        # "nearly 10,000" for 9,800; "nearly two million" is not 2.1 million, nor "nearly 10,000" 8,000
        return (0.9 if "approx" in bounds else 0.8) * ours <= theirs < ours
    return "approx" in bounds and abs(ours - theirs) <= 0.05 * theirs


def place(n: str) -> float:
    """The place of the last digit ``n`` writes: 10 for 20 (二十多 is 20 to 30), 100 for 4,300, 0.1 for 2.5."""
    whole, _, fraction = n.partition(".")
    if fraction:
        return 10.0 ** -len(fraction)
    return 10.0 ** (len(whole) - len(whole.rstrip("0")))


def bounds_before(text: str, start: int) -> frozenset[str]:
    """The bound families (lower, upper, approx, exact) the three words before offset ``start`` write (the three
    characters in Chinese: 约, 近, 逾)."""
    before = text[max(0, start - 3) : start] if has_cjk(text[start - 1 : start]) else text[:start]
    if not has_cjk(before):
        before = " ".join(before.split()[-3:])
    bounds = [c for c in cues_in(before) if c.cls == "bound"]
    # the nearest cue (one entry per family it writes): 多了近两成 is "nearly"
    return frozenset(f for c in bounds if c.start == bounds[-1].start for f in c.value.split())


def bounds_around(claim: str, q: Quantity) -> frozenset[str]:
    """The bound families a claim writes around its number: :func:`bounds_before` it; 左右 or 上下 after it
    (approximately); 多, 余 or 来 after it or after its unit (二十多, 七米多, 百余, 十来个), or inside it (五十多亿,
    十来万), and 有余 (its "odd" family: up to the next value of its last digit); 以上 or 出头 after it (more than)."""
    found = set(bounds_before(claim, q.start))
    after = claim[q.end : q.end + 4]
    if re.match(r"\s*\S{0,2}?(?:左右|上下)", after):
        found.add("approx")
    if _ODD.match(after) or re.search("[多余来]", claim[q.start : q.end]):
        found.add("odd")
    if re.match(r"\s*(?:以上|\S?出头)", after):
        found.add("lower")
    return frozenset(found - {"exact"})


# 二十多, 七米多, 百余, 三十万有余; not 人多为 ("most of them"), 多次, 多数
_ODD = re.compile(r"\s*(?:\S?[多余](?![为為是数數次種种样樣半在居])|有余|来)")


def base(units: frozenset[str]) -> tuple[str, float] | None:
    """The measure of a unit and its size in that measure's base unit, for one unit of :data:`SCALES`."""
    known = [SCALES[u] for u in units if u in SCALES]
    return known[0] if len(known) == 1 else None


SCALES = {
    "km": ("length", 1000.0), "m": ("length", 1.0), "cm": ("length", 0.01), "mm": ("length", 0.001),
    "mi": ("length", 1609.344), "ft": ("length", 0.3048), "yd": ("length", 0.9144), "people": ("count", 1.0),
    "nmi": ("length", 1852.0), "inch": ("length", 0.0254),
    "t": ("mass", 1000.0), "kg": ("mass", 1.0), "g": ("mass", 0.001), "lb": ("mass", 0.45359237),
    "jin": ("mass", 0.5),
    "km2": ("area", 1_000_000.0), "ha": ("area", 10_000.0), "m2": ("area", 1.0), "mu": ("area", 2000 / 3),
    "acre": ("area", 4046.8564224), "km/h": ("speed", 1 / 3.6), "mph": ("speed", 0.44704), "%": ("share", 1.0),
    "USD": ("USD", 1.0), "EUR": ("EUR", 1.0), "GBP": ("GBP", 1.0), "CNY": ("CNY", 1.0), "JPY": ("JPY", 1.0),
    "GW": ("power", 1000.0), "MW": ("power", 1.0), "kW": ("power", 0.001), "W": ("power", 0.000001),
    "week": ("time", 604_800.0), "day": ("time", 86_400.0), "hour": ("time", 3600.0),
    "minute": ("time", 60.0), "second": ("time", 1.0), "year": ("months", 12.0), "month": ("months", 1.0),
}  # fmt: skip
