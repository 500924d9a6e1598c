"""Verifiers of StableHLO's element-wise ops: the element types ODS allows each operand and result
(``StablehloOps.td``, ``Base.td``), the shape traits (``SameOperandsAndResultShape``, ``Elementwise``,
``HLO_CompatibleOperandsAndResultType``), ``result_accuracy``, and the type rules of ``TypeInference.cpp``
(``inferAbsOp``, ``inferImagOp``, ``inferIsFiniteOp``, ``verifyAddOp``, ``inferClampOp``, ``inferSelectOp``,
``inferCompareOp``, ``inferComplexOp``, ``verifyBitcastConvertOp``)."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.dialects.stablehlo_verify_common import (
    attribute_verifier_failure,
    bit_width,
    check_inferred,
    clean_when_seen,
    compatible,
    dims_compatible,
    element,
    element_kind,
    elements_compatible,
    emit,
    in_types,
    int_prop,
    is_complex,
    is_quantized,
    op_fail,
    out_types,
    shape,
    shapes_compatible,
    tensor,
)
from shardy_py.ir.diagnostics import Failure
from shardy_py.ir.types import ComplexType, QuantizedType, RankedTensorType, Type

# ODS element classes: pred, int (signless or unsigned), sint (signless only: ``HLO_SInt``), float,
# complex, quant (per-tensor), quant_axis (per-axis).
_DESCRIPTIONS = {"pred": "bool", "int": "2/4/8/16/32/64-bit integer", "sint": "2/4/8/16/32/64-bit signless integer",
                 "float": "4/6/8/16/32/64-bit float", "complex": "complex type with 32/64-bit float elements",
                 "quant": "per-tensor integer quantized", "quant_axis": "per-axis integer quantized"}
FQ = ("float", "quant")
FCQ = ("float", "complex", "quant")
IFCQ = ("int", "float", "complex", "quant")
ANY = ("float", "pred", "int", "complex", "quant")
PI = ("pred", "int")

#: Per op: (operand classes, result classes).
ELEMENT_CLASSES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{n: (FCQ, FCQ) for n in ("cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one",
                                "logistic", "rsqrt", "sine", "sqrt", "tan", "tanh", "atan2")},
    **{n: (FQ, FQ) for n in ("ceil", "floor", "round_nearest_afz", "round_nearest_even")},
    **{n: (("int",), ("int",)) for n in ("count_leading_zeros", "popcnt", "shift_left", "shift_right_arithmetic",
                                         "shift_right_logical")},
    **{n: (PI, PI) for n in ("not", "and", "or", "xor")},
    **{n: (IFCQ, IFCQ) for n in ("negate", "divide", "power", "remainder", "subtract")},
    **{n: (ANY, ANY) for n in ("maximum", "minimum", "multiply", "compare", "clamp")},
    "abs": (("sint", "float", "complex", "quant"), ("sint", "float", "quant")),
    "sign": (("sint", "float", "complex", "quant"), ("sint", "float", "complex", "quant")),
    "convert": (("float", "pred", "int", "complex"), ("float", "pred", "int", "complex")),
    "imag": (("float", "complex"), ("float",)),
    "real": (("float", "complex"), ("float",)),
    "is_finite": (FQ, ("pred",)),
    "add": ((*ANY, "quant_axis"), (*ANY, "quant_axis")),
    "reduce_precision": (FQ, FQ),
}

#: Ops with ``HLO_CompatibleOperandsAndResultType`` (each operand and result compatible with the first operand).
_COMPATIBLE_TYPES = frozenset({"cbrt", "ceil", "cosine", "count_leading_zeros", "exponential",
                               "exponential_minus_one", "floor", "log", "log_plus_one", "logistic", "not", "negate",
                               "popcnt", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt",
                               "tan", "tanh", "atan2", "divide", "maximum", "minimum", "multiply", "power",
                               "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical",
                               "subtract", "and", "or", "xor"})
_UNARY = frozenset({"abs", "cbrt", "ceil", "convert", "count_leading_zeros", "cosine", "exponential",
                    "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one", "logistic", "not",
                    "negate", "popcnt", "real", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine",
                    "sqrt", "tan", "tanh"})


def _class_of(t: Type) -> str | None:
    kind = element_kind(t)
    if kind == "int" and element(t).signedness == "":
        return "sint"
    return kind


def _allowed(t: Type, classes: Sequence[str]) -> bool:
    kind = _class_of(t)
    return kind in classes or (kind == "sint" and "int" in classes)


def _describe(classes: Sequence[str]) -> str:
    return " or ".join(_DESCRIPTIONS[c] for c in classes)


def check_element_types(op, short: str, operand_indices: Sequence[int] | None = None) -> Failure | None:
    """ODS operand and result constraints: ranked tensors of the op's element classes."""
    classes = ELEMENT_CLASSES.get(short)
    if classes is None:
        return None
    ins, outs = classes
    types = in_types(op)
    for i in (range(len(types)) if operand_indices is None else operand_indices):
        t = types[i]
        if t is not None and (not isinstance(t, RankedTensorType) or not _allowed(t, ins)):
            return op_fail(op, f"operand #{i} must be ranked tensor of {_describe(ins)} values, but got '{t}'")
    for i, t in enumerate(out_types(op)):
        if t is not None and (not isinstance(t, RankedTensorType) or not _allowed(t, outs)):
            return op_fail(op, f"result #{i} must be ranked tensor of {_describe(outs)} values, but got '{t}'")
    return None


def _same_shapes(types: Sequence[Type | None]) -> bool:
    """``verifyCompatibleShapes``: pairwise compatible shapes (dynamic sizes match anything)."""
    known = [shape(t) for t in types if shape(t) is not None]
    return all(len(s) == len(known[0]) and all(map(dims_compatible, s, known[0])) for s in known)


def _result_accuracy(op, ctx) -> Failure | None:
    """``ResultAccuracyAttr::verify``: non-negative tolerances, all zero for DEFAULT and HIGHEST."""
    return attribute_verifier_failure(op, ctx, "result_accuracy", "#stablehlo.result_accuracy<", ("olerance",))


def _real_of(t: Type) -> Type:
    """``createRealType``: complex elements become their real part."""
    e = element(t)
    return tensor(shape(t), e.element, None) if isinstance(e, ComplexType) else t


def _infer(op, short: str, types: list[Type]) -> Failure | None:
    """The result types ``TypeInference.cpp`` infers for the ops whose results are not the operand type."""
    first = types[0]
    if short in ("abs", "imag", "real"):
        return check_inferred(op, [_real_of(first)])
    if short in ("is_finite", "compare"):
        return check_inferred(op, [RankedTensorType.get(shape(first), "i1", first.encoding)])
    if short == "add":
        if any(is_quantized(t) for t in (*types, *out_types(op))):
            f = _add_quantization(types[0], types[1], out_types(op)[0])
            return f or check_inferred(op, [_most_specific(types)])
        if any(element(t) != element(first) for t in (*types, *out_types(op))):
            return emit("op requires the same element type for all operands and results")
        return check_inferred(op, [_most_specific(types)])
    return None


def _add_quantization(lhs: Type, rhs: Type, result: Type) -> Failure | None:
    """``verifyBinaryOpQuantizationConstraints``: all quantized alike (storage width, expressed type), per-axis
    operands give a per-axis result on their dimension."""
    q = [element(t) for t in (lhs, rhs, result)]
    if not all(isinstance(e, QuantizedType) for e in q):
        return emit("expects  all operands and results to be either quantized or non-quantized")
    if len({e.storage_width for e in q}) != 1:
        return emit("mismatched operands and result quantization storage types")
    if len({e.expressed_type for e in q}) != 1:
        return emit("mismatched operands and result quantization expressed types")
    (ql, t_l), (qr, t_r), (qo, t_o) = zip(q, (lhs, rhs, result), strict=True)
    if ql.is_per_axis or qr.is_per_axis:
        if not qo.is_per_axis:
            return emit("result is not per_axis quantized but lhs or rhs are")
        for side, e in (("lhs", ql), ("rhs", qr)):
            if e.is_per_axis and e.quantized_dimension != qo.quantized_dimension:
                return emit(f"quantization_dimension of {side} and result are not same '{e}' vs '{qo}'")
        return None
    if qo.is_per_axis:
        return emit("result per_axis quantized but none from rhs and lhs are per_axis quantized")
    return None


def _most_specific(types: Sequence[Type]) -> Type:
    """``inferMostSpecificType`` of ranked types with compatible shapes: each static size kept, else the
    tighter bound."""
    from shardy_py.dialects.stablehlo_verify_common import bounds

    rank = len(shape(types[0]))
    dims, bnds = [-1] * rank, [-1] * rank
    for t in types:
        b = bounds(t) or (-1,) * rank
        for i, d in enumerate(shape(t)):
            if d >= 0:
                dims[i] = d
            elif b[i] >= 0:
                bnds[i] = b[i] if bnds[i] < 0 else min(bnds[i], b[i])
    bnds = [b if dims[i] < 0 else -1 for i, b in enumerate(bnds)]
    return tensor(dims, element(types[0]), bnds)


@clean_when_seen
def verify_elementwise(op, ctx) -> Failure | None:
    """The unary and binary element-wise ops (``StableHLO_UnaryElementwiseOp``, ``StableHLO_BinaryElementwiseOp``)."""
    short = op.name.split(".", 1)[1]
    f = check_element_types(op, short)
    if f is not None:
        return f
    types, outs = in_types(op), out_types(op)
    if any(t is None for t in (*types, *outs)) or not types:
        return None
    if short in _COMPATIBLE_TYPES and not all(compatible(t, types[0]) for t in (*types, *outs)):
        return op_fail(op, "requires compatible types for all operands and results")
    if not _same_shapes((*types, *outs)):
        if short in _UNARY:
            return op_fail(op, "all non-scalar operands/results must have the same shape and base type")
        return op_fail(op, "requires the same shape for all operands and results")
    return _result_accuracy(op, ctx) or _infer(op, short, types)


@clean_when_seen
def verify_compare(op, ctx) -> Failure | None:
    """``stablehlo.compare``: element types, the same shapes and element types of both sides, an ``i1`` result."""
    f = check_element_types(op, "compare", (0, 1))
    types, outs = in_types(op), out_types(op)
    if f is not None or any(t is None for t in (*types, *outs)):
        return f
    if not all(isinstance(t, RankedTensorType) and element_kind(t) == "pred" for t in outs):
        return op_fail(op, f"result #0 must be ranked tensor of bool values, but got "
                           f"'{outs[0]}'")
    if not elements_compatible(types[0], types[1]):
        return op_fail(op, "requires all operands to have the same type")
    if not _same_shapes((*types, *outs)):
        return op_fail(op, "requires the same shape for all operands and results")
    return _infer(op, "compare", types)


@clean_when_seen
def verify_clamp(op, ctx) -> Failure | None:
    """``stablehlo.clamp``: ``inferClampOp`` (min and max scalar or of the operand's shape)."""
    f = check_element_types(op, "clamp")
    types = in_types(op)
    if f is not None or len(types) < 3 or any(shape(t) is None for t in types):
        return f
    lo, operand, hi = types
    if any(element(t) != element(operand) for t in (lo, hi, *out_types(op))):
        return op_fail(op, "requires the same element type for all operands and results")
    for name, t in (("min", lo), ("max", hi)):
        if shape(t) and not shapes_compatible(t, operand):
            return emit(f"{name} shape [{', '.join(map(str, shape(t)))}] is not scalar and is not compatible "
                               f"to operand shape [{', '.join(map(str, shape(operand)))}]")
    return check_inferred(op, [operand])


@clean_when_seen
def verify_select(op, ctx) -> Failure | None:
    """``stablehlo.select``: ``inferSelectOp``."""
    types = in_types(op)
    if len(types) < 3 or any(t is None for t in types):
        return None
    pred, on_true, on_false = types
    if not isinstance(pred, RankedTensorType) or element_kind(pred) != "pred":
        return op_fail(op, f"operand #0 must be ranked tensor of bool values, but got "
                           f"'{pred}'")
    if any(shape(t) is None for t in types):
        return None
    if not shapes_compatible(on_true, on_false) or element(on_true) != element(on_false):
        return emit("requires compatible types for non-predicate operands")
    if shape(pred) and not shapes_compatible(pred, on_true):
        return emit("requires the same shape for all operands")
    return check_inferred(op, [_most_specific([on_true, on_false])])


@clean_when_seen
def verify_complex(op, ctx) -> Failure | None:
    """``stablehlo.complex``: f32/f64 parts of one type; the result complex of it (``inferComplexOp``)."""
    types = in_types(op)
    if len(types) < 2 or any(shape(t) is None for t in types):
        return None
    for i, t in enumerate(types):
        if element(t).text not in ("f32", "f64"):
            return op_fail(op, f"operand #{i} must be ranked tensor of 32-bit float or 64-bit float values, but got "
                               f"'{t}'")
    if element(types[0]) != element(types[1]) or not _same_shapes(types):
        return emit("requires compatible types for all operands")
    return check_inferred(op, [tensor(shape(types[0]), f"complex<{element(types[0])}>")])


def _storage_width(t: Type) -> int | None:
    e = element(t)
    return e.storage_width if isinstance(e, QuantizedType) else bit_width(t)


@clean_when_seen
def verify_bitcast_convert(op, ctx) -> Failure | None:
    """``stablehlo.bitcast_convert``: ``verifyBitcastConvertOp``."""
    operand_t, result_t = in_types(op)[0], out_types(op)[0]
    operand, result = shape(operand_t), shape(result_t)
    if operand is None or result is None:
        return None
    if is_complex(operand_t) != is_complex(result_t):
        return emit(f"cannot convert between real and complex types, but got: '{operand_t}' and "
                           f"'{result_t}'")
    wo, wr = _storage_width(operand_t), _storage_width(result_t)
    if wo is None or wr is None:
        return None
    smaller, bigger = (operand, result) if wo < wr else (result, operand)
    small_w, big_w = min(wo, wr), max(wo, wr)
    prefix = smaller
    if wo != wr:
        if len(smaller) != len(bigger) + 1:
            return emit(f"rank of smaller element type ({len(smaller)}) should be 1 more than rank of larger "
                               f"element type ({len(bigger)}), but {len(smaller)} != {len(bigger)} + 1.")
        prefix = smaller[:-1]
        if smaller[-1] >= 0 and smaller[-1] * small_w != big_w:
            return emit(f"requires compatible bit widths. Got: '{operand_t}' and '{result_t}', but {small_w} * "
                               f"{smaller[-1]} != {big_w}.")
    if not all(map(dims_compatible, prefix, bigger)) or len(prefix) != len(bigger):
        return emit("operand and result shapes must match except for the innermost dimension of the shape "
                           f"with the smaller element type. Got: '{operand_t}' and '{result_t}'.")
    return None


@clean_when_seen
def verify_reduce_precision(op, ctx) -> Failure | None:
    """``stablehlo.reduce_precision``: element types and positive exponent / non-negative mantissa bits."""
    f = check_element_types(op, "reduce_precision")
    if f is not None:
        return f
    exponent, mantissa = int_prop(op, "exponent_bits"), int_prop(op, "mantissa_bits")
    if exponent is not None and exponent <= 0:
        return op_fail(op, "attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute "
                           "whose value is positive")
    if mantissa is not None and mantissa < 0:
        return op_fail(op, "attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer attribute "
                           "whose value is non-negative")
    return None
