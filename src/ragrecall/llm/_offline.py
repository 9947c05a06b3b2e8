"""A deterministic lexical stand-in for an LLM judge: it answers ragrecall's own prompts without a network,
for tests and demos. It matches words; it does not understand them.

It reads the structured ``task`` and ``inputs`` of a request (not the prose), so it keeps working with
user-supplied prompt text. Its answers follow fixed rules:

- decomposition (and its coverage follow-up): the claims are the sentences of the reference
  (:func:`ragrecall.text.split_sentences`);
- judging (and its follow-up about quotes): a context supports a claim when at least ``threshold`` of the
  claim's content terms (:func:`ragrecall.text.terms.content_terms`) occur in it, so does every number of the
  claim, and the least run of the context's clauses holding those terms and numbers negates as the claim does:
  both negated or neither (:func:`ragrecall.text.negation.negations`: "not", "never", "no", "n't", 不, 没有,
  未, 无 ...). The quote is the shortest such run, verbatim. Clauses end at a comma, semicolon or colon (and
  at a sentence's end), so "It is cheap, but not safe" does not support "It is safe" and still supports "It
  is cheap". As the prompts ask, a supported claim gets one quote, from the context holding most of its terms,
  and no reason. Synonyms, paraphrase, word order and what a negation applies to within a clause are beyond it.
- nugget assignment (and its recheck): a nugget the judging rule supports is ``support``, with that quote; else,
  when one of its parts (split at commas, semicolons and "and"/"和") is supported by the rule, ``partial_support``
  with that part and its quote; else ``not_support``. Importance: a nugget sharing a content term with the query
  is ``vital``, any other ``okay`` (every nugget is vital when there is no query).
- confirmation: a claim is entailed when its evidence sentences, taken together, hold ``threshold`` of its
  terms and every number, and negate as the claim does.

Numbers are read as everywhere in ragrecall (:func:`ragrecall.text.numbers.numbers_in`): digits, words
(``three``, ``三千五百``), scale words (``3万``, ``1.2 million``) and ranges written short (``1939–45``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigurationError
from ..text import split_sentences
from ..text.negation import negations
from ..text.numbers import numbers_in
from ..text.terms import content_terms
from ..usage import Usage
from ._protocol import LLMReply, LLMRequest, OutputT, dump_reply

__all__ = ["OfflineJudge"]

# After a clause's closing mark: full-width ，；： always, ASCII ,;: before a space (so 1,000 and 10:30 stay).
_PARTS = re.compile(r"[,;，；]\s*|\s+and\s+|和")
"""Where a nugget splits into the parts the offline judge tries for a partial support."""
_CLAUSE_END = re.compile(r"(?<=[，；：])|(?<=[,;:])(?=\s)")


class _Context:
    """A context's terms, numbers and clauses, computed once per request."""

    def __init__(self, text: str) -> None:
        self.terms = content_terms(text)
        self.numbers = numbers_in(text)
        sentences = split_sentences(text) or [text.strip()]
        self.clauses = [(k, c) for k, s in enumerate(sentences) for c in _CLAUSE_END.split(s) if c.strip()]
        """(sentence number, clause text with its closing mark and the spaces before it)."""

    def passage(self, i: int, j: int) -> str:
        """Clauses ``i`` to ``j - 1`` as one passage: as written within a sentence, a space between sentences."""
        parts = [self.clauses[i][1]]
        for (before, _), (k, clause) in zip(self.clauses[i : j - 1], self.clauses[i + 1 : j], strict=True):
            parts.append(clause if k == before else " " + clause.lstrip())
        return "".join(parts).strip()

    def quote(self, wanted: frozenset[str], numbers: frozenset[str], negated: bool) -> str | None:
        """The shortest run of clauses that holds every wanted term and number this context has and negates as
        the claim does (a negation marker when ``negated``, none otherwise); None when there is none. A run is
        never stretched to reach a negation: from each clause on, only the least run holding the terms counts."""
        target, needed = wanted & self.terms, numbers & self.numbers
        best: str | None = None
        for i in range(len(self.clauses)):
            for j in range(i + 1, len(self.clauses) + 1):
                passage = self.passage(i, j)
                if best is not None and len(passage) >= len(best):
                    break
                if target <= content_terms(passage) and needed <= numbers_in(passage):
                    if bool(negations(passage)) == negated:
                        best = passage
                    break  # longer runs from i only add clauses the claim's terms do not need
        return best


class OfflineJudge:
    """A deterministic lexical stand-in for an LLM judge, for tests, demos and CI: it answers ragrecall's
    prompts by matching words, numbers and negations (see the module docstring), with no network. Its scores
    are not a judge's: use a model to measure a retriever.

    Args:
        threshold: share of a claim's terms that must occur in one context for it to support the claim.
        model_name: the name recorded in results.

    Raises ``ConfigurationError`` for a request whose ``task`` it does not know.
    """

    def __init__(self, *, threshold: float = 0.6, model_name: str = "offline-lexical-judge") -> None:
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
            grouped: dict[str, list[dict[str, Any]]] = {"supported": [], "unsupported": []}
            for n, claim in zip(numbers, claims, strict=True):
                verdict = self._verdict(claim, contexts)
                if verdict["supported"]:
                    grouped["supported"] += [{"claim": n, **quote} for quote in verdict["support"]]
                else:
                    grouped["unsupported"].append({"claim": n, "reason": verdict["reason"]})
            return grouped
        if task in ("context_recall.single", "context_recall.single_fix"):
            contexts = [_Context(c) for c in inputs["contexts"]]
            return {
                "claims": [
                    {"claim": claim, **self._verdict(claim, contexts)}
                    for claim in split_sentences(str(inputs["reference"]))
                ]
            }
        if task in ("nugget_recall.assign", "nugget_recall.recheck"):
            contexts = [_Context(c) for c in inputs["contexts"]]
            nuggets = list(inputs["nuggets"])
            numbers = inputs.get("numbers") or range(1, len(nuggets) + 1)
            return {
                "assignments": [
                    {"nugget": n, **self._assignment(str(text), contexts)}
                    for n, text in zip(numbers, nuggets, strict=True)
                ]
            }
        if task == "nugget_recall.importance":
            query = content_terms(str(inputs.get("query") or ""))
            return {
                "importance": [
                    {"nugget": n, "importance": "vital" if not query or content_terms(str(t)) & query else "okay"}
                    for n, t in enumerate(inputs["nuggets"], start=1)
                ]
            }
        if task == "context_recall.confirm":
            return {
                "verdicts": [
                    {"claim": n, "entailed": self._entailed(claim, list(sentences))}
                    for n, (claim, sentences) in enumerate(zip(inputs["claims"], inputs["evidence"], strict=True), 1)
                ]
            }
        raise ConfigurationError(f"the offline judge cannot answer task {task!r}")

    def _assignment(self, nugget: str, contexts: Sequence[_Context]) -> dict[str, Any]:
        """A nugget's label: support by the judging rule, else partial support by one of its parts, else not."""
        whole = self._verdict(nugget, contexts)
        if whole["supported"]:
            return {"label": "support", "support": whole["support"], "part": "", "reason": ""}
        parts = [p.strip(" ,;，；") for p in _PARTS.split(nugget)]
        for part in (p for p in parts if p and p != nugget.strip()):
            verdict = self._verdict(part, contexts)
            if verdict["supported"]:
                reason = "Only part of the nugget is stated."
                return {"label": "partial_support", "support": verdict["support"], "part": part, "reason": reason}
        return {"label": "not_support", "support": [], "part": "", "reason": whole["reason"]}

    def _entailed(self, claim: str, sentences: Sequence[str]) -> bool:
        """Whether ``sentences`` together hold enough of the claim's terms, all its numbers, and its polarity."""
        wanted = content_terms(claim)
        evidence = " ".join(sentences)
        if not wanted:
            return False
        share = len(wanted & content_terms(evidence)) / len(wanted)
        negated = bool(negations(claim))
        return (
            share >= self.threshold
            and numbers_in(claim) <= numbers_in(evidence)
            and bool(negations(evidence)) == negated
        )

    def _verdict(self, claim: str, contexts: Sequence[_Context]) -> dict[str, Any]:
        """Supported when a context holds enough of the claim's terms, all its numbers, and a passage that
        negates as the claim does; the quote is that passage of the best such context."""
        wanted, numbers = content_terms(claim), numbers_in(claim)
        if not wanted:
            return {"supported": False, "support": [], "reason": "The claim has no content terms to look for."}
        negated = bool(negations(claim))
        shares = [len(wanted & ctx.terms) / len(wanted) for ctx in contexts]
        matching = [
            j
            for j, (share, ctx) in enumerate(zip(shares, contexts, strict=True), 1)
            if share >= self.threshold and numbers <= ctx.numbers
        ]
        quotes = {j: contexts[j - 1].quote(wanted, numbers, negated) for j in matching}
        supporting = [j for j, quote in quotes.items() if quote is not None]
        if supporting:
            # As the prompt asks: one quote, from the context that states the claim best (most of its terms,
            # then the shorter quote, then the first), and no reason (the quote is the reason).
            best_context = min(supporting, key=lambda j: (-shares[j - 1], len(quotes[j] or ""), j))
            return {
                "supported": True,
                "support": [{"context": best_context, "quote": quotes[best_context]}],
                "reason": "",
            }
        if matching:
            reason = f"Context {matching[0]} has the claim's terms, but " + (
                "not its negation." if negated else "negates them."
            )
        else:
            best = max(shares, default=0.0)
            reason = f"At most {best:.0%} of the claim's terms occur in any one context with all its numbers."
        return {"supported": False, "support": [], "reason": reason}
