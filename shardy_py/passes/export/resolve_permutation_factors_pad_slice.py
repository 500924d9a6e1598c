"""``stablehlo.pad`` and ``stablehlo.slice`` by halo exchange in ``-sdy-resolve-permutation-factors``
(``handlePadOp`` / ``handleSliceOp`` of export/resolve_permutation_factors.cc).

Both go the same way: pad the operand at its high end to sizes its sharding divides, exchange
halos along the sharded dimensions that need data of other shards (a slice is a pad with
negative low padding ``-start``), do the op's padding or slicing of the unsharded dimensions on
each device, and cut the result back to the op's type.  An op whose sharded dimensions need no
other shard's data is left alone; one a halo exchange cannot do (``can_use_halo``) is left to the
replication fallback.
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.explicit_reshards_util import is_fully_replicated
from shardy_py.passes.export.export_utils import i64_array
from shardy_py.passes.export.export_utils_reshape import is_communication_free_slice_dim
from shardy_py.passes.export.resolve_permutation_factors_exchange import (
    DataExchange,
    ResolutionState,
    ResolveError,
    build_data_exchange,
    ceil_div,
    dim_exchange,
    manual_shard_count,
    remove_axes,
)
from shardy_py.passes.export.resolve_permutation_factors_halo import (
    create,
    halo_data_exchange,
    pad_high,
    slice_high,
    with_shape,
    zero_scalar,
)
from shardy_py.passes.shardings import get_sharding
from shardy_py.rules.props import ints_prop
from shardy_py.verify.axes import sharded_size


def halo_plan(op: Operation, state: ResolutionState, build) -> tuple[TensorShardingAttr, MeshAttr, DataExchange] | bool:
    """The operand's sharding and mesh and the exchange ``build(op, sharding, mesh)`` finds, when
    the op's sharded dimensions need a halo exchange and one can do it; otherwise whether the op is
    resolved (True: nothing to do, False: a halo exchange cannot do it)."""
    sharding = get_sharding(op.operands[0])
    if is_fully_replicated(sharding) or not isinstance(op.operands[0].type, RankedTensorType):
        return True
    mesh = state.table.mesh_of(sharding)
    if mesh is None or mesh.is_maximal:
        return True
    info = build(op, sharding, mesh)
    if not info.manual_axes or not info.needs_comm:
        return True
    return (sharding, mesh, info) if info.can_use_halo else False


# --- stablehlo.pad ------------------------------------------------------------------------------------

def pad_exchange(op: Operation, sharding: TensorShardingAttr, mesh: MeshAttr) -> DataExchange:
    """``getPadDataExchangeInfo``: an output shard reads the input dilated by the interior padding
    and shifted by the low padding."""
    in_shape = op.operands[0].type.shape
    out_shape = op.results[0].type.shape
    low, interior = ints_prop(op, "edge_padding_low"), ints_prop(op, "interior_padding")

    def process(dim: int, s_in: int, count: int):
        s_out = ceil_div(out_shape[dim], count)
        return dim_exchange(count, s_in, s_out, s_out, low[dim], 1, interior[dim] + 1, in_shape[dim])

    return build_data_exchange(sharding, mesh, in_shape, process)


def pad_unsharded_dims(b: Builder, value: Value, padding: Value, padded_global: RankedTensorType,
                       sharding: TensorShardingAttr, mesh: MeshAttr, manual: set[str], low: Sequence[int],
                       high: Sequence[int], interior: Sequence[int], op, loc) -> Value:
    """``handleReplicatedPadDims``: the op's padding of the dimensions its sharding leaves whole."""
    local = remove_axes(sharding, manual)
    rank = len(value.type.shape)
    shape, lows, highs, inners = [0] * rank, [0] * rank, [0] * rank, [0] * rank
    needed = False
    for i, dim in enumerate(sharding.dim_shardings):
        shape[i] = padded_global.shape[i] // manual_shard_count(dim, mesh, manual)
        if sharded_size(dim.axes, mesh) > 1:
            continue
        lows[i], highs[i], inners[i] = low[i], high[i], interior[i]
        if (value.type.shape[i] - 1) * (interior[i] + 1) + 1 + low[i] + high[i] != shape[i]:
            raise ResolveError(op, f"padding dimension {i} on each device does not give its local size")
        needed = needed or low[i] != 0 or high[i] != 0 or interior[i] != 0
    if not needed:
        return value
    return create(b, "stablehlo.pad", [value, padding], with_shape(padded_global, shape), loc, local,
                  edge_padding_low=i64_array(lows), edge_padding_high=i64_array(highs),
                  interior_padding=i64_array(inners))


def resolve_pad(op: Operation, state: ResolutionState) -> bool:
    """``handlePadOp``; False when a halo exchange cannot do it."""
    plan = halo_plan(op, state, pad_exchange)
    if isinstance(plan, bool):
        return plan
    sharding, mesh, info = plan
    loc, operand, padding = op.loc, op.operands[0], op.operands[1]
    out_type = op.results[0].type
    low, high = ints_prop(op, "edge_padding_low"), ints_prop(op, "edge_padding_high")
    interior = ints_prop(op, "interior_padding")
    b = Builder.before(op)
    divisible = pad_high(b, operand, info.divisible_shape, sharding, loc, padding)

    def post(inner: Builder, value: Value, local_padding: Value, padded: RankedTensorType) -> Value:
        return pad_unsharded_dims(inner, value, local_padding, padded, sharding, mesh, info.manual_axes, low, high,
                                  interior, op, loc)

    result = halo_data_exchange(b, divisible, info.divisible_shape, out_type, sharding, sharding, mesh,
                                info.manual_axes, padding, low, info.dims, post, state, op, loc,
                                base_dilations=[i + 1 for i in interior])
    replace_op(op, [slice_high(b, result, out_type, sharding, loc)])
    return True


# --- stablehlo.slice ----------------------------------------------------------------------------------

def slice_exchange(op: Operation, sharding: TensorShardingAttr, mesh: MeshAttr) -> DataExchange:
    """``getSliceDataExchangeInfo``: a slice is a pad with low padding ``-start``.  As jaxlib 0.12, a
    sharded dimension that is not a communication-free slice (a prefix keeping the shard size)
    takes the exchange even when no device needs another's data (its shards start at different
    offsets); the test files' commit left such a slice alone, which the partitioner cannot do."""
    in_shape = op.operands[0].type.shape
    out_shape = op.results[0].type.shape
    starts, strides = ints_prop(op, "start_indices"), ints_prop(op, "strides")

    def process(dim: int, s_in: int, count: int):
        s_out = ceil_div(out_shape[dim], count)
        info = dim_exchange(count, s_in, s_out, s_out, -starts[dim], 1, 1, in_shape[dim])
        if not is_communication_free_slice_dim(dim, starts, strides, in_shape, out_shape, sharding, mesh):
            info.needs_comm = True
        return info

    return build_data_exchange(sharding, mesh, in_shape, process)


def slice_unsharded_dims(b: Builder, value: Value, sharding: TensorShardingAttr, mesh: MeshAttr, manual: set[str],
                         starts: Sequence[int], limits: Sequence[int], strides: Sequence[int], loc) -> Value:
    """``handleReplicatedSliceDims``: the op's slicing of the dimensions its sharding leaves whole,
    with the op's strides (jaxlib 0.12; the test files' commit slices them with stride 1)."""
    local = remove_axes(sharding, manual)
    shape = value.type.shape
    new_starts, new_limits, new_strides = [0] * len(shape), list(shape), [1] * len(shape)
    needed = False
    for i, dim in enumerate(sharding.dim_shardings):
        if sharded_size(dim.axes, mesh) > 1:
            continue
        if starts[i] != 0 or limits[i] != shape[i] or strides[i] != 1:
            new_starts[i], new_limits[i], new_strides[i] = starts[i], limits[i], strides[i]
            needed = True
    if not needed:
        return value
    sliced = with_shape(value.type, [ceil_div(hi - lo, step)
                                     for lo, hi, step in zip(new_starts, new_limits, new_strides, strict=True)])
    return create(b, "stablehlo.slice", [value], sliced, loc, local, start_indices=i64_array(new_starts),
                  limit_indices=i64_array(new_limits), strides=i64_array(new_strides))


def resolve_slice(op: Operation, state: ResolutionState) -> bool:
    """``handleSliceOp``; False when a halo exchange cannot do it."""
    plan = halo_plan(op, state, slice_exchange)
    if isinstance(plan, bool):
        return plan
    sharding, mesh, info = plan
    loc, operand = op.loc, op.operands[0]
    in_type, out_type = operand.type, op.results[0].type
    starts, limits = ints_prop(op, "start_indices"), ints_prop(op, "limit_indices")
    strides = ints_prop(op, "strides")
    b = Builder.before(op)
    divisible = pad_high(b, operand, info.divisible_shape, sharding, loc)
    padding = zero_scalar(b, in_type.element_type, loc)
    low = [-s for s in starts]

    def post(inner: Builder, value: Value, local_padding: Value, padded: RankedTensorType) -> Value:
        return slice_unsharded_dims(inner, value, sharding, mesh, info.manual_axes, starts, limits, strides, loc)

    result = halo_data_exchange(b, divisible, info.divisible_shape, out_type, sharding, sharding, mesh,
                                info.manual_axes, padding, low, info.dims, post, state, op, loc)
    replace_op(op, [slice_high(b, result, out_type, sharding, loc)])
    return True
