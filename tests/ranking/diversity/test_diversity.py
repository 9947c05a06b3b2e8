"""Diversity measures with ndeval's semantics: a hand-computed example, agreement with pyndeval (a wrapper of
ndeval.c) on random data, the readers, the options and the errors."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from math import log2
from pathlib import Path

import pytest

from ragrecall.errors import ConfigurationError, FileFormatError, InputError, NothingToEvaluateError
from ragrecall.ranking.diversity import (
    NDEVAL_MEASURES,
    AlphaNDCG,
    SubtopicQrels,
    evaluate_diversity,
    parse_diversity_measure,
    read_ranked_run,
    read_subtopic_qrels,
)
from ragrecall.ranking.diversity._compute import ideal_ranking

# Query 1 has subtopics 1-3 with relevant documents (subtopic 4 only a "not relevant" judgment: ignored, A = 3).
#   d1: subtopics 1 and 2;  d2: subtopic 1;  d3: subtopic 3;  d4: judged, relevant to none.
# The run ranks d2, d1, d5 (unjudged), d3. With alpha = 0.5 the gains are
#   d2: 1 (subtopic 1 seen first);  d1: 0.5 (subtopic 1 seen once) + 1 (subtopic 2) = 1.5;  d5: 0;  d3: 1.
# The greedy ideal ranking is d1 (gain 2), d3 (1), d2 (0.5).
QRELS = "1 1 d1 1\n1 2 d1 1\n1 1 d2 1\n1 3 d3 1\n1 1 d4 0\n1 4 d4 0\n2 1 x 0\n"
RUN = "1 Q0 d2 1 4 myrun\n1 Q0 d1 2 3 myrun\n1 Q0 d5 3 2 myrun\n1 Q0 d3 4 1 myrun\n2 Q0 x 1 1 myrun\n7 Q0 z 1 1 myrun\n"

HAND = {
    "alpha-nDCG@1": 1 / 2,
    "alpha-nDCG@2": (1 + 1.5 / log2(3)) / (2 + 1 / log2(3)),
    "alpha-nDCG@4": (1 + 1.5 / log2(3) + 1 / log2(5)) / (2 + 1 / log2(3) + 0.5 / log2(4)),
    "alpha-DCG@2": (1 + 1.5 / log2(3)) / (3 + 3 * 0.5 / log2(3)),  # over a document relevant to all, each rank
    "ERR-IA@4": (1 + 1.5 / 2 + 1 / 4) / (3 + 3 * 0.5 / 2 + 3 * 0.25 / 3 + 3 * 0.125 / 4),
    "nERR-IA@4": (1 + 1.5 / 2 + 1 / 4) / (2 + 1 / 2 + 0.5 / 3),
    "S-recall@1": 1 / 3,
    "S-recall@2": 2 / 3,
    "S-recall@3": 2 / 3,
    "S-recall@4": 1.0,
    "P-IA@2": (1 + 2) / (2 * 3),
    "P-IA@5": (1 + 2 + 0 + 1) / (5 * 3),
    "MAP-IA": ((1 / 1 + 2 / 2) / 2 + (1 / 2) / 1 + (1 / 4) / 1) / 3,  # per subtopic: precision at its hits
    "NRBP": (1 + 1.5 * 0.5 + 1 * 0.5**3) * (1 - 0.5 * 0.5) / 3,
    "nNRBP": (1 + 1.5 * 0.5 + 1 * 0.5**3) / (2 + 1 * 0.5 + 0.5 * 0.25),
}


def test_hand_computed_example() -> None:
    ev = evaluate_diversity(io.StringIO(QRELS), io.StringIO(RUN), list(HAND))
    assert ev.query_ids == ("1", "2")  # query 7 is not judged; query 2 has nothing relevant
    assert ev.per_query["1"] == pytest.approx(HAND, abs=1e-12)
    assert all(v == 0.0 for v in ev.per_query["2"].values())
    assert ev["alpha-nDCG@2"] == pytest.approx(HAND["alpha-nDCG@2"] / 2)
    assert ev.run_id == "myrun"


def test_alpha_changes_the_gains() -> None:
    ev = evaluate_diversity(io.StringIO(QRELS), io.StringIO(RUN), ["alpha-nDCG@2"], alpha=0.0)
    # alpha 0: no redundancy penalty; gains 1, 2 against the ideal 2, 1.
    assert ev.per_query["1"]["alpha-nDCG@2"] == pytest.approx((1 + 2 / log2(3)) / (2 + 1 / log2(3)))


def test_order_depth_and_missing() -> None:
    # By score the run reads d2, d1, d5, d3 too; reverse the scores to see the rank column obeyed by default.
    flipped = RUN.replace(" 4 myrun", " 0.1 myrun")
    by_rank = evaluate_diversity(io.StringIO(QRELS), io.StringIO(flipped), ["S-recall@1"])
    by_score = evaluate_diversity(io.StringIO(QRELS), io.StringIO(flipped), ["S-recall@1"], order="score")
    assert by_rank.per_query["1"]["S-recall@1"] == pytest.approx(1 / 3)  # d2 first (rank 1)
    assert by_score.per_query["1"]["S-recall@1"] == pytest.approx(2 / 3)  # d1 first (score 3)
    cut = evaluate_diversity(io.StringIO(QRELS), io.StringIO(RUN), ["S-recall@4", "MAP-IA"], depth=2)
    assert cut.per_query["1"]["S-recall@4"] == pytest.approx(2 / 3)  # d3 (rank 4) is cut away
    zero = evaluate_diversity(io.StringIO(QRELS + "3 1 y 1\n"), io.StringIO(RUN), ["S-recall@4"], missing="zero")
    assert zero.means["S-recall@4"] == pytest.approx(1 / 3) and zero.n_missing == 1


def test_score_ties_go_to_the_greater_document_id() -> None:
    run = io.StringIO("1 Q0 d2 1 1.0 t\n1 Q0 d1 2 1.0 t\n1 Q0 d3 3 1.0 t\n")
    ev = evaluate_diversity(io.StringIO(QRELS), run, ["S-recall@1", "P-IA@1"], order="score")
    assert ev.per_query["1"]["S-recall@1"] == pytest.approx(1 / 3)  # d3 first, as ndeval -traditional
    assert ev.per_query["1"]["P-IA@1"] == pytest.approx(1 / 3)


def test_ideal_ties_go_to_the_greater_document_id() -> None:
    judged = SubtopicQrels.from_dict({"q": {"1": {"x": 1, "z": 1}, "2": {"y": 1}}}).topics["q"]
    assert ideal_ranking(judged, 0.5) == ["z", "y", "x"]


def test_dict_inputs() -> None:
    qrels = {1: {1: {"a": 1}, 2: {"b": 1}}}
    assert evaluate_diversity(qrels, {1: ["b", "a"]}, "S-recall@1").means["S-recall@1"] == 0.5
    assert evaluate_diversity(qrels, {1: {"a": 0.1, "b": 0.9}}, "S-recall@2").means["S-recall@2"] == 1.0


def test_measure_names() -> None:
    assert str(parse_diversity_measure("alpha-nDCG@10")) == "alpha-nDCG@10"
    assert parse_diversity_measure("strec@5") == parse_diversity_measure("S-recall@5")
    assert parse_diversity_measure("α-nDCG@20") == AlphaNDCG(20)
    assert [m.ndeval_name for m in NDEVAL_MEASURES][12:15] == ["NRBP", "nNRBP", "MAP-IA"]
    for bad in ("alpha-nDCG", "NRBP@5", "nope@3", "alpha-nDCG@0"):
        with pytest.raises(ConfigurationError):
            parse_diversity_measure(bad)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [({"alpha": 1.5}, "alpha must be"), ({"beta": -0.1}, "beta must be"), ({"depth": 0}, "depth must be")],
)
def test_bad_parameters(kwargs: dict[str, float], fragment: str) -> None:
    with pytest.raises(ConfigurationError, match=fragment):
        evaluate_diversity(io.StringIO(QRELS), io.StringIO(RUN), **kwargs)  # type: ignore[arg-type]


def test_input_errors() -> None:
    with pytest.raises(NothingToEvaluateError, match="no query of the run"):
        evaluate_diversity(io.StringIO(QRELS), io.StringIO("9 Q0 a 1 1 t\n"))
    with pytest.raises(InputError, match="duplicate rank"):
        evaluate_diversity(io.StringIO(QRELS), io.StringIO("1 Q0 a 1 1 t\n1 Q0 b 1 2 t\n"))
    with pytest.raises(InputError, match="twice"):
        evaluate_diversity(io.StringIO(QRELS), io.StringIO("1 Q0 a 1 1 t\n1 Q0 a 2 2 t\n"))
    with pytest.raises(FileFormatError, match=r":2: expected 4 fields \(query subtopic doc grade\)"):
        read_subtopic_qrels(io.BytesIO(b"1 1 a 1\n1 a 1\n"))
    with pytest.raises(FileFormatError, match=":2: document 'a' is judged twice"):
        read_subtopic_qrels(io.BytesIO(b"1 1 a 1\n1 1 a 0\n"))
    with pytest.raises(FileFormatError, match="rank 'x' is not a whole number"):
        read_ranked_run(io.BytesIO(b"1 Q0 a x 1 t\n"))


def test_files_follow_the_trec_reading_rules(tmp_path: Path) -> None:
    # A byte-order mark, CRLF, tabs and trailing extra fields read as for the other TREC readers; gzip too.
    import gzip

    (tmp_path / "q.gz").write_bytes(gzip.compress(("\ufeff" + QRELS.replace("\n", "\r\n")).encode()))
    (tmp_path / "r").write_text(RUN.replace(" ", "\t").replace("myrun\n", "myrun extra\n"))
    ev = evaluate_diversity(tmp_path / "q.gz", tmp_path / "r", list(HAND))
    assert ev.per_query["1"] == pytest.approx(HAND, abs=1e-12)


def _random_case(seed: int) -> tuple[list[tuple[str, str, str, int]], list[tuple[str, str, float]]]:
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(1, 6):
        docs = [f"d{i}" for i in range(30)]
        for s in range(1, rng.randint(1, 6)):
            for d in rng.sample(docs, rng.randint(1, 12)):
                qrels.append((str(q), str(s), d, rng.choice([0, 1, 1, 2])))
        for d in rng.sample(docs, rng.randint(1, 25)):
            run.append((str(q), d, float(rng.choice([rng.random(), 0.5, 0.25]))))  # ties among scores too
    return qrels, run


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("alpha", "beta"), [(0.5, 0.5), (0.2, 0.9)])
def test_agrees_with_pyndeval(seed: int, alpha: float, beta: float) -> None:
    pyndeval = pytest.importorskip("pyndeval")
    qrels, run = _random_case(seed)
    expected = pyndeval.ndeval(qrels, run, alpha=alpha, beta=beta)
    # pyndeval breaks score ties by document ID ascending (ndeval -traditional: descending); hand it over as
    # ranked lists in pyndeval's order, so that the measures are compared, not the tie rules.
    by_query: dict[str, list[str]] = {}
    for q, d, _ in sorted(run, key=lambda row: (row[0], -row[2], row[1])):
        by_query.setdefault(q, []).append(d)
    qdict: dict[str, dict[str, dict[str, int]]] = {}
    for q, s, d, g in qrels:
        qdict.setdefault(q, {}).setdefault(s, {})[d] = g
    ev = evaluate_diversity(qdict, by_query, NDEVAL_MEASURES, alpha=alpha, beta=beta)
    assert set(ev.query_ids) == set(expected)
    for q, values in expected.items():
        ours = {m.ndeval_name: ev.per_query[q][str(m)] for m in NDEVAL_MEASURES}
        assert ours == pytest.approx(values, abs=1e-9), q


def test_ndeval_command(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text(RUN)
    cmd = [sys.executable, "-m", "ragrecall.cli", "ndeval", str(tmp_path / "q"), str(tmp_path / "r")]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert out[0].startswith("runid,topic,ERR-IA@5,ERR-IA@10,ERR-IA@20,nERR-IA@5") and out[0].endswith(",strec@20")
    assert len(out[0].split(",")) == 23
    assert [line.split(",")[:2] for line in out[1:]] == [["myrun", "1"], ["myrun", "2"], ["myrun", "amean"]]
    row = dict(zip(out[0].split(","), out[1].split(","), strict=True))
    assert row["MAP-IA"] == f"{HAND['MAP-IA']:.6f}" and row["nNRBP"] == f"{HAND['nNRBP']:.6f}"
    some = subprocess.run(
        [*cmd, "-m", "alpha-nDCG@2", "-alpha", "0.5", "-M", "3", "-c", "-traditional"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.splitlines()
    assert some[0] == "runid,topic,alpha-nDCG@2" and some[1] == f"myrun,1,{HAND['alpha-nDCG@2']:.6f}"
    bad = subprocess.run([*cmd, "-m", "nope@5"], capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("ragrecall: error: unknown diversity measure 'nope@5'")
    assert "Traceback" not in bad.stderr
