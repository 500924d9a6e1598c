"""Op traits Shardy's passes ask about, for the ops MLIR knows by ODS trait: StableHLO's and CHLO's
``Elementwise``/``BroadcastingElementwise`` ops and their purity (``Pure``, or ``NoMemoryEffect``
with a speculatability that holds for static shapes), as listed in StableHLO's
``stablehlo/dialect/StablehloOps.td`` and ``ChloOps.td`` and Shardy's ``ir/ops.td``; and
``isElementwise`` / ``isPure`` over them (``transforms/common/op_properties.cc``, MLIR's
``isPure``)."""
from __future__ import annotations

from shardy_py.ir.ops import Operation
from shardy_py.ir.types import DYNAMIC, RankedTensorType

#: Ops with the ``Elementwise`` or ``BroadcastingElementwise`` trait.
ELEMENTWISE_OPS = frozenset({
    "chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan",
    "chlo.atanh", "chlo.bessel_i1e", "chlo.broadcast_add", "chlo.broadcast_and",
    "chlo.broadcast_atan2", "chlo.broadcast_compare", "chlo.broadcast_complex",
    "chlo.broadcast_divide", "chlo.broadcast_maximum", "chlo.broadcast_minimum",
    "chlo.broadcast_multiply", "chlo.broadcast_next_after", "chlo.broadcast_or",
    "chlo.broadcast_polygamma", "chlo.broadcast_power", "chlo.broadcast_remainder",
    "chlo.broadcast_select", "chlo.broadcast_shift_left", "chlo.broadcast_shift_right_arithmetic",
    "chlo.broadcast_shift_right_logical", "chlo.broadcast_subtract", "chlo.broadcast_xor",
    "chlo.broadcast_zeta", "chlo.conj", "chlo.constant_like", "chlo.cosh", "chlo.digamma",
    "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf", "chlo.is_neg_inf", "chlo.is_pos_inf",
    "chlo.lgamma", "chlo.sinh", "chlo.square", "chlo.tan", "stablehlo.abs", "stablehlo.add",
    "stablehlo.and", "stablehlo.atan2", "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.clamp",
    "stablehlo.compare", "stablehlo.complex", "stablehlo.convert", "stablehlo.cosine",
    "stablehlo.count_leading_zeros", "stablehlo.divide", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag", "stablehlo.is_finite",
    "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.maximum",
    "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.or",
    "stablehlo.popcnt", "stablehlo.power", "stablehlo.real", "stablehlo.reduce_precision",
    "stablehlo.remainder", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
    "stablehlo.rsqrt", "stablehlo.select", "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical", "stablehlo.sign",
    "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh",
    "stablehlo.uniform_dequantize", "stablehlo.uniform_quantize", "stablehlo.xor",
})
#: Ops with the ``Pure`` trait.
PURE_OPS = frozenset({
    "chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan",
    "chlo.atanh", "chlo.bessel_i1e", "chlo.broadcast_add", "chlo.broadcast_and",
    "chlo.broadcast_atan2", "chlo.broadcast_compare", "chlo.broadcast_complex",
    "chlo.broadcast_divide", "chlo.broadcast_maximum", "chlo.broadcast_minimum",
    "chlo.broadcast_multiply", "chlo.broadcast_next_after", "chlo.broadcast_or",
    "chlo.broadcast_polygamma", "chlo.broadcast_power", "chlo.broadcast_remainder",
    "chlo.broadcast_select", "chlo.broadcast_shift_left", "chlo.broadcast_shift_right_arithmetic",
    "chlo.broadcast_shift_right_logical", "chlo.broadcast_subtract", "chlo.broadcast_xor",
    "chlo.broadcast_zeta", "chlo.conj", "chlo.constant", "chlo.constant_like", "chlo.cosh",
    "chlo.digamma", "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf", "chlo.is_neg_inf",
    "chlo.is_pos_inf", "chlo.lgamma", "chlo.mulhi", "chlo.next_after", "chlo.polygamma",
    "chlo.ragged_dot", "chlo.sinh", "chlo.square", "chlo.tan", "chlo.top_k", "chlo.zeta",
    "sdy.constant", "sdy.propagation_barrier", "sdy.reshard", "sdy.return", "stablehlo.after_all",
    "stablehlo.broadcast", "stablehlo.constant", "stablehlo.create_token", "stablehlo.dot",
    "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.einsum",
    "stablehlo.get_dimension_size", "stablehlo.get_tuple_element", "stablehlo.iota",
    "stablehlo.optimization_barrier", "stablehlo.partition_id", "stablehlo.replica_id",
    "stablehlo.return", "stablehlo.torch_index_select", "stablehlo.tuple",
    "stablehlo.unary_einsum",
})
#: ``NoMemoryEffect`` ops that are speculatable when their shapes are static (``HLO_Speculatable*``
#: traits or a ``ConditionallySpeculatable`` implementation).
PURE_IF_STATIC_OPS = frozenset({
    "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2",
    "stablehlo.batch_norm_grad", "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training",
    "stablehlo.bitcast_convert", "stablehlo.broadcast_in_dim", "stablehlo.cbrt", "stablehlo.ceil",
    "stablehlo.clamp", "stablehlo.compare", "stablehlo.complex", "stablehlo.concatenate",
    "stablehlo.convert", "stablehlo.convolution", "stablehlo.cosine",
    "stablehlo.count_leading_zeros", "stablehlo.divide", "stablehlo.dot_general",
    "stablehlo.dynamic_broadcast_in_dim", "stablehlo.dynamic_conv", "stablehlo.dynamic_gather",
    "stablehlo.dynamic_iota", "stablehlo.dynamic_pad", "stablehlo.dynamic_reshape",
    "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.fft", "stablehlo.floor",
    "stablehlo.gather", "stablehlo.imag", "stablehlo.is_finite", "stablehlo.log",
    "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.or", "stablehlo.pad",
    "stablehlo.popcnt", "stablehlo.power", "stablehlo.real", "stablehlo.real_dynamic_slice",
    "stablehlo.reduce_precision", "stablehlo.remainder", "stablehlo.reshape", "stablehlo.reverse",
    "stablehlo.rng_bit_generator", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
    "stablehlo.rsqrt", "stablehlo.select", "stablehlo.set_dimension_size", "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical", "stablehlo.sign",
    "stablehlo.sine", "stablehlo.slice", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan",
    "stablehlo.tanh", "stablehlo.transpose", "stablehlo.triangular_solve",
    "stablehlo.uniform_dequantize", "stablehlo.uniform_quantize", "stablehlo.xor",
})
#: Ops speculatable when every static result dimension is static in the input
#: (``HLO_SpeculatableIfStaticDimInOutputIsStaticInInput``); the others of ``PURE_IF_STATIC_OPS``
#: need static inputs.
STATIC_DIM_SPECULATABLE_OPS = frozenset({
    "stablehlo.abs", "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.convert", "stablehlo.cosine",
    "stablehlo.count_leading_zeros", "stablehlo.exponential", "stablehlo.exponential_minus_one",
    "stablehlo.floor", "stablehlo.imag", "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
    "stablehlo.logistic", "stablehlo.negate", "stablehlo.not", "stablehlo.pad", "stablehlo.popcnt",
    "stablehlo.real", "stablehlo.reduce_precision", "stablehlo.reverse", "stablehlo.rng_bit_generator",
    "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.sign",
    "stablehlo.sine", "stablehlo.slice", "stablehlo.sqrt", "stablehlo.tan", "stablehlo.tanh",
    "stablehlo.uniform_dequantize", "stablehlo.uniform_quantize",
})
#: Shardy's own ops ``isElementwise`` treats as elementwise.
SDY_ELEMENTWISE_OPS = frozenset({"sdy.propagation_barrier", "sdy.sharding_constraint", "sdy.reshard"})


def _shape(type_) -> tuple | None:
    return tuple(type_.shape) if isinstance(type_, RankedTensorType) else None


def is_elementwise(op: Operation) -> bool:
    """``isElementwise``: an elementwise op, a shape-preserving ``bitcast_convert`` or one of
    Shardy's pass-through ops."""
    if op.name in ELEMENTWISE_OPS or op.name in SDY_ELEMENTWISE_OPS:
        return True
    if op.name == "stablehlo.bitcast_convert":
        return _shape(op.operands[0].type) == _shape(op.results[0].type)
    return False


def _static(type_) -> bool:
    return isinstance(type_, RankedTensorType) and type_.has_static_shape


def _speculatable(op: Operation) -> bool:
    if op.name in STATIC_DIM_SPECULATABLE_OPS and op.operands and op.results:
        ins, outs = _shape(op.operands[0].type), _shape(op.results[0].type)
        if ins is None or outs is None:
            return False
        return all(o == DYNAMIC or i != DYNAMIC for i, o in zip(ins, outs, strict=False))
    return all(_static(v.type) for v in op.operands) and all(_static(v.type) for v in op.results)


def is_pure(op: Operation) -> bool:
    """MLIR's ``isPure`` (speculatable and free of memory effects) for the ops listed here."""
    if op.name in PURE_OPS:
        return True
    return op.name in PURE_IF_STATIC_OPS and _speculatable(op)
