"""Choosing what people label, and the page they label it in: a random or stratified draw from a run (with
inclusion probabilities), written as one self-contained HTML file whose "Download labels" gives the labels file
that ``calibrate`` reads."""

from ._choose import BANDS, Chosen, Strategy, choose, claim_metric, stratum_of
from ._page import page_data, render_label_page, write_label_page

__all__ = [
    "BANDS",
    "Chosen",
    "Strategy",
    "choose",
    "claim_metric",
    "page_data",
    "render_label_page",
    "stratum_of",
    "write_label_page",
]
