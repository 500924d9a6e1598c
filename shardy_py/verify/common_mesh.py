"""``common_mesh``: the single mesh a set of shardings agrees on (Shardy's getCommonMesh)."""
from __future__ import annotations

from collections.abc import Iterable

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.verify.context import Context


def common_mesh(shardings: Iterable[TensorShardingAttr | None], ctx: Context) -> MeshAttr | None:
    """The mesh all non-empty-mesh shardings use; None if they disagree (or none resolves).

    Empty meshes (``<[]>``) are ignored unless every mesh is empty.
    """
    mesh: MeshAttr | None = None
    for s in shardings:
        if s is None:
            continue
        other = ctx.mesh_of(s)
        if mesh is None or mesh.is_empty:
            mesh = other
            continue
        if other is None:
            return None
        if other.is_empty:
            continue
        if other != mesh:
            return None
    return mesh
