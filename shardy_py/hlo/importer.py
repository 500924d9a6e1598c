"""GSPMD -> Shardy: infer meshes from HloShardings and rewrite them as ``TensorShardingAttr``.

Follows XLA's stablehlo import (``convertToSdySharding`` and ``findMeshAxesAndIds``) where XLA
can import at all:

1. ``analyze_tile_assignment`` (``factorization``) splits an iota tile assignment into sub-dims
   and a *local mesh* in device order; the mesh of several shardings is the common
   factorisation of their local meshes, with axes ``axis_0, axis_1, ...`` and no ``device_ids``;
2. each local axis maps onto consecutive global axes or sub-axes (``gcd`` walk), and each tile
   dim lists its sub-dims major to minor.

Where XLA aborts (a V1 device list that is not a product of mesh axes in iota order, such as
torch_xla's meshes with a permuted device order), the mesh carries explicit ``device_ids``:
``mesh_search`` finds one device order in which every sharding of the batch is a product of
axes, or, when the shardings cannot share a mesh, as few meshes as it can (``@mesh``,
``@mesh_1``, ...).  One deliberate difference: XLA picks the subgroup type of a sub-dim by its
sub-dim index (a slip that mislabels a subgroup made of two axes); here it is the subgroup dim's type.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import attrs
import numpy as np

from shardy_py.hlo.device_order import positions, relabel
from shardy_py.hlo.errors import HloShardingError, UnsupportedShardingError
from shardy_py.hlo.factorization import (  # noqa: F401 - re-exported
    SubDim,
    analyze_tile_assignment,
    shortest_common_factorization,
)
from shardy_py.hlo.mesh_search import Analysis, fit_mesh, group_shardings
from shardy_py.hlo.sharding import REPLICATED, UNREDUCED, HloSharding
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


def _analyze_or_raise(h: HloSharding) -> Analysis:
    found = analyze_tile_assignment(h.assignment)
    if found is None:
        raise UnsupportedShardingError(
            f"cannot import {_short(h)}: its devices are not a product of the mesh's axes in the mesh's "
            "device order")
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


def _trivial(h: HloSharding) -> bool:
    """A sharding that splits nothing (not tiled, or tiled over one device: XLA's ``{replicated}``)."""
    return h.kind != "tiled" or h.num_devices == 1


def convert_to_sdy_sharding(h: HloSharding, mesh: MeshAttr, rank: int, *, mesh_name: str = GLOBAL_MESH_NAME,
                            open_dims: bool = False) -> TensorShardingAttr:
    """``h`` as a sharding on ``mesh`` (referenced as ``@mesh_name``); ``mesh`` must be compatible:
    in the mesh's device order (its ``device_ids``, else iota) ``h`` is a product of its axes."""
    if h.is_tuple:
        raise HloShardingError("a tuple sharding has one sharding per element: import its elements")
    if not _trivial(h):
        if rank != h.tiled_data_rank:
            raise HloShardingError(f"{_short(h)} tiles {h.tiled_data_rank} dims but the tensor has rank {rank}")
        if h.num_devices != mesh.total_size:
            raise UnsupportedShardingError(f"{_short(h)} uses {h.num_devices} devices, mesh {mesh} has "
                                           f"{mesh.total_size}")
        if mesh.device_ids:
            h = relabel(h, positions(np.asarray(mesh.device_ids, dtype=np.int64), f"onto mesh {mesh}"))
    return _convert(h, None if _trivial(h) else _analyze_or_raise(h), mesh, rank, mesh_name, open_dims)


def _convert(h: HloSharding, analysis: Analysis | None, mesh: MeshAttr, rank: int, mesh_name: str,
             open_dims: bool) -> TensorShardingAttr:
    """``h`` (devices numbered in ``mesh``'s order) with its ``analysis`` as a sharding on ``mesh``."""
    if h.is_maximal:
        return TensorShardingAttr(f"maximal_mesh_{h.device}", ())
    if h.is_unreduced:
        if not mesh.axes:
            raise UnsupportedShardingError("{unreduced} needs a mesh: pass the mesh it is unreduced over")
        return TensorShardingAttr(mesh_name, _closed_dims(rank, not open_dims),
                                  unreduced_axes=tuple(AxisRefAttr(a.name) for a in mesh.axes))
    if h.kind in ("replicated", "manual", "unknown") or analysis is None:
        return TensorShardingAttr(mesh_name, _closed_dims(rank, not h.is_unknown and not open_dims))
    if rank != h.tiled_data_rank:
        raise HloShardingError(f"{_short(h)} tiles {h.tiled_data_rank} dims but the tensor has rank {rank}")
    sub_dims, local_mesh = analysis
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
    """The result of ``import_shardings``: the first (usually the only) inferred mesh, the maximal
    meshes (``"maximal_mesh_N"`` -> mesh), one sharding per input (in input order) and every
    inferred mesh by name (``mesh_name``, then ``mesh_name_1``, ... when the shardings need several)."""

    mesh: MeshAttr
    maximal_meshes: dict[str, MeshAttr]
    shardings: list[TensorShardingAttr | list[TensorShardingAttr]]
    meshes: dict[str, MeshAttr] = {}


def _mesh_of(sizes: Sequence[int], device_ids: np.ndarray | None, axis_prefix: str) -> MeshAttr:
    axes = tuple(MeshAxisAttr(f"{axis_prefix}{i}", size) for i, size in enumerate(sizes))
    return MeshAttr(axes, () if device_ids is None else tuple(device_ids.tolist()))


def infer_mesh(shardings: Sequence[HloSharding], *, axis_prefix: str = "axis_") -> MeshAttr:
    """The one mesh for all ``shardings``: XLA's (the common factorisation of their local meshes,
    axes ``axis_0, axis_1, ...``) when the devices are in iota order, else one with the fewest
    ``device_ids`` orders can give (see ``mesh_search``).  Raises ``UnsupportedShardingError``
    when no single mesh fits them all (``import_shardings`` then uses several)."""
    tiled = [h for h in _leaves(shardings) if not _trivial(h)]
    if not tiled:
        return MeshAttr(())
    fit = fit_mesh(list(dict.fromkeys(tiled)), search=True)
    if fit is None:
        raise UnsupportedShardingError(f"no common mesh: {_short(tiled[0])} and the other {len(tiled) - 1} "
                                       "sharding(s) are not views of one device array")
    return _mesh_of(fit.sizes, fit.device_ids, axis_prefix)


def _leaves(shardings: Sequence[HloSharding]):
    for h in shardings:
        if h.is_tuple:
            yield from h.elements
        else:
            yield h


def _check_ranks(shardings: Sequence[HloSharding], ranks: Sequence[int | Sequence[int]]) -> list[int]:
    """The rank of every leaf (tuple elements flattened)."""
    if len(ranks) != len(shardings):
        raise HloShardingError(f"{len(shardings)} shardings but {len(ranks)} ranks")
    out: list[int] = []
    for h, rank in zip(shardings, ranks, strict=True):
        if h.is_tuple:
            if isinstance(rank, int) or len(rank) != len(h.elements):
                raise HloShardingError(f"tuple sharding with {len(h.elements)} elements needs as many ranks")
            out.extend(int(r) for r in rank)
        else:
            out.append(int(rank))
    return out


def import_shardings(shardings: Sequence[HloSharding], ranks: Sequence[int | Sequence[int]], *,
                     mesh: MeshAttr | None = None, mesh_name: str = GLOBAL_MESH_NAME,
                     axis_prefix: str = "axis_", open_dims: bool = False) -> ImportedShardings:
    """Import all shardings of a module onto one mesh when one fits them all, else onto as few
    meshes as possible (``@mesh_name``, ``@mesh_name_1``, ...); with ``mesh`` given, onto that mesh.

    ``ranks[i]`` is the tensor rank of ``shardings[i]`` (a sequence of ranks for a tuple
    sharding, which then imports to a list of shardings).  Maximal shardings go to
    per-device meshes named ``maximal_mesh_<device>``; shardings that split nothing (replicated,
    unknown, manual) refer to the first mesh.
    """
    leaf_ranks = _check_ranks(shardings, ranks)
    leaves = list(_leaves(shardings))
    for h, rank in zip(leaves, leaf_ranks, strict=True):
        if not _trivial(h) and rank != h.tiled_data_rank:
            raise HloShardingError(f"{_short(h)} tiles {h.tiled_data_rank} dims but the tensor has rank {rank}")
    if mesh is not None:
        meshes = {mesh_name: mesh}
        converted = [convert_to_sdy_sharding(h, mesh, r, mesh_name=mesh_name, open_dims=open_dims)
                     for h, r in zip(leaves, leaf_ranks, strict=True)]
    else:
        meshes, converted = _import_inferred(leaves, leaf_ranks, mesh_name, axis_prefix, open_dims)
    maximal = {f"maximal_mesh_{h.device}": MeshAttr((), (h.device,))
               for h in sorted(leaves, key=lambda h: h.device or 0) if h.is_maximal}
    out: list = []
    k = 0
    for h in shardings:
        if h.is_tuple:
            out.append(converted[k:k + len(h.elements)])
            k += len(h.elements)
        else:
            out.append(converted[k])
            k += 1
    return ImportedShardings(meshes[mesh_name], maximal, out, meshes)


def _import_inferred(leaves: list[HloSharding], ranks: list[int], mesh_name: str, axis_prefix: str,
                     open_dims: bool) -> tuple[dict[str, MeshAttr], list[TensorShardingAttr]]:
    tiled = [i for i, h in enumerate(leaves) if not _trivial(h)]
    groups = group_shardings([leaves[i] for i in tiled])
    meshes: dict[str, MeshAttr] = {mesh_name: MeshAttr(())}
    target: dict[int, tuple[str, Analysis]] = {}
    for g, (members, fit) in enumerate(groups):
        name = mesh_name if g == 0 else f"{mesh_name}_{g}"
        meshes[name] = _mesh_of(fit.sizes, fit.device_ids, axis_prefix)
        for member, analysis in zip(members, fit.analyses, strict=True):
            target[tiled[member]] = (name, analysis)
    out = []
    for i, (h, rank) in enumerate(zip(leaves, ranks, strict=True)):
        name, analysis = target.get(i, (mesh_name, None))
        out.append(_convert(h, analysis, meshes[name], rank, name, open_dims))
    return meshes, out


def import_sharding(h: HloSharding | str, rank: int, mesh: MeshAttr | None = None, *,
                    mesh_name: str = GLOBAL_MESH_NAME, axis_prefix: str = "axis_",
                    open_dims: bool = False) -> tuple[MeshAttr, TensorShardingAttr]:
    """``(mesh, sharding)`` for one HloSharding of a rank-``rank`` tensor.

    Without ``mesh`` one is inferred: XLA's (axes ``axis_0, ...``) when the devices are a product
    of axes in iota order, else one axis per tile dim with the device list as ``device_ids``
    (every V1 tile assignment over devices ``0..N-1`` imports).  A maximal sharding returns its
    one-device mesh, referenced as ``@maximal_mesh_<device>``.
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
