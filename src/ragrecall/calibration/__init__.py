"""Calibration: how far a metric's judge agrees with people's labels (kappa, accuracy, correlations, with
bootstrap intervals and every disagreement). The agreement figures need the ``calibrate`` extra (scipy,
scikit-learn); the corrected mean (:func:`ppi_mean`) needs numpy only."""

from ._html import calibration_section, render_calibration_page, write_calibration_page
from ._ppi import CorrectedMean, Estimate, labels_needed, ppi_mean
from ._result import (
    KAPPA_BANDS,
    CalibrationResult,
    ClaimDisagreement,
    Confusion,
    Interval,
    NotCompared,
    ScoreDisagreement,
    kappa_band,
)
from ._run import acalibrate, calibrate, calibration_of
from ._text import calibration_table

__all__ = [
    "KAPPA_BANDS",
    "CalibrationResult",
    "ClaimDisagreement",
    "Confusion",
    "CorrectedMean",
    "Estimate",
    "Interval",
    "NotCompared",
    "ScoreDisagreement",
    "acalibrate",
    "calibrate",
    "calibration_of",
    "calibration_section",
    "calibration_table",
    "kappa_band",
    "labels_needed",
    "ppi_mean",
    "render_calibration_page",
    "write_calibration_page",
]
