"""The labelling page: one self-contained HTML file (no network, no external asset) that shows one claim at a
time with the question, the reference and every retrieved passage, keeps the answers in the browser's storage,
and downloads them as a labels JSONL that ``calibrate`` reads as it is."""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import datetime, timezone
from typing import Any

from .._files import atomic_text
from .._resources import data_file
from ..calibration import content_fingerprint
from ..evaluation import EvaluationResult
from ._choose import Chosen

__all__ = ["page_data", "render_label_page", "write_label_page"]


def page_data(result: EvaluationResult, chosen: list[Chosen], metric: str, *, source: str = "") -> dict[str, Any]:
    """What the page shows and writes back, as plain JSON: per chosen sample its inputs, claims and the judge's
    verdicts (shown only after the person answers), and its inclusion probability."""
    rows = {row.index: row for row in result.rows}
    samples = []
    for item in chosen:
        row = rows[item.index]
        sample, evidence = row.sample, row.results[metric].evidence
        items = evidence.labelled_items() if evidence is not None else None
        if sample is None or evidence is None or items is None:  # choose() draws only these
            continue
        importance = {n.text: n.importance for n in sample.reference_nuggets or []}
        samples.append(
            {
                "id": item.sample_id,
                "stratum": item.stratum,
                "inclusion_probability": item.inclusion_probability,
                "user_input": sample.user_input,
                "reference": sample.reference,
                "retrieved_contexts": list(sample.retrieved_contexts or []),
                "judge_value": row.results[metric].value,
                # Where the labels file lists the items: reference_nuggets keep their importance.
                "labelled_field": evidence.labelled_field(),
                # What the person sees, as digests: the labels pair with a run only where it judged the same.
                "fingerprint": content_fingerprint(sample),
                "claims": [
                    {
                        "claim": c.claim,
                        "supported": c.supported,
                        "reason": c.reason,
                        "verification": str(c.verification),
                        # A second look at the evidence, where the metric has one (True, False or None).
                        "confirmed": getattr(c, "confirmed", None),
                        "quotes": [{"context": q.context, "text": q.passage or q.quote} for q in c.support],
                        "votes": list(c.votes) if len(c.votes) > 1 else [],
                        **({"importance": importance[c.claim]} if c.claim in importance else {}),
                    }
                    for c in items
                ],
            }
        )
    body = {"metric": metric, "source": source, "samples": samples}
    key = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return {**body, "key": key, "created": created}


def render_label_page(data: dict[str, Any], *, title: str = "ragrecall labelling") -> str:
    """The page as one HTML document; ``data`` from :func:`page_data`, embedded once as JSON that no text inside
    can close (every ``<`` is escaped) or change: the template's places are filled in one pass, so a sample text
    or title holding ``{{SCRIPT}}`` stays text."""
    embedded = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    template = data_file("label_page.html").read_text(encoding="utf-8")
    fills = {
        "TITLE": _escape(title),
        "DATA": embedded,
        "SCRIPT": data_file("label_page.js").read_text(encoding="utf-8"),
    }
    return _PLACE.sub(lambda match: fills[match[1]], template)


def write_label_page(data: dict[str, Any], path: str | os.PathLike[str], *, title: str = "ragrecall labelling") -> None:
    """Write :func:`render_label_page` to ``path`` atomically (the old content or the whole page, never part)."""
    page = render_label_page(data, title=title)
    with atomic_text(path) as out:
        out.write(page)


_PLACE = re.compile(r"\{\{(TITLE|DATA|SCRIPT)\}\}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
