"""Sharding rules of ``stablehlo.fft``, ``stablehlo.reverse``, ``stablehlo.rng_bit_generator``,
``stablehlo.select``, ``stablehlo.sort`` and ``stablehlo.transpose`` (Shardy's
``op_sharding_rule_registry.cc``).
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import int_prop, ints_prop
from shardy_py.rules.registry import register_rule


@register_rule("stablehlo.fft")
def fft_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Leading (non-FFT) dimensions pass through; the FFT dimensions need replication, and the last
    one is blocked when its size changes (a real FFT or its inverse)."""
    in_shape = shape_of(op.operands[0])
    out_shape = shape_of(op.results[0])
    num_batch = len(in_shape) - len(ints_prop(op, "fft_length") or ())
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, size in enumerate(in_shape):
        if dim < num_batch:
            builder.add_factor_for_dim(dim, size)
        elif dim < len(in_shape) - 1:
            builder.add_factor_for_dim(dim, size, FactorType.NEED_REPLICATION)
        else:
            builder.add_factor_for_dim(dim, size, FactorType.NEED_REPLICATION, in_shape[-1] != out_shape[-1])
    return builder.build()


@register_rule("stablehlo.reverse")
def reverse_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise; the reversed dimensions are permutation factors."""
    reversed_dims = set(ints_prop(op, "dimensions") or ())

    def factor_type(dim: int) -> FactorType:
        return FactorType.PERMUTATION if dim in reversed_dims else FactorType.PASS_THROUGH

    return OpShardingRuleBuilder.for_op(op).add_pointwise(shape_of(op.results[0]), factor_type).build()


@register_rule("stablehlo.rng_bit_generator")
def rng_bit_generator_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """The initial and output states share blocked need-replication factors; the generated output
    has pass-through factors of its own."""
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.operands[0])):
        builder.add_factor(dim, [dim, KNULL_DIM], size, FactorType.NEED_REPLICATION, True)
    for dim, size in enumerate(shape_of(op.results[1])):
        builder.add_factor(KNULL_DIM, [KNULL_DIM, dim], size)
    return builder.build()


@register_rule("stablehlo.select")
def select_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise over the result (a scalar predicate takes no factor)."""
    return OpShardingRuleBuilder.for_op(op).add_pointwise(shape_of(op.results[0])).build()


@register_rule("stablehlo.sort")
def sort_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Batch dimensions pass through; the sort dimension needs replication, and is blocked when every
    other dimension has size 1."""
    shape = shape_of(op.operands[0])
    sort_dim = int_prop(op, "dimension", -1)
    blocked = all(dim == sort_dim or size == 1 for dim, size in enumerate(shape))
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, size in enumerate(shape):
        if dim == sort_dim:
            builder.add_factor_for_dim(dim, size, FactorType.NEED_REPLICATION, blocked)
        else:
            builder.add_factor_for_dim(dim, size)
    return builder.build()


@register_rule("stablehlo.transpose")
def transpose_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Result dimension i shares a factor with operand dimension ``permutation[i]``."""
    in_shape = shape_of(op.operands[0])
    builder = OpShardingRuleBuilder.for_op(op)
    for out_dim, in_dim in enumerate(ints_prop(op, "permutation") or ()):
        builder.add_factor(in_dim, out_dim, in_shape[in_dim])
    return builder.build()
