"""Reading a report page as a browser shows it once every sample is opened: the closed samples' bodies, kept
compressed in the page, put back in place."""

from __future__ import annotations

import base64
import gzip
import json
import re

_BODIES = re.compile(r"<script type='application/octet-stream' id='rr-bodies'>([A-Za-z0-9+/=]*)</script>")


def closed_bodies(page: str) -> dict[str, str]:
    """The bodies of the samples closed at load, by sample index (as a string)."""
    found = _BODIES.search(page)
    assert found, "no compressed bodies in the page"
    bodies: dict[str, str] = json.loads(gzip.decompress(base64.b64decode(found[1])))
    return bodies


def inflated(page: str) -> str:
    """``page`` with each closed sample's body inside its ``<details>``, as opening it in a browser does."""
    bodies = closed_bodies(page)

    pattern = re.compile(r"(<details class='sample' id='s\d+' data-i=')(\d+)(' data-lazy>.*?</summary>)", re.S)
    out = pattern.sub(lambda m: f"{m[1]}{m[2]}{m[3]}{bodies[m[2]]}", page)
    return out.replace(" data-lazy>", ">")
