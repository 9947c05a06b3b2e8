"""A third Ragas 0.4 script, with the habits of a script that runs in a team's pipeline (kept as Ragas spells it:
the test swaps the imports): RunConfig, run_config=, token_usage_parser= with get_token_usage_for_openai,
experiment_name=, result.total_tokens() and result.total_cost(...).

It reads OPENAI_API_KEY and OPENAI_BASE_URL from the environment, like any script built on AsyncOpenAI().
"""

from openai import AsyncOpenAI
from ragas import EvaluationDataset, RunConfig, evaluate
from ragas.cost import get_token_usage_for_openai
from ragas.llms import llm_factory
from ragas.metrics import LLMContextRecall, NonLLMContextRecall

evaluator_llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())

records = [
    {
        "user_input": "Where is the Eiffel Tower and how tall is it?",
        "reference": "The Eiffel Tower is in Paris. The tower is 330 metres tall.",
        "retrieved_contexts": ["The Eiffel Tower is in Paris, on the Champ de Mars."],
        "reference_contexts": ["The Eiffel Tower is in Paris.", "The tower is 330 metres tall."],
    },
    {
        "user_input": "When did the Berlin Wall fall?",
        "reference": "The Berlin Wall fell on 9 November 1989.",
        "retrieved_contexts": ["The Berlin Wall fell on 9 November 1989, after weeks of protest."],
        "reference_contexts": ["The Berlin Wall fell on 9 November 1989."],
    },
    {
        "user_input": "Who wrote Hamlet?",
        "reference": "Hamlet was written by William Shakespeare.",
        "retrieved_contexts": ["Macbeth is a tragedy."],
        "reference_contexts": ["Hamlet was written by William Shakespeare."],
    },
]

dataset = EvaluationDataset.from_list(records)
run_config = RunConfig(max_workers=4, timeout=60, max_retries=3, max_wait=10)
result = evaluate(
    dataset,
    metrics=[LLMContextRecall(), NonLLMContextRecall()],
    llm=evaluator_llm,
    run_config=run_config,
    token_usage_parser=get_token_usage_for_openai,
    experiment_name="retriever-bm25",
    show_progress=False,
)
printed = str(result)
context_recall = result["context_recall"]
string_recall = result["non_llm_context_recall"]
tokens = result.total_tokens()
cost = result.total_cost(cost_per_input_token=5 / 1e6, cost_per_output_token=15 / 1e6)
