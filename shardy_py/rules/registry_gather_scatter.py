"""Sharding rules of ``stablehlo.gather`` and ``stablehlo.scatter`` (Shardy's
``op_sharding_rule_registry.cc``), which share one walk over the slice dimensions:
``add_gather_scatter_factors``.

Names follow gather: the *input* (gather's operand, scatter's inputs), the *indices* and the
*slices* (gather's result, scatter's updates).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import typed_prop
from shardy_py.rules.registry import register_rule

#: ``add_factor(input_dim, indices_dim, slices_dim, size, factor_type, blocked)``.
AddFactorFn = Callable[[int, int, int, int, FactorType, bool], None]

_REDUCING_OPS = frozenset({"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum"})
_LOGICAL_OPS = frozenset({"stablehlo.and", "stablehlo.or"})
_I1 = re.compile(r"[su]?i1")


def add_gather_scatter_factors(input_shape: Sequence[int], slices_shape: Sequence[int],
                               indices_shape: Sequence[int], index_vector_dim: int,
                               offset_dims: Sequence[int], collapsed_slice_dims: Sequence[int],
                               input_batching_dims: Sequence[int],
                               indices_batching_dims: Sequence[int], add_factor: AddFactorFn,
                               scatter: bool = False,
                               scatter_reduces: Callable[[], bool] | None = None) -> None:
    """Add the factors of a gather (or, with ``scatter``, a scatter) through ``add_factor``.

    Per slices dimension in order: an offset dimension pairs with the next input dimension that is
    neither collapsed nor batching (one pass-through factor when unsliced; otherwise, for scatter,
    two need-replication factors; for gather, a size-1 slice gives a reduction factor on the input
    and a need-replication one on the slices, and any other slice one blocked need-replication
    factor); any other slices dimension is a batch dimension of the indices (skipping
    ``index_vector_dim``), shared with the input when it is an explicit batching dimension.  For a
    scatter, an implicit batch dimension is a reduction when ``scatter_reduces()`` (the update
    computation is a plain associative reduction), else a need-replication factor.  Then one factor
    per collapsed input dimension and one for the index vector dimension, if the indices have it.
    """
    input_dim = 0
    batch_pos = 0
    for slices_dim, slices_size in enumerate(slices_shape):
        if slices_dim in offset_dims:
            while input_dim in collapsed_slice_dims or input_dim in input_batching_dims:
                input_dim += 1
            input_size = input_shape[input_dim]
            if input_size == slices_size:
                add_factor(input_dim, KNULL_DIM, slices_dim, input_size, FactorType.PASS_THROUGH, False)
            elif scatter:
                add_factor(input_dim, KNULL_DIM, KNULL_DIM, input_size, FactorType.NEED_REPLICATION, False)
                add_factor(KNULL_DIM, KNULL_DIM, slices_dim, slices_size, FactorType.NEED_REPLICATION, False)
            elif slices_size == 1:
                add_factor(input_dim, KNULL_DIM, KNULL_DIM, input_size, FactorType.REDUCTION, False)
                add_factor(KNULL_DIM, KNULL_DIM, slices_dim, slices_size, FactorType.NEED_REPLICATION, False)
            else:
                add_factor(input_dim, KNULL_DIM, slices_dim, input_size, FactorType.NEED_REPLICATION, True)
            input_dim += 1
            continue
        indices_dim = batch_pos if batch_pos < index_vector_dim else batch_pos + 1
        input_batch_dim = KNULL_DIM
        if indices_dim in indices_batching_dims:
            input_batch_dim = input_batching_dims[list(indices_batching_dims).index(indices_dim)]
        factor_type = FactorType.PASS_THROUGH
        if scatter and input_batch_dim == KNULL_DIM:
            reduces = scatter_reduces() if scatter_reduces is not None else False
            factor_type = FactorType.REDUCTION if reduces else FactorType.NEED_REPLICATION
        add_factor(input_batch_dim, indices_dim, slices_dim, slices_size, factor_type, False)
        batch_pos += 1

    for dim in collapsed_slice_dims:
        size = input_shape[dim]
        if scatter:
            factor_type = FactorType.PASS_THROUGH
        else:
            factor_type = FactorType.NEED_REPLICATION if size == 1 else FactorType.REDUCTION
        add_factor(dim, KNULL_DIM, KNULL_DIM, size, factor_type, False)

    if index_vector_dim < len(indices_shape):
        add_factor(KNULL_DIM, index_vector_dim, KNULL_DIM, indices_shape[index_vector_dim],
                   FactorType.NEED_REPLICATION, False)


@register_rule("stablehlo.gather")
def gather_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """The gather/scatter factors over operand, start indices and result."""
    dn = typed_prop(op, "dimension_numbers")
    builder = OpShardingRuleBuilder.for_op(op)

    def add(input_dim, indices_dim, slices_dim, size, factor_type, blocked):
        builder.add_factor([input_dim, indices_dim], slices_dim, size, factor_type, blocked)

    add_gather_scatter_factors(
        shape_of(op.operands[0]), shape_of(op.results[0]), shape_of(op.operands[1]), dn.index_vector_dim,
        dn.offset_dims, dn.collapsed_slice_dims, dn.operand_batching_dims, dn.start_indices_batching_dims, add)
    return builder.build()


@register_rule("stablehlo.scatter", context_key=lambda op: _reduction_name(op))
def scatter_rule(op, conservative: bool) -> OpShardingRuleAttr:
    """The gather/scatter factors over the inputs, scatter indices and updates (each input and
    update mapped alike) and the results (mapped as the inputs)."""
    dn = typed_prop(op, "scatter_dimension_numbers")
    num_inputs = len(op.operands) // 2
    builder = OpShardingRuleBuilder.for_op(op)

    def add(input_dim, indices_dim, slices_dim, size, factor_type, blocked):
        operand_dims = [input_dim] * num_inputs + [indices_dim] + [slices_dim] * num_inputs
        builder.add_factor(operand_dims, [input_dim] * num_inputs, size, factor_type, blocked)

    add_gather_scatter_factors(
        shape_of(op.operands[0]), shape_of(op.operands[num_inputs + 1]), shape_of(op.operands[num_inputs]),
        dn.index_vector_dim, dn.update_window_dims, dn.inserted_window_dims, dn.input_batching_dims,
        dn.scatter_indices_batching_dims, add, scatter=True,
        scatter_reduces=lambda: common_supported_reduction_op(op) is not None)
    return builder.build()


def _reduction_name(op) -> str | None:
    """The name of the scatter's common reduction op (what its rule reads of the region), or None."""
    found = common_supported_reduction_op(op)
    return None if found is None else found.name


def common_supported_reduction_op(scatter_op):
    """The op of ``scatter_op``'s update computation when it is one associative, commutative binary
    op per input (add, multiply, maximum, minimum; and/or on ``i1``) applied to that input's two
    block arguments in either order, all of the same kind; else None."""
    if not scatter_op.regions or not scatter_op.regions[0].blocks:
        return None
    block = scatter_op.regions[0].blocks[0]
    num_inputs = len(scatter_op.operands) // 2
    if len(block.arguments) != 2 * num_inputs or not block.ops:
        return None
    terminator = block.ops[-1]
    if terminator.name != "stablehlo.return" or len(terminator.operands) != num_inputs:
        return None

    def is_arg(value, number: int) -> bool:
        return value is not None and value.owner is block and value.index == number

    found = None
    for index, value in enumerate(terminator.operands):
        op = value.owner if value is not None and not value.is_block_argument else None
        if op is None or len(op.operands) != 2:
            return None
        shape = getattr(value.type, "shape", None)
        if shape is None:
            return None
        logical = op.name in _LOGICAL_OPS and _I1.fullmatch(str(value.type.element_type)) is not None
        if not logical and op.name not in _REDUCING_OPS:
            return None
        if found is None:
            found = op
        elif found.name != op.name:
            return None
        lhs, rhs = op.operands
        if not ((is_arg(lhs, index) and is_arg(rhs, index + num_inputs))
                or (is_arg(lhs, index + num_inputs) and is_arg(rhs, index))):
            return None
    return found
