"""Rule of ``stablehlo.select_and_scatter`` (op_sharding_rule_registry.cc).

Operands are (operand, source, init value); the result has the operand's shape and the source one
element per window.  A dimension whose window is trivial is pointwise; any other gets a
need-replication factor on the source and a permutation factor shared by operand and result, both
blocked in conservative mode.
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.common import is_window_passthrough_dim
from shardy_py.rules.props import ints_prop
from shardy_py.rules.registry import register_rule


@register_rule("stablehlo.select_and_scatter")
def select_and_scatter_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """See the module docstring."""
    padding = ints_prop(op, "padding")
    window_dims = ints_prop(op, "window_dimensions")
    strides = ints_prop(op, "window_strides")
    source_shape = shape_of(op.operands[1])
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.results[0])):
        if is_window_passthrough_dim(padding, window_dims, strides, dim):
            builder.add_factor_for_dim(dim, size)
            continue
        builder.add_factor([KNULL_DIM, dim, KNULL_DIM], KNULL_DIM, source_shape[dim],
                           FactorType.NEED_REPLICATION, blocked=conservative)
        builder.add_factor([dim, KNULL_DIM, KNULL_DIM], dim, size, FactorType.PERMUTATION,
                           blocked=conservative)
    return builder.build()
