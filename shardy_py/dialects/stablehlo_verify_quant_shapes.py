"""Quantization rules of StableHLO's shape ops (``TypeInference.cpp``:
``verifyQPerTensorScaleAndZeroPointConstraints``, ``verifyQPerAxisScaleAndZeroPointConstraints``,
``verifyReshapeOpQuantizationConstraints``, ``verifyBroadcastInDimOpQuantConstraints`` and the
quantization part of ``verifyTransposeOp``), run after the ops' own verifiers
(``registry.add_verifier(..., after=True)``): a reshape, transpose or broadcast keeps the operand's
quantization parameters, and a per-axis quantized dimension follows the op's dimension mapping."""
from __future__ import annotations

import struct

from shardy_py.dialects.registry import OPS, add_verifier
from shardy_py.dialects.stablehlo_verify_common import element, ints_prop, shape
from shardy_py.dialects.stablehlo_verify_types import q
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import QuantizedType


def _quant(t) -> QuantizedType | None:
    e = element(t) if t is not None else None
    return e if isinstance(e, QuantizedType) else None


def _scale(bits: int) -> str:
    """A scale as MLIR's diagnostics print a double (``%e``)."""
    return f"{struct.unpack('<d', struct.pack('<Q', bits))[0]:e}"


def _operand_and_result(op):
    if not op.operands or len(op.results) != 1 or op.operands[0] is None:
        return None
    a, b = op.operands[0].type, op.results[0].type
    return None if a is None or b is None else (a, b)


def _same_parameters(a, b) -> Failure | None:
    """Per-tensor: the same quantized element type; per-axis: the same scales and zero points."""
    qa, qb = _quant(a), _quant(b)
    if qa is None or qb is None:
        return None
    if not qa.is_per_axis and not qb.is_per_axis and qa.text != qb.text:
        return fail(f"expect same quantization scale and zero_point but got {q(a)} vs {q(b)}")
    if qa.is_per_axis and qb.is_per_axis and (
            any(x != y for x, y in zip(qa.scales, qb.scales, strict=False))
            or any(x != y for x, y in zip(qa.zero_points, qb.zero_points, strict=False))):
        return fail(f"expect same quantization scales and zero_points but got {q(a)} vs {q(b)}")
    return None


def _per_axis_pair(op):
    """``(operand type, result type, their quantized elements, failure)``: the parameters compared first; the
    elements are None unless both are per-axis quantized."""
    types = _operand_and_result(op)
    if types is None:
        return None, None, None, None, None
    a, b = types
    qa, qb = _quant(a), _quant(b)
    if qa is None or qb is None or not (qa.is_per_axis and qb.is_per_axis):
        qa = qb = None
    return a, b, qa, qb, _same_parameters(a, b)


def verify_reshape_quantization(op, ctx) -> Failure | None:
    """``verifyReshapeOpQuantizationConstraints``: the same parameters; per-axis, the quantized dimension
    of the same size with the same number of elements before it."""
    a, b, qa, qb, f = _per_axis_pair(op)
    if f is not None or qa is None:
        return f
    sa, sb = shape(a), shape(b)
    da, db = qa.quantized_dimension, qb.quantized_dimension
    if sa is None or sb is None or da >= len(sa) or db >= len(sb):
        return None
    if sa[da] >= 0 and sb[db] >= 0 and sa[da] != sb[db]:
        return fail(f"expect same quantization dimension size for operand and result {q(a)} and {q(b)}")
    if all(d >= 0 for d in (*sa, *sb)):
        before_a, before_b = 1, 1
        for d in sa[:da]:
            before_a *= d
        for d in sb[:db]:
            before_b *= d
        if before_a != before_b:
            return fail("product of dimensions before quantization dimension must match between operand and result "
                        f"for {before_a} and {before_b}")
    return None


def verify_transpose_quantization(op, ctx) -> Failure | None:
    """``verifyTransposeOp``'s quantization part: the same parameters, and the result's quantized dimension
    taken from the operand's through the permutation."""
    a, b, qa, qb, f = _per_axis_pair(op)
    permutation = ints_prop(op, "permutation")
    if f is not None or qa is None or permutation is None:
        return f
    d = qb.quantized_dimension
    if d < len(permutation) and qa.quantized_dimension != permutation[d]:
        return fail(f"operand quantization_dimension {qa.quantized_dimension} is not same as permutation[{d}] = "
                    f"{permutation[d]}")
    return None


def _per_axis_broadcast(op, a, b) -> Failure | None:
    """``verifyBroadcastInDimOpQuantConstraints``: the result's quantized dimension is where the operand's goes;
    a size-1 operand dimension gives every result slice its one scale and zero point."""
    qa, qb = _quant(a), _quant(b)
    dims = ints_prop(op, "broadcast_dimensions")
    if qa is None or qb is None or not (qa.is_per_axis and qb.is_per_axis) or dims is None:
        return None
    da, db = qa.quantized_dimension, qb.quantized_dimension
    if da >= len(dims):
        return None
    if db != dims[da]:
        return fail(f"result quantization_dimension {db} not same as broadcast_dimensions[{da}] = {dims[da]}")
    sa, sb = shape(a), shape(b)
    if sa is None or sb is None or da >= len(sa) or db >= len(sb) or sa[da] != 1:
        return None
    for i in range(max(sb[db], 0)):
        if i >= len(qb.scales) or not qa.scales:
            return None
        if qb.scales[i] != qa.scales[0]:
            return fail(f"mismatch result scale {i} ({_scale(qb.scales[i])}) and operand scale 0 "
                        f"({_scale(qa.scales[0])})")
        if qb.zero_points[i] != qa.zero_points[0]:
            return fail(f"mismatch result zero_point {i} ({qb.zero_points[i]}) and operand zero_point 0 "
                        f"({qa.zero_points[0]})")
    return None


def verify_broadcast_in_dim_quantization(op, ctx) -> Failure | None:
    """``verifyBroadcastInDimOp``'s quantization parts."""
    types = _operand_and_result(op)
    if types is None:
        return None
    a, b = types
    qa, qb = _quant(a), _quant(b)
    if qa is not None and qb is not None and not qa.is_per_axis and not qb.is_per_axis:
        return _same_parameters(a, b)
    return _per_axis_broadcast(op, a, b)


def verify_dynamic_broadcast_in_dim_quantization(op, ctx) -> Failure | None:
    """``verifyDynamicBroadcastInDimOp``'s quantization part (per-axis only)."""
    types = _operand_and_result(op)
    return None if types is None else _per_axis_broadcast(op, *types)


for _name, _fn in (("reshape", verify_reshape_quantization), ("dynamic_reshape", verify_reshape_quantization),
                   ("transpose", verify_transpose_quantization),
                   ("broadcast_in_dim", verify_broadcast_in_dim_quantization),
                   ("dynamic_broadcast_in_dim", verify_dynamic_broadcast_in_dim_quantization)):
    if f"stablehlo.{_name}" in OPS:
        add_verifier(f"stablehlo.{_name}", _fn, after=True)
