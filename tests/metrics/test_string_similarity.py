"""NonLLMStringSimilarity: 1 − normalised distance of response to reference, Ragas's number, named by Ragas."""

from __future__ import annotations

import pytest
from rapidfuzz.distance import Jaro, Levenshtein

from ragrecall import ConfigurationError, MetricResult, MissingFieldError
from ragrecall.metrics import DistanceMeasure, NonLLMStringSimilarity, StringSimilarityEvidence


def test_levenshtein_by_default_and_other_distances_by_enum_or_value() -> None:
    ref, resp = "The cat sat on the mat.", "A cat sat on a mat."
    result = NonLLMStringSimilarity().score(reference=ref, response=resp)
    assert result.value == pytest.approx(1 - Levenshtein.normalized_distance(ref, resp))
    assert result.metric == "non_llm_string_similarity"
    assert isinstance(result.evidence, StringSimilarityEvidence) and result.evidence.distance_measure == "levenshtein"
    jaro = NonLLMStringSimilarity(distance_measure="jaro")
    assert jaro == NonLLMStringSimilarity(distance_measure=DistanceMeasure.JARO)
    assert jaro.score(reference=ref, response=resp).value == pytest.approx(1 - Jaro.normalized_distance(ref, resp))
    assert jaro.name == "non_llm_string_similarity"  # Ragas's column, whatever the setting
    assert jaro.settings_name() == "non_llm_string_similarity(distance_measure=jaro)"
    assert NonLLMStringSimilarity().score(reference="same", response="same").value == 1.0


def test_an_empty_reference_is_unscorable_and_an_empty_response_scores_zero() -> None:
    metric = NonLLMStringSimilarity()
    empty = metric.score(reference="", response="x")
    assert empty.status == "unscorable" and empty.value is None and "reference is empty" in (empty.reason or "")
    assert metric.score(reference="abc", response="").value == 0.0
    with pytest.raises(MissingFieldError, match="field 'response'"):
        metric.score(reference="abc")


def test_an_unknown_distance_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ConfigurationError, match="unknown distance_measure 'cosine'; expected one of levenshtein"):
        NonLLMStringSimilarity(distance_measure="cosine")


def test_results_read_back_with_their_evidence() -> None:
    result = NonLLMStringSimilarity(distance_measure=DistanceMeasure.HAMMING).score(reference="abcd", response="abed")
    back = MetricResult.model_validate_json(result.model_dump_json())
    assert back == result and isinstance(back.evidence, StringSimilarityEvidence)
