"""Rules B1-B7 (meshes, checked while parsing in Shardy), C1-C3 (mesh ops and symbols)."""
from __future__ import annotations

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail


def verify_mesh_axis_size(mesh: MeshAttr) -> Failure | None:
    """B1: every axis has size >= 1."""
    for a in mesh.axes:
        if a.size < 1:
            return fail(f'mesh axis "{a.name}" has size {a.size}; axis sizes must be at least 1')
    return None


def verify_mesh(mesh: MeshAttr) -> Failure | None:
    """B2-B7: device ids, axis-name uniqueness, device count."""
    for d in mesh.device_ids:
        if d < 0:
            return fail(f"mesh device id {d} is negative; device ids must be >= 0")
    if not mesh.axes:
        if len(mesh.device_ids) > 1:
            return fail(f"a mesh without axes may list at most one device id (a maximal mesh), got "
                        f"{len(mesh.device_ids)}")
        return None
    seen: set[str] = set()
    for a in mesh.axes:
        if a.name in seen:
            return fail(f'mesh axis name "{a.name}" is defined more than once')
        seen.add(a.name)
    if not mesh.device_ids:
        return None
    total = mesh.total_size
    if total != len(mesh.device_ids):
        return fail(f"mesh has {total} devices (product of its axis sizes) but device_ids lists "
                    f"{len(mesh.device_ids)} ids")
    ids = sorted(mesh.device_ids)
    if ids != list(range(total)):
        shown = ", ".join(str(i) for i in ids[:16]) + (", ..." if len(ids) > 16 else "")
        return fail(f"device_ids must be a permutation of 0..{total - 1}; sorted they are [{shown}]")
    if list(mesh.device_ids) == ids:
        return fail("device_ids are in iota order 0..N-1; omit them")
    return None


def verify_mesh_attr(mesh: MeshAttr) -> Failure | None:
    """Phase P for one mesh attribute: axis sizes (B1), then the mesh rules (B2-B7)."""
    return verify_mesh_axis_size(mesh) or verify_mesh(mesh)


def verify_mesh_op_parent(op: Operation, ctx: Context) -> Failure | None:
    """C1: ``sdy.mesh`` must sit directly in the module."""
    parent = op.parent_op
    if parent is not None and parent.name != "builtin.module":
        return fail(f"'sdy.mesh' op must be directly inside a builtin.module, not inside '{parent.name}'")
    return None


def verify_unique_symbols(module_op: Operation, ctx: Context) -> list[tuple[Operation, Failure]]:
    """C2: symbol names (meshes, functions) are unique within the module."""
    out = []
    seen: dict[str, Operation] = {}
    for op in module_op.regions[0].blocks[0].ops if module_op.regions and module_op.regions[0].blocks else ():
        name = op.properties_view.get("sym_name") if op.name in ("sdy.mesh", "func.func") else None
        if not isinstance(name, str):
            continue
        first = seen.get(name)
        if first is not None:
            loc = loc_of(first)
            out.append((op, fail(f"symbol @{name} is already defined", (loc.line, loc.column,
                                                                           f"first definition of @{name}"))))
        else:
            seen[name] = op
    return out


def failing_inline_mesh(attr, failure_of) -> int:
    """Which mesh written inline in ``attr`` (a sharding or the shardings of the results) fails
    ``failure_of``, counted in text order; -1 when none does (the failure is ``attr``'s own)."""
    shardings = attr.shardings if isinstance(attr, TensorShardingPerValueAttr) else \
        [attr] if isinstance(attr, TensorShardingAttr) else []
    k = 0
    for sharding in shardings:
        if isinstance(sharding.mesh_or_ref, MeshAttr):
            if failure_of(sharding.mesh_or_ref) is not None:
                return k
            k += 1
    return -1
