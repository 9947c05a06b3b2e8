"""Awkward inputs for ``ragrecall trec``'s plain-Python evaluator (:mod:`ragrecall.ranking.small_run`).

Scores and grades written every way a plain number can be (signs, exponents, leading zeros, ``1.``, ``.5``,
subnormals, values at float32's edge or past float64's), every kind of whitespace and line end, IDs that sort
differently as bytes and as numbers, queries on one side only or judged with nothing relevant, files exactly at
the size limits and files large enough that the numpy path reads them with pyarrow. On each, the command's
output, errors and exit code are the same whether or not the small path is taken, the values it computes are
the numpy path's to the bit, and (trec_eval semantics) they agree with pytrec_eval.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.small_path import assert_same_bits, took_small
from ragrecall.cli import _trec
from ragrecall.cli._main import main
from ragrecall.ranking.small_run import SMALL_RUN_BYTES, evaluate_small

Outcome = tuple[int, str, str]


def _cli(args: list[str], *, numpy: bool) -> tuple[Outcome, list[bool]]:
    """Exit code, standard output and standard error of ``ragrecall trec args``, on the numpy path when
    ``numpy``; and, per call of the small evaluator, whether it took the files."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        taken = took_small(patch)
        if numpy:
            patch.setattr(_trec, "_official_only", lambda _args: False)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["trec", *args])
    return (code, out.getvalue(), err.getvalue()), taken


def _same_both_ways(folder: Path, qrels: bytes, run: bytes, flags: tuple[str, ...] = ("-q",)) -> tuple[str, bool]:
    """Write the files, run the command both ways and assert the outcomes equal; the output, and whether the
    small path took the files (then its values are also checked bit for bit)."""
    (folder / "qrels").write_bytes(qrels)
    (folder / "run").write_bytes(run)
    args = [*flags, str(folder / "qrels"), str(folder / "run")]
    small, taken = _cli(args, numpy=False)
    full, _ = _cli(args, numpy=True)
    assert small == full
    if taken == [True]:
        assert_same_bits(folder / "qrels", folder / "run")
    return small[1] + small[2], taken == [True]


def _lines(*rows: str, end: str = "\n") -> bytes:
    return "".join(row + end for row in rows).encode("ascii")


_QRELS = _lines("q1 0 a 1", "q1 0 b 0", "q1 0 c 2", "q1 0 d 1", "q1 0 e 0", "q1 0 f 1")


def _run_with(scores: list[str]) -> bytes:
    """One query, documents a, b, c, ... (then unjudged g, h, ...) with ``scores``, written in file order."""
    return _lines(*(f"q1 Q0 {chr(97 + i)} {i} {s} r" for i, s in enumerate(scores)))


TAKEN: dict[str, tuple[bytes, bytes]] = {
    "score-spellings": (_QRELS, _run_with(["1.", ".5", "+.5", "-.5", "007", "00.50", "1e0", "1E+00", "+1e-0", "5E-1"])),
    "signed-zeros-tie": (_QRELS, _run_with(["-0", "+0", "0", "-0.0", "0e5", "-0e-5", "-1e-46", "1e-46"])),
    "same-float32-tie": (_QRELS, _run_with(["1", "1.00000001", "0.99999998", "16777217", "16777216", "16777218"])),
    "subnormals": (_QRELS, _run_with(["1e-45", "1.4e-45", "7e-46", "7.1e-46", "4.9e-324", "1e-320", "-1e-45"])),
    "float32-max": (_QRELS, _run_with(["3.4028234e38", "3.40282356e38", "-3.40282356e38", "3.4028235e38", "0"])),
    "past-float32-max": (
        _QRELS,
        _run_with(["3.4028236e38", "-3.5e38", "340282356779733661637539395458142568448", "1"]),
    ),
    "past-float64": (_QRELS, _run_with(["1e309", "-1e309", "1" * 400, "1e99999999999999999999", "2", "-2"])),
    "long-digits": (_QRELS, _run_with(["0." + "0" * 300 + "1", "0" * 50 + "1.5", "1." + "0" * 60, "1"])),
    "grade-spellings": (
        _lines("q1 0 a +1", "q1 0 b -0", "q1 0 c 007", "q1 0 d +007", "q1 0 e -007", "q1 0 f 000"),
        _run_with(["6", "5", "4", "3", "2", "1", "0"]),
    ),
    "18-digit-grades": (
        _lines("q1 0 a 999999999999999999", "q1 0 b -999999999999999999", "q1 0 c 0"),
        _run_with(["1", "3", "2"]),
    ),
    "tabs-and-runs-of-spaces": (
        b"q1\t0\t\ta   1\nq1 \t0 b\t0\n\tq1 0 c 2\n",
        b"q1\t\tQ0  a \t1 1.0\tr\n  q1 Q0 b 2 2.0 r\nq1\tQ0\tc\t3\t3.0\tr\n",
    ),
    "trailing-whitespace": (b"q1 0 a 1 \nq1 0 b 0\t\n", b"q1 Q0 a 1 1 r  \nq1 Q0 b 2 2 r\t \n"),
    "cr-only": (b"q1 0 a 1\rq1 0 b 0\rq2 0 a 1\r", b"q1 Q0 a 1 1 r\rq1 Q0 b 2 2 r\rq2 Q0 a 1 1 r\r"),
    "mixed-line-ends": (b"q1 0 a 1\r\nq1 0 b 0\nq1 0 c 1\r", b"q1 Q0 a 1 1 r\r\nq1 Q0 b 2 2 r\rq1 Q0 c 3 3 r\n"),
    "cr-cr-lf": (b"q1 0 a 1\r\r\nq1 0 b 0\r\r\n", b"q1 Q0 a 1 1 r\r\r\nq1 Q0 b 2 2 r\r\r\n"),
    "no-final-line-end": (b"q1 0 a 1\nq1 0 b 0", b"q1 Q0 a 1 1 r\nq1 Q0 b 2 2 r"),
    "blank-and-whitespace-lines": (
        b"\n \n\t\nq1 0 a 1\n\r\n  \t \nq1 0 b 0\n\n",
        b" \n\n\t \r\nq1 Q0 a 1 1 r1\n \t\n\nq1 Q0 b 2 2 r2\n\n\n",
    ),
    "first-run-line-blank-cr": (b"q1 0 a 1\n", b"  \r q1 Q0 a 1 1 first\nq1 Q0 b 2 2 second\n"),
    "runid-per-line-differs": (b"q1 0 a 1\nq2 0 a 1\n", b"q2 Q0 a 1 1 z#run\nq1 Q0 a 1 1 a-run\n"),
    "numeric-query-ids": (
        _lines(*(f"{q} 0 d{i} {i % 2}" for q in ("10", "9", "1", "01", "001", "0") for i in range(3))),
        _lines(*(f"{q} Q0 d{i} 1 {i} r" for q in ("9", "10", "001", "1", "01", "0") for i in range(3))),
    ),
    "numeric-doc-ids-tie": (
        _lines("q1 0 9 0", "q1 0 10 0", "q1 0 100 1"),
        _lines(*(f"q1 Q0 {d} 1 1 r" for d in (10, 9, 100, 11))),
    ),
    "hash-inside-ids": (
        b"q#1 0 d#1 1\nq#1 0 #d 1\nq1 0 a# 0\nq1 0 # 1\n",
        b"q#1 Q0 d#1 1 1 r#1\nq#1 Q0 #d 2 2 r\n#x Q0 d#1 1 1 r\nq1 Q0 # 1 1 r\nq1 Q0 a# 1 5 r\n",
    ),
    "odd-ascii-in-ids": (
        b'q"1 0 d,1 1\nq"1 0 d\\2 0\nq"1 0 D1 1\nq"1 0 d\x1c1 1\n',
        b'q"1 Q0 d,1 1 1 r\x1f\nq"1 Q0 d\\2 2 2 r\nq"1 Q0 D1 3 1 r\nq"1 Q0 d\x1c1 1 1 r\nq"1 Q0 d1 1 1 r\n',
    ),
    "same-docs-across-queries": (
        _lines("q1 0 a 1", "q1 0 b 0", "q2 0 a 0", "q2 0 b 1", "q3 0 a -1"),
        _lines("q1 Q0 a 1 1 r", "q1 Q0 b 2 2 r", "q2 Q0 a 1 1 r", "q2 Q0 b 2 2 r", "q3 Q0 a 1 1 r", "q3 Q0 b 1 1 r"),
    ),
    "queries-on-one-side": (
        _lines("q1 0 a 1", "q3 0 a 1", "q5 0 z 1"),
        _lines("q1 Q0 a 1 1 r", "q2 Q0 a 1 1 r", "q4 Q0 a 1 1 r", "q5 Q0 a 1 1 r"),
    ),
    "only-negative-or-zero-grades": (
        _lines("q1 0 a -1", "q1 0 b -2", "q2 0 a 0", "q2 0 b 0", "q3 0 a 1"),
        _lines("q1 Q0 a 1 1 r", "q1 Q0 b 1 2 r", "q2 Q0 a 1 1 r", "q2 Q0 b 1 2 r", "q3 Q0 b 1 1 r"),
    ),
    "interleaved-queries": (
        _lines("q1 0 a 1", "q2 0 a 1", "q1 0 b 1"),
        _lines("q2 Q0 b 1 1 r", "q1 Q0 a 1 1 r", "q2 Q0 a 1 2 r", "q1 Q0 b 1 3 r", "q2 Q0 c 1 -1 r"),
    ),
    "relevant-past-rank-1000": (
        _lines(*(f"q1 0 d{i} {1 if i % 400 == 399 else 0}" for i in range(0, 1300, 3))),
        _lines(*(f"q1 Q0 d{i} {i} {-i} r" for i in range(1300))),
    ),
    "many-queries": (
        _lines(*(f"q{q} 0 d{i} {(q * i) % 3 - 1}" for q in range(13) for i in range(7))),
        _lines(*(f"q{q} Q0 d{i} {i} {(q + i) % 4 / 3:.7f} r" for q in range(13) for i in range(9))),
    ),
}


@pytest.mark.parametrize("case", sorted(TAKEN))
def test_awkward_plain_files_are_taken_and_print_as_on_the_numpy_path(case: str, tmp_path: Path) -> None:
    qrels, run = TAKEN[case]
    output, taken = _same_both_ways(tmp_path, qrels, run)
    assert taken
    assert "\tall\t" in output


def test_ties_in_float32_are_broken_by_document_id_descending(tmp_path: Path) -> None:
    # a: "-0", b: "+0", ..., h: "1e-46", all 0 as float32: ranked h, g, f, ..., a.
    output, taken = _same_both_ways(tmp_path, *TAKEN["signed-zeros-tie"])
    assert taken
    assert "recip_rank            \tq1\t0.3333\n" in output  # f, the first relevant one, is third
    output, _ = _same_both_ways(tmp_path, *TAKEN["numeric-doc-ids-tie"])
    assert "recip_rank            \tq1\t0.3333\n" in output  # 9, 11, 100, 10 (bytes, descending): 100 third


def test_queries_print_in_byte_order_not_numeric(tmp_path: Path) -> None:
    output, _ = _same_both_ways(tmp_path, *TAKEN["numeric-query-ids"])
    order = [line.split("\t")[1] for line in output.splitlines() if line.startswith("num_ret ")]
    assert order == ["0", "001", "01", "1", "10", "9", "all"]


def test_the_run_id_is_the_first_non_blank_lines(tmp_path: Path) -> None:
    output, _ = _same_both_ways(tmp_path, *TAKEN["first-run-line-blank-cr"], flags=())
    assert "runid                 \tall\tfirst\n" in output
    output, _ = _same_both_ways(tmp_path, *TAKEN["runid-per-line-differs"], flags=())
    assert "runid                 \tall\tz#run\n" in output


HANDED_OVER: dict[str, tuple[bytes, bytes]] = {
    "infinity-words": (_QRELS, _run_with(["Infinity", "+inf", "-INF"])),
    "19-digit-grade": (_lines("q1 0 a 1000000000000000000", "q1 0 b 0"), _run_with(["1", "2"])),
    "hex-grade": (_lines("q1 0 a 0x1"), _run_with(["1"])),
    "digit-separator-grade": (_lines("q1 0 a 1_0"), _run_with(["1"])),
    "exponent-grade": (_lines("q1 0 a 1e0"), _run_with(["1"])),
    "comment-mid-file": (_lines("q1 0 a 1", "#c x y z", "q1 0 b 0"), _run_with(["1", "2"])),
    "hash-comment-first-field": (_lines("q1 0 a 1", " #q1 0 b 0"), _run_with(["1", "2"])),
    "run-only-blank-lines": (_QRELS, b"\n  \n\t\r\n"),
    "qrels-only-blank-lines": (b" \n\n", _run_with(["1"])),
    "vertical-tab": (_QRELS, b"q1 Q0 a 1 1\x0br\n"),
    "nul-byte": (_QRELS, b"q1 Q0 a 1 1 r\x00\n"),
    "five-fields": (_QRELS, b"q1 Q0 a 1 1\n"),
    "bare-exponent": (_QRELS, _run_with(["1e"])),
    "bare-point": (_QRELS, _run_with(["."])),
    "bare-sign": (_QRELS, _run_with(["-"])),
    "two-points": (_QRELS, _run_with(["1.5.5"])),
    "qrels-duplicate-in-a-query-not-run": (_lines("q1 0 a 1", "q2 0 x 1", "q2 0 x 0"), _run_with(["1"])),
    "non-ascii-digit": (_QRELS, "q1 Q0 a 1 \u0661 r\n".encode()),
    "latin-1-id": (_QRELS, b"q1 Q0 \xe9 1 1 r\n"),
}


@pytest.mark.parametrize("case", sorted(HANDED_OVER))
def test_files_the_small_path_refuses_print_as_on_the_numpy_path(case: str, tmp_path: Path) -> None:
    qrels, run = HANDED_OVER[case]
    _, taken = _same_both_ways(tmp_path, qrels, run)
    assert not taken


def test_a_line_limit_in_the_environment_gives_the_numpy_paths_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAGRECALL_MAX_LINE", "0")
    output, taken = _same_both_ways(tmp_path, *TAKEN["score-spellings"])
    assert not taken
    assert "RAGRECALL_MAX_LINE" in output
    monkeypatch.setenv("RAGRECALL_MAX_LINE", "  ")  # blank: no limit of the user's
    _, taken = _same_both_ways(tmp_path, *TAKEN["score-spellings"])
    assert taken


@pytest.mark.parametrize("threads", ["abc", "0"])
def test_a_bad_thread_count_in_the_environment_is_reported_on_both_paths(
    threads: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAGRECALL_THREADS", threads)
    _same_both_ways(tmp_path, b"q1 0 d1 1\n", b"q1 Q0 d1 1 1.0 r\n", flags=())


def test_grades_far_apart_do_not_overflow_the_judgment_counts(tmp_path: Path) -> None:
    qrels = _lines(
        "a 0 x 999999999999999999", "a 0 y -999999999999999999", *(f"{q} 0 x 0" for q in "bcde"), "f 0 d1 1", "f 0 d2 0"
    )
    output, taken = _same_both_ways(tmp_path, qrels, _lines("f Q0 d2 1 2 r", "f Q0 d1 2 1 r"), flags=())
    assert taken
    assert "bpref                 \tall\t0.0000\n" in output


def test_grades_spanning_more_than_int64_do_not_crash(tmp_path: Path) -> None:
    qrels = _lines("q1 0 a 9223372036854775807", "q1 0 b -9223372036854775808", "q1 0 c 1")
    _same_both_ways(tmp_path, qrels, _run_with(["1", "2", "3"]), flags=())


@pytest.mark.parametrize(
    "flags",
    [
        (),
        ("-q",),
        ("-n",),
        ("-q", "-n"),
        ("-m", "official"),
        ("--format", "trec"),
        ("-q", "--format", "trec", "-m", "official"),
        ("-N", "0"),
        ("--missing", "skip"),
        ("-R", "qrels", "-T", "trec_results"),
    ],
)
def test_each_way_of_asking_for_the_default_output_prints_as_on_the_numpy_path(
    flags: tuple[str, ...], tmp_path: Path
) -> None:
    output, taken = _same_both_ways(tmp_path, *TAKEN["same-docs-across-queries"], flags=flags)
    assert taken
    assert ("\tq1\t" in output) == ("-q" in flags)
    assert ("\tall\t" in output) == ("-n" not in flags)
    if flags == ("-n",):
        assert output == ""  # no per-query rows asked for, and no summary


def test_official_twice_goes_to_the_numpy_path_and_prints_the_same(tmp_path: Path) -> None:
    once, taken = _same_both_ways(tmp_path, *TAKEN["many-queries"], flags=("-q",))
    twice, taken_twice = _same_both_ways(
        tmp_path, *TAKEN["many-queries"], flags=("-q", "-m", "official", "-m", "official")
    )
    assert taken and not taken_twice
    assert twice == once


def _exactly(size: int, line: str, last: str) -> bytes:
    """Lines ``line.format(i=i, q=i % 5)`` for i = 0, 1, ..., then ``last`` with its ``{pad}`` widened so that
    the whole is ``size`` bytes."""
    body = bytearray()
    i = 0
    while len(body) + 300 < size:
        body += line.format(i=i, q=i % 5).encode()
        i += 1
    body += last.format(pad="x" * (size - len(body) - len(last.format(pad="")))).encode()
    assert len(body) == size
    return bytes(body)


def test_files_exactly_at_the_size_limits_are_taken(tmp_path: Path) -> None:
    qrels = _lines(*(f"q{i % 5} 0 d{i} {i % 3 - 1}" for i in range(0, 3000, 7)))
    run = _exactly(SMALL_RUN_BYTES, "q{q} Q0 d{i} 1 0.5 r\n", "q1 Q0 pad{pad} 1 0 r\n")
    _, taken = _same_both_ways(tmp_path, qrels, run)
    assert taken
    (tmp_path / "run").write_bytes(run + b"\n")
    assert evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is None
    big_qrels = _exactly(SMALL_RUN_BYTES, "q{q} 0 d{i} 1\n", "q1 0 pad{pad} 0\n")
    _, taken = _same_both_ways(tmp_path, big_qrels, b"q1 Q0 d1 1 1 r\nq3 Q0 pad 1 1 r\n")
    assert taken
    (tmp_path / "qrels").write_bytes(big_qrels + b"\n")
    assert evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is None


@pytest.mark.parametrize(("sep", "end"), [(" ", "\n"), ("\t", "\r\n"), (" ", "\r")])
def test_files_the_numpy_path_reads_with_pyarrow_print_alike(sep: str, end: str, tmp_path: Path) -> None:
    # Past 256 KiB the numpy path reads with pyarrow (block by block for the run), which parses numbers itself.
    run = TAKEN["score-spellings"][1] + TAKEN["signed-zeros-tie"][1].replace(b"q1", b"q2")
    run += _run_with(["1e-45", "7.1e-46", "3.40282356e38", "1e309", "00.50", "+.5"]).replace(b"q1", b"q3")
    padding = "".join(f"z{i // 160} Q0 p{i} 1 {i % 13}.25 r\n" for i in range(16000))
    qrels = _QRELS + _QRELS.replace(b"q1", b"q2") + _QRELS.replace(b"q1", b"q3") + _lines("q1 0 g 007", "q2 0 h -0")
    qrels += "".join(f"y{i % 50} 0 p{i} {i % 3}\n" for i in range(20000)).encode()

    def laid_out(data: bytes) -> bytes:
        return data.replace(b" ", sep.encode()).replace(b"\n", end.encode())

    run, qrels = laid_out(run + padding.encode()), laid_out(qrels)
    assert len(run) > 1 << 18 and len(qrels) > 1 << 18
    _, taken = _same_both_ways(tmp_path, qrels, run)
    assert taken


def _pytrec_inputs(qrels: bytes, run: bytes) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    judged: dict[str, dict[str, int]] = {}
    for fields in map(bytes.split, qrels.splitlines()):
        if fields:
            judged.setdefault(fields[0].decode(), {})[fields[2].decode()] = int(fields[3])
    ranked: dict[str, dict[str, float]] = {}
    for fields in map(bytes.split, run.splitlines()):
        if fields:
            ranked.setdefault(fields[0].decode(), {})[fields[2].decode()] = float(fields[4])
    return judged, ranked


_PYTREC_MEASURES = {"map", "Rprec", "bpref", "recip_rank", "P", "num_ret", "num_rel", "num_rel_ret"}


@pytest.mark.parametrize("case", sorted(set(TAKEN) - {"18-digit-grades"}))  # pytrec_eval's grades are C ints
def test_awkward_plain_files_agree_with_pytrec_eval(case: str, tmp_path: Path) -> None:
    """Every official measure but iprec_at_recall (trec_eval 9 picks its levels otherwise, see the guide) and
    gm_map (summary only). Queries judged with negative grades only are left out:
    pytrec_eval crashes on them."""
    qrels, run = TAKEN[case]
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    small = evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run"))
    assert small is not None
    judged, ranked = _pytrec_inputs(qrels, run)
    kept = [q for q in small.query_ids if max(judged[q].values()) >= 0]
    evaluator = pytrec_eval.RelevanceEvaluator({q: judged[q] for q in kept}, _PYTREC_MEASURES)
    expected = evaluator.evaluate({q: ranked[q] for q in kept})
    assert kept
    for label, values in small.values.items():
        if label in ("num_q", "gm_map") or label.startswith("iprec"):
            continue
        for q, value in zip(small.query_ids, values, strict=True):
            if q in kept:
                assert value == pytest.approx(expected[q][label], abs=1e-12), (q, label)


QUERIES = st.sampled_from(["q1", "q2", "10", "9", "01", "q#", "Q1"])
DOCS = st.sampled_from(["a", "b", "c", "d", "e", "10", "9", "100", "#d", "D", "a#"])
SCORES = st.one_of(
    st.sampled_from(["1", "1.", ".5", "+.5", "-.5", "007", "-0", "+0", "0e3", "1E+00", "1.00000001", "-1e-46"]),
    st.sampled_from(["1e-45", "7.1e-46", "3.40282356e38", "1e309", "-1e309", "16777217", "16777216"]),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.3e}"),
    st.integers(-5, 5).map(str),
)
GRADES = st.one_of(st.integers(-2, 3).map(str), st.sampled_from(["+1", "-0", "007", "+0", "-01", "00"]))
SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t"])
ENDS = st.sampled_from(["\n", "\r\n", "\r", "\n\n", " \n", "\t\r\n", "\n \n"])


@st.composite
def plain_files(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """Judgments and a run the small path takes: distinct documents per query, plain numbers, ASCII."""
    sep, end = draw(SEPARATORS), draw(ENDS)
    qrels: list[str] = []
    run: list[str] = []
    for q in draw(st.lists(QUERIES, min_size=1, max_size=4, unique=True)):
        judged = draw(st.lists(DOCS, max_size=6, unique=True))
        qrels += [sep.join([q, "0", d, draw(GRADES)]) for d in judged]
        run += [
            sep.join([q, "Q0", d, "1", draw(SCORES), draw(st.sampled_from(["r", "R#", "1"]))])
            + draw(st.sampled_from(["", sep + "more words", sep + "#"]))  # words after the sixth field
            for d in draw(st.lists(DOCS, max_size=8, unique=True))
        ]
    qrels_order = draw(st.permutations(qrels))
    run_order = draw(st.permutations(run))
    last = draw(st.sampled_from(["", end]))
    lead = draw(st.sampled_from(["", "\n", " \n", "\t\r\n"]))
    qrels_text = end.join(qrels_order) + last
    run_text = lead + end.join(run_order) + last
    return qrels_text.encode("ascii"), run_text.encode("ascii")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plain_files(),
    st.sampled_from([(), ("-q",), ("-q", "-n"), ("-n",)]),
    st.sampled_from([(), ("-c",), ("-l", "2"), ("-M", "3"), ("-J",), ("--missing", "zero"), ("-c", "-J", "-M", "4")]),
)
def test_generated_plain_files_print_as_on_the_numpy_path(
    files: tuple[bytes, bytes], flags: tuple[str, ...], trec_flags: tuple[str, ...]
) -> None:
    qrels, run = files
    with tempfile.TemporaryDirectory() as folder:
        _, taken = _same_both_ways(Path(folder), qrels, run, flags=flags + trec_flags)
    # Every generated file is plain: the small path takes it unless no query of the run is judged.
    assert taken == bool(_queries(qrels) & _queries(run))


def _queries(data: bytes) -> set[bytes]:
    return {line.split()[0] for line in data.splitlines() if line.split()}
