"""Float values of MLIR's float types and their text, the way MLIR prints them (LLVM's ``APFloat``).

MLIR keeps a float attribute as a value of its type (``f16``, ``bf16``, ``f32``, ``f64``) and prints
it back in one canonical spelling, whatever was written:

1. six digits after the point in exponent form (``8.000000e-01``), when that text reads back as
   exactly the same value of the type;
2. otherwise the shortest plain or exponent form with enough digits to read back the value
   (``0.30000000000000004``, ``9.9999999999999991E+22``), if it has a decimal point;
3. otherwise (infinities, NaNs, big integers) the bit pattern in hex (``0x7F800000``).

The digit generation follows LLVM's ``APFloat::toString`` (including its truncations), so the text is
byte-identical to MLIR's; ``tests/test_floats.py`` checks it against the C++ printer in jaxlib.
Values are rounded to the type exactly (round to nearest, ties to even) with integer arithmetic.
"""
from __future__ import annotations

import re
from fractions import Fraction

#: LLVM ``fltSemantics`` of every float type MLIR names: (max exponent, min exponent, precision including
#: the hidden bit, size in bits, non-finite behaviour, NaN encoding, has a sign, has a zero).
#: Non-finite behaviour: ``ieee`` (infinities and NaNs), ``nan`` (NaNs only), ``finite`` (neither);
#: NaN encoding: ``ieee``, ``ones`` (all bits but the sign set), ``negzero`` (the pattern of -0).
SEMANTICS: dict[str, tuple[int, int, int, int, str, str, bool, bool]] = {
    "f16": (15, -14, 11, 16, "ieee", "ieee", True, True),
    "bf16": (127, -126, 8, 16, "ieee", "ieee", True, True),
    "f32": (127, -126, 24, 32, "ieee", "ieee", True, True),
    "f64": (1023, -1022, 53, 64, "ieee", "ieee", True, True),
    "f128": (16383, -16382, 113, 128, "ieee", "ieee", True, True),
    "tf32": (127, -126, 11, 19, "ieee", "ieee", True, True),
    "f8E5M2": (15, -14, 3, 8, "ieee", "ieee", True, True),
    "f8E4M3": (7, -6, 4, 8, "ieee", "ieee", True, True),
    "f8E3M4": (3, -2, 5, 8, "ieee", "ieee", True, True),
    "f8E4M3FN": (8, -6, 4, 8, "nan", "ones", True, True),
    "f8E5M2FNUZ": (15, -15, 3, 8, "nan", "negzero", True, True),
    "f8E4M3FNUZ": (7, -7, 4, 8, "nan", "negzero", True, True),
    "f8E4M3B11FNUZ": (4, -10, 4, 8, "nan", "negzero", True, True),
    "f8E8M0FNU": (127, -127, 1, 8, "nan", "ones", False, False),
    "f6E3M2FN": (4, -2, 3, 6, "finite", "ieee", True, True),
    "f6E2M3FN": (2, 0, 4, 6, "finite", "ieee", True, True),
    "f4E2M1FN": (2, 0, 2, 4, "finite", "ieee", True, True),
}

#: (significand bits including the hidden one, exponent bits) of the float types whose literals the
#: text-level helpers (``syntax.floats.canonical_float``, ``canonical_dense_body``, ``syntax.dense``)
#: rewrite: every format but ``f128``.
FORMATS: dict[str, tuple[int, int]] = {
    name: (p, size - (p - 1) - (1 if signed else 0))
    for name, (_emax, _emin, p, size, _nf, _nan, signed, _zero) in SEMANTICS.items() if name != "f128"}

_DECIMAL = re.compile(r"[-+]?\d+\.\d*(?:[eE][-+]?\d+)?\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")


class FloatType:
    """A binary float format of LLVM's ``APFloat`` (IEEE types and the small ML formats)."""

    def __init__(self, name: str):
        self.name = name
        (self.emax, self.emin, self.precision, self.width, self.nonfinite, self.nan_encoding, self.signed,
         self.has_zero) = SEMANTICS[name]
        self.exp_bits = self.width - (self.precision - 1) - (1 if self.signed else 0)
        self.bias = 1 - self.emin if self.has_zero else -self.emin
        self._sign_bit = (1 << (self.width - 1)) if self.signed else 0
        self._exp_ones = (1 << self.exp_bits) - 1
        self._man_ones = (1 << (self.precision - 1)) - 1

    @property
    def nan_bits(self) -> int:
        """The bit pattern of the (positive, quiet) NaN."""
        if self.nonfinite == "finite":
            raise ValueError(f"{self.name} has no NaN")
        if self.nan_encoding == "negzero":
            return self._sign_bit
        if self.nan_encoding == "ones":
            return (self._exp_ones << (self.precision - 1)) | self._man_ones
        return (self._exp_ones << (self.precision - 1)) | (1 << max(self.precision - 2, 0))

    def _largest(self) -> int:
        man = self._man_ones - (1 if self.nan_encoding == "ones" and self.nonfinite != "ieee" else 0)
        return ((self.emax + self.bias) << (self.precision - 1)) | max(man, 0)

    def _overflow(self, sign: int) -> int:
        if self.nonfinite == "ieee":
            return sign | (self._exp_ones << (self.precision - 1))
        if self.nonfinite == "nan":
            return self.nan_bits if self.nan_encoding == "negzero" else sign | self.nan_bits
        return sign | self._largest()

    def round(self, value: Fraction) -> int:
        """The bit pattern of ``value`` rounded to this type (ties to even; too large overflows the way
        ``APFloat`` does: infinity, else NaN, else the largest finite value)."""
        p = self.precision
        sign = self._sign_bit if value < 0 else 0
        a = abs(value)
        if a == 0:
            return 0 if self.nan_encoding == "negzero" else sign
        n, d = a.numerator, a.denominator
        e2 = n.bit_length() - d.bit_length()
        if (n << max(0, -e2)) < (d << max(0, e2)):
            e2 -= 1  # now 2**e2 <= a < 2**(e2 + 1)
        e2 = max(e2, self.emin)
        shift = e2 - (p - 1)
        q, r = divmod(n << max(0, -shift), d << max(0, shift))
        if 2 * r > (d << max(0, shift)) or (2 * r == (d << max(0, shift)) and q & 1):
            q += 1
        if q == 1 << p:
            q >>= 1
            e2 += 1
        if e2 > self.emax:
            return self._overflow(sign)
        if q < 1 << (p - 1):
            if not self.has_zero:
                return 0  # no zero and no subnormals (f8E8M0FNU): the smallest value
            if q == 0 and self.nan_encoding == "negzero":
                return 0
            return sign | q  # subnormal
        bits = sign | ((e2 + self.bias) << (p - 1)) | (q - (1 << (p - 1)))
        if self.nonfinite != "ieee" and self.nan_encoding == "ones" and e2 == self.emax \
                and (q - (1 << (p - 1))) == self._man_ones:
            return self._overflow(sign)
        return bits

    def round_double(self, value: float) -> int:
        """``APFloat(double).convert(this type)``: how MLIR reads a decimal literal (via a double)."""
        if value != value:
            return self.nan_bits
        if value in (float("inf"), float("-inf")):
            return self._overflow(self._sign_bit if value < 0 else 0)
        if value == 0:
            return self._sign_bit if (str(value)[0] == "-" and self.nan_encoding != "negzero") else 0
        return self.round(Fraction(value))

    def split(self, bits: int) -> tuple[bool, str, int, int]:
        """(negative, kind, significand, binary exponent); kind is zero, finite, inf or nan."""
        p = self.precision
        negative = bool(bits & self._sign_bit)
        e = (bits >> (p - 1)) & self._exp_ones
        m = bits & self._man_ones
        if self.nonfinite == "ieee":
            if e == self._exp_ones:
                return negative, "inf" if m == 0 else "nan", 0, 0
        elif self.nonfinite == "nan":
            if self.nan_encoding == "negzero":
                if bits == self._sign_bit:
                    return False, "nan", 0, 0
            elif e == self._exp_ones and m == self._man_ones:
                return negative, "nan", 0, 0
        if not self.has_zero:
            return negative, "finite", m | (1 << (p - 1)), e - self.bias - (p - 1)
        if e == 0:
            return negative, "zero" if m == 0 else "finite", m, self.emin - (p - 1)
        return negative, "finite", m | (1 << (p - 1)), e - self.bias - (p - 1)

    def hex(self, bits: int) -> str:
        """``0x`` and the bit pattern in upper-case hex (``APInt::toString`` as a C literal: no padding)."""
        return "0x" + format(bits, "X")

    def to_fraction(self, bits: int) -> Fraction | None:
        """The exact value of a finite bit pattern (None for infinities and NaNs)."""
        negative, kind, m, e = self.split(bits)
        if kind in ("inf", "nan"):
            return None
        v = Fraction(m) * (Fraction(2) ** e)
        return -v if negative else v


def _decimal_digits(significand: int, exp2: int, precision: int) -> tuple[str, int]:
    """Digits (most significant first, no trailing zeros) and decimal exponent, as APFloat makes them."""
    tz = (significand & -significand).bit_length() - 1
    significand >>= tz
    exp = exp2 + tz
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5 ** (-exp)
    # first cut: drop whole decimal digits beyond what the precision can hold (truncating)
    required = (precision * 196 + 58) // 59
    bits = significand.bit_length()
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10 ** removable
    digits = str(significand)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    # second cut: round half up to the precision
    n = len(digits)
    if n > precision:
        kept = digits[:precision]
        if digits[precision] >= "5":
            kept = str(int(kept) + 1)
            if len(kept) > precision:  # carried through every digit: 99..9 -> 1
                exp += n
                return "1", exp
        new = kept.rstrip("0")
        exp += n - len(new)
        digits = new
    return digits, exp


def apfloat_text(ftype: FloatType, bits: int, precision: int, max_padding: int, truncate_zero: bool) -> str:
    """``APFloat::toString`` of the value ``bits`` (``precision`` 0: as many digits as the type holds)."""
    negative, kind, significand, exp2 = ftype.split(bits)
    sign = "-" if negative else ""
    if kind == "inf":
        return sign + "Inf"
    if kind == "nan":
        return "NaN"
    if kind == "zero":
        if max_padding:
            return sign + "0"
        return sign + ("0.0E+0" if truncate_zero else "0.0" + "0" * max(precision - 1, 0) + "e+00")
    if not precision:
        precision = 2 + ftype.precision * 59 // 196
    digits, exp = _decimal_digits(significand, exp2, precision)
    nd = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or nd + exp > precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        e10 = exp + nd - 1
        mant = digits[0] + "." + ("0" if nd == 1 and truncate_zero else digits[1:])
        if not truncate_zero and precision > nd - 1:
            mant += "0" * (precision - nd + 1)
        e_digits = str(abs(e10))
        if not truncate_zero and len(e_digits) < 2:
            e_digits = "0" + e_digits
        return f"{sign}{mant}{'E' if truncate_zero else 'e'}{'+' if e10 >= 0 else '-'}{e_digits}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + nd
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def print_float(ftype: FloatType, bits: int) -> str:
    """The text MLIR prints for the value ``bits`` of ``ftype``."""
    negative, kind, _, _ = ftype.split(bits)
    if kind in ("zero", "finite"):
        text = apfloat_text(ftype, bits, 6, 0, False)
        if literal_bits(ftype, text) == bits:
            return text
        text = apfloat_text(ftype, bits, 0, 3, True)
        if "." in text:
            return text
    return ftype.hex(bits)


def literal_bits(ftype: FloatType, literal: str) -> int | None:
    """The value of a float literal (decimal, or hex bit pattern) in ``ftype``; None if not a float literal."""
    if _DECIMAL.match(literal):
        value = decimal_value(literal)
        if value == 0 and literal.startswith("-") and ftype.signed and ftype.nan_encoding != "negzero":
            return ftype.round(value) | ftype._sign_bit  # -0.0 keeps its sign (where the format has -0)
        return ftype.round(value)
    if _HEX.match(literal):
        bits = int(literal, 16)
        return bits if bits < 1 << ftype.width else None
    return None


_DECIMAL_PARTS = re.compile(r"([-+]?)(\d+)\.(\d*)(?:[eE]([-+]?)(\d+))?\Z")
#: Beyond 10**±_FAR every float format overflows (f64's largest is about 1.8e308) or rounds to zero (half its
#: smallest denormal is about 2.5e-324): a literal that far out is read as 10**±_FAR, which rounds the same.
_FAR = 400
#: Digit strings longer than this are converted in halves (Python's ``int`` refuses very long ones).
_INT_CHUNK = 4000


def decimal_value(literal: str) -> Fraction:
    """The exact value of a decimal float literal (``[-+]?digits.digits[e[-+]digits]``), computed without ever
    building a number of a huge exponent (``1.0e+18446744073709551615`` is infinite in every format, as MLIR
    reads it) or converting an over-long digit string at once."""
    m = _DECIMAL_PARTS.match(literal)
    if m is None:
        raise ValueError(f"not a decimal float literal: {literal[:40]!r}")
    sign, whole, frac, exp_sign, exp_digits = m.groups()
    digits = (whole + frac).lstrip("0")
    if not digits:
        return Fraction(0)
    exponent = _bounded_exponent(exp_sign, exp_digits or "0") - len(frac)  # (of the last digit)
    magnitude = exponent + len(digits)  # the value lies in [10**(magnitude - 1), 10**magnitude)
    if magnitude > _FAR:
        value = Fraction(10) ** _FAR
    elif magnitude < -_FAR:
        value = Fraction(1, 10 ** _FAR)
    else:
        value = _digits_int(digits) * Fraction(10) ** exponent
    return -value if sign == "-" else value


def _bounded_exponent(sign: str, digits: str) -> int:
    digits = digits.lstrip("0") or "0"
    value = 10 ** 12 if len(digits) > 12 else int(digits)  # (any exponent this long is far out)
    return -value if sign == "-" else value


def _digits_int(digits: str) -> int:
    if len(digits) <= _INT_CHUNK:
        return int(digits)
    half = len(digits) // 2
    return _digits_int(digits[:half]) * 10 ** (len(digits) - half) + _digits_int(digits[half:])
