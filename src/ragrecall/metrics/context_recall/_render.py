"""How claim recall's evidence shows in the report: each claim with its verdict, verification level, votes and
quotes; the counts in words; the legend of the verification levels; the quoted spans marked in the inputs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ...rendering import InputNotes, Passages, Span
from ...rendering import escape as e
from ._evidence import QUOTE_WINDOW

__all__ = [
    "LEVELS",
    "LEVEL_TAGS",
    "UNCHECKABLE",
    "claims_html",
    "counts_text",
    "levels_legend",
    "note_claims",
    "quote_html",
    "votes_text",
]


def votes_text(votes: list[bool]) -> str:
    """Votes as signs in judgement order, and the count: ``"+−+ (2 of 3 supported)"``."""
    signs = "".join("+" if v else "−" for v in votes)
    return f"{signs} ({sum(votes)} of {len(votes)} supported)"


def counts_text(c: Mapping[str, int]) -> str:
    """Claim recall's counts summed over a run, in words: ``"40 claims, 31 supported; verdicts 4 stated, ..."``."""
    confirmed = f", {c.get('refuted', 0)} refuted, {c.get('confirmed', 0)} confirmed" if "confirmed" in c else ""
    return (
        f"{c.get('claims', 0)} claims, {c.get('supported', 0)} supported; verdicts {c.get('stated', 0)} stated, "
        f"{c.get('verified', 0)} verified, {c.get('corrected', 0)} corrected, {c.get('unverified', 0)} "
        f"unverified, {c.get('contested', 0)} contested{confirmed}; "
        f"{c.get('coverage_claims', 0)} coverage claims added, {c.get('dropped_claims', 0)} claims dropped"
        + (f"; {c['unstable_claims']} unstable (judgements disagreed)" if "unstable_claims" in c else "")
    )


def claims_html(data: dict[str, Any], passage: Passages) -> str | None:
    """The claims of one sample's evidence (its JSON form) with their verdicts and quotes, then what the
    verdicts add up to; None when ``data`` holds no list of claims."""
    claims = data.get("claims")
    if not isinstance(claims, list):
        return None
    items = [_claim_html(c, passage) for c in claims if isinstance(c, dict)]
    used = data.get("contexts_used") or []
    used_text = ", ".join(passage(i) for i in used) or "none"
    footer = [f"<p class='muted'>passages that supported a claim: {used_text}</p>"]
    confirmed = (
        f", {e(data.get('refuted', 0))} refuted, {e(data.get('confirmed', 0))} confirmed by {e(data['confirm_model'])}"
        if data.get("confirm_model")
        else ""
    )
    counts = (
        f"verdicts: {e(data.get('stated', 0))} stated, {e(data.get('verified', 0))} verified, "
        f"{e(data.get('corrected', 0))} corrected, {e(data.get('unverified', 0))} unverified (counted as "
        f"{e(data.get('unverified_policy', 'unsupported'))}), {e(data.get('contested', 0))} contested{confirmed}; "
        f"{e(data.get('coverage_claims', 0))} coverage claims, {e(data.get('dropped_claims', 0))} dropped"
    )
    footer.append(f"<p class='muted'>{counts}</p>")
    plan = []
    if data.get("claims_given"):
        plan.append("claims given with the sample (no decomposition)")
    if data.get("judging") == "per_context":
        plan.append("each passage judged on its own")
    if int(data.get("votes") or 1) > 1:
        values = ", ".join(f"{float(v):.3f}" for v in data.get("judgement_values") or [])
        agreement = data.get("agreement")
        shown = f"{float(agreement):.3f}" if agreement is not None else "-"
        plan.append(f"{e(data.get('votes'))} judgements per claim, agreement {shown}, each judgement's score: {values}")
    if plan:
        footer.append(f"<p class='muted'>{'; '.join(plan)}</p>")
    dropped = data.get("dropped") or []
    if dropped:
        rows = "".join(
            f"<li><s>{e(d.get('claim', ''))}</s> <span class='muted'>{e(d.get('reason', ''))}</span></li>"
            for d in dropped
            if isinstance(d, dict)
        )
        footer.append(f"<p class='muted'>claims left out of the score:</p><ul>{rows}</ul>")
    return f"<ol class='claims'>{''.join(items)}</ol>{''.join(footer)}"


LEVELS = {
    "stated": "the claim is written word for word (case, width, spacing and punctuation aside) in a passage, with "
    "its numbers and no negation around it; decided by code, the judge not asked",
    "verified": "the judge's quotes are in the passages it cites, and the sentences holding them passed every check: "
    "polarity, subject, numbers, units, ranges, several quotes adding up, predicate",
    "corrected": "verified, after moving a quote to the passage it really comes from",
    "unverified": "the judge said supported, but a quote is in no passage or its sentence failed a check (after one "
    "re-ask)",
    "contested": "the judge said unsupported and kept to it when asked again, although a passage sentence holds every "
    "term and number of the claim with its polarity",
    "refuted": "the checks passed, but the confirming model did not find the claim in its evidence sentences",
    "none": "the judge said unsupported and nothing contradicted it",
}
"""What each verification level promises (the report's legend and the tags' titles)."""
LEVEL_TAGS = {
    "stated": ("ok", "stated in a passage"),
    "verified": ("ok", "quote verified"),
    "corrected": ("ok", "quote verified, citation corrected"),
    "unverified": ("warn", "unverified"),
    "contested": ("warn", "contested"),
    "refuted": ("warn", "refuted"),
}
UNCHECKABLE = (
    "No code can check that a word means the same thing in the claim and the passage (a homonym, another person of "
    "the same name), that roles are not swapped (A beat B / B beat A), or a paraphrase's meaning: those need the "
    "judge, or confirmation by a second model."
)


def levels_legend() -> str:
    """The legend of the verification levels: what each promises and what no code can check."""
    rows = "".join(f"<dt>{e(level)}</dt><dd>{e(text)}</dd>" for level, text in LEVELS.items())
    return (
        "<details class='legend' id='levels'><summary>What the verification levels promise</summary>"
        f"<dl>{rows}</dl><p class='muted'>{e(UNCHECKABLE)}</p></details>"
    )


def _claim_html(c: dict[str, Any], passage: Passages) -> str:
    css, mark = ("ok", "supported") if c.get("supported") else ("miss", "not supported")
    tags = [f"<strong>{mark}</strong>"]
    cited = [i for i in c.get("supporting_contexts") or [] if isinstance(i, int)]
    if cited:
        tags.append("by " + ", ".join(passage(i) for i in cited))
    verification = c.get("verification")
    if verification in LEVEL_TAGS:
        css_level, text = LEVEL_TAGS[verification]
        problem = f": {e(c['problem'])}" if c.get("problem") and verification != "stated" else ""
        tags.append(f"<span class='{css_level}' title='{e(LEVELS[verification])}'>{e(text)}{problem}</span>")
    if c.get("confirmed") is True:
        tags.append("<span class='ok'>confirmed</span>")
    if c.get("origin") == "coverage":
        tags.append("<span class='warn'>coverage claim: a sentence no claim covered</span>")
    elif c.get("origin") == "given":
        tags.append("<span class='muted'>given claim</span>")
    votes = [bool(v) for v in c.get("votes") or []]
    if len(votes) > 1:
        css_votes = "muted" if len(set(votes)) == 1 else "warn"
        tags.append(f"<span class='{css_votes}'>votes {e(votes_text(votes))}</span>")
    quotes = "".join(_quote_html(q, passage) for q in c.get("support") or [] if isinstance(q, dict))
    return (
        f"<li class='{css}'>{e(c.get('claim', ''))} — {' · '.join(tags)}"
        f"<br><span class='muted'>{e(c.get('reason', ''))}</span>{quotes}</li>"
    )


def quote_html(q: dict[str, Any], passage: Passages) -> str:
    """One quote (its JSON form) in its passage: the located text marked with a little context around it, or
    "not found" with the quote as the judge wrote it."""
    return _quote_html(q, passage)


def _quote_html(q: dict[str, Any], passage: Passages) -> str:
    if q.get("start") is None:
        return (
            f"<blockquote class='q unverified'>not found in any passage (cited {passage(q.get('cited'))}): "
            f"“{e(q.get('quote', ''))}”</blockquote>"
        )
    where = passage(q.get("context"))
    if q.get("cited") != q.get("context"):
        where += f" (cited as {passage(q.get('cited'))})"
    if q.get("match") == "fuzzy":
        where += f", similarity {float(q.get('similarity', 0.0)):.2f}"
    before, after = str(q.get("before", "")), str(q.get("after", ""))
    lead = "…" if int(q.get("start") or 0) > len(before) else ""
    tail = "…" if len(after) >= QUOTE_WINDOW else ""
    return (
        f"<blockquote class='q'><span class='muted'>{where}:</span> {lead}{e(before)}"
        f"<mark>{e(q.get('passage', ''))}</mark>{e(after)}{tail}</blockquote>"
    )


def note_claims(notes: InputNotes, data: dict[str, Any], metric: str, prefix: str) -> None:
    """Mark, in the inputs, each quoted span behind a supported claim and the passages that support claims."""
    supports: dict[int, list[int]] = defaultdict(list)
    for number, claim in enumerate(data.get("claims") or [], start=1):
        if not isinstance(claim, dict) or not claim.get("supported"):
            continue
        for context in claim.get("supporting_contexts") or []:
            if isinstance(context, int):
                supports[context].append(number)
        for quote in claim.get("support") or []:
            if not isinstance(quote, dict):
                continue
            start, end, context = quote.get("start"), quote.get("end"), quote.get("context")
            if isinstance(start, int) and isinstance(end, int) and isinstance(context, int):
                title = f"{metric}, claim {number}: {claim.get('claim', '')}"
                notes.spans[context].append(Span(start, end, f"{prefix}{number}", title))
    for context, numbers in supports.items():
        plural = "s" if len(numbers) > 1 else ""
        notes.retrieved[context].append(
            f"<span class='ok'>{e(prefix)}supports claim{plural} {', '.join(map(str, numbers))}</span>"
        )
