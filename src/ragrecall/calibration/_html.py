"""A calibration as HTML: one section that any page can embed, and a self-contained page around it.

The section uses only plain elements and the class names ``muted``, ``ok``, ``miss``, ``warn`` and ``num``, so
a report page that styles those shows it as its own. No scripts, no external assets.
"""

from __future__ import annotations

import html
import os

from .._files import atomic_text
from ._result import CalibrationResult, ClaimDisagreement, ScoreDisagreement
from ._text import FIGURE_LABELS, INTERVAL_NOTE, KAPPA_READING

__all__ = ["calibration_section", "render_calibration_page", "write_calibration_page"]

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1d2330;max-width:1200px}
h1{font-size:1.5rem;margin:0 0 .25rem} h2{font-size:1.15rem;margin:2rem 0 .5rem}
h3{font-size:1rem;margin:1.25rem 0 .4rem}
.muted{color:#667085} table{border-collapse:collapse;margin:.25rem 0} th,td{padding:.35rem .6rem;text-align:left;
border-bottom:1px solid #e4e7ec;vertical-align:top} th{background:#f5f7fa;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums} .ok{color:#067647}.miss{color:#b42318}
.warn{color:#b54708} blockquote{margin:.3rem 0 .3rem .5rem;padding:.2rem .6rem;border-left:3px solid #d0d5dd}
"""


def write_calibration_page(
    result: CalibrationResult, path: str | os.PathLike[str], *, title: str = "ragrecall calibration"
) -> None:
    """Write :func:`render_calibration_page` to ``path`` atomically (old content or the whole page, never part)."""
    page = render_calibration_page(result, title=title)
    with atomic_text(path) as out:
        out.write(page)


def render_calibration_page(result: CalibrationResult, *, title: str = "ragrecall calibration") -> str:
    """A self-contained HTML document holding :func:`calibration_section`."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1>{calibration_section(result)}</body></html>"
    )


def calibration_section(result: CalibrationResult, *, show: int = 200) -> str:
    """The calibration as one ``<section>``: what was compared, figures with intervals, the confusion table,
    how to read kappa, what was left out, and up to ``show`` disagreements of each kind with the evidence."""
    model = f" (judge {result.model})" if result.model else ""
    parts = [
        "<section class='calibration'><h2>Calibration against human labels</h2>",
        f"<p class='muted'>{_e(result.metric + model)}: {result.labelled_claims} labelled claims in "
        f"{result.claim_samples} samples, {result.score_samples} human scores, of {result.samples} samples; "
        f"left out: {result.failed} failed, {result.unscorable} unscorable</p>",
        _figures(result),
    ]
    if result.labelled_claims:
        c = result.confusion
        parts.append(
            "<table><thead><tr><th>claims</th><th class=num>judged supported</th><th class=num>judged unsupported"
            f"</th></tr></thead><tbody><tr><th>labelled supported</th><td class=num>{c.tp}</td><td class=num>"
            f"{c.fn}</td></tr><tr><th>labelled unsupported</th><td class=num>{c.fp}</td><td class=num>{c.tn}</td>"
            "</tr></tbody></table>"
        )
        parts.append(f"<p class='muted'>{_e(KAPPA_READING)}</p>")
        parts.append(_levels(result))
    parts.append(f"<p class='muted'>{_e(INTERVAL_NOTE.format(n=result.n_resamples, seed=result.seed))}</p>")
    if result.not_compared:
        items = "".join(
            f"<li class='{'miss' if n.status == 'failed' else 'warn'}'>{_where(n.index, n.sample_id)}: "
            f"{_e(n.status)}: {_e(n.message)}</li>"
            for n in result.not_compared
        )
        parts.append(f"<h3>Left out of the figures</h3><ul>{items}</ul>")
    if result.claim_disagreements:
        items = "".join(_claim(d) for d in result.claim_disagreements[:show])
        parts.append(f"<h3>Claim disagreements ({len(result.claim_disagreements)})</h3><ol>{items}</ol>")
    if result.score_disagreements:
        rows = "".join(_score(d) for d in result.score_disagreements[:show])
        parts.append(
            f"<h3>Score disagreements ({len(result.score_disagreements)}; |metric − human| &gt; "
            f"{result.score_tolerance:g})</h3><table><thead><tr><th>sample</th><th class=num>human</th>"
            f"<th class=num>metric</th><th class=num>difference</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    parts.append("</section>")
    return "".join(parts)


def _figures(result: CalibrationResult) -> str:
    rows = []
    for name, value, interval in result.figures():
        ci = f"[{interval.low:.3f}, {interval.high:.3f}]" if interval else "-"
        reading = result.kappa_reading if name == "kappa" else None
        note = "" if reading is None else _e(reading if reading != result.kappa_band else f"{reading} (Landis & Koch)")
        shown = f"{value:.3f}" if value is not None else "-"
        rows.append(
            f"<tr><td>{_e(FIGURE_LABELS[name])}</td><td class=num>{shown}</td><td class=num>{ci}</td>"
            f"<td>{note}</td></tr>"
        )
    if result.bias is not None:
        bias = result.intervals.get("bias")
        ci = f"[{bias.low:+.3f}, {bias.high:+.3f}]" if bias else "-"
        rows.append(
            f"<tr><td>bias (metric − human)</td><td class=num>{result.bias:+.3f}</td><td class=num>{ci}</td>"
            "<td class='muted'>above 0: the metric scores higher than people</td></tr>"
        )
    if not rows:
        return "<p class='warn'>No figure: nothing was compared.</p>"
    return (
        "<table><thead><tr><th>figure</th><th class=num>value</th><th class=num>95% CI</th><th></th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _levels(result: CalibrationResult) -> str:
    if not result.by_level:
        return ""
    rows = "".join(
        f"<tr><td>{_e(item.level)}</td><td class=num>{item.claims}</td><td class=num>{item.accuracy:.0%}</td>"
        f"<td class=num>{f'{item.precision:.0%}' if item.precision is not None else '-'} "
        f"({item.labelled_supported} of {item.judged_supported})</td></tr>"
        for item in result.by_level
    )
    return (
        "<h3>By verification level of the verdict</h3><p class='muted'>Which levels to trust: the judge's accuracy "
        "against the labels on the claims of each level, and how often people confirm its 'supported'.</p>"
        "<table><thead><tr><th>level</th><th class=num>claims</th><th class=num>accuracy</th><th class=num>"
        f"'supported' confirmed</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _claim(d: ClaimDisagreement) -> str:
    label = "supported" if d.human else "unsupported"
    said = "supported" if d.judge else "unsupported"
    quotes = "".join(
        f"<blockquote><span class='muted'>passage {q.context + 1} ({_e(q.match)}):</span> "
        f"{_e(q.passage or q.quote)}</blockquote>"
        for q in d.quotes
    )
    votes = f" <span class='muted'>votes {''.join('S' if v else '-' for v in d.votes)}</span>" if d.votes else ""
    return (
        f"<li>{_where(d.index, d.sample_id)}, claim {d.claim_index + 1}: {_e(d.claim)}<br>"
        f"label <strong>{label}</strong>, judge <strong class='{'ok' if d.judge else 'miss'}'>{said}</strong>"
        f"{votes}<br><span class='muted'>{_e(d.reason)}</span>{quotes}</li>"
    )


def _score(d: ScoreDisagreement) -> str:
    return (
        f"<tr><td>{_where(d.index, d.sample_id)}</td><td class=num>{d.human:.3f}</td><td class=num>{d.metric:.3f}"
        f"</td><td class=num>{d.difference:+.3f}</td></tr>"
    )


def _where(index: int, sample_id: str | int | None) -> str:
    return _e(f"sample {index}" + (f" (id={sample_id!r})" if sample_id is not None else ""))


def _e(text: str) -> str:
    return html.escape(text, quote=True)
