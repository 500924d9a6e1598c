"""Rules of ``stablehlo.all_gather`` and ``stablehlo.all_to_all`` (op_sharding_rule_registry.cc).

The gathered / split / concatenated dimensions change size, so each gets one need-replication
factor for the operands and another for the results; every other dimension is pointwise.
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import int_prop
from shardy_py.rules.registry import register_rule

_REPLICATE = FactorType.NEED_REPLICATION


@register_rule("stablehlo.all_gather")
def all_gather_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise but for ``all_gather_dim``: an operand factor and a result factor there."""
    dim = int_prop(op, "all_gather_dim")
    in_shape = shape_of(op.operands[0])
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_if(in_shape, lambda d: d != dim)
            .add_factor_same_for_all_operands(dim, in_shape[dim], _REPLICATE)
            .add_factor_same_for_all_results(dim, shape_of(op.results[0])[dim], _REPLICATE)
            .build())


@register_rule("stablehlo.all_to_all")
def all_to_all_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise but for the split and concat dimensions, each with an operand and a result factor."""
    split = int_prop(op, "split_dimension")
    concat = int_prop(op, "concat_dimension")
    in_shape = shape_of(op.operands[0])
    out_shape = shape_of(op.results[0])
    builder = (OpShardingRuleBuilder.for_op(op)
               .add_pointwise_if(in_shape, lambda d: d not in (split, concat))
               .add_factor_same_for_all_operands(split, in_shape[split], _REPLICATE)
               .add_factor_same_for_all_results(split, out_shape[split], _REPLICATE))
    if split != concat:
        (builder.add_factor_same_for_all_operands(concat, in_shape[concat], _REPLICATE)
         .add_factor_same_for_all_results(concat, out_shape[concat], _REPLICATE))
    return builder.build()
