"""The JSON schema of a reply model as sent to a provider: the smallest schema that states the same shape.

Pydantic's schema carries a title for every model and field and the docstrings as descriptions; providers
bill the schema as prompt tokens, and the prompt already says what each field means. So titles and
descriptions are left out and each ``$ref`` is replaced by its definition (when no definition refers back to
itself), which for the claim-recall replies halves the schema's tokens.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

__all__ = ["compact_json_schema", "strict_json_schema"]

_DROPPED = ("title", "description", "default")
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
"""Keys whose value maps names to schemas (a property may be named "title": it is a name there, not a key)."""


@lru_cache(maxsize=128)
def _compact(output: type[BaseModel], strict: bool) -> dict[str, Any]:
    schema = copy.deepcopy(output.model_json_schema())
    definitions = schema.pop("$defs", None) or {}
    try:
        schema = _inline(schema, definitions, ())
    except _Recursive:
        schema = copy.deepcopy(output.model_json_schema())
    _slim(schema, strict)
    return schema


def compact_json_schema(output: type[BaseModel]) -> dict[str, Any]:
    """``output``'s JSON schema without titles, descriptions or defaults, its definitions inlined when none is
    recursive. Validates exactly the documents the full schema validates. A new copy on every call."""
    return copy.deepcopy(_compact(output, False))


def strict_json_schema(output: type[BaseModel]) -> dict[str, Any]:
    """:func:`compact_json_schema` in the form structured outputs accept: every object closed, every field
    required. A new copy on every call."""
    return copy.deepcopy(_compact(output, True))


class _Recursive(Exception):
    """A definition refers back to itself (or a reference is not to ``$defs``): it cannot be inlined."""


def _inline(node: Any, definitions: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, definitions, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if ref is None:
        return {key: _inline(value, definitions, seen) for key, value in node.items()}
    name = ref.removeprefix("#/$defs/") if isinstance(ref, str) else ""
    if name in seen or name not in definitions:
        raise _Recursive(name)
    resolved = _inline(definitions[name], definitions, (*seen, name))
    siblings = {key: _inline(value, definitions, seen) for key, value in node.items() if key != "$ref"}
    return {**resolved, **siblings}


def _slim(node: Any, strict: bool) -> None:
    if isinstance(node, list):
        for item in node:
            _slim(item, strict)
        return
    if not isinstance(node, dict):
        return
    for key in _DROPPED:
        node.pop(key, None)
    if strict and node.get("type") == "object" and "properties" in node:
        node["additionalProperties"] = False
        node["required"] = list(node["properties"])
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for schema in value.values():
                _slim(schema, strict)
        else:
            _slim(value, strict)
