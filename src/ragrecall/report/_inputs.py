"""A sample's inputs as the judge saw them — question, reference, each retrieved passage numbered from 1 —
with what each metric found in them: the quoted span behind every supported claim highlighted in its
passage, the passage closest to each reference passage, and which retrieved IDs are relevant."""

from __future__ import annotations

import itertools
from collections import Counter

from ..evaluation import SampleRow
from ..rendering import InputNotes, Span, passage_anchor
from ..schema import Sample, id_key
from ._html import e

__all__ = ["inputs_html"]


def inputs_html(row: SampleRow) -> str:
    """The inputs block of one sample; a note saying they are absent when the result does not carry them."""
    sample = row.sample
    if sample is None:
        return (
            "<div class='inputs'><p class='warn'>The inputs of this sample are not in the results: it was not a "
            "valid sample (see its failure), or the file was written before results carried their inputs. "
            "The verdicts below stand alone.</p></div>"
        )
    notes = _collect(row)
    parts = ["<div class='inputs'>"]
    if sample.user_input is not None:
        parts.append(f"<div class='field'><h4>Question</h4><p class='text'>{e(sample.user_input)}</p></div>")
    if sample.reference is not None:
        parts.append(f"<div class='field'><h4>Reference</h4><p class='text'>{e(sample.reference)}</p></div>")
    parts.append(_retrieved_html(row.index, sample, notes))
    if sample.reference_contexts is not None:
        items = "".join(
            _passage_html(None, i, text, [], notes.reference.get(i, []))
            for i, text in enumerate(sample.reference_contexts)
        )
        parts.append(f"<div class='field'><h4>Reference passages</h4>{items or _none()}</div>")
    if sample.reference_context_ids is not None or sample.relevance is not None:
        parts.append(_judgments_html(sample))
    if sample.response is not None:
        parts.append(
            f"<div class='field'><h4>Response <span class='muted'>(not scored by recall)</span></h4>"
            f"<p class='text muted'>{e(sample.response)}</p></div>"
        )
    parts.append("</div>")
    return "".join(parts)


def _collect(row: SampleRow) -> InputNotes:
    """What every metric marks on the sample's inputs; a metric's name leads its marks when another metric of
    the same kind marks them too."""
    notes = InputNotes()
    kinds = Counter(r.evidence.kind for r in row.results.values() if r.evidence is not None)
    for metric, result in row.results.items():
        if result.evidence is not None:
            prefix = f"{metric} " if kinds[result.evidence.kind] > 1 else ""
            result.evidence.note_inputs(notes, metric, prefix)
    return notes


def _retrieved_html(sample_index: int, sample: Sample, notes: InputNotes) -> str:
    contexts, ids = sample.retrieved_contexts, sample.retrieved_context_ids
    grades = _grades(sample)
    head = (
        "<h4>Retrieved passages <span class='muted'>(numbered from 1 in rank order, as the judge sees them)</span></h4>"
    )
    if contexts is None and ids is None:
        return ""
    if contexts is None:
        items = "".join(
            f"<div class='passage'><div class='meta'><span class='pn'>{n}</span> <code>{e(doc)}</code> "
            f"{_relevance(doc, grades)}</div></div>"
            for n, doc in enumerate(ids or [], start=1)
        )
        head = "<h4>Retrieved IDs <span class='muted'>(in rank order)</span></h4>"
        return f"<div class='field'>{head}{items or _none()}</div>"
    paired_ids = ids if ids is not None and len(ids) == len(contexts) else None
    items = "".join(
        _passage_html(
            passage_anchor(sample_index, i),
            i,
            text,
            notes.spans.get(i, []),
            ([f"<code>{e(paired_ids[i])}</code> {_relevance(paired_ids[i], grades)}"] if paired_ids else [])
            + notes.retrieved.get(i, []),
        )
        for i, text in enumerate(contexts)
    )
    unpaired = ""
    if ids is not None and paired_ids is None:
        listed = ", ".join(f"<code>{e(doc)}</code>" for doc in ids) or "none"
        unpaired = f"<p class='muted'>retrieved IDs ({len(ids)}, not one per passage): {listed}</p>"
    return f"<div class='field'>{head}{items or _none()}{unpaired}</div>"


def _passage_html(anchor: str | None, index: int, text: str, spans: list[Span], notes: list[str]) -> str:
    attr = f" id='{anchor}'" if anchor else ""
    meta = " · ".join(notes)
    return (
        f"<div class='passage'{attr}><div class='meta'><span class='pn'>{index + 1}</span> {meta}</div>"
        f"<p class='text'>{_highlighted(text, spans)}</p></div>"
    )


def _highlighted(text: str, spans: list[Span]) -> str:
    """``text`` escaped, each span marked; overlapping spans merge into one mark whose title names them all,
    and the claim numbers follow the place each span ends. Spans outside the text are ignored."""
    spans = [s for s in spans if 0 <= s.start < s.end <= len(text)]
    if not spans:
        return e(text)
    cuts = sorted({0, len(text), *(s.start for s in spans), *(s.end for s in spans)})
    out = []
    for lo, hi in itertools.pairwise(cuts):
        covering = [s for s in spans if s.start <= lo and hi <= s.end]
        piece = e(text[lo:hi])
        if covering:
            title = e("; ".join(dict.fromkeys(s.title for s in covering)))
            piece = f"<mark title='{title}'>{piece}</mark>"
        ending = [s.label for s in spans if s.end == hi]
        if ending:
            piece += f"<sup class='cl'>{e(','.join(dict.fromkeys(ending)))}</sup>"
        out.append(piece)
    return "".join(out)


def _grades(sample: Sample) -> dict[str, int]:
    if sample.relevance is not None:
        return dict(sample.relevance)
    return {id_key(doc): 1 for doc in sample.reference_context_ids or []}


def _relevance(doc: str | int, grades: dict[str, int]) -> str:
    if not grades:
        return ""
    grade = grades.get(id_key(doc))
    if grade is None:
        return "<span class='muted'>not judged</span>"
    if grade >= 1:
        return f"<span class='ok'>relevant (grade {grade})</span>"
    return "<span class='muted'>judged not relevant</span>"


def _judgments_html(sample: Sample) -> str:
    if sample.relevance is not None:
        items = ", ".join(f"<code>{e(doc)}</code> ({grade})" for doc, grade in sample.relevance.items())
        return f"<div class='field'><h4>Relevance grades</h4><p>{items or 'none'}</p></div>"
    items = ", ".join(f"<code>{e(doc)}</code>" for doc in sample.reference_context_ids or [])
    return f"<div class='field'><h4>Reference IDs</h4><p>{items or 'none'}</p></div>"


def _none() -> str:
    return "<p class='muted'>none</p>"
