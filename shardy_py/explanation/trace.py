"""Building an ``Explanation`` of one value's sharding from the propagation debug attributes: per
dimension and axis, the user sharding it came from and the ops it travelled through (read back from
``sdy.propagation_edges``, latest step first, crossing the calls the pipeline rebuilt after
propagation by callee name and index); the axes kept away are found by ``kept_away``."""
from __future__ import annotations

from shardy_py.explanation.calls import aliases, has_axis, node_origins, origin_func, own_origin_name
from shardy_py.explanation.kept_away import kept_away
from shardy_py.explanation.model import AxisStory, Explanation, Hop, KeptAway
from shardy_py.explanation.origins import (
    Node,
    edges_of,
    enclosing_func,
    iter_edge_entries,
    lookup_origin,
    resolve_user_sharding,
    result_edges,
    returned_value,
)
from shardy_py.explanation.written import written_origin
from shardy_py.ir.attrs import AxisRefAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation

__all__ = ["AxisStory", "Explanation", "Hop", "KeptAway", "explain_node", "trace_axis", "node_origins",
           "own_origin_name", "MAX_HOPS"]

#: Longest chain followed (a guard: every recorded hop goes to a strictly earlier step anyway).
MAX_HOPS = 256


def _ref_text(ref) -> str:
    return f"{ref.type} {ref.index}"


def _arrivals(node: Node, axis: AxisRefAttr, bound: int) -> list[tuple[int, Hop, Node]]:
    """Every recorded edge that brought ``axis`` to ``node`` before step ``bound``."""
    out: list[tuple[int, Hop, Node]] = []

    def add(step, op: Operation, op_label: str, entry, next_node: Node | None, target: str) -> None:
        if step >= bound or next_node is None or not has_axis(next_node, axis):
            return
        operation = op if op.name != "func.func" else None
        out.append((step, Hop(step, op_label, op.loc, _ref_text(entry.source), target, next_node.label, operation,
                              node), next_node))

    def on_op(op: Operation, ref) -> Node | None:
        values = op.operands if ref.type == "operand" else op.results
        return Node(values[ref.index]) if ref.index < len(values) else None

    if node.is_func_result:
        func = node.func
        for index in range(len(func.properties.get("res_attrs") or [])):
            for step, entry in iter_edge_entries(result_edges(func, index), axis):
                if any(t.type == "result" for t in entry.targets) and entry.source.type == "operand":
                    value = returned_value(node)
                    add(step, func, f"@{func.properties.get('sym_name')} results", entry,
                        Node(value) if value is not None else None, "the function result")
        return out
    value = node.value
    owner = node.owner
    if owner is not None and not node.value.is_block_argument:
        for step, entry in iter_edge_entries(edges_of(owner), axis):
            if any(t.type == "result" and t.index == value.index for t in entry.targets):
                add(step, owner, owner.name, entry, on_op(owner, entry.source), f"result {value.index}")
    for use in value.uses:
        user = use.op
        if user.name == "func.return":
            func = enclosing_func(user)
            if func is None or user.parent_op is not func:
                continue
            for index in range(len(func.properties.get("res_attrs") or [])):
                for step, entry in iter_edge_entries(result_edges(func, index), axis):
                    if entry.source.type == "result" and any(t.type == "operand" for t in entry.targets):
                        add(step, func, f"@{func.properties.get('sym_name')} results", entry,
                            Node(func=func, result=use.index), f"returned value {use.index}")
            continue
        for step, entry in iter_edge_entries(edges_of(user), axis):
            if any(t.type == "operand" and t.index == use.index for t in entry.targets):
                add(step, user, user.name, entry, on_op(user, entry.source), f"operand {use.index}")
    return out


def trace_axis(node: Node, axis: AxisRefAttr, origin_name: str | None) -> list[Hop]:
    """The hops that brought ``axis`` to ``node`` (see ``trace``)."""
    return trace(node, axis, origin_name)[0]


def trace(node: Node, axis: AxisRefAttr, origin_name: str | None) -> tuple[list[Hop], Node]:
    """The hops that brought ``axis`` to ``node``, from ``node`` back toward the user sharding
    ``origin_name``: the earliest recorded arrival at each node (steps strictly decreasing); where
    none is recorded, across a rebuilt call to the call's operand or the callee's returned value
    (a hop without a step, keeping the step bound)."""
    hops: list[Hop] = []
    bound = 1 << 62
    current = node
    visited = [node]
    for _ in range(MAX_HOPS):
        if origin_name is not None and own_origin_name(current) == origin_name:
            break
        arrivals = _arrivals(current, axis, bound)
        if arrivals:
            step, hop, current = min(arrivals, key=lambda a: a[0])
            hops.append(hop)
            bound = step
            visited.append(current)
            continue
        crossing = next(((hop, other) for hop, other in aliases(current)
                         if has_axis(other, axis) and not any(other.same(v) for v in visited)), None)
        if crossing is None:
            break
        hops.append(crossing[0])
        current = crossing[1]
        visited.append(current)
    return hops, current


def _story(node: Node, dim: int, axis: AxisRefAttr, module: Module, original: Module | None,
           func: Operation | None) -> AxisStory:
    origins, _where = node_origins(node)
    origin_name = lookup_origin(origins, axis)
    hops, last = trace(node, axis, origin_name)
    if origin_name is None and hops:
        # No origin recorded here (a value the pipeline rebuilt): the one where the chain ends.
        origin_name = lookup_origin(node_origins(last)[0], axis)
        func = last.func if last.is_func_result else enclosing_func(last.owner)
    origin = (resolve_user_sharding(origin_name, origin_func(func), module, original)
              if origin_name is not None else None)
    if origin is None:
        # No origin recorded at all: the user sharding written on the chain's end (or the value).
        origin = written_origin(last, axis, original) or written_origin(node, axis, original)
    return AxisStory(dim, axis, origin, hops)


def node_stories(node: Node, module: Module, original: Module | None) -> list[AxisStory]:
    """Where each axis of ``node``'s sharding came from, dimension by dimension (no axes kept away)."""
    func = node.func if node.is_func_result else enclosing_func(node.owner)
    sharding = node.sharding()
    if sharding is None:
        return []
    return [_story(node, d, axis, module, original, func)
            for d, dim in enumerate(sharding.dim_shardings) for axis in dim.axes]


def explain_node(node: Node, module: Module, original: Module | None) -> Explanation:
    """The explanation of ``node``'s sharding."""
    sharding = node.sharding()
    notes: list[str] = []
    stories: list[AxisStory] = []
    origins, where = node_origins(node)
    if sharding is None or not any(dim.axes for dim in sharding.dim_shardings):
        notes.append("no axis shards this value" + ("" if sharding is not None else " (it has no sharding)"))
    elif node.origins() is None and origins is not None:
        notes.append("Shardy recorded no sdy.sharding_origins for this value (the pipeline rebuilt its call or "
                     f"callee from an sdy.named_computation after propagation): read from {where.label}")
    elif origins is None:
        if _has_origins(module):
            notes.append("no sdy.sharding_origins were recorded for this value")
        else:
            notes.append("no sdy.sharding_origins recorded for this value: propagate with debug_sharding_origins=True "
                         "(and debug_propagation_edge_sharding=True for the ops it travelled through)")
    if sharding is not None:
        stories = node_stories(node, module, original)
    kept = kept_away(node, stories, module, original)
    return Explanation(node.label, node.loc, sharding, stories, kept, notes)


def _has_origins(module: Module) -> bool:
    """Whether propagation recorded origins anywhere in ``module``."""
    for op in module.walk():
        if op.name == "func.func":
            if any("sdy.sharding_origins" in (d or {}) for d in op.properties.get("res_attrs") or []):
                return True
            if op.regions and op.regions[0].blocks and any(
                    "sdy.sharding_origins" in a.attributes for a in op.regions[0].blocks[0].arguments):
                return True
        elif any(k.endswith("sharding_origins") for k in op.attributes_view):
            return True
    return False
