"""The halo exchange of ``-sdy-resolve-permutation-factors`` (export/resolve_permutation_factors.cc,
"Core HALO exchange helpers"): the device code, inside an ``sdy.manual_computation`` over the
axes of the sharded dimensions, that gives each device the piece of the input its output needs.

Along each dimension that needs communication, a device concatenates the shards of its
left-hand neighbours (``stablehlo.collective_permute`` by 1..left hops), its own and those of its
right-hand neighbours, pads that buffer on both sides (dilated for a pad's interior padding) and
takes its piece with a ``stablehlo.dynamic_slice`` at an offset computed from its partition (or
replica) id.  The op's own work on the unsharded dimensions is done on the piece afterwards
(``post_process``), and the result is sliced back to the op's type outside.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import (
    DimensionShardingAttr,
    ManualAxesAttr,
    MeshAttr,
    OpaqueAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import add_argument
from shardy_py.ir.ops import Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.export_utils import (
    INDEX,
    SCALAR_INDEX,
    channel_handle,
    constant,
    dense_text,
    device_id,
    device_index,
    i64_array,
    reshape,
    scalar_index,
    shard_indices,
    table_lookup,
    zero_value_text,
)
from shardy_py.passes.export.resolve_permutation_factors_exchange import (
    DimExchange,
    ResolutionState,
    ResolveError,
    manual_axis_names,
    manual_shard_count,
    padded_dim_size,
    remove_axes,
    shift_pairs,
)
from shardy_py.passes.shardings import set_sharding
from shardy_py.verify.axes import axis_size, sharded_size

#: ``post_process(builder, exchanged, local padding value, padded global result type)``.
PostProcess = Callable[[Builder, Value, Value, RankedTensorType], Value]


def with_shape(type_: RankedTensorType, shape: Sequence[int]) -> RankedTensorType:
    return RankedTensorType.get(tuple(shape), type_.element_type)


def create(b: Builder, name: str, operands: Sequence[Value], type_: RankedTensorType, loc,
           sharding: TensorShardingAttr | None = None, **properties) -> Value:
    """An op of one result of ``type_`` (``sharding`` set on it when given)."""
    value = b.create(name, list(operands), result_types=[type_], properties=properties, loc=loc).results[0]
    if sharding is not None:
        set_sharding(value, sharding)
    return value


def zero_scalar(b: Builder, element: str, loc) -> Value:
    """``createZeroScalarConstant``."""
    type_ = RankedTensorType.get((), element)
    return constant(b, zero_value_text(type_), type_, loc)


def this_device(b: Builder, state: ResolutionState, op, loc) -> Value:
    """``getDeviceId``: the replica id (more than one replica) or partition id, a ``tensor<ui32>``."""
    if state.replica_count != 1 and state.partition_count != 1:
        raise ResolveError(op, "Shardy partitioner does not support replica_count > 1 && partition_count > 1 yet.")
    return device_id(b, state.replica_count, state.partition_count, loc)


def id_in_group(b: Builder, device: Value, mesh: MeshAttr, target: DimensionShardingAttr, loc) -> Value:
    """``convertPartitionIdToIdInGroup`` as jaxlib 0.12 builds it: the index (``INDEX``), along
    ``target``'s axes, of the shard the device holds: a table lookup at the ui32 id for a mesh with
    explicit device ids, else divide/remainder arithmetic per axis on the id converted to ``INDEX``."""
    if mesh.device_ids:
        lookup = table_lookup(b, shard_indices(mesh, target.axes), device, loc=loc)
        return reshape(b, lookup, (), loc)
    device = device_index(b, device, loc)
    index: Value | None = None
    names = [a.name for a in mesh.axes]
    for axis in target.axes:
        size = axis_size(axis, mesh)
        suffix = 1
        for other in mesh.axes[names.index(axis.name) + 1:]:
            suffix *= other.size
        divisor = suffix * (mesh.axis_size(axis.name) // (axis.pre_size * size))
        coord = device
        if divisor > 1:
            coord = create(b, "stablehlo.divide", [coord, scalar_index(b, divisor, loc)], SCALAR_INDEX, loc)
        if size < mesh.total_size:
            coord = create(b, "stablehlo.remainder", [coord, scalar_index(b, size, loc)], SCALAR_INDEX, loc)
        if index is None:
            index = coord
        else:
            index = create(b, "stablehlo.multiply", [index, scalar_index(b, size, loc)], SCALAR_INDEX, loc)
            index = create(b, "stablehlo.add", [index, coord], SCALAR_INDEX, loc)
    return index if index is not None else scalar_index(b, 0, loc)


def device_offsets(b: Builder, index: Value, diff: int, base: int, base_dilation: int, need_undilated: bool,
                   loc) -> tuple[Value, Value | None, Value]:
    """``getDeviceOffsetInfo``: ``max(index * diff + base, 0)`` (the offset in the dilated buffer),
    that divided by ``base_dilation`` (when asked) and the ``0`` the other dimensions use (``INDEX``)."""
    diff_value, base_value = scalar_index(b, diff, loc), scalar_index(b, base, loc)
    offset = create(b, "stablehlo.multiply", [index, diff_value], SCALAR_INDEX, loc)
    offset = create(b, "stablehlo.add", [offset, base_value], SCALAR_INDEX, loc)
    zero = scalar_index(b, 0, loc)
    offset = create(b, "stablehlo.maximum", [offset, zero], SCALAR_INDEX, loc)
    undilated = None
    if need_undilated:
        undilated = offset
        if base_dilation != 1:
            undilated = create(b, "stablehlo.divide", [offset, scalar_index(b, base_dilation, loc)], SCALAR_INDEX,
                               loc)
    return offset, undilated, zero


def pad_high(b: Builder, value: Value, shape: Sequence[int], sharding: TensorShardingAttr, loc,
             padding: Value | None = None) -> Value:
    """``padHighSideToShape``: ``value`` padded at the high end to ``shape`` (with ``padding``, zero
    by default); ``value`` itself when it has that shape."""
    type_ = value.type
    if tuple(shape) == type_.shape:
        return value
    if padding is None:
        padding = zero_scalar(b, type_.element_type, loc)
    rank = len(shape)
    return create(b, "stablehlo.pad", [value, padding], with_shape(type_, shape), loc, sharding,
                  edge_padding_low=i64_array([0] * rank),
                  edge_padding_high=i64_array([s - d for s, d in zip(shape, type_.shape, strict=True)]),
                  interior_padding=i64_array([0] * rank))


def slice_high(b: Builder, value: Value, target: RankedTensorType, sharding: TensorShardingAttr, loc) -> Value:
    """``sliceHighSideToShape``: ``value`` cut at the high end to ``target``."""
    if value.type == target:
        return value
    rank = len(target.shape)
    return create(b, "stablehlo.slice", [value], target, loc, sharding, start_indices=i64_array([0] * rank),
                  limit_indices=i64_array(target.shape), strides=i64_array([1] * rank))


def collective_permute(b: Builder, value: Value, pairs: Sequence[int], state: ResolutionState, loc,
                       sharding: TensorShardingAttr | None = None) -> Value:
    """A ``stablehlo.collective_permute`` of ``value`` over the flattened ``pairs``: across
    partitions on a fresh channel, or, with more than one replica, across replicas (no channel, as
    jaxlib 0.12; the test files' commit gives it a channel, which makes the pairs partition ids)."""
    shape = (len(pairs) // 2, 2)
    properties = {"source_target_pairs": OpaqueAttr(dense_text(pairs, shape))}
    if state.replica_count <= 1:
        properties["channel_handle"] = channel_handle(state.channel())
    return create(b, "stablehlo.collective_permute", [value], value.type, loc, sharding, **properties)


def concatenate(b: Builder, values: Sequence[Value], dim: int, sharding: TensorShardingAttr, loc) -> Value:
    shape = list(values[0].type.shape)
    shape[dim] = sum(v.type.shape[dim] for v in values)
    return create(b, "stablehlo.concatenate", values, with_shape(values[0].type, shape), loc, sharding,
                  dimension=OpaqueAttr(f"{dim} : i64"))


def _dim_sharding(exchange: DimExchange, sharding: TensorShardingAttr, dim: int) -> DimensionShardingAttr:
    """The dimension sharding the exchange runs along: a reshape's combined output sharding, else
    the operand's."""
    return exchange.target if exchange.target is not None else sharding.dim_shardings[dim]


def _manual_axes_of(dim: DimensionShardingAttr, manual: set[str]):
    return [a for a in dim.axes if a.name in manual]


def masked_neighbour(b: Builder, fetched: Value, padding: Value, index: Value, direction: str, bound: int,
                     loc) -> Value:
    """jaxlib 0.12's mask of a fetched neighbour's shard: the shard where ``index direction bound``
    (``GE`` hops for a left neighbour, ``LT`` count - hops for a right one: the neighbour exists),
    else the padding value (the test files' commit kept what the collective permute left, zeros)."""
    pred_type = RankedTensorType.get((), "i1")
    exists = create(b, "stablehlo.compare", [index, scalar_index(b, bound, loc)], pred_type, loc,
                    comparison_direction=OpaqueAttr(f"#stablehlo<comparison_direction {direction}>"))
    shape = fetched.type.shape
    fill = create(b, "stablehlo.broadcast_in_dim", [padding], fetched.type, loc,
                  broadcast_dimensions=i64_array([]))
    mask = create(b, "stablehlo.broadcast_in_dim", [exists], RankedTensorType.get(shape, "i1"), loc,
                  broadcast_dimensions=i64_array([]))
    return create(b, "stablehlo.select", [mask, fetched, fill], fetched.type, loc)


def assemble_buffer(b: Builder, value: Value, dim: int, edge_pad: int, padding: Value, exchange: DimExchange,
                    sharding: TensorShardingAttr, mesh: MeshAttr, manual: set[str], local: TensorShardingAttr,
                    state: ResolutionState, loc, index: Value, interior: int = 0) -> Value:
    """``assembleHaloExchangeBuffer``: the left neighbours' shards, the own one and the right
    neighbours' (each masked with the padding value where the neighbour does not exist, ``index``
    being this device's shard index) concatenated along ``dim`` and padded by ``edge_pad`` on both
    sides (``interior`` padding between elements)."""
    axes = _manual_axes_of(_dim_sharding(exchange, sharding, dim), manual)
    count = sharded_size(axes, mesh)
    pieces = []
    for offset in range(exchange.left_hops, 0, -1):
        pairs = shift_pairs(mesh, axes, offset)
        fetched = collective_permute(b, value, pairs, state, loc) if pairs else value
        pieces.append(masked_neighbour(b, fetched, padding, index, "GE", offset, loc))
    pieces.append(value)
    for offset in range(1, exchange.right_hops + 1):
        pairs = shift_pairs(mesh, axes, -offset)
        fetched = collective_permute(b, value, pairs, state, loc) if pairs else value
        pieces.append(masked_neighbour(b, fetched, padding, index, "LT", count - offset, loc))
    joined = concatenate(b, pieces, dim, local, loc)
    rank = len(value.type.shape)
    low, high, inner = [0] * rank, [0] * rank, [0] * rank
    low[dim] = high[dim] = edge_pad
    inner[dim] = interior
    shape = list(joined.type.shape)
    shape[dim] = (shape[dim] - 1) * (interior + 1) + 1 + 2 * edge_pad
    return create(b, "stablehlo.pad", [joined, padding], with_shape(joined.type, shape), loc, local,
                  edge_padding_low=i64_array(low), edge_padding_high=i64_array(high),
                  interior_padding=i64_array(inner))


def dynamic_slice(b: Builder, buffer: Value, offset: Value, zero: Value, dim: int, size: int,
                  local: TensorShardingAttr, loc) -> Value:
    """``dynamicSliceHaloExchangeBuffer``: ``size`` elements of ``buffer`` along ``dim`` from ``offset``."""
    shape = list(buffer.type.shape)
    shape[dim] = size
    offsets = [zero] * len(shape)
    offsets[dim] = offset
    return create(b, "stablehlo.dynamic_slice", [buffer, *offsets], with_shape(buffer.type, shape), loc, local,
                  slice_sizes=i64_array(shape))


def exchange_dim(b: Builder, value: Value, padding: Value, dim: int, exchange: DimExchange,
                 sharding: TensorShardingAttr, mesh: MeshAttr, manual: set[str], local: TensorShardingAttr,
                 pad_low: int, stride: int, base_dilation: int, dilated: bool, state: ResolutionState, op,
                 loc) -> Value:
    """``exchangeDimWithDynamicOffset``: the halo buffer of ``dim`` and this device's piece of it."""
    edge_pad = exchange.footprint * base_dilation if dilated else exchange.footprint
    device = this_device(b, state, op, loc)
    index = id_in_group(b, device, mesh, _dim_sharding(exchange, sharding, dim), loc)
    buffer = assemble_buffer(b, value, dim, edge_pad, padding, exchange, sharding, mesh, manual, local, state, loc,
                             index, base_dilation - 1 if dilated else 0)
    s_in = value.type.shape[dim]
    s_in_dilated = s_in * base_dilation
    s_out = exchange.s_out or exchange.footprint
    diff = s_out * stride - s_in_dilated
    base = -pad_low + exchange.left_hops * s_in_dilated + exchange.footprint * base_dilation
    if exchange.target is not None:
        if not dilated or base_dilation != 1:
            raise ResolveError(op, "a reshape's halo exchange is undilated")
        offsets = []
        for t, shard in enumerate(exchange.shards):
            source = shard.source if shard.source != -1 else t
            hop = exchange.left_hops + source - t
            offsets.append(-pad_low + exchange.footprint + hop * s_in + shard.offset)
        n = len(offsets)
        table = constant(b, dense_text(offsets, (n,), INDEX), RankedTensorType.get((n,), INDEX), loc)
        piece = create(b, "stablehlo.dynamic_slice", [table, index], RankedTensorType.get((1,), INDEX), loc,
                       slice_sizes=i64_array([1]))
        offset = reshape(b, piece, (), loc)
        zero = scalar_index(b, 0, loc)
    else:
        dilated_offset, undilated_offset, zero = device_offsets(b, index, diff, base, base_dilation, not dilated,
                                                                loc)
        offset = dilated_offset if dilated else undilated_offset
    return dynamic_slice(b, buffer, offset, zero, dim, exchange.footprint, local, loc)


def exchange_data(b: Builder, value: Value, padding: Value, sharding: TensorShardingAttr, mesh: MeshAttr,
                  manual: set[str], dims: Sequence[DimExchange], pad_low: Sequence[int], strides: Sequence[int],
                  dilated: bool, state: ResolutionState, op, loc, base_dilations: Sequence[int] = ()) -> Value:
    """``exchangeDataWithDynamicOffset``: ``exchange_dim`` on each sharded dimension that needs it."""
    local = remove_axes(sharding, manual)
    k = -1
    for dim, dim_sharding in enumerate(sharding.dim_shardings):
        if sharded_size(dim_sharding.axes, mesh) <= 1:
            continue
        k += 1
        if not dims[k].needs_comm:
            continue
        value = exchange_dim(b, value, padding, dim, dims[k], sharding, mesh, manual, local,
                             pad_low[dim] if pad_low else 0, strides[dim] if strides else 1,
                             base_dilations[dim] if base_dilations else 1, dilated, state, op, loc)
    return value


def halo_data_exchange(b: Builder, value: Value, divisible_shape: Sequence[int], out_type: RankedTensorType,
                       in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr, mesh: MeshAttr,
                       manual: set[str], padding: Value, pad_low: Sequence[int], dims: Sequence[DimExchange],
                       post_process: PostProcess, state: ResolutionState, op, loc, strides: Sequence[int] = (),
                       base_dilations: Sequence[int] = ()) -> Value:
    """``haloDataExchange``: an ``sdy.manual_computation`` over ``manual`` taking the divisible
    input and the padding value, whose body exchanges the halos and runs ``post_process``; its
    result has ``out_type`` padded to what ``out_sharding`` divides."""
    local_shape = []
    for dim, dim_sharding in enumerate(in_sharding.dim_shardings):
        count = manual_shard_count(dim_sharding, mesh, manual)
        if divisible_shape[dim] % count:
            raise ResolveError(op, "the padded input is not divisible by its manual axes")
        local_shape.append(divisible_shape[dim] // count)
    replicated = TensorShardingAttr(in_sharding.mesh_or_ref, (), (), ())
    padded = with_shape(out_type, [padded_dim_size(size, sharded_size(d.axes, mesh))
                                   for size, d in zip(out_type.shape, out_sharding.dim_shardings, strict=True)])
    props = {"in_shardings": TensorShardingPerValueAttr((in_sharding, replicated)),
             "out_shardings": TensorShardingPerValueAttr((out_sharding,)),
             "manual_axes": ManualAxesAttr(manual_axis_names(mesh, manual))}
    manual_op = b.create("sdy.manual_computation", [value, padding], result_types=[padded], properties=props,
                         regions=1, loc=loc)
    block = manual_op.regions[0].blocks[0]
    local_value = add_argument(block, with_shape(value.type, local_shape))
    local_padding = add_argument(block, padding.type)
    inner = Builder.at_end(block)
    exchanged = exchange_data(inner, local_value, local_padding, in_sharding, mesh, manual, dims, pad_low, strides,
                              not strides, state, op, loc, base_dilations)
    exchanged = post_process(inner, exchanged, local_padding, padded)
    inner.create("sdy.return", [exchanged], result_types=[], loc=loc)
    return manual_op.results[0]
