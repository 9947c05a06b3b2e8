"""A second Ragas 0.4 script, using the calls the first leaves out (kept as Ragas spells it: the test swaps the
imports): string similarity, from_dict, features, to_hf_dataset, to_jsonl, SingleTurnSample.to_dict, a metric
with settings, batch_size, result.scores, result.dataset, the printed result and to_pandas's columns.

It reads OPENAI_API_KEY and OPENAI_BASE_URL from the environment, like any script built on AsyncOpenAI().
"""

import asyncio
import math
import os
import tempfile

from openai import AsyncOpenAI
from ragas import EvaluationDataset, SingleTurnSample, evaluate
from ragas.llms import llm_factory
from ragas.metrics import DistanceMeasure, LLMContextRecall, NonLLMContextRecall, NonLLMStringSimilarity
from ragas.metrics.collections import NonLLMStringSimilarity as CollectionsStringSimilarity

evaluator_llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())

records = [
    {
        "user_input": "What is the capital of Japan?",
        "retrieved_contexts": ["Tokyo is the capital of Japan.", "Kyoto was the capital before 1869."],
        "reference_contexts": ["Tokyo is the capital of Japan"],
        "response": "Tokyo is the capital.",
        "reference": "Tokyo is the capital of Japan.",
    },
    {
        "user_input": "Which river flows through Vienna?",
        "retrieved_contexts": ["The Danube flows through Vienna, Austria.", "Budapest is split by the Danube."],
        "reference_contexts": ["The Danube flows through Vienna.", "Vienna is the capital of Austria."],
        "response": "The Danube.",
        "reference": "The Danube flows through Vienna. Vienna is the capital of Austria.",
    },
    {
        "user_input": "Who painted the Mona Lisa?",
        "retrieved_contexts": ["The Louvre is in Paris."],
        "reference_contexts": ["Leonardo da Vinci painted the Mona Lisa."],
        "response": "Leonardo da Vinci.",
        "reference": "Leonardo da Vinci painted the Mona Lisa.",
    },
]

dataset = EvaluationDataset.from_dict(records)
features = dataset.features()
first_as_dict = dataset.samples[0].to_dict()
hf_dataset = dataset.to_hf_dataset()
from_hf = EvaluationDataset.from_hf_dataset(hf_dataset)
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "samples.jsonl")
    dataset.to_jsonl(path)
    from_jsonl = EvaluationDataset.from_jsonl(path)

result = evaluate(
    dataset,
    metrics=[NonLLMContextRecall(threshold=0.6), NonLLMStringSimilarity(), LLMContextRecall()],
    llm=evaluator_llm,
    batch_size=2,
    show_progress=False,
    raise_exceptions=False,
)
printed = str(result)
frame = result.to_pandas()
string_recall = frame["non_llm_context_recall"].tolist()
similarity = result["non_llm_string_similarity"]
scores = result.scores
scored_dataset = result.dataset
context_recall_mean = sum(result["context_recall"]) / len(result["context_recall"])

sample = SingleTurnSample(**records[2])
jaro_winkler = NonLLMStringSimilarity(distance_measure=DistanceMeasure.JARO_WINKLER).single_turn_score(sample)
hamming = asyncio.run(NonLLMStringSimilarity(distance_measure=DistanceMeasure.HAMMING).single_turn_ascore(sample))
collections_value = asyncio.run(
    CollectionsStringSimilarity().ascore(reference=sample.reference, response=sample.response)
).value
nan_free = not any(math.isnan(v) for v in similarity)
