"""``-sdy-remove-size-one-axes`` (import/remove_size_one_axes.cc): when some mesh has an axis of
size one, drop every reference to a size-one (sub-)axis from every sharding in the module (the
meshes keep their axes)."""
from __future__ import annotations

from shardy_py.ir.attrs import DimensionShardingAttr, TensorShardingAttr
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.sharding_walker import transform_shardings


def remove_size_one_axes(sharding: TensorShardingAttr, table: MeshTable) -> TensorShardingAttr:
    """``sharding`` without its size-one axes; a closed dimension left without axes loses its
    priority (the verifier does not allow one there)."""
    mesh = table.mesh_of(sharding)
    if mesh is None:
        raise ValueError(f"unknown mesh: {sharding.mesh_or_ref}")

    def keep(ref) -> bool:
        return ref.size(mesh) != 1

    dims = []
    for dim in sharding.dim_shardings:
        axes = tuple(a for a in dim.axes if keep(a))
        priority = None if not axes and dim.is_closed else dim.priority
        dims.append(DimensionShardingAttr(axes, dim.is_closed, priority))
    replicated = tuple(a for a in sharding.replicated_axes if keep(a))
    unreduced = tuple(a for a in sharding.unreduced_axes if keep(a))
    if (tuple(dims) == sharding.dim_shardings and replicated == sharding.replicated_axes
            and unreduced == sharding.unreduced_axes):
        return sharding
    return TensorShardingAttr(sharding.mesh_or_ref, tuple(dims), replicated, unreduced, sharding.reduction)


@register
class RemoveSizeOneAxesPass(Pass):
    name = "sdy-remove-size-one-axes"
    summary = "Removes size one axes from shardings."

    def run(self, module, ctx) -> None:
        """Strip size-one axes from every sharding when any ``sdy.mesh`` has one."""
        meshes = [op.properties["mesh"] for op in module.ops if op.name == "sdy.mesh"]
        if not any(axis.size == 1 for mesh in meshes for axis in mesh.axes):
            ctx.mark_all_preserved()
            return
        table = MeshTable(module)
        if not transform_shardings(module.op, lambda s: remove_size_one_axes(s, table)):
            ctx.mark_all_preserved()
