"""Who answers a request no scripted reply covers: the offline judge reading the prompts, or a flaky one."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .._offline import OfflineJudge
from .._prompts import read_data_blocks
from ._replies import Responder, ServerReply


def offline_responder(judge: OfflineJudge | None = None) -> Responder:
    """A responder that reads ragrecall's rendered context-recall prompts and answers with the offline judge.

    The first user message says which step opened the conversation, by its data blocks
    (:func:`ragrecall.llm._prompts.read_data_blocks`): claims with evidence → confirmation, claims → judging,
    contexts without claims → the one-call mode, else decomposition of the ``<reference>`` block (or of the
    whole message, for a prompt without one).
    A later user message is a follow-up (about coverage, quotes, or the whole one-call reply), answered for
    what it asks: a quote follow-up for the claims it quotes. Token counts in its replies are rough
    (characters / 4), enough for code that sums usage.
    """
    judge = judge or OfflineJudge()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        messages = body.get("messages") or []
        users = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        first = users[0] if users else ""
        blocks = read_data_blocks(first)
        texts = {
            tag: [b.text for b in blocks if b.tag == tag]
            for tag in ("context", "claim", "reference", "nugget", "query")
        }
        if texts["nugget"]:
            return _nuggets(judge, messages, users, texts)
        evidence = [b for b in blocks if b.tag == "evidence"]
        if texts["claim"] and evidence:
            claims = texts["claim"]
            inputs_confirm = {
                "claims": claims,
                "evidence": [[b.text for b in evidence if b.number == n] for n in range(1, len(claims) + 1)],
            }
            content = json.dumps(judge.answer("context_recall.confirm", inputs_confirm), ensure_ascii=False)
            chars = sum(len(str(m.get("content", ""))) for m in messages)
            return ServerReply(content, prompt_tokens=chars // 4 + 1, completion_tokens=len(content) // 4 + 1)
        if texts["claim"]:
            task = "context_recall.judge"
        elif texts["context"]:
            task = "context_recall.single"
        else:
            task = "context_recall.decompose"
        inputs: dict[str, Any] = {
            "reference": texts["reference"][0] if texts["reference"] else first,
            "contexts": texts["context"],
            "claims": texts["claim"],
        }
        if len(users) > 1:
            task = _FOLLOW_UPS[task]
            if task == "context_recall.recheck":
                asked = [b.number for b in read_data_blocks(users[-1]) if b.tag == "claim" and b.number]
                inputs["numbers"] = asked
                inputs["claims"] = [inputs["claims"][n - 1] for n in asked]
        content = json.dumps(judge.answer(task, inputs), ensure_ascii=False)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
        return ServerReply(content, prompt_tokens=prompt_chars // 4 + 1, completion_tokens=len(content) // 4 + 1)

    return respond


def _nuggets(judge: OfflineJudge, messages: Any, users: list[str], texts: dict[str, list[str]]) -> ServerReply:
    """Nugget recall's requests: nuggets with contexts are an assignment (a later user message its recheck, for
    the nuggets it quotes), nuggets alone an importance request."""
    inputs: dict[str, Any] = {
        "query": texts["query"][0] if texts["query"] else None,
        "nuggets": texts["nugget"],
        "contexts": texts["context"],
    }
    task = "nugget_recall.assign" if texts["context"] else "nugget_recall.importance"
    if len(users) > 1 and texts["context"]:
        task = "nugget_recall.recheck"
        asked = [b.number for b in read_data_blocks(users[-1]) if b.tag == "nugget" and b.number]
        inputs["numbers"] = asked
        inputs["nuggets"] = [texts["nugget"][n - 1] for n in asked]
    content = json.dumps(judge.answer(task, inputs), ensure_ascii=False)
    prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
    return ServerReply(content, prompt_tokens=prompt_chars // 4 + 1, completion_tokens=len(content) // 4 + 1)


_FOLLOW_UPS = {
    "context_recall.decompose": "context_recall.cover",
    "context_recall.judge": "context_recall.recheck",
    "context_recall.single": "context_recall.single_fix",
}


def flaky_responder(
    share: float, failure: ServerReply, *, good_delay: float = 0.0, seed: int = 0, responder: Responder | None = None
) -> Responder:
    """A responder for a flaky endpoint: ``share`` of the requests (drawn with ``random.Random(seed)``) get
    ``failure`` at once, the others ``responder``'s answer (the offline judge's by default) after
    ``good_delay`` seconds."""
    draw = random.Random(seed)
    lock = threading.Lock()
    answer = responder or offline_responder()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        with lock:
            fail = draw.random() < share
        return failure if fail else replace(answer(body), delay=good_delay)

    return respond


def hanging_responder(
    after: int, *, slowing: float = 0.0, responder: Responder | None = None, hang: float = 3600.0
) -> Responder:
    """A responder for an endpoint that stops answering mid-run: the first ``after`` requests get
    ``responder``'s answer (the offline judge's by default), every later one waits ``hang`` seconds (until the
    server stops) before any byte. With ``slowing``, answer ``n`` (from 0) comes after ``n * slowing``
    seconds instead: an endpoint that slows down gradually but keeps answering (then ``after`` is ignored)."""
    answer = responder or offline_responder()
    lock = threading.Lock()
    count = [0]

    def respond(body: Mapping[str, Any]) -> ServerReply:
        with lock:
            n = count[0]
            count[0] += 1
        if slowing > 0:
            return replace(answer(body), delay=n * slowing)
        return answer(body) if n < after else ServerReply(delay=hang)

    return respond
