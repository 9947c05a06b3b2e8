"""The batch backend: the same metrics, evidence, checkpoints and results as live requests, run as rounds of
OpenAI batch files — through the provider's Batch API, or through any runner of that format (vLLM's
``run_batch``, a Ray Data job) by exporting and importing files."""

from ._backend import CURRENT_SAMPLE, BatchBackend, openai_stack_of
from ._driver import RoundExported
from ._lines import LineOutcome
from ._runners import BatchStatus, OpenAIBatchRunner
from ._setup import BatchRun, say_on_stderr

__all__ = [
    "CURRENT_SAMPLE",
    "BatchBackend",
    "BatchRun",
    "BatchStatus",
    "LineOutcome",
    "OpenAIBatchRunner",
    "RoundExported",
    "openai_stack_of",
    "say_on_stderr",
]
