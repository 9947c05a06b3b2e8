"""Each metric's verdict on one sample, in words: claims and their quotes, matched passages, found IDs.

Evidence indices are 0-based in results (``Quote.context``, ``ContextMatch.best_retrieved_index``); here,
as in the judge's prompts and the inputs shown beside them, passages are numbered from 1.
"""

from __future__ import annotations

import json
from typing import Any

from ..metrics.context_recall import QUOTE_WINDOW
from ..results import MetricResult
from ._html import e
from ._stability import votes_text

__all__ = ["evidence_block", "passage_anchor"]


def passage_anchor(sample_index: int, passage: int) -> str:
    """The element id of retrieved passage ``passage`` (0-based) of a sample; shown as ``passage + 1``."""
    return f"s{sample_index}-p{passage + 1}"


class _Passages:
    """Names retrieved passages 1-based, linked to the passage shown in the sample's inputs when it is there."""

    def __init__(self, sample_index: int, shown: int) -> None:
        self.sample_index, self.shown = sample_index, shown

    def __call__(self, passage: Any) -> str:
        if not isinstance(passage, int) or isinstance(passage, bool):
            return f"passage {e(passage)}"
        if 0 <= passage < self.shown:
            return f"<a href='#{passage_anchor(self.sample_index, passage)}'>passage {passage + 1}</a>"
        return f"passage {passage + 1}"


def evidence_block(metric: str, result: MetricResult, sample_index: int, passages_shown: int) -> str:
    """One metric's verdict on a sample: its status, failure or reason, and its evidence."""
    body: list[str] = []
    if result.status == "unscorable":
        body.append(f"<p class='warn'>unscorable: {e(result.reason or '')}</p>")
    if result.failure is not None:
        body.append(f"<p class='miss'>failed: {e(result.failure.type)}: {e(result.failure.message)}</p>")
    if result.evidence is not None:
        body.append(_evidence_html(result.evidence.model_dump(mode="json"), _Passages(sample_index, passages_shown)))
    return f"<div class='ev'><strong>{e(metric)}</strong>{''.join(body)}</div>"


def _evidence_html(data: dict[str, Any], passage: _Passages) -> str:
    kind = data.pop("kind", "")
    if kind == "id_recall":
        found = ", ".join(f"<code>{e(f['id'])}</code> at rank {f['rank']}" for f in data["found"]) or "none"
        missing = ", ".join(f"<code>{e(m)}</code>" for m in data["missing"]) or "none"
        return f"<ul><li class='ok'>found: {found}</li><li class='miss'>missing: {missing}</li></ul>"
    if kind == "string_recall":
        items = []
        for m in data["matches"]:
            css, verdict = ("ok", "recalled") if m["recalled"] else ("miss", "missed")
            best = m["best_retrieved_index"]
            where = passage(best) if best is not None else "nothing retrieved"
            items.append(
                f"<li class='{css}'>reference passage {m['reference_index'] + 1}: {verdict} "
                f"(closest: {where}, similarity {m['similarity']:.2f}; threshold {data['threshold']})</li>"
            )
        return f"<ul>{''.join(items)}</ul>"
    if kind == "ranking":
        items = []
        for item in data.get("relevant", []):
            rank = item.get("rank")
            css, where = ("ok", f"at rank {rank}") if rank is not None else ("miss", "not retrieved")
            items.append(f"<li class='{css}'><code>{e(item['id'])}</code> (grade {e(item['grade'])}) {where}</li>")
        considered = data.get("retrieved_considered")
        return f"<ul>{''.join(items)}</ul><p class='muted'>{e(considered)} retrieved IDs ranked</p>"
    if kind == "claim_recall":
        claims = _claims_html(data, passage)
        if claims is not None:
            return claims
    return _generic_html(data)


def _claims_html(data: dict[str, Any], passage: _Passages) -> str | None:
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


def _claim_html(c: dict[str, Any], passage: _Passages) -> str:
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


def _quote_html(q: dict[str, Any], passage: _Passages) -> str:
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


def _generic_html(data: Any) -> str:
    if isinstance(data, dict):
        items = "".join(f"<li><strong>{e(k)}</strong>: {_generic_html(v)}</li>" for k, v in data.items())
        return f"<ul>{items}</ul>"
    if isinstance(data, list):
        if all(not isinstance(v, (dict, list)) for v in data):
            return e(", ".join(json.dumps(v, ensure_ascii=False) for v in data)) or "[]"
        return "<ol>" + "".join(f"<li>{_generic_html(v)}</li>" for v in data) + "</ol>"
    return e(json.dumps(data, ensure_ascii=False))
