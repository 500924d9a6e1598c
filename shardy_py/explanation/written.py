"""The user shardings of a value as written in the module before propagation (``original``):
its own (a function argument or result, an op's ``sdy.sharding``, a sharding constraint or reshard,
a manual computation's in/out sharding, found by op name and location) and those of the sharding
constraints applied to it; what ``explain`` reads closed dimensions, replicated axes and the origin
of axes Shardy recorded no origin for from."""
from __future__ import annotations

from shardy_py.explanation.origins import Node, UserSharding, _arg_sharding, _func, func_name
from shardy_py.ir.attrs import AxisRefAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Value
from shardy_py.passes.func_calls import fully_open, result_sharding
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import overlaps

__all__ = ["written_sharding", "written_origin", "constraints_on", "open_sharding"]


def written_origin(node: Node, axis: AxisRefAttr, original: Module | None) -> UserSharding | None:
    """``node``'s own user sharding as written in ``original`` as the origin of ``axis``, when it has
    the axis (for the user shardings no origin is recorded for, such as an op's ``sdy.sharding``)."""
    found = written_sharding(node, original)
    if found is None or not any(overlaps(a, axis) for d in found[1].dim_shardings for a in d.axes):
        return None
    return UserSharding("written", found[0], node.loc, found[1])


def written_sharding(node: Node, original: Module | None) -> tuple[str, TensorShardingAttr] | None:
    """(where, sharding) of ``node``'s user sharding as written in ``original``, when it has one:
    a function argument or result, or (found by op name and location) an op's ``sdy.sharding``, a
    sharding constraint or reshard, a manual computation's in/out sharding."""
    if original is None:
        return None
    if node.is_func_result:
        func = _func(original, func_name(node.func))
        found = result_sharding(func, node.result) if func is not None else None
        return (f"the sharding of result {node.result} of @{func_name(node.func)} as written", found) if found else None
    value, owner = node.value, node.owner
    if owner is None:
        return None
    if isinstance(value.owner, Block) and owner.name == "func.func":
        if value.owner is not owner.regions[0].blocks[0]:
            return None
        func = _func(original, func_name(owner))
        found = _arg_sharding(func, value.index) if func is not None else None
        name = f" ({value.name})" if value.name else ""
        if found is None:
            return None
        return f"the sharding of argument {value.index}{name} of @{func_name(owner)} as written", found
    names = ("sdy.sharding_constraint", "sdy.reshard") if owner.name == "sdy.reshard" else (owner.name,)
    op = next((op for op in original.walk() if op.name in names and op.loc == owner.loc), None)
    if op is None:
        return None
    line = op.loc.line
    if op.name == "sdy.manual_computation":
        key, side = ("in_shardings", "in") if isinstance(value.owner, Block) else ("out_shardings", "out")
        shardings = op.properties[key].shardings
        if value.index < len(shardings):
            return f"{side}_shardings[{value.index}] of the manual computation at line {line}", shardings[value.index]
        return None
    if isinstance(value.owner, Block):
        return None
    if op.name in ("sdy.sharding_constraint", "sdy.reshard"):
        kind = "sharding constraint" if op.name == "sdy.sharding_constraint" else "reshard"
        return f"the {kind} at line {line}", op.properties.get("sharding")
    shardings = getattr(op.attributes_view.get("sdy.sharding"), "shardings", ())
    if value.index < len(shardings):
        return f"the sdy.sharding of {op.name} at line {line} as written", shardings[value.index]
    return None
    return None


def constraints_on(value: Value, sharding: TensorShardingAttr, original: Module | None
                    ) -> list[tuple[str, TensorShardingAttr]]:
    """The sharding constraints (reshards after the pipeline) using ``value`` whose sharding, as
    written in ``original``, has ``value``'s axes on every dimension (a constraint applied to it)."""
    if original is None:
        return []
    out: list[tuple[str, TensorShardingAttr]] = []
    for use in value.uses:
        if use.op.name not in ("sdy.reshard", "sdy.sharding_constraint"):
            continue
        before = next((op for op in original.walk()
                       if op.name == "sdy.sharding_constraint" and op.loc == use.op.loc), None)
        written = before.properties.get("sharding") if before is not None else None
        if written is not None and [d.axes for d in written.dim_shardings] == [d.axes for d in sharding.dim_shardings]:
            out.append((f"the sharding constraint at line {before.loc.line} on it, whose axes it has", written))
    return out


def open_sharding(value: Value) -> TensorShardingAttr | None:
    """A fully open sharding for an unsharded ``value``, on the mesh of the first sharded tensor of an
    op it is a tensor of (None when there is none)."""
    ops = ([] if isinstance(value.owner, Block) else [value.owner]) + [use.op for use in value.uses]
    for op in ops:
        for other in list(op.operands) + list(op.results):
            found = get_sharding(other) if other is not value else None
            if found is not None:
                return fully_open(found.mesh_or_ref, len(getattr(value.type, "shape", ()) or ()))
    return None
