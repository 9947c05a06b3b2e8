"""How nugget recall's evidence shows in the report: each nugget with its importance badge, its label (a partial
support marked half, with the part its quote states), verification level, votes and quotes in their passages;
the scores; the counts in words; the legend; the quoted spans marked in the inputs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ...rendering import InputNotes, Passages, Span
from ...rendering import escape as e
from ..context_recall import LEVEL_TAGS, LEVELS, levels_legend, quote_html

__all__ = ["counts_text", "note_nuggets", "nuggets_html", "nuggets_legend"]

_LABELS = {
    "support": ("ok", "supported"),
    "partial_support": ("warn", "partly supported (½)"),
    "not_support": ("miss", "not supported"),
}
_SCORE_NAMES = {
    "strict_vital": "V strict",
    "vital": "V",
    "strict_all": "A strict",
    "all": "A",
    "weighted": "weighted",
}


def counts_text(c: Mapping[str, int]) -> str:
    """Nugget recall's counts summed over a run, in words."""
    refuted = f", {c.get('refuted', 0)} refuted" if "refuted" in c else ""
    return (
        f"{c.get('nuggets', 0)} nuggets ({c.get('vital', 0)} vital): {c.get('support', 0)} supported, "
        f"{c.get('partial_support', 0)} partly, {c.get('not_support', 0)} not; labels {c.get('stated', 0)} stated, "
        f"{c.get('verified', 0)} verified, {c.get('corrected', 0)} corrected, {c.get('unverified', 0)} unverified"
        f"{refuted}"
    )


def nuggets_html(data: dict[str, Any], passage: Passages) -> str | None:
    """The nuggets of one sample's evidence (its JSON form) with their labels and quotes, then the five scores;
    None when ``data`` holds no list of nuggets."""
    nuggets = data.get("nuggets")
    if not isinstance(nuggets, list):
        return None
    items = "".join(_nugget_html(n, passage) for n in nuggets if isinstance(n, dict))
    scores = data.get("scores") or {}
    shown = data.get("score")
    cells = []
    for key, name in _SCORE_NAMES.items():
        value = scores.get(key)
        text = "unscorable (no vital nugget)" if value is None else f"{float(value):.3f}"
        cell = f"{e(name)} {e(text)}"
        cells.append(f"<strong>{cell}</strong>" if key == shown else cell)
    footer = [f"<p class='muted'>scores: {' · '.join(cells)}</p>"]
    plan = []
    if not data.get("nuggets_given", True):
        plan.append("nuggets are the reference's claims, importance labelled by the judge")
    if data.get("judging") == "per_context":
        plan.append("each passage judged on its own, a nugget's label the best over passages")
    if int(data.get("votes") or 1) > 1:
        agreement = data.get("agreement")
        plan.append(
            f"{e(data.get('votes'))} judgements per nugget, agreement "
            + (f"{float(agreement):.3f}" if agreement is not None else "-")
        )
    if data.get("nuggetizer_compat"):
        plan.append("nuggetizer-compatible: no vital nugget scores 0.0")
    if plan:
        footer.append(f"<p class='muted'>{'; '.join(plan)}</p>")
    return f"<ol class='claims nuggets'>{items}</ol>{''.join(footer)}"


def _nugget_html(n: dict[str, Any], passage: Passages) -> str:
    label = str(n.get("label", "not_support"))
    css, mark = _LABELS.get(label, _LABELS["not_support"])
    vital = n.get("importance") == "vital"
    badge = f"<code class='{'warn' if vital else 'muted'}'>{'vital' if vital else 'okay'}</code>"
    tags = [f"<strong>{e(mark)}</strong>"]
    verification = n.get("verification")
    if verification in LEVEL_TAGS:
        css_level, text = LEVEL_TAGS[verification]
        problem = f": {e(n['problem'])}" if n.get("problem") and verification != "stated" else ""
        tags.append(f"<span class='{css_level}' title='{e(LEVELS[verification])}'>{e(text)}{problem}</span>")
    if n.get("judged") and n.get("judged") != label:
        tags.append(f"<span class='warn'>judge said {e(str(n['judged']).replace('_', ' '))}</span>")
    votes = [str(v) for v in n.get("votes") or []]
    if len(votes) > 1:
        signs = "".join({"support": "+", "partial_support": "½", "not_support": "−"}.get(v, "?") for v in votes)
        tags.append(f"<span class='{'muted' if len(set(votes)) == 1 else 'warn'}'>votes {e(signs)}</span>")
    text = e(n.get("text", ""))
    part = n.get("part")
    if label == "partial_support" and part:
        tags.append(f"stated part: <mark>{e(part)}</mark>")
    quotes = "".join(quote_html(q, passage) for q in n.get("support") or [] if isinstance(q, dict))
    reason = f"<br><span class='muted'>{e(n.get('reason', ''))}</span>" if n.get("reason") else ""
    return f"<li class='{css}'>{badge} {text} — {' · '.join(tags)}{reason}{quotes}</li>"


def nuggets_legend() -> str:
    """What the labels and badges mean, then the verification levels (shared with claim recall)."""
    return (
        "<details class='legend'><summary>What the nugget labels mean</summary><dl>"
        "<dt>vital / okay</dt><dd>the nugget's importance: a good answer must contain a vital nugget; an okay "
        "one is good to have</dd><dt>supported</dt><dd>a passage states all of the nugget (counts 1)</dd>"
        "<dt>partly supported (½)</dt><dd>a passage states the marked part of it and contradicts none of the "
        "rest (counts 0.5, 0 in the strict scores)</dd><dt>not supported</dt><dd>no passage states any of it, "
        "or the quotes did not check out (counts 0)</dd></dl></details>" + levels_legend()
    )


def note_nuggets(notes: InputNotes, data: dict[str, Any], metric: str, prefix: str) -> None:
    """Mark, in the inputs, each quoted span behind a supported or partly supported nugget."""
    marks: dict[int, list[str]] = defaultdict(list)
    for number, n in enumerate(data.get("nuggets") or [], start=1):
        if not isinstance(n, dict) or n.get("label") not in ("support", "partial_support"):
            continue
        half = "½" if n.get("label") == "partial_support" else ""
        for quote in n.get("support") or []:
            if not isinstance(quote, dict):
                continue
            start, end, context = quote.get("start"), quote.get("end"), quote.get("context")
            if isinstance(start, int) and isinstance(end, int) and isinstance(context, int):
                title = f"{metric}, nugget {number}{' (partly)' if half else ''}: {n.get('text', '')}"
                notes.spans[context].append(Span(start, end, f"{prefix}N{number}{half}", title))
                marks[context].append(f"{number}{half}")
    for context, numbers in marks.items():
        plural = "s" if len(numbers) > 1 else ""
        notes.retrieved[context].append(
            f"<span class='ok'>{e(prefix)}supports nugget{plural} {', '.join(dict.fromkeys(numbers))}</span>"
        )
