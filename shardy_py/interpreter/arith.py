"""Element arithmetic on whole arrays, with StableHLO's rules (``stablehlo/reference/Element.cpp``).

Integers wrap around; division truncates toward zero; shifts by the bit width or more give zero
(arithmetic right shifts the sign); floats of the narrow types (``ml_dtypes``) are computed in
``float64`` and rounded back once; transcendental functions of every float type are computed in
``float64`` (the reference's ``mapWithUpcastToDouble``).  Functions take numpy arrays and the element
type name and return an array of the same element type's dtype (or wider: the evaluator fits it).
"""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.values import bit_width, dtype_of, int_info, is_complex, is_float, is_int

_NATIVE_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


#: The dtypes numpy adds exactly as StableHLO: integers (wrapping around) and f32/f64 (IEEE, one rounding);
#: ``np.add.at`` on them adds repeated targets in order, as the updates of a scatter are combined.
EXACT_ADD_DTYPES = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                                   np.uint32, np.uint64, np.float32, np.float64))


def wide(x: np.ndarray, name: str) -> np.ndarray:
    """``x`` in the dtype arithmetic of ``name`` is done in: narrow floats in float64."""
    if is_float(name) and x.dtype not in _NATIVE_FLOATS:
        return x.astype(np.float64)
    return x


def upcast(x: np.ndarray, name: str) -> np.ndarray:
    """``x`` in float64 / complex128, for functions the reference computes in double precision."""
    if is_complex(name):
        return x.astype(np.complex128)
    return x.astype(np.float64)


def to_unsigned(x: np.ndarray, name: str) -> np.ndarray:
    """The bits of integer ``x`` (element type ``name``) as an unsigned 64-bit array, masked to the width."""
    width = bit_width(name)
    u = x.astype(np.int64).view(np.uint64) if x.dtype.kind == "i" else x.astype(np.uint64)
    if width < 64:
        u = u & np.uint64((1 << width) - 1)
    return u


def from_unsigned(u: np.ndarray, name: str) -> np.ndarray:
    """Inverse of ``to_unsigned``: the low bits of ``u`` as element type ``name`` (two's complement)."""
    width, signed = int_info(name)
    if width < 64:
        u = u & np.uint64((1 << width) - 1)
    if signed and width < 64:
        s = u.astype(np.int64)
        half = 1 << (width - 1)
        s = np.where(s >= half, s - (1 << width), s)
        return s.astype(dtype_of(name))
    if signed:
        return u.view(np.int64)
    return u.astype(dtype_of(name))


def int_divide(a: np.ndarray, b: np.ndarray, name: str) -> np.ndarray:
    """Division truncating toward zero; ``x / 0`` is all ones (-1 signed, the maximum unsigned)."""
    zero = b == 0
    safe = np.where(zero, 1, b).astype(a.dtype)
    if int_info(name)[1]:
        q = a // safe
        r = a - q * safe
        q = np.where((r != 0) & ((a < 0) != (safe < 0)), q + 1, q)
    else:
        q = a // safe
    return np.where(zero, np.array(-1).astype(a.dtype) if a.dtype.kind == "i" else ~np.zeros((), a.dtype), q)


def int_remainder(a: np.ndarray, b: np.ndarray, name: str) -> np.ndarray:
    """Remainder with the sign of the dividend; ``x % 0`` is ``x``."""
    zero = b == 0
    safe = np.where(zero, 1, b).astype(a.dtype)
    q = int_divide(a, safe, name)
    return np.where(zero, a, a - q * safe)


def int_power(base: np.ndarray, exponent: np.ndarray, name: str) -> np.ndarray:
    """``base ** exponent`` by repeated squaring, wrapping; a negative exponent gives 0 unless |base| = 1."""
    base, exponent = np.broadcast_arrays(base, exponent)
    signed = int_info(name)[1]
    result = np.ones(base.shape, dtype=base.dtype)
    b = base.copy()
    e = exponent.copy()
    if signed:
        negative = e < 0
        unit = np.abs(b.astype(np.int64)) == 1
        e = np.where(negative & unit, -e, e)
        zero_out = negative & ~unit
        e = np.where(zero_out, 0, e)
    eu = to_unsigned(e, name)
    while np.any(eu):
        odd = (eu & np.uint64(1)).astype(bool)
        result = np.where(odd, result * b, result)
        b = b * b
        eu = eu >> np.uint64(1)
    if signed:
        result = np.where(zero_out, 0, result)
    return result


def shift(a: np.ndarray, amount: np.ndarray, name: str, kind: str) -> np.ndarray:
    """``kind`` in {"left", "right_logical", "right_arithmetic"}; amounts are read unsigned, and one
    of at least the bit width shifts every bit out."""
    width = bit_width(name)
    a, amount = np.broadcast_arrays(a, amount)
    n = to_unsigned(amount, name)
    big = n >= np.uint64(width)
    n = np.where(big, np.uint64(0), n)
    if kind == "left":
        out = from_unsigned(to_unsigned(a, name) << n, name)
        return np.where(big, np.zeros((), out.dtype), out)
    if kind == "right_logical":
        out = from_unsigned(to_unsigned(a, name) >> n, name)
        return np.where(big, np.zeros((), out.dtype), out)
    # arithmetic: the bit pattern read as two's complement (also for unsigned types), sign filled in
    u = to_unsigned(a, name)
    signed = u.astype(np.int64) if width == 64 else np.where(
        u >= np.uint64(1 << (width - 1)), u.astype(np.int64) - (1 << width), u.astype(np.int64))
    out = signed >> np.where(big, np.uint64(63), n).astype(np.int64)
    return from_unsigned(out.view(np.uint64), name)


def popcount(a: np.ndarray, name: str) -> np.ndarray:
    return np.bitwise_count(to_unsigned(a, name)).astype(a.dtype)


def count_leading_zeros(a: np.ndarray, name: str) -> np.ndarray:
    width = bit_width(name)
    u = to_unsigned(a, name)
    length = np.zeros(u.shape, dtype=np.int64)
    for bit in range(width):
        length = np.where((u >> np.uint64(bit)) & np.uint64(1) != 0, bit + 1, length)
    return (width - length).astype(a.dtype)


def float_max_min(a: np.ndarray, b: np.ndarray, take_max: bool) -> np.ndarray:
    """IEEE maximum/minimum: NaN propagates, -0 < +0."""
    out = np.maximum(a, b) if take_max else np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    if np.any(both_zero):
        sa = np.signbit(a)
        pick_a = ~sa if take_max else sa
        out = np.where(both_zero, np.where(pick_a, a, b), out)
    return out


def complex_max_min(a: np.ndarray, b: np.ndarray, take_max: bool) -> np.ndarray:
    """Lexicographic (real, then imaginary part) maximum/minimum of complex numbers."""
    if take_max:
        pick_a = np.where(a.real == b.real, a.imag > b.imag, a.real > b.real)
    else:
        pick_a = np.where(a.real == b.real, a.imag < b.imag, a.real < b.real)
    return np.where(pick_a, a, b)


def total_order_key(x: np.ndarray) -> np.ndarray:
    """An integer key that orders floats by IEEE totalOrder (-NaN < -Inf < ... < -0 < +0 < ... < NaN)."""
    size = x.dtype.itemsize
    bits = x.view(f"i{size}").astype(np.int64)
    width = size * 8
    mask = (1 << (width - 1)) - 1
    return np.where(bits < 0, bits ^ mask, bits)


def round_half_away(x: np.ndarray) -> np.ndarray:
    """Round to the nearest integer, ties away from zero (zero's sign kept)."""
    t = np.trunc(x)
    frac = x - t
    return np.where(np.abs(frac) >= 0.5, t + np.sign(x), t)


def convert(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """``stablehlo.convert`` from element type ``src`` to ``dst``."""
    out_dtype = dtype_of(dst)
    if src == "i1":
        x = x.astype(np.uint8)
    if is_complex(src) and not is_complex(dst):
        x = x.real
    if dst == "i1":
        return x != 0
    if is_int(dst):
        if is_float(src) or is_complex(src):
            f = x.astype(np.float64)
            width, signed = int_info(dst)
            lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
            t = np.trunc(np.where(np.isnan(f), 0.0, f))
            over = t >= float(hi)
            under = t <= float(lo)
            mid = np.clip(t, max(lo, -2.0**63), min(hi, 2.0**63 - 1024))
            if signed:
                out = mid.astype(np.int64)
                out = np.where(over, hi, np.where(under, lo, out))
                return out.astype(out_dtype) if width >= 8 else out
            out = mid.astype(np.uint64)
            out = np.where(over, np.uint64(hi), np.where(under, np.uint64(0), out))
            return out.astype(out_dtype) if width >= 8 else out
        # integer to integer: wrap around through the two's complement bits
        src_info = int_info(src)
        signed_src = src_info is not None and src_info[1]
        bits = x.astype(np.int64).view(np.uint64) if signed_src else x.astype(np.uint64)
        return from_unsigned(bits, dst)
    if is_float(dst):
        if x.dtype.kind in "iub" and out_dtype not in _NATIVE_FLOATS:
            return x.astype(np.float64).astype(out_dtype)
        if x.dtype not in _NATIVE_FLOATS and x.dtype.kind not in "iub" and out_dtype not in _NATIVE_FLOATS:
            return x.astype(np.float32).astype(out_dtype) if x.dtype.itemsize <= 2 else x.astype(out_dtype)
        return x.astype(out_dtype)
    if is_complex(dst):
        if x.dtype.kind in "iub" or x.dtype not in _NATIVE_FLOATS and not np.iscomplexobj(x):
            x = x.astype(np.float64)
        return x.astype(out_dtype)
    return x.astype(out_dtype)


def to_bits(x: np.ndarray, name: str) -> np.ndarray:
    """The bit patterns of the elements of ``x`` as uint64 (the low ``bit_width(name)`` bits)."""
    if int_info(name) is not None:
        return to_unsigned(x, name)
    return x.view(f"u{x.dtype.itemsize}").astype(np.uint64)


def from_bits(u: np.ndarray, name: str) -> np.ndarray:
    """Elements of type ``name`` with the bit patterns ``u``."""
    if int_info(name) is not None:
        if name == "i1":
            return (u & np.uint64(1)).astype(bool)
        return from_unsigned(u, name)
    dt = dtype_of(name)
    return u.astype(f"u{dt.itemsize}").view(dt)
