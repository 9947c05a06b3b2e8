"""The batch backend: the same metrics, evidence, checkpoints and results as live requests, run as rounds of
OpenAI batch files — through the provider's Batch API, or through any runner of that format (vLLM's
``run_batch``, a Ray Data job) by exporting and importing files."""

from ._backend import BatchBackend
from ._driver import RoundExported
from ._lines import LineOutcome
from ._runners import BatchStatus, OpenAIBatchRunner

__all__ = ["BatchBackend", "BatchStatus", "LineOutcome", "OpenAIBatchRunner", "RoundExported"]
