"""Rules B1-B7 (meshes, checked while parsing in Shardy), C1-C3 (mesh ops and symbols)."""
from __future__ import annotations

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Location, Operation
from shardy_py.syntax.sdy_parser import embedded_sdy_attributes
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.source_positions import SourcePositions


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


def failing_axis(mesh: MeshAttr) -> int:
    """The index of the first axis of ``mesh`` whose size is below 1 (B1: Shardy reports it at the axis's
    name), or -1 when its sizes are fine (its other failures are reported at the mesh's ``<``)."""
    return next((i for i, a in enumerate(mesh.axes) if a.size < 1), -1)


def failing_mesh_of(attr, failure_of) -> MeshAttr | None:
    """The mesh that makes ``attr`` (a mesh, or a sharding with its mesh inline) fail ``failure_of``."""
    if isinstance(attr, MeshAttr):
        return attr if failure_of(attr) is not None else None
    shardings = attr.shardings if isinstance(attr, TensorShardingPerValueAttr) else \
        [attr] if isinstance(attr, TensorShardingAttr) else []
    for sharding in shardings:
        if isinstance(sharding.mesh_or_ref, MeshAttr) and failure_of(sharding.mesh_or_ref) is not None:
            return sharding.mesh_or_ref
    return None


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


def failing_mesh_place(unit, failure_of) -> tuple[int, int]:
    """Where Shardy reports the failing mesh of ``unit`` (a mesh or a sharding): (which inline mesh of
    ``unit`` it is, -1 for ``unit`` itself; the index of the axis whose name it is reported at, -1 for the
    mesh's ``<``)."""
    failing = failing_mesh_of(unit, failure_of)
    return failing_inline_mesh(unit, failure_of), failing_axis(failing) if failing is not None else -1


def place_property_failure(op: Operation, f: Failure, positions: SourcePositions, failure_of) -> Failure:
    """``f``, a parse-time failure of a mesh among ``op``'s properties (``sdy.mesh @m = <...>``, a sharding
    with its mesh inline), placed where Shardy's parser meets it: the mesh's ``<``, or its axis's name."""
    def judge(text: str) -> int | None:
        mesh = embedded_sdy_attributes(text)[0]
        if not isinstance(mesh, MeshAttr) or failure_of(mesh) is None:
            return None
        return failing_axis(mesh)

    if op.loc is None:
        return f
    at = positions.failing_mesh_in_op(op.loc, _next_op_location(op), judge)
    return Failure(f.message, f.notes, at) if at is not None else f


def _next_op_location(op: Operation) -> Location | None:
    """The location of the op written next after ``op``'s own text: its first nested op, else the op after
    it (or after an op around it); None at the end."""
    for region in op.regions:
        for block in region.blocks:
            if block.ops:
                return block.ops[0].loc
    while op is not None:
        block = op.parent
        if block is None:
            return None
        ops = block.ops
        i = next((k for k, o in enumerate(ops) if o is op), len(ops))
        if i + 1 < len(ops):
            return ops[i + 1].loc
        op = op.parent_op
    return None
