"""A context-recall evaluation as a Ragas 0.4 user writes it (kept as Ragas spells it: the test swaps the imports).

It reads OPENAI_API_KEY and OPENAI_BASE_URL from the environment, like any script built on AsyncOpenAI().
"""

import asyncio
import math

import pandas as pd
from datasets import Dataset as HFDataset
from openai import AsyncOpenAI
from ragas import EvaluationDataset, SingleTurnSample, evaluate
from ragas.llms import llm_factory
from ragas.metrics import ContextRecall, IDBasedContextRecall, LLMContextRecall, NonLLMContextRecall
from ragas.metrics.collections import ContextRecall as CollectionsContextRecall

client = AsyncOpenAI()
evaluator_llm = llm_factory("gpt-4o-mini", client=client)

samples = [
    SingleTurnSample(
        user_input="Where is the Eiffel Tower and how tall is it?",
        response="The Eiffel Tower is in Paris.",
        reference="The Eiffel Tower is in Paris. The tower is 330 metres tall.",
        retrieved_contexts=["The Eiffel Tower is in Paris, on the Champ de Mars."],
        reference_contexts=["The Eiffel Tower is in Paris.", "The tower is 330 metres tall."],
        retrieved_context_ids=["doc-paris", "doc-louvre"],
        reference_context_ids=["doc-paris", "doc-height"],
    ),
    SingleTurnSample(
        user_input="When did the Berlin Wall fall?",
        response="In 1989.",
        reference="The Berlin Wall fell on 9 November 1989.",
        retrieved_contexts=["The Berlin Wall fell on 9 November 1989, after weeks of protest."],
        reference_contexts=["The Berlin Wall fell on 9 November 1989."],
        retrieved_context_ids=["doc-wall"],
        reference_context_ids=["doc-wall"],
    ),
    SingleTurnSample(
        user_input="Who wrote Hamlet?",
        response="Shakespeare.",
        reference="Hamlet was written by William Shakespeare.",
        retrieved_contexts=["Macbeth is a tragedy."],
        reference_contexts=["Hamlet was written by William Shakespeare."],
        retrieved_context_ids=["doc-macbeth"],
        reference_context_ids=[],
    ),
]

# EvaluationDataset, built every way Ragas offers.
dataset = EvaluationDataset(samples=samples)
records = dataset.to_list()
first_sample = dataset.samples[0]
from_list = EvaluationDataset.from_list(records)
frame = dataset.to_pandas()
from_pandas = EvaluationDataset.from_pandas(frame)
from_hf = EvaluationDataset.from_hf_dataset(HFDataset.from_list(records))

# A batch evaluation; the LLM is given to the LLM metric that has none.
result = evaluate(
    dataset=dataset,
    metrics=[LLMContextRecall(), NonLLMContextRecall(), IDBasedContextRecall()],
    llm=evaluator_llm,
    show_progress=False,
)
print(result)
context_recall_scores = result["context_recall"]
id_scores = result["id_based_context_recall"]
result_frame = result.to_pandas()
mean_context_recall = sum(context_recall_scores) / len(context_recall_scores)
mean_id_recall = sum(s for s in id_scores if not math.isnan(s)) / sum(not math.isnan(s) for s in id_scores)

# One sample at a time, as the metric pages show.
single_llm_score = asyncio.run(LLMContextRecall(llm=evaluator_llm).single_turn_ascore(samples[0]))
single_legacy_name_score = asyncio.run(ContextRecall(llm=evaluator_llm).single_turn_ascore(samples[1]))
single_string_score = NonLLMContextRecall().single_turn_score(samples[0])
single_id_score = IDBasedContextRecall().single_turn_score(samples[2])

# The collections API: keyword ascore and a batch of dicts.
scorer = CollectionsContextRecall(llm=evaluator_llm)
collections_result = asyncio.run(
    scorer.ascore(
        user_input=samples[0].user_input,
        retrieved_contexts=samples[0].retrieved_contexts,
        reference=samples[0].reference,
    )
)
collections_batch = asyncio.run(
    scorer.abatch_score(
        [
            {"user_input": s.user_input, "retrieved_contexts": s.retrieved_contexts, "reference": s.reference}
            for s in samples
        ]
    )
)
collections_values = [r.value for r in collections_batch]

report = pd.DataFrame({"question": [s.user_input for s in dataset], "context_recall": context_recall_scores})
