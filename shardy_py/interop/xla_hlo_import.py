"""Import of a module whose shardings are only ``mhlo.sharding`` HloSharding strings (GSPMD's form).

As XLA's StableHLO import does, every sharding of the module goes onto ONE inferred mesh
``@mesh`` (axes ``axis_0, ...``; ``shardy_py.hlo.import_shardings``), maximal shardings onto
one-device meshes ``@maximal_mesh_N``.  Where XLA aborts (V1 device lists that are not an iota,
as torch_xla writes them for a ``Mesh`` with any device order) the mesh has explicit
``device_ids``, and shardings that cannot share a mesh go onto ``@mesh_1``, ``@mesh_2``, ....
Arguments and results get ``sdy.sharding``, ops ``sdy.sharding`` per result (a tuple sharding
gives one per result), and ``@Sharding`` custom calls become ``sdy.sharding_constraint``
(``unspecified_dims`` in their backend_config open those dimensions).  Manual regions
(``@SPMDFullToShardShape``/``@SPMDShardToFullShape``) are refused with a located error: their
import is not implemented here.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.hlo import HloSharding, HloShardingError, import_shardings
from shardy_py.hlo.device_order import check_devices
from shardy_py.interop.xla_import import RoundTripImporter
from shardy_py.interop.xla_ops import (
    FULL_TO_SHARD_TARGET,
    SHARD_TO_FULL_TARGET,
    SHARDING_TARGET,
    Sites,
    callee,
    fresh_symbol,
)
from shardy_py.interop.xla_strings import HLO_SHARDING, AttrSite, TextError, decode_string
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.module import Module
from shardy_py.ir.types import RankedTensorType


def has_hlo_shardings(module: Module) -> bool:
    """True when an argument, result or op of ``module`` has an ``mhlo.sharding``."""
    for op in module.walk():
        if HLO_SHARDING in op.attributes:
            return True
        if op.name == "func.func" and any(HLO_SHARDING in a for key in ("arg_attrs", "res_attrs")
                                          for a in op.properties.get(key, ())):
            return True
    return False


def import_hlo_shardings(module: Module, *, mesh: A.MeshAttr | None = None, mesh_name: str | None = None,
                         axis_names: Sequence[str] | None = None) -> None:
    """Replace the ``mhlo.sharding`` strings of ``module`` (edited in place) by sdy shardings.

    ``mesh`` puts them all on the user's mesh (torch_xla's ``Mesh``: its shape, axis names and device
    order); without it the mesh is inferred, and ``axis_names`` names its axes in order (instead of
    ``axis_0``, ...).  ``mesh_name`` names the mesh symbol (default ``mesh``).
    """
    sites = Sites(module)
    found: list[tuple[AttrSite, HloSharding, object, str, object]] = []
    for func in sites.funcs():
        types = func.properties
        for i, t in enumerate(types["arg_types"]):
            _collect(found, sites.arg(func, i, HLO_SHARDING), t, "arg", (func, i))
        for i, t in enumerate(types["result_types"]):
            _collect(found, sites.result(func, i, HLO_SHARDING), t, "res", (func, i))
        for op in list(func.walk())[1:]:
            target = callee(op)
            if target in (FULL_TO_SHARD_TARGET, SHARD_TO_FULL_TARGET):
                raise sites.op(op, HLO_SHARDING).error(
                    f"importing manual regions (@{target}) from mhlo.sharding is not supported; "
                    "export the module with Shardy (XLA's round-trip format) instead")
            kind = "constraint" if target == SHARDING_TARGET else "op"
            _collect(found, sites.op(op, HLO_SHARDING), [r.type for r in op.results], kind, op)
    if not found:
        return
    mesh_name = fresh_symbol(module, mesh_name or "mesh")
    shardings, ranks = [h for _, h, _, _, _ in found], [r for _, _, r, _, _ in found]
    try:
        if mesh is None and axis_names is not None:
            mesh = _named_axes(import_shardings(shardings, ranks, mesh_name=mesh_name), list(axis_names))
        imported = import_shardings(shardings, ranks, mesh=mesh, mesh_name=mesh_name)
    except HloShardingError as e:
        on = " on the given mesh" if mesh is not None else ""
        raise found[0][0].error(f"cannot import these shardings{on}: {e}") from None
    rename = _fresh_names(module, [name for name in imported.meshes if name != mesh_name])
    used = set()
    for (site, _, _, kind, where), sharding in zip(found, imported.shardings, strict=True):
        shardings = [_renamed(s, rename) for s in (sharding if isinstance(sharding, list) else [sharding])]
        used.update(s.mesh_or_ref for s in shardings)
        site.attributes.pop(HLO_SHARDING, None)
        if kind == "arg":
            where[0].properties["arg_attrs"][where[1]]["sdy.sharding"] = shardings[0]
        elif kind == "res":
            where[0].properties["res_attrs"][where[1]]["sdy.sharding"] = shardings[0]
        else:
            where.attributes["sdy.sharding"] = A.TensorShardingPerValueAttr(tuple(shardings))
    meshes = [(rename.get(name, name), mesh) for name, mesh in imported.meshes.items()]
    meshes = [(name, mesh) for name, mesh in meshes if name in used]
    meshes += [(name, mesh) for name, mesh in imported.maximal_meshes.items() if name in used]
    for index, (name, mesh) in enumerate(meshes):
        Builder(module.body, index).create("sdy.mesh", result_types=(), properties={"sym_name": name, "mesh": mesh})
    importer = RoundTripImporter(module)
    for func in sites.funcs():
        importer.import_custom_calls(func)


def _named_axes(imported, names: list[str]) -> A.MeshAttr:
    """The inferred mesh of ``imported`` with its axes named ``names``."""
    tiled = [m for name, m in imported.meshes.items() if m.axes]
    if len(tiled) > 1:
        raise HloShardingError(f"these shardings need {len(tiled)} meshes; axis names name the axes of one "
                               "(give the whole mesh instead)")
    inferred = imported.mesh
    if len(names) != len(inferred.axes):
        sizes = ", ".join(str(a.size) for a in inferred.axes)
        raise HloShardingError(f"the inferred mesh has {len(inferred.axes)} axes (sizes {sizes}) but "
                               f"{len(names)} axis names were given")
    return A.MeshAttr(tuple(A.MeshAxisAttr(n, a.size) for n, a in zip(names, inferred.axes, strict=True)),
                      inferred.device_ids)


def _fresh_names(module: Module, names: list[str]) -> dict[str, str]:
    """A new name for each of ``names`` that some top-level symbol already has."""
    taken = {op.properties.get("sym_name") for op in module.ops}
    out = {}
    for name in names:
        if name in taken:
            new = fresh_symbol(module, name)
            k = 0
            while new in taken or new in out.values():
                new = f"{name}_{k}"
                k += 1
            out[name] = new
    return out


def _renamed(sharding: A.TensorShardingAttr, rename: dict[str, str]) -> A.TensorShardingAttr:
    ref = sharding.mesh_or_ref
    return attrs.evolve(sharding, mesh_or_ref=rename[ref]) if isinstance(ref, str) and ref in rename else sharding


def _collect(found: list, site: AttrSite, types, kind: str, where) -> None:
    """Parse the ``mhlo.sharding`` at ``site`` (if any) with the rank(s) of ``types``."""
    text = site.written
    if text is None:
        return
    try:
        value, positions = decode_string(text)
    except TextError as e:
        raise site.error(f"mhlo.sharding: {e}", e.offset) from None
    try:
        h = HloSharding.parse(value)
    except HloShardingError as e:
        at = getattr(e, "position", None)
        raise site.error(f"mhlo.sharding: {str(e).splitlines()[0]}",
                         positions[min(at or 0, len(positions) - 1)]) from None
    if isinstance(types, list):
        ranks = [_rank(t) for t in types]
        if h.is_tuple and len(h.elements) != len(ranks):
            raise site.error(f"a tuple sharding of {len(h.elements)} elements on an op with {len(ranks)} results", 0)
        rank = ranks if h.is_tuple else (ranks[0] if len(ranks) == 1 else None)
        if rank is None:
            h = HloSharding.tuple([h] * len(ranks))
            rank = ranks
    else:
        rank = _rank(types)
    for leaf in h.elements if h.is_tuple else (h,):
        if leaf.is_tiled:
            try:
                check_devices(leaf, str(leaf) if leaf.num_devices <= 32 else repr(leaf))
            except HloShardingError as e:
                raise site.error(f"mhlo.sharding: {e}", 0) from None
    found.append((site, h, rank, kind, where))


def _rank(t) -> int:
    return t.rank if isinstance(t, RankedTensorType) else 0
