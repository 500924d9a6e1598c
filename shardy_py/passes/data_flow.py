"""Shardy's ``ShardableDataFlowOpInterface`` (``ir/dialect.cc``, ``ir/extensions/
stablehlo_extensions.cc``) and ``sdy.data_flow_edge`` lookups (``DataFlowEdgeOp::lookup``,
``getShardingsFromDataFlowEdges``), as the data-flow passes use them.

The data-flow ops are ``sdy.named_computation`` and ``sdy.manual_computation`` (block-argument and
result edge owners, shardings in ``in_shardings``/``out_shardings``) and ``stablehlo.while``,
``stablehlo.case`` and ``stablehlo.optimization_barrier`` (result edge owners only, shardings in
their ``sdy.sharding``)."""
from __future__ import annotations

import attrs

from shardy_py.ir.attrs import DimensionShardingAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Block, Operation, Value

SHARDING = "sdy.sharding"
REGION_DATA_FLOW_OPS = frozenset({"sdy.named_computation", "sdy.manual_computation"})
DATA_FLOW_OPS = REGION_DATA_FLOW_OPS | {"stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier"}


def is_data_flow_op(op: Operation | None) -> bool:
    """Whether ``op`` implements ``ShardableDataFlowOpInterface``."""
    return op is not None and op.name in DATA_FLOW_OPS


def set_property(op: Operation, name: str, value) -> None:
    """Set inherent attribute ``name`` of ``op``."""
    op.properties = {**op.properties, name: value}


def set_attribute(op: Operation, name: str, value) -> None:
    """``Operation::setAttr``: set discardable attribute ``name``, keeping the dictionary sorted by
    name as MLIR's ``DictionaryAttr`` is (the dict may be a shared read-only one)."""
    op.attributes = dict(sorted({**op.attributes, name: value}.items()))


def remove_attribute(op: Operation, name: str) -> None:
    """Remove discardable attribute ``name`` of ``op`` when present."""
    if name in op.attributes:
        op.attributes = {k: v for k, v in op.attributes.items() if k != name}


def block_arg_owners(op: Operation) -> list[Value]:
    """``getBlockArgumentEdgeOwners``: the body arguments of a named/manual computation."""
    if op.name in REGION_DATA_FLOW_OPS:
        return list(op.regions[0].blocks[0].arguments)
    return []


def result_owners(op: Operation) -> list[Value]:
    """``getOpResultEdgeOwners``: the op's results."""
    return list(op.results)


def _manual_axes(op: Operation) -> tuple[str, ...]:
    manual = op.properties.get("manual_axes")
    return tuple(manual.axes) if manual is not None else ()


def _first_free(axes, manual) -> int:
    n = 0
    while n < len(axes) and axes[n].name in manual:
        n += 1
    return n


def _erase_axes(sharding: TensorShardingAttr, manual, keep_manual: bool) -> TensorShardingAttr:
    dims = []
    for d in sharding.dim_shardings:
        n = _first_free(d.axes, manual)
        dims.append(attrs.evolve(d, axes=d.axes[:n] if keep_manual else d.axes[n:]))
    return TensorShardingAttr(sharding.mesh_or_ref, tuple(dims),
                              tuple(a for a in sharding.replicated_axes if a.name not in manual),
                              tuple(a for a in sharding.unreduced_axes if a.name not in manual), sharding.reduction)


def erase_manual_axes(sharding: TensorShardingAttr, manual) -> TensorShardingAttr:
    """``eraseManualAxes``: drop the leading manual axes of each dimension and the manual
    replicated/unreduced axes."""
    return sharding if not manual else _erase_axes(sharding, manual, keep_manual=False)


def add_free_axes(outer: TensorShardingAttr, new: TensorShardingAttr, manual) -> TensorShardingAttr:
    """``addFreeAxesToManualComputationSharding``: ``outer``'s manual axes followed by ``new``'s axes
    (open/closed and priority of ``new``), with ``outer``'s replicated and unreduced axes."""
    kept = _erase_axes(outer, manual, keep_manual=True)
    dims = tuple(DimensionShardingAttr(tuple(a.axes) + tuple(b.axes), b.is_closed, b.priority)
                 for a, b in zip(kept.dim_shardings, new.dim_shardings, strict=False))
    return TensorShardingAttr(new.mesh_or_ref, dims, outer.replicated_axes, outer.unreduced_axes)


def _shardings(attr) -> list[TensorShardingAttr]:
    return list(attr.shardings) if isinstance(attr, TensorShardingPerValueAttr) else []


def block_arg_owner_shardings(op: Operation) -> list[TensorShardingAttr]:
    """``getBlockArgumentEdgeOwnerShardings`` ([] when there are none)."""
    if op.name == "sdy.manual_computation":
        manual = _manual_axes(op)
        return [erase_manual_axes(s, manual) for s in _shardings(op.properties.get("in_shardings"))]
    if op.name == "sdy.named_computation":
        return _shardings(op.properties.get("in_shardings"))
    return []


def result_owner_shardings(op: Operation) -> list[TensorShardingAttr]:
    """``getOpResultEdgeOwnerShardings`` ([] when there are none)."""
    if op.name in REGION_DATA_FLOW_OPS:
        return _shardings(op.properties.get("out_shardings"))
    return _shardings(op.attributes_view.get(SHARDING))


def set_block_arg_owner_shardings(op: Operation, shardings) -> None:
    """``setBlockArgumentEdgeOwnerShardings``."""
    if op.name == "sdy.manual_computation":
        manual = _manual_axes(op)
        outer = _shardings(op.properties.get("in_shardings"))
        shardings = [add_free_axes(o, s, manual) for o, s in zip(outer, shardings, strict=True)]
        set_property(op, "in_shardings", TensorShardingPerValueAttr(tuple(shardings)))
    elif op.name == "sdy.named_computation":
        set_property(op, "in_shardings", TensorShardingPerValueAttr(tuple(shardings)))


def set_result_owner_shardings(op: Operation, shardings) -> None:
    """``setOpResultEdgeOwnerShardings``."""
    if op.name in REGION_DATA_FLOW_OPS:
        set_property(op, "out_shardings", TensorShardingPerValueAttr(tuple(shardings)))
    elif shardings:
        set_attribute(op, SHARDING, TensorShardingPerValueAttr(tuple(shardings)))


def owning_op(value: Value) -> Operation | None:
    """``getOwningOp``: the defining op of a result, the op whose region holds a block argument."""
    owner = value.owner
    if isinstance(owner, Block):
        return owner.parent.parent if owner.parent is not None else None
    return owner


def edge_owner_from_target(op: Operation, target: Value) -> Value | None:
    """``getEdgeOwnerFromTarget``: a while body/cond argument maps to the while's result."""
    if op.name == "stablehlo.while" and isinstance(target.owner, Block):
        return op.results[target.index]
    return target


def data_flow_edge_user(owner: Value | None) -> Operation | None:
    """``getDataFlowEdgeUser``: the ``sdy.data_flow_edge`` that is the only use of ``owner``."""
    if owner is None:
        return None
    uses = owner.uses
    if len(uses) == 1 and uses[0].op.name == "sdy.data_flow_edge":
        return uses[0].op
    return None


def lookup_data_flow_edge(target: Value) -> Operation | None:
    """``DataFlowEdgeOp::lookup(target)``."""
    op = owning_op(target)
    if not is_data_flow_op(op):
        return None
    return data_flow_edge_user(edge_owner_from_target(op, target))


def _rank(value: Value) -> int:
    shape = getattr(value.type, "shape", None)
    return len(shape) if shape is not None else 0


def shardings_from_data_flow_edges(owners: list[Value]) -> list[TensorShardingAttr]:
    """``getShardingsFromDataFlowEdges``: the sharding of each owner's ``sdy.data_flow_edge``, fully
    open on the first named mesh where one has none; [] when no edge has a sharding on a named mesh."""
    shardings: list[TensorShardingAttr | None] = []
    mesh_name = None
    for owner in owners:
        sharding = None
        edge = lookup_data_flow_edge(owner)
        if edge is not None:
            sharding = edge.properties.get("sharding")
            if sharding is not None and mesh_name is None:
                mesh_name = sharding.mesh_name
        shardings.append(sharding)
    if not mesh_name:
        return []
    return [s if s is not None else TensorShardingAttr(
        mesh_name, tuple(DimensionShardingAttr((), is_closed=False) for _ in range(_rank(o))))
        for s, o in zip(shardings, owners, strict=True)]


def is_static_shaped(type_) -> bool:
    """``isStaticShapedType``: a ranked tensor with no dynamic dimension."""
    from shardy_py.ir.types import RankedTensorType

    return isinstance(type_, RankedTensorType) and type_.has_static_shape


def _terminator_operands(region_holder: Operation, region_index: int = 0) -> tuple:
    block = region_holder.regions[region_index].blocks[0]
    return block.ops[-1].operands if block.ops else ()


def edge_sources(owner: Value) -> list[Value]:
    """``getEdgeSources`` of edge owner ``owner`` (``DataFlowEdgeOp::getSources``): the operand of a
    named/manual computation for a body argument, the body's returned value for a result; the
    operand and the body's returned value for a while result; each branch's returned value for a
    case result; the operand for an optimization barrier result."""
    op = owning_op(owner)
    if op is None:
        return []
    i = owner.index
    if op.name in REGION_DATA_FLOW_OPS:
        if isinstance(owner.owner, Block):
            return [op.operands[i]]
        return [_terminator_operands(op)[i]]
    if op.name == "stablehlo.while":
        return [op.operands[i], _terminator_operands(op, 1)[i]]
    if op.name == "stablehlo.case":
        return [_terminator_operands(op, r)[i] for r in range(len(op.regions))]
    if op.name == "stablehlo.optimization_barrier":
        return [op.operands[i]]
    return []


def non_owner_targets(owner: Value) -> list[Value]:
    """``getNonEdgeOwnerTargets`` (``DataFlowEdgeOp::getNonOwnerTargets``): for a while result,
    the matching arguments of the condition and of the body; none for the other ops."""
    op = owning_op(owner)
    if op is not None and op.name == "stablehlo.while":
        return [op.regions[0].blocks[0].arguments[owner.index], op.regions[1].blocks[0].arguments[owner.index]]
    return []


def edge_owner_from_source(op: Operation, user: Operation, index: int) -> Value | None:
    """``getEdgeOwnerFromSource`` of operand ``index`` of ``user`` (``op`` itself or the terminator
    of one of its regions): the result at that index for a terminator operand (and for any
    operand of a while, case or optimization barrier); for an operand of a named/manual
    computation itself, that operand (as the C++ does)."""
    if op.name in REGION_DATA_FLOW_OPS and user is op:
        return op.operands[index]
    return op.results[index] if index < len(op.results) else None


def lookup_data_flow_edge_of_source(user: Operation, index: int, is_terminator: bool) -> Operation | None:
    """``DataFlowEdgeOp::lookup(OpOperand&)`` for operand ``index`` of ``user``: the edge of the
    owner that this operand is a source of, if ``user`` (or, for a terminator, its parent) is a
    data-flow op and that owner has an edge."""
    op = user.parent_op if is_terminator else user
    if not is_data_flow_op(op):
        return None
    return data_flow_edge_user(edge_owner_from_source(op, user, index))


def transform_target_sharding(edge_input: Value, sharding: TensorShardingAttr | None,
                              before_propagation: bool) -> TensorShardingAttr | None:
    """``transformTargetSharding`` of the op owning ``edge_input``: for a manual computation, the
    manual axes are added (before edge propagation) to a body argument's sharding, or removed from
    a result's, and the other way round after propagation; other ops leave the sharding as is."""
    op = owning_op(edge_input)
    if sharding is None or op is None or op.name != "sdy.manual_computation":
        return sharding
    manual = _manual_axes(op)
    is_arg = isinstance(edge_input.owner, Block)
    if is_arg == before_propagation:
        key = "in_shardings" if is_arg else "out_shardings"
        return add_free_axes(_shardings(op.properties.get(key))[edge_input.index], sharding, manual)
    return erase_manual_axes(sharding, manual)
