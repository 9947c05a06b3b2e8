"""A deterministic judge that answers ragrecall's own prompts without a network.

It reads the structured ``task`` and ``inputs`` of a request (not the prose), so it keeps working with
user-supplied prompt text. Its answers are plausible, not intelligent:

- decomposition (and its coverage follow-up): the claims are the sentences of the reference
  (:func:`ragrecall.text.split_sentences`);
- judging (and its follow-up about quotes): a context supports a claim when at least ``threshold`` of the
  claim's content terms (:func:`ragrecall.text.terms.content_terms`) occur in it and so does every number of
  the claim. The quote is the shortest run of the context's sentences holding those terms and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigurationError
from ..text import split_sentences
from ..text.numbers import numbers_in
from ..text.terms import content_terms
from ..usage import Usage
from ._protocol import LLMReply, LLMRequest, OutputT, dump_reply

__all__ = ["OfflineJudge"]


class _Context:
    """A context's terms, numbers and sentences, computed once per request."""

    def __init__(self, text: str) -> None:
        self.terms = content_terms(text)
        self.numbers = numbers_in(text)
        self.sentences = split_sentences(text) or [text.strip()]

    def quote(self, wanted: frozenset[str], numbers: frozenset[str]) -> str:
        """The shortest run of sentences holding every wanted term and number this context has."""
        target, needed = wanted & self.terms, numbers & self.numbers
        best: str | None = None
        for i in range(len(self.sentences)):
            for j in range(i + 1, len(self.sentences) + 1):
                passage = " ".join(self.sentences[i:j])
                if best is not None and len(passage) >= len(best):
                    break
                if target <= content_terms(passage) and needed <= numbers_in(passage):
                    best = passage
                    break
        return best if best is not None else " ".join(self.sentences)


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
        if task in ("context_recall.decompose", "context_recall.cover"):
            return {"claims": split_sentences(str(inputs["reference"]))}
        if task in ("context_recall.judge", "context_recall.recheck"):
            contexts = [_Context(c) for c in inputs["contexts"]]
            claims = list(inputs["claims"])
            numbers = inputs.get("numbers") or range(1, len(claims) + 1)
            return {
                "verdicts": [
                    {"claim": n, **self._verdict(claim, contexts)} for n, claim in zip(numbers, claims, strict=True)
                ]
            }
        if task in ("context_recall.single", "context_recall.single_fix"):
            contexts = [_Context(c) for c in inputs["contexts"]]
            return {
                "claims": [
                    {"claim": claim, **self._verdict(claim, contexts)}
                    for claim in split_sentences(str(inputs["reference"]))
                ]
            }
        raise ConfigurationError(f"the offline judge cannot answer task {task!r}")

    def _verdict(self, claim: str, contexts: Sequence[_Context]) -> dict[str, Any]:
        wanted, numbers = content_terms(claim), numbers_in(claim)
        if not wanted:
            return {"reason": "The claim has no content terms to look for.", "supported": False, "support": []}
        shares = [len(wanted & ctx.terms) / len(wanted) for ctx in contexts]
        supporting = [
            j
            for j, (share, ctx) in enumerate(zip(shares, contexts, strict=True), 1)
            if share >= self.threshold and numbers <= ctx.numbers
        ]
        best = max(shares, default=0.0)
        if supporting:
            reason = f"{shares[supporting[0] - 1]:.0%} of the claim's terms occur in context {supporting[0]}."
        else:
            reason = f"At most {best:.0%} of the claim's terms occur in any one context with all its numbers."
        support = [{"context": j, "quote": contexts[j - 1].quote(wanted, numbers)} for j in supporting]
        return {"reason": reason, "supported": bool(supporting), "support": support}
