"""Sharding rules of the reducing, windowed and slicing ops: ``stablehlo.reduce``,
``stablehlo.reduce_scatter``, ``stablehlo.reduce_window``, ``stablehlo.pad``, ``stablehlo.slice``,
``stablehlo.dynamic_slice`` and ``stablehlo.dynamic_update_slice`` (Shardy's
``op_sharding_rule_registry.cc``).
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.common import is_window_passthrough_dim
from shardy_py.rules.props import int_prop, ints_prop
from shardy_py.rules.registry import register_rule
from shardy_py.rules.rule_errors import rule_error


@register_rule("stablehlo.reduce")
def reduce_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Per input dimension: a reduction factor on the inputs when the dimension is reduced, else a
    pass-through factor shared with the next result dimension (init values take no factor)."""
    num_inputs = len(op.operands) // 2
    reduced = set(ints_prop(op, "dimensions") or ())
    builder = OpShardingRuleBuilder.for_op(op)
    out_dim = 0
    for in_dim, size in enumerate(shape_of(op.operands[0])):
        operand_dims = [in_dim] * num_inputs + [KNULL_DIM] * (len(op.operands) - num_inputs)
        if in_dim in reduced:
            builder.add_factor(operand_dims, [KNULL_DIM] * num_inputs, size, FactorType.REDUCTION)
        else:
            builder.add_factor(operand_dims, [out_dim] * num_inputs, size)
            out_dim += 1
    return builder.build()


@register_rule("stablehlo.reduce_scatter")
def reduce_scatter_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise except the scatter dimension, which gets one need-replication factor on the operand
    and another on the result."""
    dim = int_prop(op, "scatter_dimension", 0)
    operand = shape_of(op.operands[0])
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_if(operand, lambda d: d != dim)
            .add_factor_same_for_all_operands(dim, operand[dim], FactorType.NEED_REPLICATION)
            .add_factor_same_for_all_results(dim, shape_of(op.results[0])[dim], FactorType.NEED_REPLICATION)
            .build())


@register_rule("stablehlo.reduce_window")
def reduce_window_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise over the result shape (the number of windows per dimension): pass-through where the
    window is trivial, else a permutation factor, blocked when conservative."""
    result = shape_of(op.results[0])
    if any(0 < len(shape_of(v)) < len(result) for v in op.operands):
        raise rule_error(op, "the sharding rule of this reduce_window cannot be built: an operand has "
                             "fewer dimensions than the result (the C++ reads past its end)")
    padding = ints_prop(op, "padding")
    window_dims = ints_prop(op, "window_dimensions") or ()
    strides = ints_prop(op, "window_strides") or ()

    def factor_type(dim: int) -> FactorType:
        if is_window_passthrough_dim(padding, window_dims, strides, dim):
            return FactorType.PASS_THROUGH
        return FactorType.PERMUTATION

    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise(result, factor_type,
                           lambda t: conservative and t is FactorType.PERMUTATION)
            .build())


@register_rule("stablehlo.slice")
def slice_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise; a sliced dimension is a permutation factor, blocked when conservative."""
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_with_diff_type_for_mismatch(shape_of(op.operands[0]), shape_of(op.results[0]),
                                                       FactorType.PERMUTATION, conservative)
            .build())


@register_rule("stablehlo.pad")
def pad_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise; a dimension with any padding (low, high or interior) is a permutation factor, even
    where the padding leaves its size unchanged (jaxlib 0.12; the C++ at ``SHARDY_COMMIT`` looked at
    the sizes only), and blocked when conservative if its size changes."""
    operand, result = shape_of(op.operands[0]), shape_of(op.results[0])
    padding = [ints_prop(op, name) or () for name in
               ("edge_padding_low", "edge_padding_high", "interior_padding")]
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, (in_size, out_size) in enumerate(zip(operand, result, strict=True)):
        padded = any(dim < len(p) and p[dim] != 0 for p in padding)
        if padded or in_size != out_size:
            builder.add_factor_for_dim(dim, in_size, FactorType.PERMUTATION,
                                       conservative and in_size != out_size)
        else:
            builder.add_factor_for_dim(dim, in_size)
    return builder.build()


@register_rule("stablehlo.dynamic_slice")
def dynamic_slice_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise; a sliced dimension always needs replication and is blocked."""
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_with_diff_type_for_mismatch(shape_of(op.operands[0]), shape_of(op.results[0]),
                                                       FactorType.NEED_REPLICATION, True)
            .build())


@register_rule("stablehlo.dynamic_update_slice")
def dynamic_update_slice_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise where the update spans the whole dimension; elsewhere the operand and result share a
    permutation factor and the update gets its own permutation factor (jaxlib 0.12; the C++ at
    ``SHARDY_COMMIT`` made the operand's pass-through and the update's need-replication unless every
    start index was a constant)."""
    operand = shape_of(op.operands[0])
    update = shape_of(op.operands[1])
    builder = OpShardingRuleBuilder.for_op(op)
    rest = [KNULL_DIM] * (len(op.operands) - 2)
    for dim, (operand_size, update_size) in enumerate(zip(operand, update, strict=True)):
        if operand_size == update_size:
            builder.add_factor_for_dim(dim, operand_size)
        else:
            builder.add_factor([dim, KNULL_DIM, *rest], dim, operand_size, FactorType.PERMUTATION)
            builder.add_factor([KNULL_DIM, dim, *rest], KNULL_DIM, update_size, FactorType.PERMUTATION)
    return builder.build()
