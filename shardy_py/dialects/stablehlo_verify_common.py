"""What StableHLO's op verifiers share (``Base.cpp``, the helpers of ``TypeInference.cpp``): reading an
op's properties and types, the "compatible for type inference" relation between types, and the
failures every verifier words the same way.

An op verifier is ``fn(op, ctx) -> Failure | None`` (``declare(..., verify=fn)``).  Verifiers judge
only what they can know: a property they cannot read, an unranked or unknown type leaves the rule
unjudged, as the C++ leaves it.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import (
    DYNAMIC,
    ComplexType,
    FloatType,
    IndexType,
    IntegerType,
    QuantizedType,
    RankedTensorType,
    Type,
    UnrankedTensorType,
    parse_type,
)
from shardy_py.ir.typeutil import operand_types

_INT = re.compile(r"-?\d+")


# -- properties --------------------------------------------------------------------------------------

def prop(op, name: str):
    """The property ``name`` of ``op`` (its stored attribute), None when absent."""
    return op.properties_view.get(name)


def int_prop(op, name: str) -> int | None:
    """An integer property (``1 : i64``), None when absent or not an integer."""
    a = prop(op, name)
    if a is None:
        return None
    m = _INT.match(str(a).strip())
    return int(m.group()) if m else None


@functools.lru_cache(maxsize=4096)
def ints_of_text(text: str) -> tuple[int, ...] | None:
    """The integers of ``array<i64: 1, 2>`` or of a dense integer attribute (``dense<[1, 2]> : tensor<2xi64>``,
    row-major; a splat gives one value); None for anything else."""
    if text.startswith("array<"):
        colon = text.find(":")
        return tuple(int(x) for x in _INT.findall(text[colon + 1:-1])) if colon >= 0 else ()
    if text.startswith("dense<"):
        body = text[len("dense<"):text.rfind(">", 0, text.rfind(":") if ":" in text else len(text))]
        return tuple(int(x) for x in _INT.findall(body))
    return None


def ints_prop(op, name: str) -> tuple[int, ...] | None:
    """The integers of an array or dense integer property, None when absent."""
    a = prop(op, name)
    return None if a is None else ints_of_text(str(a))


@functools.lru_cache(maxsize=4096)
def _typed(text: str):
    from shardy_py.syntax.attr_reader import parse_attribute

    try:
        return parse_attribute(text)
    except Exception:  # noqa: BLE001  (text the reader cannot read: the rule stays unjudged)
        return None


def typed_prop(op, name: str):
    """A property as a typed attribute (dimension numbers, enums), None when absent or unreadable."""
    a = prop(op, name)
    return None if a is None else _typed(str(a))


def bools_prop(op, name: str) -> tuple[bool, ...] | None:
    """The values of an ``array<i1: true, false>`` property, None when absent."""
    a = prop(op, name)
    if a is None:
        return None
    text = str(a)
    colon = text.find(":")
    return tuple(w == "true" for w in re.findall(r"true|false", text[colon + 1:])) if colon >= 0 else None


# -- types ---------------------------------------------------------------------------------------------

def in_types(op) -> list[Type | None]:
    """The operand types (the value's, else the written one)."""
    return operand_types(op)


def out_types(op) -> list[Type | None]:
    """The result types."""
    return [r.type for r in op.results]


def shape(t: Type | None) -> tuple[int, ...] | None:
    """The shape of a ranked tensor type (``DYNAMIC`` for ``?``), None for any other type."""
    return t.shape if isinstance(t, RankedTensorType) else None


def element(t: Type | None) -> Type | None:
    """The element type of a tensor type, the type itself otherwise (``getElementTypeOrSelf``)."""
    if isinstance(t, (RankedTensorType, UnrankedTensorType)):
        return parse_type(t.element_type)
    return t


def is_dynamic(d: int) -> bool:
    """A ``?`` dimension size."""
    return d < 0


def dims_compatible(a: int, b: int) -> bool:
    """Two dimension sizes that may be equal at run time."""
    return a < 0 or b < 0 or a == b


@functools.lru_cache(maxsize=4096)
def bounds(t: Type | None) -> tuple[int, ...] | None:
    """The ``#stablehlo.bounds<...>`` of a ranked tensor type (``DYNAMIC`` for ``?``), None without."""
    enc = getattr(t, "encoding", None)
    if not isinstance(t, RankedTensorType) or not enc:
        return None
    if enc.startswith("#stablehlo.bounds<"):
        body = enc[len("#stablehlo.bounds<"):-1]
    elif enc.startswith("#stablehlo.type_extensions<") and "[" in enc:
        body = enc[enc.index("[") + 1:enc.rindex("]")]
    else:
        return None
    return tuple(DYNAMIC if w.strip() == "?" else int(w) for w in body.split(",") if w.strip())


def tensor(dims: Sequence[int], elem: Type | str, bound: Sequence[int] | None = None) -> RankedTensorType:
    """``tensor<dims x elem>`` with a ``#stablehlo.bounds`` encoding when some bound is static."""
    enc = None
    if bound is not None and any(b >= 0 for b in bound):
        enc = "#stablehlo.bounds<" + ", ".join("?" if b < 0 else str(b) for b in bound) + ">"
    return RankedTensorType.get(dims, elem, enc)


def is_quantized(t: Type | None) -> bool:
    """A quantized element type (or a tensor of one)."""
    return isinstance(element(t), QuantizedType)


def elements_compatible(a: Type | None, b: Type | None) -> bool:
    """``isCompatibleElementTypeForHloTypeInference``: equal, or both quantized alike (storage type and
    range, expressed type, per-tensor or per-axis)."""
    a, b = element(a), element(b)
    if a is None or b is None:
        return True
    qa, qb = isinstance(a, QuantizedType), isinstance(b, QuantizedType)
    if qa and qb:
        return (a.storage_width, a.signed, a.storage_min, a.storage_max, a.expressed_type, a.is_per_axis) == \
               (b.storage_width, b.signed, b.storage_min, b.storage_max, b.expressed_type, b.is_per_axis)
    if qa or qb:
        return False
    return a.text == b.text


def shapes_compatible(a: Type | None, b: Type | None) -> bool:
    """``verifyCompatibleShapeWithBounds``: an unranked side, or the same rank with compatible sizes, each
    static size within the other side's bound."""
    sa, sb = shape(a), shape(b)
    if sa is None or sb is None:
        return True
    if len(sa) != len(sb) or not all(dims_compatible(x, y) for x, y in zip(sa, sb, strict=False)):
        return False
    for s, other in ((sa, b), (sb, a)):
        bd = bounds(other)
        if bd and any(0 <= bound < d for d, bound in zip(s, bd, strict=False)):
            return False
    return True


def compatible(a: Type | None, b: Type | None) -> bool:
    """``isCompatibleForHloTypeInference`` (unknown types are compatible with anything)."""
    if a is None or b is None:
        return True
    return shapes_compatible(a, b) and elements_compatible(a, b)


def is_integer(t: Type | None, signless_only: bool = False) -> bool:
    e = element(t)
    return isinstance(e, IntegerType) and (not signless_only or e.signedness == "")


def is_pred(t: Type | None) -> bool:
    e = element(t)
    return isinstance(e, IntegerType) and e.width == 1 and e.signedness == ""


def is_float(t: Type | None) -> bool:
    return isinstance(element(t), FloatType)


def is_complex(t: Type | None) -> bool:
    return isinstance(element(t), ComplexType)


def is_index(t: Type | None) -> bool:
    return isinstance(element(t), IndexType)


def bit_width(t: Type | None) -> int | None:
    """The bit width of an integer, float or complex element type (None for others)."""
    e = element(t)
    if isinstance(e, IntegerType):
        return e.width
    if isinstance(e, ComplexType):
        inner = bit_width(e.element)
        return None if inner is None else 2 * inner
    if isinstance(e, FloatType):
        m = re.match(r"(?:b?f|tf)(\d+)", e.text)
        if m:
            return {"tf32": 19}.get(e.text, int(m.group(1)))
        return 8 if e.text.startswith("f8") else (4 if e.text.startswith("f4") else 6 if e.text.startswith("f6")
                                                   else None)
    return None


# -- failures ---------------------------------------------------------------------------------------------

def op_fail(op, message: str) -> Failure:
    """``op.emitOpError(message)``: ``'name' op message``."""
    return fail(f"'{op.name}' op {message}")


def emit(message: str) -> Failure:
    """``emitOptionalError(location, message)``, as ``TypeInference.cpp`` reports: the message alone, at the op."""
    return fail(message)


def types_text(types: Sequence[Type]) -> str:
    """Types as MLIR writes a TypeRange in a message: ``'a', 'b'``."""
    return ", ".join(f"'{t}'" for t in types)


class AfterRegions(Failure):
    """A failure MLIR finds after the op's nested ops (``verifyRegionInvariants``): InferTypeOpInterface's
    check of an op with regions (``verifyWithRegions``).  The op's other checks come before it."""

    after_regions = True


def check_inferred(op, inferred: Sequence[Type]) -> Failure | None:
    """The InferTypeOpInterface check: each result type compatible with the inferred one (an
    ``AfterRegions`` for an op with regions)."""
    results = out_types(op)
    if any(t is None for t in results):
        return None
    if len(results) != len(inferred) or not all(compatible(a, b) for a, b in zip(inferred, results, strict=False)):
        message = (f"'{op.name}' op inferred type(s) {types_text(inferred)} are incompatible with return type(s) of "
                   f"operation {types_text(results)}")
        return AfterRegions(message) if op.regions else fail(message)
    return None


def seq(values: Sequence[int]) -> str:
    """``[1, 2]`` as StableHLO's messages print an index list."""
    return "[" + ", ".join(map(str, values)) + "]"


def check_in_range(op, values: Sequence[int], lo: int, hi: int, what: str, range_text: str) -> Failure | None:
    """``checkDimsInBounds``: each of ``values`` in ``[lo, hi)``."""
    for v in values:
        if v < lo or v >= hi:
            return emit(f"Expects each element of {what} to be in range {range_text} i.e. [{lo}, {hi}). "
                               f"got: {v}.")
    return None


def first_duplicate(values: Sequence[int]) -> int | None:
    """The first value seen twice, None when all differ."""
    seen: set[int] = set()
    for v in values:
        if v in seen:
            return v
        seen.add(v)
    return None


def constant_ints(value) -> list[int] | None:
    """``matchInts``: the integers of a value defined by a constant op with an integer elements value, else None."""
    owner = getattr(value, "owner", None)
    if owner is None or getattr(owner, "name", None) not in ("stablehlo.constant", "arith.constant"):
        return None
    a = owner.properties_view.get("value")
    if a is None:
        return None
    typed = _typed(str(a))
    values = getattr(typed, "values", None)
    if values is None or not is_integer(getattr(typed, "type", None)) and not is_index(getattr(typed, "type", None)):
        return None
    try:
        return [int(v) for v in values()]
    except (TypeError, ValueError):
        return None


def attr_position(op, ctx, needle: str) -> tuple[int, int] | None:
    """``(line, column)`` of the first ``needle`` written at or after ``op``'s location in the module's source (where
    MLIR reports a failure of an attribute's own verifier); None when the source does not show it."""
    from shardy_py.syntax.source_positions import SourcePositions

    loc = getattr(op, "loc", None)
    if loc is None or ctx is None:
        return None
    positions = getattr(ctx, "_stablehlo_source_positions", None)
    if positions is None:
        positions = SourcePositions(ctx.module)
        ctx._stablehlo_source_positions = positions
    start = positions._offset(loc)
    if start is None:
        return None
    at = positions.text.find(needle, start)
    if at < 0:
        return None
    line, column = positions.lines.locate(at)
    return line + positions.first_line - 1, column


_HLO_FLOATS = frozenset({"f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E3M4", "f8E4M3", "f8E4M3FN", "f8E4M3FNUZ",
                         "f8E4M3B11FNUZ", "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU", "f16", "f32", "f64", "bf16"})


def element_kind(t: Type | None) -> str | None:
    """The ODS class of an element type (of ``t`` or of its elements, ``Base.td``): ``pred`` (i1), ``int``
    (signless or unsigned 2/4/8/16/32/64 bits), ``float`` (HLO_Float), ``complex`` (of f32 or f64), ``quant``
    (per-tensor), ``quant_axis`` (per-axis), ``index``; ``other`` for anything else; None when unknown."""
    e = element(t)
    if e is None:
        return None
    if isinstance(e, IntegerType):
        if e.width == 1 and e.signedness == "":
            return "pred"
        return "int" if e.signedness in ("", "u") and e.width in (2, 4, 8, 16, 32, 64) else "other"
    if isinstance(e, FloatType):
        return "float" if e.text in _HLO_FLOATS else "other"
    if isinstance(e, ComplexType):
        return "complex" if e.element.text in ("f32", "f64") else "other"
    if isinstance(e, QuantizedType):
        return "quant_axis" if e.is_per_axis else "quant"
    if isinstance(e, IndexType):
        return "index"
    return "other"


def attr_text(attr) -> str:
    """``str(attr)``; an ``OpaqueAttr``'s text read directly (as the printer prints it: ``unit`` when empty),
    without the printer's lookup, for checks that read an attribute of every op of a kind."""
    return (attr.text or "unit") if attr.__class__ is OpaqueAttr else str(attr)


def attr_constraint_failure(op, ctx, name: str, constraint: str) -> Failure:
    """ODS ``op attribute 'NAME' failed to satisfy constraint: ...``.  MLIR checks an inherent attribute written
    in a custom form's attribute dictionary while parsing it, so reports it at that dictionary's ``{``."""
    f = op_fail(op, f"attribute '{name}' failed to satisfy constraint: {constraint}")
    if getattr(op, "generic_form", True):
        return f
    at = attr_position(op, ctx, name)
    if at is None:
        return f
    positions = ctx._stablehlo_source_positions
    end = positions.lines.starts[at[0] - positions.first_line] + at[1] - 1
    brace = positions.text.rfind("{", 0, end)
    start = positions._offset(op.loc)
    if brace < 0 or start is None or brace < start:
        return f
    line, column = positions.lines.locate(brace)
    return Failure(f.message, (), (line + positions.first_line - 1, column))


def non_negative_attr(op, name: str, bits: int = 64, ctx=None) -> Failure | None:
    """ODS ``ConfinedAttr<I64Attr, [IntNonNegative]>``: the integer property ``name`` is not negative."""
    v = int_prop(op, name)
    if v is not None and v < 0:
        return attr_constraint_failure(op, ctx, name, f"{bits}-bit signless integer attribute whose value is "
                                                      "non-negative")
    return None


def static_dimension_tensor(op, index: int) -> Failure | None:
    """ODS ``HLO_StaticDimensionTensor``: operand ``index`` is a statically shaped 1-D tensor of index or
    integer values."""
    t = in_types(op)[index] if index < len(in_types(op)) else None
    if t is None:
        return None
    s = shape(t)
    if s is None or len(s) != 1 or s[0] < 0 or element_kind(t) not in ("int", "index"):
        return op_fail(op, f"operand #{index} must be statically shaped 1-dimensional tensor of index or 2/4/8/16/32/"
                           f"64-bit integer values, but got '{t}'")
    return None


#: ``clean_when_seen``'s memory: verifier, op name, operand and result types and properties of ops judged clean.
_CLEAN: set = set()
_CLEAN_LIMIT = 200_000


def clean_when_seen(fn, region_key=None):
    """Wrap a verifier whose verdict depends on the op's name, operand and result types and properties only
    (and on ``region_key(op)``, when given): an op alike to one already judged clean is clean (a big module
    repeats a few op shapes many times).  ``region_key`` returning None means: judge this op every time."""
    def verify(op, ctx):
        props = op.properties_view
        extra = () if region_key is None else region_key(op)
        if extra is None:
            return fn(op, ctx)
        try:
            key = (fn, op.name, tuple([v.type if v is not None else None for v in op.operands]),
                   tuple(op.operand_types_view), tuple([r.type for r in op.results]),
                   tuple(props.items()) if props else (), extra)
            if key in _CLEAN:
                return None
        except TypeError:  # an unhashable property
            return fn(op, ctx)
        f = fn(op, ctx)
        if f is None:
            if len(_CLEAN) >= _CLEAN_LIMIT:
                _CLEAN.clear()
            _CLEAN.add(key)
        return f

    verify.__doc__ = fn.__doc__
    verify.__name__ = fn.__name__
    verify.__wrapped__ = fn
    verify.rewrap = lambda inner: clean_when_seen(inner, region_key)  # (``registry.add_verifier``)
    return verify


def attribute_verifier_failure(op, ctx, name: str, needle: str, words: tuple[str, ...]) -> Failure | None:
    """The failure of the property ``name``'s own verifier (run when MLIR parses the attribute; the reader raises
    it with MLIR's message), reported at the attribute (``needle`` is where its text starts); None when it reads,
    or fails for a reason not among ``words``."""
    raw = prop(op, name)
    if raw is None:
        return None
    from shardy_py.errors import AttrSyntaxError
    from shardy_py.syntax.attr_reader import parse_attribute

    try:
        parse_attribute(str(raw))
    except AttrSyntaxError as e:
        if any(w in e.message for w in words):
            return Failure(e.message, (), attr_position(op, ctx, needle))
    return None
