"""``-sdy-op-priority-propagate`` (propagation/op_priority_propagation.cc): aggressive propagation
run once per step of a fixed schedule of op heuristics; at step ``p`` an op propagates a factor in
the union of the directions the heuristics ``0..p`` give it (intersected with the caller's
direction):

0. pass-through ops (elementwise, reshape, transpose, data-flow edges, the offload custom calls;
   dynamic_slice/dynamic_update_slice forward only) whose non-scalar operands each have one use;
1. the same ops whatever the uses;
2. pass-through factors of any op (broadcast_in_dim backward only);
3. any factor of any op (broadcast_in_dim backward only);
4. everything.

``run-op-priority-propagation=false`` runs plain aggressive propagation instead."""
from __future__ import annotations

from collections.abc import Callable

from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation
from shardy_py.passes.op_traits import is_elementwise
from shardy_py.passes.propagation.aggressive_propagation import AGGRESSIVE_OPTIONS, AggressivePropagationPassImpl
from shardy_py.passes.propagation.factor_propagation import (
    PropagationDirection,
    intersection_of_propagation_directions,
    union_of_propagation_directions,
)
from shardy_py.passes.propagation.propagation_update import DirectionFn, direction_for, propagate_any
from shardy_py.passes.propagation.sharding_group_map import ShardingGroupMap
from shardy_py.passes.registry import PassOption, register
from shardy_py.rules.props import str_prop
from shardy_py.rules.sharding_rule import SHARDING_RULE_ATTR

BOTH = PropagationDirection.BOTH
NONE = PropagationDirection.NONE


def _is_scalar(value) -> bool:
    """``isScalar``: a ranked shaped value of rank 0."""
    shape = getattr(value.type, "shape", None)
    return shape is not None and len(shape) == 0


def direction_based_on_uses(op: Operation, allow_multi_use: bool) -> PropagationDirection:
    """``getDirectionBasedOnUses``: NONE when a non-scalar operand has other than one use."""
    if allow_multi_use:
        return BOTH
    if any(v.num_uses() != 1 and not _is_scalar(v) for v in op.operands):
        return NONE
    return BOTH


def _is_offload_custom_call(op: Operation) -> bool:
    if op.name != "stablehlo.custom_call":
        return False
    return str_prop(op, "call_target_name") in ("MoveToDevice", "MoveToHost")


_PASS_THROUGH_OPS = frozenset({"stablehlo.reshape", "stablehlo.transpose", "sdy.data_flow_edge",
                               "sdy.func_data_flow_edge"})


def is_pass_through_op(op: Operation, allow_multi_use: bool) -> PropagationDirection:
    """``isPassThroughOp``."""
    if is_elementwise(op) or _is_offload_custom_call(op) or op.name in _PASS_THROUGH_OPS:
        return direction_based_on_uses(op, allow_multi_use)
    if op.name in ("stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"):
        return intersection_of_propagation_directions(direction_based_on_uses(op, allow_multi_use),
                                                      PropagationDirection.FORWARD)
    return NONE


def _is_pass_through_factor(rule, factor_index: int) -> bool:
    return (factor_index not in rule.reduction_factors and factor_index not in rule.need_replication_factors
            and factor_index not in rule.permutation_factors)


def only_pass_through_factors_broadcast_backward(op: Operation, factor_index: int) -> PropagationDirection:
    """``onlyPassThroughFactorsBroadcastBackward`` (an op without a rule counts as an identity op)."""
    rule = op.attributes_view.get(SHARDING_RULE_ATTR)
    if rule is not None and not _is_pass_through_factor(rule, factor_index):
        return NONE
    if op.name == "stablehlo.broadcast_in_dim":
        return PropagationDirection.BACKWARD
    return BOTH


def propagate_any_except_broadcast_forward(op: Operation, _factor_index: int) -> PropagationDirection:
    """``propagateAnyExceptBroadcastForward``."""
    return PropagationDirection.BACKWARD if op.name == "stablehlo.broadcast_in_dim" else BOTH


#: ``opPropagationSchedule``.
OP_PROPAGATION_SCHEDULE = (
    lambda op, _f: is_pass_through_op(op, False),
    lambda op, _f: is_pass_through_op(op, True),
    only_pass_through_factors_broadcast_backward,
    propagate_any_except_broadcast_forward,
    propagate_any,
)


#: The heuristics of the schedule that do not look at the factor.
_FACTOR_FREE = (OP_PROPAGATION_SCHEDULE[0], OP_PROPAGATION_SCHEDULE[1], propagate_any_except_broadcast_forward,
                propagate_any)


def op_based_direction(priority: int, direction: DirectionFn) -> DirectionFn:
    """``getOpBasedDirectionToPropagate``."""
    # The union is a lattice join (commutative, associative, BOTH absorbs everything), so the
    # heuristics can be asked from the most permissive one down, stopping at BOTH.
    heuristics = OP_PROPAGATION_SCHEDULE[priority::-1]

    def direction_at(op: Operation, factor_index: int) -> PropagationDirection:
        acc = NONE
        for fn in heuristics:
            acc = union_of_propagation_directions(acc, fn(op, factor_index))
            if acc == BOTH:
                break
        return intersection_of_propagation_directions(acc, direction(op, factor_index))

    per_op = [fn for fn in heuristics if fn in _FACTOR_FREE]
    per_factor = [fn for fn in heuristics if fn not in _FACTOR_FREE]

    def for_op(op: Operation) -> Callable[[int], PropagationDirection]:
        """``direction_at(op, ·)`` with the heuristics that ignore the factor asked once (on the
        first call): for one propagation through ``op``, during which its uses do not change."""
        # ``propagate_any`` gives BOTH, which leaves any direction as it is when intersected.
        underlying = None if direction is propagate_any else direction_for(direction, op)
        op_level: list[PropagationDirection] = []

        def at(factor_index: int) -> PropagationDirection:
            if not op_level:
                acc = NONE
                for fn in per_op:
                    acc = union_of_propagation_directions(acc, fn(op, factor_index))
                    if acc == BOTH:
                        break
                op_level.append(acc)
            acc = op_level[0]
            if acc != BOTH:
                for fn in per_factor:
                    acc = union_of_propagation_directions(acc, fn(op, factor_index))
                    if acc == BOTH:
                        break
            if underlying is None:
                return acc
            return intersection_of_propagation_directions(acc, underlying(factor_index))
        return at

    direction_at.for_op = for_op
    return direction_at


OP_PRIORITY_OPTIONS = AGGRESSIVE_OPTIONS + (
    PassOption("run-op-priority-propagation", bool, True, "whether to run (or skip) op-priority propagation"),
)


class OpPriorityPropagationPassImpl(AggressivePropagationPassImpl):
    """``OpPriorityPropagationPassImpl``: an aggressive run per step of the schedule."""

    options = OP_PRIORITY_OPTIONS

    def propagate(self, module: Module, groups: ShardingGroupMap, ctx, direction: DirectionFn = propagate_any) -> None:
        if not self.option("run-op-priority-propagation"):
            super().propagate(module, groups, ctx, direction)
            return
        for priority in range(len(OP_PROPAGATION_SCHEDULE)):
            super().propagate(module, groups, ctx, op_based_direction(priority, direction))


@register
class OpPriorityPropagationPass(OpPriorityPropagationPassImpl):
    name = "sdy-op-priority-propagate"
    summary = "Runs the op-priority propagation algorithm."
