"""Calibration: how far a metric's judge agrees with people's labels (kappa, accuracy, correlations, with
bootstrap intervals and every disagreement). The agreement figures need the ``calibrate`` extra (scipy,
scikit-learn); the corrected mean (:func:`ppi_mean`) needs numpy only."""

from ._corrected import (
    INCLUSION_KEY,
    MIN_LABELLED,
    LabelledScore,
    corrected_mean,
    labelled_pairs,
    labelled_score,
    labelled_scores,
    one_label_each,
)
from ._corrected_view import corrected_json, corrected_section, corrected_text, plan_text
from ._fingerprint import CONTENT_FIELDS, FINGERPRINT_KEY, content_fingerprint, label_fingerprint
from ._html import calibration_section, render_calibration_page, write_calibration_page
from ._ppi import CorrectedMean, Estimate, LeftOut, labels_needed, ppi_mean
from ._result import (
    KAPPA_BANDS,
    CalibrationResult,
    ClaimDisagreement,
    Confusion,
    Interval,
    LevelAgreement,
    NotCompared,
    ScoreDisagreement,
    kappa_band,
    kappa_reading,
)
from ._run import acalibrate, calibrate, calibration_of
from ._small import t_quantile
from ._text import calibration_table

__all__ = [
    "CONTENT_FIELDS",
    "FINGERPRINT_KEY",
    "INCLUSION_KEY",
    "KAPPA_BANDS",
    "MIN_LABELLED",
    "CalibrationResult",
    "ClaimDisagreement",
    "Confusion",
    "CorrectedMean",
    "Estimate",
    "Interval",
    "LabelledScore",
    "LeftOut",
    "LevelAgreement",
    "NotCompared",
    "ScoreDisagreement",
    "acalibrate",
    "calibrate",
    "calibration_of",
    "calibration_section",
    "calibration_table",
    "content_fingerprint",
    "corrected_json",
    "corrected_mean",
    "corrected_section",
    "corrected_text",
    "kappa_band",
    "kappa_reading",
    "label_fingerprint",
    "labelled_pairs",
    "labelled_score",
    "labelled_scores",
    "labels_needed",
    "one_label_each",
    "plan_text",
    "ppi_mean",
    "render_calibration_page",
    "t_quantile",
    "write_calibration_page",
]
