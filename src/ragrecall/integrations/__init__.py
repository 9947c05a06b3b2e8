"""Adapters that put ragrecall's metrics into other tools: :mod:`ragrecall.integrations.mlflow` (MLflow GenAI
scorers). Each needs its tool's extra and is imported by its own name."""
