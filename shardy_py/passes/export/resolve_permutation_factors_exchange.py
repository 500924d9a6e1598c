"""What ``-sdy-resolve-permutation-factors`` computes before it builds anything
(export/resolve_permutation_factors.cc, "Data structures" and "Coordinate math"): for each
sharded dimension of an operand, which shard every device needs its data from (``DimExchange``),
and the device pairs of a shift by some shards along some axes.

Shard ``t`` of an output dimension of per-shard size ``s_out`` needs the input elements
``[start, start + footprint)`` with ``start = (t * s_out * stride - pad_low) / base_dilation``;
the shards of the input (per-shard size ``s_in``) holding them are its sources.  The most shards
any device looks to its left and right are the dimension's hops; a halo exchange fetches that many
neighbours, and is not used when a device would fetch more than one in a direction and the
neighbours span the whole dimension.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, MeshAttr, MeshAxisAttr, TensorShardingAttr
from shardy_py.passes.meshes import MeshTable
from shardy_py.verify.axes import axis_set_diff, axis_size, sharded_size


class ResolveError(Exception):
    """A state the C++ pass refuses with a fatal check: ``op`` and why (a located error here)."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op = op


@attrs.define
class ResolutionState:
    """``ResolutionState``: the module, its mesh symbols (``mesh_cache``: the name of each mesh, by
    value, as the pass finds and adds them), the next free channel id and the device-id counts."""

    module: object
    table: MeshTable
    mesh_cache: dict
    next_channel: int
    replica_count: int = 1
    partition_count: int = 1
    #: MLIR's symbol table counter: the N of the next ``name_N`` made to avoid a clash.
    uniquing_counter: int = 0

    def channel(self) -> int:
        """A fresh channel id."""
        handle = self.next_channel
        self.next_channel += 1
        return handle


@attrs.define
class ShardExchange:
    """``ShardExchangeInfo``: the shard a device's data starts in (-1: none) and where in it."""

    source: int
    offset: int


@attrs.define
class DimExchange:
    """``DimExchangeInfo`` of one sharded dimension (``target`` is the reshape's combined output
    dimension sharding, None for other ops)."""

    shards: list[ShardExchange] = attrs.Factory(list)
    s_out: int = 0
    footprint: int = 0
    left_hops: int = 0
    right_hops: int = 0
    needs_comm: bool = False
    can_use_halo: bool = True
    target: DimensionShardingAttr | None = None


@attrs.define
class DataExchange:
    """``DataExchangeInfo``: the input shape padded to divisibility, the axes sharding its sharded
    dimensions (those go manual) and one ``DimExchange`` per sharded dimension."""

    divisible_shape: list[int]
    manual_axes: set[str] = attrs.Factory(set)
    dims: list[DimExchange] = attrs.Factory(list)

    @property
    def needs_comm(self) -> bool:
        return any(d.needs_comm for d in self.dims)

    @property
    def can_use_halo(self) -> bool:
        return all(d.can_use_halo for d in self.dims)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def trunc_div(a: int, b: int) -> int:
    """C++'s integer division (rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def padded_dim_size(size: int, count: int) -> int:
    """``getPaddedDimSize``: ``size`` rounded up to a multiple of ``count``."""
    return ceil_div(size, count) * count


# --- coordinates ------------------------------------------------------------------------------------

def mesh_coordinates(index: int, axes: Sequence[MeshAxisAttr]) -> list[int]:
    """``getMeshCoordinates``: a linear device index as one coordinate per mesh axis."""
    coords = [0] * len(axes)
    for j in range(len(axes) - 1, -1, -1):
        coords[j] = index % axes[j].size
        index //= axes[j].size
    return coords


def linear_index(coords: Sequence[int], axes: Sequence[MeshAxisAttr]) -> int:
    """``getLinearIndexFromCoordinates``."""
    index, multiplier = 0, 1
    for j in range(len(axes) - 1, -1, -1):
        index += coords[j] * multiplier
        multiplier *= axes[j].size
    return index


def mesh_axis_index(axes: Sequence[MeshAxisAttr], name: str) -> int:
    for i, axis in enumerate(axes):
        if axis.name == name:
            return i
    return -1


def _sub_axis_place(axis: AxisRefAttr, mesh: MeshAttr) -> tuple[int, int, int]:
    """The mesh axis position of ``axis``, its size and its stride within the full axis."""
    position = mesh_axis_index(mesh.axes, axis.name)
    full = mesh.axes[position].size
    size = axis_size(axis, mesh)
    return position, size, full // (axis.pre_size * size)


def shift_pairs(mesh: MeshAttr, axes: Sequence[AxisRefAttr], offset: int) -> list[int]:
    """``getDataShiftSourceTargetPairs``: flattened (source, target) device ids of a shift by
    ``offset`` shards along ``axes`` (major to minor, carrying from minor to major); devices whose
    target falls off either end are left out."""
    pairs: list[int] = []
    for i in range(mesh.total_size):
        coords = mesh_coordinates(i, mesh.axes)
        shifted = list(coords)
        carry = offset
        for axis in reversed(axes):
            if carry == 0:
                break
            position, size, stride = _sub_axis_place(axis, mesh)
            sub = (coords[position] // stride) % size
            moved = sub + carry
            carry = moved // size
            shifted[position] += (moved % size - sub) * stride
        if carry == 0:
            target = linear_index(shifted, mesh.axes)
            ids = mesh.device_ids
            pairs += [ids[i] if ids else i, ids[target] if ids else target]
    return pairs


def reversed_mesh(mesh: MeshAttr, axes: Sequence[AxisRefAttr]) -> MeshAttr:
    """``getMeshWithReversedAxes``: ``mesh`` with the device order along ``axes`` reversed."""
    total = mesh.total_size
    original = list(mesh.device_ids) if mesh.device_ids else list(range(total))
    new_ids = []
    for i in range(total):
        coords = mesh_coordinates(i, mesh.axes)
        flipped = list(coords)
        for axis in axes:
            position, size, stride = _sub_axis_place(axis, mesh)
            sub = (coords[position] // stride) % size
            flipped[position] += (size - 1 - 2 * sub) * stride
        new_ids.append(original[linear_index(flipped, mesh.axes)])
    return MeshAttr.get(mesh.axes, new_ids)


def linear_start_offset(shard: int, out_dims: Sequence[int], out_strides: Sequence[int],
                        out_sharding: TensorShardingAttr, out_shape: Sequence[int], mesh: MeshAttr) -> int:
    """``getLinearDataStartOffsetForShardIdx``: where, in the row-major order of the output
    dimensions ``out_dims``, output shard ``shard`` starts."""
    start, rest = 0, shard
    for dim, stride in zip(reversed(out_dims), reversed(out_strides), strict=True):
        count = sharded_size(out_sharding.dim_shardings[dim].axes, mesh)
        coord, rest = rest % count, rest // count
        start += coord * ceil_div(out_shape[dim], count) * stride
    return start


# --- shardings ----------------------------------------------------------------------------------------

def remove_axes(sharding: TensorShardingAttr, names: set[str]) -> TensorShardingAttr:
    """``removeAxesFromSharding``: every axis named in ``names`` left out of the dimensions."""
    dims = tuple(attrs.evolve(d, axes=tuple(a for a in d.axes if a.name not in names)) for d in sharding.dim_shardings)
    return TensorShardingAttr(sharding.mesh_or_ref, dims, sharding.replicated_axes, sharding.unreduced_axes)


def remove_axis_refs(sharding: TensorShardingAttr, refs: Sequence[AxisRefAttr], mesh: MeshAttr) -> TensorShardingAttr:
    """``removeAxisRefsFromSharding``: the (sub-)axes ``refs`` taken out of every dimension."""
    if not refs:
        return sharding
    dims = tuple(attrs.evolve(d, axes=tuple(axis_set_diff(d.axes, refs, mesh))) for d in sharding.dim_shardings)
    return TensorShardingAttr(sharding.mesh_or_ref, dims, sharding.replicated_axes, sharding.unreduced_axes)


def manual_shard_count(dim: DimensionShardingAttr, mesh: MeshAttr, manual: set[str]) -> int:
    """``getManualShardCount``: the shards of a dimension along its manual axes."""
    count = 1
    for axis in dim.axes:
        if axis.name in manual:
            count *= axis_size(axis, mesh)
    return count


def manual_axis_names(mesh: MeshAttr, manual: set[str]) -> tuple[str, ...]:
    """``getManualAxesAttrs``: the manual axes in mesh order."""
    return tuple(a.name for a in mesh.axes if a.name in manual)


# --- the exchanges ------------------------------------------------------------------------------------

def dim_exchange(count: int, s_in: int, s_out: int, footprint: int, pad_low: int, stride: int, base_dilation: int,
                 size: int) -> DimExchange:
    """``getDimExchangeInfo`` of one sharded dimension of ``count`` shards of input size ``size``."""
    info = DimExchange(s_out=s_out, footprint=footprint)
    needs_comm = False
    for t in range(count):
        start = trunc_div(t * s_out * stride - pad_low, base_dilation)
        limit = start + footprint - 1
        first, last = max(0, start), min(size - 1, limit)
        source = last_source = -1
        offset = 0
        if first <= last:
            source = first // s_in
            offset = start - source * s_in
            last_source = last // s_in
        if source == -1 or source != t or (last_source != -1 and last_source != t):
            needs_comm = True
        if source != -1 and source < t:
            info.left_hops = max(info.left_hops, t - source)
        if last_source != -1 and last_source > t:
            info.right_hops = max(info.right_hops, last_source - t)
        info.shards.append(ShardExchange(source, offset))
    info.needs_comm = needs_comm
    if info.left_hops + info.right_hops + 1 >= count and (info.left_hops > 1 or info.right_hops > 1):
        info.can_use_halo = False
    return info


def build_data_exchange(sharding: TensorShardingAttr, mesh: MeshAttr, shape: Sequence[int],
                        process_dim: Callable[[int, int, int], DimExchange]) -> DataExchange:
    """``buildDataExchangeInfo``: pad each sharded dimension to divisibility, make its axes manual,
    and ask ``process_dim(dim, s_in, count)`` for its exchange."""
    info = DataExchange(list(shape))
    for dim, dim_sharding in enumerate(sharding.dim_shardings):
        count = sharded_size(dim_sharding.axes, mesh)
        if count <= 1:
            continue
        info.manual_axes.update(a.name for a in dim_sharding.axes)
        info.divisible_shape[dim] = padded_dim_size(info.divisible_shape[dim], count)
        info.dims.append(process_dim(dim, info.divisible_shape[dim] // count, count))
    return info
