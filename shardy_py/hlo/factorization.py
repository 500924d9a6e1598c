"""Mesh axes of one iota tile assignment: XLA's ``findMeshAxesAndIds`` factorisation.

``analyze_tile_assignment`` splits an iota tile assignment into *sub-dims*: the shortest
common factorisation of the tile dims and the transposed reshape dims.
``{devices=[6,35]<=[7,10,3]T(2,1,0)}`` factorises into ``[3, 2, 5, 7]``; sorted by reshape
dim (= device order) the local mesh is ``[7, 2, 5, 3]``.  Several shardings share a mesh when
their local meshes have a common factorisation (``shortest_common_factorization``).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from shardy_py.hlo.tile_assignment import TileAssignment


class SubDim(NamedTuple):
    """One factor of a tile dim: which tile dim, its index minor-to-major inside it,
    the reshape (device-order) dim it comes from, and its size."""

    tile_dim: int
    tile_sub_dim: int
    reshape_dim: int
    size: int


def shortest_common_factorization(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The shortest sequence whose prefix products hit every prefix product of ``a`` and of ``b``
    (1s ignored); ``[]`` when there is none.

    ``f([4, 8], [8, 4]) == [4, 2, 4]``, ``f([6, 1, 4], [2, 6, 2]) == [2, 3, 2, 2]``, ``f([2, 3], [3, 2]) == []``.
    """
    def skip_ones(xs, i):
        while i < len(xs) and xs[i] == 1:
            i += 1
        return i

    out: list[int] = []
    i, j = skip_ones(a, 0), skip_ones(b, 0)
    next1 = next2 = acc = 1
    while i < len(a) or j < len(b):
        if i < len(a) and next1 == acc:
            next1 *= a[i]
            i += 1
        if j < len(b) and next2 == acc:
            next2 *= b[j]
            j += 1
        small, large = sorted((next1 // acc, next2 // acc))
        if small == 1 or large % small:
            return []
        out.append(small)
        acc *= small
        i, j = skip_ones(a, i), skip_ones(b, j)
    return out


def analyze_tile_assignment(ta: TileAssignment) -> tuple[list[SubDim], list[int]] | None:
    """``(sub_dims, local_mesh)`` of an assignment, or None when it is not a product of mesh axes."""
    iota = ta.as_iota()
    if iota is None:
        return None
    device_shape = [iota.reshape_dims[p] for p in iota.perm]
    sizes = shortest_common_factorization(iota.dims, device_shape)
    if not sizes:
        return None
    sub_dims: list[SubDim] = []
    tile_dim = iota.ndim - 1
    perm_index = len(iota.perm) - 1
    acc_tile = acc_device = 1
    sub = 0
    for size in reversed(sizes):
        while iota.dims[tile_dim] == 1:
            tile_dim -= 1
        sub_dims.append(SubDim(tile_dim, sub, iota.perm[perm_index], size))
        sub += 1
        acc_tile *= size
        acc_device *= size
        if iota.dims[tile_dim] == acc_tile:
            tile_dim -= 1
            acc_tile = 1
            sub = 0
        if device_shape[perm_index] == acc_device:
            acc_device = 1
            perm_index -= 1
    sub_dims.sort(key=lambda s: (s.reshape_dim, s.tile_dim))
    return sub_dims, [s.size for s in sub_dims]


def common_mesh_sizes(local_meshes: Sequence[Sequence[int]]) -> list[int] | None:
    """The shortest factorisation common to every local mesh (axis sizes in device order), or None.

    XLA's rule: every local axis must be a product of consecutive mesh axes.  ``coarse_mesh_sizes``
    is the fallback where XLA has none."""
    axes: list[int] = []
    for local in local_meshes:
        if not axes:
            axes = list(local)
            continue
        axes = shortest_common_factorization(local, axes)
        if not axes:
            return None
    return axes


def _prefix_products(sizes: Sequence[int]) -> set[int]:
    out, acc = set(), 1
    for size in sizes:
        acc *= size
        out.add(acc)
    return out


def coarse_mesh_sizes(local_meshes: Sequence[Sequence[int]]) -> list[int] | None:
    """Mesh axes at the boundaries every local mesh shares (its prefix products, major first), or
    None when the local meshes do not cover the same number of devices.

    Where ``common_mesh_sizes`` has none (``[2, 3]`` and ``[3, 2]``), the local axes between two
    shared boundaries become sub-axes of one mesh axis: ``[2, 3]`` and ``[3, 2]`` share only 6, so
    the mesh is ``[6]``, the first local mesh being sub-axes ``(1)2, (2)3`` of it, the second
    ``(1)3, (3)2``.  Every local axis lies inside one mesh axis and its pre-size times its size
    divides that axis (both are prefix products of one chain of divisors), so each is a valid
    sub-axis."""
    if not local_meshes:
        return []
    totals = {math.prod(local) for local in local_meshes}
    if len(totals) != 1:
        return None
    shared = set.intersection(*(_prefix_products(local) for local in local_meshes))
    out, previous = [], 1
    for boundary in sorted(shared):
        if boundary > previous:
            out.append(boundary // previous)
            previous = boundary
    return out
