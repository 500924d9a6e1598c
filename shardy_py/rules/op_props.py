"""Typed reads of an op's inherent attributes that ``rules.props`` does not cover: the attribute
object itself (dimension numbers, enums) and booleans.

Properties are ``OpaqueAttr`` values holding MLIR's canonical text; they are read back through the
attribute reader (memoised by text).  An absent property gives None or the caller's default, as
ODS's ``OptionalAttr`` / ``DefaultValuedAttr`` accessors do.
"""
from __future__ import annotations

from typing import Any

from shardy_py.ir.builtin_attrs import BoolAttr
from shardy_py.syntax.attr_reader import parse_attribute


def typed_prop(op, name: str) -> Any | None:
    """The property ``name`` of ``op`` as a typed attribute (``DotDimensionNumbersAttr``,
    ``TransposeAttr``, ...), or None when the op does not carry it."""
    raw = op.properties.get(name)
    return None if raw is None else parse_attribute(str(raw))


def bool_prop(op, name: str, default: bool = False) -> bool:
    """The boolean property ``name`` (``true`` / ``false``), or ``default`` when absent."""
    attr = typed_prop(op, name)
    if attr is None:
        return default
    if not isinstance(attr, BoolAttr):
        raise TypeError(f"'{op.name}' property '{name}' is not a boolean: {attr}")
    return attr.value
