"""The pyarrow reading and evaluation path agrees with the plain one on awkward runs.

The pyarrow path keeps one document ID per run row and compares IDs through 64-bit hashes (confirmed on the
IDs), orders rows query by query when each query's rows are contiguous, and reads files in several blocks.
These tests give both paths the same files and require identical per-query values and errors.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragrecall.errors import InputError
from ragrecall.ranking import _arrow_read, _build, _hashed, _judged, _vocab, evaluate_run, read_qrels, read_run, trec_io

pytest.importorskip("pyarrow")

MEASURES = ["Recall@10", "Recall@100", "P@5", "RR@10", "AP", "nDCG@10", "nDCG", "Rprec", "ERR@20", "Success@3"]


def _doc_name(rng: random.Random, i: int) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return f"d{i}"  # short
    if kind == 1:
        return f"clueweb12-{i:04d}tw-00-{i % 97:05d}"  # long, shared prefix and suffix patterns
    if kind == 2:
        return f"é文{i}"  # multi-byte UTF-8
    return f"{i:016d}"  # exactly two 8-byte words


def _write(tmp_path: Path, layout: str, seed: int, depth: int | None = 30) -> tuple[Path, Path]:
    rng = random.Random(seed)
    queries = [str(q) for q in rng.sample(range(1, 400), 25)]  # numeric IDs: file order is not byte order
    pool = [_doc_name(rng, i) for i in range(300)]
    rows: list[tuple[str, str, float]] = []
    for q in queries:
        n = depth if depth is not None else rng.randrange(1, 60)
        docs = rng.sample(pool, n)
        # coarse scores: many ties, some negative, some -0.0 and 0.0
        scores = [
            rng.choice([-0.0, 0.0, 1.0, 1.5, -2.25]) if rng.random() < 0.3 else round(rng.gauss(5, 3), 1) for _ in docs
        ]
        block = list(zip([q] * n, docs, scores, strict=True))
        if layout != "unsorted":
            block.sort(key=lambda r: -r[2])
        rows.extend(block)
    if layout == "interleaved":
        rng.shuffle(rows)
    run = tmp_path / f"run-{layout}-{seed}"
    run.write_text("".join(f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in enumerate(rows)), encoding="utf-8")
    lines = []
    for q in [*queries[:-3], "999"]:  # three run queries unjudged, one judged query not run
        for d in rng.sample(pool, 12):
            lines.append(f"{q} 0 {d} {rng.choice([0, 1, 1, 2, 3, -1])}\n")
    qrels = tmp_path / f"qrels-{seed}"
    qrels.write_text("".join(lines), encoding="utf-8")
    return qrels, run


def _both(qrels: Path, run: Path, **kwargs: Any) -> tuple[Any, Any]:
    fast_run = read_run(run, engine="arrow")
    assert not fast_run.distinct_doc_codes
    fast = evaluate_run(read_qrels(qrels, engine="arrow"), fast_run, MEASURES, per_query=True, **kwargs)
    plain = evaluate_run(
        read_qrels(qrels, engine="plain"), read_run(run, engine="plain"), MEASURES, per_query=True, **kwargs
    )
    return fast, plain


@pytest.fixture(params=[(1 << 20, 1 << 24), (256, 256)], ids=["one-block", "many-blocks"])
def blocks(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_arrow_read, "_BLOCK_SIZE", request.param)


@pytest.mark.usefixtures("blocks")
@pytest.mark.parametrize("layout", ["sorted", "unsorted", "interleaved"])
@pytest.mark.parametrize("depth", [30, None], ids=["fixed-depth", "varying-depth"])
@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_arrow_path_agrees_with_plain_path(tmp_path: Path, layout: str, depth: int | None, missing: str) -> None:
    qrels, run = _write(tmp_path, layout, seed=7, depth=depth)
    fast, plain = _both(qrels, run, missing=missing)
    assert fast.query_ids == plain.query_ids
    assert fast.per_query == plain.per_query
    scanned = evaluate_run(qrels, run, MEASURES, per_query=True, missing=missing)  # type: ignore[arg-type]
    assert scanned.per_query == plain.per_query
    assert fast.n_missing == plain.n_missing
    pytrec_eval = pytest.importorskip("pytrec_eval")
    with qrels.open() as q, run.open() as r:
        reference = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(q), {"map", "ndcg", "P.5"}).evaluate(
            pytrec_eval.parse_run(r)
        )
    for query, values in reference.items():
        assert fast.per_query is not None
        assert fast.per_query[query]["AP"] == pytest.approx(values["map"], abs=1e-9)
        assert fast.per_query[query]["nDCG"] == pytest.approx(values["ndcg"], abs=1e-9)
        assert fast.per_query[query]["P@5"] == pytest.approx(values["P_5"], abs=1e-9)


def test_hash_collisions_are_confirmed_on_the_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every ID hashes alike: the join falls back to comparing IDs, and every pair is a suspect repeat.
    def same_key(values: Any) -> Any:
        return np.zeros(len(values), dtype=np.uint64)

    monkeypatch.setattr(_vocab, "string_keys", same_key)
    for layout in ("sorted", "interleaved"):
        qrels, run = _write(tmp_path, layout, seed=3)
        fast, plain = _both(qrels, run)
        assert fast.per_query == plain.per_query
        assert evaluate_run(qrels, run, MEASURES, per_query=True).per_query == plain.per_query


def test_a_repeat_apart_among_colliding_hashes_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 'a' twice with 'b' between them, all three hashing alike: the copies are not neighbours once sorted.
    monkeypatch.setattr(_vocab, "string_keys", lambda values: np.zeros(len(values), dtype=np.uint64))
    (tmp_path / "q").write_text("1 0 a 1\n", encoding="utf-8")
    (tmp_path / "r").write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 a 3 1 t\n", encoding="utf-8")
    for run in (tmp_path / "r", read_run(tmp_path / "r", engine="arrow")):
        with pytest.raises(InputError, match="document 'a' twice for query '1'"):
            evaluate_run(tmp_path / "q", run, ["AP"])


@pytest.mark.parametrize("layout", ["sorted", "interleaved"])
@pytest.mark.parametrize("depth", [30, None], ids=["fixed-depth", "varying-depth"])
def test_repeated_document_is_found_on_the_arrow_path(tmp_path: Path, layout: str, depth: int | None) -> None:
    qrels, run = _write(tmp_path, layout, seed=11, depth=depth)
    lines = run.read_text(encoding="utf-8").splitlines(keepends=True)
    query, _, doc = lines[5].split()[:3]
    lines.insert(len(lines) // 2, f"{query} Q0 {doc} 0 -7.5 tag\n")
    run.write_text("".join(lines), encoding="utf-8")
    for engine in ("arrow", "plain"):
        with pytest.raises(InputError, match=f"document {doc!r} twice for query {query!r}"):
            evaluate_run(read_qrels(qrels), read_run(run, engine=engine), ["AP"])  # type: ignore[arg-type]


def test_string_keys_equal_exactly_for_equal_strings() -> None:
    pa = pytest.importorskip("pyarrow")
    long = "".join(chr(97 + i % 26) for i in range(300))  # past the words hashed one by one
    swapped = long[:100] + long[108:116] + long[100:108] + long[116:]  # two tail words swapped
    words = ["", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\x00", "é", "x" * 40, "x" * 41, "y" + "x" * 40]
    words += [long, long + "z", long[:-1] + "Z", swapped, "x" * 64, "x" * 65, "x" * 72, "x" * 73]
    array = pa.chunked_array([pa.array(words[:4]), pa.array(words[4:] + words)])
    keys = _vocab.string_keys(array)
    assert len(set(keys[: len(words)].tolist())) == len(words)
    assert keys[: len(words)].tolist() == keys[len(words) :].tolist()


def test_string_keys_same_whether_looked_up_by_length_or_computed_per_row() -> None:
    pa = pytest.importorskip("pyarrow")
    words = ["", "a", "abcdefgh", "abcdefghi", "é", "x" * 41, "D7485493"]
    damaged = "z" * (_vocab._LENGTH_TABLE + 1)  # a string this long makes its slice hash per row
    by_table = _vocab.string_keys(pa.array(words))
    per_row = _vocab.string_keys(pa.array([*words, damaged]))
    assert by_table.tolist() == per_row[: len(words)].tolist()
    assert len(set(per_row.tolist())) == len(words) + 1


def test_arrow_take_across_chunks_keeps_the_order() -> None:
    pa = pytest.importorskip("pyarrow")
    array = pa.chunked_array([pa.array(["a", "b"]), pa.array([], type=pa.string()), pa.array(["c", "d", "e"])])
    rows = np.array([4, 0, 2, 2, 1, 3])
    assert _vocab.arrow_take(array, rows).to_pylist() == ["e", "a", "c", "c", "b", "d"]


def test_runs_read_by_either_engine_write_and_convert_alike(tmp_path: Path) -> None:
    _, run = _write(tmp_path, "interleaved", seed=5, depth=None)
    fast, plain = read_run(run, engine="arrow"), read_run(run, engine="plain")
    assert fast.to_dict() == plain.to_dict()
    fast_out, plain_out = tmp_path / "fast", tmp_path / "plain"
    trec_io.write_run(fast, fast_out)
    trec_io.write_run(plain, plain_out)
    assert fast_out.read_text(encoding="utf-8") == plain_out.read_text(encoding="utf-8")


def test_arrow_strings_match_python_strings() -> None:
    pytest.importorskip("pyarrow")
    words = ["", "a", "é文", "x" * 100, "tab\there"]
    assert _vocab.arrow_strings(words).to_pylist() == words
    assert _vocab.arrow_strings([]).to_pylist() == []


def test_equal_hashes_are_confirmed_row_by_row(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text("1 Q0 a 1 1 t\n1 Q0 bb 2 0.5 t\n1 Q0 c 3 0.2 t\n", encoding="utf-8")
    run = read_run(path, engine="arrow")
    same = _hashed.same_ids(run.doc_vocab, _vocab.arrow_strings(["a", "b", "c"]))
    assert same.tolist() == [True, False, True]


@pytest.mark.parametrize("layout", ["sorted", "unsorted", "interleaved"])
@pytest.mark.parametrize("engine", ["arrow", "plain"])
def test_runs_in_memory_ranked_in_slices_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str, engine: str
) -> None:
    qrels, run_path = _write(tmp_path, layout, seed=13, depth=None)
    run = read_run(run_path, engine=engine)  # type: ignore[arg-type]
    whole = evaluate_run(read_qrels(qrels), run, MEASURES, per_query=True, missing="zero")
    monkeypatch.setattr(_build, "_SLICE_ROWS", 17)
    sliced = evaluate_run(read_qrels(qrels), run, MEASURES, per_query=True, missing="zero")
    assert sliced.per_query == whole.per_query
    assert sliced.n_missing == whole.n_missing
    if layout != "interleaved":
        assert len(_build.rank_slices(_judged.prepare_judged(read_qrels(qrels)), run)) > 10
