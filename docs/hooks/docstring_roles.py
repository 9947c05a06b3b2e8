"""MkDocs hook: the Sphinx roles of ragrecall's docstrings (``:class:`Sample```) show as plain code, not as
``:class:`` followed by the code, in the API pages mkdocstrings renders; ``~a.b.C`` shows as ``C``, as in Sphinx."""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):(?=<code)")
_TILDE = re.compile(r"<code>~\.?(?:\w+\.)*(\w+)</code>")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return _TILDE.sub(r"<code>\1</code>", _ROLE.sub("", html))
