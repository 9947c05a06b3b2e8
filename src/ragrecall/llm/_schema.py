"""The JSON schemas of output models: pydantic's, built once per model, and the compact one sent to providers.

Pydantic builds a model's JSON schema anew on every ``model_json_schema()`` call, which costs more client CPU
than sending the request it describes; every request of a run names one of a few output models, so each
schema is built on first use and shared after (:func:`output_schema`, which cache keys use).

What is sent is smaller: providers bill the schema as prompt tokens, and the prompt already says what each
field means, so titles, descriptions and defaults are left out and each ``$ref`` is replaced by its definition
(when no definition refers back to itself), which for the claim-recall replies halves the schema's tokens.
"""

from __future__ import annotations

import copy
import weakref
from typing import Any

from pydantic import BaseModel

__all__ = ["output_schema", "sent_schema", "strict_json_schema"]

# Weak keys: a model class made at run time (a test's) leaves with its schemas.
_SCHEMAS: weakref.WeakKeyDictionary[type[BaseModel], dict[str, Any]] = weakref.WeakKeyDictionary()
_SENT: dict[bool, weakref.WeakKeyDictionary[type[BaseModel], dict[str, Any]]] = {
    False: weakref.WeakKeyDictionary(),
    True: weakref.WeakKeyDictionary(),
}
_DROPPED = ("title", "description", "default")
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
"""Keys whose value maps names to schemas (a property may be named "title": it is a name there, not a key)."""


def output_schema(output: type[BaseModel]) -> dict[str, Any]:
    """``output.model_json_schema()``, built on first use and the same object after: read it, never change it."""
    schema = _SCHEMAS.get(output)
    if schema is None:
        schema = _SCHEMAS[output] = output.model_json_schema()
    return schema


def sent_schema(output: type[BaseModel], *, strict: bool) -> dict[str, Any]:
    """``output``'s JSON schema without titles, descriptions or defaults, its definitions inlined when none is
    recursive (validating exactly the documents the full schema validates); with ``strict``, in the form
    structured outputs accept. Built on first use and the same object after: read it, never change it
    (:func:`strict_json_schema` gives a copy to change)."""
    schema = _SENT[strict].get(output)
    if schema is None:
        full = copy.deepcopy(output_schema(output))
        definitions = full.pop("$defs", None) or {}
        try:
            schema = _inline(full, definitions, ())
        except _Recursive:
            schema = copy.deepcopy(output_schema(output))
        _slim(schema, strict)
        _SENT[strict][output] = schema
    return schema


def strict_json_schema(output: type[BaseModel]) -> dict[str, Any]:
    """The compact schema in the form structured outputs accept: every object closed, every field required.
    A new copy on every call."""
    return copy.deepcopy(sent_schema(output, strict=True))


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
