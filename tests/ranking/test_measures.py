"""Measures as value objects, the parser, and hand-computed values."""

from __future__ import annotations

import math

import pytest

from ragrecall import ConfigurationError
from ragrecall.ranking import AP, ERR, MEASURES, RR, ExtRR, F, Measure, P, Recall, evaluate_run, nDCG, parse_measure


def test_python_spelling_and_string_spelling_are_the_same_value() -> None:
    assert parse_measure("nDCG@10") == nDCG @ 10
    assert parse_measure("F(beta=2)@5") == F(beta=2) @ 5
    assert parse_measure("RR(rel=2)") == RR(rel=2)
    assert parse_measure("nDCG(gain=exp)@10") == nDCG(gain="exp") @ 10
    assert parse_measure("nDCG(gain='exp')@10") == nDCG(gain="exp") @ 10
    assert len({parse_measure("AP@100"), AP @ 100, parse_measure("map_cut_100")}) == 1


@pytest.mark.parametrize(
    "text", ["nDCG@10", "F(beta=2)@5", "F(beta=0.5)@5", "AP(rel=2)@100", "ERR(g_max=3)@20", "Rprec", "ExtRR@10"]
)
def test_str_round_trips(text: str) -> None:
    assert str(parse_measure(text)) == text
    assert parse_measure(str(parse_measure(text))) == parse_measure(text)


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [("P_10", "P@10"), ("recall_100", "Recall@100"), ("ndcg_cut_10", "nDCG@10"), ("map", "AP"), ("MRR@10", "RR@10")],
)
def test_trec_eval_names_and_aliases(alias: str, canonical: str) -> None:
    assert parse_measure(alias) == parse_measure(canonical)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "nDCG@",
        "nDCG@0",
        "nDCG@1.5",
        "foo@10",
        "nDCG(gain=cubic)@10",
        "P(rel=0)@5",
        "Rprec@5",
        "F(beta=-1)@5",
        "nDCG@10 extra",
        "F(beta=2",
        "P(rel=1, rel=2)@5",
        "P(cutoff=5)",
        "__import__('os')",
        "P@10;",
        "P(colour=1)@5",
    ],
)
def test_bad_measure_strings_are_configuration_errors(bad: str) -> None:
    with pytest.raises(ConfigurationError):
        parse_measure(bad)


def test_every_measure_documents_a_formula_and_a_citation() -> None:
    for measure in MEASURES.values():
        doc = type(measure).__doc__ or ""
        assert "Cite" in doc and "=" in doc, measure.NAME
        assert isinstance(measure, Measure) and hash(measure) == hash(type(measure)())


QRELS = {"q": {"a": 3, "b": 0, "c": 1, "d": 2, "e": 1}}
RUN = {"q": {"x": 9.0, "a": 8.0, "b": 7.0, "c": 6.0, "y": 5.0, "d": 4.0}}  # order: x a b c y d


def value(measure: str, qrels: dict[str, dict[str, int]] = QRELS, run: dict[str, dict[str, float]] = RUN) -> float:
    return evaluate_run(qrels, run, [measure])[measure]


def test_hand_computed_binary_measures() -> None:
    # relevant (grade >= 1): a c d e (4); ranks of relevant retrieved: a=2, c=4, d=6
    assert value("P@4") == 2 / 4
    assert value("P@10") == 3 / 10  # denominator k even past the end
    assert value("Recall@4") == 2 / 4
    assert value("RR") == 1 / 2
    assert value("RR@1") == 0.0
    assert value("Success@1") == 0.0 and value("Success@2") == 1.0
    assert value("AP") == pytest.approx((1 / 2 + 2 / 4 + 3 / 6) / 4)
    assert value("AP@4") == pytest.approx((1 / 2 + 2 / 4) / 4)
    assert value("Rprec") == 2 / 4
    assert value("P(rel=2)@2") == 1 / 2 and value("Recall(rel=2)") == 2 / 2
    p, r = 2 / 4, 2 / 4
    assert value("F(beta=2)@4") == pytest.approx(5 * p * r / (4 * p + r))


def test_hand_computed_ndcg_linear_and_exp() -> None:
    dcg = 3 / math.log2(3) + 1 / math.log2(5) + 2 / math.log2(7)
    idcg = 3 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert value("nDCG") == pytest.approx(dcg / idcg)
    edcg = 7 / math.log2(3) + 1 / math.log2(5) + 3 / math.log2(7)
    eidcg = 7 + 3 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert value("nDCG(gain=exp)") == pytest.approx(edcg / eidcg)


def test_err_hand_computed() -> None:
    # grades by position: 0, 3, 0, 1, 0, 2; R = (2^g - 1) / 16
    r = {2: 7 / 16, 4: 1 / 16, 6: 3 / 16}
    expected = r[2] / 2 + (1 - r[2]) * r[4] / 4 + (1 - r[2]) * (1 - r[4]) * r[6] / 6
    assert value("ERR") == pytest.approx(expected, abs=1e-12)
    assert value("ERR@3") == pytest.approx(r[2] / 2, abs=1e-12)
    assert value("ERR(g_max=3)@2") == pytest.approx((7 / 8) / 2, abs=1e-12)


def test_err_clips_grades_above_g_max() -> None:
    assert value("ERR(g_max=2)@2") == value("ERR(g_max=2)@2", {"q": {"a": 2}}, {"q": {"x": 2.0, "a": 1.0}})


def test_extrr_worked_example() -> None:
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    run = {"q": {"a": 8.0, "x1": 7.0, "x2": 6.0, "x3": 5.0, "b": 4.0, "x4": 3.0, "x5": 2.0, "c": 1.0}}
    result = evaluate_run(qrels, run, [ExtRR], expected_positions={"q": {"a": 3, "b": 4, "c": 6}})
    assert result["ExtRR"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)
    assert round(result["ExtRR"], 3) == 0.611
    missing_one = evaluate_run(qrels, {"q": {"a": 1.0}}, [ExtRR], expected_positions={"q": {"a": 3}})
    assert missing_one["ExtRR"] == pytest.approx(1 / 3)


def test_extrr_grade_rule_without_explicit_positions() -> None:
    # relevant: a(3) c(1) d(2) e(1): m(a)=1, m(d)=2, m(c)=m(e)=4; found a@2, c@4, d@6
    expected = (1 / 2 + 1 + 1 / 5) / 4
    assert value("ExtRR") == pytest.approx(expected)


def test_measure_objects_are_accepted_and_deduplicated() -> None:
    result = evaluate_run(QRELS, RUN, [P @ 4, "P@4", Recall @ 4])
    assert [str(m) for m in result.measures] == ["P@4", "Recall@4"]
    with pytest.raises(ConfigurationError):
        nDCG(rel=2)
    with pytest.raises(ConfigurationError):
        ERR(g_max=0)


@pytest.mark.parametrize("text", ["F(beta=2,rel=2)@5", "AP(rel=2)", "Rprec", "RR(rel=3)@10", "nDCG@10", "P@5"])
def test_repr_is_the_measure_string(text: str) -> None:
    assert repr(parse_measure(text)) == str(parse_measure(text)) == text
