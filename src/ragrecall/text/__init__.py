"""Text handling shared by metrics: normalisation (and, later, sentence segmentation)."""

from .normalize import normalize_text

__all__ = ["normalize_text"]
