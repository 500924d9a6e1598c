"""Elementwise StableHLO ops: arithmetic, logic, comparisons, math functions, conversions."""
from __future__ import annotations

import functools

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import (
    InterpretError,
    enum_attr,
    handler,
    int_attr,
    operand_element,
    result_element,
)
from shardy_py.interpreter.values import dtype_of, is_bool, is_complex, is_float, is_int

# -- binary arithmetic -----------------------------------------------------------------------------


def _binary(name: str, a: np.ndarray, b: np.ndarray, fn):
    return fn(arith.wide(a, name), arith.wide(b, name))


@handler("stablehlo.add")
def _add(ev, op, args):
    name = result_element(op)
    a, b = args
    if is_bool(name):
        return [a | b]
    return [_binary(name, a, b, np.add)]


@handler("stablehlo.subtract")
def _subtract(ev, op, args):
    name = result_element(op)
    return [_binary(name, *args, np.subtract)]


@handler("stablehlo.multiply")
def _multiply(ev, op, args):
    name = result_element(op)
    a, b = args
    if is_bool(name):
        return [a & b]
    return [_binary(name, a, b, np.multiply)]


@handler("stablehlo.divide")
def _divide(ev, op, args):
    name = result_element(op)
    a, b = args
    if is_int(name):
        return [arith.int_divide(a, b, name)]
    if is_complex(name):
        return [a.astype(np.complex128) / b.astype(np.complex128)]
    return [_binary(name, a, b, np.divide)]


@handler("stablehlo.remainder")
def _remainder(ev, op, args):
    name = result_element(op)
    a, b = args
    if is_int(name):
        return [arith.int_remainder(a, b, name)]
    if is_complex(name):
        raise InterpretError("remainder of complex numbers is not supported")
    return [_binary(name, a, b, np.fmod)]


@handler("stablehlo.maximum", "stablehlo.minimum")
def _max_min(ev, op, args):
    name = result_element(op)
    a, b = args
    take_max = op.name == "stablehlo.maximum"
    if is_bool(name):
        return [a | b if take_max else a & b]
    if is_complex(name):
        return [arith.complex_max_min(a, b, take_max)]
    if is_float(name):
        return [arith.float_max_min(arith.wide(a, name), arith.wide(b, name), take_max)]
    return [np.maximum(a, b) if take_max else np.minimum(a, b)]


@handler("stablehlo.power")
def _power(ev, op, args):
    name = result_element(op)
    a, b = args
    if is_int(name):
        return [arith.int_power(a, b, name)]
    return [np.power(arith.upcast(a, name), arith.upcast(b, name))]


@handler("stablehlo.atan2")
def _atan2(ev, op, args):
    name = result_element(op)
    y, x = (arith.upcast(v, name) for v in args)
    if is_complex(name):
        return [-1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))]
    return [np.arctan2(y, x)]


@handler("stablehlo.and", "stablehlo.or", "stablehlo.xor")
def _logic(ev, op, args):
    fn = {"stablehlo.and": np.bitwise_and, "stablehlo.or": np.bitwise_or, "stablehlo.xor": np.bitwise_xor}[op.name]
    return [fn(*args)]


@handler("stablehlo.shift_left", "stablehlo.shift_right_logical", "stablehlo.shift_right_arithmetic")
def _shift(ev, op, args):
    kind = op.name.removeprefix("stablehlo.shift_")
    return [arith.shift(args[0], args[1], result_element(op), kind)]


@handler("stablehlo.complex")
def _complex(ev, op, args):
    re, im = np.broadcast_arrays(*args)
    out = np.empty(re.shape, dtype=np.complex128)
    out.real = re  # set, not re + 1j * im: an infinite or NaN imaginary part leaves the real one alone
    out.imag = im
    return [out]


# -- comparisons -------------------------------------------------------------------------------

_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "GE": np.greater_equal, "GT": np.greater,
            "LE": np.less_equal, "LT": np.less}


def compare(a: np.ndarray, b: np.ndarray, direction: str, compare_type: str | None, name: str) -> np.ndarray:
    """``stablehlo.compare`` of arrays of element type ``name`` (``compare_type`` read as the reference
    interpreter reads it: not at all)."""
    fn = _COMPARE[direction]
    if is_complex(name):
        if direction in ("EQ", "NE"):
            return fn(a, b)
        key_a = np.stack([a.real, a.imag])
        key_b = np.stack([b.real, b.imag])
        lt = (key_a[0] < key_b[0]) | ((key_a[0] == key_b[0]) & (key_a[1] < key_b[1]))
        eq = a == b
        return {"LT": lt, "LE": lt | eq, "GT": ~lt & ~eq, "GE": ~lt}[direction]
    if is_float(name):
        # StableHLO's reference interpreter (compareOp in Ops.cpp) ignores ``compare_type``: TOTALORDER
        # compares as FLOAT does (NaN unordered), and so does this (tests pin what jaxlib 0.12 gives)
        return fn(arith.wide(a, name), arith.wide(b, name))
    return fn(a, b)


@handler("stablehlo.compare")
def _compare(ev, op, args):
    direction = enum_attr(op, "comparison_direction")
    compare_type = enum_attr(op, "compare_type")
    return [compare(args[0], args[1], direction, compare_type, operand_element(op))]


# -- unary -----------------------------------------------------------------------------------------


@handler("stablehlo.negate")
def _negate(ev, op, args):
    name = result_element(op)
    x = args[0]
    if is_int(name):
        return [np.zeros((), x.dtype) - x]
    return [-arith.wide(x, name)]


@handler("stablehlo.abs")
def _abs(ev, op, args):
    name = operand_element(op)
    x = args[0]
    if is_complex(name):
        return [np.abs(x.astype(np.complex128))]
    if is_int(name):
        return [np.where(x < 0, np.zeros((), x.dtype) - x, x)]
    return [np.abs(x)]


@handler("stablehlo.not")
def _not(ev, op, args):
    x = args[0]
    if x.dtype == np.bool_:
        return [~x]
    return [np.invert(x)]


@handler("stablehlo.sign")
def _sign(ev, op, args):
    name = result_element(op)
    x = args[0]
    if is_complex(name):
        c = x.astype(np.complex128)
        mag = np.abs(c)
        nan = np.isnan(c.real) | np.isnan(c.imag)
        out = np.where(mag == 0, 0, c / np.where(mag == 0, 1, mag))
        return [np.where(nan, complex(np.nan, np.nan), out)]
    if is_float(name):
        w = arith.wide(x, name)
        return [np.where(np.isnan(w), w, np.where(w == 0, w, np.sign(w)))]
    return [np.sign(x)]


def _rounding(fn):
    def run(ev, op, args):
        name = result_element(op)
        return [fn(arith.wide(args[0], name))]

    return run


handler("stablehlo.ceil")(_rounding(np.ceil))
handler("stablehlo.floor")(_rounding(np.floor))
handler("stablehlo.round_nearest_even")(_rounding(np.rint))
handler("stablehlo.round_nearest_afz")(_rounding(arith.round_half_away))


def _logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


_UPCAST_MATH = {
    "stablehlo.sqrt": np.sqrt, "stablehlo.rsqrt": lambda x: 1.0 / np.sqrt(x), "stablehlo.cbrt": np.cbrt,
    "stablehlo.exponential": np.exp, "stablehlo.exponential_minus_one": np.expm1, "stablehlo.log": np.log,
    "stablehlo.log_plus_one": np.log1p, "stablehlo.logistic": _logistic, "stablehlo.sine": np.sin,
    "stablehlo.cosine": np.cos, "stablehlo.tan": np.tan, "stablehlo.tanh": np.tanh,
}


@handler(*_UPCAST_MATH)
def _math(ev, op, args):
    name = result_element(op)
    fn = _UPCAST_MATH[op.name]
    x = arith.upcast(args[0], name)
    if op.name == "stablehlo.cbrt" and is_complex(name):
        return [np.power(x, 1.0 / 3.0)]
    return [fn(x)]


@handler("stablehlo.is_finite")
def _is_finite(ev, op, args):
    return [np.isfinite(arith.wide(args[0], operand_element(op)))]


@handler("stablehlo.popcnt")
def _popcnt(ev, op, args):
    return [arith.popcount(args[0], result_element(op))]


@handler("stablehlo.count_leading_zeros")
def _clz(ev, op, args):
    return [arith.count_leading_zeros(args[0], result_element(op))]


@handler("stablehlo.real")
def _real(ev, op, args):
    x = args[0]
    return [x.real.copy() if np.iscomplexobj(x) else x]


@handler("stablehlo.imag")
def _imag(ev, op, args):
    x = args[0]
    return [x.imag.copy() if np.iscomplexobj(x) else np.zeros_like(x)]


@handler("stablehlo.convert")
def _convert(ev, op, args):
    return [arith.convert(args[0], operand_element(op), result_element(op))]


@handler("stablehlo.bitcast_convert")
def _bitcast_convert(ev, op, args):
    from shardy_py.interpreter.values import bit_width

    src, dst = operand_element(op), result_element(op)
    x = args[0]
    out_shape = tuple(op.results[0].type.shape)
    sw, dw = bit_width(src), bit_width(dst)
    if sw % 8 == 0 and dw % 8 == 0 and src != "i1" and dst != "i1":  # whole bytes: little-endian data
        return [np.ascontiguousarray(x).view(np.uint8).view(dtype_of(dst)).reshape(out_shape)]
    if is_complex(src) or is_complex(dst):
        raise InterpretError(f"bitcast_convert from {src} to {dst} is not supported")
    bits = arith.to_bits(x, src)
    if sw == dw:
        return [arith.from_bits(bits, dst).reshape(out_shape)]
    if sw < dw:  # several elements (the last dimension, least significant first) become one
        k = dw // sw
        parts = bits.reshape(-1, k) << (np.arange(k, dtype=np.uint64) * np.uint64(sw))
        return [arith.from_bits(np.bitwise_or.reduce(parts, axis=-1), dst).reshape(out_shape)]
    k = sw // dw
    parts = (bits.reshape(-1, 1) >> (np.arange(k, dtype=np.uint64) * np.uint64(dw))) & np.uint64((1 << dw) - 1)
    return [arith.from_bits(parts, dst).reshape(out_shape)]


@handler("stablehlo.reduce_precision")
def _reduce_precision(ev, op, args):
    found = ev.memo.get(op)
    if found is None:
        found = ev.memo[op] = (result_element(op), int_attr(op, "exponent_bits"), int_attr(op, "mantissa_bits"))
    return [reduce_precision(args[0], *found)]


_NATIVE_MANTISSA = {np.dtype(np.float16): 10, np.dtype(np.float32): 23, np.dtype(np.float64): 52}


@functools.lru_cache(maxsize=256)
def _precision_plan(dtype: np.dtype, name: str, exponent_bits: int, mantissa_bits: int):
    """(unsigned dtype of the bits, width, rounding (shift, last, bias, mask) or None, exponent clamp
    (sign mask, exponent mask, max, min) or None) of ``reduce_precision`` on ``dtype``."""
    size = dtype.itemsize
    src_mant = _NATIVE_MANTISSA.get(dtype)
    width = size * 8
    if src_mant is None:
        import ml_dtypes

        src_mant = ml_dtypes.finfo(dtype).nmant
        width = {"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}.get(name, width)
    unsigned = np.dtype(f"u{size}") if dtype in _NATIVE_MANTISSA else np.dtype(np.uint64)
    t = unsigned.type
    rounding = None
    if mantissa_bits < src_mant:
        shift = src_mant - mantissa_bits
        rounding = (t(shift), t(1), t((1 << (shift - 1)) - 1), t(((1 << 64) - 1) ^ ((1 << shift) - 1)) if
                    unsigned.itemsize == 8 else t(((1 << (unsigned.itemsize * 8)) - 1) ^ ((1 << shift) - 1)))
    src_exp = width - src_mant - 1
    clamp = None
    if exponent_bits < src_exp:
        bias = (1 << (src_exp - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        clamp = (t(1 << (width - 1)), t(((1 << src_exp) - 1) << src_mant), t((bias + reduced_bias) << src_mant),
                 t((bias - reduced_bias) << src_mant))
    return unsigned, width, rounding, clamp


def reduce_precision(x: np.ndarray, name: str, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """``reduce_precision`` on the bit patterns of ``x`` (round to nearest even, then over- and
    underflow to infinity and zero), as the reference does it; f16/f32/f64 in their own width."""
    unsigned, width, rounding, clamp = _precision_plan(x.dtype, name, exponent_bits, mantissa_bits)
    size = x.dtype.itemsize
    bits = x.view(unsigned) if unsigned.itemsize == size else x.view(f"u{size}").astype(unsigned)
    if rounding is not None:
        shift, one, bias, mask = rounding
        bits = (bits + ((bits >> shift) & one) + bias) & mask
    if clamp is not None:
        sign_mask, exp_mask, max_exp, min_exp = clamp
        e = bits & exp_mask
        signed_zero = bits & sign_mask
        bits = np.where(e > max_exp, signed_zero | exp_mask, np.where(e <= min_exp, signed_zero, bits))
    if unsigned.itemsize != size:
        bits = (bits & np.uint64((1 << (size * 8)) - 1)).astype(f"u{size}")
    out = bits.view(x.dtype)
    nan = np.isnan(x) if x.dtype in _NATIVE_MANTISSA else np.isnan(x.astype(np.float64))
    if mantissa_bits > 0:
        return np.where(nan, x, out)
    return np.where(nan, np.array(np.inf).astype(x.dtype), out)


@handler("stablehlo.clamp")
def _clamp(ev, op, args):
    name = result_element(op)
    lo, x, hi = (arith.wide(a, name) for a in args)
    if is_float(name):
        return [arith.float_max_min(arith.float_max_min(x, lo, True), hi, False)]
    return [np.minimum(np.maximum(x, lo), hi)]


@handler("stablehlo.select")
def _select(ev, op, args):
    pred, on_true, on_false = args
    return [np.where(pred, on_true, on_false)]
