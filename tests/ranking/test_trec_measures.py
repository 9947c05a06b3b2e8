"""The measures trec_eval's ``all_trec`` adds, on a small example worked out by hand.

Query q1 retrieves, in order: d7 (not in the judgments), d1 (grade 2), d2 (0), d4 (-1: in the pool, not
judged), d3 (1), d8 (not in the judgments). Its judgments also hold d5 (1) and d6 (0), not retrieved. So with
rel = 1: R = 3, two judged non-relevant documents, relevant documents retrieved at ranks 2 and 5.
"""

from __future__ import annotations

import math

import pytest

from ragrecall.errors import ConfigurationError
from ragrecall.ranking import evaluate_run, parse_measure
from ragrecall.ranking.evaluate import rank_run
from ragrecall.ranking.measures.relstring import relstrings

QRELS = {
    "q1": {"d1": 2, "d2": 0, "d3": 1, "d4": -1, "d5": 1, "d6": 0},
    "q2": {"e1": 1},
    "q3": {"f1": 1},
}
RUN = {
    "q1": {"d7": 6.0, "d1": 5.0, "d2": 4.0, "d4": 3.0, "d3": 2.0, "d8": 1.0},
    "q2": {"e1": 1.0},
}


def q1(measure: str, **options: object) -> float:
    return evaluate_run(QRELS, RUN, [measure], per_query=True, **options).per_query["q1"][  # type: ignore[arg-type,index]
        str(parse_measure(measure))
    ]


@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        ("Bpref", (1 + (1 - 1 / 2)) / 3),  # d1: no non-relevant above; d3: d2 above, 1 - 1/min(2, 3)
        ("Bpref(rel=2)", 1.0),  # R = 1 (d1), nothing judged below it above it
        ("infAP", (0.5 + (0.2 + 0.8 * (3 / 4) * (1.00001 / 2.00002))) / 3),
        ("IPrec@0", 0.5),  # best precision anywhere: 1/2 at rank 2
        ("IPrec@0.5", 0.4),  # round(1.5) = 2 relevant: precision 2/5 at rank 5
        ("IPrec@1", 0.0),  # 3 relevant never reached
        ("IPrecAvg(recalls='0,0.5')", 0.45),
        ("Unj@5", 2 / 5),  # d7 and d4
        ("Unj@10", 3 / 10),  # d7, d4, d8; the 4 missing ranks count as judged
        ("Judged@5", 3 / 5),
        ("Judged@10", 3 / 6),  # 6 retrieved: divided by 6, not 10, as ir_measures does
        ("RBP", 0.1 * (1.0 * 0.9 + 0.5 * 0.9**4)),  # grades 0..2 scaled by 2
        ("RBP(p=0.5)", 0.5 * (1.0 * 0.5 + 0.5 * 0.5**4)),
        ("RBPResid", 0.9**6 + 0.1 * (1 + 0.9**3 + 0.9**5)),  # unjudged at ranks 1, 4, 6
        ("NumRet", 6),
        ("NumRel", 3),
        ("NumRelRet", 2),
        ("NumNonRelJudgedRet", 1),
        ("Utility", 2 - 4),
        ("Utility(a=2,c=-1)", 2 * 2 - 4 - 1),
        ("SetAP", 4 / 18),
        ("RelativeP@2", 1 / 2),
        ("RelativeP", 2 / 3),
        ("BinG", (1 / math.log2(3) + 1 / math.log2(5)) / 3),
        ("G", (2 / math.log2(3) + 1 / math.log2(5)) / 4),
        ("Rprec(mult=2)", 2 / 6),
        ("Rprec(mult=0.2)", 0.0),  # floor(0.6 + 0.9) = 1 document: d7
        ("nDCG(gains='2=10')", (10 / math.log2(3) + 1 / math.log2(6)) / (10 + 1 / math.log2(3) + 1 / math.log2(4))),
    ],
)
def test_measure_on_the_hand_example(measure: str, expected: float) -> None:
    assert q1(measure) == pytest.approx(expected, abs=1e-12)


def test_relstring_marks_unjudged_and_absent_documents() -> None:
    ranked, _ = rank_run(QRELS, RUN)
    assert relstrings(ranked, 10) == ["-20.1-", "1"]
    assert relstrings(ranked, 3) == ["-20", "1"]


def test_depth_cuts_the_run_before_measuring() -> None:
    assert q1("NumRet", depth=3) == 3 and q1("NumRelRet", depth=3) == 1
    assert q1("Unj@10", depth=3) == pytest.approx(1 / 10)


def test_judged_only_drops_unjudged_documents_and_moves_the_rest_up() -> None:
    # d1, d2, d3 remain, at ranks 1, 2, 3.
    assert q1("NumRet", judged_only=True) == 3
    assert q1("RR", judged_only=True) == 1.0
    assert q1("AP", judged_only=True) == pytest.approx((1 + 2 / 3) / 3)
    assert q1("Unj@3", judged_only=True) == 0.0


def test_aggregates_sum_counts_and_take_geometric_means() -> None:
    result = evaluate_run(QRELS, RUN, ["NumQ", "NumRet", "GMAP", "AP"])
    assert result["NumQ"] == 2 and result["NumRet"] == 7
    ap_q1 = (1 / 2 + 2 / 5) / 3
    assert result["AP"] == pytest.approx((ap_q1 + 1) / 2)
    assert result["GMAP"] == pytest.approx(math.sqrt(ap_q1))
    zero = evaluate_run(QRELS, RUN, ["NumQ", "GMAP", "NumRel"], missing="zero")
    assert zero["NumQ"] == 3 and zero["NumRel"] == 5
    assert zero["GMAP"] == pytest.approx(math.exp((math.log(ap_q1) + math.log(1e-5)) / 3))


@pytest.mark.parametrize(
    "text",
    ["IPrec", "IPrec@1.5", "Judged", "RBP(p=1)", "Utility(n_docs=-1)", "nDCG(gains='x')", "IPrecAvg(recalls='a')"],
)
def test_bad_parameters_are_refused(text: str) -> None:
    with pytest.raises(ConfigurationError):
        evaluate_run(QRELS, RUN, [text])


@pytest.mark.parametrize(
    ("trec_name", "ours"),
    [
        ("P.10", "P@10"),
        ("P_10", "P@10"),
        ("ndcg_cut.10", "nDCG@10"),
        ("map", "AP"),
        ("bpref", "Bpref"),
        ("gm_map", "GMAP"),
        ("iprec_at_recall_0.50", "IPrec@0.5"),
        ("Rprec_mult_2.00", "Rprec(mult=2)"),
        ("relative_P_5", "RelativeP@5"),
        ("set_relative_P", "RelativeP"),
        ("set_map", "SetAP"),
        ("set_F.0.25", "F(beta=0.5)"),
        ("utility.2,-1,0,0", "Utility(a=2)"),
        ("11pt_avg.0.2,0.5,0.8", "IPrecAvg(recalls='0.2,0.5,0.8')"),
        ("ndcg.1=3,2=9", "nDCG(gains='1=3,2=9')"),
        ("rbp.p=0.8", "RBP(p=0.8)"),
        ("unj_10", "Unj@10"),
        ("num_nonrel_judged_ret", "NumNonRelJudgedRet"),
    ],
)
def test_trec_eval_names_parse_to_measures_that_print_and_parse_back(trec_name: str, ours: str) -> None:
    measure = parse_measure(trec_name)
    assert str(measure) == ours
    assert parse_measure(ours) == measure and hash(parse_measure(ours)) == hash(measure)
