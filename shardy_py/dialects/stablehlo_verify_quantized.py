"""ODS operand constraints of StableHLO's ops on quantized element types (``StablehloOps.td``,
``Base.td``): most ops take per-tensor quantized tensors only (``HLO_Tensor`` and its kin), so a
per-axis quantized operand fails the op's operand constraint, with ODS's message naming the
constraint's description.  Registered in front of each op's own verifier (``registry.add_verifier``).
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import OPS, add_verifier
from shardy_py.dialects.stablehlo_verify_common import element
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import QuantizedType

_F, _P, _I = "4/6/8/16/32/64-bit float", "bool", "2/4/8/16/32/64-bit integer"
_C, _Q = "complex type with 32/64-bit float elements", "per-tensor integer quantized"


def _ranked(*kinds: str) -> str:
    return "ranked tensor of " + " or ".join(kinds) + " values"


#: ``HLO_Tensor`` and the other per-tensor-only constraints, as ODS describes them.
TENSOR = _ranked(_F, _P, _I, _C, _Q)
FP_COMPLEX_OR_QUANTIZED = _ranked(_F, _C, _Q)
FP_OR_QUANTIZED = _ranked(_F, _Q)
INT_FP_COMPLEX_OR_QUANTIZED = _ranked(_I, _F, _C, _Q)
SIGNLESS_INT_FP_COMPLEX_OR_QUANTIZED = _ranked("2/4/8/16/32/64-bit signless integer", _F, _C, _Q)
VARIADIC_TENSOR = "variadic of " + TENSOR
#: ``HLO_TensorOrPerAxisQuantizedTensor`` and the quantized-only constraints of uniform_quantize/dequantize.
TENSOR_OR_PER_AXIS = _ranked(_F, _P, _I, _C, _Q, "per-axis integer quantized")
QUANTIZED = _ranked(_Q, "per-axis integer quantized")
VARIADIC_TENSOR_OR_TOKEN = VARIADIC_TENSOR + " or token"

_ALL = None
#: op -> (constraint description, the operand indices it covers; None: every operand).
CONSTRAINTS: dict[str, tuple[str, tuple[int, ...] | None]] = {
    **{n: (TENSOR, _ALL) for n in ("clamp", "compare", "maximum", "minimum", "multiply", "select_and_scatter",
                                   "and", "or", "xor", "shift_left", "shift_right_arithmetic",
                                   "shift_right_logical")},
    **{n: (TENSOR, (0,)) for n in ("collective_permute", "dynamic_slice", "gather", "pad", "reduce_scatter",
                                   "reverse", "slice", "dot_general", "convolution", "dynamic_conv", "dot",
                                   "real_dynamic_slice", "dynamic_pad", "dynamic_gather", "dynamic_iota")},
    "dynamic_update_slice": (TENSOR, (0, 1)),
    "select": (TENSOR, (1, 2)),
    **{n: (FP_COMPLEX_OR_QUANTIZED, _ALL) for n in ("atan2", "cbrt", "cholesky", "cosine", "exponential",
                                                    "exponential_minus_one", "log", "log_plus_one", "logistic",
                                                    "rsqrt", "sine", "sqrt", "tanh", "tan")},
    **{n: (FP_OR_QUANTIZED, _ALL) for n in ("ceil", "floor", "is_finite", "reduce_precision", "round_nearest_afz",
                                            "round_nearest_even")},
    **{n: (FP_OR_QUANTIZED, (0,)) for n in ("batch_norm_grad", "batch_norm_inference", "batch_norm_training")},
    **{n: (INT_FP_COMPLEX_OR_QUANTIZED, _ALL) for n in ("divide", "negate", "power", "remainder", "subtract")},
    "abs": (SIGNLESS_INT_FP_COMPLEX_OR_QUANTIZED, _ALL),
    **{n: (VARIADIC_TENSOR, _ALL) for n in ("all_gather", "all_reduce", "all_to_all", "concatenate", "map",
                                            "reduce", "reduce_window", "sort", "collective_broadcast",
                                            "collective_reduce")},
    "scatter": (VARIADIC_TENSOR, _ALL),
    "optimization_barrier": (VARIADIC_TENSOR_OR_TOKEN, _ALL),
}
#: The operands whose constraint takes per-axis quantized tensors too (still valid ones only).
PER_AXIS_CONSTRAINTS: dict[str, tuple[str, tuple[int, ...] | None]] = {
    **{n: (TENSOR_OR_PER_AXIS, _ALL) for n in ("add", "bitcast_convert", "reshape", "transpose")},
    **{n: (TENSOR_OR_PER_AXIS, (0,)) for n in ("broadcast_in_dim", "dynamic_broadcast_in_dim", "dynamic_reshape",
                                               "get_dimension_size")},
    **{n: (TENSOR_OR_PER_AXIS, (1,)) for n in ("convolution", "dot_general", "dynamic_conv")},
    "uniform_dequantize": (QUANTIZED, _ALL),
}


_PER_AXIS_TEXT = re.compile(r"!quant\.uniform<[^:<>]+(?:<[^>]*>)?:[^:,]+:-?\d+\s*,\s*\{")


def _per_axis(t) -> bool:
    """A tensor of per-axis quantized elements (a storage type our type reader keeps as text, like
    ``ui8``, is recognised by its spelling)."""
    e = element(t) if t is not None else None
    if isinstance(e, QuantizedType):
        return e.is_per_axis
    return e is not None and bool(_PER_AXIS_TEXT.match(e.text))


def _valid_element(e: QuantizedType) -> bool:
    """``isValidStablehloQuantizedElementType`` and the storage-type predicates of the quantized
    constraints: a signless (or unsigned) storage type, every zero point within the storage range."""
    return not e.storage_type.startswith("si") and all(e.storage_min <= z <= e.storage_max for z in e.zero_points)


def _valid_dimension(t, e: QuantizedType) -> bool:
    """``isValidQuantizedDimension``: a per-axis dimension inside the rank, with one scale per element."""
    dims = getattr(t, "shape", None)
    if dims is None or not e.is_per_axis:
        return True
    d = e.quantized_dimension
    return d < len(dims) and (dims[d] < 0 or len(e.scales) == dims[d])


def _fails(t, per_axis_ok: bool) -> bool:
    """Whether type ``t`` fails a constraint (per-tensor quantized only, or per-axis too)."""
    if t is None:
        return False
    e = element(t)
    if not isinstance(e, QuantizedType):
        return not per_axis_ok and _per_axis(t)
    if not _valid_element(e):
        return True
    return (not per_axis_ok and e.is_per_axis) or not _valid_dimension(t, e)


def _rule(description: str, indices: tuple[int, ...] | None, per_axis_ok: bool):
    def verify_operand_constraint(op, ctx) -> Failure | None:
        """ODS: each covered operand a valid quantized type of the granularity the constraint takes."""
        for i, v in enumerate(op.operands):
            t = v.type if v is not None else None
            # only a tensor of quantized elements can fail here: the common case costs one string test
            if t is not None and getattr(t, "element_type", "").startswith("!quant") and \
                    (indices is None or i in indices) and _fails(t, per_axis_ok):
                return fail(f"'{op.name}' op operand #{i} must be {description}, but got '{t}'")
        return None

    verify_operand_constraint.shape_only = True  # (reads the op's name and operand types: ``registry.add_verifier``)
    return verify_operand_constraint


def verify_uniform_quantize(op, ctx) -> Failure | None:
    """ODS (the result is a valid quantized tensor) and ``verifyUniformQuantizeOp``: the result's expressed
    type is the operand's float type (or its expressed type when it is quantized too)."""
    if len(op.operands) != 1 or len(op.results) != 1 or op.operands[0] is None:
        return None
    operand, result = op.operands[0].type, op.results[0].type
    if result is None or operand is None:
        return None
    if not isinstance(element(result), QuantizedType) or _fails(result, True):
        return fail(f"'{op.name}' op result #0 must be {QUANTIZED}, but got '{result}'")
    source = element(operand)
    expected = source.expressed_type if isinstance(source, QuantizedType) else source
    got = element(result).expressed_type
    if str(expected) != str(got):
        return fail(f"Expressed type of result expected to be '{expected}', but got '{got}'")
    return None


for _table, _per_axis_ok in ((CONSTRAINTS, False), (PER_AXIS_CONSTRAINTS, True)):
    for _name, (_description, _indices) in _table.items():
        if f"stablehlo.{_name}" in OPS:
            add_verifier(f"stablehlo.{_name}", _rule(_description, _indices, _per_axis_ok))
add_verifier("stablehlo.uniform_quantize", verify_uniform_quantize)
