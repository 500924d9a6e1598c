"""``stablehlo.reverse`` in ``-sdy-resolve-permutation-factors`` (the "stablehlo.reverse" part of
export/resolve_permutation_factors.cc).

Reversing a sharded dimension reverses the order of its shards: each device reverses its own
shard, and the result is sharded on a mesh whose device order along the dimension's axes is
reversed (a new ``sdy.mesh @<name>_reversed``), resharded back to the op's sharding.  When a
sharding does not divide a reversed dimension, the operand is padded at its high end and its
data shifted right by the padding (a halo exchange in an ``sdy.manual_computation``), so the
padding lands at the low end, where the reversed result has it at the high end again; the
result is then cut back.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import AxisRefAttr, ManualAxesAttr, MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import add_argument
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.explicit_reshards_util import is_fully_replicated
from shardy_py.passes.export.export_utils import i64_array
from shardy_py.passes.export.resolve_permutation_factors_exchange import (
    ResolutionState,
    ResolveError,
    manual_axis_names,
    manual_shard_count,
    padded_dim_size,
    remove_axes,
    reversed_mesh,
    shift_pairs,
)
from shardy_py.passes.export.resolve_permutation_factors_halo import (
    collective_permute,
    concatenate,
    create,
    pad_high,
    slice_high,
    with_shape,
    zero_scalar,
)
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.rules.props import ints_prop
from shardy_py.verify.axes import sharded_size


@attrs.define
class ReverseInfo:
    """``ReverseOpInfo``: the axes of the reversed sharded dimensions, those of the ones their
    sharding does not divide, and the operand's shape padded to divisibility."""

    axes_to_reverse: list[AxisRefAttr]
    manual_axes: set[str]
    padded_shape: list[int]


def reverse_info(op: Operation, sharding: TensorShardingAttr, mesh: MeshAttr) -> ReverseInfo | None:
    """``getReverseOpInfo``; None when no reversed dimension is sharded."""
    shape = op.operands[0].type.shape
    dims = ints_prop(op, "dimensions")
    info = ReverseInfo([], set(), list(shape))
    for dim, dim_sharding in enumerate(sharding.dim_shardings):
        count = sharded_size(dim_sharding.axes, mesh)
        if dim not in dims or count <= 1:
            continue
        info.axes_to_reverse.extend(dim_sharding.axes)
        if shape[dim] % count:
            info.manual_axes.update(a.name for a in dim_sharding.axes)
            info.padded_shape[dim] = padded_dim_size(shape[dim], count)
    return info if info.axes_to_reverse else None


def right_shift(b: Builder, value: Value, dim: int, shift: int, sharding: TensorShardingAttr, mesh: MeshAttr,
                manual: set[str], state: ResolutionState, loc) -> Value:
    """``rightShiftData``: the device-local data moved ``shift`` elements right along ``dim``
    (whole shards by collective permutes, the rest by slicing the next shard's tail in front)."""
    shape = value.type.shape
    shard = shape[dim]
    local = remove_axes(sharding, manual)
    axes = [a for a in sharding.dim_shardings[dim].axes if a.name in manual]
    hops, fraction = divmod(shift, shard)

    def permuted(offset: int) -> Value:
        if offset == 0:
            return value
        pairs = shift_pairs(mesh, axes, offset)
        if not pairs:
            zero = zero_scalar(b, value.type.element_type, loc)
            return create(b, "stablehlo.broadcast_in_dim", [zero], value.type, loc, local,
                          broadcast_dimensions=i64_array([]))
        return collective_permute(b, value, pairs, state, loc, local)

    head, tail = permuted(hops), permuted(hops + 1)
    rank = len(shape)
    head_size = shard - fraction
    tail_starts = [0] * rank
    tail_starts[dim] = head_size
    tail_shape = list(shape)
    tail_shape[dim] = fraction
    tail_piece = create(b, "stablehlo.slice", [tail], with_shape(value.type, tail_shape), loc, local,
                        start_indices=i64_array(tail_starts), limit_indices=i64_array(shape),
                        strides=i64_array([1] * rank))
    head_limits = list(shape)
    head_limits[dim] = head_size
    head_piece = create(b, "stablehlo.slice", [head], with_shape(value.type, head_limits), loc, local,
                        start_indices=i64_array([0] * rank), limit_indices=i64_array(head_limits),
                        strides=i64_array([1] * rank))
    return concatenate(b, [tail_piece, head_piece], dim, local, loc)


def halo_right_shift(b: Builder, value: Value, sharding: TensorShardingAttr, mesh: MeshAttr, manual: set[str],
                     padded_shape: Sequence[int], dims: Sequence[int], shifts: Sequence[int], state: ResolutionState,
                     loc) -> Value:
    """``haloRightShiftData``: ``right_shift`` of each of ``dims`` inside an
    ``sdy.manual_computation`` over ``manual``."""
    local_shape = [size // manual_shard_count(dim, mesh, manual)
                   for size, dim in zip(padded_shape, sharding.dim_shardings, strict=True)]
    props = {"in_shardings": TensorShardingPerValueAttr((sharding,)),
             "out_shardings": TensorShardingPerValueAttr((sharding,)),
             "manual_axes": ManualAxesAttr(manual_axis_names(mesh, manual))}
    manual_op = b.create("sdy.manual_computation", [value], result_types=[value.type], properties=props, regions=1,
                         loc=loc)
    block = manual_op.regions[0].blocks[0]
    shifted = add_argument(block, with_shape(value.type, local_shape))
    inner = Builder.at_end(block)
    for dim, shift in zip(dims, shifts, strict=True):
        shifted = right_shift(inner, shifted, dim, shift, sharding, mesh, manual, state, loc)
    inner.create("sdy.return", [shifted], result_types=[], loc=loc)
    return manual_op.results[0]


def mesh_symbol_for(state: ResolutionState, mesh: MeshAttr, base: str) -> str:
    """``getOrCreateMesh``: the name of the module's mesh equal to ``mesh``, else a new
    ``sdy.mesh`` at the top of the module named ``base`` (made unique as MLIR's symbol table does:
    ``base_N`` with the table's running counter)."""
    name = state.mesh_cache.get(mesh)
    if name is not None:
        return name
    taken = {str(op.properties_view.get("sym_name")) for op in state.module.ops
             if op.properties_view.get("sym_name") is not None}
    name = base
    while name in taken:
        name = f"{base}_{state.uniquing_counter}"
        state.uniquing_counter += 1
    Builder(state.module.body, 0).create("sdy.mesh", [], result_types=[], properties={"sym_name": name, "mesh": mesh})
    state.table.meshes.setdefault(name, mesh)
    state.mesh_cache[mesh] = name
    return name


def resolve_reverse(op: Operation, state: ResolutionState) -> bool:
    """``handleReverseOp``."""
    operand, result = op.operands[0], op.results[0]
    in_sharding, out_sharding = get_sharding(operand), get_sharding(result)
    if is_fully_replicated(in_sharding) or not isinstance(operand.type, RankedTensorType):
        return True
    mesh = state.table.mesh_of(in_sharding)
    if mesh is None or mesh.is_maximal:
        return True
    info = reverse_info(op, in_sharding, mesh)
    if info is None:
        return True
    if out_sharding is None:
        raise ResolveError(op, "the reversed result has no sharding to reshard back to")
    loc, value = op.loc, operand
    if info.manual_axes:
        b = Builder.before(op)
        value = pad_high(b, operand, info.padded_shape, in_sharding, loc)
        reversed_dims = ints_prop(op, "dimensions")
        dims, shifts = [], []
        for i, size in enumerate(operand.type.shape):
            if i in reversed_dims and info.padded_shape[i] > size:
                dims.append(i)
                shifts.append(info.padded_shape[i] - size)
        value = halo_right_shift(b, value, in_sharding, mesh, info.manual_axes, info.padded_shape, dims, shifts, state,
                                 loc)
    base = (in_sharding.mesh_name or "") + "_reversed"
    name = mesh_symbol_for(state, reversed_mesh(mesh, info.axes_to_reverse), base)
    original_type = operand.type
    op.set_operand(0, value)
    op.operand_types = [value.type]
    set_sharding(result, TensorShardingAttr(name, in_sharding.dim_shardings, in_sharding.replicated_axes,
                                            in_sharding.unreduced_axes))
    if info.manual_axes:
        result.type = value.type
    after = Builder.after(op)
    back = after.create("sdy.reshard", [result], result_types=[result.type], loc=loc,
                        properties={"sharding": out_sharding}).results[0]
    replacement = slice_high(after, back, original_type, in_sharding, loc) if info.manual_axes else back
    reshard_op = back.owner
    result.replace_uses_with_if(replacement, lambda use: use.op is not reshard_op)
    return True
