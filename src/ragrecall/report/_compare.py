"""The comparison of two runs: per metric the paired difference of means with its bootstrap interval, then
the samples that got better, got worse, or changed status."""

from __future__ import annotations

from pathlib import PurePath

from ..evaluation import Comparison, EvaluationResult, SampleRow, compare
from ._html import e, sample_link, scroll_table, value_cell

__all__ = ["ROWS_PER_SIDE", "comparison_section", "run_labels"]

ROWS_PER_SIDE = 25
"""Samples listed as better (and as worse) per metric, largest change first."""


def run_labels(base: str, new: str) -> tuple[str, str]:
    """Short names for two runs read from files: the file names without folders and suffixes
    (``runs/baseline.jsonl.gz`` → ``baseline``); when those are alike, the nearest folders that differ
    (``a/results.jsonl``, ``b/results.jsonl`` → ``a``, ``b``); else ``base`` and ``new``."""
    stems = (_stem(base), _stem(new))
    if stems[0] != stems[1]:
        return stems
    for a, b in zip(reversed(PurePath(base).parent.parts), reversed(PurePath(new).parent.parts), strict=False):
        if a != b:
            return a, b
    return "base", "new"


def _stem(path: str) -> str:
    name = PurePath(path).name
    for suffix in (".gz", ".jsonl", ".json", ".ndjson"):
        name = name.removesuffix(suffix)
    return name or PurePath(path).name


def comparison_section(
    base: EvaluationResult, new: EvaluationResult, pairs: list[tuple[SampleRow, SampleRow]], names: tuple[str, str]
) -> str:
    """The Comparison section of the report of ``new``, against ``base``; ``pairs`` as
    :func:`~ragrecall.evaluation.paired_rows` gives them."""
    base_name, new_name = names
    common = [m for m in new.metrics if m in base.metrics]
    parts = [
        "<section id='comparison'><h2>Comparison</h2>",
        f"<p><strong>{e(new_name)}</strong> (this report) against <strong>{e(base_name)}</strong>: "
        f"{len(pairs)} samples paired by id (by position when samples have no unique ids); "
        f"Δ = {e(new_name)} − {e(base_name)} over the samples scored in both. The interval is a 95% paired "
        "bootstrap (2,000 resamples of the pairs, seed 0), p a paired sign-flip randomisation test.</p>",
    ]
    unpaired = (len(base) - len(pairs), len(new) - len(pairs))
    if any(unpaired):
        parts.append(
            f"<p class='warn'>Not paired: {unpaired[0]} samples of {e(base_name)} and {unpaired[1]} of "
            f"{e(new_name)} have no partner in the other run.</p>"
        )
    only = [(n, [m for m in r.metrics if m not in common]) for n, r in ((base_name, base), (new_name, new))]
    for name, metrics in only:
        if metrics:
            parts.append(f"<p class='muted'>only in {e(name)}: {e(', '.join(metrics))}</p>")
    rows = [_delta_row(compare(base, new, m)) for m in common]
    parts.append(_delta_table(rows, names))
    for metric in common:
        parts.append(_changes(metric, pairs, names))
    parts.append("</section>")
    return "".join(parts)


# The delta table's columns: (heading, CSS class). Under 600 px each row becomes a card (see _css.py) whose
# first lines are Δ, its interval, p and the verdict, in that order, so that the answer never needs scrolling.
_DELTA_COLUMNS = (
    ("metric", "m"),
    ("{base}", "num a"),
    ("{new}", "num b"),
    ("Δ", "num d"),
    ("95% CI of Δ", "num ci"),
    ("p", "num p"),
    ("paired", "num n"),
    ("verdict", "v"),
)


def _delta_table(rows: list[tuple[str, ...]], names: tuple[str, str]) -> str:
    heads = [h.format(base=names[0], new=names[1]) for h, _ in _DELTA_COLUMNS]
    top = "".join(f"<th class='{css}'>{e(h)}</th>" for h, (_, css) in zip(heads, _DELTA_COLUMNS, strict=True))
    body = "".join(
        "<tr>"
        + "".join(
            f"<td class='{css}' data-label='{e(h)}'>{cell}</td>"
            for cell, h, (_, css) in zip(row, heads, _DELTA_COLUMNS, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    return f"<div class='scroll'><table class='deltas'><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table></div>"


def _delta_row(c: Comparison) -> tuple[str, ...]:
    if c.mean_difference is None or c.mean_a is None or c.mean_b is None:
        return (e(c.metric), "—", "—", "—", "—", "—", "0", "<span class='muted'>no sample scored in both</span>")
    ci = f"[{c.ci_low:+.3f}, {c.ci_high:+.3f}]" if c.ci_low is not None and c.ci_high is not None else "—"
    if c.ci_low is not None and c.ci_low > 0:
        verdict = "<span class='ok'>better (interval above 0)</span>"
    elif c.ci_high is not None and c.ci_high < 0:
        verdict = "<span class='miss'>worse (interval below 0)</span>"
    else:
        verdict = "<span class='muted'>no clear change (interval holds 0)</span>"
    p = f"{c.p_value:.4f}" if c.p_value is not None else "—"
    return (
        e(c.metric),
        f"{c.mean_a:.3f}",
        f"{c.mean_b:.3f}",
        f"{c.mean_difference:+.3f}",
        ci,
        p,
        str(c.paired),
        verdict,
    )


def _changes(metric: str, pairs: list[tuple[SampleRow, SampleRow]], names: tuple[str, str]) -> str:
    better: list[tuple[float, SampleRow, SampleRow]] = []
    worse: list[tuple[float, SampleRow, SampleRow]] = []
    status: list[tuple[SampleRow, SampleRow]] = []
    same = 0
    for a, b in pairs:
        ra, rb = a.results.get(metric), b.results.get(metric)
        if ra is None or rb is None:
            continue
        if ra.value is not None and rb.value is not None:
            delta = rb.value - ra.value
            if delta > 0:
                better.append((delta, a, b))
            elif delta < 0:
                worse.append((delta, a, b))
            else:
                same += 1
        elif ra.status != rb.status:
            status.append((a, b))
        else:
            same += 1
    better.sort(key=lambda t: (-t[0], t[2].index))
    worse.sort(key=lambda t: (t[0], t[2].index))
    head = f"<h3>{e(metric)}: {len(better)} better, {len(worse)} worse, {same} unchanged"
    head += f", {len(status)} changed status</h3>" if status else "</h3>"
    if not (better or worse or status):
        return head
    columns = ("sample", names[0], names[1], "Δ")
    sides = []
    for title, items, css in (("better", better, "ok"), ("worse", worse, "miss")):
        rows = [
            (
                sample_link(b),
                value_cell(a.results[metric]),
                value_cell(b.results[metric]),
                f"<span class='{css}'>{d:+.3f}</span>",
            )
            for d, a, b in items[:ROWS_PER_SIDE]
        ]
        more = f"<p class='muted'>… and {len(items) - ROWS_PER_SIDE} more</p>" if len(items) > ROWS_PER_SIDE else ""
        table = scroll_table(columns, rows, numeric=(1, 2, 3)) if rows else "<p class='muted'>none</p>"
        sides.append(f"<div><h4 class='{css}'>{title} in {e(names[1])}</h4>{table}{more}</div>")
    out = f"{head}<div class='sides'>{''.join(sides)}</div>"
    if status:
        changed = [(sample_link(b), value_cell(a.results[metric]), value_cell(b.results[metric])) for a, b in status]
        out += "<h4 class='warn'>status changed (left out of the paired means)</h4>" + scroll_table(
            columns[:3], changed, numeric=(1, 2)
        )
    return out
