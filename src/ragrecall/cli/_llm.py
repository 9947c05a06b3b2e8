"""The LLM flags shared by the commands that judge with a model, and the LLM they describe."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING

from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ..llm import LLM, ResponseCache, RetryPolicy


def add_llm_arguments(parser: argparse.ArgumentParser, title: str = "LLM (for context_recall)") -> None:
    """Add the model, endpoint, key, timeout, retry, offline and cache flags that :func:`llm_source` reads."""
    llm = parser.add_argument_group(title)
    llm.add_argument("--model", help="model name, e.g. gpt-4o-mini")
    llm.add_argument(
        "--provider",
        choices=("openai", "anthropic"),
        default="openai",
        help="API spoken by the endpoint: openai (any OpenAI-compatible server; default) or anthropic "
        "(Messages API; needs the anthropic extra)",
    )
    llm.add_argument("--base-url", help="endpoint URL (vLLM, Ollama, Azure...); default: the provider's")
    llm.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY, or ANTHROPIC_API_KEY with "
        "--provider anthropic); keys are never taken as flags; --replay needs none",
    )
    llm.add_argument(
        "--output-mode",
        choices=("auto", "json_schema", "json_object"),
        default="auto",
        help="openai: structured outputs (json_schema), JSON mode (json_object), or auto (default): structured "
        "outputs until the server refuses them",
    )
    llm.add_argument(
        "--request-timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="wall-clock seconds one attempt may take, the whole reply included (default 120)",
    )
    llm.add_argument(
        "--total-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds one request may take with all its retries, the attempt in flight included (default 300)",
    )
    llm.add_argument(
        "--max-attempts", type=int, default=6, metavar="N", help="attempts per request, the first included (default 6)"
    )
    llm.add_argument(
        "--offline",
        action="store_true",
        help="answer with the deterministic lexical stand-in (OfflineJudge) instead of a model: for tests and "
        "demos, no network",
    )
    store = llm.add_mutually_exclusive_group()
    store.add_argument("--cache", metavar="PATH", help="response cache (a .sqlite file or a folder): read and write")
    store.add_argument("--replay", metavar="PATH", help="response cache, replay only: a request not in it is an error")


def llm_source(args: argparse.Namespace, resources: ExitStack, *, files_only: bool = False) -> Callable[[], LLM]:
    """What LLM metrics get: a counting stand-in (--dry-run), the lexical stand-in (--offline), or an endpoint.

    The response cache it opens is closed when ``resources`` closes, at the end of the command's work: closing
    folds SQLite's journal into the cache file, so that the file alone holds every reply (the command ends
    without the interpreter's last collection, which used to close it). With ``files_only`` (batch files
    exported and imported, nothing sent) no API key is needed.
    """
    from ..llm import DryRunLLM, OfflineJudge, OpenAILLM, ResponseCache, RetryPolicy

    if getattr(args, "dry_run", False):
        dry = DryRunLLM(args.model or "gpt-4o-mini", schema=getattr(args, "output_mode", "auto") != "json_object")
        return lambda: dry
    if args.offline:
        judge = OfflineJudge()
        return lambda: judge
    if not args.model:
        raise ConfigurationError("context_recall needs a model: give --model (and --base-url), or --offline")
    key_env = args.api_key_env or ("ANTHROPIC_API_KEY" if args.provider == "anthropic" else "OPENAI_API_KEY")
    api_key = os.environ.get(key_env)
    if not api_key and files_only:
        api_key = "unused-nothing-is-sent"
    if not api_key:
        if not args.replay:
            raise ConfigurationError(
                f"no API key: set the environment variable {key_env} (or name another with --api-key-env)"
            )
        api_key = "replay-only"  # nothing is sent in replay: a miss is an error before any request
    retry = RetryPolicy(
        max_attempts=args.max_attempts, request_timeout=args.request_timeout, total_timeout=args.total_timeout
    )
    cache = None
    if args.cache or args.replay:
        cache = resources.enter_context(
            ResponseCache(cache_file(args.cache or args.replay), mode="replay-only" if args.replay else "read-write")
        )
    model: LLM
    if args.provider == "anthropic":
        model = _anthropic_llm(args, api_key, retry, cache)
    else:
        import openai

        client = openai.AsyncOpenAI(api_key=api_key, base_url=args.base_url)
        model = OpenAILLM(
            client,
            args.model,
            output_mode=args.output_mode,
            cache=cache,
            retry=retry,
            max_concurrency=getattr(args, "concurrency", 16),
        )
    return lambda: model


def _anthropic_llm(args: argparse.Namespace, api_key: str, retry: RetryPolicy, cache: ResponseCache | None) -> LLM:
    try:
        import anthropic

        from ..llm import AnthropicLLM
    except ImportError as exc:
        raise ConfigurationError(
            "--provider anthropic needs the anthropic package: pip install 'ragrecall[anthropic]'"
        ) from exc
    client = anthropic.AsyncAnthropic(api_key=api_key, base_url=args.base_url)
    llm: LLM = AnthropicLLM(
        client, args.model, cache=cache, retry=retry, max_concurrency=getattr(args, "concurrency", 16)
    )
    return llm


def cache_file(path: str) -> str:
    if path.endswith((".sqlite", ".sqlite3", ".db")):
        return path
    return os.path.join(path, "ragrecall-cache.sqlite")
