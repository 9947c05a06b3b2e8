"""The fast (pyarrow) and plain readers accept and refuse the same files and read the same tables.

Generated files mix the awkward cases: a byte-order mark, CRLF and lone CR line ends, non-breaking spaces and
other odd characters inside IDs, tabs, runs of separators, trailing extra fields, blank lines, scores in
scientific notation or spelled ``inf``, scores and grades that must be refused, gzip.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import struct
import tempfile
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragrecall.errors import FileFormatError, InputError
from ragrecall.ranking import Qrels, _plain_read, evaluate_run, read_qrels, read_run
from ragrecall.ranking._arrow_read import Layout, NotForArrow, parse_block, read_arrow
from ragrecall.ranking._source import open_input
from ragrecall.ranking._vocab import take

pytest.importorskip("pyarrow")

ID_CHARS = st.sampled_from(
    [
        "a",
        "B",
        "7",
        "-",
        ".",
        "_",
        "#",
        "é",
        "\u00a0",
        "\ufeff",
        "\x0b",
        "\x0c",
        "\x1c",
        "\x85",
        "\u2028",
        "語",
        '"',
        "'",
    ]
)
IDS = st.text(ID_CHARS, min_size=1, max_size=6)
GOOD_SCORES = st.one_of(
    st.floats(allow_nan=False, width=64).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:e}"),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:E}"),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from([".5", "5.", "+1.5", "-0", "inf", "-Infinity", "+INF", "1e400", "-1e-400", "1.5e-320", "007"]),
)
BAD_SCORES = st.sampled_from(["nan", "NaN", "1_0", "0x1p3", "1.5f", "", "١٢", "e5", "1e", "+"])
GOOD_GRADES = st.one_of(st.integers(-3, 4).map(str), st.sampled_from(["+1", "01", "-0"]))
BAD_GRADES = st.sampled_from(["1.0", "1_0", "٣", "x", "9223372036854775808"])
SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t", "\t\t"])
ENDS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def files(draw: st.DrawFn, kind: str) -> bytes:
    """A TREC file of ``kind``, mostly regular (single spaces or single tabs throughout), sometimes not."""
    regular = draw(st.booleans())
    sep = draw(st.sampled_from([" ", "\t"]))
    end = draw(ENDS) if draw(st.booleans()) else "\n"
    extras = draw(st.integers(0, 2)) if kind == "run" else 0
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        if kind == "run":
            score = draw(BAD_SCORES if draw(st.integers(0, 40)) == 0 else GOOD_SCORES)
            fields = [draw(IDS), "Q0", draw(IDS), str(draw(st.integers(0, 99))), score, "tag"]
            fields += ["x"] * (extras if regular else draw(st.integers(0, 2)))
        else:
            grade = draw(BAD_GRADES if draw(st.integers(0, 40)) == 0 else GOOD_GRADES)
            fields = [draw(IDS), "0", draw(IDS), grade]
        if draw(st.integers(0, 40)) == 0:
            fields = fields[: draw(st.integers(1, len(fields)))]  # too few fields
        line = sep.join(fields) if regular else "".join(f + draw(SEPARATORS) for f in fields).rstrip(" \t")
        if not regular and draw(st.booleans()):
            line = draw(SEPARATORS) + line + draw(SEPARATORS)
        lines.append(line + (end if regular else draw(ENDS)))
        if draw(st.integers(0, 6)) == 0:
            lines.append(end if regular else draw(st.sampled_from(["\n", "\r\n", " \n", "\t\n"])))
    text = "".join(lines)
    if draw(st.integers(0, 4)) == 0:
        text = "\ufeff" + text
    if text and draw(st.booleans()):
        text = text.rstrip("\r\n")  # no end to the last line
    data = text.encode("utf-8")
    return gzip.compress(data) if draw(st.integers(0, 4)) == 0 else data


def _rows(table: Any) -> list[tuple[str, str, Any]]:
    queries = take(table.query_vocab, table.query_codes)
    docs = take(table.doc_vocab, table.doc_codes)
    values = table.scores.tolist() if hasattr(table, "scores") else table.grades.tolist()
    exact = [struct.pack("<d", v) if isinstance(v, float) else v for v in values]  # -0.0 is not 0.0 here
    return list(zip(queries, docs, exact, strict=True))


def _outcome(read: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", _rows(read())
    except FileFormatError as exc:
        return "refused", exc.line


def _check(data: bytes, kind: str) -> None:
    reader = read_run if kind == "run" else read_qrels
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "file")
        with open(path, "wb") as out:
            out.write(data)
        plain = _outcome(lambda: reader(path, engine="plain"))  # type: ignore[operator]
        fast = _outcome(lambda: reader(path, engine="arrow"))  # type: ignore[operator]
        assert fast == plain
        with mock.patch.object(_plain_read, "_CHUNK", 7):  # chunks of a line or two: every boundary case
            assert _outcome(lambda: reader(path, engine="plain")) == plain  # type: ignore[operator]
        assert (plain[0], plain[1] if plain[0] == "ok" else None) == _reference(data, kind)
        direct = read_arrow(open_input(path), kind, 2)  # what pyarrow takes, it reads as the plain reader does
        if direct is not None:
            assert ("ok", _rows(direct)) == plain


def _reference(data: bytes, kind: str) -> tuple[str, Any]:
    """The reading rules of :mod:`ragrecall.ranking.trec_io`, written as plainly as they are stated."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    rows = []
    for line in data.removeprefix(b"\xef\xbb\xbf").splitlines():  # LF, CRLF, lone CR
        fields = [f for f in line.replace(b"\t", b" ").split(b" ") if f]
        if not fields or (kind == "qrels" and fields[0].startswith(b"#")):  # blank, or a comment of judgments
            continue
        if len(fields) < (6 if kind == "run" else 4) or (kind == "qrels" and len(fields) > 4):
            return "refused", None
        try:
            query, doc = fields[0].decode("utf-8"), fields[2].decode("utf-8")
            text = fields[4 if kind == "run" else 3]
            if b"_" in text:
                raise ValueError(text)
            if kind == "run":
                value: Any = float(text)
                if math.isnan(value):
                    raise ValueError(text)
                value = struct.pack("<d", value)
            else:
                value = int(text)
                if not -(2**63) <= value < 2**63:
                    raise ValueError(text)
        except ValueError:  # UnicodeDecodeError too
            return "refused", None
        rows.append((query, doc, value))
    return "ok", rows


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files("run"))
def test_both_readers_read_runs_alike(data: bytes) -> None:
    _check(data, "run")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files("qrels"))
def test_both_readers_read_qrels_alike(data: bytes) -> None:
    _check(data, "qrels")


@st.composite
def valid_runs(draw: st.DrawFn) -> tuple[bytes, dict[str, dict[str, int]]]:
    """A valid run (distinct documents per query, queries together) and judgments for some of its queries."""
    sep = draw(st.sampled_from([" ", "\t"]))
    end = draw(ENDS)
    queries = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    lines, qrels = [], {}
    for q in queries:
        docs = draw(st.lists(IDS, min_size=1, max_size=8, unique=True))
        for d in docs:
            score = draw(st.one_of(GOOD_SCORES, st.sampled_from(["1", "1.0", "1e0"])))  # ties too
            lines.append(sep.join([q, "Q0", d, "1", score, "t", *["x"] * draw(st.integers(0, 1))]) + end)
        qrels[q] = {d: draw(st.integers(0, 2)) for d in draw(st.lists(st.sampled_from(docs), unique=True))}
    qrels[queries[0]]["unretrieved"] = 1
    prefix = "\ufeff" if draw(st.booleans()) else ""
    return (prefix + "".join(lines)).encode("utf-8"), qrels


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_runs())
def test_the_block_path_evaluates_as_the_plain_reader_reads(case: tuple[bytes, dict[str, dict[str, int]]]) -> None:
    data, qrels = case
    measures = ["AP", "nDCG@5", "P@3", "RR", "Recall@4"]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "run")
        with open(path, "wb") as out:
            out.write(data)
        try:
            whole = evaluate_run(Qrels.from_dict(qrels), read_run(path, engine="plain"), measures, per_query=True)
        except InputError as exc:  # e.g. two IDs equal once a byte-order mark is dropped: both must refuse
            with pytest.raises(type(exc)):
                evaluate_run(Qrels.from_dict(qrels), path, measures)
            return
        scanned = evaluate_run(Qrels.from_dict(qrels), path, measures, per_query=True, threads=2)
    assert scanned.query_ids == whole.query_ids
    for q in whole.query_ids:
        for m in measures:
            a, b = scanned.per_query[q][m], whole.per_query[q][m]  # type: ignore[index]
            assert a == b or (math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("engine", ["plain", "arrow"])
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xef\xbb\xbf1 Q0 a 1 2 t\n", {"1": {"a": 2.0}}),  # a byte-order mark at the start is dropped
        (b"1 Q0 a 1 2 t\n\xef\xbb\xbf1 Q0 a 2 1 t\n", {"1": {"a": 2.0}, "\ufeff1": {"a": 1.0}}),  # elsewhere kept
        (b"1 Q0 a 1 2 t\r1 Q0 b 2 1 t\r", {"1": {"a": 2.0, "b": 1.0}}),  # lone CR ends a line
        (b"1 Q0 a 1 2 t\r\n2 Q0 b 1 1 t\r\n", {"1": {"a": 2.0}, "2": {"b": 1.0}}),
        ("q\u00a01 Q0 d\u00a0x 1 2 t\n".encode(), {"q\u00a01": {"d\u00a0x": 2.0}}),  # NBSP is part of the ID
        (b"1 Q0 a 1 2 t extra fields\n1 Q0 b 2 1 t x y\n", {"1": {"a": 2.0, "b": 1.0}}),  # as trec_eval
        (b"1\tQ0\ta\t1\t1e-3\tt\n1\tQ0\tb\t2\t-2.5E+2\tt\n", {"1": {"a": 0.001, "b": -250.0}}),
        (b"1 Q0 a 1 -Infinity t\n1 Q0 b 2 .5 t\n1 Q0 c 3 1e400 t\n", {"1": {"a": -math.inf, "b": 0.5, "c": math.inf}}),
        (b"1  Q0\t a 1 2 t \n", {"1": {"a": 2.0}}),  # runs of spaces and tabs: the plain reader
        (b"1 \xff a 1 2 \xfe\n", {"1": {"a": 2.0}}),  # fields other than the IDs may hold any bytes
    ],
)
def test_awkward_runs_read_alike(data: bytes, expected: dict[str, dict[str, float]], engine: str) -> None:
    assert read_run(io.BytesIO(data), engine=engine).to_dict() == expected  # type: ignore[arg-type]
    _check(data, "run")


@pytest.mark.parametrize(
    ("data", "kind", "fragment"),
    [
        (b"1 Q0 a 1 1_0 t\n", "run", "score '1_0' is not a number"),
        ("1 Q0 a 1 \u0661 t\n".encode(), "run", "is not a number"),  # other scripts' digits are refused
        (b"1 Q0 a 1 nan t\n", "run", "score is NaN"),
        (b"1 Q0 a 1 0x1p3 t\n", "run", "is not a number"),
        (b"1 0 a 1 extra\n", "qrels", "expected 4 fields"),
        (b"1 0 a 1_0\n", "qrels", "grade '1_0' is not an integer"),
        (b"1 0 a 9223372036854775808\n", "qrels", "does not fit in 64 bits"),
        (b"1 Q0 \xff 1 1 t\n", "run", "not valid UTF-8"),
        # a separator ending a line leaves its last field empty: 5 fields, wherever the line ends
        (b"1 Q0 a 1 2 t\n1 Q0 b 2 1 \n", "run", "got 5"),
        (b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 \r\n", "run", "got 5"),
        (b"1 Q0 a 1 2 t\r1 Q0 b 2 1 \r1 Q0 c 3 0 t\r", "run", "got 5"),
        (b"1 Q0 a 1 2 t\n1 Q0 b 2 1 ", "run", "got 5"),
    ],
)
def test_both_readers_refuse_alike(data: bytes, kind: str, fragment: str) -> None:
    reader = read_run if kind == "run" else read_qrels
    for engine in ("plain", "arrow"):
        with pytest.raises(FileFormatError, match=fragment):
            reader(io.BytesIO(data), engine=engine)  # type: ignore[operator]
    _check(data, kind)


@pytest.mark.parametrize(
    "block",
    [
        b"1 Q0 a 1 2 t\n1 Q0 b 2 1 \n",  # a separator before a line feed
        b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1 \r\n",  # before a carriage return
        b"1 Q0 a 1 2 t\n1 Q0 b 2 1 ",  # at the end of the block
        b"1 Q0 a 1 2 t\n1 Q0 b 2 1 \n\n\n",  # before blank lines ending the block
        b"1 Q0 a 1 2 t\n1 Q0  b 2 1 t\n",  # two in a row
        b"1 Q0 a 1 2 t\n Q0 b 2 1 t\n",  # at the start of a line: an empty query
    ],
)
def test_the_block_parser_hands_lines_with_an_empty_field_to_the_plain_reader(block: bytes) -> None:
    with pytest.raises(NotForArrow):
        parse_block(bytearray(block), "run", Layout(" ", 6))


def test_the_block_parser_converts_the_ids_and_the_score_only() -> None:
    table = parse_block(bytearray(b"1 Q0 a 1 2 t\r\n1 Q0 b 2 1.5 t\r\n"), "run", Layout(" ", 6))
    assert table.column_names == ["query", "doc", "score"]
    assert table.column("doc").to_pylist() == ["a", "b"]
    assert table.column("score").to_pylist() == [2.0, 1.5]


def test_the_first_fault_in_the_file_is_the_one_reported() -> None:
    data = b"1 Q0 a 1 1 t\n1 Q0 \xff 2 1 t\n1 Q0 c 3 x t\n"
    for chunk in (7, 1 << 23):
        with mock.patch.object(_plain_read, "_CHUNK", chunk), pytest.raises(FileFormatError, match="UTF-8") as info:
            read_run(io.BytesIO(data), engine="plain")
        assert info.value.line == 2


def test_comment_lines_of_judgments_are_skipped_by_both_readers_as_trec_eval_does() -> None:
    data = b"# a comment\n1 0 a#1 1\n  # another, indented, with four words\n1 0 b 0\n"
    for engine in ("plain", "arrow"):
        assert read_qrels(io.BytesIO(data), engine=engine).to_dict() == {"1": {"a#1": 1, "b": 0}}  # type: ignore[arg-type]
    with pytest.raises(FileFormatError, match="score 'in' is not a number"):  # runs have no comments
        read_run(io.BytesIO(b"# not a comment in a run\n"), engine="plain")
    _check(data, "qrels")


def test_a_plus_sign_on_a_grade_is_read() -> None:
    assert read_qrels(io.BytesIO(b"1 0 a +1\n"), engine="arrow").to_dict() == {"1": {"a": 1}}
