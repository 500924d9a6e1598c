"""What StableHLO's region, window and collective verifiers add to ``stablehlo_verify_common``:
MLIR's plain ``verifyCompatibleShape``, element-type promotion (``isPromotableElementType``), the
shape and values of an integer elements attribute, and the blocks of an op's regions.

A verifier asks ``known(op)`` first: an op with an operand or result whose type is not known (an
unresolved name) stays unjudged.
"""
from __future__ import annotations

import functools
import re

from shardy_py.dialects.stablehlo_verify_common import (
    attr_text,
    bit_width,
    clean_when_seen,
    compatible,
    dims_compatible,
    element,
    shape,
    types_text,
)
from shardy_py.ir.types import (
    ComplexType,
    FloatType,
    IntegerType,
    QuantizedType,
    RankedTensorType,
    Type,
    parse_type,
)


def known(op) -> bool:
    """Whether every operand and result of ``op`` has a known type."""
    return all(v is not None and v.type is not None for v in op.operands) and \
        all(r.type is not None for r in op.results)


def q(t) -> str:
    """A type as MLIR's diagnostics print it: ``'tensor<f32>'``."""
    return types_text([t])


def is_ranked(t: Type | None) -> bool:
    return isinstance(t, RankedTensorType)


def rank(t: Type | None) -> int | None:
    return len(t.shape) if isinstance(t, RankedTensorType) else None


def scalar_tensor(element_type: Type | str) -> RankedTensorType:
    """``tensor<E>``."""
    return RankedTensorType.get((), str(element_type))


def compatible_shape(a: Type, b: Type) -> bool:
    """MLIR's ``verifyCompatibleShape``: two shaped types, unranked matching anything, else the same
    rank with compatible dimensions."""
    if a is b and isinstance(a, RankedTensorType):
        return True
    if not (a.is_shaped and b.is_shaped):
        return False
    sa, sb = shape(a), shape(b)
    if sa is None or sb is None:
        return True
    return len(sa) == len(sb) and all(dims_compatible(x, y) for x, y in zip(sa, sb, strict=True))


def compatible_shapes(types) -> bool:
    """MLIR's ``verifyCompatibleShapes`` over a list: the ranked ones of one rank, and per dimension at most
    one static size among them."""
    shapes = [shape(t) for t in types if shape(t) is not None]
    if len({len(s) for s in shapes}) > 1:
        return False
    return all(len({d for d in dims if d >= 0}) <= 1 for dims in zip(*shapes, strict=True))


def hlo_compatible_all(xs, ys) -> bool:
    """``isCompatibleForHloTypeInference`` for two type ranges."""
    xs, ys = list(xs), list(ys)
    return len(xs) == len(ys) and all(compatible(a, b) for a, b in zip(xs, ys, strict=True))


def same_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``tensorsHaveSameElType`` for two shaped types."""
    ea, eb = element(a), element(b)
    if ignore_fp_precision and isinstance(ea, FloatType) and isinstance(eb, FloatType):
        return True
    return ea.text == eb.text


def compatible_shape_and_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``compatibleShapeAndElementType``."""
    if a is b and isinstance(a, RankedTensorType):
        return True
    return compatible_shape(a, b) and same_element(a, b, ignore_fp_precision)


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


def _width(e: Type) -> int | None:
    return e.storage_width if isinstance(e, QuantizedType) else bit_width(e)


def promotable(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool:
    """``isPromotableElementType``: the same kind of element and ``width(a) <= width(b)`` (quantized:
    the same expressed type, storage widths compared)."""
    if not (a.is_shaped and b.is_shaped):
        return False
    ea, eb = element(a), element(b)
    if ea is eb and isinstance(ea, (IntegerType, FloatType)):
        return True
    ka = _kind(ea)
    if ka == "other" or ka != _kind(eb):
        return False
    if ignore_fp_precision and ka == "float":
        return True
    wa, wb = _width(ea), _width(eb)
    return wa is not None and wb is not None and wa <= wb


def is_i1_scalar(t: Type) -> bool:
    """``tensor<i1>``."""
    return isinstance(t, RankedTensorType) and not t.shape and t.element_type == "i1"


# -- attributes -----------------------------------------------------------------------------------

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
    if len(vals) != n:  # a literal that does not fill its type (the parser's concern): unjudged
        return None
    return s, tuple(vals)


def dense_ints(attr) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``(shape, values)`` of an integer elements attribute ``dense<...> : tensor<...>`` (splats
    expanded, values row-major), or None when absent or not of that form."""
    if attr is None:
        return None
    return _dense(str(attr))


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
    term = block.ops[-1]
    types = [v.type if v is not None else None for v in term.operands]
    if None in types or len(types) != len(term.operand_names_view):
        from shardy_py.ir.typeutil import operand_types

        return operand_types(term)
    return types


def might_have_terminator(block) -> bool:
    """``Block::mightHaveTerminator``: the block's last op is (or, of a dialect MLIR does not know, may be) a
    terminator."""
    from shardy_py.syntax.known_ops import might_be_terminator

    return block is not None and bool(block.ops) and might_be_terminator(block.ops[-1].name)


def block_known(block) -> bool:
    """Whether a block's argument and terminator operand types are all known."""
    ts = terminator_types(block)
    return ts is not None and all(t is not None for t in ts) and all(t is not None for t in arg_types(block))


def nearest_symbol(op, symbol: str):
    """``lookupNearestSymbolFrom``: the op named ``@symbol`` in the closest enclosing symbol table (the
    module holding ``op``), None when there is none."""
    at = op
    while at is not None:
        block = at.parent
        region = getattr(block, "parent", None)
        owner = getattr(region, "parent", None)
        if owner is None or owner.name == "builtin.module":
            for candidate in block.ops if block is not None else ():
                if candidate.properties_view.get("sym_name") == symbol:
                    return candidate
            return None
        at = owner
    return None



def _regions_key(op):
    """What the region verifiers read of an op besides its types and properties: per region, the entry
    block's argument types, op count, and its last op's name and operand types; None (judge every time) when a
    property names a symbol, whose meaning depends on the module."""
    props = op.properties_view
    if props:
        for v in props.values():
            if "@" in attr_text(v):
                return None
    regions = []
    for r in op.regions:
        b = r.blocks[0] if r.blocks else None
        regions.append(None if b is None else
                       (tuple([a.type for a in b.arguments]), len(b.ops), b.ops[-1].name if b.ops else None,
                        tuple([v.type if v is not None else None for v in b.ops[-1].operands]) if b.ops else ()))
    return tuple(regions)


def clean_when_seen_with_regions(fn):
    """``clean_when_seen`` for a verifier that also reads the op's regions (``_regions_key``)."""
    return clean_when_seen(fn, _regions_key)
