"""Build shardings from PartitionSpecs (JAX / torch_xla semantics) and attach them to a module.

A partition spec has one entry per tensor dimension, major dimension first:

* ``None``: the dimension is replicated (closed, ``{}``);
* ``"x"``: sharded along mesh axis ``x`` (``{"x"}``);
* ``("x", "y")``: sharded along ``x`` then ``y``, major to minor (``{"x", "y"}``);
* ``UNCONSTRAINED``: left open for propagation (``{?}``).

Missing trailing entries mean ``None``.  ``priority=(0, 1)`` gives per-dimension
priorities (``{"x"}p0, {"y"}p1``), as torch_xla's ``mark_sharding(..., priority=...)``
lowers them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from shardy_py.ir.attrs import (
    REDUCTION_KINDS,
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import RankedTensorType

if TYPE_CHECKING:  # (``Module.mark_sharding`` calls in here)
    from shardy_py.ir.module import Module


class ShardingSpecError(ValueError):
    """A partition spec, priority list or target value that cannot become a Shardy sharding."""


class _Unconstrained:
    """The ``UNCONSTRAINED`` sentinel: the dimension is open (``{?}``)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNCONSTRAINED"

    def __reduce__(self):
        return (_Unconstrained, ())


UNCONSTRAINED = _Unconstrained()


def _is_unconstrained(entry) -> bool:
    # Also accept JAX's own sentinel (``PartitionSpec.UNCONSTRAINED``) without importing jax.
    return entry is UNCONSTRAINED or type(entry).__name__ == "UnconstrainedSingleton"


def _axis_ref(entry, mesh: MeshAttr, where: str) -> AxisRefAttr:
    if isinstance(entry, AxisRefAttr):
        ref = entry
    elif isinstance(entry, str):
        ref = AxisRefAttr(entry)
    else:
        raise ShardingSpecError(f"{where}: expected a mesh axis name, got {entry!r}")
    if mesh.axis_size(ref.name) is None:
        known = ", ".join(repr(n) for n in mesh.axis_names) or "none"
        raise ShardingSpecError(f"{where}: unknown mesh axis {ref.name!r} (the mesh has axes {known})")
    return ref


def _axes_of(entry, mesh: MeshAttr, where: str) -> tuple[AxisRefAttr, ...]:
    if entry is None:
        return ()
    if isinstance(entry, (str, AxisRefAttr)):
        return (_axis_ref(entry, mesh, where),)
    if isinstance(entry, (tuple, list)):
        return tuple(_axis_ref(e, mesh, where) for e in entry)
    raise ShardingSpecError(f"{where}: expected None, an axis name, a tuple of axis names or UNCONSTRAINED, "
                            f"got {entry!r}")


def _check_unique(used: list[tuple[AxisRefAttr, str]], ref: AxisRefAttr, mesh: MeshAttr, where: str) -> None:
    """Reject ``ref`` when it overlaps an axis already used (same axis, overlapping sub-axis range)."""
    full = mesh.axis_size(ref.name)
    lo, hi = ref.pre_size, ref.pre_size * (ref.size(mesh) or full)
    for other, other_where in used:
        if other.name != ref.name:
            continue
        olo, ohi = other.pre_size, other.pre_size * (other.size(mesh) or full)
        if max(lo, olo) < min(hi, ohi):
            if other == ref:
                raise ShardingSpecError(f"mesh axis {ref.name!r} is used twice: in {other_where} and in {where}")
            raise ShardingSpecError(f"axes {other} ({other_where}) and {ref} ({where}) overlap")
    used.append((ref, where))


def _resolve_mesh(mesh: MeshAttr | str, module: Module | None) -> MeshAttr:
    if isinstance(mesh, MeshAttr):
        return mesh
    if module is None:
        raise ShardingSpecError(f"mesh {mesh!r} is a name: pass the module that defines it (module=...)")
    found = module.meshes.get(mesh)
    if found is None:
        known = ", ".join("@" + n for n in module.meshes) or "none"
        raise ShardingSpecError(f"the module has no mesh @{mesh} (meshes: {known})")
    return found


def named_sharding(mesh: MeshAttr | str, partition_spec: Sequence, *, priority: Sequence[int | None] | None = None,
                   unreduced: Iterable[str] = (), reduction: str = "sum", mesh_name: str | None = None,
                   module: Module | None = None, rank: int | None = None) -> TensorShardingAttr:
    """The ``TensorShardingAttr`` for ``partition_spec`` on ``mesh``.

    ``mesh`` is a ``MeshAttr`` (the sharding then carries it inline, unless ``mesh_name``
    names it) or the name of an ``sdy.mesh`` of ``module``.  ``rank`` pads the spec with
    ``None`` up to the tensor rank.  Raises ``ShardingSpecError`` for unknown axes, an axis
    used twice, a priority list of the wrong length, negative priorities or a priority on a
    replicated (closed, empty) dimension, which Shardy rejects.

    >>> str(named_sharding(mesh, ("x", None, UNCONSTRAINED), priority=(0, None, 1), mesh_name="m"))
    '#sdy.sharding<@m, [{"x"}p0, {}, {?}p1]>'
    """
    ref_name = mesh_name if mesh_name is not None else (mesh if isinstance(mesh, str) else None)
    mesh = _resolve_mesh(mesh, module)
    spec = list(partition_spec)
    if rank is not None:
        if len(spec) > rank:
            raise ShardingSpecError(f"partition spec {tuple(spec)} has {len(spec)} entries for a rank-{rank} tensor")
        spec += [None] * (rank - len(spec))
    if priority is not None:
        priority = list(priority)
        if len(priority) > len(spec) and rank is None:
            raise ShardingSpecError(f"priority has {len(priority)} entries but the partition spec has {len(spec)}")
        priority += [None] * (len(spec) - len(priority))
        if len(priority) != len(spec):
            raise ShardingSpecError(f"priority has {len(priority)} entries but the partition spec has {len(spec)}")
    used: list[tuple[AxisRefAttr, str]] = []
    dims = []
    for i, entry in enumerate(spec):
        where = f"dimension {i}"
        is_open = _is_unconstrained(entry)
        axes = () if is_open else _axes_of(entry, mesh, where)
        for ref in axes:
            _check_unique(used, ref, mesh, where)
        prio = None if priority is None else priority[i]
        if prio is not None:
            if not isinstance(prio, int) or isinstance(prio, bool):
                raise ShardingSpecError(f"{where}: priority must be an int or None, got {prio!r}")
            if prio < 0:
                raise ShardingSpecError(f"{where}: priority must be non-negative, got {prio}")
            if not axes and not is_open:
                raise ShardingSpecError(f"{where}: a replicated (None) dimension cannot have a priority "
                                        f"(Shardy rejects an empty closed dimension with a priority)")
        dims.append(DimensionShardingAttr(axes, not is_open, prio))
    if reduction not in REDUCTION_KINDS:
        raise ShardingSpecError(f"reduction must be one of {', '.join(REDUCTION_KINDS)}, got {reduction!r}")
    unreduced_refs = []
    for entry in unreduced:
        ref = _axis_ref(entry, mesh, "unreduced")
        _check_unique(used, ref, mesh, "unreduced")
        unreduced_refs.append(ref)
    order = {name: i for i, name in enumerate(mesh.axis_names)}
    unreduced_refs.sort(key=lambda r: (order[r.name], r.pre_size))  # Shardy wants mesh order
    return TensorShardingAttr(ref_name if ref_name is not None else mesh, tuple(dims), (), tuple(unreduced_refs),
                              reduction)


_RESULT = re.compile(r"^result\s*(\d+)$")


def func_result(module: Module, value, func: str | None) -> tuple[Operation, int] | None:
    """``(func op, index)`` when ``value`` is ``"result N"``: result N of ``func`` (default ``@main``,
    or the only function); None for any other value."""
    match = _RESULT.match(value.strip()) if isinstance(value, str) else None
    if match is None:
        return None
    funcs = module.funcs
    name = func if func is not None else ("main" if "main" in funcs or len(funcs) != 1 else next(iter(funcs)))
    if name not in funcs:
        raise ShardingSpecError(f"the module has no func @{name}")
    index = int(match.group(1))
    count = len(funcs[name].properties_view.get("result_types") or ())
    if index >= count:
        raise ShardingSpecError(f"@{name} has {count} result(s); there is no result {index}")
    return funcs[name], index


def _find_value(module: Module, value: Value | str, func: str | None) -> Value:
    if isinstance(value, Value):
        return value
    if not isinstance(value, str):
        raise ShardingSpecError(f"expected a Value or a value name like '%arg0', got {value!r}")
    funcs = module.funcs
    if func is not None and func not in funcs:
        raise ShardingSpecError(f"the module has no func @{func}")
    for name, f in funcs.items():
        if func is not None and name != func:
            continue
        for op in f.walk():
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if arg.name == value:
                            return arg
            for res in op.results:
                if res.name == value:
                    return res
    raise ShardingSpecError(f"no value named {value} in " + (f"@{func}" if func else "the module's funcs"))


def mark_sharding(module: Module, value: Value | str, mesh_name: str, partition_spec: Sequence, *,
                  priority: Sequence[int | None] | None = None, unreduced: Iterable[str] = (),
                  reduction: str = "sum", func: str | None = None) -> TensorShardingAttr:
    """Attach ``partition_spec`` on mesh ``@mesh_name`` to ``value`` of ``module`` (in place).

    ``value`` is a ``Value`` or its name (``"%arg0"``, ``"%3"``, looked up in ``func`` or in
    every func), or ``"result N"`` for result N of function ``func`` (default ``@main``, or the
    only function).  A func argument or result gets ``{sdy.sharding = ...}``; an op result gets its
    entry of the op's ``sdy.sharding`` per-value attribute (other results keep theirs, or become
    fully open).  Returns the sharding attached.
    """
    result = func_result(module, value, func)
    if result is not None:
        op, index = result
        rtype = op.properties_view["result_types"][index]
        if not isinstance(rtype, RankedTensorType):
            raise ShardingSpecError(f"result {index} has type {rtype}: only ranked tensors can be sharded")
        sharding = named_sharding(mesh_name, partition_spec, priority=priority, unreduced=unreduced,
                                  reduction=reduction, module=module, rank=rtype.rank)
        entries = [dict(e) for e in (op.properties.get("res_attrs") or [{} for _ in op.properties["result_types"]])]
        entries[index]["sdy.sharding"] = sharding
        op.properties["res_attrs"] = entries
        return sharding
    target = _find_value(module, value, func)
    vtype = target.type
    if not isinstance(vtype, RankedTensorType):
        raise ShardingSpecError(f"{target.name} has type {vtype}: only ranked tensors can be sharded")
    sharding = named_sharding(mesh_name, partition_spec, priority=priority, unreduced=unreduced,
                              reduction=reduction, module=module, rank=vtype.rank)
    owner = target.owner
    if isinstance(owner, Block):
        parent = owner.parent.parent if owner.parent is not None else None
        if parent is None or parent.name != "func.func":
            where = parent.name if parent is not None else "an unattached block"
            raise ShardingSpecError(f"{target.name} is an argument of {where}: only func.func arguments and op "
                                    "results can carry sdy.sharding")
        target.attributes["sdy.sharding"] = sharding
        return sharding
    op: Operation = owner
    if op.is_sdy:
        raise ShardingSpecError(f"{target.name} is a result of {op.name}, whose sharding is part of the op; "
                                "mark its operand or a user instead")
    existing = op.attributes.get("sdy.sharding")
    per_value = list(existing.shardings) if isinstance(existing, TensorShardingPerValueAttr) else []
    while len(per_value) < len(op.results):
        res = op.results[len(per_value)]
        res_rank = res.type.rank if isinstance(res.type, RankedTensorType) else 0
        per_value.append(TensorShardingAttr(mesh_name, tuple(DimensionShardingAttr((), False)
                                                             for _ in range(res_rank))))
    per_value[target.index] = sharding
    op.attributes["sdy.sharding"] = TensorShardingPerValueAttr(tuple(per_value))
    return sharding
