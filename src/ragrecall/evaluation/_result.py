"""The outcome of an evaluation run: per-sample rows, failures, per-metric aggregates, usage and exports."""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any

from .._extras import need
from .._files import atomic_text
from ..dataset import EvaluationDataset, flat_records, metadata_columns, open_text, text_lines
from ..results import Evidence, MetricResult
from ..usage import Usage
from ._cost_views import CostViews
from ._result_lines import SeenRows, read_result_line, row_json
from ._rows import FailureRecord, MetricSummary, SampleRow, UnstableClaim, mean_agreement, summed_counts
from ._run_info import RunInfo
from ._stats import bootstrap_ci

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EvaluationResult"]

PathLike = str | os.PathLike[str]


class EvaluationResult(CostViews):
    """Everything an evaluation produced, in input order."""

    def __init__(
        self,
        rows: Sequence[SampleRow],
        metrics: Sequence[str],
        *,
        wall_time_s: float = 0.0,
        run: RunInfo | None = None,
        backend: str = "live",
    ) -> None:
        self.rows: tuple[SampleRow, ...] = tuple(rows)
        self.metrics: tuple[str, ...] = tuple(metrics)
        self.wall_time_s = wall_time_s
        self.run = run
        """When, with which version and which metric settings the run was made; None when not recorded."""
        self.backend = backend
        """Which backend ran the LLM requests: ``"live"`` or ``"batch"``."""

    @property
    def partial(self) -> str | None:
        """Why the run stopped before every sample finished (see :attr:`RunInfo.partial`); None when it finished."""
        return self.run.partial if self.run is not None else None

    # -- views ------------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[SampleRow]:
        return iter(self.rows)

    def __getitem__(self, metric: str) -> list[float]:
        """Every sample's value for ``metric`` as a float, NaN where not scored, in input order — what Ragas's
        ``result["context_recall"]`` gives. :meth:`results` keeps the reason and the evidence."""
        if not isinstance(metric, str):
            raise TypeError(f"index a result by metric name, e.g. result[{self.metrics[0]!r}]; for rows use .rows")
        return [math.nan if v is None else float(v) for v in self.values(metric)]

    def results(self, metric: str) -> list[MetricResult]:
        """Every sample's result for ``metric``, in input order."""
        self._check_metric(metric)
        return [row.results[metric] for row in self.rows]

    def values(self, metric: str) -> list[float | None]:
        """Every sample's value for ``metric`` (None where not scored), in input order."""
        return [r.value for r in self.results(metric)]

    @cached_property
    def failures(self) -> list[FailureRecord]:
        """The failed sample-metric pairs, in input order."""
        return [
            FailureRecord(
                index=row.index,
                sample_id=row.sample_id,
                metric=name,
                type=result.failure.type,
                message=result.failure.message,
            )
            for row in self.rows
            for name, result in row.results.items()
            if result.failure is not None
        ]

    @cached_property
    def summary(self) -> dict[str, MetricSummary]:
        """Per-metric aggregates, in metric order."""
        out: dict[str, MetricSummary] = {}
        for name in self.metrics:
            results = self.results(name)
            values = [r.value for r in results if r.value is not None]
            ci = bootstrap_ci(values)
            out[name] = MetricSummary(
                metric=name,
                mean=math.fsum(values) / len(values) if values else None,
                scored=len(values),
                unscorable=sum(r.status == "unscorable" for r in results),
                failed=sum(r.status == "failed" for r in results),
                ci_low=ci[0] if ci else None,
                ci_high=ci[1] if ci else None,
                usage=Usage.total([r.usage for r in results]),
                counts=summed_counts(results),
                agreement=mean_agreement(results),
                evidence_kind=next((r.evidence.kind for r in results if r.evidence is not None), None),
            )
        return out

    def unstable_claims(self, metric: str | None = None) -> list[UnstableClaim]:
        """The claims whose repeated judgements disagreed, in input order (of ``metric``, or of every metric)."""
        if metric is not None:
            self._check_metric(metric)
        return [
            UnstableClaim(index=row.index, sample_id=row.sample_id, metric=name, claim=c.claim, votes=c.votes)
            for row in self.rows
            for name, result in row.results.items()
            if metric in (None, name)
            for c in getattr(result.evidence, "unstable_claims", ())
        ]

    @property
    def usage(self) -> Usage:
        """Tokens and cost summed over every result."""
        return Usage.total([s.usage for s in self.summary.values()])

    # -- exports ----------------------------------------------------------------------------------------

    def to_jsonl(self, target: PathLike | IO[str]) -> None:
        """One JSON object per sample: ``{"index", "sample_id", "results": {metric: result}, "sample"}``; the
        first also carries ``"run"`` (see :class:`RunInfo`) when the run's details are known, so that every
        line stays one sample's row for whoever reads the file line by line.

        A path is written atomically (a temporary file renamed over it): it holds the old content or the
        whole new one, never part of it; a path ending in ``.gz`` is compressed."""
        run = None if self.run is None else self.run.model_dump_json()

        def lines() -> Iterator[str]:
            for i, row in enumerate(self.rows):
                text = row_json(row)
                if i == 0 and run is not None:
                    text = f'{text[:-1]},"run":{run}}}'  # one more key in the row's object
                yield text + "\n"

        if isinstance(target, (str, os.PathLike)):
            with atomic_text(target) as out:
                out.writelines(lines())
        else:
            target.writelines(lines())

    @classmethod
    def from_jsonl(cls, source: PathLike | IO[str]) -> EvaluationResult:
        """Read back what :meth:`to_jsonl` wrote (files from before runs recorded their details read with
        ``run=None``).

        Raises:
            FileFormatError: a line is not a result row, a sample is recorded on two lines (naming both), or the
                file holds no row."""
        name, handle = open_text(source)
        rows: list[SampleRow] = []
        metrics: dict[str, None] = {}
        run: RunInfo | None = None
        seen = SeenRows(name)
        try:
            for line_no, line in enumerate(text_lines(handle, name), start=1):
                if not line.strip():
                    continue
                row, first_run = read_result_line(line, name, line_no, first=not rows)
                seen.add(row, line_no)
                run = first_run if not rows else run
                rows.append(row)
                metrics.update(dict.fromkeys(row.results))
        finally:
            if handle is not source:
                handle.close()
        seen.check_some()
        wall_time_s = run.wall_time_s if run else 0.0
        return cls(rows, list(metrics), wall_time_s=wall_time_s, run=run, backend=run.backend if run else "live")

    @cached_property
    def metadata_columns(self) -> dict[str, str]:
        """The samples' metadata keys (in order of first appearance) → the column that holds them in
        :meth:`to_records`: the key itself, or ``metadata.<key>`` when a field or a column of results has
        that name."""
        return metadata_columns((row.sample for row in self.rows), self._result_columns())

    def _result_columns(self) -> list[str]:
        return ["index", "sample_id"] + [
            column for n in self.metrics for column in (n, f"{n}:status", f"{n}:detail", *self._evidence_columns[n])
        ]

    @cached_property
    def _evidence_columns(self) -> dict[str, list[str]]:
        """Per metric, the columns its evidence exports (``<metric>:<key>``, see ``Evidence.columns``), in order
        of first appearance."""
        keys: dict[str, dict[str, None]] = {n: {} for n in self.metrics}
        for row in self.rows:
            for name, result in row.results.items():
                if name in keys and isinstance(result.evidence, Evidence):
                    keys[name].update(dict.fromkeys(result.evidence.columns()))
        return {n: [f"{n}:{key}" for key in found] for n, found in keys.items()}

    def to_records(self) -> list[dict[str, Any]]:
        """Flat rows: index, sample_id, one column per metadata key (see :attr:`metadata_columns`), and per
        metric its value, status, detail (reason or failure) and the columns its evidence exports
        (``<metric>:<key>``, see ``Evidence.columns``; None where a sample's evidence has no such key)."""
        records = []
        for row in self.rows:
            record: dict[str, Any] = {"index": row.index, "sample_id": row.sample_id}
            metadata = row.sample.metadata if row.sample is not None else {}
            for key, column in self.metadata_columns.items():
                record[column] = metadata.get(key)
            for name in self.metrics:
                result = row.results.get(name)
                record[name] = result.value if result else None
                record[f"{name}:status"] = result.status if result else None
                record[f"{name}:detail"] = _detail(result)
                if self._evidence_columns[name]:
                    exported = result.evidence.columns() if result and isinstance(result.evidence, Evidence) else {}
                    for column in self._evidence_columns[name]:
                        record[column] = exported.get(column[len(name) + 1 :])
            records.append(record)
        return records

    def to_csv(self, target: PathLike | IO[str]) -> None:
        """Write :meth:`to_records` as CSV with a header row; a path is written atomically (see
        :meth:`to_jsonl`)."""
        fields = self._result_columns()
        fields[2:2] = self.metadata_columns.values()
        records = [{k: _csv_cell(v) for k, v in r.items()} for r in self.to_records()]
        if isinstance(target, (str, os.PathLike)):
            with atomic_text(target, newline="") as out:
                _write_csv(out, fields, records)
        else:
            _write_csv(target, fields, records)

    def to_pandas(
        self, batch_size: int | None = None, batched: bool = False, *, inputs: bool = True, details: bool = False
    ) -> pd.DataFrame:
        """A DataFrame laid out as Ragas's ``to_pandas``: each sample's input fields (those some sample has, in
        Ragas's order: ``user_input``, ``retrieved_contexts``, ..., ``response``, ``reference``), its metadata
        keys as columns of their own (see :attr:`metadata_columns`), then one column of values per metric (NaN
        where not scored), each followed by the columns its evidence exports (see :meth:`to_records`). Requires
        pandas.

        ``details=True`` adds ``index`` and ``sample_id`` in front and, after each metric, its ``:status`` and
        ``:detail`` (the reason or the failure); ``inputs=False`` leaves the inputs and metadata out.
        ``batch_size`` and ``batched`` are accepted for Ragas's signature and change nothing.
        """
        pandas = need("pandas", "pandas", "to_pandas()")
        scores = self.to_records()
        columns = ["index", "sample_id"] if details else []
        rows: list[dict[str, Any]] = [dict(r) for r in scores]
        if inputs:
            fields, field_columns = flat_records([row.sample for row in self.rows], self._result_columns())
            columns += field_columns
            for row, found in zip(rows, fields, strict=True):
                row.update(found)
        for name in self.metrics:
            columns += [f"{name}{suffix}" for suffix in (":status", ":detail")] if details else []
            columns.insert(len(columns) - (2 if details else 0), name)
            columns += self._evidence_columns[name]
        for row in rows:
            for name in self.metrics:
                row[name] = math.nan if row.get(name) is None else float(row[name])
        frame: pd.DataFrame = pandas.DataFrame(rows, columns=columns)
        return frame

    @property
    def scores(self) -> list[dict[str, float]]:
        """Per sample, metric name → value (NaN where not scored), in input order: Ragas's ``result.scores``."""
        return [{n: self[n][i] for n in self.metrics} for i in range(len(self.rows))] if self.rows else []

    @property
    def dataset(self) -> EvaluationDataset:
        """The samples as scored, in input order (Ragas's ``result.dataset``); an input that was not a valid
        sample (its failure says why) is left out."""
        return EvaluationDataset([row.sample for row in self.rows if row.sample is not None])

    # -- display ----------------------------------------------------------------------------------------

    def summary_table(self) -> str:
        """A plain-text table of the per-metric aggregates, usage and wall time."""
        header = ("metric", "mean", "95% CI", "scored", "unscorable", "failed", "tokens")
        lines = [header]
        for s in self.summary.values():
            ci, mean = s.ci_text(), s.mean_text()
            lines.append(
                (s.metric, mean, ci, str(s.scored), str(s.unscorable), str(s.failed), str(s.usage.total_tokens))
            )
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        text = [
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            )
            for line in lines
        ]
        text.extend(f"{s.metric}: {s.counts_text()}" for s in self.summary.values() if s.counts)
        text.extend(self._agreement_lines())
        usage = self.usage
        cost = f", cost {usage.cost_text()}" if usage.cost_usd is not None or usage.unknown_requests else ""
        if self.backend != "live":
            cost += f" (backend {self.backend}, batch prices)"
        text.append(
            f"{len(self.rows)} samples in {self.wall_time_s:.2f}s; {usage.requests} LLM requests "
            f"({usage.cached_requests} cached), {usage.prompt_tokens} prompt{usage.prompt_cache_note()} + "
            f"{usage.completion_tokens} completion tokens{usage.unknown_note()}{cost}"
        )
        if self.partial:
            text.append(f"partial run: {self.partial}")
        return "\n".join(text)

    def __str__(self) -> str:
        """What Ragas prints: each metric's mean over scored samples, ``{'context_recall': 0.5000}`` (``nan``
        when none was scored); :meth:`summary_table` has the intervals, counts, usage and cost."""
        means = (f"{name!r}: {math.nan if s.mean is None else s.mean:0.4f}" for name, s in self.summary.items())
        return "{" + ", ".join(means) + "}"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        import html

        cells = "".join(
            f"<th>{html.escape(h)}</th>" for h in ("metric", "mean", "95% CI", "scored", "unscorable", "failed")
        )
        body = []
        for s in self.summary.values():
            ci, mean = s.ci_text(), s.mean_text()
            row = (s.metric, mean, ci, s.scored, s.unscorable, s.failed)
            body.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
        return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>"

    def _agreement_lines(self, shown: int = 5) -> list[str]:
        """Mean agreement per metric judged more than once, and the first unstable claims."""
        lines = [
            f"{s.metric}: agreement {s.agreement:.3f} (share of claims whose judgements were unanimous, mean "
            "over samples)"
            for s in self.summary.values()
            if s.agreement is not None
        ]
        unstable = self.unstable_claims()
        for u in unstable[:shown]:
            votes = "".join("+" if v else "-" for v in u.votes)
            who = f"sample {u.index}" + (f" (id={u.sample_id!r})" if u.sample_id is not None else "")
            lines.append(f"  unstable: {who}, {u.metric}: votes {votes}: {u.claim}")
        if len(unstable) > shown:
            lines.append(f"  ... and {len(unstable) - shown} more unstable claims (EvaluationResult.unstable_claims())")
        return lines

    def _check_metric(self, metric: str) -> None:
        if metric not in self.metrics:
            raise KeyError(f"no metric named {metric!r} in this result; it has {', '.join(self.metrics)}")


def _detail(result: MetricResult | None) -> str | None:
    if result is None:
        return None
    if result.failure is not None:
        return f"{result.failure.type}: {result.failure.message}"
    return result.reason


def _csv_cell(value: Any) -> Any:
    """A cell for CSV: lists and mappings (metadata can hold them) as JSON, the rest as it is."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else value


def _write_csv(out: IO[str], fields: list[str], records: list[dict[str, Any]]) -> None:
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    writer.writerows(records)
