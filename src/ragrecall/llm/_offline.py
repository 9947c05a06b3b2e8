"""A deterministic judge that answers ragrecall's own prompts without a network.

It reads the structured ``task`` and ``inputs`` of a request (not the prose), so it keeps working with
user-supplied prompt text. Its answers are plausible, not intelligent:

- decomposition: the claims are the sentences of the reference (:func:`ragrecall.text.split_sentences`);
- judging: a claim is supported by a context when at least ``threshold`` of the claim's terms occur in it.
  Terms are lower-cased words of two or more characters minus a few English function words, and character
  bigrams for CJK text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigurationError
from ..text import normalize_text, split_sentences
from ..usage import Usage
from ._protocol import LLMReply, LLMRequest, OutputT, dump_reply

__all__ = ["OfflineJudge"]

_WORD = re.compile(r"[^\W\d_]{2,}|\d+(?:[.,]\d+)*", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "he",
        "she",
        "they",
        "them",
        "his",
        "her",
        "their",
        "there",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "how",
        "than",
        "then",
        "also",
        "not",
        "no",
        "but",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "can",
        "could",
        "will",
        "would",
        "shall",
        "should",
        "may",
        "might",
        "into",
        "over",
        "under",
        "about",
    ]
)


def terms(text: str) -> frozenset[str]:
    """The terms the offline judge compares: content words, and CJK character bigrams."""
    norm = normalize_text(text)
    out: set[str] = set()
    for run in _CJK_RUN.findall(norm):
        out.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    for word in _WORD.findall(_CJK_RUN.sub(" ", norm)):
        if word not in _STOPWORDS:
            out.add(word)
    return frozenset(out)


class OfflineJudge:
    """An LLM stand-in for demos and CI: sensible, deterministic answers to ragrecall's prompts, no network.

    Args:
        threshold: share of a claim's terms that must occur in one context for it to support the claim.
        model_name: the name recorded in results.

    Raises ``ConfigurationError`` for a request whose ``task`` it does not know.
    """

    def __init__(self, *, threshold: float = 0.6, model_name: str = "offline-judge") -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 < threshold <= 1.0:
            raise ConfigurationError(f"threshold must be a number in (0, 1], got {threshold!r}")
        self.threshold = float(threshold)
        self._model_name = model_name

    @property
    def model_name(self) -> str:
        """The name recorded in results."""
        return self._model_name

    def settings(self) -> dict[str, Any]:
        """What changes this judge's answers."""
        return {"threshold": self.threshold}

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Answer ``request`` from its ``task`` and ``inputs``."""
        raw = dump_reply(self.answer(request.task, request.inputs))
        usage = Usage(requests=1)
        return LLMReply.validate(raw, request.output, usage)

    def answer(self, task: str | None, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """The reply, as JSON-ready data, for one of ragrecall's tasks."""
        if task == "context_recall.decompose":
            return {"claims": split_sentences(str(inputs["reference"]))}
        if task == "context_recall.judge":
            contexts = [terms(c) for c in inputs["contexts"]]
            return {
                "verdicts": [
                    {"claim": i, **self._verdict(claim, contexts)} for i, claim in enumerate(inputs["claims"], 1)
                ]
            }
        if task == "context_recall.single":
            contexts = [terms(c) for c in inputs["contexts"]]
            return {
                "claims": [
                    {"claim": claim, **self._verdict(claim, contexts)}
                    for claim in split_sentences(str(inputs["reference"]))
                ]
            }
        raise ConfigurationError(f"the offline judge cannot answer task {task!r}")

    def _verdict(self, claim: str, contexts: Sequence[frozenset[str]]) -> dict[str, Any]:
        wanted = terms(claim)
        if not wanted:
            return {"reason": "The claim has no content terms to look for.", "supported": False, "contexts": []}
        shares = [len(wanted & ctx) / len(wanted) for ctx in contexts]
        supporting = [j for j, share in enumerate(shares, 1) if share >= self.threshold]
        best = max(shares, default=0.0)
        if supporting:
            reason = f"{best:.0%} of the claim's terms occur in context {supporting[0]}."
        else:
            reason = f"At most {best:.0%} of the claim's terms occur in any one context."
        return {"reason": reason, "supported": bool(supporting), "contexts": supporting}
