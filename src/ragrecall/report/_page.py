"""The page: header, Failures, Comparison, Summary, Run and Samples sections, assembled in that order."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .._files import atomic_text
from ..evaluation import EvaluationResult, SampleRow, paired_rows
from ..results import Evidence
from ._compare import comparison_section
from ._css import CSS
from ._evidence import evidence_block
from ._failures import failures_section
from ._filter import BodyPacker, filter_bar, samples_script
from ._html import card_table, e, sample_anchor, sample_label, value_cell
from ._inputs import inputs_html
from ._run import run_facts, run_section
from ._stability import stability_section

if TYPE_CHECKING:
    from ..calibration import CalibrationResult, CorrectedMean

__all__ = ["OPEN_SAMPLES", "page_parts", "render_report", "sample_order", "write_report"]

OPEN_SAMPLES = 10
"""Samples shown open, lowest score first; samples with a failure are open too, the rest open on a click."""

_TITLE = "ragrecall report"


def write_report(
    result: EvaluationResult,
    path: str | os.PathLike[str],
    *,
    title: str = _TITLE,
    base: EvaluationResult | None = None,
    names: tuple[str, str] = ("base", "new"),
    calibration: CalibrationResult | None = None,
    corrected: Sequence[CorrectedMean] = (),
) -> None:
    """Write :func:`render_report` to ``path`` (UTF-8), atomically: the file holds its old content or the whole
    report, never part of it."""
    parts = page_parts(result, title=title, base=base, names=names, calibration=calibration, corrected=corrected)
    with atomic_text(path) as out:
        out.writelines(parts)


def render_report(
    result: EvaluationResult,
    *,
    title: str = _TITLE,
    base: EvaluationResult | None = None,
    names: tuple[str, str] = ("base", "new"),
    calibration: CalibrationResult | None = None,
    corrected: Sequence[CorrectedMean] = (),
) -> str:
    """The report as one HTML document.

    Sections, in order: Failures (grouped by cause, never collapsed); with ``base``, a Comparison of
    ``result`` against it (per-metric paired deltas with bootstrap intervals, samples better and worse);
    Summary with histograms; with repeated judgements, Stability (agreement and every unstable claim); Run
    (date, model, prompt versions, settings, tokens, cost); Samples, lowest
    score first, each with its inputs and every metric's evidence. ``names`` label the two runs. With
    ``calibration`` (the figures of :func:`ragrecall.calibrate` on this run), a Calibration section follows
    Failures: how far the judge agrees with people's labels, and every disagreement with its evidence. With
    ``corrected`` (:meth:`CalibrationResult.corrected` or :func:`ragrecall.calibration.corrected_mean` of this
    run), a "Corrected by people" section follows the Summary.

    Raises:
        InputError: ``base`` cannot be paired with ``result`` (samples lack unique ids and the runs differ
            in size).
    """
    return "".join(
        page_parts(result, title=title, base=base, names=names, calibration=calibration, corrected=corrected)
    )


def page_parts(
    result: EvaluationResult,
    *,
    title: str = _TITLE,
    base: EvaluationResult | None = None,
    names: tuple[str, str] = ("base", "new"),
    calibration: CalibrationResult | None = None,
    corrected: Sequence[CorrectedMean] = (),
    ordered_rows: Iterable[SampleRow] | None = None,
) -> Iterator[str]:
    """:func:`render_report` in pieces, as they are made. ``ordered_rows``: the rows of the Samples section,
    already in :func:`sample_order` and holding their inputs, for a caller that reads them one at a time
    (``result.rows`` then need carry only their results and metadata); by default ``result.rows`` in that
    order."""
    pairs = paired_rows(base, result) if base is not None else []
    base_of = {new.index: old for old, new in pairs}
    compared = f" · compared with {e(names[0])}" if base is not None else ""
    runs = [run_section(result, f"{names[1]} (this report)" if base else "This run", base)]
    if base is not None:
        runs.append(run_section(base, names[0], result))
    yield from [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f"<p class='muted'>{run_facts(result)}{compared}</p>",
        failures_section(result),
        _calibration(calibration),
        comparison_section(base, result, pairs, names) if base is not None else "",
        "<section id='summary'><h2>Summary</h2>",
        _summary_table(result),
        "<div class='cards'>",
        *(_histogram_card(result, name) for name in result.metrics),
        "</div></section>",
        _corrected(corrected),
        stability_section(result),
        "<section id='run'><h2>Run</h2>",
        *runs,
        "</section>",
        "<section id='samples'><h2>Samples, lowest score first</h2>",
        "<p class='muted'>Each sample shows its inputs — retrieved passages numbered from 1 in rank order, as the "
        "judge numbers them — with the passage each supported claim quotes highlighted and the claim's number "
        f"after it, beside every metric's verdict. The {OPEN_SAMPLES} lowest and every failed sample are open; "
        "click a row to open the others. The filter keeps the samples under a value of a metric, the failed ones "
        "or those of a metadata value; grouping by a metadata column shows each group's means.</p>",
        _legends(result),
    ]
    yield from _samples(result, base_of, sample_order(result) if ordered_rows is None else ordered_rows)
    yield "</section></body></html>"


def sample_order(result: EvaluationResult) -> list[SampleRow]:
    """The rows as the Samples section lists them: by the first metric's value, lowest first, then the
    samples without one; input order within equal values."""
    first = result.metrics[0] if result.metrics else None

    def order(row: SampleRow) -> tuple[int, float, int]:
        value = row.results[first].value if first else None
        return (0, value, row.index) if value is not None else (1, 0.0, row.index)

    return sorted(result.rows, key=order)


def _legends(result: EvaluationResult) -> str:
    """The legend of each evidence kind in the run (what its labels mean), each once, in metric order."""
    kinds = dict.fromkeys(s.evidence_kind for s in result.summary.values() if s.evidence_kind is not None)
    return "".join(dict.fromkeys(Evidence.of_kind(kind).legend_html() for kind in kinds))


def _summary_table(result: EvaluationResult) -> str:
    rows = []
    for s in result.summary.values():
        cells = (s.mean_text(3), s.ci_text(), s.scored, s.unscorable, s.failed, f"{s.usage.total_tokens:,}")
        rows.append((e(s.metric), *(e(c) for c in cells)))
    head = ("metric", "mean", "95% CI", "scored", "unscorable", "failed", "tokens")
    return card_table(head, rows, numeric=range(1, 7), key=1)


def _histogram_card(result: EvaluationResult, metric: str, bins: int = 10) -> str:
    values = [v for v in result.values(metric) if v is not None]
    counts = [0] * bins
    for v in values:
        counts[min(int(v * bins), bins - 1)] += 1
    top = max(counts) or 1
    width, height, bar = 240, 90, 240 / bins
    rects = []
    for i, count in enumerate(counts):
        h = count / top * (height - 14)
        label = f"{i / bins:.1f}–{(i + 1) / bins:.1f}: {count}"
        rects.append(
            f"<rect x='{i * bar + 1:.1f}' y='{height - 12 - h:.1f}' width='{bar - 2:.1f}' height='{h:.1f}' "
            f"fill='#3e7bfa'><title>{label}</title></rect>"
        )
    axis = (
        f"<text x='0' y='{height}' font-size='10' fill='#667085'>0</text>"
        f"<text x='{width - 8}' y='{height}' font-size='10' fill='#667085'>1</text>"
    )
    summary = result.summary[metric]
    return (
        f"<div class='card'><div class='muted'>{e(metric)}</div><div class='big'>{summary.mean_text(3)}</div>"
        f"<svg width='{width}' height='{height}' role='img' aria-label='histogram of {e(metric)}'>"
        f"{''.join(rects)}{axis}</svg><div class='muted'>{summary.scored} scored</div></div>"
    )


def _samples(result: EvaluationResult, base_of: dict[int, SampleRow], ordered: Iterable[SampleRow]) -> Iterator[str]:
    # One grid row per sample; its inputs and evidence open below it at full width (native <details>).
    # The grid and, for narrow screens, each value's metric name are stated once for every row (one rule each).
    columns = f"grid-template-columns:minmax(10rem,2fr) repeat({len(result.metrics)},minmax(6rem,1fr))"
    names = "".join(
        f".samples summary>.num:nth-child({i + 2})::before{{content:{_css_string(m)}}}"
        for i, m in enumerate(result.metrics)
    )
    style = f"<style>.samples .head,.samples summary{{{columns}}}{names}</style>"
    head = "<div>sample</div>" + "".join(f"<div class=num>{_breakable(m)}</div>" for m in result.metrics)
    yield f"{filter_bar(result)}{style}<div class='samples'><div class='head'>{head}</div>"
    closed = BodyPacker()  # bodies of the rows closed at load, rendered when opened (see _filter.py)
    for rank, row in enumerate(ordered):
        old = base_of.get(row.index)
        cells = "".join(
            f"<div class=num>{value_cell(row.results[m])}{_delta(row, old, m)}</div>" for m in result.metrics
        )
        shown = len(row.sample.retrieved_contexts or []) if row.sample is not None else 0
        evidence = "".join(evidence_block(m, row.results[m], row.index, shown) for m in result.metrics)
        is_open = rank < OPEN_SAMPLES or any(r.failure is not None for r in row.results.values())
        body = (
            f"<div class='body'>{inputs_html(row)}<div class='verdicts'>{evidence}{_base_verdicts(row, old)}</div>"
            "</div>"
        )
        if not is_open:
            closed.add(row.index, body)
        yield (
            f"<details class='sample' id='{sample_anchor(row.index)}' data-i='{row.index}'"
            f"{' open' if is_open else ' data-lazy'}>"
            f"<summary><div class='sid'>{e(sample_label(row))}</div>{cells}</summary>"
            f"{body if is_open else ''}</details>"
        )
    yield "</div>"
    yield from samples_script(result, closed)


def _base_verdicts(row: SampleRow, old: SampleRow | None) -> str:
    """The base run's verdicts on this sample for the metrics whose outcome changed, to open on a click."""
    if old is None:
        return ""
    changed = [
        m
        for m, r in row.results.items()
        if m in old.results and (old.results[m].value, old.results[m].status) != (r.value, r.status)
    ]
    if not changed:
        return ""
    # Passage numbers there are those of the base run's retrieval, which is not shown: no links.
    blocks = "".join(evidence_block(m, old.results[m], old.index, 0) for m in changed)
    return (
        f"<details class='base'><summary>the base run's verdicts where they differ ({e(', '.join(changed))}); "
        f"its passages are numbered as that run retrieved them</summary>{blocks}</details>"
    )


def _delta(row: SampleRow, old: SampleRow | None, metric: str) -> str:
    if old is None or metric not in old.results:
        return ""
    a, b = old.results[metric].value, row.results[metric].value
    if a is None or b is None:
        return f"<span class='delta muted'>(was {value_cell(old.results[metric])})</span>" if a != b else ""
    if a == b:
        return ""
    css = "ok" if b > a else "miss"
    return f"<span class='delta {css}' title='change from the base run'>{b - a:+.3f}</span>"


def _css_string(text: str) -> str:
    """``text`` as a CSS string: every character but letters, digits, ``_``, ``@``, ``.`` and spaces as a hex
    escape, so that no name can end the string or the ``<style>`` element."""
    return '"' + "".join(c if c.isalnum() or c in "_@. " else f"\\{ord(c):x} " for c in text) + '"'


def _breakable(name: str) -> str:
    """A metric name that may wrap after its underscores (``non_llm_context_recall``) in a narrow column."""
    return e(name).replace("_", "_<wbr>")


def _corrected(corrected: Sequence[CorrectedMean]) -> str:
    if not corrected:
        return ""
    from ..calibration import corrected_section

    return corrected_section(corrected)


def _calibration(calibration: CalibrationResult | None) -> str:
    if calibration is None:
        return ""
    from ..calibration import calibration_section

    return calibration_section(calibration)
