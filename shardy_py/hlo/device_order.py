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

Shardings that are not views of one mesh in that order may still share a mesh in another
(``{devices=[6]1,3,5,0,2,4}`` with ``{devices=[2,3]<=[6] last_tile_dim_replicate}`` share a
6-device axis in the order ``1,5,2,3,0,4``).  ``candidate_frames`` lists the other orders worth
trying: a shared mesh's order is always one sharding's device array split into prime factors
and transposed, so for a batch with a sharding that tiles every device (no replication group,
whose inner order would be free) the list is complete up to ``MAX_CANDIDATE_FRAMES``.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np

from shardy_py.hlo.errors import UnsupportedShardingError
from shardy_py.hlo.sharding import REPLICATED, HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment, prime_factors


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


#: At most this many device orders are tried by ``candidate_frames`` (every order for meshes of up
#: to 6 prime factors, e.g. 64 devices; a partial search beyond).
MAX_CANDIDATE_FRAMES = 720


def _dim_splits(shape: Sequence[int]) -> Iterator[list[int]]:
    """Each way of writing every dim of ``shape`` as an ordered product of its prime factors,
    flattened: the shapes the device array can be reshaped to without crossing dims."""
    per_dim = [sorted(set(itertools.permutations(prime_factors(d)))) for d in shape if d > 1]
    for choice in itertools.product(*per_dim):
        yield [p for primes in choice for p in primes]


def candidate_frames(shardings: Sequence[HloSharding], limit: int = MAX_CANDIDATE_FRAMES) -> Iterator[np.ndarray]:
    """Device orders in which ``shardings`` (tiled, over the same devices ``0..N-1``) might all be
    products of mesh axes: the device array of each sharding without a replication group (those
    with one, each group ordered as ``lex_frame`` orders it), split into prime factors and
    transposed every way; each order once, at most ``limit`` of them."""
    order = lex_frame(shardings)
    rank_in_lex = np.empty(order.size, dtype=np.int64)
    rank_in_lex[order] = np.arange(order.size, dtype=np.int64)
    sources = sorted(dict.fromkeys(shardings), key=replicated_group_size)
    seen: set[bytes] = set()
    for h in sources:
        group = replicated_group_size(h)
        devices = h.tile_assignment.reshape(-1, group)
        if group > 1:
            devices = np.take_along_axis(devices, np.argsort(rank_in_lex[devices], axis=1), axis=1)
        devices = devices.reshape(h.tile_assignment.shape)
        for split in _dim_splits(devices.shape):
            factored = devices.reshape(split)
            for perm in itertools.permutations(range(len(split))):
                frame = np.ascontiguousarray(factored.transpose(perm)).reshape(-1)
                key = frame.tobytes()
                if key in seen:
                    continue
                if len(seen) >= limit:
                    return
                seen.add(key)
                yield frame
