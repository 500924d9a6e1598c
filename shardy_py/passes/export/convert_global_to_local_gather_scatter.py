"""The gather and scatter patterns of ``sdy-convert-global-to-local``
(export/convert_global_to_local.cc).

A gather whose operand is sharded takes local slice sizes.  A sharded operand dimension gathered
with slice size 1 (a "trivial slice" dimension) is looked up on every device: the indices along it
are made local (minus this device's offset, after clamping them to the global bounds), and a mask
zeroes the rows whose index falls in another device's shard; the ``sdy.all_reduce`` after the
gather sums the devices' pieces.  A scatter with sharded indexed operand dimensions makes its
indices local the same way; updates sharded along implicit batch dimensions are applied on one
device per group (the others see the reduction's identity), for the all-reduce after them.
"""
from __future__ import annotations

import numpy as np

from shardy_py.ir.attrs import DimensionShardingAttr, OpaqueAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import add_argument
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.explicit_reshards_util import is_fully_replicated
from shardy_py.passes.export.export_utils import (
    SCALAR_INDEX,
    PartitionError,
    device_id,
    dimension_offset,
    i64_array,
    shard_indices,
    table_lookup,
)
from shardy_py.passes.shardings import set_sharding
from shardy_py.rules.props import ints_prop, typed_prop
from shardy_py.rules.registry_gather_scatter import common_supported_reduction_op
from shardy_py.verify.axes import sharded_size


def _axes(sharding, dim: int) -> tuple:
    return () if sharding is None else tuple(sharding.dim_shardings[dim].axes)


def _const(b: Builder, text: str, type_: RankedTensorType, loc) -> Value:
    return b.create("stablehlo.constant", [], result_types=[type_], properties={"value": OpaqueAttr(text)},
                    loc=loc).results[0]


def _ints_text(values, type_: RankedTensorType) -> str:
    values = [int(v) for v in values]
    if len(set(values)) == 1:
        return f"dense<{values[0]}> : {type_}"
    return f"dense<[{', '.join(map(str, values))}]> : {type_}"


def _op(b: Builder, name: str, operands, type_, loc, **props) -> Value:
    return b.create(name, list(operands), result_types=[type_], properties=props, loc=loc).results[0]


def _broadcast(b: Builder, value: Value, type_, dims, loc) -> Value:
    return _op(b, "stablehlo.broadcast_in_dim", [value], type_, loc, broadcast_dimensions=i64_array(dims))


def _compare(b: Builder, lhs: Value, rhs: Value, direction: str, loc) -> Value:
    type_ = RankedTensorType.get(lhs.type.shape, "i1")
    return _op(b, "stablehlo.compare", [lhs, rhs], type_, loc,
               comparison_direction=OpaqueAttr(f"#stablehlo<comparison_direction {direction}>"))


def _and(b: Builder, lhs: Value, rhs: Value, loc) -> Value:
    return _op(b, "stablehlo.and", [lhs, rhs], lhs.type, loc)


def _bounds(conv, b: Builder, mesh, sharding, global_operand, local_operand, start_index_map, trivial, element,
            with_max: bool, loc):
    """``getTrivialSliceDimBounds``: per indexed dimension, the lowest and highest index this
    device holds (the whole range for a dimension that is not a trivial slice)."""
    scalar = RankedTensorType.get((), element)
    lows, highs = [], []
    for dim in start_index_map:
        if dim not in trivial:
            lows.append(_const(b, f"dense<0> : {scalar}", scalar, loc))
            if with_max:
                lows_high = global_operand.shape[dim] - 1
                highs.append(_const(b, f"dense<{lows_high}> : {scalar}", scalar, loc))
            continue
        shard = local_operand.shape[dim]
        offset = dimension_offset(b, mesh, _axes(sharding, dim), shard, conv.counts, loc)
        offset = _op(b, "stablehlo.convert", [offset], scalar, loc)
        lows.append(offset)
        if with_max:
            last = _const(b, f"dense<{shard - 1}> : {scalar}", scalar, loc)
            highs.append(_op(b, "stablehlo.add", [offset, last], scalar, loc))
    return lows, highs


def _clamp_gather_indices(b: Builder, indices: Value, global_operand, start_index_map, ivd: int, loc) -> Value:
    type_ = indices.type

    def like(values) -> Value:
        if ivd < len(type_.shape) and len(values) > 1:
            vector = RankedTensorType.get((len(values),), type_.element_type)
            return _broadcast(b, _const(b, _ints_text(values, vector), vector, loc), type_, [ivd], loc)
        return _const(b, _ints_text([values[0]], type_), type_, loc)

    low = like([0])
    high = like([global_operand.shape[d] - 1 for d in start_index_map])
    return _op(b, "stablehlo.clamp", [low, indices, high], type_, loc)


def local_indices_and_mask(conv, b: Builder, indices: Value, mesh, sharding, global_operand, local_operand, dims,
                           trivial, loc, scatter: bool, with_mask: bool = True):
    """``computeLocalIndicesAndMask``: indices relative to this device's shard of the trivial slice
    dimensions, and (``with_mask``) where they fall inside it."""
    ivd = dims.index_vector_dim
    start_index_map = list(dims.scatter_dims_to_operand_dims if scatter else dims.start_index_map)
    type_ = indices.type
    element = type_.element_type
    adjusted, mask = indices, None
    if any(d in start_index_map for d in trivial):
        base = indices if scatter else _clamp_gather_indices(b, indices, global_operand, start_index_map, ivd, loc)
        lows, highs = _bounds(conv, b, mesh, sharding, global_operand, local_operand, start_index_map, trivial,
                              element, with_mask, loc)

        replicated = TensorShardingAttr(sharding.mesh_or_ref, tuple(DimensionShardingAttr((), True)
                                                                    for _ in type_.shape), (), ())

        def spread(bounds) -> Value:
            """The bounds broadcast to the indices' shape (replicated, as jaxlib 0.12 marks them)."""
            if ivd >= len(type_.shape) or type_.shape[ivd] == 1:
                wide = _broadcast(b, bounds[0], type_, [], loc)
            else:
                one = RankedTensorType.get((1,), element)
                pieces = [_op(b, "stablehlo.reshape", [v], one, loc) for v in bounds]
                joined = b.create("stablehlo.concatenate", pieces,
                                  result_types=[RankedTensorType.get((len(bounds),), element)],
                                  properties={"dimension": OpaqueAttr("0 : i64")}, loc=loc).results[0]
                wide = _broadcast(b, joined, type_, [ivd], loc)
            set_sharding(wide, replicated)
            return wide

        low = spread(lows)
        high = spread(highs) if with_mask else None
        adjusted = _op(b, "stablehlo.subtract", [base, low], type_, loc)
        if with_mask:
            mask = _and(b, _compare(b, base, low, "GE", loc), _compare(b, base, high, "LE", loc), loc)
    if not with_mask:
        return adjusted, None
    if any(d not in start_index_map for d in trivial):
        partition = None
        for dim in trivial:
            if dim in start_index_map:
                continue
            offset = dimension_offset(b, mesh, _axes(sharding, dim), local_operand.shape[dim], conv.counts, loc)
            zero = _const(b, "dense<0> : tensor<i32>", SCALAR_INDEX, loc)
            equal = _compare(b, offset, zero, "EQ", loc)
            partition = equal if partition is None else _and(b, partition, equal, loc)
        if mask is not None:
            partition = _broadcast(b, partition, mask.type, [], loc)
            mask = _and(b, mask, partition, loc)
        else:
            mask = partition
    return adjusted, mask


def _zero_text(type_: RankedTensorType) -> str:
    element = type_.element_type
    if element == "i1":
        return f"dense<false> : {type_}"
    if element.startswith(("i", "si", "ui")):
        return f"dense<0> : {type_}"
    return f"dense<0.000000e+00> : {type_}"


def _check_all_reduce_user(op: Operation, axes) -> None:
    users = [u.op for r in op.results for u in r.uses]
    if len(users) != 1 or users[0].name != "sdy.all_reduce":
        raise PartitionError(op, "Expected the gather to have one user and the user is an sdy.all_reduce.")
    if tuple(users[0].properties_view["reduction_axes"].value) != tuple(axes):
        raise PartitionError(op, "The axes of the sdy.all_reduce should match the sharded collapsed operand "
                                 "dimensions of the gather.")


def _recreated(b: Builder, op: Operation, operands, result_types, props: dict) -> Operation:
    """A copy of ``op`` with new operands, result types and properties; regions are moved over."""
    new = b.create(op.name, operands, result_types=result_types, properties=props,
                   attributes=dict(op.attributes_view), regions=0, loc=op.loc)
    for region in op.regions:
        region.parent = new
        new.regions.append(region)
    op.regions = []
    return new


def convert_gather(conv, op: Operation) -> None:
    """``StablehloGatherOpPattern``."""
    sharding = conv.operand_sharding(op, 0)
    if is_fully_replicated(sharding):
        conv.localize(op)
        return
    mesh = conv.mesh_or_fail(sharding, op)
    global_operand = conv.operand_type(op, 0)
    dims = typed_prop(op, "dimension_numbers")
    sizes = list(ints_prop(op, "slice_sizes"))
    trivial, reduction = [], []
    for i in range(len(global_operand.shape)):
        axes = _axes(sharding, i)
        if axes and sharded_size(axes, mesh) > 1 and sizes[i] == 1 and i not in dims.operand_batching_dims:
            trivial.append(i)
            reduction.extend(axes)
    local_sizes = list(sizes)
    for i, size in enumerate(sizes):
        axes = _axes(sharding, i)
        if size == 1 or i in dims.operand_batching_dims or not axes:
            continue
        n = sharded_size(axes, mesh)
        if size != global_operand.shape[i] or size % n:
            raise PartitionError(op, f"'{op.name}' op dimension {i} is sharded but not sliced whole")
        local_sizes[i] = size // n
    props = dict(op.properties_view)
    props["slice_sizes"] = i64_array(local_sizes)
    props.setdefault("indices_are_sorted", OpaqueAttr("false"))
    local = conv.local(op.results[0], op)
    b = Builder.before(op)
    if not trivial:
        new = _recreated(b, op, list(op.operands), [local], props)
        conv.replace(op, new.results)
        return
    indices, mask = local_indices_and_mask(conv, b, op.operands[1], mesh, sharding, global_operand,
                                           op.operands[0].type, dims, trivial, op.loc, scatter=False)
    result = _recreated(b, op, [op.operands[0], indices], [local], props).results[0]
    ivd = dims.index_vector_dim
    if mask.type.shape and ivd < len(mask.type.shape):
        reduced = RankedTensorType.get([s for d, s in enumerate(mask.type.shape) if d != ivd], "i1")
        init = _const(b, "dense<true> : tensor<i1>", RankedTensorType.get((), "i1"), op.loc)
        reduce = b.create("stablehlo.reduce", [mask, init], result_types=[reduced],
                          properties={"dimensions": i64_array([ivd])}, regions=1, loc=op.loc)
        block = reduce.regions[0].blocks[0]
        scalar = RankedTensorType.get((), "i1")
        lhs, rhs = add_argument(block, scalar), add_argument(block, scalar)
        inner = Builder.at_end(block)
        both = inner.create("stablehlo.and", [lhs, rhs], result_types=[scalar], loc=op.loc).results[0]
        inner.create("stablehlo.return", [both], result_types=[], loc=op.loc)
        mask = reduce.results[0]
    shape = local.shape
    batch_dims = [] if not mask.type.shape else [d for d in range(len(shape)) if d not in dims.offset_dims]
    wide = _broadcast(b, mask, RankedTensorType.get(shape, "i1"), batch_dims, op.loc)
    zero = _const(b, _zero_text(local), local, op.loc)
    selected = _op(b, "stablehlo.select", [wide, result, zero], local, op.loc)
    _check_all_reduce_user(op, reduction)
    conv.replace(op, [selected])


_LARGEST_BITS = {"f32": (0x7F7FFFFF, 31), "f64": (0x7FEFFFFFFFFFFFFF, 63), "f16": (0x7BFF, 15), "bf16": (0x7F7F, 15)}


def _identity_text(name: str, element: str) -> str | None:
    """The text of the scalar identity of the scatter's reduction ``name`` (None when unknown)."""
    scalar = RankedTensorType.get((), element)
    floating = element in _LARGEST_BITS or element.startswith(("f", "bf"))
    if name in ("stablehlo.add", "stablehlo.or"):
        return _zero_text(scalar)
    if name == "stablehlo.and":
        return f"dense<{'true' if element == 'i1' else 1}> : {scalar}"
    if name == "stablehlo.multiply":
        return f"dense<{'1.000000e+00' if floating else ('true' if element == 'i1' else 1)}> : {scalar}"
    if name in ("stablehlo.maximum", "stablehlo.minimum"):
        low = name == "stablehlo.maximum"
        if element in _LARGEST_BITS:
            from shardy_py.ir.dense_attrs import DenseElementsAttr

            bits, sign = _LARGEST_BITS[element]
            return DenseElementsAttr.from_values(scalar, [bits | (1 << sign if low else 0)]).mlir_text()
        if element.startswith(("i", "si")) and element.lstrip("si").isdigit():
            width = int(element.lstrip("si"))
            if width == 1:
                return f"dense<{'true' if low else 'false'}> : {scalar}"
            return f"dense<{-(1 << (width - 1)) if low else (1 << (width - 1)) - 1}> : {scalar}"
        if element.startswith("ui"):
            width = int(element[2:])
            return f"dense<{0 if low else (1 << width) - 1}> : {scalar}"
    return None


def _scatter_reduction_axes(conv, op: Operation, updates_sharding, input_sharding) -> list:
    axes = []
    if is_fully_replicated(updates_sharding):
        return axes
    dims = typed_prop(op, "scatter_dimension_numbers")
    n = len(op.operands) // 2
    update_type = conv.operand_type(op, n + 1)
    for i in range(len(update_type.shape)):
        if i in dims.update_window_dims:
            continue
        for axis in _axes(updates_sharding, i):
            in_operand = not is_fully_replicated(input_sharding) and any(
                axis in d.axes for d in input_sharding.dim_shardings)
            if not in_operand:
                axes.append(axis)
    return axes


def convert_scatter(conv, op: Operation) -> None:
    """``StablehloScatterOpPattern``."""
    n = len(op.operands) // 2
    input_sharding, update_sharding = conv.operand_sharding(op, 0), conv.operand_sharding(op, n + 1)
    if is_fully_replicated(input_sharding) and is_fully_replicated(update_sharding):
        conv.localize(op)
        return
    mesh = conv.mesh_of(input_sharding) if input_sharding is not None else conv.mesh_of(update_sharding)
    if mesh is None:
        raise PartitionError(op, "failed to resolve mesh.")
    reduction = _scatter_reduction_axes(conv, op, update_sharding, input_sharding)
    if not reduction and is_fully_replicated(input_sharding):
        conv.localize(op)
        return
    b = Builder.before(op)
    inputs = list(op.operands[:n])
    local_input = inputs[0].type
    if reduction:
        reducer = common_supported_reduction_op(op)
        text = None if reducer is None else _identity_text(reducer.name, local_input.element_type)
        if text is None:
            raise PartitionError(op, "failed to get scatter reduction identity.")
        identity = _const(b, text, RankedTensorType.get((), local_input.element_type), op.loc)
        leaders = (shard_indices(mesh, reduction) == 0).astype(np.int64)
        fill = _broadcast(b, identity, local_input, [], op.loc)
        device = device_id(b, *conv.counts, loc=op.loc)
        leader = table_lookup(b, leaders, device, element="i1", loc=op.loc)
        leader = _op(b, "stablehlo.reshape", [leader], RankedTensorType.get((), "i1"), op.loc)
        inputs = [_op(b, "stablehlo.select", [leader, v, fill], v.type, op.loc) for v in inputs]
    global_input = conv.operand_type(op, 0)
    dims = typed_prop(op, "scatter_dimension_numbers")
    indexed = []
    if not is_fully_replicated(input_sharding):
        for i in range(len(global_input.shape)):
            axes = _axes(input_sharding, i)
            if not axes:
                continue
            if i in dims.scatter_dims_to_operand_dims:
                indexed.append(i)
            elif i in dims.inserted_window_dims:
                raise PartitionError(op, f"'{op.name}' op sharding operand dimension {i} that is not indexed but in "
                                         "inserted window dimension is not supported.")
    if not indexed and not reduction:
        conv.localize(op)
        return
    indices = op.operands[n]
    if not is_fully_replicated(input_sharding):
        indices, _ = local_indices_and_mask(conv, b, indices, mesh, input_sharding, global_input, local_input, dims,
                                            indexed, op.loc, scatter=True, with_mask=False)
    props = dict(op.properties_view)
    props.setdefault("indices_are_sorted", OpaqueAttr("false"))
    props.setdefault("unique_indices", OpaqueAttr("false"))
    results = [conv.local(r, op) for r in op.results]
    new = _recreated(b, op, [*inputs, indices, *op.operands[n + 1:]], results, props)
    conv.replace(op, new.results)


GATHER_SCATTER_PATTERNS = {"stablehlo.gather": convert_gather, "stablehlo.scatter": convert_scatter}
