"""``-sdy-manual-axes-cleanup`` (import/manual_axes_cleanup.cc): in every ``sdy.manual_computation``
sort the manual axes in mesh order and add each manual axis an in/out sharding does not use to its
replicated axes (moving a sharding on an empty mesh to the computation's common mesh).  A manual
computation with manual axes, no in/out shardings and a non-empty body is an error."""
from __future__ import annotations

from shardy_py.ir.attrs import AxisRefAttr, ManualAxesAttr, MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType, UnrankedTensorType
from shardy_py.passes.data_flow import set_property
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.registry import Pass, register
from shardy_py.verify.axes import axis_set_diff, sort_and_merge

NO_SHARDINGS_ERROR = ("op has manual_axes when there are no in/out shardings and the body is not "
                      "empty. This isn't allowed at this stage, please contact the Shardy team or "
                      "file a bug.")


def _axes_in(sharding: TensorShardingAttr) -> list[AxisRefAttr]:
    """``forEachAxisRef``: dimension axes, then replicated, then unreduced axes."""
    axes = [a for dim in sharding.dim_shardings for a in dim.axes]
    return axes + list(sharding.replicated_axes) + list(sharding.unreduced_axes)


def add_unused_manual_axes(shardings, types, manual: list[AxisRefAttr], mesh_or_ref,
                           mesh: MeshAttr) -> list[TensorShardingAttr] | None:
    """The shardings with the manual axes each does not use added to its replicated axes (sorted
    and merged, on ``mesh_or_ref``); None when none changes."""
    out, modified = [], False
    for sharding, type_ in zip(shardings, types, strict=True):
        if not isinstance(type_, (RankedTensorType, UnrankedTensorType)):
            out.append(sharding)
            continue
        unused = axis_set_diff(manual, _axes_in(sharding), mesh)
        if not unused:
            out.append(sharding)
            continue
        replicated = sort_and_merge(list(sharding.replicated_axes) + unused, mesh)
        out.append(TensorShardingAttr(mesh_or_ref, sharding.dim_shardings, tuple(replicated),
                                      sharding.unreduced_axes, sharding.reduction))
        modified = True
    return out if modified else None


def _body_is_empty(op: Operation) -> bool:
    ops = op.regions[0].blocks[0].ops
    return bool(ops) and ops[0].name == "sdy.return"


def _shardings(op: Operation, key: str) -> list[TensorShardingAttr]:
    attr = op.properties.get(key)
    return list(attr.shardings) if isinstance(attr, TensorShardingPerValueAttr) else []


def cleanup(op: Operation, table: MeshTable, ctx) -> bool:
    """Clean up one ``sdy.manual_computation``; whether it changed."""
    ins, outs = _shardings(op, "in_shardings"), _shardings(op, "out_shardings")
    manual_attr = op.properties.get("manual_axes")
    manual_names = tuple(manual_attr.axes) if manual_attr is not None else ()
    if not ins and not outs:
        if manual_names and not _body_is_empty(op):
            ctx.error(op, NO_SHARDINGS_ERROR)
        return False
    mesh_or_ref = common_mesh_or_ref(ins + outs, table)
    mesh = table.lookup(mesh_or_ref) if mesh_or_ref is not None else None
    if mesh is None:
        raise ValueError("expected inputs and outputs to have a common mesh")
    position = {axis.name: i for i, axis in reversed(list(enumerate(mesh.axes)))}
    ordered = tuple(sorted(manual_names, key=lambda name: position.get(name, len(mesh.axes))))
    changed = ordered != manual_names
    if changed:
        set_property(op, "manual_axes", ManualAxesAttr(ordered))
    manual = [AxisRefAttr(name) for name in ordered]
    new_ins = add_unused_manual_axes(ins, [v.type for v in op.operands], manual, mesh_or_ref, mesh)
    if new_ins is not None:
        set_property(op, "in_shardings", TensorShardingPerValueAttr(tuple(new_ins)))
    new_outs = add_unused_manual_axes(outs, [v.type for v in op.results], manual, mesh_or_ref, mesh)
    if new_outs is not None:
        set_property(op, "out_shardings", TensorShardingPerValueAttr(tuple(new_outs)))
    return changed or new_ins is not None or new_outs is not None


@register
class ManualAxesCleanupPass(Pass):
    name = "sdy-manual-axes-cleanup"
    summary = "Cleans up the use of manual axes in `ManualComputationOp`s"

    def run(self, module, ctx) -> None:
        """Clean up every manual computation of the module."""
        table = MeshTable(module)
        changed = False
        for op in [op for op in module.walk() if op.name == "sdy.manual_computation"]:
            changed = cleanup(op, table, ctx) or changed
        if not changed:
            ctx.mark_all_preserved()
