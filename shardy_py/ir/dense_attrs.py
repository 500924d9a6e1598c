"""``dense<...>`` and ``sparse<...>`` elements attributes, stored the way MLIR stores them.

A ``DenseElementsAttr`` keeps its shaped type and its element data: for integer, index, float and
complex elements the little-endian raw data MLIR keeps (``storage_bytes`` per scalar: the bit width
rounded up to whole bytes; ``i1`` one byte), or for any other element type (strings of dialect types)
a tuple of strings.  A splat (every element equal) keeps one element, as MLIR does, so a splat read from
``dense<1>``, from ``dense<[1, 1]>`` and from ``dense<"0x0100000001000000">`` is the same value.

Printing follows ``AsmPrinter::printDenseElementsAttr``: a splat prints its element, an empty tensor
``dense<>``, more than ``HEX_ELEMENTS_LIMIT`` (100) elements a ``"0x..."`` data blob, anything else the
elements nested by the shape.
"""
from __future__ import annotations

import attrs

from shardy_py.ir.attr_text import element_text, float_format, quote_string
from shardy_py.ir.attrs import Attr
from shardy_py.ir.types import ComplexType, FloatType, IndexType, IntegerType, Type, parse_type

HEX_ELEMENTS_LIMIT = 100


def _frozen(cls):
    return attrs.frozen(cls, cache_hash=True, repr=True, str=False)


def shape_of(t: Type) -> tuple[int, ...]:
    """The static shape of a tensor or vector type."""
    return tuple(getattr(t, "shape", ()))


def element_of(t: Type) -> Type:
    """The element type of a shaped type, as a value."""
    return parse_type(t.element_type)


def scalar_layout(element: Type) -> tuple[str, int, bool] | None:
    """(kind, bit width, signed) of an integer/index/float scalar type; None for other types.
    ``kind`` is ``int`` or ``float``; ``signed`` says how MLIR prints integers (all but ``ui`` types)."""
    if isinstance(element, IntegerType):
        return "int", element.width, element.signedness != "u"
    if isinstance(element, IndexType):
        return "int", 64, True
    if isinstance(element, FloatType):
        return "float", float_format(element.text).width, False
    return None


def storage_bytes(width: int) -> int:
    """Bytes MLIR uses for one scalar of ``width`` bits (``i1`` included: one byte)."""
    return max(1, (width + 7) // 8)


class _Codec:
    """Encodes and decodes the raw data of one element type."""

    __slots__ = ("kind", "width", "signed", "size", "parts", "mask")

    def __init__(self, element: Type):
        complex_ = isinstance(element, ComplexType)
        layout = scalar_layout(element.element if complex_ else element)
        if layout is None:
            raise ValueError(f"no raw data layout for {element}")
        self.kind, self.width, self.signed = layout
        self.size = storage_bytes(self.width)
        self.parts = 2 if complex_ else 1
        self.mask = (1 << self.width) - 1

    @property
    def element_size(self) -> int:
        return self.size * self.parts

    def encode(self, values) -> bytes:
        size, mask = self.size, self.mask
        if self.parts == 1:
            return b"".join((v & mask).to_bytes(size, "little") for v in values)
        return b"".join((p & mask).to_bytes(size, "little") for v in values for p in v)

    def _scalar(self, raw: int) -> int:
        raw &= self.mask
        if self.kind == "int":
            if self.width == 1:
                return 1 if raw else 0
            if self.signed and raw >> (self.width - 1):
                raw -= 1 << self.width
        return raw

    def decode(self, data: bytes) -> list:
        size = self.size
        scalars = [self._scalar(int.from_bytes(data[i:i + size], "little")) for i in range(0, len(data), size)]
        if self.parts == 1:
            return scalars
        return [(scalars[i], scalars[i + 1]) for i in range(0, len(scalars), 2)]


_CODECS: dict[Type, _Codec] = {}


def codec(element: Type) -> _Codec:
    """The (cached) raw-data codec of ``element``; ValueError for element types stored as strings."""
    c = _CODECS.get(element)
    if c is None:
        c = _CODECS[element] = _Codec(element)
    return c


def _nest(texts: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return texts[0]
    if len(shape) == 1:
        return "[" + ", ".join(texts) + "]"
    step = len(texts) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(texts[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


@_frozen
class DenseElementsAttr(Attr):
    """``dense<...> : tensor<...>``: ``data`` is the raw element data (bytes; one element when ``splat``)
    or, for element types other than integers, index, floats and complex, the strings (a tuple)."""

    type: Type
    data: bytes | tuple[str, ...]
    splat: bool = False

    @classmethod
    def from_values(cls, type_: Type, values) -> DenseElementsAttr:
        """From the flat element values (integers as printed, float bit patterns, ``(re, im)`` pairs,
        strings): one value, or as many as the type has elements.  Equal values make a splat."""
        values = list(values)
        splat = bool(values) and (len(values) == 1 or values.count(values[0]) == len(values))
        if splat:
            values = values[:1]
        element = element_of(type_)
        if scalar_layout(element.element if isinstance(element, ComplexType) else element) is None:
            return cls(type_, tuple(values), splat)
        return cls(type_, codec(element).encode(values), splat)

    @classmethod
    def from_raw(cls, type_: Type, data: bytes) -> DenseElementsAttr:
        """From little-endian raw data of every element, or of one (a splat); ValueError on a wrong size."""
        c = codec(element_of(type_))
        n = c.element_size
        count = num_elements(type_)
        if len(data) == n and count != 1:
            return cls(type_, c.encode(c.decode(data)), True)
        if len(data) != n * count:
            raise ValueError("wrong data size")
        if count and data == data[:n] * count:
            return cls(type_, c.encode(c.decode(data[:n])), True)
        return cls(type_, c.encode(c.decode(data)) if c.width % 8 else data, count == 1)

    @property
    def element_type(self) -> Type:
        return element_of(self.type)

    @property
    def shape(self) -> tuple[int, ...]:
        return shape_of(self.type)

    @property
    def num_elements(self) -> int:
        return num_elements(self.type)

    def values(self) -> list:
        """Every element (splats repeated): integers, float bit patterns, ``(re, im)`` pairs or strings."""
        vals = list(self.data) if isinstance(self.data, tuple) else codec(self.element_type).decode(self.data)
        return vals * self.num_elements if self.splat else vals

    def body_text(self, allow_hex: bool = True) -> str:
        """The ``dense<...>`` part (no type), as ``printDenseElementsAttr`` prints it."""
        return f"dense<{elements_text(self, allow_hex)}>"

    def mlir_text(self) -> str:
        return f"dense<{elements_text(self, True)}> : {self.type}"


def num_elements(t: Type) -> int:
    n = 1
    for d in shape_of(t):
        n *= d
    return n


def elements_text(a: DenseElementsAttr, allow_hex: bool) -> str:
    """The text between ``dense<`` and ``>``."""
    count = a.num_elements
    if isinstance(a.data, tuple):
        if not a.data:
            return ""
        texts = [quote_string(s) for s in a.data]
        return texts[0] if a.splat else _nest(texts, a.shape)
    if not a.data:
        return ""
    if allow_hex and not a.splat and count > HEX_ELEMENTS_LIMIT:
        return '"0x' + a.data.hex().upper() + '"'
    element = a.element_type
    vals = codec(element).decode(a.data)
    if a.splat:
        return element_text(vals[0], element)
    return _nest([element_text(v, element) for v in vals], a.shape)


@_frozen
class SparseElementsAttr(Attr):
    """``sparse<indices, values> : tensor<...>``: ``indices`` (``i64``, one row per stored element) and
    ``values`` are dense elements attributes."""

    type: Type
    indices: DenseElementsAttr
    values: DenseElementsAttr

    def mlir_text(self) -> str:
        if self.indices.num_elements == 0:
            return f"sparse<> : {self.type}"
        return (f"sparse<{elements_text(self.indices, False)}, {elements_text(self.values, True)}> : "
                f"{self.type}")

