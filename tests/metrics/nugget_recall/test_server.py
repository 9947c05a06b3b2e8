"""NuggetRecall through the real openai SDK against the local fake server, which answers the nugget tasks with
the offline judge; and the response cache answering a second run."""

from __future__ import annotations

from pathlib import Path

import openai

from ragrecall import NuggetRecall, Sample
from ragrecall.llm import OpenAILLM, ResponseCache
from ragrecall.llm.fake_server import FakeOpenAIServer
from ragrecall.metrics import NuggetRecallEvidence

CONTEXTS = ["The Eiffel Tower is 330 metres tall.", "Work on the tower ended in 1889, in Paris."]


def make_llm(server: FakeOpenAIServer, cache: ResponseCache | None = None) -> OpenAILLM:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url, max_retries=0)
    return OpenAILLM(client, "gpt-4o-mini", cache=cache)


def test_the_fake_server_answers_assign_and_importance(tmp_path: Path) -> None:
    sample = Sample(
        user_input="How tall is the Eiffel Tower?",
        reference="The Eiffel Tower is 330 metres tall. Its work ended in 1889 and it is painted yellow.",
        retrieved_contexts=CONTEXTS,
    )
    with FakeOpenAIServer() as server, ResponseCache(tmp_path / "cache.sqlite") as cache:
        metric = NuggetRecall(make_llm(server, cache), score="all")
        result = metric.score(sample)
        sent = len(server.requests)
        again = metric.score(sample)
    evidence = result.evidence
    assert isinstance(evidence, NuggetRecallEvidence)
    assert sent == 3  # decomposition, importance, assignment
    assert len(server.requests) == sent and again.evidence == evidence
    assert evidence.nuggets[0].importance == "vital" and evidence.nuggets[0].label == "support"
    assert {n.label for n in evidence.nuggets} <= {"support", "partial_support", "not_support"}
    assert result.value == evidence.scores["all"]
