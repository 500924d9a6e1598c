"""Per-device shard shapes and index ranges, with XLA's padding for dims that do not divide.

XLA gives every shard of a dim of size ``d`` tiled ``t`` ways the same padded size
``ceil(d / t)``; shard ``i`` covers ``[min(i * s, d), min((i + 1) * s, d))`` of the global
tensor (``TileOffsetForDevice`` / ``TileLimitForDevice``), so trailing shards may be
short or even empty.  Example: ``d = 10``, ``t = 4``: size 3, ranges 0:3, 3:6, 6:9, 9:10.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from shardy_py.hlo.errors import HloShardingError
from shardy_py.hlo.export import export_sharding, resolve_mesh
from shardy_py.hlo.sharding import HloSharding
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr


class DeviceSlices(NamedTuple):
    """Row ``k`` describes device ``devices[k]`` (ascending): its shard is
    ``global[starts[k, 0]:limits[k, 0], ...]``, padded up to ``local_shape``."""

    devices: np.ndarray  # (n,) int64
    starts: np.ndarray  # (n, rank) int64
    limits: np.ndarray  # (n, rank) int64
    local_shape: tuple[int, ...]

    def index(self, device: int) -> tuple[slice, ...]:
        """The numpy index of ``device``'s shard: ``global_array[slices.index(d)]``."""
        k = int(np.searchsorted(self.devices, device))
        if k >= self.devices.size or self.devices[k] != device:
            raise HloShardingError(f"device {device} holds no shard")
        return tuple(slice(int(a), int(b)) for a, b in zip(self.starts[k], self.limits[k], strict=True))

    @property
    def padding(self) -> np.ndarray:
        """``(n, rank)``: padding elements each device adds at the end of each dim."""
        return np.asarray(self.local_shape, dtype=np.int64) - (self.limits - self.starts)


def _as_hlo(sharding: TensorShardingAttr | HloSharding, mesh: MeshAttr | None) -> HloSharding:
    if isinstance(sharding, HloSharding):
        return sharding
    return export_sharding(sharding, mesh)


def _check_rank(global_shape: Sequence[int], h: HloSharding) -> tuple[int, ...]:
    shape = tuple(int(d) for d in global_shape)
    if h.is_tiled and len(shape) != h.tiled_data_rank:
        raise HloShardingError(f"shape {list(shape)} has rank {len(shape)}, {h} tiles {h.tiled_data_rank} dims")
    if any(d < 0 for d in shape):
        raise HloShardingError(f"shape {list(shape)} must be static and non-negative")
    return shape


def local_shape(global_shape: Sequence[int], sharding: TensorShardingAttr | HloSharding,
                mesh: MeshAttr | None = None) -> tuple[int, ...]:
    """The (padded) shape of one shard: ``ceil(dim / tiles)`` per dim.

    ``local_shape((10, 8), <@m, [{"x"}, {}]>, mesh<["x"=4]>) == (3, 8)``.
    """
    h = _as_hlo(sharding, mesh)
    shape = _check_rank(global_shape, h)
    if not h.is_tiled:
        return shape
    return tuple(-(-d // t) for d, t in zip(shape, h.tile_dims, strict=True))


def device_slices(global_shape: Sequence[int], sharding: TensorShardingAttr | HloSharding,
                  mesh: MeshAttr | None = None, *, num_devices: int | None = None) -> DeviceSlices:
    """Where every device's shard sits in the global tensor (vectorised over devices).

    Replicated, manual and unreduced shardings give every device the whole tensor: the
    devices are the mesh's (or ``range(num_devices)`` for a bare ``HloSharding``).
    """
    h = _as_hlo(sharding, mesh)
    shape = _check_rank(global_shape, h)
    rank = len(shape)
    if h.is_maximal:
        devices = np.array([h.device], dtype=np.int64)
    elif h.is_tiled:
        flat = h.tile_assignment.reshape(-1)
        order = np.argsort(flat, kind="stable")
        devices = flat[order]
        coords = np.stack(np.unravel_index(order, h.assignment.dims), axis=1)[:, :rank].astype(np.int64)
        size = np.array([-(-d // t) for d, t in zip(shape, h.tile_dims, strict=True)], dtype=np.int64)
        dims = np.array(shape, dtype=np.int64)
        starts = np.minimum(coords * size, dims)
        limits = np.minimum((coords + 1) * size, dims)
        return DeviceSlices(devices, starts, limits, tuple(int(s) for s in size))
    elif h.is_tuple:
        raise HloShardingError("device_slices takes one tensor's sharding, not a tuple")
    else:
        if isinstance(sharding, TensorShardingAttr):
            m = resolve_mesh(sharding, mesh)
            ids = np.asarray(m.device_ids, dtype=np.int64) if m.device_ids else np.arange(m.total_size)
            devices = np.sort(ids)
        elif num_devices is not None:
            devices = np.arange(num_devices, dtype=np.int64)
        else:
            raise HloShardingError(f"{h} does not say how many devices there are: pass num_devices")
    n = devices.size
    starts = np.zeros((n, rank), dtype=np.int64)
    limits = np.broadcast_to(np.array(shape, dtype=np.int64), (n, rank)).copy()
    return DeviceSlices(devices.astype(np.int64), starts, limits, shape)
