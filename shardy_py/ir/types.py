"""MLIR types as typed, frozen values.

Every type keeps ``text``, its canonical spelling (the text MLIR's AsmPrinter prints), so ``str(t)`` is
free and two types are equal exactly when they print the same.  Subclasses add the structure: integer
widths, float names, tensor shapes and element types, tuple and function members, quantized
parameters.  Types of dialects we do not model (``!foo.bar<...>``, aliases) are plain ``Type`` with
their text kept verbatim, as MLIR keeps an unregistered dialect's type.

``parse_type(text)`` (memoised) reads any type text with ``shardy_py.syntax.attr_reader``; text that is
not a type (shape strings of the ``show`` tools) is kept as a plain ``Type``.
"""
from __future__ import annotations

import functools
import re

import attrs

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import hooks

DYNAMIC = -1  # a ``?`` dimension
#: ``ShapedType::kDynamic``: a ``?`` in StableHLO's attribute dimension lists (bounds, dims).
K_DYNAMIC = -(1 << 63)


@attrs.frozen(cache_hash=True)
class Type:
    """Any MLIR type, kept as canonical text."""

    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def is_shaped(self) -> bool:
        """True for tensors, memrefs and vectors (MLIR's ShapedType)."""
        return self.text.startswith(("tensor<", "memref<", "vector<"))


@attrs.frozen(cache_hash=True)
class IntegerType(Type):
    """``i32``, ``si8``, ``ui16``: ``signedness`` is ``""`` (signless), ``"s"`` or ``"u"``."""

    width: int = 0
    signedness: str = ""

    @classmethod
    def get(cls, width: int, signedness: str = "") -> IntegerType:
        """The integer type of ``width`` bits (``signedness`` ``""``, ``"s"`` or ``"u"``)."""
        return cls(f"{signedness}i{width}", width, signedness)


@attrs.frozen(cache_hash=True)
class FloatType(Type):
    """A float type (``f32``, ``bf16``, ``f8E4M3FN``, ...): its name is its text."""

    @property
    def name(self) -> str:
        return self.text


@attrs.frozen(cache_hash=True)
class IndexType(Type):
    """``index``."""


@attrs.frozen(cache_hash=True)
class NoneType(Type):
    """``none``."""


@attrs.frozen(cache_hash=True)
class ComplexType(Type):
    """``complex<f32>``."""

    element: Type = Type("")


@attrs.frozen(cache_hash=True)
class TupleType(Type):
    """``tuple<tensor<f32>, i32>``."""

    types: tuple[Type, ...] = ()


@attrs.frozen(cache_hash=True)
class FunctionType(Type):
    """``(tensor<f32>) -> tensor<f32>``."""

    inputs: tuple[Type, ...] = ()
    results: tuple[Type, ...] = ()

    @classmethod
    def get(cls, inputs, results) -> FunctionType:
        """The function type from ``inputs`` to ``results``, with its canonical text."""
        inputs, results = tuple(inputs), tuple(results)
        return cls(function_type_text(inputs, results), inputs, results)


@attrs.frozen(cache_hash=True)
class RankedTensorType(Type):
    """``tensor<8x?x4xf32, #enc>``: ``shape`` uses ``DYNAMIC`` (-1) for ``?``; ``element_type`` and
    ``encoding`` are canonical texts (``element`` and ``encoding_attr`` give them as values)."""

    shape: tuple[int, ...] = ()
    element_type: str = ""
    encoding: str | None = None

    @classmethod
    def get(cls, shape, element, encoding=None) -> RankedTensorType:
        """The tensor type of ``shape`` (``DYNAMIC`` for ``?``) and ``element`` (a ``Type`` or its text);
        ``encoding`` is an attribute or its canonical text."""
        shape = tuple(shape)
        enc = None if encoding is None else str(encoding)
        return cls(shaped_text("tensor", shape, str(element), (enc,) if enc is not None else ()), shape,
                   str(element), enc)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    @property
    def num_elements(self) -> int | None:
        if not self.has_static_shape:
            return None
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def element(self) -> Type:
        """The element type as a value."""
        return parse_type(self.element_type)

    @property
    def encoding_attr(self):
        """The encoding as an attribute value (None without one)."""
        if self.encoding is None:
            return None
        return hooks.read_attribute(self.encoding)


@attrs.frozen(cache_hash=True)
class UnrankedTensorType(Type):
    """``tensor<*xf32>``."""

    element_type: str = ""


@attrs.frozen(cache_hash=True)
class VectorType(Type):
    """``vector<4x[8]xf32>``: ``scalable`` says which dimensions are written ``[n]``."""

    shape: tuple[int, ...] = ()
    element_type: str = ""
    scalable: tuple[bool, ...] = ()

    @property
    def rank(self) -> int:
        return len(self.shape)


@attrs.frozen(cache_hash=True)
class MemRefType(Type):
    """``memref<4x?xf32, layout, memory_space>`` (layout and memory space as canonical attribute texts)."""

    shape: tuple[int, ...] = ()
    element_type: str = ""
    layout: str | None = None
    memory_space: str | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)


@attrs.frozen(cache_hash=True)
class UnrankedMemRefType(Type):
    """``memref<*xf32>``."""

    element_type: str = ""
    memory_space: str | None = None


@attrs.frozen(cache_hash=True)
class TokenType(Type):
    """``!stablehlo.token``."""


@attrs.frozen(cache_hash=True)
class FutureType(Type):
    """``!stablehlo.future<tensor<f32>, ...>``."""

    types: tuple[Type, ...] = ()


@attrs.frozen(cache_hash=True)
class QuantizedType(Type):
    """``!quant.uniform<i8<-127:127>:f32:1, {1.0:17, 2.0}>`` and the per-tensor ``!quant.uniform<i8:f32, 0.5:3>``.

    ``scales`` are float64 bit patterns (one per-tensor, or one per slice along ``quantized_dimension``),
    ``zero_points`` match them; ``storage_min``/``storage_max`` are the storage range (the storage type's
    full range when not written).  ``text`` is the quant dialect's canonical print: scales in ``%e`` form
    (``1.000000e+00``), zero points left out when 0, default storage ranges left out.
    """

    signed: bool = True
    storage_width: int = 8
    storage_min: int = 0
    storage_max: int = 0
    expressed_type: Type = Type("")
    quantized_dimension: int | None = None
    scales: tuple[int, ...] = ()
    zero_points: tuple[int, ...] = ()
    #: the storage type as written and printed: ``i8``, ``si8`` (both signed) or ``u8``
    storage_type: str = "i8"

    @property
    def is_per_axis(self) -> bool:
        return self.quantized_dimension is not None


def dims_text(shape) -> str:
    """``4x?x`` for ``(4, DYNAMIC)``: the dimension list of a shaped type, each dimension followed by ``x``."""
    return "".join("?x" if d == DYNAMIC else f"{d}x" for d in shape)


def shaped_text(kind: str, shape, element: str, extra=()) -> str:
    """``kind<dims element, extra...>``."""
    tail = "".join(", " + e for e in extra)
    return f"{kind}<{dims_text(shape)}{element}{tail}>"


def function_type_text(inputs, results) -> str:
    """MLIR's ``printFunctionalType``: one result that is not a function type goes without parentheses."""
    ins = "(" + ", ".join(str(t) for t in inputs) + ")"
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        return f"{ins} -> {results[0]}"
    return f"{ins} -> (" + ", ".join(str(t) for t in results) + ")"


_RANKED = re.compile(r"tensor<((?:(?:\d+|\?)x)*)([^,<>]*(?:<[^<>]*>)?)(?:,\s*(.*))?>\Z", re.S)
_WS = re.compile(r"\s+")


def _normalise(text: str) -> str:
    """Whitespace-normalise a type text the way MLIR prints it."""
    t = _WS.sub(" ", text.strip())
    t = re.sub(r"\s*([<>(),\[\]])\s*", r"\1", t)
    t = t.replace(",", ", ").replace("->", " -> ")
    return t


def _loose_type(text: str) -> Type:
    """A type for text the reader rejects: kept whitespace-normalised (tensor shapes still read)."""
    t = text if ("\n" not in text and "  " not in text) else _normalise(text)
    if t.startswith("tensor<"):
        if t.startswith("tensor<*x"):
            return UnrankedTensorType(t, t[len("tensor<*x"):-1])
        m = _RANKED.match(t)
        if m:
            dims = tuple(DYNAMIC if d == "?" else int(d) for d in m.group(1).split("x")[:-1])
            return RankedTensorType(t, dims, m.group(2), m.group(3))
    return Type(t)


@functools.lru_cache(maxsize=16384)
def parse_type(text: str) -> Type:
    """The ``Type`` for ``text`` (typed and canonical; text that is not a valid type is kept as text)."""
    try:
        return hooks.read_type(text)
    except AttrSyntaxError:
        return _loose_type(text)
