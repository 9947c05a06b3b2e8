"""ragrecall on a Ray cluster: samples in a ``ray.data.Dataset`` scored by a pool of actors, with the numbers
``evaluate`` gives, resumable from a results folder; ranking runs measured split by query.

Needs Ray Data (the ``ray`` extra: ``pip install 'ragrecall[ray]'``). ``ray.init()`` (or a cluster address)
is the caller's: ragrecall starts no cluster and no scheduler of its own.
"""

from ..._extras import need

need("ray.data", "ray", "ragrecall.integrations.ray")

from ._dataset import evaluate_dataset, score_dataset  # noqa: E402
from ._ranking import Measured, evaluate_run, measured  # noqa: E402
from ._scorer import LLMSource  # noqa: E402

__all__ = ["LLMSource", "Measured", "evaluate_dataset", "evaluate_run", "measured", "score_dataset"]
