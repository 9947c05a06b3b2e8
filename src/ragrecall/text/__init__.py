"""Text handling shared by metrics: normalisation and sentence segmentation."""

from .normalize import normalize_text
from .segment import has_cjk, split_sentences

__all__ = ["has_cjk", "normalize_text", "split_sentences"]
