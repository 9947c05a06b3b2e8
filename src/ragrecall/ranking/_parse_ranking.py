"""Read the ranking an LLM reranker wrote: ``[3] > [1] > [2]``, numbered lists, JSON arrays, one ID per line.

Time is linear in the length of the text, whatever it holds (no pattern here can backtrack over a long run of
spaces or letters, and every "seen before" test is a set lookup), so no size limit is needed: a megabyte of
output parses in a fraction of a second.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterable
from typing import Any, Literal

from ..results import Evidence

__all__ = ["ParsedRanking", "parse_ranking"]

Format = Literal["json", "arrows", "lines", "commas", "empty"]

# Bracketed text is matched as "[", then bracket-free text, then "]", and stripped afterwards: surrounding the
# group with \s* made the engine try every split of a long run of spaces (minutes for 10,000 characters).
_BRACKETED = re.compile(r"^\[([^\[\]]+)\]$")
_BRACKETS = re.compile(r"\[([^\[\]]+)\]")
_LEADING_BRACKETS = re.compile(r"^\[([^\[\]]+)\]")
_FENCE_MARK = "```"
_NUMBERING = re.compile(r"^\s*(?:[-*•]\s*|\(?\d+[.):]\s+|#\d+[.):]?\s+|rank\s*\d+[.):]?\s*)", re.IGNORECASE)
_TRIM = "[]()\"'`*,;:."


class ParsedRanking(Evidence):
    """Document IDs read from model output, in order, first occurrence kept."""

    kind: Literal["parsed_ranking"] = "parsed_ranking"
    ids: list[str]
    """The ranking: IDs in the order written, each once, unknown ones removed when candidates were given."""
    format: Format
    """Which layout was recognised."""
    duplicates: list[str]
    """IDs written more than once (kept at their first position)."""
    unknown: list[str]
    """IDs that were not among the candidates (dropped), in order of appearance."""
    missing: list[str]
    """Candidates the output did not mention (empty when no candidates were given)."""


def parse_ranking(text: str, candidates: Iterable[str | int] | None = None) -> ParsedRanking:
    """Extract a ranking of document IDs from what a reranker wrote.

    Recognised, in this order: a JSON array (of IDs, or of objects with an ``id``/``doc_id``/``docid``
    key; also inside a code fence or an object with one list value); ``[3] > [1] > [2]`` (or ``3 > 1 > 2``);
    one ID per line, with list numbering, bullets and brackets stripped (``1. doc7``, ``- [doc7]``), taking
    the first word of a line when the whole line is not a candidate; a single comma-separated line.
    IDs are strings (``3`` and ``"3"`` are the same). The first occurrence of an ID wins. With
    ``candidates``, IDs not among them are dropped and listed in ``unknown``.
    """
    allowed = None if candidates is None else [str(c) for c in candidates]
    allowed_set = None if allowed is None else set(allowed)
    fmt, raw = _extract(text, allowed_set)
    ids: list[str] = []
    seen: set[str] = set()
    duplicates: dict[str, None] = {}  # dicts as ordered sets: first appearance kept, membership in O(1)
    unknown: dict[str, None] = {}
    for item in raw:
        if allowed_set is not None and item not in allowed_set:
            unknown.setdefault(item)
            continue
        if item in seen:
            duplicates.setdefault(item)
            continue
        seen.add(item)
        ids.append(item)
    missing = list(dict.fromkeys(c for c in allowed or [] if c not in seen))
    return ParsedRanking(ids=ids, format=fmt, duplicates=list(duplicates), unknown=list(unknown), missing=missing)


def _extract(text: str, allowed: set[str] | None) -> tuple[Format, list[str]]:
    body = text.strip()
    fenced = _fenced(body)
    if fenced is not None:
        body = fenced.strip()
    from_json = _json_ids(body)
    if from_json is not None:
        return "json", from_json
    if not body:
        return "empty", []
    if ">" in body and "\n" not in body.strip():
        pieces = body.split(">")
        parts = [_arrow_part(p, first=i == 0, last=i == len(pieces) - 1) for i, p in enumerate(pieces)]
        if all(parts):
            return "arrows", parts
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) == 1 and "," in lines[0]:
        parts = [_clean(p) for p in lines[0].split(",")]
        if all(parts):
            return "commas", parts
    out: list[str] = []
    for line in lines:
        item = _line_id(line, allowed)
        if item:
            out.append(item)
    return "lines", out


def _json_ids(body: str) -> list[str] | None:
    start, end = body.find("["), body.rfind("]")
    candidates = [body]
    if start != -1 and end > start:
        candidates.append(body[start : end + 1])
    for chunk in candidates:
        try:
            data: Any = json.loads(chunk)
        except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
            continue
        if isinstance(data, dict):
            lists = [v for v in data.values() if isinstance(v, list)]
            if len(lists) != 1:
                continue
            data = lists[0]
        if not isinstance(data, list):
            continue
        out: list[str] = []
        for item in data:
            if isinstance(item, dict):
                item = next((item[k] for k in ("id", "doc_id", "docid") if k in item), None)
            if isinstance(item, bool) or not isinstance(item, (str, int)):
                break
            out.append(str(item).strip())
        else:
            return out
    return None


def _fenced(body: str) -> str | None:
    """The text of the first code fence, or None when there is no closed fence.

    The fence's text starts after the opening mark, its language tag (ASCII letters) and any blank space, and
    ends at the next mark: what the pattern ``FENCE [a-zA-Z]* \\s* (.*?) FENCE`` finds, in linear time (the
    pattern retried its lazy group for every shorter tag, quadratic on a long unclosed run of letters).
    """
    start = body.find(_FENCE_MARK)
    if start == -1:
        return None
    inner = start + len(_FENCE_MARK)
    while inner < len(body) and body[inner] in string.ascii_letters:
        inner += 1
    while inner < len(body) and body[inner].isspace():
        inner += 1
    end = body.find(_FENCE_MARK, inner)
    return None if end == -1 else body[inner:end]


def _clean(part: str) -> str:
    part = part.strip()
    bracketed = _BRACKETED.match(part)
    if bracketed:
        return bracketed.group(1).strip()
    return part.strip(_TRIM + " ")


def _arrow_part(part: str, *, first: bool, last: bool) -> str:
    # Models wrap the chain in prose ("Ranking: [3] > [1] > [2] (best first)"): a bracketed ID anywhere in
    # the piece wins; otherwise the first piece's last word and the last piece's first word.
    bracketed = _BRACKETS.findall(part)
    if bracketed:
        return str(bracketed[-1 if first else 0]).strip()
    words = part.split()
    if first and len(words) > 1:
        return words[-1].strip(_TRIM)
    if last and len(words) > 1:
        return words[0].strip(_TRIM)
    return _clean(part)


def _line_id(line: str, allowed: set[str] | None) -> str:
    rest = _NUMBERING.sub("", line, count=1).strip()
    bracketed = _LEADING_BRACKETS.match(rest)
    if bracketed:
        return bracketed.group(1).strip()
    whole = rest.strip(_TRIM + " ")
    if allowed is not None and whole in allowed:
        return whole
    first = rest.split()[0] if rest.split() else ""
    return first.strip(_TRIM)
