"""A single self-contained HTML report of an evaluation, or of one run compared with another.

The page opens with the failures, grouped by cause; states the run (date, model, prompt versions, settings,
tokens and cost); shows each sample's inputs — question, reference, retrieved passages numbered from 1 as the
judge numbers them — with the quoted span behind each supported claim highlighted, beside every metric's
verdict, with a filter (a metric below a value, failures, metadata values) and grouping by metadata. No
external assets: one file that opens anywhere, readable at phone width, where a comparison's rows become cards
that lead with Δ, its interval, p and the verdict. The bodies of the samples closed at load are kept
compressed in the page and rendered when opened, so that 1,000 samples stay under 3 MB.
"""

from ._compare import run_labels
from ._compare_many import many_comparison_section, render_comparison_page, write_comparison_page
from ._page import render_report, write_report
from ._stream import write_report_from_jsonl

__all__ = [
    "many_comparison_section",
    "render_comparison_page",
    "render_report",
    "run_labels",
    "write_comparison_page",
    "write_report",
    "write_report_from_jsonl",
]
