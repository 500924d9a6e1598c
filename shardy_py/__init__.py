"""shardy_py: a pure-Python toolkit for the Shardy (``sdy``) MLIR sharding dialect.

>>> import shardy_py
>>> m = shardy_py.parse('sdy.mesh @m = <["x"=2, "y"=4]>')
>>> m.meshes["m"].axis_size("y")
4
>>> print(m, end="")
module {
  sdy.mesh @m = <["x"=2, "y"=4]>
}
"""
from __future__ import annotations

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as _attrs
from shardy_py.ir.attrs import *  # noqa: F403  (the attribute classes are public API)
from shardy_py.ir.attrs import Attr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Location, Operation, Region, Value
from shardy_py.ir.types import RankedTensorType, Type, UnrankedTensorType, parse_type

__version__ = "0.1.0"
__all__ = [  # noqa: F405
    "ParseError", "Attr", "Module", "Block", "Location", "Operation", "Region", "Value",
    "RankedTensorType", "Type", "UnrankedTensorType", "parse_type", "parse", "parse_attribute",
    *[c.__name__ for c in _attrs.SDY_ATTR_CLASSES], "OpaqueAttr",
]


def parse(text: str, filename: str | None = None) -> Module:
    """Parse MLIR text holding Shardy IR into a ``Module``.

    Raises ``ParseError`` (with ``.line``, ``.column``, ``.message``) on bad syntax.
    """
    from shardy_py.syntax.parser import parse_module

    return parse_module(text, filename)


def parse_attribute(text: str) -> Attr:
    """Parse one standalone sdy attribute, e.g. ``'#sdy.sharding<@m, [{"a"}]>'``."""
    from shardy_py.errors import AttrSyntaxError
    from shardy_py.syntax.scanner import LineIndex
    from shardy_py.syntax.sdy_parser import parse_sdy

    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    try:
        return parse_sdy(stripped, "attribute")
    except AttrSyntaxError as e:
        line, col = LineIndex(text).locate(lead + e.offset)
        raise ParseError(e.message, line, col, lead + e.offset) from None
