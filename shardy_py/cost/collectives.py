"""Every collective of a module, with what it moves: its kind, tensor type, mesh axes, group size,
bytes each device sends and receives, and the stages the time model reads (``topology``).

Shardy's collectives (``sdy.all_gather``, ``all_slice``, ``all_reduce``, ``reduce_scatter``,
``all_to_all``, ``collective_permute``, ``sharded_to_unreduced``, ``replicated_to_unreduced``) are
read from their axes and shardings: the operand's local bytes under its sharding, and each axis's
size.  StableHLO's collectives already in the module (``all_gather``, ``all_reduce``,
``reduce_scatter``, ``all_to_all``, ``collective_permute``, ``collective_broadcast``: a
``shard_map``'s ``psum``, a partitioned module) are read from their replica groups (mesh axes
``#stablehlo.replica_group_mesh_axes<...>``, or device groups matched against the mesh to name their
axes) and their local types.

Bytes per device (equal sent and received): an all-gather ``(n-1)`` times its input, a
reduce-scatter ``(n-1)`` times its output, an all-reduce ``2(n-1)`` chunks of ``ceil(S/n)``, an
all-to-all ``(n-1)`` chunks of ``ceil(S/n)``, a collective permute its whole buffer when any device's
data moves (else nothing), an all-slice and the unreduced conversions nothing (each device keeps or
zeroes part of what it holds).  A reshard between two meshes (which ``sdy-reshard-to-collectives``
leaves as ``sdy.reshard``, kind ``reshard``) moves to the device that needs most what it does not
hold yet (its output shard less its input shard, on a device of both meshes), sent and received,
timed as a gather of the output over the larger mesh.  A collective in a loop whose trip count is
known (``loops``) runs that many times; ``executions`` says how many.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np

from shardy_py.cost.loops import executions
from shardy_py.cost.sizes import LocalSize, axes_size, mesh_of, value_size
from shardy_py.cost.topologies import Stage
from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, TensorShardingAttr
from shardy_py.ir.module import Module, sharding_of
from shardy_py.ir.ops import COLLECTIVE_OPS, Operation

#: The kind each collective op is reported as.
KINDS = {
    "sdy.all_gather": "all_gather", "sdy.all_slice": "all_slice", "sdy.all_reduce": "all_reduce",
    "sdy.reduce_scatter": "reduce_scatter", "sdy.all_to_all": "all_to_all",
    "sdy.collective_permute": "collective_permute", "sdy.sharded_to_unreduced": "sharded_to_unreduced",
    "sdy.replicated_to_unreduced": "replicated_to_unreduced",
    "stablehlo.all_gather": "all_gather", "stablehlo.all_reduce": "all_reduce",
    "stablehlo.reduce_scatter": "reduce_scatter", "stablehlo.all_to_all": "all_to_all",
    "stablehlo.collective_permute": "collective_permute", "stablehlo.collective_broadcast": "collective_broadcast",
    "sdy.reshard": "reshard",
}
STABLEHLO_COLLECTIVES = tuple(k for k in KINDS if k.startswith("stablehlo."))
#: Shardy ops that move data: its collectives, and the reshards ``sdy-reshard-to-collectives`` leaves
#: (between two meshes).
SDY_MOVING_OPS = (*COLLECTIVE_OPS, "sdy.reshard")


@dataclass
class Collective:
    """One collective op and what it moves per device (see the module docstring)."""

    kind: str
    operation: Operation
    function: str
    tensor_type: str
    mesh: str | None
    axes: tuple[str, ...]
    group_size: int
    input_bytes: int
    output_bytes: int
    bytes_sent: int
    bytes_received: int
    stages: tuple[Stage, ...]
    executions: int = 1
    executions_known: bool = True
    #: Filled in by ``reasons`` and ``report``.
    reason: object = None
    time_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def op_name(self) -> str:
        return self.operation.name

    @property
    def total_bytes(self) -> int:
        """Bytes sent per device over all executions."""
        return self.bytes_sent * self.executions


def axis_text(ref: AxisRefAttr) -> str:
    """``x`` or ``x:(2)4`` (an axis as the report names it)."""
    info = ref.sub_axis_info
    return ref.name if info is None else f"{ref.name}:({info.pre_size}){info.size}"


def _lists(attr) -> list[tuple[AxisRefAttr, ...]]:
    return [tuple(a.value) for a in attr.value] if attr is not None else []


def _size(size: LocalSize) -> int:
    return size.bytes or 0


def _enclosing_func(op: Operation) -> str:
    while op is not None and op.name != "func.func":
        op = op.parent_op
    if op is None:
        return "?"
    return str(op.properties_view.get("sym_name", "?"))


def _sdy(op: Operation, meshes: dict[str, MeshAttr]) -> Collective:
    name = op.name
    out_sharding: TensorShardingAttr = op.properties_view.get("out_sharding")
    mesh = mesh_of(out_sharding, meshes)
    in_size = _size(value_size(op.operands[0], meshes))
    out_size = _size(value_size(op.results[0], meshes))
    stages: list[Stage] = []
    axes: list[AxisRefAttr] = []
    if name == "sdy.all_gather":
        size = in_size
        for dim_axes in _lists(op.properties_view.get("gathering_axes")):
            for ref in dim_axes:
                n = ref.size(mesh) or 1
                size *= n
                stages.append(Stage("gather", ref.name, n, size))
                axes.append(ref)
    elif name == "sdy.reduce_scatter":
        size = in_size
        for dim_axes in _lists(op.properties_view.get("reduce_scatter_axes")):
            for ref in dim_axes:
                n = ref.size(mesh) or 1
                stages.append(Stage("scatter", ref.name, n, size))
                size = -(-size // n)
                axes.append(ref)
    elif name == "sdy.all_reduce":
        size = in_size
        for ref in op.properties_view.get("reduction_axes").value:
            n = ref.size(mesh) or 1
            stages.append(Stage("reduce", ref.name, n, size))
            size = -(-size // n)
            axes.append(ref)
    elif name == "sdy.all_to_all":
        for param in op.properties_view.get("params").value:
            for ref in param.axes:
                stages.append(Stage("all_to_all", ref.name, ref.size(mesh) or 1, in_size))
                axes.append(ref)
    elif name == "sdy.collective_permute":
        moved = _permute_moves(op, meshes)
        stages.append(Stage("permute", _slowest_axis(out_sharding), 1, in_size if moved else 0))
        axes.extend(a for d in out_sharding.dim_shardings for a in d.axes)
    elif name == "sdy.all_slice":
        for dim_axes in _lists(op.properties_view.get("slicing_axes")):
            axes.extend(dim_axes)
    elif name == "sdy.sharded_to_unreduced":
        for dim_axes in _lists(op.properties_view.get("axes")):
            axes.extend(dim_axes)
    elif name == "sdy.replicated_to_unreduced":
        axes.extend(op.properties_view.get("axes").value)
    sent = sum(s.bytes_sent() for s in stages)
    group = axes_size(axes, mesh) if mesh is not None and name != "sdy.collective_permute" else (
        mesh.total_size if mesh is not None else 1)
    return Collective(KINDS[name], op, _enclosing_func(op), str(op.operands[0].type),
                      out_sharding.mesh_name, tuple(axis_text(a) for a in axes), group, in_size, out_size, sent, sent,
                      tuple(stages))


def _cross_mesh(op: Operation, meshes: dict[str, MeshAttr]) -> Collective:
    """A reshard between two meshes (see the module docstring)."""
    before = value_size(op.operands[0], meshes)
    after = value_size(op.results[0], meshes)
    out_sharding = op.properties_view.get("sharding")
    source_mesh = mesh_of(sharding_of(op.operands[0]), meshes)
    target_mesh = mesh_of(out_sharding, meshes)
    need = after.bytes or 0
    held = before.bytes or 0
    if before.device is not None and after.device != before.device:
        held = 0  # the devices that need it hold nothing (or only one of them holds it)
    moved = max(need - held, 0)
    n = max((m.total_size for m in (source_mesh, target_mesh) if m is not None and not m.is_maximal), default=1)
    stages = (Stage("gather", None, n, need),) if moved else ()
    return Collective("reshard", op, _enclosing_func(op), str(op.operands[0].type),
                      out_sharding.mesh_name if out_sharding is not None else None, (), n, before.bytes or 0, need,
                      moved, moved, stages)


def _slowest_axis(sharding: TensorShardingAttr) -> str | None:
    axes = [a.name for d in sharding.dim_shardings for a in d.axes]
    return axes[0] if axes else None


def _permute_moves(op: Operation, meshes: dict[str, MeshAttr]) -> bool:
    """Whether a collective permute moves any device's data (its shard changes place)."""
    from shardy_py.hlo import device_slices
    from shardy_py.hlo.errors import HloShardingError

    before, after = sharding_of(op.operands[0]), op.properties_view.get("out_sharding")
    mesh = mesh_of(after, meshes)
    t = op.operands[0].type
    if before is None or mesh is None or not hasattr(t, "shape"):
        return True
    try:
        a = device_slices(t.shape, before, mesh_of(before, meshes) or mesh)
        b = device_slices(t.shape, after, mesh)
    except (HloShardingError, ValueError):
        return True
    return not (np.array_equal(a.devices, b.devices) and np.array_equal(a.starts, b.starts))


# -- StableHLO collectives -------------------------------------------------------------------------

_MESH_AXES = re.compile(r"#stablehlo\.replica_group_mesh_axes<\s*mesh\s*=\s*"
                        r"(@[\w$.\-]+|@\"[^\"]*\"|#sdy\.mesh<.*?>)\s*,"
                        r"\s*axes\s*=\s*\[(.*)\]\s*>\s*$", re.S)
_AXIS_REF = re.compile(r'#stablehlo\.axis_ref<\s*name\s*=\s*"([^"]*)"(?:\s*,\s*sub_axis_info\s*=\s*'
                       r'#stablehlo\.sub_axis_info<\s*pre_size\s*=\s*(\d+)\s*,\s*size\s*=\s*(\d+)\s*>)?\s*>')


def _mesh_axes_groups(text: str, meshes: dict[str, MeshAttr]):
    """``(mesh name, mesh, axis refs)`` of a ``#stablehlo.replica_group_mesh_axes``; None otherwise."""
    from shardy_py.ir.attrs import SubAxisInfoAttr

    m = _MESH_AXES.match(text.strip())
    if m is None:
        return None
    ref = m.group(1)
    if ref.startswith("@"):
        name = ref[1:].strip('"')
        mesh = meshes.get(name)
    else:
        from shardy_py.syntax.sdy_parser import parse_sdy

        name, mesh = None, parse_sdy(ref, "attribute")
    axes = [AxisRefAttr(a, SubAxisInfoAttr(int(p), int(s)) if p else None) for a, p, s in _AXIS_REF.findall(m.group(2))]
    return name, mesh, axes


def _dense_groups(attr) -> list[list[int]]:
    from shardy_py.syntax.attr_reader import parse_attribute

    try:
        parsed = parse_attribute(str(attr))
        values = np.asarray([int(v) for v in parsed.values()], dtype=np.int64).reshape(parsed.shape)
    except Exception:  # noqa: BLE001 - not a dense group list: no groups known
        return []
    if values.ndim == 1:
        values = values.reshape(1, -1)
    return [[int(v) for v in row if v >= 0] for row in values]


def _mesh_devices(mesh: MeshAttr) -> np.ndarray:
    ids = np.asarray(mesh.device_ids, dtype=np.int64) if mesh.device_ids else np.arange(mesh.total_size)
    return ids.reshape([a.size for a in mesh.axes] or [1])


def groups_to_axes(groups: list[list[int]], mesh: MeshAttr) -> tuple[str, ...] | None:
    """The mesh axes whose device groups are ``groups`` (in mesh order; every subset of axes is
    tried, smallest first), or None when none gives them."""
    if not groups or not mesh.axes:
        return None
    wanted = sorted(tuple(sorted(g)) for g in groups)
    devices = _mesh_devices(mesh)
    k = len(mesh.axes)
    for r in range(0, k + 1):
        for subset in itertools.combinations(range(k), r):
            rest = [i for i in range(k) if i not in subset]
            arranged = devices.transpose(rest + list(subset)).reshape(-1, int(np.prod([mesh.axes[i].size
                                                                                        for i in subset])))
            if sorted(tuple(sorted(int(x) for x in row)) for row in arranged) == wanted:
                return tuple(mesh.axes[i].name for i in subset)
    return None


def _enclosing_mesh(op: Operation, module: Module) -> tuple[str | None, MeshAttr | None]:
    """The mesh of the manual computation around ``op``, or the module's only mesh."""
    parent = op.parent_op
    while parent is not None:
        if parent.name == "sdy.manual_computation":
            shardings = parent.properties_view.get("in_shardings") or parent.properties_view.get("out_shardings")
            if shardings is not None and shardings.shardings:
                s = shardings.shardings[0]
                return s.mesh_name, mesh_of(s, module.meshes)
        parent = parent.parent_op
    meshes = {n: m for n, m in module.meshes.items() if not m.is_maximal}
    if len(set(meshes.values())) == 1:
        name = next(iter(meshes))
        return name, meshes[name]
    return None, None


def _stablehlo(op: Operation, module: Module) -> Collective:
    meshes = module.meshes
    kind = KINDS[op.name]
    sizes = [_size(value_size(v, meshes)) for v in op.operands]
    in_size = sum(sizes)
    out_size = sum(_size(value_size(v, meshes)) for v in op.results)
    key = "source_target_pairs" if kind == "collective_permute" else "replica_groups"
    raw = op.properties_view.get(key)
    if raw is None:
        raw = op.attributes_view.get(key)
    mesh_name, mesh, axes, n = None, None, (), 1
    parsed = _mesh_axes_groups(str(raw), meshes) if raw is not None else None
    if parsed is not None:
        mesh_name, mesh, refs = parsed
        axes = tuple(axis_text(r) for r in refs)
        n = axes_size(refs, mesh) if mesh is not None else 1
        per_axis = [(r.name, r.size(mesh) or 1) for r in refs] if mesh is not None else []
    else:
        groups = _dense_groups(raw) if raw is not None else []
        n = max((len(g) for g in groups), default=1)
        mesh_name, mesh = _enclosing_mesh(op, module)
        found = groups_to_axes(groups, mesh) if mesh is not None and kind != "collective_permute" else None
        if found is not None:
            axes = found
            per_axis = [(a, mesh.axis_size(a)) for a in found]
        else:
            per_axis = [(None, n)]
    stages: list[Stage] = []
    if kind in ("collective_permute", "collective_broadcast"):
        pairs = _dense_groups(raw) if raw is not None else []
        moves = any(len(set(p)) > 1 for p in pairs)
        stages.append(Stage("permute", per_axis[0][0] if per_axis else None, 1, in_size if moves else 0))
        if kind == "collective_permute":
            n = len({d for p in pairs for d in p})
    elif kind == "all_gather":
        size = in_size
        for a, k in per_axis:
            size *= k
            stages.append(Stage("gather", a, k, size))
    elif kind == "reduce_scatter":
        size = in_size
        for a, k in per_axis:
            stages.append(Stage("scatter", a, k, size))
            size = -(-size // k)
    elif kind == "all_reduce":
        size = in_size
        for a, k in per_axis:
            stages.append(Stage("reduce", a, k, size))
            size = -(-size // k)
    else:  # all_to_all
        for a, k in per_axis:
            stages.append(Stage("all_to_all", a, k, in_size))
    sent = sum(s.bytes_sent() for s in stages)
    types = ", ".join(str(v.type) for v in op.operands)
    return Collective(kind, op, _enclosing_func(op), types, mesh_name, axes, n, in_size, out_size, sent, sent,
                      tuple(stages))


def collectives(module: Module) -> list[Collective]:
    """Every collective of ``module`` (Shardy's and StableHLO's), in op order, with its bytes."""
    out = []
    meshes = module.meshes
    for op in module.walk():
        if op.name in COLLECTIVE_OPS:
            c = _sdy(op, meshes)
        elif op.name == "sdy.reshard":
            c = _cross_mesh(op, meshes)
        elif op.name in STABLEHLO_COLLECTIVES:
            c = _stablehlo(op, module)
        else:
            continue
        c.executions, c.executions_known = executions(op)
        out.append(c)
    return out
