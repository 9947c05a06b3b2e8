"""A calibration as plain text: figures with intervals, the confusion table, how to read kappa, disagreements."""

from __future__ import annotations

from ._result import KAPPA_BANDS, CalibrationResult, ClaimDisagreement, ScoreDisagreement

__all__ = [
    "FIGURE_LABELS",
    "INTERVAL_NOTE",
    "KAPPA_READING",
    "calibration_table",
    "describe_disagreement",
    "level_lines",
]

FIGURE_LABELS = {
    "accuracy": "accuracy",
    "kappa": "Cohen's kappa",
    "precision": "precision (supported)",
    "recall": "recall (supported)",
    "f1": "F1 (supported)",
    "spearman": "Spearman rho",
    "kendall": "Kendall tau-b",
    "mae": "mean absolute error",
}

KAPPA_READING = (
    "How to read kappa: agreement beyond what chance gives from each side's own rate of 'supported' "
    "(1 perfect, 0 chance, below 0 worse than chance). By the Landis & Koch (1977) convention: "
    + ", ".join(
        f"{'< 0' if i == 0 else f'{KAPPA_BANDS[i - 1][0]:.2f}-{bound:.2f}'} {name}"
        for i, (bound, name) in enumerate(KAPPA_BANDS)
    )
    + ". The bands are a convention, not a test; compare the interval, not the point, with the bar you need."
)

INTERVAL_NOTE = (
    "Intervals: 95% percentile bootstrap over {n} resamples of samples (seed {seed}); the claims of one sample "
    "are drawn together, since they share its contexts and are not independent."
)


def calibration_table(result: CalibrationResult, *, show: int = 5) -> str:
    """The calibration as text: what was compared, each figure with its interval, the confusion table, the
    reading of kappa, what was left out, and the first ``show`` disagreements of each kind."""
    model = f" (judge {result.model})" if result.model else ""
    plural = "s" if result.samples != 1 else ""
    lines = [f"calibration of {result.metric}{model} against the labels of {result.samples} sample{plural}"]
    lines.append(
        f"compared: {result.labelled_claims} labelled claims in {result.claim_samples} samples; "
        f"{result.score_samples} human scores; left out: {result.failed} failed, {result.unscorable} unscorable"
        + (f", {_no_verdicts(result)} without verdicts" if _no_verdicts(result) else "")
    )
    figures = result.figures()
    if figures:
        rows = [("figure", "value", "95% CI", "")]
        for name, value, interval in figures:
            ci = f"[{interval.low:.3f}, {interval.high:.3f}]" if interval else "-"
            note = _kappa_note(result) if name == "kappa" else ""
            rows.append((FIGURE_LABELS[name], f"{value:.3f}" if value is not None else "-", ci, note))
        if result.bias is not None:
            bias_ci = result.intervals.get("bias")
            shown = f"[{bias_ci.low:+.3f}, {bias_ci.high:+.3f}]" if bias_ci else "-"
            rows.append(("bias (metric - human)", f"{result.bias:+.3f}", shown, ""))
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines.append("")
        lines.extend(
            f"{r[0].ljust(widths[0])}  {r[1].rjust(widths[1])}  {r[2].ljust(widths[2])}  {r[3]}".rstrip() for r in rows
        )
    else:
        lines.append("no figure: nothing was compared")
    if result.labelled_claims:
        c = result.confusion
        lines += [
            "",
            "claims (rows: label, columns: verdict)   judged supported   judged unsupported",
            f"labelled supported                       {c.tp:>16}   {c.fn:>18}",
            f"labelled unsupported                     {c.fp:>16}   {c.tn:>18}",
            f"supported: {_share(result.human_supported)} of labels, {_share(result.judge_supported)} of verdicts",
            "",
            KAPPA_READING,
        ]
        lines += level_lines(result)
    if figures:
        lines.append(INTERVAL_NOTE.format(n=result.n_resamples, seed=result.seed))
    for item in result.not_compared:
        label = f"sample {item.index}" + (f" (id={item.sample_id!r})" if item.sample_id is not None else "")
        lines.append(f"left out: {label}: {item.status}: {item.message}")
    lines += _disagreements(result.claim_disagreements, show, "claim")
    lines += _disagreements(result.score_disagreements, show, f"score (|metric - human| > {result.score_tolerance:g})")
    usage = result.usage
    cost = f", cost {usage.cost_text()}" if usage.cost_usd is not None or usage.unknown_requests else ""
    lines.append(f"\n{usage.requests} LLM requests, {usage.total_tokens} tokens{usage.unknown_note()}{cost}")
    return "\n".join(lines)


def level_lines(result: CalibrationResult) -> list[str]:
    """The judge's agreement per verification level of its verdicts, as text lines."""
    if not result.by_level:
        return []
    width = max(len(item.level) for item in result.by_level)
    lines = ["", "by verification level of the verdict (which levels to trust):"]
    for item in result.by_level:
        precision = f"{item.precision:.0%}" if item.precision is not None else "-"
        lines.append(
            f"  {item.level.ljust(width)}  {item.claims:>4} claims  accuracy {item.accuracy:.0%}  "
            f"'supported' confirmed by people {precision} ({item.labelled_supported} of {item.judged_supported})"
        )
    meanings = [f"{level}: {_LEVELS[level]}" for level in (item.level for item in result.by_level) if level in _LEVELS]
    if meanings:
        lines.append("  (" + "; ".join(meanings) + ")")
    return lines


# What a level that needs saying means (the others are named by the checks that passed; see the claims guide).
_LEVELS = {
    "none": "the judge said unsupported, with no quote to check, and nothing contradicted it",
    "contested": "the judge said unsupported although a passage sentence holds every term of the claim",
    "unverified": "the judge said supported but its quotes did not check out",
}


def _kappa_note(result: CalibrationResult) -> str:
    reading = result.kappa_reading
    if reading is None:
        return ""
    return reading if reading != result.kappa_band else f"{reading} (Landis & Koch)"


def describe_disagreement(item: ClaimDisagreement | ScoreDisagreement) -> str:
    """One disagreement in a line or two: where, what the label and the judge said, and the judge's evidence."""
    where = f"sample {item.index}" + (f" (id={item.sample_id!r})" if item.sample_id is not None else "")
    if isinstance(item, ScoreDisagreement):
        return f"{where}: human {item.human:.3f}, metric {item.metric:.3f} ({item.difference:+.3f})"
    said = "supported" if item.judge else "unsupported"
    label = "supported" if item.human else "unsupported"
    reason = " ".join(item.reason.split())
    text = f"{where}, claim {item.claim_index + 1}: {item.claim!r}\n    label {label}, judge {said}" + (
        f": {reason}" if reason else ""
    )
    for quote in item.quotes:
        shown = quote.passage or quote.quote
        text += f"\n    quote (passage {quote.context + 1}, {quote.match}): {shown!r}"
    if item.votes:
        text += f"\n    votes: {''.join('S' if v else '-' for v in item.votes)}"
    return text


def _disagreements(items: list[ClaimDisagreement] | list[ScoreDisagreement], show: int, kind: str) -> list[str]:
    if not items:
        return []
    head = f"\n{kind} disagreements: {len(items)}" + (f", first {show}:" if len(items) > show else ":")
    return [head, *(describe_disagreement(item) for item in items[:show])]


def _no_verdicts(result: CalibrationResult) -> int:
    return sum(n.status == "no verdicts" for n in result.not_compared)


def _share(value: float | None) -> str:
    return f"{value:.0%}" if value is not None else "-"
