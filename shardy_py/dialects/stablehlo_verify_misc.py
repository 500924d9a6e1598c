"""Verifiers of StableHLO's constant, fft, linear-algebra and random-number ops (``inferConstantOp``,
``inferFftOp``, ``inferTriangularSolveOp``, ``inferCholeskyOp``, ``inferRngOp``, ``verifyRngBitGeneratorOp`` in
StableHLO's ``TypeInference.cpp``, with the ODS constraints of ``StablehloOps.td``)."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.dialects.stablehlo_verify_common import (
    attr_position,
    check_inferred,
    clean_when_seen,
    constant_ints,
    dims_compatible,
    element,
    element_kind,
    emit,
    in_types,
    ints_prop,
    is_complex,
    is_float,
    op_fail,
    out_types,
    prop,
    shape,
    shapes_compatible,
    static_dimension_tensor,
    tensor,
    typed_prop,
)
from shardy_py.ir.diagnostics import Failure
from shardy_py.ir.types import QuantizedType, RankedTensorType

#: How LLVM prints a ``?`` size held as ``ShapedType::kDynamic`` in a plain integer list.
_K_DYNAMIC = -9223372036854775808


def _raw(dims: Sequence[int]) -> str:
    """A shape as StableHLO's messages print an ``ArrayRef<int64_t>``: ``3, 9`` (``?`` as ``kDynamic``)."""
    return ", ".join(str(_K_DYNAMIC if d < 0 else d) for d in dims)


def verify_constant(op, ctx) -> Failure | None:
    """``stablehlo.constant``: a statically shaped value and result; the result is the value's type."""
    value = prop(op, "value")
    result = out_types(op)[0] if op.results else None
    text = str(value) if value is not None else ""
    colon = text.rfind(" : ")
    if colon < 0 or result is None:
        return None
    from shardy_py.ir.types import parse_type

    value_type = parse_type(text[colon + 3:])
    s = shape(value_type)
    if s is not None and any(d < 0 for d in s):
        return Failure("elements literal type must have static shape", (),
                       attr_position(op, ctx, text[:5]) if not op.generic_form else None)
    rs = shape(result)
    if isinstance(result, RankedTensorType) and rs is not None and any(d < 0 for d in rs):
        return op_fail(op, f"result #0 must be statically shaped tensor of ... values, but got '{result}'")
    return constant_type_mismatch(op, value_type, result)


def constant_type_mismatch(op, value_type, result) -> Failure | None:
    """The InferTypeOpInterface check of a constant (``stablehlo.constant``, ``sdy.constant``): the result is
    the value's type, or for a quantized result its storage type (``ConstantOp::isCompatibleReturnTypes``)."""
    stored = result
    e = element(result)
    rs = shape(result)
    if isinstance(e, QuantizedType) and rs is not None:
        stored = tensor(rs, ("ui" if e.storage_type.startswith("u") else "i") + str(e.storage_width))
    if isinstance(value_type, RankedTensorType) and value_type.text != stored.text:
        return op_fail(op, f"inferred type(s) '{value_type}' are incompatible with return type(s) of operation "
                           f"'{result}'")
    return None


@clean_when_seen
def verify_fft(op, ctx) -> Failure | None:
    """``stablehlo.fft``: ``inferFftOp``."""
    operand_t = in_types(op)[0]
    operand = shape(operand_t)
    lengths = ints_prop(op, "fft_length")
    kind = getattr(typed_prop(op, "fft_type"), "value", None)
    if operand is None or lengths is None or kind is None:
        return None
    rank = len(lengths)
    if not 1 <= rank <= 3:
        return emit(f"rank must be between 1 and 3, but got {rank}.")
    elem = element(operand_t)
    if kind == "RFFT":
        if elem.text not in ("f32", "f64"):
            return emit(f"RFFT requires f32 or f64 input type, but is given '{elem}'.")
        out_elem = f"complex<{elem}>"
    else:
        if not is_complex(operand_t):
            return emit(f"FFT/IFFT/IRFFT take a complex tensor as input, but is given '{operand_t}'.")
        out_elem = elem.element.text if kind == "IRFFT" else elem.text
    if len(operand) < rank:
        return emit(f"operand rank must not be less than fft rank of {rank} for operand of type '{operand_t}'.")
    dims = list(operand)
    if kind == "RFFT":
        if not all(map(dims_compatible, operand[-rank:], lengths)):
            return emit(f"RFFT requires innermost dimensions to be compatible with fft_length. Got: {_raw(operand)} "
                        f"but wanted {_raw(lengths)}.")
        if lengths[-1] != 0:
            dims[-1] = lengths[-1] // 2 + 1
    if kind == "IRFFT":
        for d, n in zip(operand[-rank:][:-1], lengths, strict=False):
            if not dims_compatible(d, n):
                return emit(f"IRFFT requires non-final dimensions to be compatible with fft_length. Got: "
                            f"{_raw(operand)} but wanted {_raw(lengths)}, and {_raw([d])} != {n}.")
        last = operand[-1]
        if (not dims_compatible(last, 0) or lengths[-1] != 0) and not dims_compatible(last, lengths[-1] // 2 + 1):
            return emit(f"IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: "
                        f"{_raw([last])} but fft_length is {_raw(lengths)}.")
        dims[-1] = lengths[-1]
    return check_inferred(op, [tensor(dims, out_elem)])


@clean_when_seen
def verify_triangular_solve(op, ctx) -> Failure | None:
    """``stablehlo.triangular_solve``: ``inferTriangularSolveOp``."""
    types = in_types(op)
    if len(types) < 2 or shape(types[0]) is None or shape(types[1]) is None:
        return None
    a_t, b_t = types
    a, b = shape(a_t), shape(b_t)
    if len(a) < 2:
        return emit(f"operand 'a' must have rank >= 2, but got '{a_t}'")
    if not dims_compatible(a[-2], a[-1]):
        return emit(f"two minor dimensions of operand 'a' must be compatible, but got '{a_t}'")
    if len(a) != len(b):
        return emit(f"operands must have equal rank, but got '{a_t}' and '{b_t}'")
    left = str(prop(op, "left_side")) .startswith("true")
    if not dims_compatible(a[-1], b[-2 if left else -1]):
        return emit(f"shared dimension of operands 'a' and 'b' must be compatible, but got '{a_t}' and '{b_t}'")
    if not all(map(dims_compatible, a[:-2], b[:-2])):
        return emit(f"batch dimensions of the operands must be compatible, but got '{a_t}' and '{b_t}'")
    if getattr(typed_prop(op, "transpose_a"), "value", None) == "TRANSPOSE_INVALID":
        return emit("Invalid transpose option value for triangular solve")
    return check_inferred(op, [b_t])


@clean_when_seen
def verify_cholesky(op, ctx) -> Failure | None:
    """``stablehlo.cholesky``: ``inferCholeskyOp``."""
    a_t = in_types(op)[0]
    a = shape(a_t)
    if a is None:
        return None
    if len(a) < 2:
        return emit(f"argument 'a' must have rank >= 2, got shape {_raw(a)}.")
    if not dims_compatible(a[-2], a[-1]):
        return emit(f"minor dimensions of 'a' must have equal size, got shape {_raw(a)}.")
    return check_inferred(op, [a_t])


def verify_rng(op, ctx) -> Failure | None:
    """``stablehlo.rng``: 0-D ``a`` and ``b``, a static 1-D shape, floats for NORMAL; the result shape from a constant
    shape operand (``inferRngOp``)."""
    types = in_types(op)
    if len(types) < 3 or any(t is None for t in types):
        return None
    for i in (0, 1):
        if shape(types[i]) != () or element_kind(types[i]) not in ("pred", "int", "float"):
            return op_fail(op, f"operand #{i} must be 0D tensor of bool or 2/4/8/16/32/64-bit integer or "
                               f"4/6/8/16/32/64-bit float values, but got '{types[i]}'")
    f = static_dimension_tensor(op, 2)
    if f is not None:
        return f
    if getattr(typed_prop(op, "rng_distribution"), "value", None) == "NORMAL" and \
            not (is_float(types[0]) and is_float(types[1])):
        return emit("mu and sigma must be floats")
    values = constant_ints(op.operands[2])
    dims = values if values is not None else [-1] * shape(types[2])[0]
    return check_inferred(op, [tensor(dims, element(types[1]))])


@clean_when_seen
def verify_rng_bit_generator(op, ctx) -> Failure | None:
    """``stablehlo.rng_bit_generator``: ``verifyRngBitGeneratorOp``."""
    initial = in_types(op)[0]
    outs = out_types(op)
    if not outs or shape(initial) is None or shape(outs[0]) is None:
        return None
    if not shapes_compatible(initial, outs[0]) or len(shape(initial)) != len(shape(outs[0])):
        return emit(f"output state shape must be compatible with initial state shape. Got: '{initial}' and "
                    f"'{outs[0]}'")
    return None
