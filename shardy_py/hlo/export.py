"""Shardy -> GSPMD: ``export_sharding`` turns a ``TensorShardingAttr`` into the
``HloSharding`` XLA's sdy export (``convertToHloSharding``) produces.

The idea, on mesh ``<["x"=2, "y"=4]>`` and sharding ``[{"y"}, {"x"}]``:
the devices form an iota of shape ``[2, 4]`` (one reshape dim per mesh axis or
sub-axis, in mesh order); the tile assignment transposes that iota so that the
axes come in sharding order (dim shardings, then manual, unreduced, and finally
the replicated rest) and reshapes it to the tile dims::

    tile dims [4, 2] = arange(8).reshape([2, 4]).transpose([1, 0])  ->  {devices=[4,2]<=[2,4]T(1,0)}
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from shardy_py.hlo.errors import HloShardingError
from shardy_py.hlo.sharding import MANUAL, REPLICATED, UNREDUCED, HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment
from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, SubAxisInfoAttr, TensorShardingAttr


def resolve_mesh(sharding: TensorShardingAttr, mesh: MeshAttr | None) -> MeshAttr:
    """The mesh of ``sharding``: ``mesh`` when given, else the sharding's inline mesh."""
    if mesh is not None:
        return mesh
    if isinstance(sharding.mesh_or_ref, MeshAttr):
        return sharding.mesh_or_ref
    raise HloShardingError(f"sharding refers to mesh @{sharding.mesh_or_ref}: pass the MeshAttr as `mesh`")


def _key(ref: AxisRefAttr, mesh: MeshAttr) -> tuple[str, int, int]:
    """A hashable (name, pre_size, size) for an axis ref; full axes have pre_size 1 and the axis size."""
    size = mesh.axis_size(ref.name)
    if size is None:
        raise HloShardingError(f"unknown axis {ref.name!r}: the mesh has axes {list(mesh.axis_names)}")
    if ref.sub_axis_info is None:
        return ref.name, 1, size
    info = ref.sub_axis_info
    if info.pre_size < 1 or info.size < 1 or size % (info.pre_size * info.size):
        raise HloShardingError(f"sub-axis {ref.name!r}:({info.pre_size}){info.size} does not fit axis of size {size}")
    return ref.name, info.pre_size, info.size


def ordered_axis_refs(sharding: TensorShardingAttr, mesh: MeshAttr) -> list[AxisRefAttr]:
    """Every mesh axis, split into the sub-axes the sharding's dims and unreduced axes
    use, in mesh order (Shardy's ``getOrderedAxisRefs``).

    Mesh ``<["x"=2, "y"=16, "z"=4]>`` with axes ``{"x"}, {"y":(2)2}`` gives
    ``"x", "y":(1)2, "y":(2)2, "y":(4)4, "z"``.
    """
    cuts: dict[str, set[int]] = {a.name: {1, a.size} for a in mesh.axes}
    refs = [r for d in sharding.dim_shardings for r in d.axes] + list(sharding.unreduced_axes)
    for r in refs:
        if r.sub_axis_info is not None:
            name, pre, size = _key(r, mesh)
            cuts[name].update((pre, pre * size))
    out: list[AxisRefAttr] = []
    for axis in mesh.axes:
        points = sorted(cuts[axis.name])
        if len(points) <= 2:  # no sub-axis cuts (a size-1 axis has the single point 1)
            out.append(AxisRefAttr(axis.name))
            continue
        for lo, hi in zip(points, points[1:], strict=False):
            out.append(AxisRefAttr(axis.name, SubAxisInfoAttr(lo, hi // lo)))
    return out


def export_sharding(sharding: TensorShardingAttr, mesh: MeshAttr | None = None, *,
                    manual_axes: Sequence[str] = ()) -> HloSharding:
    """The ``HloSharding`` XLA's sdy export gives for ``sharding`` on ``mesh``.

    ``manual_axes`` are the manual axes of the enclosing ``sdy.manual_computation``
    (they become a ``manual`` subgroup).  Open dims and priorities do not matter
    to GSPMD; explicit mesh ``device_ids`` give a V1 (device list) sharding.
    """
    mesh = resolve_mesh(sharding, mesh)
    if not mesh.axes:
        return HloSharding.maximal(mesh.device_ids[0]) if mesh.device_ids else HloSharding.replicate()
    manual_axes = tuple(manual_axes)
    for name in manual_axes:
        if mesh.axis_size(name) is None:
            raise HloShardingError(f"unknown manual axis {name!r}: the mesh has axes {list(mesh.axis_names)}")
    if len(manual_axes) == len(mesh.axes):
        return HloSharding.manual()
    if sharding.unreduced_axes and manual_axes:
        raise HloShardingError("XLA cannot export a sharding with both unreduced and manual axes: "
                               f"{sharding} inside manual axes {list(manual_axes)}")

    tile_dims = [1] * len(sharding.dim_shardings)
    position: dict[tuple[str, int, int], int] = {}
    types: list[str] = []

    def place(ref: AxisRefAttr) -> int:
        key = _key(ref, mesh)
        if key in position:
            raise HloShardingError(f"axis {ref} is used twice in {sharding}")
        position[key] = len(position)
        return key[2]

    for i, dim in enumerate(sharding.dim_shardings):
        for ref in dim.axes:
            tile_dims[i] *= place(ref)
    if manual_axes:
        types.append(MANUAL)
        tile_dims.append(1)
        for name in manual_axes:
            tile_dims[-1] *= place(AxisRefAttr(name))
    if sharding.unreduced_axes:
        types.append(UNREDUCED)
        tile_dims.append(1)
        for ref in sharding.unreduced_axes:
            tile_dims[-1] *= place(ref)

    ordered = ordered_axis_refs(sharding, mesh)
    reshape_dims = [_key(r, mesh)[2] for r in ordered]
    perm = [-1] * len(ordered)
    replicated_pos = len(position)
    replicated_size = 1
    for index, ref in enumerate(ordered):
        pos = position.pop(_key(ref, mesh), None)
        if pos is None:
            perm[replicated_pos] = index
            replicated_pos += 1
            replicated_size *= reshape_dims[index]
        else:
            perm[pos] = index
    if position:
        leftover = ", ".join(f'"{n}":({p}){s}' for n, p, s in position)
        raise HloShardingError(f"axes {leftover} of {sharding} overlap other axes of the sharding")
    if replicated_size > 1:
        tile_dims.append(replicated_size)
        types.append(REPLICATED)

    if mesh.device_ids:
        ids = np.asarray(mesh.device_ids, dtype=np.int64)
        if ids.size != math.prod(reshape_dims):
            raise HloShardingError(f"mesh has {ids.size} device ids for {math.prod(reshape_dims)} devices")
        devices = ids.reshape(reshape_dims).transpose(perm).reshape(tile_dims)
        out = HloSharding.subgroup(TileAssignment.from_array(devices), types)
    else:
        out = HloSharding.subgroup(TileAssignment.iota(tile_dims, reshape_dims, perm), types)
    if out.is_tiled and out.num_devices == 1:
        # One device in total: XLA's HLO translation turns ``{devices=[1,1]<=[1]}`` into
        # ``{replicated}`` (and leaves a rank-0 value without any sharding).
        return HloSharding.replicate()
    return out
