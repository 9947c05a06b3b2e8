"""A run's nugget recall written as nuggetizer's assignment lines, ragrecall's checked quotes alongside.

``kind="answers"``: one line per sample (``qid`` = the sample's id, else its 0-based index), each nugget's
``assignment`` the label of the retrieved set (the best over passages) — what the sample's scores were computed
from, so :func:`~ragrecall.nuggets.nugget_metrics` on the file gives back each sample's four scores; the "answer"
is the retrieved passages, joined by a blank line.

``kind="retrieval"``: one line per (sample, retrieved passage), ``docid`` = the passage's id
(``retrieved_context_ids``) or its 1-based rank; a nugget's ``assignment`` there is the label the passage earned:
the label its checked quote in that passage gave (``judging="per_context"``: the passage's own judgement), else
``not_support``. With every passage judged together, a passage the judge did not quote reads ``not_support``
even when it also states the nugget: the file is a lower bound per passage, never more than the judge showed.

Each nugget also gets ``"ragrecall": {"quotes", "part", "verification", "problem", "reason"}``: the quotes (each
with its passage, 0-based, and the located text), the words of the nugget a partial support states, and how
the quotes checked out. nuggetizer's scripts never read that key.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConfigurationError
from ._files import write_jsonl

if TYPE_CHECKING:
    from ..evaluation import EvaluationResult
    from ..schema import Sample

__all__ = ["write_assignments"]

_KIND = "nugget_recall"
AssignmentKind = Literal["retrieval", "answers"]


def write_assignments(
    path: str | os.PathLike[str],
    result: EvaluationResult,
    kind: AssignmentKind = "answers",
    *,
    metric: str | None = None,
    run_id: str = "ragrecall",
) -> int:
    """Write the nugget labels of ``result`` (an evaluation with a :class:`~ragrecall.NuggetRecall` metric) as
    nuggetizer's assignment lines of ``kind``; returns the number of lines written.

    Samples whose nugget recall failed, or that have no nuggets, are left out (they have no labels).
    ``metric`` names the nugget recall column when the run has more than one.

    Raises:
        ConfigurationError: ``kind`` is neither ``"retrieval"`` nor ``"answers"``, or the run has no nugget
            recall metric (or several, and ``metric`` is not given).
    """
    if kind not in ("retrieval", "answers"):
        raise ConfigurationError(f"kind must be 'retrieval' or 'answers', got {kind!r}")
    name = metric if metric is not None else _the_metric(result)
    if name not in result.metrics:
        raise ConfigurationError(f"the run has no metric {name!r}; it has {', '.join(result.metrics)}")
    lines = list(_lines(result, name, kind, run_id))
    write_jsonl(path, lines)
    return len(lines)


def _the_metric(result: EvaluationResult) -> str:
    found = [m for m in result.metrics if any(_evidence(row.results.get(m)) is not None for row in result.rows)]
    if len(found) != 1:
        problem = "no nugget recall results" if not found else f"several nugget recall metrics ({', '.join(found)})"
        raise ConfigurationError(f"the run has {problem}; name one with metric=")
    return found[0]


def _evidence(result: Any) -> dict[str, Any] | None:
    evidence = getattr(result, "evidence", None)
    if evidence is None or getattr(evidence, "kind", None) != _KIND:
        return None
    data: dict[str, Any] = evidence.model_dump(mode="json")
    return data if data.get("nuggets") else None


def _lines(result: EvaluationResult, metric: str, kind: AssignmentKind, run_id: str) -> Iterator[dict[str, Any]]:
    for row in result.rows:
        evidence = _evidence(row.results.get(metric))
        if evidence is None or row.sample is None:
            continue
        qid = row.sample_id if row.sample_id is not None else row.index
        contexts = list(row.sample.retrieved_contexts or [])
        if kind == "answers":
            answer = "\n\n".join(contexts)
            nuggets = [_nugget(n, n.get("label", "not_support"), None) for n in evidence["nuggets"]]
            yield {
                "query": row.sample.user_input,
                "qid": qid,
                "answer_text": answer,
                "response_length": len(answer.split()),
                "run_id": run_id,
                "nuggets": nuggets,
            }
            continue
        for i, passage in enumerate(contexts):
            nuggets = [
                _nugget(n, (n.get("passage_labels") or {}).get(str(i), "not_support"), i) for n in evidence["nuggets"]
            ]
            yield {
                "text": row.sample.user_input,
                "qid": qid,
                "candidate_text": passage,
                "docid": _docid(row.sample, i),
                "nuggets": nuggets,
            }


def _docid(sample: Sample, i: int) -> str | int:
    ids = sample.retrieved_context_ids
    return ids[i] if ids is not None and i < len(ids) else str(i + 1)


def _nugget(nugget: dict[str, Any], label: str, passage: int | None) -> dict[str, Any]:
    quotes = [
        {"context": q.get("context"), "quote": q.get("quote"), "passage": q.get("passage")}
        for q in nugget.get("support") or []
        if passage is None or q.get("context") == passage
    ]
    return {
        "text": nugget.get("text"),
        "importance": nugget.get("importance", "vital"),
        "assignment": label,
        "ragrecall": {
            "quotes": quotes,
            "part": nugget.get("part"),
            "verification": nugget.get("verification"),
            "problem": nugget.get("problem"),
            "reason": nugget.get("reason"),
        },
    }
