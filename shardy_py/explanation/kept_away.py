"""The axes that could have reached a value through an op's sharding rule but did not, and why.

Every op the value is an operand or a result of (its defining op and its users) is looked at: its
sharding rule (``shardy_py.sharding_rule``) projects the module's propagated shardings of all its
operands and results onto the rule's factors (``ShardingProjection``), and each axis another tensor
has on a factor the value is mapped to, but the value does not have on that dimension, is reported
with the first of these that holds in the module (each is what Shardy's factor propagation checks):

* ``blocked``: the rule blocks propagation along the factor;
* ``conflict``: the op's tensors disagree on the factor (two shardings of it, neither a prefix of
  the other), so propagation carries only their common prefix; which one the value took, and the
  priorities of both, are named;
* ``closed``: the value's dimension is closed in its user sharding as written (or in a sharding
  constraint on it whose axes it has);
* ``used``: the axis already shards another dimension of the value (with the priorities that
  decided, when its origin is known);
* ``replicated``: the axis is in the value's replicated or unreduced axes;
* ``manual``: the value is a manual computation's operand or result and the axis is manual there;
* ``strided``: a factor before it in the value's dimension is not fully sharded;
* ``prefix``: an axis before it on the factor is kept away (a factor's axes go as a prefix);
* ``divisibility``: the factor is not the minor-most of the value's dimension and its size is not
  divisible by the axis (or the axis overflows the factor in the other tensor);
* ``unknown``: none of the above shows in the module.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from shardy_py.explanation.calls import node_origins, origin_func, own_origin_name
from shardy_py.explanation.model import AxisStory, KeptAway
from shardy_py.explanation.origins import (
    Node,
    UserSharding,
    axis_text,
    enclosing_func,
    lookup_origin,
    resolve_user_sharding,
    returned_value,
)
from shardy_py.explanation.written import constraints_on, open_sharding, written_origin, written_sharding
from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, OpShardingRuleAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.propagation.basic_factor_propagation import BasicFactorPropagation
from shardy_py.passes.propagation.factor_propagation import PropagationDirection
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    PrefixStatus,
    ShardingProjection,
    is_axis_list_prefix_of,
)
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import axis_size, overlaps, prefix_without_overlap

__all__ = ["kept_away"]


@dataclass
class _Site:
    """One op the value is a tensor of, projected onto the op's factors."""

    op: Operation
    rule: OpShardingRuleAttr
    values: list[Value]
    projection: ShardingProjection
    mine: int
    mesh: MeshAttr

    def role(self, index: int) -> str:
        count = len(self.op.operands)
        return f"operand {index}" if index < count else f"result {index - count}"

    def mapping(self, index: int):
        count = len(self.op.operands)
        return self.rule.operand_mappings[index] if index < count else self.rule.result_mappings[index - count]

    def factor_dims(self, index: int) -> dict[int, int]:
        return {f: d for d, m in enumerate(self.mapping(index).dim_mappings) for f in m.factor_indices}


@dataclass
class _Context:
    """What every check needs about the value the axes were kept from (``own``: the origin name of
    its own user sharding, if it is one; ``subject``: how the reasons name it)."""

    node: Node
    own: str | None
    sharding: TensorShardingAttr
    module: Module
    original: Module | None
    written: list[tuple[str, TensorShardingAttr]]
    subject: str = "this value"

    @property
    def possessive(self) -> str:
        return "this value's" if self.subject == "this value" else f"{self.subject}'s"


def _priority_text(p: int | None) -> str:
    return f"p{p}" if p is not None else "no priority (p0)"


def priority_verdict(first: str, first_priority: int | None, second: str, second_priority: int | None) -> str:
    """``; ...``: in plain words, whether the priorities of two user shardings decided between them.

    A lower number is propagated first; a dimension without a priority counts as p0, the highest
    (and the default), so an explicit p0 ties with no priority."""
    a, b = (first_priority or 0), (second_priority or 0)
    if a == b:
        if first_priority is None and second_priority is None:
            both = "neither has a priority (both count as p0)"
        elif first_priority is None or second_priority is None:
            explicit, default = (first, second) if first_priority is not None else (second, first)
            both = f"both count as p0 ({explicit} has p0, {default} no priority, which is p0)"
        else:
            both = f"both have p{a}"
        return f"; {both}, so priority did not decide: the propagation strategy's conflict resolution did"
    (win, pw), (lose, pl) = sorted([(first, first_priority), (second, second_priority)], key=lambda x: x[1] or 0)
    return (f"; priority decided: {win} has {_priority_text(pw)}, propagated before {lose} with "
            f"{_priority_text(pl)} (a lower number goes first)")


def _origin_of(value: Value, axis: AxisRefAttr, module: Module, original: Module | None) -> UserSharding | None:
    origins, _where = node_origins(Node(value))
    name = lookup_origin(origins, axis)
    if name is None:
        return written_origin(Node(value), axis, original)
    return resolve_user_sharding(name, origin_func(enclosing_func(_owner_op(value))), module, original)


def _owner_op(value: Value) -> Operation | None:
    owner = value.owner
    if isinstance(owner, Block):
        return owner.parent.parent if owner.parent is not None else None
    return owner


def _priorities(mine: str, my_origin: UserSharding | None, my_axis: AxisRefAttr,
                theirs: str, their_origin: UserSharding | None, their_axis: AxisRefAttr) -> str:
    """How the priorities of the two user shardings compare ('' when an origin is unknown)."""
    if my_origin is None or their_origin is None:
        return ""
    return priority_verdict(mine, my_origin.dim_and_priority(my_axis)[1],
                            theirs, their_origin.dim_and_priority(their_axis)[1])


def _used_reason(ctx: _Context, axis: AxisRefAttr, dv: int, origin: UserSharding | None) -> str | None:
    for d, dim in enumerate(ctx.sharding.dim_shardings):
        if d == dv:
            continue
        there = next((a for a in dim.axes if overlaps(a, axis)), None)
        if there is None:
            clash = next((a for a in dim.axes if prefix_without_overlap(axis, a) != axis), None)
            if clash is not None:
                return (f"{axis_text(axis)} cannot be used with {axis_text(clash)}, which shards dimension {d} of "
                        f"{ctx.subject} (sub-axes of one axis that do not combine)")
            continue
        text = f"{axis_text(axis)} already shards dimension {d} of {ctx.subject}"
        winner = _origin_of(ctx.node.value, there, ctx.module, ctx.original)
        if winner is None:
            return text
        if ctx.own is not None and winner.origin == ctx.own:
            return text + ", in its own user sharding"
        text += f", from {winner.description}"
        if origin is None:
            return text
        mine, theirs = origin.dim_and_priority(axis)[1], winner.dim_and_priority(there)[1]
        return text + priority_verdict(f"{axis_text(there)} there", theirs, f"{axis_text(axis)} here", mine)
    return None


def _disagreeing(site: _Site, factor: int, prefix: list[AxisRefAttr], skip: int) -> tuple[int, AxisRefAttr] | None:
    """The first tensor (the value first) whose axes along ``factor`` disagree with ``prefix``, and its
    first differing axis."""
    order = [site.mine] + [i for i in range(len(site.values)) if i != site.mine]
    for index in order:
        if index == skip:
            continue
        fs = site.projection.tensors()[index].factor_index_to_sharding.get(factor)
        if fs is None:
            continue
        theirs = fs.axis_refs
        if (is_axis_list_prefix_of(theirs, prefix) is PrefixStatus.NOT_A_PREFIX
                and is_axis_list_prefix_of(prefix, theirs) is PrefixStatus.NOT_A_PREFIX):
            i = next(i for i, (a, b) in enumerate(zip(theirs, prefix, strict=False)) if a != b)
            return index, theirs[i]
    return None


def _conflict_reason(ctx: _Context, site: _Site, factor: int, fs: FactorSharding, pos: int, t: int,
                     axis: AxisRefAttr, origin: UserSharding | None) -> str | None:
    candidate = BasicFactorPropagation().get_compatible_major_axes(site.projection, factor, PropagationDirection.BOTH)
    if any(overlaps(a, axis) for a in candidate):
        return None
    found = _disagreeing(site, factor, fs.axis_refs[:pos + 1], t)
    if found is None:
        return None
    u, other = found
    value = site.values[u]
    their_origin = _origin_of(value, other, ctx.module, ctx.original)
    whence = f" (from {their_origin.description})" if their_origin is not None else ""
    if u == site.mine and their_origin is not None and their_origin.origin == ctx.own:
        return (f"{ctx.possessive} own user sharding has {axis_text(other)} there, and the op's tensors disagree "
                f"on the factor, so the rule carries only their common prefix")
    if u == site.mine:
        text = (f"{ctx.subject} has {axis_text(other)} there{whence}, and the op's tensors disagree on the factor, so "
                f"the rule carries only their common prefix")
        return text + _priorities(axis_text(other), their_origin, other, axis_text(axis), origin, axis)
    dim = site.factor_dims(u).get(factor)
    label = Node(value).label
    if their_origin is not None and not label.endswith(their_origin.description):
        whence = f", from {their_origin.description}"
    else:
        whence = ""
    text = (f"{site.role(u)} ({label}) has {axis_text(other)} on the same factor (its dimension {dim}{whence}): "
            f"the op's tensors disagree on it, so the rule carries only their common prefix (neither axis) to this "
            f"value")
    if origin is not None and their_origin is not None:
        text += priority_verdict(axis_text(axis), origin.dim_and_priority(axis)[1],
                                 axis_text(other), their_origin.dim_and_priority(other)[1])
    return text


def _divisibility_reason(ctx: _Context, site: _Site, factor: int, fs: FactorSharding, pos: int, t: int,
                         axis: AxisRefAttr) -> str | None:
    size = site.rule.factor_sizes[factor]
    n = axis_size(axis, site.mesh)
    if pos >= len(fs.axis_refs):
        return (f"in {site.role(t)} {axis_text(axis)} (size {n}) overflows factor {factor} of the rule (size {size}, "
                f"not divisible by it), and overflow axes are not propagated")
    mine = site.projection.tensors()[site.mine].factor_index_to_sharding.get(factor)
    if mine is None or mine.is_minor_most:
        return None
    prev = math.prod(axis_size(a, site.mesh) for a in fs.axis_refs[:pos])
    if size % prev == 0 and math.gcd(size // prev, n) != 1:
        return None
    rest = size // prev if size % prev == 0 else None
    left = f" (after axes of size {prev}: {rest} left)" if prev > 1 and rest is not None else ""
    return (f"factor {factor} of the rule (size {size}{left}) is not the minor-most factor of {ctx.possessive} "
            f"dimension, and {axis_text(axis)} (size {n}) does not divide it")


def _strided_reason(ctx: _Context, site: _Site, factor: int, dv: int) -> str | None:
    """Why the value's dimension cannot take axes of ``factor``: a factor before it in the dimension
    is not fully sharded (the dimension would need a strided view)."""
    mine = site.projection.tensors()[site.mine].factor_index_to_sharding
    for earlier in site.mapping(site.mine).dim_mappings[dv].factor_indices:
        if earlier == factor:
            return None
        fs = mine.get(earlier)
        sharded = math.prod(axis_size(a, site.mesh) for a in fs.axis_refs) if fs is not None else 1
        size = site.rule.factor_sizes[earlier]
        if sharded < size:
            return (f"dimension {dv} of {ctx.subject} is factors {_factors(site, dv)} of the rule, and factor "
                    f"{earlier} before factor {factor} is sharded {sharded} ways of {size}: the dimension can take "
                    f"axes of factor {factor} only once the factors before it are fully sharded")
    return None


def _factors(site: _Site, dv: int) -> str:
    return ", ".join(str(f) for f in site.mapping(site.mine).dim_mappings[dv].factor_indices)


def _why(ctx: _Context, site: _Site, t: int, factor: int, fs: FactorSharding, pos: int, axis: AxisRefAttr,
         dv: int, origin: UserSharding | None) -> tuple[str, str]:
    if factor in site.rule.blocked_propagation_factors:
        return "blocked", f"the op's sharding rule blocks propagation along factor {factor}"
    if pos < len(fs.axis_refs):
        text = _conflict_reason(ctx, site, factor, fs, pos, t, axis, origin)
        if text is not None:
            return "conflict", text
    for where, written in ctx.written:
        if dv < len(written.dim_shardings):
            dim = written.dim_shardings[dv]
            if dim.is_closed and not any(overlaps(a, axis) for a in dim.axes):
                return "closed", (f"dimension {dv} of {ctx.subject} is closed in {where} ({written}), "
                                  "so propagation adds no axis to it")
    text = _used_reason(ctx, axis, dv, origin)
    if text is not None:
        return "used", text
    for kind, axes in (("replicated", ctx.sharding.replicated_axes), ("unreduced", ctx.sharding.unreduced_axes)):
        if any(overlaps(a, axis) for a in axes):
            return "replicated", f"{axis_text(axis)} is one of {ctx.possessive} {kind} axes"
    for where, written in ctx.written:
        for kind, axes in (("replicated", written.replicated_axes), ("unreduced", written.unreduced_axes)):
            if any(overlaps(a, axis) for a in axes):
                return "replicated", f"{axis_text(axis)} is one of the {kind} axes of {where} ({written})"
    owner = ctx.node.owner
    if owner is not None and owner.name == "sdy.manual_computation":
        manual = tuple(getattr(owner.properties.get("manual_axes"), "axes", ()))
        if axis.name in manual:
            side = "in" if isinstance(ctx.node.value.owner, Block) else "out"
            listed = ", ".join(axis_text(AxisRefAttr(a)) for a in manual)
            return "manual", (f"{axis_text(axis)} is a manual axis of the manual computation (manual_axes="
                              f"{{{listed}}}), which its {side}_shardings cannot take")
    text = _strided_reason(ctx, site, factor, dv)
    if text is not None:
        return "strided", text
    mine = site.projection.tensors()[site.mine].factor_index_to_sharding.get(factor)
    for earlier in fs.axis_refs[:pos]:
        if mine is None or not any(overlaps(a, earlier) for a in mine.axis_refs):
            return "prefix", (f"it comes after {axis_text(earlier)} on that factor of {site.role(t)}, which is kept "
                              f"away too, and a factor's axes are propagated major to minor, as a prefix")
    text = _divisibility_reason(ctx, site, factor, fs, pos, t, axis)
    if text is not None:
        return "divisibility", text
    return "unknown", ("the module shows no conflict, closed dimension, used axis or divisibility that keeps it "
                       f"from {ctx.subject} through the op's rule")


def _sites(value: Value, sharding: TensorShardingAttr, table: MeshTable) -> list[_Site]:
    """The ops ``value`` is a tensor of (defining op first, then its users) that have a sharding rule
    and whose tensors are all on ``sharding``'s mesh."""
    from shardy_py.rules.sharding_rule import sharding_rule

    places: list[tuple[Operation, int]] = []
    if not isinstance(value.owner, Block):
        places.append((value.owner, len(value.owner.operands) + value.index))
    places += [(use.op, use.index) for use in value.uses if use.op.name != "func.return"]
    mesh = table.mesh_of(sharding)
    out: list[_Site] = []
    for op, index in places:
        rule = sharding_rule(op)
        if (rule is None or mesh is None or len(rule.operand_mappings) != len(op.operands)
                or len(rule.result_mappings) != len(op.results)):
            continue
        values = list(op.operands) + list(op.results)
        shardings = [get_sharding(v) for v in values]
        if any(s is not None and s.mesh_or_ref != sharding.mesh_or_ref for s in shardings):
            continue
        try:
            projection = ShardingProjection.build(shardings[:len(op.operands)], shardings[len(op.operands):],
                                                  rule, mesh)
        except ValueError:
            continue
        out.append(_Site(op, rule, values, projection, index, mesh))
    return out


#: Ops whose result is their operand 0 with another sharding: a dimension they leave unsharded has its
#: reason at the value they copy.
_COPIES = ("sdy.reshard", "sdy.sharding_constraint")


def _same_shape_inputs(value: Value) -> list[Value]:
    """The operands ``value`` is a copy or an elementwise function of (same type), where an
    unsharded dimension of ``value`` is the same dimension of each."""
    owner = value.owner
    if isinstance(owner, Block) or owner is None:
        return []
    if owner.name in _COPIES:
        return [owner.operands[0]]
    if len(owner.results) == 1 and owner.operands and not owner.regions and \
            all(o.type == value.type for o in owner.operands):
        return list(owner.operands)
    return []


def _along_chain(node: Node, module: Module, original: Module | None, table: MeshTable,
                 seen: set[tuple]) -> list[KeptAway]:
    """For the dimensions of ``node`` no axis shards: the axes kept from them where its chain leads
    (a function result's returned value, then back through reshards, constraints and elementwise
    ops), so a function's final result is explained by the op that decided it."""
    if not node.is_func_result:
        return []  # a value's own ops are looked at already; a function result has none
    start = returned_value(node)
    if start is None:
        return []
    sharding = node.sharding()
    rank = len(sharding.dim_shardings) if sharding is not None else len(getattr(start.type, "shape", ()) or ())
    unsharded = {d for d in range(rank) if sharding is None or not sharding.dim_shardings[d].axes}
    if not unsharded:
        return []
    out: list[KeptAway] = []
    queue = [start]
    visited: set[int] = set()
    while queue and len(visited) < 64:  # a guard on long chains
        value = queue.pop(0)
        if id(value) in visited:
            continue
        visited.add(id(value))
        inner = _context(Node(value), module, original, Node(value).label)
        if inner is not None and len(inner.sharding.dim_shardings) == rank:
            via = f"{Node(value).label}, where the chain of the result leads"
            found = [k for site in _sites(value, inner.sharding, table)
                     for k in _at_site(inner, site, unsharded, seen, via)]
            if found:  # the chain is explained here: what is further back decided this op's inputs
                out += found
                continue
        queue += _same_shape_inputs(value)
    return out


def _context(node: Node, module: Module, original: Module | None, subject: str) -> _Context | None:
    target = node
    if node.is_func_result:
        value = returned_value(node)
        if value is None or get_sharding(value) != node.sharding():
            return None
        target = Node(value)
    sharding = target.sharding() or open_sharding(target.value)
    if sharding is None:
        return None
    written = written_sharding(node, original)
    written_list = ([written] if written is not None else []) + constraints_on(target.value, sharding, original)
    return _Context(target, own_origin_name(node), sharding, module, original, written_list, subject)


def _at_site(ctx: _Context, site: _Site, dims: set[int] | None, seen: set[tuple], via: str | None) -> list[KeptAway]:
    """The axes kept from ``ctx``'s value at ``site`` (only from its dimensions ``dims`` if given)."""
    out: list[KeptAway] = []
    mine = site.factor_dims(site.mine)
    for t, tensor in enumerate(site.projection.tensors()):
        if t == site.mine or site.values[t] is ctx.node.value:
            continue
        theirs = site.factor_dims(t)
        for factor, fs in sorted(tensor.factor_index_to_sharding.items()):
            dv = mine.get(factor)
            if dv is None or (dims is not None and dv not in dims):
                continue
            for pos, axis in enumerate(fs.axis_refs + fs.overflow_axes):
                key = (id(site.op), t, axis, id(ctx.node.value))
                if key in seen or any(overlaps(a, axis) for a in ctx.sharding.dim_shardings[dv].axes):
                    continue
                seen.add(key)
                origin = _origin_of(site.values[t], axis, ctx.module, ctx.original)
                kind, reason = _why(ctx, site, t, factor, fs, pos, axis, dv, origin)
                out.append(KeptAway(axis, site.op.name, site.op.loc, site.role(t), Node(site.values[t]).label,
                                    theirs[factor], dv, origin, kind, reason, via=via))
    return out


def kept_away(node: Node, stories: list[AxisStory], module: Module, original: Module | None) -> list[KeptAway]:
    """The axes of the other tensors of every op ``node``'s value is a tensor of that map to a
    dimension of the value through the op's sharding rule but are not on it, each with its reason
    (for a function result: those of the returned value, when it is sharded the same); then, along
    the chain of each axis of the value, the axes an op of the chain kept from the dimension the axis
    travelled on (``via`` names the value of the chain they were kept from)."""
    ctx = _context(node, module, original, "this value")
    table = MeshTable(module)
    seen: set[tuple] = set()
    out: list[KeptAway] = []
    if ctx is not None:
        for site in _sites(ctx.node.value, ctx.sharding, table):
            out += _at_site(ctx, site, None, seen, None)
    out += _along_chain(node, module, original, table, seen)
    if ctx is None:
        return out
    for story in stories:
        for hop in story.hops:
            target = hop.target_node
            if hop.operation is None or target is None or target.value is None or target.value is ctx.node.value:
                continue
            inner = _context(target, module, original, target.label)
            if inner is None:
                continue
            dims = {d for d, dim in enumerate(inner.sharding.dim_shardings)
                    if any(overlaps(a, story.axis) for a in dim.axes)}
            for site in _sites(target.value, inner.sharding, table):
                if site.op is hop.operation:
                    via = f"{target.label}, on the chain of {axis_text(story.axis)} at step {hop.step}"
                    out += _at_site(inner, site, dims, seen, via)
    return out
