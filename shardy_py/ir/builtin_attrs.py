"""Frozen, hashable values for MLIR's builtin attributes.

One class per attribute kind (``IntegerAttr``, ``FloatAttr``, ``StringAttr``, ``ArrayAttr``,
``DictionaryAttr``, ``DenseArrayAttr``, ``DenseElementsAttr``, ...).  Values are kept the way MLIR
keeps them (an integer as the value of its typed width, a float as its bit pattern, dense elements as
their little-endian data), so two attributes are equal exactly when MLIR would unique them to the same
attribute, and ``str(attr)`` prints what MLIR's AsmPrinter prints (``attr_printer.print_attr`` calls
``mlir_text``).  The unit attribute is ``shardy_py.ir.attrs.UNIT_ATTR``.

Read them from text with ``shardy_py.syntax.attr_reader.parse_attribute``.
"""
from __future__ import annotations

import re

import attrs

from shardy_py.ir.attr_text import element_text, float_format, float_text, keyword_or_string, quote_string
from shardy_py.ir.attrs import UNIT_ATTR, Attr
from shardy_py.ir.dense_attrs import DenseElementsAttr, SparseElementsAttr
from shardy_py.ir.types import IntegerType, Type

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")
#: MLIR prints a non-splat elements attribute with more elements than this as a hex data blob.
HEX_ELEMENTS_LIMIT = 100


def _frozen(cls):
    return attrs.frozen(cls, cache_hash=True, repr=True, str=False)





def elided_text(a: Attr) -> str:
    """``a`` as MLIR prints it where types may be elided (array elements): ``: i64`` and ``: f64`` dropped."""
    t = type(a)
    if t is IntegerAttr and a.type.text == "i64":
        return str(a.value)
    if t is FloatAttr and a.type.text == "f64":
        text = float_text(a.bits, "f64")
        if not text.startswith("0x"):
            return text
    if a is UNIT_ATTR:
        return "unit"
    return str(a)


@_frozen
class IntegerAttr(Attr):
    """``5 : i32``: ``value`` as MLIR prints it (signed for signless, signed and index types, unsigned for
    ``ui`` types); an ``i1`` integer is a ``BoolAttr``."""

    value: int
    type: Type

    def mlir_text(self) -> str:
        return f"{self.value} : {self.type}"


@_frozen
class BoolAttr(Attr):
    """``true`` / ``false`` (an ``i1`` integer attribute)."""

    value: bool

    @property
    def type(self) -> Type:
        return IntegerType("i1", 1, "")

    def mlir_text(self) -> str:
        return "true" if self.value else "false"


@_frozen
class FloatAttr(Attr):
    """``1.000000e+00 : f32``: the value's bit pattern in ``type`` (``value`` gives it as a Python float)."""

    bits: int
    type: Type

    @property
    def value(self) -> float:
        """The value as a Python float (infinities and NaN included)."""
        frac = float_format(self.type.text).to_fraction(self.bits)
        if frac is None:
            negative, kind, _, _ = float_format(self.type.text).split(self.bits)
            return float("nan") if kind == "nan" else (float("-inf") if negative else float("inf"))
        return float(frac)

    def mlir_text(self) -> str:
        return f"{float_text(self.bits, self.type.text)} : {self.type}"


@_frozen
class StringAttr(Attr):
    """``"text"``, with an optional type (``"x" : i32``)."""

    value: str
    type: Type | None = None

    def mlir_text(self) -> str:
        q = quote_string(self.value)
        return q if self.type is None else f"{q} : {self.type}"


@_frozen
class ArrayAttr(Attr):
    """``[a, b]``: elements print with integer ``i64`` and float ``f64`` types elided."""

    elements: tuple[Attr, ...] = attrs.field(converter=tuple, default=())

    def __len__(self) -> int:
        return len(self.elements)

    def __iter__(self):
        return iter(self.elements)

    def __getitem__(self, i):
        return self.elements[i]

    def mlir_text(self) -> str:
        return "[" + ", ".join(elided_text(e) for e in self.elements) + "]"


def _sorted_entries(entries) -> tuple[tuple[str, Attr], ...]:
    items = entries.items() if isinstance(entries, dict) else entries
    return tuple(sorted(items, key=lambda kv: kv[0].encode("utf-8", "surrogateescape")))


@_frozen
class DictionaryAttr(Attr):
    """``{a, b = 1 : i64, "c d" = "x"}``: entries sorted by name (as MLIR stores them); a unit value
    prints as its name only."""

    entries: tuple[tuple[str, Attr], ...] = attrs.field(converter=_sorted_entries, default=())

    def get(self, name: str, default=None):
        """The value of entry ``name`` (``default`` when absent)."""
        for k, v in self.entries:
            if k == name:
                return v
        return default

    def as_dict(self) -> dict[str, Attr]:
        return dict(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def mlir_text(self) -> str:
        return "{" + ", ".join(named_attr_text(k, v) for k, v in self.entries) + "}"


def named_attr_text(name: str, value: Attr) -> str:
    """One attribute-dictionary entry as MLIR prints it (``printNamedAttribute``)."""
    key = keyword_or_string(name)
    return key if value is UNIT_ATTR else f"{key} = {value}"


@_frozen
class DenseArrayAttr(Attr):
    """``array<i64: 1, 2>``: ``values`` are integers (``i1`` as 0/1) or float bit patterns."""

    element_type: Type
    values: tuple[int, ...] = attrs.field(converter=tuple, default=())

    def __len__(self) -> int:
        return len(self.values)

    def mlir_text(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        return f"array<{self.element_type}: " + ", ".join(element_text(v, self.element_type) for v in self.values) + ">"


@_frozen
class TypeAttr(Attr):
    """A type used as an attribute (``i32``, ``tensor<4xf32>``)."""

    type: Type

    def mlir_text(self) -> str:
        return str(self.type)


@_frozen
class SymbolRefAttr(Attr):
    """``@root`` or ``@root::@a::@b`` (names quoted when not bare identifiers)."""

    root: str
    nested: tuple[str, ...] = attrs.field(converter=tuple, default=())

    def mlir_text(self) -> str:
        return "::".join("@" + keyword_or_string(n) for n in (self.root, *self.nested))


@_frozen
class DenseResourceElementsAttr(Attr):
    """``dense_resource<handle> : tensor<...>`` (the blob itself lives in the module's resources)."""

    handle: str
    type: Type

    def mlir_text(self) -> str:
        return f"dense_resource<{keyword_or_string(self.handle)}> : {self.type}"


#: Builtin attribute classes (printed through their ``mlir_text``).
BUILTIN_ATTR_CLASSES = (
    IntegerAttr, BoolAttr, FloatAttr, StringAttr, ArrayAttr, DictionaryAttr, DenseArrayAttr, TypeAttr,
    SymbolRefAttr, DenseResourceElementsAttr, DenseElementsAttr, SparseElementsAttr,
)
