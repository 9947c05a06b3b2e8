"""The JSON schemas of output models, built once per model.

Pydantic builds a model's JSON schema anew on every ``model_json_schema()`` call, which costs more client CPU
than sending the request it describes; every request of a run names one of a few output models, so each
schema is built on first use and shared after.
"""

from __future__ import annotations

import copy
import weakref
from typing import Any

from pydantic import BaseModel

__all__ = ["output_schema", "strict_json_schema"]


# Weak keys: a model class made at run time (a test's) leaves with its schema.
_SCHEMAS: weakref.WeakKeyDictionary[type[BaseModel], dict[str, Any]] = weakref.WeakKeyDictionary()
_STRICT: weakref.WeakKeyDictionary[type[BaseModel], dict[str, Any]] = weakref.WeakKeyDictionary()


def output_schema(output: type[BaseModel]) -> dict[str, Any]:
    """``output.model_json_schema()``, built on first use and the same object after: read it, never change it
    (:func:`strict_json_schema` gives a copy to change)."""
    schema = _SCHEMAS.get(output)
    if schema is None:
        schema = _SCHEMAS[output] = output.model_json_schema()
    return schema


def strict_json_schema(output: type[BaseModel]) -> dict[str, Any]:
    """``output``'s JSON schema in the form structured outputs accept: every object closed, every field required
    (a copy of its own for the caller)."""
    strict = _STRICT.get(output)
    if strict is None:
        strict = copy.deepcopy(output_schema(output))
        _make_strict(strict)
        _STRICT[output] = strict
    return copy.deepcopy(strict)


def _make_strict(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        node.pop("default", None)
        for value in node.values():
            _make_strict(value)
    elif isinstance(node, list):
        for value in node:
            _make_strict(value)
