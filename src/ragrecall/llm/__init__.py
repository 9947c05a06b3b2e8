"""The LLM path: the protocol, the OpenAI adapter, retries, the response cache, usage and cost, and fakes.

Public names are listed in ``__all__``; modules starting with ``_`` are private.
"""

from ._ask import RepairsExhaustedError, ask
from ._cache import CacheMode, ResponseCache, cache_key
from ._dryrun import DryRunLLM
from ._fake import FakeLLM, FakeReply
from ._offline import OfflineJudge
from ._openai import OpenAILLM, OutputMode, llm_factory, strict_json_schema
from ._pricing import DEFAULT_PRICES, ModelPrice, cost_usd, price_for
from ._prompts import PromptTemplate, load_prompt
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, Message, parse_reply
from ._retry import RetryPolicy, is_retryable, retry_after_seconds
from ._tokens import TokenCounter

__all__ = [
    "DEFAULT_PRICES",
    "LLM",
    "CacheMode",
    "DryRunLLM",
    "FakeLLM",
    "FakeReply",
    "InvalidReplyError",
    "LLMReply",
    "LLMRequest",
    "Message",
    "ModelPrice",
    "OfflineJudge",
    "OpenAILLM",
    "OutputMode",
    "PromptTemplate",
    "RepairsExhaustedError",
    "ResponseCache",
    "RetryPolicy",
    "TokenCounter",
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
