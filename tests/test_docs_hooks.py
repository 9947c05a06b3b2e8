"""The site's docstring hook: Sphinx roles in ragrecall's docstrings render as plain code."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _hook(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_roles_are_dropped_and_tildes_shorten_to_the_last_name() -> None:
    hook = _hook("docstring_roles")
    html = (
        "<p>raises :class:<code>MissingFieldError</code>; see :func:<code>~ragrecall.evaluation.evaluate</code>"
        " and <code>~x</code> and <code>~.ap.AveragePrecision</code>;"
        " time: 10:30 and a:b:<code>kept</code>; :ref:<code>other</code></p>"
    )
    assert hook.on_page_content(html, None, None, None) == (
        "<p>raises <code>MissingFieldError</code>; see <code>evaluate</code>"
        " and <code>x</code> and <code>AveragePrecision</code>;"
        " time: 10:30 and a:b:<code>kept</code>; :ref:<code>other</code></p>"
    )
