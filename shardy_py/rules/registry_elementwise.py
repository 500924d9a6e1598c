"""Rules of the elementwise ops and ``stablehlo.clamp`` (op_sharding_rule_registry.cc): every
dimension of every tensor is one factor, sized from the first result (``buildPointwise``)."""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import OpShardingRuleBuilder, shape_of
from shardy_py.rules.registry import register_rule

#: The ops the C++ gives the pointwise rule (``sdy.sharding_constraint`` and the elementwise and
#: same-shape collective stablehlo ops).
POINTWISE_OPS: tuple[str, ...] = (
    "sdy.sharding_constraint",
    "stablehlo.abs", "stablehlo.add", "stablehlo.all_reduce", "stablehlo.and", "stablehlo.atan2",
    "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.count_leading_zeros",
    "stablehlo.collective_broadcast", "stablehlo.collective_permute", "stablehlo.compare",
    "stablehlo.complex", "stablehlo.convert", "stablehlo.cosine", "stablehlo.cross-replica-sum",
    "stablehlo.divide", "stablehlo.exponential", "stablehlo.exponential_minus_one",
    "stablehlo.floor", "stablehlo.imag", "stablehlo.is_finite", "stablehlo.log_plus_one",
    "stablehlo.log", "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.or", "stablehlo.popcnt",
    "stablehlo.power", "stablehlo.real", "stablehlo.reduce_precision", "stablehlo.remainder",
    "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz", "stablehlo.rsqrt",
    "stablehlo.shift_left", "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
    "stablehlo.sign", "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan",
    "stablehlo.tanh", "stablehlo.xor",
)


@register_rule(*POINTWISE_OPS)
def pointwise_rule(op, conservative: bool) -> OpShardingRuleAttr | None:
    """Dimension i of every operand and result is factor i (no rule when the result is a token)."""
    return OpShardingRuleBuilder.build_pointwise(op)


@register_rule("stablehlo.clamp")
def clamp_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise over the operand (``operands[1]``); scalar ``min`` / ``max`` take no factor."""
    return OpShardingRuleBuilder.for_op(op).add_pointwise(shape_of(op.operands[1])).build()
