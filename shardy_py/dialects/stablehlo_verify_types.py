"""Type and attribute helpers for StableHLO's op verifiers (``stablehlo/dialect/Base.cpp`` and the
helpers at the top of ``TypeInference.cpp``): shapes, element types, compatibility, promotion, the
integer lists of array and elements attributes, and the way MLIR's diagnostics print types.

A verifier asks ``known(op)`` first: an op with an operand or result whose type is not known (an
unresolved name) stays unjudged.
"""
from __future__ import annotations

import functools
import re

from shardy_py.dialects.attr_codecs import ints_of
from shardy_py.ir.types import (
    DYNAMIC,
    ComplexType,
    FloatType,
    IntegerType,
    QuantizedType,
    RankedTensorType,
    TupleType,
    Type,
    UnrankedTensorType,
    parse_type,
)

_BOUNDS = re.compile(r"#stablehlo\.bounds<([^>]*)>")


def known(op) -> bool:
    """Whether every operand and result of ``op`` has a known type."""
    return all(v is not None and v.type is not None for v in op.operands) and \
        all(r.type is not None for r in op.results)


def q(t) -> str:
    """A type as MLIR's diagnostics print it: ``'tensor<f32>'``."""
    return f"'{t}'"


def qs(types) -> str:
    """A type range as MLIR's diagnostics print it: ``'tensor<f32>', 'tensor<i32>'``."""
    return ", ".join(q(t) for t in types)


def is_tensor(t: Type | None) -> bool:
    """A ranked or unranked tensor type."""
    return isinstance(t, (RankedTensorType, UnrankedTensorType))


def is_ranked(t: Type | None) -> bool:
    return isinstance(t, RankedTensorType)


def shape(t: Type | None) -> tuple[int, ...] | None:
    """The shape of a ranked tensor (``DYNAMIC`` for ``?``), else None."""
    return t.shape if isinstance(t, RankedTensorType) else None


def rank(t: Type | None) -> int | None:
    return len(t.shape) if isinstance(t, RankedTensorType) else None


def element(t: Type) -> Type:
    """``getElementTypeOrSelf``: a tensor's element type, or the type itself."""
    if isinstance(t, (RankedTensorType, UnrankedTensorType)):
        return parse_type(t.element_type)
    return t


def scalar_tensor(element_type: Type | str) -> RankedTensorType:
    """``tensor<E>``."""
    return RankedTensorType.get((), str(element_type))


def bounds(t: Type) -> tuple[int, ...] | None:
    """The bounds of a bounded-dynamic tensor (``#stablehlo.bounds<?, 4>``), else None."""
    enc = getattr(t, "encoding", None)
    if not enc:
        return None
    m = _BOUNDS.fullmatch(enc.strip())
    if not m:
        return None
    return tuple(DYNAMIC if b.strip() == "?" else int(b) for b in m.group(1).split(","))


def compatible_dims(a: int, b: int) -> bool:
    return a == DYNAMIC or b == DYNAMIC or a == b


def compatible_shape(a: Type, b: Type) -> bool:
    """MLIR's ``verifyCompatibleShape``: unranked matches anything; else same rank, compatible dims."""
    if not (a.is_shaped and b.is_shaped):
        return False
    sa, sb = shape(a), shape(b)
    if sa is None or sb is None:
        return True
    return len(sa) == len(sb) and all(compatible_dims(x, y) for x, y in zip(sa, sb, strict=True))


def compatible_shape_with_bounds(a: Type, b: Type) -> bool:
    """``hlo::verifyCompatibleShapeWithBounds``: compatible shapes, and no static size over the other's bound."""
    if not compatible_shape(a, b):
        return False
    sa, sb = shape(a), shape(b)
    if sa is None or sb is None:
        return True

    def fits(s, bs) -> bool:
        return bs is None or not s or all(bd == DYNAMIC or bd >= d for d, bd in zip(s, bs, strict=False))

    return fits(sa, bounds(b)) and fits(sb, bounds(a))


def _quant_key(t: QuantizedType):
    return (t.storage_type.lstrip("s"), t.storage_min, t.storage_max, str(t.expressed_type), t.is_per_axis)


def compatible_element(a: Type, b: Type) -> bool:
    """``isCompatibleElementTypeForHloTypeInference``."""
    a, b = element(a), element(b)
    if isinstance(a, QuantizedType) and isinstance(b, QuantizedType):
        return _quant_key(a) == _quant_key(b)
    if isinstance(a, QuantizedType) or isinstance(b, QuantizedType):
        return False
    return a.text == b.text


def hlo_compatible(a: Type, b: Type) -> bool:
    """``isCompatibleForHloTypeInference`` for two types."""
    if a.is_shaped and b.is_shaped:
        return compatible_shape_with_bounds(a, b) and compatible_element(a, b)
    return compatible_element(a, b)


def hlo_compatible_all(xs, ys) -> bool:
    """``isCompatibleForHloTypeInference`` for two type ranges."""
    xs, ys = list(xs), list(ys)
    return len(xs) == len(ys) and all(hlo_compatible(a, b) for a, b in zip(xs, ys, strict=True))


def same_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``tensorsHaveSameElType`` for two shaped types."""
    ea, eb = element(a), element(b)
    if ignore_fp_precision and isinstance(ea, FloatType) and isinstance(eb, FloatType):
        return True
    return ea.text == eb.text


def compatible_shape_and_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``compatibleShapeAndElementType``."""
    return compatible_shape(a, b) and same_element(a, b, ignore_fp_precision)


def bit_width(e: Type) -> int | None:
    """``getBitWidth`` of an element type (complex: twice its part; quantized: its storage)."""
    if isinstance(e, ComplexType):
        w = bit_width(e.element)
        return None if w is None else 2 * w
    if isinstance(e, QuantizedType):
        return e.storage_width
    if isinstance(e, IntegerType):
        return e.width
    return float_width(e.text)


@functools.lru_cache(maxsize=64)
def float_width(name: str) -> int | None:
    """The bit width of a float type by name (``f32`` 32, ``bf16`` 16, ``f8E4M3FN`` 8...)."""
    if name in ("bf16", "f16"):
        return 16
    if name == "tf32":
        return 19
    m = re.fullmatch(r"f(\d+)(?:E\d+M\d+\w*)?", name)
    return int(m.group(1)) if m else None


def _kind(e: Type) -> str:
    if isinstance(e, IntegerType):
        return "int"
    if isinstance(e, FloatType):
        return "float"
    if isinstance(e, ComplexType):
        return "complex"
    if isinstance(e, QuantizedType):
        return "quant:" + str(e.expressed_type)
    return "other"


def promotable(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``isPromotableElementType``: the same kind of element and ``width(a) <= width(b)``."""
    if not (a.is_shaped and b.is_shaped):
        return False
    ea, eb = element(a), element(b)
    ka = _kind(ea)
    if ka == "other" or ka != _kind(eb):
        return False
    if ignore_fp_precision and ka == "float":
        return True
    wa, wb = bit_width(ea), bit_width(eb)
    return wa is not None and wb is not None and wa <= wb


def is_i1_scalar(t: Type) -> bool:
    """``tensor<i1>``."""
    return isinstance(t, RankedTensorType) and not t.shape and t.element_type == "i1"


def is_tuple(t: Type) -> bool:
    return isinstance(t, TupleType) or t.text.startswith("tuple<")


# -- attributes -----------------------------------------------------------------------------------

def array_ints(attr) -> list[int] | None:
    """The integers of a ``array<i64: ...>`` attribute (None when absent)."""
    return None if attr is None else ints_of(attr)


_DENSE = re.compile(r"dense<(.*)>\s*:\s*(tensor<.*>)\s*\Z", re.S)


@functools.lru_cache(maxsize=1024)
def _dense(text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    m = _DENSE.match(text.strip())
    if not m:
        return None
    t = parse_type(m.group(2))
    s = shape(t)
    if s is None:
        return None
    body = m.group(1).strip()
    if body.startswith(("\"", "0x")):
        return None
    vals = [int(x) for x in re.findall(r"-?\d+", body)]
    n = 1
    for d in s:
        n *= d
    if not body.startswith("[") and len(vals) == 1:
        vals = vals * n
    if body in ("true", "false"):
        vals = [1 if body == "true" else 0] * n
    return s, tuple(vals)


def dense_ints(attr) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``(shape, values)`` of an integer elements attribute ``dense<...> : tensor<...>`` (splats
    expanded, values row-major), or None when absent or not of that form."""
    if attr is None:
        return None
    return _dense(str(attr))


def int_attr(attr) -> int | None:
    """The value of an integer attribute ``3 : i64`` (None when absent or not an integer)."""
    if attr is None:
        return None
    m = re.match(r"\s*(-?\d+)", str(attr))
    return int(m.group(1)) if m else None


# -- regions --------------------------------------------------------------------------------------

def entry_block(region):
    """The first block of a region (None when the region is empty)."""
    return region.blocks[0] if region is not None and region.blocks else None


def arg_types(block) -> list[Type | None]:
    return [a.type for a in block.arguments]


def terminator_types(block) -> list[Type | None] | None:
    """The operand types of a block's terminator (None when the block has no ops)."""
    if block is None or not block.ops:
        return None
    from shardy_py.verify.typeutil import operand_types

    return operand_types(block.ops[-1])


def block_known(block) -> bool:
    """Whether a block's argument and terminator operand types are all known."""
    ts = terminator_types(block)
    return ts is not None and all(t is not None for t in ts) and all(t is not None for t in arg_types(block))
