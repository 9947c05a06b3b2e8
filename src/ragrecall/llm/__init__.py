"""The LLM path: the protocol, one stack of layers (cache, concurrency, deadlines and retries, breaker, cost)
over a transport per provider (OpenAI; Anthropic as an extra), and fakes.

Public names are listed in ``__all__``; modules starting with ``_`` are private.
"""

from ._ask import RepairsExhaustedError, ask
from ._breaker import Breaker
from ._cache import CachedReply, CacheMode, ResponseCache, cache_key
from ._cached import Cached
from ._dryrun import DryRunLLM
from ._fake import FakeLLM, FakeReply
from ._limit import Limited
from ._meter import Metered
from ._offline import OfflineJudge
from ._openai import OpenAILLM, OpenAITransport, OutputMode, llm_factory
from ._pricing import DEFAULT_PRICES, ModelPrice, cost_usd, price_for
from ._prompts import PromptTemplate, load_prompt
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, Message, parse_reply
from ._retry import Retrying, RetryPolicy, is_retryable, retry_after_seconds
from ._schema import strict_json_schema
from ._stack import LLMStack
from ._tokens import TokenCounter
from ._transport import Transport

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
    "Breaker",
    "CacheMode",
    "Cached",
    "CachedReply",
    "DryRunLLM",
    "FakeLLM",
    "FakeReply",
    "InvalidReplyError",
    "LLMReply",
    "LLMRequest",
    "LLMStack",
    "Limited",
    "Message",
    "Metered",
    "ModelPrice",
    "OfflineJudge",
    "OpenAILLM",
    "OpenAITransport",
    "OutputMode",
    "PromptTemplate",
    "RepairsExhaustedError",
    "ResponseCache",
    "RetryPolicy",
    "Retrying",
    "TokenCounter",
    "Transport",
    "ask",
    "cache_key",
    "cost_usd",
    "is_retryable",
    "llm_factory",
    "load_prompt",
    "parse_reply",
    "price_for",
    "retry_after_seconds",
    "strict_json_schema",
]
