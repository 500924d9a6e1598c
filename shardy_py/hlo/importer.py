"""GSPMD -> Shardy: infer a mesh from HloShardings and rewrite them as ``TensorShardingAttr``.

Follows XLA's stablehlo import (``convertToSdySharding`` and ``findMeshAxesAndIds``):

1. ``analyze_tile_assignment`` splits an iota tile assignment into *sub-dims*: the
   shortest common factorisation of the tile dims and the transposed reshape dims.
   ``{devices=[6,35]<=[7,10,3]T(2,1,0)}`` factorises into ``[3, 2, 5, 7]``; sorted by
   reshape dim (= device order) the local mesh is ``[7, 2, 5, 3]``.
2. The mesh of several shardings is the common factorisation of their local meshes.
3. Each local axis maps onto consecutive global axes or sub-axes (``gcd`` walk), and
   each tile dim lists its sub-dims major to minor.

Where XLA aborts the process, this module raises ``UnsupportedShardingError``:
V1 device lists are first tried as an iota in disguise (``TileAssignment.as_iota``);
what is still not a product of mesh axes (``[2,3]<=[2,3]T(1,0)``) is refused with a message.
One deliberate difference: XLA picks the subgroup type of a sub-dim by its sub-dim
index (a slip that mislabels a subgroup made of two axes); here it is the subgroup dim's type.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import attrs

from shardy_py.hlo.errors import HloShardingError, UnsupportedShardingError
from shardy_py.hlo.sharding import REPLICATED, UNREDUCED, HloSharding
from shardy_py.hlo.tile_assignment import TileAssignment
from shardy_py.ir.attrs import (
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    MeshAxisAttr,
    SubAxisInfoAttr,
    TensorShardingAttr,
)

#: XLA's name for the mesh the import creates.
GLOBAL_MESH_NAME = "mesh"


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


def _analyze_or_raise(h: HloSharding) -> tuple[list[SubDim], list[int]]:
    found = analyze_tile_assignment(h.assignment)
    if found is None:
        kind = "iota" if h.assignment.is_iota else "device list"
        raise UnsupportedShardingError(
            f"cannot import {_short(h)}: its {kind} is not a product of mesh axes in device order "
            f"(XLA's import aborts on it too); a Shardy mesh would need explicit device_ids")
    return found


def _short(h: HloSharding) -> str:
    text = str(h) if h.kind != "tiled" or h.assignment.is_iota or h.num_devices <= 32 else repr(h)
    return text


def _local_to_global(local_mesh: Sequence[int], mesh: MeshAttr) -> list[list[AxisRefAttr]]:
    """For each local axis, the global axes / sub-axes it covers (consecutive, in mesh order)."""
    out: list[list[AxisRefAttr]] = []
    axes = list(mesh.axes)
    k = 0
    pre = 1
    for remaining in local_mesh:
        refs: list[AxisRefAttr] = []
        while remaining > 1:
            if k >= len(axes):
                raise UnsupportedShardingError(f"local axes {list(local_mesh)} do not fit mesh {mesh}")
            axis_rest = axes[k].size // pre
            if axis_rest == 1:
                k += 1
                pre = 1
                continue
            g = math.gcd(remaining, axis_rest)
            if g == 1:
                raise UnsupportedShardingError(
                    f"incompatible local and global axis sizes: {remaining} vs {axis_rest} (mesh {mesh})")
            if g == axis_rest and pre == 1:
                refs.append(AxisRefAttr(axes[k].name))
            else:
                refs.append(AxisRefAttr(axes[k].name, SubAxisInfoAttr(pre, g)))
            pre *= g
            remaining //= g
        out.append(refs)
    return out


def _closed_dims(rank: int, closed: bool) -> tuple[DimensionShardingAttr, ...]:
    return tuple(DimensionShardingAttr((), closed) for _ in range(rank))


def convert_to_sdy_sharding(h: HloSharding, mesh: MeshAttr, rank: int, *, mesh_name: str = GLOBAL_MESH_NAME,
                            open_dims: bool = False) -> TensorShardingAttr:
    """``h`` as a sharding on ``mesh`` (referenced as ``@mesh_name``); ``mesh`` must be compatible."""
    if h.is_tuple:
        raise HloShardingError("a tuple sharding has one sharding per element: import its elements")
    if h.is_maximal:
        return TensorShardingAttr(f"maximal_mesh_{h.device}", ())
    if h.kind in ("replicated", "manual", "unknown"):
        return TensorShardingAttr(mesh_name, _closed_dims(rank, not h.is_unknown and not open_dims))
    if h.is_unreduced:
        if not mesh.axes:
            raise UnsupportedShardingError("{unreduced} needs a mesh: pass the mesh it is unreduced over")
        return TensorShardingAttr(mesh_name, _closed_dims(rank, not open_dims),
                                  unreduced_axes=tuple(AxisRefAttr(a.name) for a in mesh.axes))
    if rank != h.tiled_data_rank:
        raise HloShardingError(f"{_short(h)} tiles {h.tiled_data_rank} dims but the tensor has rank {rank}")
    sub_dims, local_mesh = _analyze_or_raise(h)
    if math.prod(local_mesh) != mesh.total_size:
        raise UnsupportedShardingError(f"{_short(h)} uses {math.prod(local_mesh)} devices, mesh {mesh} has "
                                       f"{mesh.total_size}")
    if mesh.device_ids:
        raise UnsupportedShardingError(f"cannot import onto mesh {mesh} with explicit device_ids: the iota "
                                       "tile assignment assumes devices in mesh order")
    global_axes = _local_to_global(local_mesh, mesh)
    per_dim: list[dict[int, int]] = [{} for _ in range(rank)]
    groups: dict[int, list[int]] = {}
    for local, sd in enumerate(sub_dims):
        if sd.tile_dim < rank:
            per_dim[sd.tile_dim][sd.tile_sub_dim] = local
        else:
            groups.setdefault(sd.tile_dim - rank, []).append(local)
    dims = []
    for subs in per_dim:
        axes = [ref for k in sorted(subs, reverse=True) for ref in global_axes[subs[k]]]
        dims.append(DimensionShardingAttr(tuple(axes), not open_dims))
    replicated: list[AxisRefAttr] = []
    unreduced: list[AxisRefAttr] = []
    for group, locals_ in sorted(groups.items()):
        kind = h.subgroup_types[group] if group < len(h.subgroup_types) else None
        target = replicated if kind == REPLICATED else unreduced if kind == UNREDUCED else None
        if target is not None:
            for local in locals_:
                target.extend(global_axes[local])
    # Replicated and unreduced lists are kept in mesh order, as Shardy requires.
    order = {a.name: i for i, a in enumerate(mesh.axes)}
    key = lambda r: (order[r.name], r.pre_size)  # noqa: E731
    return TensorShardingAttr(mesh_name, tuple(dims), tuple(sorted(replicated, key=key)),
                              tuple(sorted(unreduced, key=key)))


class ImportedShardings(NamedTuple):
    """The result of ``import_shardings``: one global mesh, the maximal meshes
    (``"maximal_mesh_N"`` -> mesh) and one sharding per input, in input order."""

    mesh: MeshAttr
    maximal_meshes: dict[str, MeshAttr]
    shardings: list[TensorShardingAttr | list[TensorShardingAttr]]


def infer_mesh(shardings: Sequence[HloSharding], *, axis_prefix: str = "axis_") -> MeshAttr:
    """The mesh XLA's import builds for ``shardings``: the common factorisation of their local meshes,
    with axes named ``axis_0, axis_1, ...``."""
    axes: list[int] = []
    for h in _leaves(shardings):
        if h.kind != "tiled":
            continue
        _, local = _analyze_or_raise(h)
        if not axes:
            axes = list(local)
            continue
        common = shortest_common_factorization(local, axes)
        if not common:
            raise UnsupportedShardingError(
                f"no common mesh: {_short(h)} factorises as {local}, the other shardings as {axes}")
        axes = common
    return MeshAttr(tuple(MeshAxisAttr(f"{axis_prefix}{i}", size) for i, size in enumerate(axes)))


def _leaves(shardings: Sequence[HloSharding]):
    for h in shardings:
        if h.is_tuple:
            yield from h.elements
        else:
            yield h


def import_shardings(shardings: Sequence[HloSharding], ranks: Sequence[int | Sequence[int]], *,
                     mesh: MeshAttr | None = None, mesh_name: str = GLOBAL_MESH_NAME,
                     axis_prefix: str = "axis_", open_dims: bool = False) -> ImportedShardings:
    """Import all shardings of a module onto ONE mesh (inferred unless ``mesh`` is given).

    ``ranks[i]`` is the tensor rank of ``shardings[i]`` (a sequence of ranks for a tuple
    sharding, which then imports to a list of shardings).  Maximal shardings go to
    per-device meshes named ``maximal_mesh_<device>``.
    """
    if len(ranks) != len(shardings):
        raise HloShardingError(f"{len(shardings)} shardings but {len(ranks)} ranks")
    if mesh is None:
        mesh = infer_mesh(shardings, axis_prefix=axis_prefix)
    maximal = {f"maximal_mesh_{h.device}": MeshAttr((), (h.device,))
               for h in sorted(_leaves(shardings), key=lambda h: h.device or 0) if h.is_maximal}
    out: list = []
    for h, rank in zip(shardings, ranks, strict=True):
        if h.is_tuple:
            if isinstance(rank, int) or len(rank) != len(h.elements):
                raise HloShardingError(f"tuple sharding with {len(h.elements)} elements needs as many ranks")
            out.append([convert_to_sdy_sharding(e, mesh, r, mesh_name=mesh_name, open_dims=open_dims)
                        for e, r in zip(h.elements, rank, strict=True)])
        else:
            out.append(convert_to_sdy_sharding(h, mesh, int(rank), mesh_name=mesh_name, open_dims=open_dims))
    return ImportedShardings(mesh, maximal, out)


def import_sharding(h: HloSharding | str, rank: int, mesh: MeshAttr | None = None, *,
                    mesh_name: str = GLOBAL_MESH_NAME, axis_prefix: str = "axis_",
                    open_dims: bool = False) -> tuple[MeshAttr, TensorShardingAttr]:
    """``(mesh, sharding)`` for one HloSharding of a rank-``rank`` tensor.

    Without ``mesh`` one is inferred (axes ``axis_0, ...``); a maximal sharding returns
    its one-device mesh, referenced as ``@maximal_mesh_<device>``.
    """
    if isinstance(h, str):
        h = HloSharding.parse(h)
    if h.is_tuple:
        raise HloShardingError("import_sharding takes one tensor's sharding; use import_shardings for a tuple")
    if h.is_maximal:
        return MeshAttr((), (h.device,)), convert_to_sdy_sharding(h, MeshAttr(()), rank)
    result = import_shardings([h], [rank], mesh=mesh, mesh_name=mesh_name, axis_prefix=axis_prefix,
                              open_dims=open_dims)
    return result.mesh, result.shardings[0]


def with_inline_mesh(sharding: TensorShardingAttr, mesh: MeshAttr) -> TensorShardingAttr:
    """``sharding`` with its mesh reference replaced by the mesh itself."""
    return attrs.evolve(sharding, mesh_or_ref=mesh)
