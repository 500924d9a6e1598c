"""Mesh lookups as Shardy's passes do them (``ir/utils.cc``: ``getMeshOrLookup``,
``getCommonMeshOrRef``) over a module's ``sdy.mesh`` symbols."""
from __future__ import annotations

from collections.abc import Iterable

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr


class MeshTable:
    """The ``sdy.mesh`` symbols of a module (name -> ``MeshAttr``, first definition wins)."""

    def __init__(self, module):
        self.meshes: dict[str, MeshAttr] = {}
        for op in module.ops:
            if op.name == "sdy.mesh":
                self.meshes.setdefault(op.properties["sym_name"], op.properties["mesh"])

    def lookup(self, mesh_or_ref) -> MeshAttr | None:
        """``getMeshOrLookup``: an inline mesh itself, a ``@name`` looked up (None when unknown)."""
        if isinstance(mesh_or_ref, MeshAttr):
            return mesh_or_ref
        return self.meshes.get(mesh_or_ref)

    def mesh_of(self, sharding: TensorShardingAttr) -> MeshAttr | None:
        """``TensorShardingAttr::getMesh``."""
        return self.lookup(sharding.mesh_or_ref)


def common_mesh_or_ref(shardings: Iterable[TensorShardingAttr | None], table: MeshTable,
                       ignore_device_ids: bool = False):
    """``getCommonMeshOrRef``: the mesh (or ``@name``) every sharding is on, empty meshes aside
    (unless all are empty); None when two differ or there is no sharding."""
    mesh_or_ref = None
    mesh: MeshAttr | None = None
    for sharding in shardings:
        if sharding is None:
            continue
        if sharding.mesh_or_ref is mesh_or_ref and mesh is not None and not ignore_device_ids and (
                mesh.axes or mesh.device_ids):
            continue  # (the mesh already taken, not empty: nothing below would change)
        other = table.mesh_of(sharding)
        if mesh is None or mesh.is_empty:
            mesh, mesh_or_ref = other, sharding.mesh_or_ref
            continue
        if other is None:
            return None
        if other.is_empty:
            continue
        if other.axes != mesh.axes or (not ignore_device_ids and other.device_ids != mesh.device_ids):
            return None
        if ignore_device_ids and not other.device_ids:
            mesh, mesh_or_ref = other, sharding.mesh_or_ref
    return mesh_or_ref
