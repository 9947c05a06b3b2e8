"""The LLM path: the protocol, one stack of layers (cache, concurrency, deadlines and retries, breaker, cost)
over a transport per provider (OpenAI; Anthropic as an extra), and fakes.

Public names are listed in ``__all__``; modules starting with ``_`` are private. Besides the clients and
fakes a user builds, the package exports what metrics and the batch backend build on, so that no other package
reaches into its modules: asking with repairs (:func:`ask`, :func:`ask_again`, :class:`FollowUp`,
:data:`Check`, :func:`spent_before`, :func:`gather_paid`, :func:`charge`), requests and replies
(:class:`LLMRequest`, :class:`LLMReply`, :data:`OutputT`), prompts and their data blocks
(:func:`builtin_prompt`, :func:`data_block`, :func:`escape_data`, :func:`unescape_data`), and the pieces of
the stack a backend rebuilds (:class:`Named`, :func:`document_key`, :data:`REQUEST_LIMIT`,
:func:`retryable_status`, :class:`Scrubber`, :func:`client_secrets`, :func:`public_url`, :func:`sdk_failure`).
"""

from typing import TYPE_CHECKING

from ._ask import Check, FollowUp, RepairsExhaustedError, ask, ask_again, charge, gather_paid, spent_before
from ._breaker import Breaker
from ._cache import CachedReply, CacheMode, ResponseCache, cache_key, document_key
from ._cached import Cached
from ._dryrun import DryRunLLM
from ._fake import FakeLLM, FakeReply
from ._limit import REQUEST_LIMIT, Limited
from ._meter import Metered
from ._offline import OfflineJudge
from ._openai import OpenAILLM, OpenAITransport, OutputMode, llm_factory
from ._pricing import DEFAULT_PRICES, PRICES_AS_OF, ModelPrice, cost_usd, price_for
from ._prompts import PromptTemplate, builtin_prompt, data_block, escape_data, load_prompt, unescape_data
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, Message, OutputT, parse_reply
from ._retry import RETRY_OVERRIDE, Retrying, RetryPolicy, is_retryable, retry_after_seconds, retryable_status
from ._schema import strict_json_schema
from ._scrub import Scrubber, client_secrets, public_url
from ._stack import LLMStack, Named
from ._tokens import TokenCounter
from ._transport import Transport, sdk_failure

if TYPE_CHECKING:  # what type checkers see of the optional names below; left out of __all__ (import *)
    from ._anthropic import AnthropicLLM as AnthropicLLM
    from ._anthropic import AnthropicTransport as AnthropicTransport

_OPTIONAL = {"AnthropicLLM": "._anthropic", "AnthropicTransport": "._anthropic"}


def __getattr__(name: str) -> object:
    # The Anthropic transport needs an optional extra: imported on first use, not with the package.
    if name in _OPTIONAL:
        import importlib

        return getattr(importlib.import_module(_OPTIONAL[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_PRICES",
    "LLM",
    "PRICES_AS_OF",
    "REQUEST_LIMIT",
    "RETRY_OVERRIDE",
    "Breaker",
    "CacheMode",
    "Cached",
    "CachedReply",
    "Check",
    "DryRunLLM",
    "FakeLLM",
    "FakeReply",
    "FollowUp",
    "InvalidReplyError",
    "LLMReply",
    "LLMRequest",
    "LLMStack",
    "Limited",
    "Message",
    "Metered",
    "ModelPrice",
    "Named",
    "OfflineJudge",
    "OpenAILLM",
    "OpenAITransport",
    "OutputMode",
    "OutputT",
    "PromptTemplate",
    "RepairsExhaustedError",
    "ResponseCache",
    "RetryPolicy",
    "Retrying",
    "Scrubber",
    "TokenCounter",
    "Transport",
    "ask",
    "ask_again",
    "builtin_prompt",
    "cache_key",
    "charge",
    "client_secrets",
    "cost_usd",
    "data_block",
    "document_key",
    "escape_data",
    "gather_paid",
    "is_retryable",
    "llm_factory",
    "load_prompt",
    "parse_reply",
    "price_for",
    "public_url",
    "retry_after_seconds",
    "retryable_status",
    "sdk_failure",
    "spent_before",
    "strict_json_schema",
    "unescape_data",
]
