"""Reading an op's properties (inherent attributes), discardable attributes and operand types for
the sharding rules: as plain values (``int_prop``, ``ints_prop``, ``str_prop``, ``bool_prop``) or as
the typed attribute (``typed_prop``: dimension numbers, enums).

Properties are ``OpaqueAttr`` values holding MLIR's canonical text; they are read back through the
attribute reader (memoised by text).  An absent property gives None or the caller's default, as
ODS's ``OptionalAttr`` / ``DefaultValuedAttr`` accessors do.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shardy_py.dialects.attr_codecs import ints_of
from shardy_py.ir.builtin_attrs import BoolAttr
from shardy_py.ir.ops import Operation
from shardy_py.syntax.attr_reader import parse_attribute

# Ops may share read-only property/attribute mappings until written (``properties_view`` and
# friends); reading through the views avoids giving every op its own copy.
_VIEWS = hasattr(Operation, "properties_view")


def properties_of(op) -> Mapping:
    """``op``'s properties, for reading only."""
    return op.properties_view if _VIEWS else op.properties


def attributes_of(op) -> Mapping:
    """``op``'s discardable attributes, for reading only."""
    return op.attributes_view if _VIEWS else op.attributes


def operand_types_of(op) -> tuple:
    """``op``'s operand types as written, for reading only."""
    return tuple(op.operand_types_view if _VIEWS else op.operand_types)


def int_prop(op, name: str, default: int | None = None) -> int:
    """The integer property ``name`` (``1 : i64``); ``default`` when absent (KeyError if no default)."""
    attr = properties_of(op).get(name)
    if attr is None:
        if default is None:
            raise KeyError(f"'{op.name}' has no property '{name}'")
        return default
    return ints_of(attr)[0]


def ints_prop(op, name: str) -> tuple[int, ...] | None:
    """The integers of the array property ``name`` (``array<i64: 0, 1>``) or of a dense integer
    elements property (flattened row-major, a splat repeated); None when absent."""
    attr = properties_of(op).get(name)
    if attr is None:
        return None
    text = str(attr)
    if text.startswith("array<"):
        return tuple(ints_of(attr))
    return tuple(int(v) for v in parse_attribute(text).values())


def str_prop(op, name: str) -> str:
    """The string property ``name`` unquoted (``"foo"`` gives ``foo``); empty when absent."""
    attr = properties_of(op).get(name)
    if attr is None:
        return ""
    return parse_attribute(str(attr)).value


def typed_prop(op, name: str) -> Any | None:
    """The property ``name`` of ``op`` as a typed attribute (``DotDimensionNumbersAttr``,
    ``TransposeAttr``, ...), or None when the op does not carry it."""
    raw = properties_of(op).get(name)
    return None if raw is None else parse_attribute(str(raw))


def bool_prop(op, name: str, default: bool = False) -> bool:
    """The boolean property ``name`` (``true`` / ``false``), or ``default`` when absent."""
    attr = typed_prop(op, name)
    if attr is None:
        return default
    if not isinstance(attr, BoolAttr):
        raise TypeError(f"'{op.name}' property '{name}' is not a boolean: {attr}")
    return attr.value
