"""``-sdy-user-priority-propagate`` (propagation/user_priority_propagation.cc): op-priority
propagation run once per user priority, lowest number first.

Before the first run every sharding keeps only its dimensions of priority 0 (written ``p0`` or no
priority; the priority itself is dropped): a dimension of a higher priority becomes closed and
empty and its axes are added to the replicated axes (sorted in mesh order).  Before the run for
priority ``p`` each tensor that had a dimension of priority ``p`` gets that dimension's original
axes back (without the priority) and those axes leave its replicated axes.  Values owned by a
data-flow edge are left alone (their edges carry the sharding).

With ``module-dump-directory``, the module is saved before each run after the first (see
``save_module_after_priority``); the other propagation passes, like the C++ ones, take the option and
write nothing."""
from __future__ import annotations

import os
import sys

from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.passes import data_flow as df
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.propagation.op_priority_propagation import OP_PRIORITY_OPTIONS, OpPriorityPropagationPassImpl
from shardy_py.passes.propagation.propagation_update import DirectionFn, PropagationError, propagate_any
from shardy_py.passes.propagation.sharding_group_map import ShardingGroupMap
from shardy_py.passes.registry import register
from shardy_py.passes.sharding_walker import (
    FuncResult,
    Target,
    transform_sharding,
    transform_shardings_for_tensors,
)
from shardy_py.verify.axes import mesh_sort_key


def _priority(dim: DimensionShardingAttr) -> int:
    """``getPriorityOrDefault`` (the default priority is 0)."""
    return dim.priority if dim.priority is not None else 0


def _drop_priority(dim: DimensionShardingAttr) -> DimensionShardingAttr:
    return DimensionShardingAttr(dim.axes, dim.is_closed, None)


def updated_sharding_for_priority(current: TensorShardingAttr, original: TensorShardingAttr,
                                  priority: int) -> TensorShardingAttr:
    """``getUpdatedShardingForPriority``: the dimensions of ``original`` with priority ``priority``
    back in ``current`` (without the priority), their axes removed from the replicated axes."""
    dims = list(current.dim_shardings)
    seen: set[AxisRefAttr] = set()
    for i, orig in enumerate(original.dim_shardings):
        if _priority(orig) == priority:
            dims[i] = _drop_priority(orig)
            seen.update(orig.axes)
    replicated = tuple(a for a in current.replicated_axes if a not in seen)
    return TensorShardingAttr(current.mesh_or_ref, tuple(dims), replicated, current.unreduced_axes,
                              current.reduction)


def initialized_sharding(original: TensorShardingAttr, meshes: MeshTable) -> TensorShardingAttr:
    """``getInitializedSharding``: priority-0 dimensions kept (priority dropped), the others closed
    and empty with their axes moved to the replicated axes, sorted in mesh order."""
    dims = []
    replicated = list(original.replicated_axes)
    for dim in original.dim_shardings:
        if _priority(dim) == 0:
            dims.append(_drop_priority(dim))
        else:
            replicated.extend(dim.axes)
            dims.append(DimensionShardingAttr((), True))
    mesh = meshes.mesh_of(original)
    if mesh is None:
        raise PropagationError(f"unknown mesh: {original.mesh_or_ref}")
    replicated.sort(key=mesh_sort_key(mesh))
    return TensorShardingAttr(original.mesh_or_ref, tuple(dims), tuple(replicated), original.unreduced_axes,
                              original.reduction)


def sharding_references_per_priority(module: Module) -> list[tuple[int, list[tuple[Target, TensorShardingAttr]]]]:
    """``getShardingReferencesPerPriorityAndInitialize``: initialise every sharding for priority 0
    and return, sorted by priority, the tensors (with their original shardings) that have a
    dimension of each non-zero priority."""
    meshes = MeshTable(module)
    references: dict[int, list[tuple[Target, TensorShardingAttr]]] = {}

    def visit(sharding: TensorShardingAttr, target: Target) -> TensorShardingAttr:
        if target is not None and not isinstance(target, FuncResult) and df.lookup_data_flow_edge(target) is not None:
            return sharding
        for priority in dict.fromkeys(_priority(d) for d in sharding.dim_shardings if _priority(d) > 0):
            references.setdefault(priority, []).append((target, sharding))
        return initialized_sharding(sharding, meshes)

    transform_shardings_for_tensors(module.op, visit)
    return sorted(references.items(), key=lambda item: item[0])


def save_module_after_priority(module: Module, directory: str, priority: int, dump_index: int = 0) -> None:
    """``saveModuleOpAfterPriority``: with a ``module-dump-directory``, the module as printed now in
    ``<directory>/<dump_index, 2 digits>.propagation_after_user_priority_<priority>.mlir``; a file
    that cannot be written is reported on stderr and skipped, as the C++ does."""
    if not directory:
        return
    path = os.path.join(directory, f"{dump_index:02d}.propagation_after_user_priority_{priority}.mlir")
    try:
        with open(path, "w") as f:
            f.write(str(module))
    except OSError as e:
        print(f"error when writing file {path}: {e.strerror}", file=sys.stderr)


class UserPriorityPropagationPassImpl(OpPriorityPropagationPassImpl):
    """``UserPriorityPropagationPassImpl``: an op-priority run per user priority."""

    options = OP_PRIORITY_OPTIONS

    def propagate(self, module: Module, groups: ShardingGroupMap, ctx, direction: DirectionFn = propagate_any) -> None:
        per_priority = sharding_references_per_priority(module)
        super().propagate(module, groups, ctx, direction)
        previous = 0
        for priority, references in per_priority:
            save_module_after_priority(module, self.option("module-dump-directory"), previous)
            previous = priority
            for target, original in references:
                transform_sharding(target, lambda s, o=original, p=priority: updated_sharding_for_priority(s, o, p))
            super().propagate(module, groups, ctx, direction)


@register
class UserPriorityPropagationPass(UserPriorityPropagationPassImpl):
    name = "sdy-user-priority-propagate"
    summary = "Runs the user-priority propagation algorithm."
