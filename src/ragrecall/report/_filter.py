"""The samples section at any size: a filter (a metric below a value, failures, metadata values), grouping by a
metadata column, and sample bodies kept compressed in the page until their row is opened.

The page stays one file: the script, the rows' figures (JSON) and the bodies (gzip, base64) are inline. The
bodies of the rows open at load are written as HTML too, so those read without scripts.
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
import zlib
from collections.abc import Iterator

from ..evaluation import EvaluationResult
from ._html import e

__all__ = ["METADATA_VALUES_SHOWN", "BodyPacker", "filter_bar", "samples_script"]

METADATA_VALUES_SHOWN = 50
"""A metadata column with more distinct values than this is not offered as a filter (its rows are)."""


def filter_bar(result: EvaluationResult) -> str:
    """The filter form above the samples: metric and bound, failures only, one choice per metadata column, and
    a grouping by metadata column whose per-group means show below it."""
    metrics = "".join(f"<option>{e(m)}</option>" for m in result.metrics)
    columns = _metadata_values(result)
    selects = "".join(
        f"<label>{e(key)} <select data-meta='{e(key)}'><option value=''>any</option>"
        + "".join(f"<option>{e(v)}</option>" for v in values)
        + "</select></label>"
        for key, values in columns.items()
    )
    group = (
        "<label>group by <select id='rr-group'><option value=''>none</option>"
        + "".join(f"<option>{e(k)}</option>" for k in columns)
        + "</select></label>"
        if columns
        else ""
    )
    return (
        "<form class='filter' id='rr-filter' onsubmit='return false'>"
        f"<label><select id='rr-metric'>{metrics}</select> below <input id='rr-below' type='number' step='0.05' "
        "min='0' max='1' placeholder='any' inputmode='decimal'></label>"
        "<label><input id='rr-failed' type='checkbox'> failures only</label>"
        f"{selects}{group}<output id='rr-count' class='muted'></output></form><div id='rr-groups'></div>"
        "<noscript><p class='warn'>Filtering and opening the closed samples need scripts; the open samples "
        "read without them.</p></noscript>"
    )


class BodyPacker:
    """The closed rows' bodies as they come, compressed at once: ``{index: body}`` as compact JSON in gzip,
    level 6, time 0 (the bytes ``gzip.compress(json.dumps(bodies), 6, mtime=0)`` gives), without holding the
    bodies themselves."""

    def __init__(self) -> None:
        self._deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
        self._parts = [gzip.compress(b"", compresslevel=6, mtime=0)[:10]]  # gzip's header for these settings
        self._crc = 0
        self._size = 0
        self._first = True

    def add(self, index: int, body: str) -> None:
        self._write(f"{'{' if self._first else ','}{json.dumps(str(index))}:{json.dumps(body)}".encode())
        self._first = False

    def packed_base64(self) -> Iterator[str]:
        """The compressed JSON object in base64, in pieces whose concatenation is ``base64.b64encode`` of all of
        it, so that the whole text is never held at once; the packer takes no more bodies after this."""
        carry = b""
        for part in self._finished():
            data = carry + part
            cut = len(data) - len(data) % 3  # base64 encodes 3 bytes at a time: the rest waits for the next part
            carry = data[cut:]
            if cut:
                yield base64.b64encode(data[:cut]).decode("ascii")
        if carry:
            yield base64.b64encode(carry).decode("ascii")

    def _finished(self) -> Iterator[bytes]:
        """The compressed parts, ended, each let go of once handed out."""
        self._write(b"{}" if self._first else b"}")
        self._parts += [self._deflate.flush(), struct.pack("<LL", self._crc, self._size & 0xFFFFFFFF)]
        parts, self._parts = self._parts, []
        parts.reverse()
        while parts:
            yield parts.pop()

    def _write(self, data: bytes) -> None:
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        self._parts.append(self._deflate.compress(data))


def samples_script(result: EvaluationResult, closed: BodyPacker) -> Iterator[str]:
    """The rows' figures, the closed rows' bodies (packed by ``closed``) and the script that filters, groups and
    opens, in pieces."""
    rows = [
        [
            row.index,
            [row.results[m].value for m in result.metrics],
            any(r.failure is not None for r in row.results.values()),
            {k: _text(v) for k, v in (row.sample.metadata.items() if row.sample else ()) if _scalar(v)},
        ]
        for row in result.rows
    ]
    figures = json.dumps({"metrics": list(result.metrics), "rows": rows}, separators=(",", ":"))
    yield (
        f"<script type='application/json' id='rr-rows'>{_in_script(figures)}</script>"
        "<script type='application/octet-stream' id='rr-bodies'>"
    )
    del rows, figures
    yield from closed.packed_base64()
    yield f"</script><script>{_SCRIPT}</script>"


def _metadata_values(result: EvaluationResult) -> dict[str, list[str]]:
    values: dict[str, dict[str, None]] = {}
    for row in result.rows:
        for key, value in row.sample.metadata.items() if row.sample else ():
            if _scalar(value):
                values.setdefault(key, {})[_text(value)] = None
    return {k: sorted(v) for k, v in values.items() if len(v) <= METADATA_VALUES_SHOWN}


def _scalar(value: object) -> bool:
    return isinstance(value, (str, int, float, bool))


def _text(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _in_script(text: str) -> str:
    """JSON that can sit inside ``<script>``: ``<``, ``>`` and ``&`` as JSON escapes, which JSON.parse reads
    back as the same characters, so that no text in it can close the element or open a comment."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


_SCRIPT = """
(() => {
const data = JSON.parse(document.getElementById('rr-rows').textContent);
const byIndex = new Map(data.rows.map(r => [r[0], r]));
let bodies = null;
const load = () => bodies || (bodies = (async () => {
  const raw = Uint8Array.from(atob(document.getElementById('rr-bodies').textContent), c => c.charCodeAt(0));
  const text = await new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  return JSON.parse(text);
})());
const fill = async d => {
  if (!d.hasAttribute('data-lazy')) return;
  d.removeAttribute('data-lazy');
  const all = await load();
  d.insertAdjacentHTML('beforeend', all[d.dataset.i]);
};
const samples = [...document.querySelectorAll('#samples details.sample')];
samples.forEach(d => d.addEventListener('toggle', () => { if (d.open) fill(d); }));
const opened = () => { const d = location.hash && document.querySelector('details.sample' + location.hash);
  if (d) { d.open = true; fill(d); } };
addEventListener('hashchange', opened); opened();
const $ = id => document.getElementById(id);
const metas = [...document.querySelectorAll('#rr-filter [data-meta]')];
const apply = () => {
  const m = data.metrics.indexOf($('rr-metric').value), below = parseFloat($('rr-below').value);
  const failed = $('rr-failed').checked, want = metas.map(s => [s.dataset.meta, s.value]).filter(p => p[1]);
  let shown = 0; const kept = [];
  for (const d of samples) {
    const r = byIndex.get(Number(d.dataset.i)), v = r[1][m];
    const ok = (isNaN(below) || (v !== null && v < below)) && (!failed || r[2])
      && want.every(([k, x]) => Object.hasOwn(r[3], k) && r[3][k] === x);
    d.hidden = !ok; if (ok) { shown++; kept.push(r); }
  }
  $('rr-count').textContent = shown + ' of ' + samples.length + ' samples';
  const g = $('rr-group') && $('rr-group').value, box = $('rr-groups');
  if (!g) { box.innerHTML = ''; return; }
  const groups = new Map();
  // Own keys only: a metadata name such as toString must not find Object's method.
  for (const r of kept) {
    const k = Object.hasOwn(r[3], g) ? r[3][g] : '(none)';
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  const esc = s => String(s).replace(/[&<>"']/g, c => '&#' + c.charCodeAt(0) + ';');
  const mean = (rs, i) => { const v = rs.map(r => r[1][i]).filter(x => x !== null);
    return v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3) : '—'; };
  box.innerHTML = '<div class="scroll"><table><thead><tr><th>' + esc(g) + '</th><th class="num">samples</th>'
    + data.metrics.map(x => '<th class="num">' + esc(x) + '</th>').join('') + '</tr></thead><tbody>'
    + [...groups].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([k, rs]) => '<tr><td>' + esc(k) + '</td><td class="num">' + rs.length + '</td>'
      + data.metrics.map((_, i) => '<td class="num">' + mean(rs, i) + '</td>').join('') + '</tr>').join('')
    + '</tbody></table></div>';
};
$('rr-filter').addEventListener('input', apply); apply();
})();
"""
