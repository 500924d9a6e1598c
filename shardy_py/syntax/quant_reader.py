"""``!quant.uniform<...>`` types: read into ``QuantizedType`` and printed as the quant dialect prints them.

Grammar (MLIR ``quant`` dialect ``TypeParser.cpp``)::

    uniform ::= `uniform<` storage (`<` min `:` max `>`)? `:` expressed (`:` axis)? `,` params `>`
    params  ::= scale (`:` zero_point)?  |  `{` scale (`:` zero_point)? (`,` ...)* `}`

Storage is ``iN`` (signed) or ``uN`` (unsigned); the printer writes scales with C's ``%e``
(``1.000000e+00``), drops zero points equal to 0 and storage ranges equal to the storage type's range.
A ``uniform`` body outside this grammar (sub-channel forms) is kept as written.
"""
from __future__ import annotations

import re
import struct

from shardy_py.errors import AttrSyntaxError
from shardy_py.ir import types as T
from shardy_py.syntax.floats import SEMANTICS, FloatType

_STORAGE = re.compile(r"\s*(?:(u)(\d+)|(s?i)(\d+))(?![\w.])")
_SCALE = re.compile(r"\s*(-?\s*(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+))")


def scale_text(bits: int) -> str:
    """A float64 scale as ``raw_ostream << double`` prints it (``%e``; ``nan``, ``INF``, ``-INF``)."""
    v = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "-INF" if v < 0 else "INF"
    return f"{v:e}"


def _bits(v: float) -> int:
    return int.from_bytes(struct.pack("<d", v), "little")


def uniform_text(q: T.QuantizedType) -> str:
    """The canonical ``!quant.uniform<...>`` text of ``q``'s parameters."""
    lo, hi = _default_range(q.signed, q.storage_width)
    storage = q.storage_type + (f"<{q.storage_min}:{q.storage_max}>" if (q.storage_min, q.storage_max) != (lo, hi)
                                else "")
    params = [scale_text(s) + (f":{z}" if z else "") for s, z in zip(q.scales, q.zero_points, strict=True)]
    if q.quantized_dimension is None:
        return f"!quant.uniform<{storage}:{q.expressed_type}, {params[0]}>"
    return f"!quant.uniform<{storage}:{q.expressed_type}:{q.quantized_dimension}, {{{','.join(params)}}}>"


def _default_range(signed: bool, width: int) -> tuple[int, int]:
    return (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)


class QuantTypeError(AttrSyntaxError):
    """A ``!quant.uniform`` type the quant dialect rejects (its parser's checks and ``verifyInvariants``):
    MLIR's parse error, never kept as written."""


def read_uniform(reader, pos: int, end: int) -> T.Type:
    """The type for the body ``reader.text[pos:end]`` of ``!quant.uniform<...>`` (``end`` at its ``>``);
    a body outside the grammar above gives a plain ``Type`` with the text as written, one the quant
    dialect rejects raises ``QuantTypeError``."""
    try:
        return _read(reader, pos, end)
    except QuantTypeError:
        raise
    except AttrSyntaxError:
        return T.Type(reader.text[pos - len("!quant.uniform<"):end + 1])


def _scale_range(expressed: T.Type) -> tuple[float, float] | None:
    """The smallest positive and the largest finite value of a float type, as doubles (``APFloat::getSmallest``,
    ``getLargest``); None for a type that is not a float."""
    name = expressed.text if isinstance(expressed, T.FloatType) else None
    if name not in SEMANTICS or name == "f128":
        return None
    f = FloatType(name)
    return float(f.to_fraction(1 if f.has_zero else 0)), float(f.to_fraction(f._largest()))


def _check(reader, at: int, signed: bool, width: int, lo: int, hi: int, expressed: T.Type, axis: int | None,
           scales: list[int]) -> None:
    """``verifyInvariants`` of the quant types MLIR builds (``getChecked`` at the type, ``at``)."""
    dlo, dhi = _default_range(signed, width)
    if hi - lo <= 0 or lo < dlo or hi > dhi:
        raise QuantTypeError(f"illegal storage min and storage max: ({lo}:{hi})", at)
    if axis is not None and axis < 0:
        raise QuantTypeError(f"illegal quantized dimension: {axis}", at)
    for bits in scales:
        v = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
        if not (v > 0.0 and v != float("inf")):
            raise QuantTypeError(f"illegal scale: {scale_text(bits)}", at)


def _read(reader, pos: int, end: int) -> T.QuantizedType:
    type_at = pos - len("!quant.uniform<")
    m = _STORAGE.match(reader.text, pos, end)
    if not m:
        raise reader.error("expected a storage type (iN or uN)", pos)
    signed = m.group(1) is None
    width = int(m.group(4) if signed else m.group(2))
    if not 0 < width <= 64:
        raise reader.error("illegal storage type size", pos)
    lo, hi = _default_range(signed, width)
    pos = m.end()
    if (p := reader.optional(pos, end, "<")) is not None:
        min_at = reader.skip(p)
        lo, pos = reader.integer(p, end, "the storage type minimum")
        pos = reader.expect(pos, end, ":", "between the storage minimum and maximum")
        max_at = reader.skip(pos)
        hi, pos = reader.integer(pos, end, "the storage type maximum")
        pos = reader.expect(pos, end, ">", "to close the storage range")
        dlo, dhi = _default_range(signed, width)
        if lo < dlo:
            raise QuantTypeError(f"illegal storage type minimum: {lo}", min_at)
        if hi > dhi:
            raise QuantTypeError(f"illegal storage type maximum: {hi}", max_at)
    pos = reader.expect(pos, end, ":", "after the storage type")
    expressed_at = reader.skip(pos)
    expressed, pos = reader.type(pos, end)
    limits = _scale_range(expressed)
    if limits is None:
        raise QuantTypeError("invalid kind of type specified", expressed_at)
    axis = None
    if (p := reader.optional(pos, end, ":")) is not None:
        axis, pos = reader.integer(p, end, "the quantized dimension")
    pos = reader.expect(pos, end, ",", "before the quantization parameters")
    scales, zeros = [], []
    per_axis = (p := reader.optional(pos, end, "{")) is not None
    if per_axis:
        pos = p
    while True:
        sm = _SCALE.match(reader.text, pos, end)
        if not sm:
            raise reader.error("expected a scale", reader.skip(pos))
        scale = float(sm.group(1).replace(" ", ""))
        scales.append(_bits(scale))
        pos = sm.end()
        if not limits[0] <= scale <= limits[1]:  # (at the token after the scale)
            raise QuantTypeError(f"scale {scale_text(_bits(scale))} out of expressed type range "
                                 f"[{limits[0]:e}, {limits[1]:e}]", reader.skip(pos))
        z = 0
        if (p := reader.optional(pos, end, ":")) is not None:
            z, pos = reader.integer(p, end, "a zero point")
        zeros.append(z)
        if not per_axis:
            break
        if (p := reader.optional(pos, end, ",")) is not None:
            pos = p
            continue
        pos = reader.expect(pos, end, "}", "to close the per-axis parameters")
        break
    if reader.skip(pos) != end or (axis is None) == per_axis:
        raise reader.error("unexpected text in a quant.uniform type", reader.skip(pos))
    _check(reader, type_at, signed, width, lo, hi, expressed, axis, scales)
    storage = m.group().strip()
    q = T.QuantizedType("", signed, width, lo, hi, expressed, axis, tuple(scales), tuple(zeros), storage)
    return T.QuantizedType(uniform_text(q), signed, width, lo, hi, expressed, axis, tuple(scales), tuple(zeros),
                           storage)
