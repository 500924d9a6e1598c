"""Rules of ``stablehlo.bitcast_convert``, ``batch_norm_inference``, ``broadcast_in_dim``,
``cholesky`` and ``concatenate`` (op_sharding_rule_registry.cc)."""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.ir.ops import Block
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import int_prop, ints_prop
from shardy_py.rules.registry import register_rule


@register_rule("stablehlo.bitcast_convert")
def bitcast_convert_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise over the lower-rank side; the extra innermost dimension of the other side (the
    narrower element type) gets a need-replication factor of its own."""
    in_shape = shape_of(op.operands[0])
    out_shape = shape_of(op.results[0])
    builder = OpShardingRuleBuilder.for_op(op)
    builder.add_pointwise(in_shape if len(in_shape) < len(out_shape) else out_shape)
    if len(in_shape) < len(out_shape):
        builder.add_factor(KNULL_DIM, len(out_shape) - 1, out_shape[-1], FactorType.NEED_REPLICATION)
    elif len(in_shape) > len(out_shape):
        builder.add_factor(len(in_shape) - 1, KNULL_DIM, in_shape[-1], FactorType.NEED_REPLICATION)
    return builder.build()


@register_rule("stablehlo.batch_norm_inference")
def batch_norm_inference_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """A factor per operand dimension, shared with the result; the feature dimension's factor also
    maps to the (rank-1) scale, offset, mean and variance."""
    feature = int_prop(op, "feature_index")
    builder = OpShardingRuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.operands[0])):
        others = 0 if dim == feature else KNULL_DIM
        builder.add_factor([dim] + [others] * (len(op.operands) - 1), dim, size)
    return builder.build()


@register_rule("stablehlo.broadcast_in_dim")
def broadcast_in_dim_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """A factor per result dimension, shared with the operand dimension mapped onto it unless that
    one has size 1 and is expanded (it then gets its own size-1 factor first)."""
    in_shape = shape_of(op.operands[0])
    out_shape = shape_of(op.results[0])
    out_to_in = [KNULL_DIM] * len(out_shape)
    for in_dim, out_dim in enumerate(ints_prop(op, "broadcast_dimensions") or ()):
        out_to_in[out_dim] = in_dim
    builder = OpShardingRuleBuilder.for_op(op)
    for out_dim, out_size in enumerate(out_shape):
        in_dim = out_to_in[out_dim]
        if in_dim != KNULL_DIM and in_shape[in_dim] == 1 and out_size != 1:
            builder.add_factor(in_dim, KNULL_DIM, 1)
            in_dim = KNULL_DIM
        builder.add_factor(in_dim, out_dim, out_size)
    return builder.build()


@register_rule("stablehlo.cholesky")
def cholesky_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise; the batch dimensions pass through, the last two need replication."""
    shape = shape_of(op.operands[0])
    num_batch = len(shape) - 2
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise(shape, lambda d: FactorType.PASS_THROUGH if d < num_batch
                           else FactorType.NEED_REPLICATION)
            .build())


def _slice_source(value):
    """The operand of the ``stablehlo.slice`` defining ``value``, else ``value`` itself."""
    owner = value.owner
    if not isinstance(owner, Block) and owner is not None and owner.name == "stablehlo.slice":
        return owner.operands[0]
    return value


def _is_sliced(value) -> bool:
    owner = value.owner
    return not isinstance(owner, Block) and owner is not None and owner.name == "stablehlo.slice"


def concat_dim_factor_type(op) -> FactorType:
    """The type of the concatenated dimension's factor: permutation when every operand is a slice,
    or when all operands are one value or slices of it (at least one slice); else need-replication."""
    operands = op.operands
    if all(_is_sliced(v) for v in operands):
        return FactorType.PERMUTATION
    source = _slice_source(operands[0])
    if all(_slice_source(v) is source for v in operands) and any(_is_sliced(v) for v in operands):
        return FactorType.PERMUTATION
    return FactorType.NEED_REPLICATION


@register_rule("stablehlo.concatenate", context_key=concat_dim_factor_type)
def concatenate_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Pointwise over the result; the concatenated dimension has no factor in conservative mode and
    otherwise the type ``concat_dim_factor_type`` gives."""
    dim = int_prop(op, "dimension")
    concat_type = concat_dim_factor_type(op)
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_if(shape_of(op.results[0]), lambda d: not conservative or d != dim,
                              lambda d: FactorType.PASS_THROUGH if d != dim else concat_type)
            .build())
