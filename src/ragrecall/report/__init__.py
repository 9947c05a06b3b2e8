"""A single self-contained HTML report of an evaluation, or of one run compared with another.

The page opens with the failures, grouped by cause; states the run (date, model, prompt versions, settings,
tokens and cost); shows each sample's inputs — question, reference, retrieved passages numbered from 1 as the
judge numbers them — with the quoted span behind each supported claim highlighted, beside every metric's
verdict. No scripts, no external assets: one file that opens anywhere, readable at phone width.
"""

from ._page import render_report, write_report
from ._stream import write_report_from_jsonl

__all__ = ["render_report", "write_report", "write_report_from_jsonl"]
