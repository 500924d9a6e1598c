"""The patterns of ``sdy-convert-global-to-local`` for Shardy's collectives
(export/convert_global_to_local.cc): ``sdy.all_gather``, ``sdy.all_reduce``, ``sdy.all_slice``,
``sdy.all_to_all``, ``sdy.collective_permute`` and ``sdy.reduce_scatter`` become stablehlo
collectives (and reshapes and transposes) on local shapes, with a fresh channel id each.

* all-gather: one ``stablehlo.all_gather`` per gathered dimension (last dimension first) when
  one dimension is gathered or with ``per-dim-all-gather``; else one all-gather of every axis on a
  new leading dimension, reshaped and transposed back next to the gathered dimensions;
* all-to-all: one ``stablehlo.all_to_all`` for one parameter; several are split, transposed to a
  leading dimension, exchanged at once and put back next to their source dimensions;
* reduce-scatter: ``stablehlo.reduce_scatter`` for one scattered dimension; several are combined
  on a leading dimension (``combine-multi-dimension-reduce-scatter``) or become an all-reduce and
  a dynamic slice;
* collective-permute: source-target pairs mapping each device's shard to the device holding it
  in the output sharding.
"""
from __future__ import annotations

import numpy as np

from shardy_py.ir.attrs import UNIT_ATTR, AxisRefAttr, OpaqueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.export_utils import (
    PartitionError,
    channel_handle,
    dense_text,
    dynamic_slice_for_axes,
    i64,
    ordered_axis_refs,
    reduction_body,
    replica_groups,
    reshape,
    shard_indices,
    total_size,
    transpose,
)
from shardy_py.verify.axes import contains, sharded_size


def _out(op: Operation):
    return op.properties_view["out_sharding"]


def _reduction(op: Operation) -> str:
    """The op's reduction (sum, min, max; sum when the op does not say)."""
    value = op.properties_view.get("reduction_op")
    text = str(getattr(value, "text", value) or "sum").lower()
    for kind in ("min", "max"):
        if kind in text:
            return kind
    return "sum"


def _tensor(shape, like: RankedTensorType) -> RankedTensorType:
    return RankedTensorType.get(tuple(shape), like.element_type)


def _groups(conv, axes, mesh, mesh_or_ref):
    return replica_groups(list(axes), mesh, mesh_or_ref, conv.rgv3)


def collective_properties(conv, groups, **props) -> dict:
    """A stablehlo collective's properties: ``props``, a fresh channel, ``groups``, global device ids."""
    return {**props, "channel_handle": channel_handle(conv.channel()), "replica_groups": groups,
            "use_global_device_ids": UNIT_ATTR}


def all_gather(conv, b: Builder, value, dim: int, groups, result_shape, loc):
    """``value`` gathered along ``dim`` over ``groups`` (a stablehlo.all_gather with a fresh channel)."""
    props = collective_properties(conv, groups, all_gather_dim=i64(dim))
    return b.create("stablehlo.all_gather", [value], result_types=[_tensor(result_shape, value.type)],
                    properties=props, loc=loc).results[0]


def convert_all_gather(conv, op: Operation) -> None:
    """``AllGatherOpPattern``."""
    axes_per_dim = [tuple(a.value) for a in op.properties_view["gathering_axes"].value]
    gathered = [d for d, axes in enumerate(axes_per_dim) if axes]
    if not gathered:
        raise PartitionError(op, "No-op AllGatherOp should have been removed by canonicalization.")
    out = _out(op)
    mesh = conv.mesh_or_fail(out, op)
    b = Builder.before(op)
    value = op.operands[0]
    if conv.options["per_dim_all_gather"] or len(gathered) == 1:
        for dim in reversed(gathered):
            groups, size = _groups(conv, axes_per_dim[dim], mesh, out.mesh_or_ref)
            shape = list(value.type.shape)
            if shape[dim] >= 0:
                shape[dim] *= size
            value = all_gather(conv, b, value, dim, groups, shape, op.loc)
        conv.replace(op, [value])
        return
    local_shape = list(value.type.shape)
    factors = [sharded_size(axes_per_dim[d], mesh) for d in gathered]
    all_axes = [a for d in gathered for a in axes_per_dim[d]]
    value = reshape(b, value, [1, *local_shape], op.loc)
    groups, size = _groups(conv, all_axes, mesh, out.mesh_or_ref)
    value = all_gather(conv, b, value, 0, groups, [size, *local_shape], op.loc)
    value = reshape(b, value, [*factors, *local_shape], op.loc)
    perm = []
    for i in range(len(local_shape)):
        if i in gathered:
            perm.append(gathered.index(i))
        perm.append(i + len(gathered))
    value = transpose(b, value, perm, op.loc)
    final = list(local_shape)
    for d, f in zip(gathered, factors, strict=True):
        final[d] *= f
    conv.replace(op, [reshape(b, value, final, op.loc)])


def _reducing(conv, b: Builder, name: str, value, result_type, groups, reduction: str, loc, **props):
    new = b.create(name, [value], result_types=[result_type], properties=collective_properties(conv, groups, **props),
                   regions=1, loc=loc)
    reduction_body(new, value.type.element_type, reduction)
    return new.results[0]


def reduced(conv, b: Builder, name: str, value, result_type, axes, mesh, mesh_or_ref, reduction: str, loc, **props):
    """``value`` reduced (``name``: all_reduce / reduce_scatter) over ``axes`` with a fresh channel."""
    groups, _ = _groups(conv, axes, mesh, mesh_or_ref)
    return _reducing(conv, b, name, value, result_type, groups, reduction, loc, **props)


def convert_all_reduce(conv, op: Operation) -> None:
    """``AllReduceOpPattern``."""
    out = _out(op)
    mesh = conv.mesh_or_fail(out, op)
    groups, _ = _groups(conv, op.properties_view["reduction_axes"].value, mesh, out.mesh_or_ref)
    b = Builder.before(op)
    result = _reducing(conv, b, "stablehlo.all_reduce", op.operands[0], conv.local(op.results[0], op), groups,
                       _reduction(op), op.loc)
    conv.replace(op, [result])


def convert_all_slice(conv, op: Operation) -> None:
    """``AllSliceOpPattern``: a dynamic slice at this device's offsets."""
    out = _out(op)
    mesh = conv.mesh_or_fail(out, op)
    axes = [a.value for a in op.properties_view["slicing_axes"].value]
    piece = dynamic_slice_for_axes(Builder.before(op), op.operands[0], mesh, axes, conv.local(op.results[0], op),
                                   conv.counts, op.loc)
    conv.replace(op, [piece])


def _all_to_all(conv, b: Builder, value, split: int, concat: int, count: int, groups, shape, loc):
    props = {"split_dimension": i64(split), "concat_dimension": i64(concat), "split_count": i64(count),
             "replica_groups": groups, "channel_handle": channel_handle(conv.channel())}
    return b.create("stablehlo.all_to_all", [value], result_types=[_tensor(shape, value.type)], properties=props,
                    loc=loc).results[0]


def convert_all_to_all(conv, op: Operation) -> None:
    """``AllToAllOpPattern``."""
    out = _out(op)
    mesh = conv.mesh_or_fail(out, op)
    params = list(op.properties_view["params"].value)
    b = Builder.before(op)
    value = op.operands[0]
    shape = list(value.type.shape)
    if len(params) == 1:
        param = params[0]
        if not param.axes:
            raise PartitionError(op, f"'{op.name}' op failed to resolve axes")
        groups, size = _groups(conv, param.axes, mesh, out.mesh_or_ref)
        src, tgt = param.src_dim, param.tgt_dim
        if shape[src] < 0 or shape[tgt] < 0:
            raise PartitionError(op, f"'{op.name}' op dynamic shape not supported")
        if shape[tgt] % size:
            raise PartitionError(op, f"'{op.name}' op dimension not divisible by num devices per group")
        shape[src] *= size
        shape[tgt] //= size
        conv.replace(op, [_all_to_all(conv, b, value, tgt, src, size, groups, shape, op.loc)])
        return
    order = sorted(range(len(params)), key=lambda i: params[i].tgt_dim)
    sizes = [sharded_size(params[i].axes, mesh) for i in order]
    all_axes = [a for i in order for a in params[i].axes]
    split_shape, perm0 = [], []
    for dim, extent in enumerate(shape):
        k = next((j for j, i in enumerate(order) if params[i].tgt_dim == dim), None)
        if k is None:
            split_shape.append(extent)
            continue
        perm0.append(len(split_shape))
        split_shape.append(sizes[k])
        if extent < 0 or extent % sizes[k]:
            raise PartitionError(op, f"'{op.name}' op dynamic shape or dimension not divisible by num devices "
                                     "per param")
        split_shape.append(extent // sizes[k])
    perm0 += [i for i in range(len(split_shape)) if i not in perm0]
    split = reshape(b, value, split_shape, op.loc)
    moved = transpose(b, split, perm0, op.loc)
    groups, size = _groups(conv, all_axes, mesh, out.mesh_or_ref)
    merged = reshape(b, moved, [size, *moved.type.shape[len(params):]], op.loc)
    exchanged = _all_to_all(conv, b, merged, 0, 0, size, groups, merged.type.shape, op.loc)
    back = reshape(b, exchanged, moved.type.shape, op.loc)
    rank = len(shape)
    perm1 = [i + len(params) for i in range(rank)]
    for k, i in enumerate(order):
        perm1.insert(perm1.index(params[i].src_dim + len(params)), k)
    placed = transpose(b, back, perm1, op.loc)
    final, i = [], 0
    placed_shape = placed.type.shape
    while i < len(placed_shape):
        if perm1[i] < len(params):
            final.append(placed_shape[i] * placed_shape[i + 1])
            i += 2
        else:
            final.append(placed_shape[i])
            i += 1
    conv.replace(op, [reshape(b, placed, final, op.loc)])


def convert_collective_permute(conv, op: Operation) -> None:
    """``CollectivePermuteOpPattern``: each device sends its shard to the device that holds the
    same shard in the output sharding."""
    out = _out(op)
    source = conv.operand_sharding(op, 0)
    if source == out:
        raise PartitionError(op, "Shardy canonicalizer should have removed no-op collective-permute.")
    out_mesh, in_mesh = conv.mesh_of(out), conv.mesh_of(source)
    if out_mesh is None or in_mesh is None:
        raise PartitionError(op, f"'{op.name}' op failed to resolve mesh")
    if total_size(in_mesh) != total_size(out_mesh):
        raise PartitionError(op, "collective-permute between meshes of different sizes is not supported.")
    refs = [a for s in (source, out) for d in s.dim_shardings for a in d.axes]
    ordered = ordered_axis_refs(refs, out_mesh)

    def sharding_axes(sharding) -> list[AxisRefAttr]:
        axes: list[AxisRefAttr] = []
        for dim in sharding.dim_shardings:
            for axis in dim.axes:
                for atomic in ordered:
                    if axis.name == atomic.name and contains(axis, atomic) and atomic not in axes:
                        axes.append(atomic)
        return axes + [a for a in ordered if a not in axes]

    n = total_size(out_mesh)
    out_index = shard_indices(out_mesh, sharding_axes(out))
    device_of = np.empty(n, dtype=np.int64)
    device_of[out_index] = np.arange(n, dtype=np.int64)
    targets = device_of[shard_indices(in_mesh, sharding_axes(source))]
    pairs = np.stack([np.arange(n, dtype=np.int64), targets], axis=1)
    value = op.operands[0]
    props = {"source_target_pairs": OpaqueAttr(dense_text(pairs, pairs.shape)),
             "channel_handle": channel_handle(conv.channel())}
    new = Builder.before(op).create("stablehlo.collective_permute", [value], result_types=[value.type],
                                    properties=props, loc=op.loc)
    conv.replace(op, new.results)


def convert_reduce_scatter(conv, op: Operation) -> None:
    """``ReduceScatterOpPattern``."""
    sharding = conv.operand_sharding(op, 0)
    mesh = conv.mesh_or_fail(sharding, op)
    axes_per_dim = [tuple(a.value) for a in op.properties_view["reduce_scatter_axes"].value]
    scattered = [d for d, axes in enumerate(axes_per_dim) if axes]
    if not scattered:
        raise PartitionError(op, "Shardy should have canonicalized no-op reduce-scatter.")
    all_axes = [a for d in scattered for a in axes_per_dim[d]]
    local = conv.local(op.results[0], op)
    b = Builder.before(op)
    value = op.operands[0]
    reduction = _reduction(op)
    if len(scattered) == 1:
        dim = scattered[0]
        groups, _ = _groups(conv, axes_per_dim[dim], mesh, sharding.mesh_or_ref)
        conv.replace(op, [_reducing(conv, b, "stablehlo.reduce_scatter", value, local, groups, reduction, op.loc,
                                    scatter_dimension=i64(dim))])
        return
    if conv.options["combine_multi_dimension_reduce_scatter"]:
        shape = list(value.type.shape)
        split_shape, factor_dims = [], []
        factors = [sharded_size(axes_per_dim[d], mesh) for d in scattered]
        for dim, extent in enumerate(shape):
            if dim not in scattered:
                split_shape.append(extent)
                # The C++ reads past its list of factors here (for a dimension not scattered).
                raise PartitionError(op, "combining a reduce-scatter with an unscattered dimension is not supported")
            factor = factors[scattered.index(dim)]
            factor_dims.append(len(split_shape))
            split_shape.append(factor)
            if extent < 0 or extent % factor:
                raise PartitionError(op, f"'{op.name}' op dimension not divisible by scattering factor")
            split_shape.append(extent // factor)
        split = reshape(b, value, split_shape, op.loc)
        perm = factor_dims + [i for i in range(len(split_shape)) if i not in factor_dims]
        moved = transpose(b, split, perm, op.loc)
        combined = reshape(b, moved, [int(np.prod(factors)), *local.shape], op.loc)
        groups, _ = _groups(conv, all_axes, mesh, sharding.mesh_or_ref)
        scattered_value = _reducing(conv, b, "stablehlo.reduce_scatter", combined,
                                    _tensor([1, *local.shape], local), groups, reduction, op.loc,
                                    scatter_dimension=i64(0))
        conv.replace(op, [reshape(b, scattered_value, local.shape, op.loc)])
        return
    groups, _ = _groups(conv, all_axes, mesh, sharding.mesh_or_ref)
    reduced = _reducing(conv, b, "stablehlo.all_reduce", value, value.type, groups, reduction, op.loc)
    conv.replace(op, [dynamic_slice_for_axes(b, reduced, mesh, axes_per_dim, local, conv.counts, op.loc)])


COLLECTIVE_PATTERNS = {
    "sdy.all_gather": convert_all_gather,
    "sdy.all_reduce": convert_all_reduce,
    "sdy.all_slice": convert_all_slice,
    "sdy.all_to_all": convert_all_to_all,
    "sdy.collective_permute": convert_collective_permute,
    "sdy.reduce_scatter": convert_reduce_scatter,
}
