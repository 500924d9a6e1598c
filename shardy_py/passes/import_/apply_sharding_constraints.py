"""``-sdy-apply-sharding-constraints`` (import/apply_sharding_constraints.cc): give the input of an
``sdy.sharding_constraint`` (or an operand of an ``sdy.manual_computation``) the constraint's
sharding when it has none, the sharding is fully closed and no other constraint on it disagrees;
when the input is a data-flow edge target, route its uses through the constraint instead.  A chain
of constraints replaces the later uses of the chain's input by its tail."""
from __future__ import annotations

from collections.abc import Callable

from shardy_py.ir.attrs import DimMappingAttr, OpShardingRuleAttr, TensorMappingAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import DYNAMIC
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes import data_flow as df
from shardy_py.passes.propagation.debugging.source_sharding import SourceShardingError, SourceShardingHandler
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import fully_open_like, get_sharding, set_sharding, shardable_value

SHARDING_RULE = "sdy.sharding_rule"
CONSTRAINT = "sdy.sharding_constraint"
MANUAL = "sdy.manual_computation"
#: MLIR's ``ShapedType::kDynamic``, the factor size a dynamic dimension gets.
K_DYNAMIC = -(2 ** 63)


def pointwise_rule(op: Operation) -> OpShardingRuleAttr | None:
    """``OpShardingRuleBuilder::buildPointwise``: one factor per dimension of the first result,
    every operand and result dimension ``d`` mapped to factor ``d``."""
    shape = getattr(op.results[0].type, "shape", None)
    if shape is None:
        return None

    def mapping(value: Value) -> TensorMappingAttr:
        rank = len(getattr(value.type, "shape", ()) or ())
        return TensorMappingAttr(tuple(DimMappingAttr((d,)) for d in range(rank)))

    sizes = tuple(K_DYNAMIC if d == DYNAMIC else d for d in shape)
    return OpShardingRuleAttr(sizes, tuple(mapping(v) for v in op.operands), tuple(mapping(v) for v in op.results))


def _in_sharding(op: Operation, index: int) -> TensorShardingAttr:
    return op.properties["in_shardings"].shardings[index]


def used_by_constraint_with_different_sharding(value: Value, sharding: TensorShardingAttr) -> bool:
    """A constraint or manual computation uses ``value`` with another sharding."""
    for use in value.uses:
        if use.op.name == CONSTRAINT and use.op.properties.get("sharding") != sharding:
            return True
        if use.op.name == MANUAL and _in_sharding(use.op, use.index) != sharding:
            return True
    return False


def used_by_constraint(value: Value, excluded: Operation | None = None) -> bool:
    """A constraint or manual computation other than ``excluded`` uses ``value``."""
    return any(user is not excluded and user.name in (CONSTRAINT, MANUAL) for user in value.users)


def _unsharded(value: Value, current: TensorShardingAttr | None, sharding: TensorShardingAttr) -> bool:
    """No sharding, or a fully open one of rank > 0 on any mesh without priorities, replicated or
    unreduced axes (jaxlib 0.12: ``<@mesh, [{?}]>`` is applied over, ``[{?}p1]`` and ``[]`` are not)."""
    if current is None:
        return True
    return bool(current.dim_shardings) and not current.replicated_axes and not current.unreduced_axes and all(
        d.is_open and not d.axes and d.priority is None for d in current.dim_shardings)


def should_apply(value: Value, sharding: TensorShardingAttr) -> bool:
    """``value`` can take ``sharding``: it has a place for one and none yet (or a fully open one,
    see ``_unsharded``), ``sharding``
    is fully closed and no other constraint on ``value`` disagrees."""
    if shardable_value(value) is None or not _unsharded(value, get_sharding(value), sharding):
        return False
    if not all(d.is_closed for d in sharding.dim_shardings):
        return False
    return not used_by_constraint_with_different_sharding(value, sharding)


def _defined_by_edge(value: Value) -> bool:
    owner = value.owner
    return not isinstance(owner, Block) and owner.name == "sdy.data_flow_edge"


def apply_constraint(op: Operation, value: Value, sharding: TensorShardingAttr,
                     constraint_after_value: Callable[[], Operation],
                     debug: SourceShardingHandler | None = None) -> None:
    """``applyConstraint`` (``debug``, the debug options' recorder, is told about a sharding set
    through a constraint's rule)."""
    if not should_apply(value, sharding):
        return
    if _defined_by_edge(value) or df.lookup_data_flow_edge(value) is not None:
        constraint = constraint_after_value()
        value.replace_uses_with_if(constraint.results[0], lambda use: use.op is not constraint)
        if sharding.unreduced_axes:
            current = get_sharding(value) or fully_open_like(value.type, sharding.mesh_or_ref)
            set_sharding(value, TensorShardingAttr(current.mesh_or_ref, current.dim_shardings,
                                                   current.replicated_axes, sharding.unreduced_axes,
                                                   sharding.reduction))
        return
    if op.name == CONSTRAINT and SHARDING_RULE not in op.attributes:
        rule = pointwise_rule(op)
        if rule is not None:
            df.set_attribute(op, SHARDING_RULE, rule)
    rule = op.attributes.get(SHARDING_RULE) if op.name == CONSTRAINT else None
    if debug is not None and isinstance(rule, OpShardingRuleAttr):
        debug.constraint_applied(op, rule, lambda: set_sharding(value, sharding))
    else:
        set_sharding(value, sharding)


def move_after_value(op: Operation, value: Value) -> None:
    """Move ``op`` right after ``value``'s definition (to the front of the block for an argument)."""
    if isinstance(value.owner, Block):
        block = value.owner
        if block.ops[0] is not op:
            op.move_before(block.ops[0])
    else:
        op.move_after(value.owner)


def chain_tail(head: Operation) -> Operation | None:
    """``getTailOfShardingConstraintChain``: the last constraint of a chain of at least two starting
    at ``head``, when the chain's input is unsharded and constrained by ``head`` only."""
    source = head.operands[0]
    if not isinstance(source.owner, Block) and source.owner.name == CONSTRAINT:
        return None
    if get_sharding(source) is not None or used_by_constraint(source, excluded=head):
        return None
    tail = head
    while len(tail.results[0].uses) == 1 and tail.results[0].uses[0].op.name == CONSTRAINT:
        tail = tail.results[0].uses[0].op
    if tail is head or used_by_constraint(tail.results[0]):
        return None
    return tail


def _after_in_block(tail: Operation, user: Operation) -> bool:
    return user.parent is tail.parent and index_in_block(tail) < index_in_block(user)


def process_constraint(op: Operation, debug: SourceShardingHandler | None = None) -> None:
    """A chain's later uses of its input go to its tail; then the constraint is applied."""
    tail = chain_tail(op)
    if tail is not None:
        op.operands[0].replace_uses_with_if(
            tail.results[0], lambda use: use.op is not op and use.op.name != "func.return"
            and _after_in_block(tail, use.op))
    value = op.operands[0]

    def constraint_after_value() -> Operation:
        move_after_value(op, value)
        return op

    apply_constraint(op, value, op.properties["sharding"], constraint_after_value, debug)


def process_manual_computation(op: Operation) -> None:
    """Each operand of a manual computation is constrained by its in-sharding."""
    for operand, sharding in zip(list(op.operands), op.properties["in_shardings"].shardings, strict=True):
        def constraint_after_value(operand=operand, sharding=sharding) -> Operation:
            if isinstance(operand.owner, Block):
                builder = Builder(operand.owner, 0)
            else:
                builder = Builder.after(operand.owner)
            return builder.create(CONSTRAINT, [operand], result_types=[operand.type],
                                  properties={"sharding": sharding}, loc=op.loc)

        apply_constraint(op, operand, sharding, constraint_after_value)


@register
class ApplyShardingConstraintsPass(Pass):
    name = "sdy-apply-sharding-constraints"
    summary = "Applies constraints that dictate the sharding of their input."
    options = (
        PassOption("debug-sharding-origins", bool, False,
                   "Whether to compute the debug origin shardings for constraints. See "
                   "`debug-sharding-origins` option in propagation for more info."),
        PassOption("debug-propagation-edge-sharding", bool, False,
                   "Whether to sink the debug propagation edge sharding info. See "
                   "`debug-propagation-edge-sharding` option in propagation for more info."),
    )

    def run(self, module, ctx) -> None:
        """Apply every constraint and manual computation, in MLIR's post-order walk."""
        debug = SourceShardingHandler.for_options(self.option("debug-sharding-origins"),
                                                  self.option("debug-propagation-edge-sharding"))
        try:
            if debug is not None:
                debug.prepare(module)
            for op in list(walk_post_order(module.op)):
                if op.name == CONSTRAINT:
                    process_constraint(op, debug)
                elif op.name == MANUAL:
                    process_manual_computation(op)
        except SourceShardingError as e:
            ctx.error(module.op, str(e))
            return
        if debug is not None:
            for op, message in debug.save_on_module(module):
                ctx.warning(op, message)
