"""Building an ``Explanation`` of one value's sharding from the propagation debug attributes:
per dimension and axis, the user sharding it came from and the ops it travelled through (read
back from ``sdy.propagation_edges``, latest step first); and, for the op defining the value, the
axes of its other tensors that could have reached the value through the op's sharding rule but
did not, with the axis or priority that kept each away."""
from __future__ import annotations

from dataclasses import dataclass, field

from shardy_py.explanation.origins import (
    Node,
    UserSharding,
    axis_text,
    edges_of,
    enclosing_func,
    iter_edge_entries,
    lookup_origin,
    resolve_user_sharding,
    result_edges,
    returned_value,
)
from shardy_py.ir.attrs import AxisRefAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Location, Operation
from shardy_py.verify.axes import overlaps

#: Longest chain followed (a guard: every hop goes to a strictly earlier step anyway).
MAX_HOPS = 256


@dataclass(frozen=True)
class Hop:
    """The axis reached ``target`` from ``source`` when propagation went through ``op`` at ``step``."""

    step: int
    op: str
    loc: Location | None
    source: str
    target: str
    came_from: str


@dataclass
class AxisStory:
    """Where one axis of one dimension of the value came from."""

    dim: int
    axis: AxisRefAttr
    origin: UserSharding | None
    hops: list[Hop] = field(default_factory=list)

    @property
    def priority(self) -> int | None:
        return self.origin.dim_and_priority(self.axis)[1] if self.origin is not None else None


@dataclass
class KeptAway:
    """An axis of another tensor of the defining op that maps to dimension ``value_dim`` of the
    value but is not there, and why."""

    axis: AxisRefAttr
    tensor: str
    tensor_dim: int
    value_dim: int
    origin: UserSharding | None
    reason: str
    winner: AxisStory | None = None

    @property
    def priority(self) -> int | None:
        return self.origin.dim_and_priority(self.axis)[1] if self.origin is not None else None


@dataclass
class Explanation:
    """Why a value is sharded the way it is; ``str()`` is text for a terminal, ``_repr_html_``
    a table for notebooks."""

    label: str
    loc: Location | None
    sharding: TensorShardingAttr | None
    stories: list[AxisStory]
    kept_away: list[KeptAway]
    notes: list[str] = field(default_factory=list)
    source_name: str | None = None

    def __str__(self) -> str:
        from shardy_py.explanation.render import explanation_text

        return explanation_text(self)

    def _repr_html_(self) -> str:
        from shardy_py.explanation.render import explanation_html

        return explanation_html(self)


def _has_axis(node: Node, axis: AxisRefAttr) -> bool:
    sharding = node.sharding()
    return sharding is not None and any(overlaps(a, axis) for d in sharding.dim_shardings for a in d.axes)


def _ref_text(ref) -> str:
    return f"{ref.type} {ref.index}"


def _arrivals(node: Node, axis: AxisRefAttr, bound: int) -> list[tuple[int, Hop, Node]]:
    """Every recorded edge that brought ``axis`` to ``node`` before step ``bound``."""
    out: list[tuple[int, Hop, Node]] = []

    def add(step, op: Operation, op_label: str, entry, next_node: Node | None, target: str) -> None:
        if step >= bound or next_node is None or not _has_axis(next_node, axis):
            return
        out.append((step, Hop(step, op_label, op.loc, _ref_text(entry.source), target, next_node.label), next_node))

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
    """The hops that brought ``axis`` to ``node``, from ``node`` back toward the user sharding
    ``origin_name`` (earliest arrival at each node, steps strictly decreasing)."""
    hops: list[Hop] = []
    bound = 1 << 62
    current = node
    for _ in range(MAX_HOPS):
        if origin_name is not None and current.own_origin_name() == origin_name:
            break
        arrivals = _arrivals(current, axis, bound)
        if not arrivals:
            break
        step, hop, next_node = min(arrivals, key=lambda a: a[0])
        hops.append(hop)
        bound, current = step, next_node
    return hops


def _story(node: Node, dim: int, axis: AxisRefAttr, module: Module, original: Module | None,
           func: Operation | None) -> AxisStory:
    origin_name = lookup_origin(node.origins(), axis)
    origin = resolve_user_sharding(origin_name, func, module, original) if origin_name is not None else None
    return AxisStory(dim, axis, origin, trace_axis(node, axis, origin_name))


def explain_node(node: Node, module: Module, original: Module | None) -> Explanation:
    """The explanation of ``node``'s sharding."""
    func = node.func if node.is_func_result else enclosing_func(node.owner)
    sharding = node.sharding()
    notes: list[str] = []
    stories: list[AxisStory] = []
    if node.origins() is None:
        if _has_origins(module):
            notes.append("Shardy recorded no sdy.sharding_origins for this value (an op made after propagation, "
                         "such as a call the pipeline restored, or an empty entry of a data-flow op's list)")
        else:
            notes.append("no sdy.sharding_origins recorded for this value: propagate with debug_sharding_origins=True "
                         "(and debug_propagation_edge_sharding=True for the ops it travelled through)")
    if sharding is not None:
        for d, dim in enumerate(sharding.dim_shardings):
            for axis in dim.axes:
                stories.append(_story(node, d, axis, module, original, func))
    kept = kept_away(node, stories, module, original, func)
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


def _priority_text(p: int | None) -> str:
    return f"p{p}" if p is not None else "no priority (p0)"


def _reason(axis_text: str, winner: AxisStory | None, origin: UserSharding | None) -> str:
    if winner is None:
        return f"{axis_text} was not propagated here (the factor's other shardings or divisibility blocked it)"
    where = winner.origin.description if winner.origin is not None else "an unknown origin"
    text = f"{axis_text} already shards dimension {winner.dim} of this value, from {where}"
    mine = origin.dim_and_priority(winner.axis)[1] if origin is not None else None
    theirs = winner.priority
    if origin is None or winner.origin is None:
        return text
    a, b = theirs or 0, mine or 0
    if a < b:
        return text + f"; its priority {_priority_text(theirs)} is propagated before {_priority_text(mine)}"
    if a == b:
        return text + (f"; both have {_priority_text(theirs)}, so no priority decided: the propagation "
                       "strategy's conflict resolution did")
    return text + f"; it got there first although {_priority_text(mine)} comes before {_priority_text(theirs)}"


def kept_away(node: Node, stories: list[AxisStory], module: Module, original: Module | None,
              func: Operation | None) -> list[KeptAway]:
    """The axes of the defining op's other tensors that map to a dimension of ``node`` through the
    op's sharding rule but are not on that dimension."""
    from shardy_py.rules.sharding_rule import sharding_rule

    value = returned_value(node) if node.is_func_result else node.value
    if value is None or value.is_block_argument:
        return []
    op = value.owner
    rule = sharding_rule(op)
    sharding = node.sharding()
    if rule is None or sharding is None or value.index >= len(rule.result_mappings):
        return []
    mine = rule.result_mappings[value.index].dim_mappings
    tensors = [(f"operand {i}", Node(v), rule.operand_mappings[i]) for i, v in enumerate(op.operands)
               if i < len(rule.operand_mappings)]
    tensors += [(f"result {i}", Node(v), rule.result_mappings[i]) for i, v in enumerate(op.results)
                if i != value.index and i < len(rule.result_mappings)]
    out: list[KeptAway] = []
    for role, tensor, mapping in tensors:
        other = tensor.sharding()
        if other is None:
            continue
        for dt, dim in enumerate(other.dim_shardings):
            if dt >= len(mapping.dim_mappings):
                continue
            factors = set(mapping.dim_mappings[dt].factor_indices)
            targets = [dv for dv, m in enumerate(mine) if factors & set(m.factor_indices)]
            for axis in dim.axes:
                for dv in targets:
                    if dv < len(sharding.dim_shardings) and any(overlaps(a, axis)
                                                                for a in sharding.dim_shardings[dv].axes):
                        continue
                    winner = next((s for s in stories if s.dim != dv and overlaps(s.axis, axis)), None)
                    origin_name = lookup_origin(tensor.origins(), axis)
                    origin = (resolve_user_sharding(origin_name, func, module, original)
                              if origin_name is not None else None)
                    out.append(KeptAway(axis, f"{role} of {op.name}: {tensor.label}", dt, dv, origin,
                                        _reason(axis_text(axis), winner, origin), winner))
    return out
