"""Inherent attributes (MLIR properties) of an op as its generic form writes them in ``<{...}>``, and
the helpers with which an op's declaration reads them back (``OpDecl.as_attrs`` / ``from_attrs``).

Most declared ops keep their properties as attributes already.  ``builtin.module``, ``func.func``
and the sdy ops keep theirs the way their custom syntax reads them (a symbol name as a string, a
function's argument types as a list, ...): their declarations convert, as MLIR's
``getPropertiesAsAttr`` and ``setPropertiesFromAttr`` do.
"""
from __future__ import annotations

from shardy_py.dialects.registry import lookup
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.syntax import attr_printer as P


def inherent_attributes(op: Operation) -> dict[str, A.Attr]:
    """The op's properties as attributes, by name."""
    decl = lookup(op.name)
    if decl is not None and decl.as_attrs is not None:
        return decl.as_attrs(op)
    return attribute_properties(op)


def attribute_properties(op: Operation) -> dict[str, A.Attr]:
    """The properties of ``op`` that are attributes (not where they were written, ...)."""
    return {k: v for k, v in op.properties_view.items() if isinstance(v, A.Attr)}


def string_attr(s: str) -> A.OpaqueAttr:
    """The ``StringAttr`` holding ``s``."""
    return A.OpaqueAttr(P.quote_string(s))


class GenericProperties:
    """The properties of one op read in generic form, with the errors of their conversion located at
    ``offset`` (the operands)."""

    def __init__(self, reader, op: Operation, props: dict[str, A.Attr], offset: int):
        self.reader, self.op, self.props, self.offset = reader, op, props, offset

    def error(self, message: str):
        return self.reader.error(self.offset, message)

    def need(self, key: str) -> A.Attr:
        """Property ``key``; an error when it is missing."""
        if key not in self.props:
            raise self.error(f"'{self.op.name}' needs the property '{key}'")
        return self.props[key]

    def plain_string(self, key: str) -> str:
        """The value of the string property ``key``."""
        text = str(self.need(key))
        if not (text.startswith('"') and text.endswith('"')):
            raise self.error(f"'{self.op.name}': property '{key}' must be a string")
        return self.reader.unquote_at(text, self.offset)

    def typed_int(self, key: str, type_name: str) -> int:
        """The value of the integer property ``key`` written ``N : type_name``."""
        return typed_int(self.reader, self.op.name, key, self.need(key), self.offset, type_name)


def typed_int(p, op_name: str, key: str, attr, offset: int, type_name: str) -> int:
    """The value of an integer property written ``N : type``; a located error otherwise."""
    text = str(attr)
    number, _, t = text.partition(" : ")
    try:
        value = int(number)
    except ValueError:
        value = None
    if value is None or t.strip() not in ("", type_name):
        raise p.error(offset, f"'{op_name}': property '{key}' must be an integer of type {type_name}, not '{text}'")
    return value
