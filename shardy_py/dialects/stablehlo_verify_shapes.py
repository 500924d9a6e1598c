"""Verifiers of StableHLO's shape ops: broadcasts, concatenate, slices, pad, reshapes, transpose, reverse,
iotas and the dimension-size ops (``inferBroadcastOp``, ``verifyBroadcastInDimOp``,
``verifyDynamicBroadcastInDimOp``, ``inferConcatenateOp``, ``inferSliceOp``, ``inferDynamicSliceOp``,
``inferDynamicUpdateSliceOp``, ``inferPadOp``, ``verifyDynamicPadOp``, ``verifyReshapeOp``,
``verifyDynamicReshapeOp``, ``inferTransposeOp``, ``verifyReverseOp``, ``verifyIotaOp``,
``verifyDynamicIotaOp``, ``inferGetDimensionSizeOp``, ``inferSetDimensionSizeOp``,
``inferGetTupleElementOp`` in StableHLO's ``TypeInference.cpp``)."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.dialects.stablehlo_verify_common import (
    bounds,
    check_inferred,
    clean_when_seen,
    compatible,
    constant_ints,
    dims_compatible,
    element,
    elements_compatible,
    emit,
    first_duplicate,
    in_types,
    int_prop,
    ints_prop,
    is_float,
    is_quantized,
    non_negative_attr,
    op_fail,
    out_types,
    prop,
    shape,
    static_dimension_tensor,
    tensor,
)
from shardy_py.ir.diagnostics import Failure
from shardy_py.ir.types import TupleType


def _joined(values: Sequence[int]) -> str:
    return ", ".join(map(str, values))


def _static_or_single_bounded(op, t) -> Failure | None:
    """ODS ``HLO_StaticShapeTensorPerAxisQuantizedTensorOrBoundedTensor`` for the result."""
    s = shape(t)
    if s is None:
        return None
    dynamic = sum(1 for d in s if d < 0)
    bounded = sum(1 for b in (bounds(t) or ()) if b >= 0)
    if dynamic and not (dynamic == 1 and bounded == 1):
        return op_fail(op, f"result #0 must be statically shaped or single bounded dimension tensor of ... values, "
                           f"but got '{t}'")
    return None


def _shape_operand_matches(op, index: int, result) -> Failure | None:
    """``verifyShapeOperandIsCompatibleWithResultType``: a constant shape operand agrees with the result type."""
    values = constant_ints(op.operands[index]) if index < len(op.operands) else None
    if values is None or result is None:
        return None
    if any(v < 0 for v in values) or not compatible(tensor(values, element(result)), result):
        return emit(f"output shape [{_joined(values)}] is incompatible with return type of operation "
                           f"'{result}'")
    return None


def _product(dims: Sequence[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


# -- broadcasts ------------------------------------------------------------------------------------

@clean_when_seen
def verify_broadcast(op, ctx) -> Failure | None:
    """``stablehlo.broadcast``: the sizes prepended to the operand's shape."""
    operand = in_types(op)[0]
    sizes = ints_prop(op, "broadcast_sizes")
    if shape(operand) is None or sizes is None:
        return None
    for size in sizes:
        if size < 0:
            return emit(f"Broadcast with negative dimension size {size}")
    return check_inferred(op, [tensor([*sizes, *shape(operand)], element(operand))])


def _broadcast_dims(op, operand: tuple[int, ...], result: tuple[int, ...], dims: Sequence[int]) -> Failure | None:
    if len(dims) != len(operand):
        return emit(f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(operand)})")
    return None


@clean_when_seen
def verify_broadcast_in_dim(op, ctx) -> Failure | None:
    """``stablehlo.broadcast_in_dim``: ``verifyBroadcastInDimOp`` (the per-axis quantization rules aside)."""
    operand_t, result_t = in_types(op)[0], out_types(op)[0]
    operand, result = shape(operand_t), shape(result_t)
    dims = ints_prop(op, "broadcast_dimensions")
    if operand is None or result is None or dims is None:
        return None
    f = _static_or_single_bounded(op, result_t) or _broadcast_dims(op, operand, result, dims)
    if f is not None:
        return f
    if first_duplicate(dims) is not None:
        return emit("broadcast_dimensions should not have duplicates")
    for i, d in enumerate(dims):
        if not 0 <= d < len(result):
            return emit(f"broadcast_dimensions contains invalid value {d} for result with rank {len(result)}")
        if operand[i] >= 0 and operand[i] != 1 and operand[i] != result[d]:
            return emit(f"size of operand dimension {i} ({operand[i]}) is not equal to 1 or size of result "
                               f"dimension {d} ({result[d]})")
    return None


def verify_dynamic_broadcast_in_dim(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_broadcast_in_dim``: ``verifyDynamicBroadcastInDimOp``."""
    types = in_types(op)
    operand_t, result_t = types[0], out_types(op)[0]
    operand, result = shape(operand_t), shape(result_t)
    dims = ints_prop(op, "broadcast_dimensions")
    f = static_dimension_tensor(op, 1)
    if f is not None or operand is None or result is None or dims is None:
        return f
    if not is_quantized(operand_t) and not is_quantized(result_t) and not elements_compatible(operand_t, result_t):
        return emit(f"expects operand and result to have compatible element type. Got: '{operand_t}' and "
                           f"'{result_t}'")
    f = _broadcast_dims(op, operand, result, dims)
    if f is not None:
        return f
    if len(result) < len(operand):
        return emit(f"result rank ({len(result)}) is less than operand rank ({len(operand)})")
    if first_duplicate(dims) is not None:
        return emit("broadcast_dimensions should not have duplicates")
    for i, d in enumerate(dims):
        if not 0 <= d < len(result):
            return emit(f"broadcast_dimensions contains invalid value {d} for result with rank {len(result)}")
        if operand[i] != 1 and not dims_compatible(operand[i], result[d]):
            return emit(f"size of operand dimension {i} ({operand[i]}) is not compatible with size of result "
                               f"dimension {d} ({result[d]})")
    f = _shape_operand_matches(op, 1, result_t)
    if f is not None:
        return f
    hints = [*(ints_prop(op, "known_expanding_dimensions") or ()), *(ints_prop(op, "known_nonexpanding_dimensions")
                                                                     or ())]
    if first_duplicate(hints) is not None:
        return emit("duplicate expansion hint for at least one operand dimension")
    for h in hints:
        if not 0 <= h < len(operand):
            return emit(f"hint for expanding dimension {h} does not refer to a valid operand dimension")
    values = constant_ints(op.operands[1]) if len(op.operands) > 1 else None
    if values is not None and all(d >= 0 for d in operand):
        for i, d in enumerate(dims):
            if d < len(values) and operand[i] != 1 and operand[i] != values[d]:
                return emit(f"size of operand dimension {i} ({operand[i]}) is not equal to 1 or value of shape "
                                   f"at index {d} ({values[d]})")
    return None


# -- concatenate -------------------------------------------------------------------------------------

@clean_when_seen
def verify_concatenate(op, ctx) -> Failure | None:
    """``stablehlo.concatenate``: ``inferConcatenateOp``."""
    types = in_types(op)
    f = non_negative_attr(op, "dimension", ctx=ctx)
    if f is not None:
        return f
    if not types:
        return op_fail(op, "expected 1 or more operands, but found 0")
    shapes = [shape(t) for t in types]
    dim = int_prop(op, "dimension")
    if any(s is None for s in shapes) or dim is None:
        return None
    rank = len(shapes[0])
    if rank == 0:
        return emit("rank-0 values cannot be concatenated")
    if dim >= rank:
        return emit(f"dimension {dim} is out-of-bounds for input rank {rank}")
    for i, s in enumerate(shapes):
        if len(s) != rank:
            return emit(f"operands (0) and ({i}) do not match rank")
        for d in range(rank):
            if d != dim and not dims_compatible(shapes[0][d], s[d]):
                return emit(f"shapes of operand (0) and ({i}) are not compatible at non-concat index {d}: "
                                   f"({_joined(shapes[0])}) != ({_joined(s)})")
    dims = []
    for d in range(rank):
        column = [s[d] for s in shapes]
        if d == dim:
            dims.append(-1 if any(x < 0 for x in column) else sum(column))
        else:
            dims.append(next((x for x in column if x >= 0), -1))
    return check_inferred(op, [tensor(dims, element(types[0]))])


# -- slices ------------------------------------------------------------------------------------------

@clean_when_seen
def verify_slice(op, ctx) -> Failure | None:
    """``stablehlo.slice``: ``inferSliceOp``."""
    operand_t = in_types(op)[0]
    operand = shape(operand_t)
    start, limit, strides = (ints_prop(op, n) for n in ("start_indices", "limit_indices", "strides"))
    if operand is None or start is None or limit is None or strides is None:
        return None
    if len(start) != len(operand):
        return emit(f"the number of elements in start_indices ({len(start)}) does not match the rank of the "
                           f"operand ({len(operand)})")
    if len(limit) != len(operand) or len(strides) != len(operand):
        return None  # (ODS AllMatchSameOperatorTrait: a parse-time rule of the custom syntax)
    in_bounds = bounds(operand_t)
    dims = []
    for i, d in enumerate(operand):
        if start[i] < 0:
            return emit(f"negative start index {start[i]} in dimension {i}")
        bound = in_bounds[i] if in_bounds and i < len(in_bounds) else -1
        if d >= 0 or bound >= 0:
            size, what = (d, "size") if d >= 0 else (bound, "bound")
            if limit[i] > size:
                return emit(f"limit index {limit[i]} is larger than dimension {what} {size} in dimension {i}")
        if start[i] > limit[i]:
            return emit(f"start index {start[i]} is larger than limit index {limit[i]} in dimension {i}")
        if strides[i] <= 0:
            return emit(f"stride must be positive but got {strides[i]} in dimension {i}")
        dims.append(-(-(limit[i] - start[i]) // strides[i]))
    return check_inferred(op, [tensor(dims, element(operand_t))])


def _same_index_types(types) -> bool:
    """``tensorsHaveSameElType`` (float precision ignored)."""
    kinds = {("float" if is_float(t) else str(element(t))) for t in types if t is not None}
    return len(kinds) <= 1


@clean_when_seen
def verify_dynamic_slice(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_slice``: ``inferDynamicSliceOp``."""
    types = in_types(op)
    operand = shape(types[0])
    sizes = ints_prop(op, "slice_sizes")
    if operand is None or sizes is None:
        return None
    starts = types[1:]
    if len(starts) != len(sizes):
        return emit(f"has mismatched number of slice sizes ({len(sizes)}) and number of start indices "
                           f"({len(starts)})")
    if len(operand) != len(starts):
        return emit(f"has mismatched number of start indices ({len(starts)}) and the rank of operand "
                           f"({len(operand)})")
    if not _same_index_types(starts):
        return emit("start indices must have same element type")
    for i, size in enumerate(sizes):
        if size < 0:
            return emit(f"has negative size index to dynamic slice: {size}")
        if operand[i] >= 0 and size > operand[i]:
            return emit(f"has slice size {size} greater than dimension size {operand[i]} in dimension {i} of "
                               "operand")
    return check_inferred(op, [tensor(sizes, element(types[0]))])


@clean_when_seen
def verify_dynamic_update_slice(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_update_slice``: ``inferDynamicUpdateSliceOp``."""
    types = in_types(op)
    if len(types) < 2:
        return None
    operand, update = shape(types[0]), shape(types[1])
    if operand is None or update is None:
        return None
    if len(update) != len(operand):
        return emit(f"update rank does not match operand rank: {len(update)} vs {len(operand)}.")
    starts = types[2:]
    if len(starts) != len(operand):
        return emit(f"expects number of start_indices to match operand rank: {len(starts)} vs {len(operand)}.")
    if not _same_index_types(starts):
        return emit("start indices must have same element type")
    for i, (o, u) in enumerate(zip(operand, update, strict=True)):
        if u >= 0 and o >= 0 and u > o:
            return emit(f"expects size at dimension {i} of update to be in range [0, {o}]. Got: {u}.")
    return check_inferred(op, [tensor(operand, element(types[0]), bounds(types[0]))])


@clean_when_seen
def verify_real_dynamic_slice(op, ctx) -> Failure | None:
    """``stablehlo.real_dynamic_slice``: one start, limit and stride per operand dimension."""
    types = in_types(op)
    operand = shape(types[0])
    if operand is None or len(types) < 4:
        return None
    for t, name in zip(types[1:4], ("start_indices", "limit_indices", "strides"), strict=True):
        s = shape(t)
        if s is not None and all(d >= 0 for d in s) and _product(s) != len(operand):
            return emit(f"has mismatched number of operand rank ({len(operand)}) and {name} size "
                               f"({_product(s)})")
    return None


# -- pads ----------------------------------------------------------------------------------------------

@clean_when_seen
def verify_pad(op, ctx) -> Failure | None:
    """``stablehlo.pad``: ``inferPadOp``."""
    operand_t = in_types(op)[0]
    operand = shape(operand_t)
    low, high, interior = (ints_prop(op, n) for n in ("edge_padding_low", "edge_padding_high", "interior_padding"))
    if operand is None or low is None or high is None or interior is None:
        return None
    if len(low) != len(operand):
        return emit(f"edge_padding_low length ({len(low)}) must match operand rank ({len(operand)})")
    if len(high) != len(operand) or len(interior) != len(operand):
        return None  # (ODS AllMatchSameOperatorTrait: a rule of its own)
    in_bounds = bounds(operand_t)
    dims, out_bounds = [-1] * len(operand), [-1] * len(in_bounds or ())
    for i, d in enumerate(operand):
        if interior[i] < 0:
            return emit(f"Interior padding cannot be negative: {interior[i]}")
        bound = in_bounds[i] if in_bounds and i < len(in_bounds) else -1
        if d >= 0 or bound >= 0:
            base = d if d >= 0 else bound
            size = base + low[i] + high[i] + max(base - 1, 0) * interior[i]
            if size < 0:
                return emit(f"Padding result in negative {'size' if d >= 0 else 'bound'} for dimension {i}")
            if d >= 0:
                dims[i] = size
            else:
                out_bounds[i] = size
    return check_inferred(op, [tensor(dims, element(operand_t), out_bounds)])


def verify_dynamic_pad(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_pad``: its ODS traits (``AllElementTypesMatch``, ``AllTypesMatch``,
    ``AllRanksMatch``), then ``verifyDynamicPadOp``."""
    types = in_types(op)
    outs = out_types(op)
    if len(types) == 5 and len(outs) == 1 and None not in types and outs[0] is not None:
        if len({str(element(t)) for t in (types[0], types[1], outs[0])}) > 1:
            return op_fail(op, "failed to verify that all of {operand, padding_value, result} have same element type")
        if len({str(t) for t in types[2:]}) > 1:
            return op_fail(op, "failed to verify that all of {edge_padding_low, edge_padding_high, interior_padding} "
                               "have same type")
        if shape(types[0]) is not None and shape(outs[0]) is not None and len(shape(types[0])) != len(shape(outs[0])):
            return op_fail(op, "failed to verify that all of {operand, result} have same rank")
    if len(types) < 5 or shape(types[0]) is None or shape(types[2]) is None:
        return None
    operand, result = shape(types[0]), shape(out_types(op)[0])
    size = shape(types[2])[0] if shape(types[2]) else -1
    if size != len(operand):
        return emit(f"padding operands size ({size}) must match operand rank ({len(operand)})")
    interior = constant_ints(op.operands[4])
    if interior is not None and any(v < 0 for v in interior):
        return emit(f"interior_padding must be non-negative, but got {_joined(interior)}")
    low, high = constant_ints(op.operands[2]), constant_ints(op.operands[3])
    if interior is None or low is None or high is None or result is None or \
            any(d < 0 for d in (*operand, *result)) or not len(operand) == len(result) == len(low) == len(high):
        return None
    for i, (n, out, lo, hi, mid) in enumerate(zip(operand, result, low, high, interior, strict=False)):
        want = n + lo + max(n - 1, 0) * mid + hi
        if out != want:
            return emit(f"expected output dimension at index {i} to equal {want}, but got {out}")
    return None


# -- reshapes, transpose, reverse -----------------------------------------------------------------------

@clean_when_seen
def verify_reshape(op, ctx) -> Failure | None:
    """``stablehlo.reshape``: a static result with as many elements as a static operand."""
    operand_t, result_t = in_types(op)[0], out_types(op)[0]
    f = _static_or_single_bounded(op, result_t)
    if f is not None:
        return f
    operand, result = shape(operand_t), shape(result_t)
    if operand is None or result is None or min((*operand, *result), default=0) < 0:
        return None
    if _product(result) != _product(operand):
        return emit(f"number of output elements ({_product(result)}) doesn't match expected number of elements "
                           f"({_product(operand)})")
    return None


def verify_dynamic_reshape(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_reshape``: ``verifyDynamicReshapeOp``."""
    types = in_types(op)
    f = static_dimension_tensor(op, 1)
    if f is not None:
        return f
    operand_t, result_t = types[0], out_types(op)[0]
    operand, result = shape(operand_t), shape(result_t)
    if operand is None or result is None:
        return None
    if not is_quantized(operand_t) and not is_quantized(result_t) and not elements_compatible(operand_t, result_t):
        return emit(f"expects operand and result to have compatible element type. Got: '{operand_t}' and "
                           f"'{result_t}'")
    static = min((*operand, *result), default=0) >= 0
    if static and _product(result) != _product(operand):
        return emit(f"number of output elements ({_product(result)}) doesn't match expected number of elements "
                           f"({_product(operand)})")
    f = _shape_operand_matches(op, 1, result_t)
    if f is not None:
        return f
    if shape(types[1])[0] != len(result):
        return emit("result should have a rank equal to the number of elements in output_shape")
    values = constant_ints(op.operands[1])
    if values is not None and min(operand, default=0) >= 0 and _product(values) != _product(operand):
        return emit(f"output_shape is incompatible with input type of operation: input has {_product(operand)} "
                           f"elements, but output_shape has {_product(values)}")
    return None


@clean_when_seen
def verify_transpose(op, ctx) -> Failure | None:
    """``stablehlo.transpose``: ``inferTransposeOp``."""
    operand_t = in_types(op)[0]
    operand = shape(operand_t)
    if prop(op, "permutation") is None:
        return op_fail(op, "requires attribute 'permutation'")
    perm = ints_prop(op, "permutation")
    if operand is None or perm is None:
        return None
    if len(perm) != len(operand):
        return emit(f"TransposeOp operand rank {len(operand)} does not match permutation size {len(perm)}")
    if sorted(perm) != list(range(len(operand))):
        return emit(f"attribute permutation must be a permutation of [{_joined(range(len(operand)))}] but got "
                           f"{_joined(perm)}")
    in_bounds = bounds(operand_t)
    out_bounds = [in_bounds[p] for p in perm] if in_bounds else None
    return check_inferred(op, [tensor([operand[p] for p in perm], element(operand_t), out_bounds)])


@clean_when_seen
def verify_reverse(op, ctx) -> Failure | None:
    """``stablehlo.reverse``: ``verifyReverseOp``."""
    operand = shape(in_types(op)[0])
    dims = ints_prop(op, "dimensions")
    if dims is None:
        return None
    if first_duplicate(dims) is not None:
        return emit(f"dimensions should be unique. Got: {_joined(dims)}")
    if operand is None:
        return None
    for d in dims:
        if d < 0:
            return emit(f"all dimensions should be non-negative. Got dimension: {d}.")
        if d >= len(operand):
            return emit(f"all dimensions should be between [0, {len(operand)}). Got dimension: {d}.")
    return None


# -- iotas and dimension sizes ------------------------------------------------------------------------------

@clean_when_seen
def verify_iota(op, ctx) -> Failure | None:
    """``stablehlo.iota``: ``verifyIotaOp``."""
    f = non_negative_attr(op, "iota_dimension", ctx=ctx)
    result = shape(out_types(op)[0]) if op.results else None
    dim = int_prop(op, "iota_dimension")
    if f is not None or result is None or dim is None:
        return f
    if not result:
        return emit("does not support scalars.")
    if dim >= len(result):
        return emit("iota dimension cannot go beyond the output rank.")
    return None


def verify_dynamic_iota(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_iota``: ``verifyDynamicIotaOp``."""
    f = non_negative_attr(op, "iota_dimension", ctx=ctx) or static_dimension_tensor(op, 0)
    result_t = out_types(op)[0] if op.results else None
    dim = int_prop(op, "iota_dimension")
    if f is not None or shape(result_t) is None or dim is None:
        return f
    if dim >= len(shape(result_t)):
        return emit("iota dimension cannot go beyond the output rank.")
    return _shape_operand_matches(op, 0, result_t)


def _dim_in_bounds(op, rank: int, dim: int) -> Failure | None:
    """``verifyDimInBounds``."""
    if dim < 0:
        return emit(f"requires non-negative dimension attribute; found ({dim})")
    if dim >= rank:
        return emit(f"requires dimension attribute in range [0, {rank}); found ({dim})")
    return None


@clean_when_seen
def verify_get_dimension_size(op, ctx) -> Failure | None:
    """``stablehlo.get_dimension_size``: ``inferGetDimensionSizeOp``."""
    f = non_negative_attr(op, "dimension", ctx=ctx)
    operand = shape(in_types(op)[0])
    dim = int_prop(op, "dimension")
    if f is not None or operand is None or dim is None:
        return f
    return _dim_in_bounds(op, len(operand), dim)


@clean_when_seen
def verify_set_dimension_size(op, ctx) -> Failure | None:
    """``stablehlo.set_dimension_size``: ``inferSetDimensionSizeOp`` (its result shape aside)."""
    f = non_negative_attr(op, "dimension", ctx=ctx)
    types = in_types(op)
    dim = int_prop(op, "dimension")
    if f is not None or len(types) < 2 or dim is None:
        return f
    size = shape(types[1])
    if size is not None and size:
        return emit("size operand should be of rank-0")
    operand = shape(types[0])
    return None if operand is None else _dim_in_bounds(op, len(operand), dim)


@clean_when_seen
def verify_get_tuple_element(op, ctx) -> Failure | None:
    """``stablehlo.get_tuple_element``: ``inferGetTupleElementOp``."""
    f = non_negative_attr(op, "index", bits=32, ctx=ctx)
    operand = in_types(op)[0]
    index = int_prop(op, "index")
    if f is not None or not isinstance(operand, TupleType) or index is None:
        return f
    if index >= len(operand.types):
        return emit(f"index {index} is out of bounds of operand with size {len(operand.types)}")
    return check_inferred(op, [operand.types[index]])
