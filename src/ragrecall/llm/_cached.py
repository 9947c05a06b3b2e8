"""The cache layer: answers from a :class:`ResponseCache`, stores only replies that passed every check, and
replays a run exactly — repairs and output-mode fallbacks included — without a network or a key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CacheMissError
from ..usage import Usage
from ._cache import CachedReply, ResponseCache, document_key
from ._layer import Layer
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT, accept_reply
from ._schema import output_schema

__all__ = ["Cached", "request_documents"]


def request_documents(llm: LLM, request: LLMRequest[Any]) -> list[dict[str, Any]]:
    """The identity documents of the requests ``llm`` may send for ``request``, the likeliest first.

    A transport knows what it sends (``documents(request)``); for any other LLM the document holds its model
    name, its ``settings()`` when it has them, the messages, the output schema and the prompt version.
    """
    documents = getattr(llm, "documents", None)
    if callable(documents):
        return list(documents(request))
    settings = getattr(llm, "settings", None)
    return [
        {
            "model": llm.model_name,
            "messages": [dict(m) for m in request.messages],
            "output_schema": output_schema(request.output),
            "settings": settings() if callable(settings) else {},
            "prompt_version": request.prompt_version,
            **request.identity_extra(),
        }
    ]


class Cached(Layer):
    """Serves ``inner``'s requests from ``cache`` when it holds a reply that still passes every check.

    Read-write: a hit is checked again exactly as a live reply is (finish reason, schema, the request's
    invariants); a rejected or no-longer-valid entry is asked again. A new valid reply is stored under the
    request actually sent; an invalid one is stored apart as rejected, with its problem.

    Replay-only: the same checks; a stored rejection is replayed as the same :class:`InvalidReplyError`, so
    the repair that followed it is asked (and found) next; a miss is :class:`CacheMissError`.
    """

    def __init__(self, inner: LLM, cache: ResponseCache) -> None:
        super().__init__(inner)
        self.cache = cache

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """A checked reply from the cache, else from ``inner`` (stored on the way)."""
        documents = request_documents(self.inner, request)
        for document in documents:
            hit = self._lookup(document, request)
            if hit is not None:
                return hit
        if self.cache.replay_only:
            raise CacheMissError(
                f"replay-only cache {self.cache.path} has no reply for this request (model={self.model_name!r}, "
                f"task={request.task!r}, prompt={request.prompt_version!r}, key={document_key(documents[0])[:16]})"
            )
        try:
            reply = await self.inner.agenerate(request)
            if not reply.checked:  # an LLM that does not check its replies: the live checks, once, here
                reply = accept_reply(
                    reply.raw, request, reply.usage, finish_reason=reply.finish_reason, sent=reply.sent
                )
        except InvalidReplyError as exc:
            self._store(exc.sent or documents[0], request, exc.raw or "", exc.usage or Usage(), problem=exc.problem)
            raise
        self._store(reply.sent or documents[0], request, reply.raw, reply.usage, finish_reason=reply.finish_reason)
        return reply

    def _lookup(self, document: Mapping[str, Any], request: LLMRequest[OutputT]) -> LLMReply[OutputT] | None:
        key = document_key(document)
        stored = self.cache.get(key)
        if stored is None:
            return None
        usage = Usage(cached_requests=1)
        if stored.status == "rejected":
            if self.cache.replay_only:
                raise InvalidReplyError(stored.problem or "rejected reply", raw=stored.raw, usage=usage, sent=document)
            return None  # heal: ask again
        try:
            return accept_reply(stored.raw, request, usage, finish_reason=stored.finish_reason, sent=document)
        except InvalidReplyError:
            if self.cache.replay_only:
                raise
            self.cache.discard(key)
            return None

    def _store(
        self,
        document: Mapping[str, Any],
        request: LLMRequest[Any],
        raw: str,
        usage: Usage,
        *,
        finish_reason: str | None = None,
        problem: str | None = None,
    ) -> None:
        self.cache.put(
            document_key(document),
            CachedReply(
                raw,
                usage.prompt_tokens,
                usage.completion_tokens,
                status="rejected" if problem is not None else "valid",
                finish_reason=finish_reason,
                problem=problem,
            ),
            model=self.model_name,
            prompt_version=request.prompt_version,
        )
