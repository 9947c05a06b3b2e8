"""trec_eval's own test suite: each ``quicktest`` line of its Makefile, run with ``ragrecall trec``, must print
the published output byte for byte (files in ``trec_eval_suite/``, see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragrecall.cli._main import main

SUITE = Path(__file__).parent / "trec_eval_suite"

# The Makefile's quicktest lines (trec_eval ARGS -> expected output) for the qrels-based measures.
QUICKTEST = [
    ("test/qrels.test test/results.test", "out.test"),
    ("test/qrels.test.with-comments test/results.test", "out.test"),
    ("test/qrels.comment.test test/results.comment.test", "out.comment.test"),
    ("-m all_trec test/qrels.test test/results.test", "out.test.a"),
    ("-m all_trec -q test/qrels.test test/results.test", "out.test.aq"),
    ("-m all_trec -q -c test/qrels.test test/results.trunc", "out.test.aqc"),
    ("-m all_trec -q -c -M100 test/qrels.test test/results.trunc", "out.test.aqcM"),
    ("-m all_trec -mrelstring.20 -q -l2 test/qrels.rel_level test/results.test", "out.test.aql"),
    (
        "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 "
        "-mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 "
        "test/qrels.test test/results.test",
        "out.test.meas_params",
    ),
]


def _path(arg: str) -> str:
    if not arg.startswith("test/"):
        return arg
    name = arg.removeprefix("test/")
    plain, packed = SUITE / name, SUITE / (name + ".gz")
    return str(plain if plain.exists() else packed)


@pytest.mark.parametrize(("args", "expected"), QUICKTEST, ids=[f"{e}:{a[:40]}" for a, e in QUICKTEST])
def test_quicktest_line_prints_trec_evals_output(
    args: str, expected: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code = main(["trec", *(_path(a) for a in args.split())])
    out = capsysbinary.readouterr().out
    assert code == 0
    assert out == (SUITE / expected).read_bytes()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-m", "all_prefs", "-q", "-R", "prefs"], "-R prefs: only the qrels format is supported"),
        (["-m", "qrels_jg", "-q", "-R", "qrels_jg"], "-R qrels_jg: only the qrels format is supported"),
        (["-m", "no_such_measure"], "unknown measure 'no_such_measure'"),
        (["-m", "P.0"], "P: cutoffs must be positive"),
        (["-m", "P.5,5"], "P: a cutoff is given twice"),
        (["-m", "ndcg.1"], "ndcg: parameters are name=value pairs"),
        (["-m", "utility.1,2"], "utility takes 4 coefficients"),
        (["-m", "P.abc"], "P.abc: expected an integer cutoff, got 'abc'"),
    ],
)
def test_lines_not_supported_exit_2_with_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["trec", *args, _path("test/qrels.test"), _path("test/results.test")])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith("ragrecall: error: ") and needle in captured.err
    assert captured.err.count("\n") == 1


def test_unknown_measure_lists_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    # A name with no close match: a misspelt one gets the closest name instead (test_measure_names.py).
    assert main(["trec", "-m", "qqqqz", _path("test/qrels.test"), _path("test/results.test")]) == 2
    err = capsys.readouterr().err
    for name in ("official", "all_trec", "map", "ndcg_cut", "nDCG", "Bpref"):
        assert name in err


def _trec(args: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        import io
        import sys

        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
        try:
            code = main(["trec", *args])
        finally:
            sys.stdin = sys.__stdin__
    else:
        code = main(["trec", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_run_from_standard_input_is_read_once(capsys: pytest.CaptureFixture[str]) -> None:
    expected = (SUITE / "out.test").read_text()
    data = (SUITE / "results.test").read_bytes()
    assert _trec([_path("test/qrels.test"), "-"], capsys, stdin=data) == (0, expected, "")
    import gzip

    assert _trec([_path("test/qrels.test"), "-"], capsys, stdin=gzip.compress(data)) == (0, expected, "")


def test_gzip_files_and_no_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import gzip

    packed = tmp_path / "results.test.gz"
    packed.write_bytes(gzip.compress((SUITE / "results.test").read_bytes()))
    code, out, _ = _trec(["-m", "all_trec", "-q", "-n", _path("test/qrels.test"), str(packed)], capsys)
    expected = [line for line in (SUITE / "out.test.aq").read_text().splitlines() if "\tall\t" not in line]
    assert code == 0 and out.splitlines() == expected


def test_trec_names_with_table_and_json_layouts(capsys: pytest.CaptureFixture[str]) -> None:
    qrels, run = _path("test/qrels.test"), _path("test/results.test")
    code, out, _ = _trec(["-m", "map", "-m", "P.10", "-m", "nDCG@10", "--format", "table", qrels, run], capsys)
    assert code == 0
    assert out.splitlines() == ["map      0.1785", "P_10     0.3000", "nDCG@10  0.3016", "3 queries"]
    code, out, _ = _trec(["-m", "num_ret", "-m", "relstring", "-q", "--format", "json", qrels, run], capsys)
    import json

    payload = json.loads(out)
    assert payload["means"] == {"num_ret": 1500} and payload["per_query"]["301"]["relstring"] == "0000011000"


def test_level_and_judged_only_change_the_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    qrels, run = _path("test/qrels.rel_level"), _path("test/results.test")
    _, level1, _ = _trec(["-m", "num_rel", qrels, run], capsys)
    _, level2, _ = _trec(["-m", "num_rel", "-l", "2", qrels, run], capsys)
    assert level1 != level2 and level2.split("\t")[-1].strip().isdigit()
    _, judged, _ = _trec(["-m", "num_ret", "-J", qrels, run], capsys)
    assert int(judged.split("\t")[-1]) < 1500


@pytest.mark.parametrize("flag", [["-Z", "zscores"], ["-T", "other"], ["-c", "--missing", "skip"], ["-M", "0"]])
def test_flags_trec_eval_has_but_not_here_exit_2(flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _trec([*flag, _path("test/qrels.test"), _path("test/results.test")], capsys)
    assert code == 2 and out == "" and err.startswith("ragrecall: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("extra", [[], ["-M", "5"], ["-J"]])
def test_complete_with_a_level_sums_num_rel_as_trec_eval_10(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # trec_eval 10 (te_calc_avg_num_rel): with -c, the summary num_rel recounts every qrels line with relevance
    # > 0 in every topic, whatever -l, -M or -J; the per-topic values keep -l.
    qrels, run = _path("test/qrels.rel_level"), _path("test/results.trunc")
    lines = [line.split() for line in Path(qrels).read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len({(f[0], f[2]) for f in lines}) == len(lines)  # no judgment given twice
    positive = sum(int(f[3]) > 0 for f in lines)
    at_level_2 = {q: sum(f[0] == q and int(f[3]) >= 2 for f in lines) for q in {f[0] for f in lines}}
    code, out, _ = _trec(["-c", "-l", "2", "-q", "-m", "num_rel", *extra, qrels, run], capsys)
    rows = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and rows[-1] == ["num_rel               ", "all", str(positive)]
    assert {q: int(v) for _, q, v in rows[:-1]} == at_level_2
    assert positive > sum(at_level_2.values())  # the level changes the topics' counts, not the summary
    _, plain, _ = _trec(["-l", "2", "-m", "num_rel", *extra, qrels, run], capsys)  # without -c: the sum
    assert int(plain.split("\t")[-1]) == sum(
        at_level_2[q] for q in {f.split()[0] for f in Path(run).read_text().splitlines()}
    )
