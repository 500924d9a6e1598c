"""``stablehlo.reshape`` in ``-sdy-resolve-permutation-factors`` (the "stablehlo.reshape" part of
export/resolve_permutation_factors.cc).

A reshape has no permutation factor, but when a sharding does not divide a dimension of a group
that is not a pass-through, padding the input does not give the padded output: data moves
between devices.  Such a reshape is done either

* by halo exchange, when every such group splits one input dimension into several output
  dimensions whose padded volumes match and each device needs data of at most its next
  neighbours: the input padded at its high end, each device takes its output shard's run of
  elements (offsets from a per-device table) and reshapes it locally; or
* by replication: the axes of those groups are taken off the input (``sdy.reshard``), the
  reshape runs on the rest, and the result is resharded back.

A reshape whose shardings are equivalent and whose padding is communication free is left alone.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import DimensionShardingAttr, MeshAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.explicit_reshards_util import is_fully_replicated
from shardy_py.passes.export.export_utils_reshape import (
    ReshapeGroup,
    ReshapeGroupError,
    build_reshape_groups,
    is_communication_free_reshape,
)
from shardy_py.passes.export.resolve_permutation_factors_exchange import (
    DataExchange,
    DimExchange,
    ResolutionState,
    ResolveError,
    ShardExchange,
    ceil_div,
    linear_start_offset,
    manual_shard_count,
    padded_dim_size,
    remove_axes,
    remove_axis_refs,
)
from shardy_py.passes.export.resolve_permutation_factors_halo import (
    create,
    halo_data_exchange,
    pad_high,
    slice_high,
    with_shape,
    zero_scalar,
)
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.verify.axes import add_axis_or_merge, sharded_size


@attrs.define
class ReshapeAnalysis:
    """``ReshapeShardingAnalysis``."""

    groups: list[ReshapeGroup]
    equivalent: bool = False
    communication_free: bool = False
    non_divisible_axes: set[str] = attrs.Factory(set)
    padded_in: list[int] = attrs.Factory(list)
    padded_out: list[int] = attrs.Factory(list)
    halo_groups: list[ReshapeGroup] | None = None


def halo_groups(groups: Sequence[ReshapeGroup], in_type: RankedTensorType, out_type: RankedTensorType,
                padded_in: Sequence[int], padded_out: Sequence[int]) -> list[ReshapeGroup] | None:
    """``getReshapeHaloInfo``: the padded groups a halo exchange does, or None when one of them
    is not a split of one dimension (without size-1 dimensions) whose sizes divide one another
    and whose padded volumes match."""
    active = []
    for g in groups:
        if g.is_passthrough or not g.has_padded_dims(padded_in, padded_out, in_type, out_type):
            continue
        if g.is_neither:
            return None
        if g.in_nontrivial != g.in_last - g.in_start or g.out_nontrivial != g.out_last - g.out_start:
            return None
        in_size, out_size = in_type.shape[g.in_start], out_type.shape[g.out_start]
        if in_size % out_size and out_size % in_size:
            return None
        if g.in_volume(padded_in) != g.out_volume(padded_out) or not g.is_split:
            return None
        active.append(g)
    return active or None


def analyse(in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr, mesh: MeshAttr,
            in_type: RankedTensorType, out_type: RankedTensorType, enable_halo: bool) -> ReshapeAnalysis:
    """``ReshapeShardingAnalysis::run``: the groups, the padded shapes, the axes of the groups a
    sharding does not divide and, when enabled, the groups a halo exchange can do."""
    out = ReshapeAnalysis(build_reshape_groups(in_type, out_type))
    out.equivalent = is_sharding_equivalent_across_reshapes(in_sharding, in_type, out_sharding, out_type,
                                                            lambda _sharding: mesh, True)
    if not out.equivalent:
        return out
    out.communication_free = is_communication_free_reshape(in_sharding, out_sharding, mesh, in_type, out_type,
                                                           out.groups)
    if out.communication_free:
        return out
    out.padded_in, out.padded_out = list(in_type.shape), list(out_type.shape)
    for g in out.groups:
        padded = False
        for start, last, sharding, type_, shape in ((g.in_start, g.in_last, in_sharding, in_type, out.padded_in),
                                                    (g.out_start, g.out_last, out_sharding, out_type, out.padded_out)):
            for d in range(start, last):
                count = sharded_size(sharding.dim_shardings[d].axes, mesh)
                if count > 1 and type_.shape[d] % count:
                    padded = True
                    shape[d] = padded_dim_size(type_.shape[d], count)
        if padded:
            for d in range(g.in_start, g.in_last):
                out.non_divisible_axes.update(a.name for a in in_sharding.dim_shardings[d].axes)
            for d in range(g.out_start, g.out_last):
                out.non_divisible_axes.update(a.name for a in out_sharding.dim_shardings[d].axes)
    if out.non_divisible_axes and enable_halo:
        out.halo_groups = halo_groups(out.groups, in_type, out_type, out.padded_in, out.padded_out)
    return out


def group_exchange(in_type: RankedTensorType, out_type: RankedTensorType, out_sharding: TensorShardingAttr,
                   mesh: MeshAttr, group: ReshapeGroup, dim: int, count: int, divisible_in: Sequence[int],
                   op) -> DimExchange:
    """``getDimExchangeInfoForReshapeGroup``: for each output shard of the group (in row-major
    order of its output dimensions), the input shard its elements start in and end in."""
    s_out = divisible_in[dim] // count
    if group.in_last - group.in_start != 1:
        raise ResolveError(op, "a reshape group done by halo exchange has more than one input dimension")
    out_dims = list(range(group.out_start, group.out_last))
    combined = tuple(a for d in out_dims for a in out_sharding.dim_shardings[d].axes)
    strides, stride = [1] * len(out_dims), 1
    for k in range(len(out_dims) - 1, -1, -1):
        strides[k] = stride
        stride *= out_type.shape[out_dims[k]]
    size = in_type.shape[dim]
    tile = ceil_div(size, count)
    starts = [s * tile for s in range(count)]
    counts = [max(0, min(tile, size - s * tile)) for s in range(count)]
    info = DimExchange(s_out=s_out, footprint=s_out, target=DimensionShardingAttr(combined, is_closed=False))
    for t in range(count):
        source = last_source = -1
        offset = 0
        first = linear_start_offset(t, out_dims, strides, out_sharding, out_type.shape, mesh)
        last = first + s_out - 1
        for s in range(count):
            if counts[s] > 0:
                if starts[s] <= first < starts[s] + counts[s]:
                    source, offset = s, first - starts[s]
                if starts[s] <= last < starts[s] + counts[s]:
                    last_source = s
        if (source != -1 and source != t) or (last_source != -1 and last_source != t):
            info.needs_comm = True
        if source != -1 and source < t:
            info.left_hops = max(info.left_hops, t - source)
        if last_source != -1 and last_source > t:
            info.right_hops = max(info.right_hops, last_source - t)
        info.shards.append(ShardExchange(source, offset))
    if info.left_hops > 1 or info.right_hops > 1:
        info.can_use_halo = False
    return info


def reshape_exchange(op: Operation, in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr,
                     mesh: MeshAttr, divisible_in: Sequence[int], groups: Sequence[ReshapeGroup],
                     non_divisible_axes: set[str]) -> DataExchange:
    """``getReshapeDataExchangeInfo``: the halo groups' exchanges; the other sharded input
    dimensions keep their shards."""
    in_type, out_type = op.operands[0].type, op.results[0].type
    info = DataExchange(list(divisible_in), set(non_divisible_axes))
    k = 0
    for i, dim_sharding in enumerate(in_sharding.dim_shardings):
        count = sharded_size(dim_sharding.axes, mesh)
        if count <= 1:
            continue
        if k < len(groups) and groups[k].in_indivisible_dim == i:
            info.dims.append(group_exchange(in_type, out_type, out_sharding, mesh, groups[k], i, count, divisible_in,
                                            op))
            k += 1
        else:
            local = divisible_in[i] // count
            info.dims.append(DimExchange(s_out=local, footprint=local))
    return info


def replicate(op: Operation, in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr,
              groups: Sequence[ReshapeGroup], state: ResolutionState) -> None:
    """``handleReshapeOpReplicate``: the axes of every non-pass-through group a sharding does not
    divide are taken off both shardings around a new reshape."""
    operand, result = op.operands[0], op.results[0]
    mesh = state.table.mesh_of(in_sharding)
    refs = []
    for g in groups:
        if not g.is_passthrough and g.has_indivisible_dims(in_sharding, out_sharding, mesh, operand.type,
                                                             result.type):
            refs.extend(g.all_axis_refs(in_sharding, out_sharding))
    loc = op.loc
    resharded = Builder.before(op).create("sdy.reshard", [operand], result_types=[operand.type], loc=loc, properties={
        "sharding": remove_axis_refs(in_sharding, refs, mesh)}).results[0]
    after = Builder.after(op)
    reshaped = after.create("stablehlo.reshape", [resharded], result_types=[result.type], loc=loc).results[0]
    set_sharding(reshaped, remove_axis_refs(out_sharding, refs, mesh))
    restored = after.create("sdy.reshard", [reshaped], result_types=[result.type], loc=loc,
                            properties={"sharding": out_sharding}).results[0]
    replace_op(op, [restored])


def halo_reshape(op: Operation, in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr, mesh: MeshAttr,
                 analysis: ReshapeAnalysis, state: ResolutionState) -> None:
    """``handleReshapeHaloExchange``: each device gathers its output shard's elements from its
    neighbours and reshapes them (replication when a device would need more than one hop)."""
    info = reshape_exchange(op, in_sharding, out_sharding, mesh, analysis.padded_in, analysis.halo_groups,
                            analysis.non_divisible_axes)
    operand, result_type = op.operands[0], op.results[0].type
    if not info.can_use_halo:
        replicate(op, in_sharding, out_sharding, analysis.groups, state)
        return
    loc = op.loc
    b = Builder.before(op)
    padding = zero_scalar(b, result_type.element_type, loc)
    padded = pad_high(b, operand, analysis.padded_in, in_sharding, loc)
    local_out = remove_axes(out_sharding, info.manual_axes)

    def post(inner: Builder, value: Value, local_padding: Value, padded_result: RankedTensorType) -> Value:
        shape = [analysis.padded_out[d] // manual_shard_count(dim, mesh, info.manual_axes)
                 for d, dim in enumerate(out_sharding.dim_shardings)]
        return create(inner, "stablehlo.reshape", [value], with_shape(result_type, shape), loc, local_out)

    out = halo_data_exchange(b, padded, analysis.padded_in, result_type, in_sharding, out_sharding, mesh,
                             info.manual_axes, padding, [0] * len(operand.type.shape), info.dims, post, state, op,
                             loc)
    replace_op(op, [slice_high(b, out, result_type, out_sharding, loc)])


def _ordered_axes(sharding: TensorShardingAttr, mesh: MeshAttr) -> list:
    axes: list = []
    for dim in sharding.dim_shardings:
        for axis in dim.axes:
            add_axis_or_merge(axes, axis, mesh)
    return axes


def resolve_reshape(op: Operation, enable_halo: bool, state: ResolutionState) -> None:
    """``handleReshapeOp``."""
    operand, result = op.operands[0], op.results[0]
    in_sharding, out_sharding = get_sharding(operand), get_sharding(result)
    if is_fully_replicated(in_sharding) != is_fully_replicated(out_sharding):
        raise ResolveError(op, "a reshape sharded on one side only (run sdy-insert-explicit-reshards first)")
    if is_fully_replicated(in_sharding):  # jaxlib 0.12 (the test files' commit asks for shardings on both sides)
        return
    if not isinstance(operand.type, RankedTensorType) or not isinstance(result.type, RankedTensorType):
        return
    mesh = state.table.mesh_of(in_sharding)
    if mesh is None:
        return
    if _ordered_axes(in_sharding, mesh) != _ordered_axes(out_sharding, mesh):
        raise ResolveError(op, "the reshape's operand and result are sharded along different axes "
                               "(run sdy-insert-explicit-reshards first)")
    try:
        analysis = analyse(in_sharding, out_sharding, mesh, operand.type, result.type, enable_halo)
    except ReshapeGroupError as e:
        raise ResolveError(op, str(e)) from None
    if analysis.communication_free:
        return
    if analysis.halo_groups is not None:
        halo_reshape(op, in_sharding, out_sharding, mesh, analysis, state)
        return
    replicate(op, in_sharding, out_sharding, analysis.groups, state)
