"""The patterns of ``sdy-convert-global-to-local`` for stablehlo ops that need more than local
result types (export/convert_global_to_local.cc):

* ``concatenate``, ``slice``, ``pad``: the sharded dimensions must keep their sharding; a slice
  takes local bounds, a pad local paddings (or, when devices need different paddings, a pad wide
  enough for all and a dynamic slice at a per-device offset);
* ``dot``, ``dot_general``: a sharded contracting dimension must divide and its operands may not
  be pads with a non-zero value; a convolution's group counts become local;
* ``iota``: a local iota plus this device's offset along the sharded dimension;
* ``gather``, ``scatter``: local slice sizes, indices made local, and masks where an index may
  fall in another device's shard;
* ``reduce_window``, ``select_and_scatter``: only pass-through dimensions may be sharded.
"""
from __future__ import annotations

import numpy as np

from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Block, Operation
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.convert_global_to_local_reduce import convert_reduce
from shardy_py.passes.export.explicit_reshards_util import is_fully_replicated
from shardy_py.passes.export.export_utils import (
    SCALAR_INDEX,
    PartitionError,
    dimension_offset,
    i64_array,
    shard_indices,
    table_lookup,
)
from shardy_py.passes.export.export_utils import device_id as make_device_id
from shardy_py.rules.props import int_prop, ints_prop, typed_prop
from shardy_py.syntax.attr_printer import axis_ref
from shardy_py.verify.axes import sharded_size


def _axes(sharding, dim: int) -> tuple:
    if sharding is None or dim >= len(sharding.dim_shardings):
        return ()
    return tuple(sharding.dim_shardings[dim].axes)


def _axes_text(axes) -> str:
    return "[" + ", ".join(f"#sdy<axis_ref {axis_ref(a)}>" for a in axes) + "]" if axes else "[]"


def _mismatch(op: Operation, dim: int, ins, outs, tail: str) -> PartitionError:
    return PartitionError(op, f"'{op.name}' op dimension {dim} has mismatched sharding axes ({_axes_text(ins)} vs "
                              f"{_axes_text(outs)}). {tail}")


_RESHARD_TAIL = "This requires a reshard which should have been handled by previous passes."


def convert_concatenate(conv, op: Operation) -> None:
    """``StablehloConcatenateOpPattern``: concatenation along a replicated dimension only."""
    out = conv.sharding_of(op.results[0])
    dim = int_prop(op, "dimension")
    if out is not None and _axes(out, dim):
        raise PartitionError(op, f"'{op.name}' op dimension {dim} is sharded but the concatenation is on this "
                                 "dimension.")
    for index in range(len(op.operands)):
        sharding = conv.operand_sharding(op, index)
        if is_fully_replicated(sharding):
            continue
        if _axes(sharding, dim):
            raise PartitionError(op, f"'{op.name}' op operand {index} is sharded on concatenation dimension {dim}. "
                                     "This is not supported.")
        for i in range(len(sharding.dim_shardings)):
            if i != dim and _axes(sharding, i) != _axes(out, i):
                raise _mismatch(op, i, _axes(sharding, i), _axes(out, i), _RESHARD_TAIL)
    conv.localize(op)


def _is_zero_or_not_pad(value) -> bool:
    owner = value.owner
    if isinstance(owner, Block) or owner is None or owner.name != "stablehlo.pad":
        return True
    init = owner.operands[1].owner
    if isinstance(init, Block) or init is None or init.name != "stablehlo.constant":
        return False
    from shardy_py.syntax.attr_reader import parse_attribute

    elements = parse_attribute(str(init.properties_view["value"]))
    values = set(elements.values()) if hasattr(elements, "values") else {None}
    return values <= {0, "0", (0, 0)} and getattr(elements, "splat", False)


def _check_contracting(conv, op: Operation, lhs_dims, what: str):
    """The axes sharding ``op``'s contracted dimensions and their mesh, or None when there are none
    (after the C++'s checks of divisibility and of zero padding)."""
    sharding = conv.operand_sharding(op, 0)
    if is_fully_replicated(sharding):
        return None
    mesh = conv.mesh_of(sharding)
    if mesh is None:
        raise PartitionError(op, f"'{op.name}' op failed to resolve mesh.")
    lhs_type = conv.operand_type(op, 0)
    axes = []
    for dim in lhs_dims:
        dim_axes = _axes(sharding, dim)
        if not dim_axes:
            continue
        if lhs_type.shape[dim] % sharded_size(dim_axes, mesh):
            raise PartitionError(op, "Sharded contracting dimension must be divisible by axes size.")
        axes.extend(dim_axes)
    if not axes:
        return None
    for operand in op.operands[:2]:
        if not _is_zero_or_not_pad(operand):
            raise PartitionError(op, f"Padding value must be zero for sharded contracting {what}.")
    return axes, mesh


def _reduce_partial_sums(conv, op: Operation, contracted) -> None:
    """The C++ at the test files' commit asserts (SDY_CHECK) that a sharded contraction's one user
    is an sdy.all_reduce over its axes.  jaxlib 0.12 accepts an sdy.all_reduce (over the axes in
    any order) or an sdy.reduce_scatter, and otherwise sums the partial results itself with a
    stablehlo.all_reduce over the contracted axes right after the op (but over those its result
    keeps unreduced); so do we."""
    if contracted is None:
        return
    axes, mesh = contracted
    out = conv.sharding_of(op.results[0])
    if out is not None and out.unreduced_axes:  # the result keeps its partial sums (unreduced axes)
        axes = [a for a in axes if a not in out.unreduced_axes]
        if not axes:
            return
    users = [u.op for r in op.results for u in r.uses]
    if len(users) == 1 and users[0].name in ("sdy.all_reduce", "sdy.reduce_scatter"):
        return
    from shardy_py.passes.export.convert_global_to_local_collectives import reduced

    result = op.results[0]
    summed = reduced(conv, Builder.after(op), "stablehlo.all_reduce", result, result.type, axes, mesh,
                     conv.operand_sharding(op, 0).mesh_or_ref, "sum", op.loc)
    result.replace_uses_with_if(summed, lambda use: use.op is not summed.owner)


def convert_dot(conv, op: Operation) -> None:
    """``StablehloDotOpPattern``."""
    contracted = _check_contracting(conv, op, [len(conv.operand_type(op, 0).shape) - 1], "dot")
    conv.localize(op)
    _reduce_partial_sums(conv, op, contracted)


def convert_dot_general(conv, op: Operation) -> None:
    """``StablehloDotGeneralOpPattern``."""
    dims = typed_prop(op, "dot_dimension_numbers")
    contracted = _check_contracting(conv, op, list(dims.lhs_contracting_dimensions), "dot_general")
    conv.localize(op)
    _reduce_partial_sums(conv, op, contracted)


def _local_group_count(count: int, axes, mesh) -> int:
    if count <= 1 or not axes:
        return count
    divisor = min(count, sharded_size(axes, mesh))
    return count // divisor


def convert_convolution(conv, op: Operation) -> None:
    """``StablehloConvolutionOpPattern``: local feature and batch group counts (the other
    attributes are kept, discardable ones dropped, as the C++ builds a new op)."""
    lhs, rhs = conv.operand_sharding(op, 0), conv.operand_sharding(op, 1)
    out = conv.sharding_of(op.results[0])
    if all(is_fully_replicated(s) for s in (lhs, rhs, out)):
        conv.localize(op)
        return
    mesh = next((m for m in (conv.mesh_of(s) for s in (lhs, rhs, out) if s is not None) if m is not None), None)
    if mesh is None:
        raise PartitionError(op, f"'{op.name}' op failed to resolve mesh")
    dims = typed_prop(op, "dimension_numbers")
    feature = _local_group_count(int_prop(op, "feature_group_count", 1),
                                 _axes(rhs, dims.kernel_output_feature_dimension), mesh)
    batch = _local_group_count(int_prop(op, "batch_group_count", 1), _axes(lhs, dims.input_batch_dimension), mesh)
    props = op.properties
    props["feature_group_count"] = OpaqueAttr(f"{feature} : i64")
    props["batch_group_count"] = OpaqueAttr(f"{batch} : i64")
    op.attributes = {}
    conv.localize(op)


def convert_iota(conv, op: Operation) -> None:
    """``StablehloIotaOpPattern``: a local iota, plus this device's offset when the iota
    dimension is sharded."""
    sharding = conv.sharding_of(op.results[0])
    if is_fully_replicated(sharding):
        return
    mesh = conv.mesh_or_fail(sharding, op)
    local = conv.local(op.results[0], op)
    dim = int_prop(op, "iota_dimension")
    b = Builder.before(op)
    iota = b.create("stablehlo.iota", [], result_types=[local], properties={"iota_dimension": OpaqueAttr(
        f"{dim} : i64")}, loc=op.loc).results[0]
    axes = _axes(sharding, dim)
    if not axes:
        conv.replace(op, [iota])
        return
    offset = dimension_offset(b, mesh, axes, local.shape[dim], conv.counts, op.loc)
    offset = b.create("stablehlo.convert", [offset], result_types=[RankedTensorType.get((), local.element_type)],
                      loc=op.loc).results[0]
    wide = b.create("stablehlo.broadcast_in_dim", [offset], result_types=[local],
                    properties={"broadcast_dimensions": i64_array([])}, loc=op.loc).results[0]
    conv.replace(op, b.create("stablehlo.add", [iota, wide], result_types=[local], loc=op.loc).results)


def convert_slice(conv, op: Operation) -> None:
    """``StablehloSliceOpPattern``: local bounds on sharded dimensions (full or
    communication-free slices only)."""
    ins, outs = conv.operand_sharding(op, 0), conv.sharding_of(op.results[0])
    if is_fully_replicated(ins) and is_fully_replicated(outs):
        conv.localize(op)
        return
    global_in = conv.operand_type(op, 0)
    global_out = conv.type_of(op.results[0])
    local_out = conv.local(op.results[0], op)
    starts, limits, strides = ints_prop(op, "start_indices"), ints_prop(op, "limit_indices"), ints_prop(op, "strides")
    new_starts, new_limits = [], []
    for i in range(len(global_in.shape)):
        in_axes, out_axes = _axes(ins, i), _axes(outs, i)
        if in_axes != out_axes:
            raise _mismatch(op, i, in_axes, out_axes, _RESHARD_TAIL)
        if not in_axes:
            new_starts.append(starts[i])
            new_limits.append(limits[i])
            continue
        mesh = conv.mesh_of(ins)
        n = sharded_size(in_axes, mesh)
        free = n <= 1 or (starts[i] == 0 and strides[i] == 1 and
                          -(-global_in.shape[i] // n) == -(-global_out.shape[i] // n))
        if starts[i] != 0 or (limits[i] != global_in.shape[i] and not free):
            raise PartitionError(op, f"'{op.name}' op dimension {i} is sharded but the slice is not a full slice "
                                     "and requires device communication.")
        new_starts.append(0)
        new_limits.append(op.operands[0].type.shape[i] if limits[i] == global_in.shape[i] else local_out.shape[i])
    b = Builder.before(op)
    new = b.create("stablehlo.slice", [op.operands[0]], result_types=[local_out],
                   properties={"start_indices": i64_array(new_starts), "limit_indices": i64_array(new_limits),
                               "strides": i64_array(strides)}, loc=op.loc)
    conv.replace(op, new.results)


def convert_dynamic_slice(conv, op: Operation) -> None:
    """A dynamic slice whose sharded dimensions are sliced whole takes the local slice sizes and loses
    its discardable attributes (as jaxlib 0.12 does; the test files' commit has no pattern for it)."""
    sharding = conv.operand_sharding(op, 0)
    conv.localize(op)
    if is_fully_replicated(sharding):
        return
    sizes = ints_prop(op, "slice_sizes")
    global_in = conv.operand_type(op, 0)
    for i, size in enumerate(sizes):
        if _axes(sharding, i) and size != global_in.shape[i]:
            raise PartitionError(op, f"'{op.name}' op dimension {i} is sharded but the dynamic slice is not a full "
                                     "slice and requires device communication.")
    op.properties["slice_sizes"] = i64_array(op.results[0].type.shape)
    op.attributes = {}  # (jaxlib 0.12 builds a new op: the discardable attributes, sdy.sharding too, are not kept)


def convert_pad(conv, op: Operation) -> None:
    """``StablehloPadOpPattern``."""
    ins, outs = conv.operand_sharding(op, 0), conv.sharding_of(op.results[0])
    if is_fully_replicated(ins):
        if not is_fully_replicated(outs):
            raise PartitionError(op, "a pad of a replicated operand must have a replicated result")
        conv.localize(op)
        return
    mesh = conv.mesh_or_fail(ins, op)
    global_in, global_out = conv.operand_type(op, 0), conv.type_of(op.results[0])
    rank = len(global_in.shape)
    low, interior = ints_prop(op, "edge_padding_low"), ints_prop(op, "interior_padding")
    offsets = []
    for i in range(rank):
        in_axes, out_axes = _axes(ins, i), _axes(outs, i)
        if in_axes != out_axes:
            raise _mismatch(op, i, in_axes, out_axes, "This requires a reshard collective which should have been "
                                                      "handled by previous passes.")
        n = sharded_size(in_axes, mesh) if in_axes else 1
        s_in, s_out = global_in.shape[i] // n, global_out.shape[i] // n
        k_in, k_out = shard_indices(mesh, in_axes), shard_indices(mesh, out_axes)
        offsets.append((k_in * s_in) * (interior[i] + 1) + low[i] - k_out * s_out)
    local_out = conv.local(op.results[0], op)
    local_in = op.operands[0].type
    b = Builder.before(op)
    uniform = [bool(np.all(o == o[0])) for o in offsets]
    expanded = [(local_in.shape[i] - 1) * (interior[i] + 1) + 1 for i in range(rank)]
    if all(uniform):
        local_low = [int(o[0]) for o in offsets]
        local_high = [local_out.shape[i] - (expanded[i] + local_low[i]) for i in range(rank)]
        conv.replace(op, [_pad(b, op, local_out, local_low, local_high, interior)])
        return
    pad_low = [max(0, int(o.max())) for o in offsets]
    pad_high = [max(0, local_out.shape[i] - int(offsets[i].min()) - expanded[i]) for i in range(rank)]
    safe_type = RankedTensorType.get([pad_low[i] + expanded[i] + pad_high[i] for i in range(rank)],
                                     local_in.element_type)
    safe = _pad(b, op, safe_type, pad_low, pad_high, interior)
    device = make_device_id(b, *conv.counts, loc=op.loc)
    starts = []
    for i in range(rank):
        table = pad_low[i] - offsets[i]
        if uniform[i]:
            starts.append(b.create("stablehlo.constant", [], result_types=[SCALAR_INDEX],
                                   properties={"value": OpaqueAttr(f"dense<{int(table[0])}> : tensor<i32>")},
                                   loc=op.loc).results[0])
            continue
        lookup = table_lookup(b, table, device, loc=op.loc)
        starts.append(b.create("stablehlo.reshape", [lookup], result_types=[SCALAR_INDEX], loc=op.loc).results[0])
    new = b.create("stablehlo.dynamic_slice", [safe, *starts], result_types=[local_out],
                   properties={"slice_sizes": i64_array(local_out.shape)}, loc=op.loc)
    conv.replace(op, new.results)


def _pad(b: Builder, op: Operation, type_, low, high, interior):
    props = {"edge_padding_low": i64_array(low), "edge_padding_high": i64_array(high),
             "interior_padding": i64_array(interior)}
    return b.create("stablehlo.pad", [op.operands[0], op.operands[1]], result_types=[type_], properties=props,
                    loc=op.loc).results[0]


def convert_windowed(conv, op: Operation) -> None:
    """``StablehloWindowedOpPattern``: only pass-through dimensions of the windowed operand may be
    sharded."""
    sharding = conv.operand_sharding(op, 0)
    if sharding is not None and not is_fully_replicated(sharding):
        mesh = conv.mesh_or_fail(sharding, op)
        padding = ints_prop(op, "padding")
        windows = ints_prop(op, "window_dimensions") or ()
        strides = ints_prop(op, "window_strides") or ()
        for dim in range(len(conv.operand_type(op, 0).shape)):
            axes = _axes(sharding, dim)
            if not axes or sharded_size(axes, mesh) <= 1:
                continue
            passthrough = not padding or (padding[2 * dim] == 0 and padding[2 * dim + 1] == 0)
            if passthrough:
                passthrough = ((not strides or strides[dim] == 1 or (windows and strides[dim] >= windows[dim]))
                               and (not windows or windows[dim] == 1 or (strides and strides[dim] >= windows[dim])))
            if not passthrough:
                raise PartitionError(op, f"In op {op.name} dimension {dim} is sharded but is not a pass-through "
                                         "dimension.")
    conv.localize(op)


STABLEHLO_PATTERNS = {
    "stablehlo.concatenate": convert_concatenate,
    "stablehlo.convolution": convert_convolution,
    "stablehlo.dot": convert_dot,
    "stablehlo.dot_general": convert_dot_general,
    "stablehlo.dynamic_slice": convert_dynamic_slice,
    "stablehlo.iota": convert_iota,
    "stablehlo.pad": convert_pad,
    "stablehlo.reduce": convert_reduce,
    "stablehlo.reduce_window": convert_windowed,
    "stablehlo.select_and_scatter": convert_windowed,
    "stablehlo.slice": convert_slice,
}

