"""Adapters that put ragrecall into other tools: :mod:`ragrecall.integrations.mlflow` (MLflow GenAI scorers) and
:mod:`ragrecall.integrations.ray` (evaluation on a Ray cluster). Each needs its tool's extra and is imported by
its own name."""
