"""Device orders for GSPMD shardings whose device lists are not an iota: the frame a mesh's
``device_ids`` come from.

A V1 tile assignment is a device array.  Number every device by its position in a chosen
*frame* (an order of all N devices) and the array becomes an array of positions; when that
array is an iota in disguise (``TileAssignment.as_iota``), the sharding is a product of mesh
axes over a mesh whose ``device_ids`` are the frame.

The frame is found by sorting the devices by the tile each sharding puts them on
(``lex_frame``): the first sharding's tile index, then the second's, ..., then the device id.
When all the shardings come from one mesh (axes ``a, b, ...`` in some device order), each
tile index is a mixed-radix number of some mesh digits, so sorting by them orders the devices
by the digits in order of first use, with the digits no sharding splits (replicated everywhere)
last: a mesh order in which every sharding is a transposed iota.  All numpy, O(N log N) at most.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardy_py.hlo.errors import UnsupportedShardingError
from shardy_py.hlo.sharding import REPLICATED, HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment


def replicated_group_size(h: HloSharding) -> int:
    """The size of ``h``'s trailing replicated tile dim (1 when it has none)."""
    types = h.subgroup_dims
    return h.assignment.dims[-1] if types and types[-1] == REPLICATED else 1


def positions(devices: np.ndarray, what: str) -> np.ndarray:
    """``out[device] = index of device in devices`` (flattened), checking the devices are a
    permutation of ``0..N-1`` (what a Shardy mesh's ``device_ids`` must be)."""
    flat = np.asarray(devices, dtype=np.int64).reshape(-1)
    n = flat.size
    if n and (int(flat.min()) < 0 or int(flat.max()) >= n):
        raise UnsupportedShardingError(
            f"cannot import {what}: its {n} devices are not 0..{n - 1} (a Shardy mesh numbers its devices "
            f"0..N-1)")
    out = np.full(n, -1, dtype=np.int64)
    out[flat] = np.arange(n, dtype=np.int64)
    if n and int(out.min()) < 0:
        missing = int(np.flatnonzero(out < 0)[0])
        raise UnsupportedShardingError(f"cannot import {what}: a device appears twice (device {missing} is missing)")
    return out


def tile_keys(h: HloSharding) -> np.ndarray:
    """``out[device]`` = the flat index of the tile (data and non-replicated subgroup dims) that
    ``h`` puts the device on; devices in one replication group share a key."""
    flat = h.tile_assignment.reshape(-1)
    group = replicated_group_size(h)
    out = np.empty(flat.size, dtype=np.int64)
    out[flat] = np.arange(flat.size, dtype=np.int64) // group
    return out


def lex_frame(shardings: Sequence[HloSharding]) -> np.ndarray:
    """The devices sorted by (tile of the first sharding, of the second, ..., device id); see the
    module docstring.  The shardings are tiled over the same N devices ``0..N-1``."""
    first = shardings[0]
    distinct = [first] + [h for h in shardings[1:] if h != first]
    if len(distinct) == 1:
        # One sharding: its own device array, each replication group sorted by device id.
        group = replicated_group_size(first)
        flat = first.tile_assignment.reshape(-1, group)
        return np.sort(flat, axis=1).reshape(-1) if group > 1 else flat.reshape(-1)
    keys = [tile_keys(h) for h in distinct]
    n = keys[0].size
    return np.lexsort([np.arange(n, dtype=np.int64), *reversed(keys)])


def relabel(h: HloSharding, position: np.ndarray) -> HloSharding:
    """``h`` with every device replaced by its position in a frame (``position[device]``); each
    replication group sorted, as the order inside a group carries no meaning."""
    arr = position[h.tile_assignment]
    group = replicated_group_size(h)
    if group > 1:
        arr = np.sort(arr.reshape(-1, group), axis=1).reshape(arr.shape)
    return HloSharding("tiled", TileAssignment.from_array(arr), replicate_on_last_tile_dim=h.replicate_on_last_tile_dim,
                       subgroup_types=h.subgroup_types)


def check_devices(h: HloSharding, what: str) -> None:
    """Raise a clear error unless ``h``'s devices are a permutation of ``0..N-1``."""
    if not h.assignment.is_iota:
        positions(h.tile_assignment, what)
