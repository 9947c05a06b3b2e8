"""How one chat-completions request leaves an ``AsyncOpenAI`` client.

The SDK's ``chat.completions.create`` walks every message and the whole response schema to turn typed
parameters into JSON (a recursive transform that, for ragrecall's requests, changes nothing: they are plain
JSON already); with the SDK's building of its objects from the reply, it is about a quarter of the SDK's CPU
per request (``benchmarks/evaluate_bench.py``), which shows at hundreds of requests a second. So when
``create`` is the SDK's own function, the body goes out through the client's ``post`` instead: the same path,
headers, authentication and JSON, without the walk; and the reply comes back as its JSON, read by ragrecall's
own checks rather than built into the SDK's objects first. When anything has replaced ``create`` (a tracing
library wrapping the class, a subclass, a test double or a tracer's wrapper set on the user's client object),
``create`` itself is called, so whatever wraps it still sees every request (see :func:`create_completion` for
exactly what is detected).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import FunctionType
from typing import Any

import openai
from openai.resources.chat.completions import AsyncCompletions
from openai.types.chat import ChatCompletion

__all__ = ["create_completion", "json_body", "sdk_create_is_stock"]

_STOCK_CREATE = vars(AsyncCompletions).get("create")
_SDK_DIR = Path(openai.__file__).resolve().parent


def _is_the_sdks(function: object) -> bool:
    """True for a plain function whose code is in the SDK's package (the SDK's own decorators included); a
    wrapper put on the class before this module was imported (wrapt's proxies, a function of another package)
    is not."""
    if type(function) is not FunctionType:
        return False
    return Path(function.__code__.co_filename).resolve().is_relative_to(_SDK_DIR)


_STOCK = _is_the_sdks(_STOCK_CREATE)
# What ``create`` asks of the client's authentication: the API key as a bearer token, nothing more.
_POST_OPTIONS: Any = {"security": {"bearer_auth": True}}


def sdk_create_is_stock(client: openai.AsyncOpenAI) -> bool:
    """True when ``client.chat.completions.create`` is the SDK's own, unwrapped function (then
    :func:`create_completion` posts the body directly)."""
    if not _STOCK:
        return False
    completions = client.chat.completions
    if "create" in vars(completions):
        return False
    for klass in type(completions).__mro__:  # what ``getattr_static`` finds, without its general checks
        if "create" in vars(klass):
            return vars(klass)["create"] is _STOCK_CREATE
    return False


async def create_completion(
    client: openai.AsyncOpenAI,
    body: Mapping[str, Any],
    *,
    sampling: Mapping[str, Any],
    extra_body: Mapping[str, Any],
    given: openai.AsyncOpenAI | None = None,
    timeout: float | None = None,
) -> ChatCompletion | Any:
    """One chat completion for ``body`` (``OpenAITransport.request_body``: model, messages, response format and
    ``sampling``, with ``extra_body`` merged over them), sent through ``client`` (the transport's copy of
    ``given``, the client the user passed).

    - When ``create`` is the SDK's own on both (:func:`sdk_create_is_stock`): posted as it is, and the reply's
      JSON body comes back (its text when it is not JSON).
    - When ``create`` is replaced on the class (a tracer wrapping ``AsyncCompletions.create``) or on the copy:
      ``client.chat.completions.create`` is called, and the ``ChatCompletion`` it returns comes back.
    - When only ``given`` differs — ``given.chat.completions.create = wrapper`` (an instance attribute), or a
      ``completions`` object of another class set on it — that ``create`` of the user's object is called,
      with ``timeout``: the wrapper sees the request; it is sent by ``given`` with ``given``'s own
      ``max_retries`` (build the client with ``max_retries=0`` so that only ragrecall retries).
    """
    create: Any
    if sdk_create_is_stock(client):
        if given is None or sdk_create_is_stock(given):
            raw = await client.post("/chat/completions", body=body, cast_to=bytes, options=_POST_OPTIONS)
            return json_body(raw)
        create, options = given.chat.completions.create, {} if timeout is None else {"timeout": timeout}
    else:
        create, options = client.chat.completions.create, {}
    # The SDK's overloads do not accept a dict built at run time; the payload is checked by the server.
    completion: ChatCompletion = await create(
        model=body["model"],
        messages=body["messages"],
        response_format=body["response_format"],
        extra_body=dict(extra_body) or None,
        **sampling,
        **options,
    )
    return completion


def json_body(raw: bytes) -> Any:
    """The JSON value of a reply body; its text when it is not JSON (a proxy's HTML page)."""
    try:
        return json.loads(raw)
    except ValueError:  # UnicodeDecodeError included
        return raw.decode("utf-8", "replace")
