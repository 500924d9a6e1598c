"""Global tensors cut into the pieces the devices of a mesh hold, and pieces put back together.

Which device holds which slice is ``shardy_py.hlo.device_slices``'s answer (the sharding exported to
XLA's ``HloSharding``: sub-axes, ``device_ids`` and replicated axes as XLA lays them out).  A dimension
its shards do not divide is padded at the end, as ``sdy-pad-for-divisibility`` pads it: every piece has
the local shape ``ceil(size / shards)`` and a short or empty last shard is filled with zeros.

Unreduced axes (``unreduced={"x"}``) mean that the devices along them hold partial values whose
reduction (``sum`` unless the sharding says ``max``, ``min``, ...) is the tensor: ``split`` gives the whole
value to the devices at index 0 of those axes and the reduction's identity to the others (the same value
to all for ``max``/``min``/``and``/``or``); ``assemble`` reduces them back.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from shardy_py.hlo import device_slices
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr

#: Unreduced reductions whose partial values are all the whole value (idempotent ones).
_IDEMPOTENT = frozenset({"max", "min", "and", "or"})


def mesh_devices(mesh: MeshAttr) -> list[int]:
    """The device ids of ``mesh`` in mesh order (``device_ids``, or ``0 .. N-1``)."""
    if mesh.device_ids:
        return [int(d) for d in mesh.device_ids]
    total = 1
    for a in mesh.axes:
        total *= a.size
    return list(range(total))


def mesh_position(mesh: MeshAttr, device: int) -> dict[str, int] | None:
    """``device``'s index along each axis of ``mesh`` (None when the mesh does not have it)."""
    devices = mesh_devices(mesh)
    if device not in devices:
        return None
    flat = devices.index(device)
    sizes = [a.size for a in mesh.axes]
    index = np.unravel_index(flat, sizes) if sizes else ()
    return {a.name: int(i) for a, i in zip(mesh.axes, index, strict=True)}


def _unreduced_index(sharding: TensorShardingAttr, mesh: MeshAttr) -> np.ndarray | None:
    """Per device id, its index along the unreduced axes (None without unreduced axes)."""
    if not sharding.unreduced_axes:
        return None
    from shardy_py.passes.export.export_utils import shard_indices

    return shard_indices(mesh, sharding.unreduced_axes)


def _identity_like(piece: np.ndarray, reduction: str) -> np.ndarray:
    if reduction in _IDEMPOTENT:
        return piece
    if reduction in ("prod", "mul", "multiply"):
        return np.ones_like(piece)
    return np.zeros_like(piece)


def _padded(piece: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    piece = np.asarray(piece)
    if piece.shape == shape:
        return piece
    out = np.zeros(shape, dtype=piece.dtype)
    out[tuple(slice(0, s) for s in piece.shape)] = piece
    return out


def split(array: np.ndarray, sharding: TensorShardingAttr, mesh: MeshAttr) -> dict[int, np.ndarray]:
    """Each device's piece of ``array`` under ``sharding`` on ``mesh``: device id -> its slice, padded up
    to the local shape (see the module docstring for unreduced axes)."""
    slices = device_slices(array.shape, sharding, mesh)
    unreduced = _unreduced_index(sharding, mesh)
    out: dict[int, np.ndarray] = {}
    for k, device in enumerate(slices.devices.tolist()):
        index = tuple(slice(int(a), int(b)) for a, b in zip(slices.starts[k], slices.limits[k], strict=True))
        piece = _padded(array[index], slices.local_shape)
        if unreduced is not None and device < unreduced.size and unreduced[device] != 0:
            piece = _identity_like(piece, sharding.reduction)
        out[device] = piece
    return out


def _reduce(parts: list[np.ndarray], reduction: str) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    if parts[0].dtype == np.bool_:
        fn = np.logical_and if reduction in ("and", "min", "prod", "mul", "multiply") else np.logical_or
    else:
        fn = {"max": np.maximum, "min": np.minimum, "prod": np.multiply, "mul": np.multiply,
              "multiply": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or}.get(reduction, np.add)
    with np.errstate(all="ignore"):
        return functools.reduce(fn, parts).astype(parts[0].dtype)


class Assembled:
    """A tensor put together from the devices' pieces: ``value``, and ``replica_difference``, the largest
    difference between devices that hold the same slice (0 when they all agree; NaN against a number
    counts as infinite)."""

    def __init__(self, value: np.ndarray, replica_difference: float):
        self.value = value
        self.replica_difference = replica_difference


def assemble(pieces: Mapping[int, np.ndarray], shape: Sequence[int], sharding: TensorShardingAttr,
             mesh: MeshAttr) -> Assembled:
    """The global tensor of ``shape`` whose pieces the devices hold (``pieces``: device id -> local array),
    padding dropped and unreduced partial values reduced."""
    from shardy_py.interpreter.simulate_compare import largest_difference

    slices = device_slices(tuple(shape), sharding, mesh)
    unreduced = _unreduced_index(sharding, mesh)
    first = next(iter(pieces.values()))
    out = np.zeros(tuple(shape), dtype=first.dtype)
    tiles: dict[tuple, dict[int, list[int]]] = {}
    for k, device in enumerate(slices.devices.tolist()):
        if device not in pieces:
            continue
        key = (tuple(slices.starts[k].tolist()), tuple(slices.limits[k].tolist()))
        coord = int(unreduced[device]) if unreduced is not None and device < unreduced.size else 0
        tiles.setdefault(key, {}).setdefault(coord, []).append(device)
    spread = 0.0
    for (starts, limits), by_coord in tiles.items():
        unpad = tuple(slice(0, b - a) for a, b in zip(starts, limits, strict=True))
        parts = []
        for devices in by_coord.values():
            part = np.asarray(pieces[devices[0]][unpad])
            for other in devices[1:]:
                spread = max(spread, largest_difference(pieces[other][unpad], part))
            parts.append(part)
        out[tuple(slice(a, b) for a, b in zip(starts, limits, strict=True))] = _reduce(parts, sharding.reduction)
    return Assembled(out, spread)
