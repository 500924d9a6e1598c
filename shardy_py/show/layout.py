"""Where a sharded tensor's pieces live: the tile grid, each tile's devices and extent.

``compute_layout`` turns a ``TensorShardingAttr`` on a mesh and a tensor shape into a
``Layout``.  The devices come from the GSPMD tile assignment XLA's export gives
(``shardy_py.hlo.export_sharding``), so sub-axes, explicit ``device_ids``, manual and
unreduced axes are all laid out exactly as XLA lays them out; shard sizes come from
``shardy_py.local_shape`` (XLA's padding: every shard of a dim of size ``d`` in ``t`` tiles
holds ``ceil(d / t)`` elements, the trailing ones partly or wholly padding).

A dynamic (``?``) or unknown dim cannot be measured: its tiles get equal extents and its
local size is ``None``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from shardy_py.hlo import HloShardingError, export_sharding, local_shape
from shardy_py.hlo.export import ordered_axis_refs
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.types import DYNAMIC


class LayoutError(ValueError):
    """The sharding cannot be laid out on this mesh and shape (the message says why)."""


@attrs.frozen
class DimTiles:
    """How one tensor dimension is cut: ``count`` tiles; ``bounds[i]`` is tile ``i``'s
    ``(start, limit)`` in the global tensor.  ``size`` and ``shard`` (the padded per-device
    size) are None for a dynamic or unknown dim, whose bounds are then ``(i, i + 1)``."""

    size: int | None
    count: int
    shard: int | None
    bounds: tuple[tuple[int, int], ...]

    @property
    def extents(self) -> tuple[int, ...]:
        """Real (unpadded) elements of each tile; what a picture's cell sizes follow."""
        return tuple(b - a for a, b in self.bounds)


@attrs.frozen
class Layout:
    """A sharded tensor laid out over devices.

    ``cells`` maps every tile index (one entry per dim, row-major order) to the sorted ids
    of the devices holding that tile; several devices mean the tile is replicated (or,
    with unreduced axes, held as partial values).  ``every_device`` is set for a sharding
    on an empty mesh, which replicates over however many devices there are (then the one
    cell's tuple is empty).
    """

    sharding: TensorShardingAttr
    mesh: MeshAttr
    dims: tuple[DimTiles, ...]
    cells: dict[tuple[int, ...], tuple[int, ...]] = attrs.field(eq=False)
    every_device: bool = False
    manual_axes: tuple[str, ...] = ()

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The global shape (None for dynamic or unknown dims)."""
        return tuple(d.size for d in self.dims)

    @property
    def tile_counts(self) -> tuple[int, ...]:
        return tuple(d.count for d in self.dims)

    @property
    def local_shape(self) -> tuple[int | None, ...]:
        """The padded shape every device holds (None where the global size is not known)."""
        return tuple(d.shard for d in self.dims)

    @property
    def devices(self) -> tuple[int, ...]:
        """Every device id holding part of the tensor, ascending."""
        return tuple(sorted({d for ids in self.cells.values() for d in ids}))

    @property
    def copies(self) -> int:
        """Devices per tile (1 when nothing is replicated, unreduced or manual)."""
        return max((len(ids) for ids in self.cells.values()), default=1)

    def axes_not_sharding_dims(self) -> tuple[list[str], list[str]]:
        """``(replicated, unreduced)``: texts of the (sub-)axes of size > 1 that do not cut a
        dimension, in mesh order; the replicated ones exclude unreduced and manual axes."""
        if not self.mesh.axes:
            return [], []
        used = {str(r) for d in self.sharding.dim_shardings for r in d.axes}
        unreduced = [str(r) for r in self.sharding.unreduced_axes]
        skip = used | set(unreduced) | {f'"{a}"' for a in self.manual_axes}
        replicated = [str(r) for r in ordered_axis_refs(self.sharding, self.mesh)
                      if str(r) not in skip and (r.size(self.mesh) or 1) > 1]
        return replicated, unreduced


def _static_shape(shape: Sequence[int | None], counts: Sequence[int]) -> tuple[int, ...]:
    """``shape`` with dynamic/unknown dims replaced by their tile counts (for ``local_shape``)."""
    return tuple(c if s is None else s for s, c in zip(shape, counts, strict=True))


def _dim_tiles(size: int | None, count: int, shard: int) -> DimTiles:
    if size is None:
        return DimTiles(None, count, None, tuple((i, i + 1) for i in range(count)))
    bounds = tuple((min(i * shard, size), min((i + 1) * shard, size)) for i in range(count))
    return DimTiles(size, count, shard, bounds)


def _mesh_devices(mesh: MeshAttr) -> tuple[int, ...]:
    ids = mesh.device_ids if mesh.device_ids else range(mesh.total_size)
    return tuple(sorted(int(i) for i in ids))


def _placement_sharding(sharding: TensorShardingAttr, manual_axes: Sequence[str]) -> TensorShardingAttr:
    """The sharding whose GSPMD tile assignment places ``sharding``'s tiles: itself, except inside
    manual axes, where XLA has no form for unreduced axes (they place data as replicated axes do:
    every device of the group holds a partial value of the same tile; axes a sharding leaves
    out are replicated)."""
    if not manual_axes or not sharding.unreduced_axes:
        return sharding
    return attrs.evolve(sharding, unreduced_axes=())


def compute_layout(sharding: TensorShardingAttr, mesh: MeshAttr, shape: Sequence[int | None] | None,
                   manual_axes: Sequence[str] = ()) -> Layout:
    """Lay ``sharding`` out on ``mesh`` for a tensor of ``shape``.

    A sharding on a maximal mesh (``<[], device_ids=[N]>``) has no dim shardings and fits
    a tensor of any rank.
    ``shape`` entries may be ``DYNAMIC`` (-1) or None for sizes not known; ``shape=None``
    means the whole shape is unknown (only the sharding's rank is).  ``manual_axes`` are
    the manual axes of enclosing ``sdy.manual_computation`` ops.  Raises ``LayoutError``
    with a readable message when the sharding does not fit the mesh or the shape.
    """
    rank = sharding.rank
    if mesh.is_maximal and rank == 0 and shape is not None:
        rank = len(shape)  # a sharding on a maximal mesh has no dim shardings, whatever the tensor's rank
    if shape is None:
        dims_in: tuple[int | None, ...] = (None,) * rank
    else:
        dims_in = tuple(None if (s is None or s == DYNAMIC) else int(s) for s in shape)
        if len(dims_in) != rank:
            raise LayoutError(f"the sharding has {rank} dimension shardings but the tensor has rank {len(dims_in)}")
        if any(s < 0 for s in dims_in if s is not None):
            raise LayoutError(f"tensor shape {list(shape)} has a negative size")
    # Manual axes of an enclosing manual computation on another mesh do not apply to this one.
    names = {a.name for a in mesh.axes}
    manual_axes = tuple(a for a in manual_axes if a in names)
    try:
        h = export_sharding(_placement_sharding(sharding, manual_axes), mesh, manual_axes=manual_axes)
        counts = h.tile_dims if h.is_tiled else (1,) * rank
        padded = local_shape(_static_shape(dims_in, counts), h)
    except HloShardingError as e:
        raise LayoutError(str(e)) from None
    dims = tuple(_dim_tiles(s, c, p) for s, c, p in zip(dims_in, counts, padded, strict=True))
    every_device = False
    if h.is_tiled:
        groups = np.sort(h.tile_assignment.reshape(math.prod(counts), -1), axis=1)
        cells = {index: tuple(int(d) for d in groups[k]) for k, index in enumerate(np.ndindex(*counts))}
    elif h.is_maximal:
        cells = {(0,) * rank: (int(h.device),)}
    elif mesh.is_empty:
        every_device = True
        cells = {(0,) * rank: ()}
    else:  # replicated, manual or unreduced on every axis: each device holds the whole tensor
        cells = {(0,) * rank: _mesh_devices(mesh)}
    return Layout(sharding, mesh, dims, cells, every_device, manual_axes)
