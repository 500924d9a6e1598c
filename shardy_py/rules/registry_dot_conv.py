"""Sharding rules of the contracting ops: ``stablehlo.convolution``, ``stablehlo.dot_general``,
``stablehlo.dot`` and ``stablehlo.triangular_solve`` (Shardy's ``op_sharding_rule_registry.cc``).

Each rule is a function of the op and the conservative-propagation flag, returning the
``OpShardingRuleAttr`` the C++ registry builds for it.
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import bool_prop, int_prop, typed_prop
from shardy_py.rules.registry import register_rule

_REDUCTION = FactorType.REDUCTION
_REPLICATE = FactorType.NEED_REPLICATION
_PERMUTE = FactorType.PERMUTATION


def c_div(a: int, b: int) -> int:
    """``a / b`` with C++'s truncation towards zero (sizes of dynamic dimensions are negative)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


@register_rule("stablehlo.convolution")
def convolution_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Batch groups, per-group batch, spatial (unless conservative), feature groups, per-group input
    feature (a reduction) and per-group output feature factors, in that order."""
    dn = typed_prop(op, "dimension_numbers")
    batch_groups = int_prop(op, "batch_group_count", 1)
    feature_groups = int_prop(op, "feature_group_count", 1)
    lhs = shape_of(op.operands[0])
    rhs = shape_of(op.operands[1])
    out = shape_of(op.results[0])
    builder = OpShardingRuleBuilder.for_op(op)

    if batch_groups > 1:
        builder.add_factor([dn.input_batch_dimension, dn.kernel_output_feature_dimension],
                           dn.output_feature_dimension, batch_groups)
    builder.add_factor([dn.input_batch_dimension, KNULL_DIM], dn.output_batch_dimension,
                       out[dn.output_batch_dimension])

    if not conservative:
        for lhs_dim, rhs_dim, out_dim in zip(dn.input_spatial_dimensions, dn.kernel_spatial_dimensions,
                                             dn.output_spatial_dimensions, strict=True):
            _add_spatial_factors(builder, lhs_dim, rhs_dim, out_dim, lhs[lhs_dim], rhs[rhs_dim], out[out_dim])

    if feature_groups > 1:
        builder.add_factor([dn.input_feature_dimension, dn.kernel_output_feature_dimension],
                           dn.output_feature_dimension, feature_groups)
    builder.add_factor([dn.input_feature_dimension, dn.kernel_input_feature_dimension], KNULL_DIM,
                       rhs[dn.kernel_input_feature_dimension], _REDUCTION)
    out_features = c_div(out[dn.output_feature_dimension], batch_groups * feature_groups)
    if out_features > 1:
        builder.add_factor([KNULL_DIM, dn.kernel_output_feature_dimension], dn.output_feature_dimension,
                           out_features)
    return builder.build()


def _add_spatial_factors(builder: OpShardingRuleBuilder, lhs_dim: int, rhs_dim: int, out_dim: int,
                         lhs_size: int, window_size: int, num_windows: int) -> None:
    """The factors of one input spatial dimension: the number of windows (shared with the output, a
    permutation) and the window size (shared with the kernel, a reduction), the larger one first,
    each capped by what is left of the input dimension.  When only 1 is left of the input dimension
    for one of them, the output (or kernel) dimension alone gets a permutation factor of its full
    size (jaxlib 0.12; the C++ at ``SHARDY_COMMIT`` left such a dimension out); an empty input
    dimension gets neither."""
    remaining = lhs_size

    def add(full_size: int, contracting: bool) -> None:
        nonlocal remaining
        size = min(remaining, full_size)
        if size <= 1:
            if size == 1 and full_size > 1:
                builder.add_factor([KNULL_DIM, rhs_dim] if contracting else [KNULL_DIM, KNULL_DIM],
                                   KNULL_DIM if contracting else out_dim, full_size, _PERMUTE)
            return
        if contracting:
            builder.add_factor([lhs_dim, rhs_dim], KNULL_DIM, size, _REDUCTION)
        else:
            builder.add_factor([lhs_dim, KNULL_DIM], out_dim, size, _PERMUTE)
        remaining = c_div(remaining, size)

    if num_windows >= window_size:
        add(num_windows, False)
        add(window_size, True)
    else:
        add(window_size, True)
        add(num_windows, False)


@register_rule("stablehlo.dot_general")
def dot_general_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Batching factors, then the lhs and rhs free dimensions in order (each its own result
    dimension), then the contracting pairs as reductions."""
    dn = typed_prop(op, "dot_dimension_numbers")
    lhs = shape_of(op.operands[0])
    rhs = shape_of(op.operands[1])
    builder = OpShardingRuleBuilder.for_op(op)
    out_dim = 0
    for lhs_dim, rhs_dim in zip(dn.lhs_batching_dimensions, dn.rhs_batching_dimensions, strict=True):
        builder.add_factor([lhs_dim, rhs_dim], out_dim, lhs[lhs_dim])
        out_dim += 1
    lhs_bound = set(dn.lhs_contracting_dimensions) | set(dn.lhs_batching_dimensions)
    for dim, size in enumerate(lhs):
        if dim not in lhs_bound:
            builder.add_factor([dim, KNULL_DIM], out_dim, size)
            out_dim += 1
    rhs_bound = set(dn.rhs_contracting_dimensions) | set(dn.rhs_batching_dimensions)
    for dim, size in enumerate(rhs):
        if dim not in rhs_bound:
            builder.add_factor([KNULL_DIM, dim], out_dim, size)
            out_dim += 1
    for lhs_dim, rhs_dim in zip(dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions, strict=True):
        builder.add_factor([lhs_dim, rhs_dim], KNULL_DIM, lhs[lhs_dim], _REDUCTION)
    return builder.build()


@register_rule("stablehlo.dot")
def dot_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Vector/matrix products: the lhs rows and rhs columns of any matrix operand, then the
    contracting dimension (sized by the rhs) as a reduction."""
    lhs = shape_of(op.operands[0])
    rhs = shape_of(op.operands[1])
    lhs_matrix = len(lhs) == 2
    rhs_matrix = len(rhs) == 2
    builder = OpShardingRuleBuilder.for_op(op)
    if lhs_matrix:
        builder.add_factor([0, KNULL_DIM], 0, lhs[0])
    if rhs_matrix:
        builder.add_factor([KNULL_DIM, 1], 1 if lhs_matrix else 0, rhs[1])
    builder.add_factor([1 if lhs_matrix else 0, 0], KNULL_DIM, rhs[0], _REDUCTION)
    return builder.build()


@register_rule("stablehlo.triangular_solve")
def triangular_solve_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """Batch dimensions pointwise; the two matrix dimensions of ``a``, ``b`` and the result all need
    replication, paired as the equation ``op(a) @ x = b`` (left side) or ``x @ op(a) = b`` says."""
    a = shape_of(op.operands[0])
    b = shape_of(op.operands[1])
    transposed = getattr(typed_prop(op, "transpose_a"), "value", "NO_TRANSPOSE") in ("TRANSPOSE", "ADJOINT")
    dim1, dim2 = len(a) - 2, len(a) - 1
    builder = OpShardingRuleBuilder.for_op(op).add_pointwise(a[:-2])
    if bool_prop(op, "left_side"):
        a_free, a_contracting = (dim2, dim1) if transposed else (dim1, dim2)
        builder.add_factor([a_free, dim1], KNULL_DIM, a[a_free], _REPLICATE)
        builder.add_factor([KNULL_DIM, dim2], dim2, b[dim2], _REPLICATE)
        builder.add_factor([a_contracting, KNULL_DIM], dim1, a[a_contracting], _REPLICATE)
    else:
        a_free, a_contracting = (dim1, dim2) if transposed else (dim2, dim1)
        builder.add_factor([KNULL_DIM, dim1], dim1, b[dim1], _REPLICATE)
        builder.add_factor([a_free, dim2], KNULL_DIM, a[a_free], _REPLICATE)
        builder.add_factor([a_contracting, KNULL_DIM], dim2, a[a_contracting], _REPLICATE)
    return builder.build()
