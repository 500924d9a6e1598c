"""Integer and float literals turned into typed values the way MLIR's parser does.

``integer_value`` follows ``buildAttributeAPInt`` (a literal must fit the type's width; negative values
need the sign bit; signed and index types reject positive values with it) and gives the value as MLIR
prints it back: unsigned for ``ui`` types, signed otherwise (``255 : i8`` prints ``-1 : i8``).
``decimal_float_bits`` follows ``parseFloatFromLiteral``: the literal is read as a double, then
converted (round to nearest even) to the type; ``hex_float_bits`` reads a bit pattern.
"""
from __future__ import annotations

from fractions import Fraction

from shardy_py.ir.types import IndexType, IntegerType, Type


class LiteralError(ValueError):
    """A literal that does not fit its type; the message is MLIR's."""


def int_width(t: Type) -> tuple[int, str]:
    """(width, kind) of an integer or index type; kind is ``signless``, ``signed``, ``unsigned`` or ``index``."""
    if isinstance(t, IndexType):
        return 64, "index"
    assert isinstance(t, IntegerType)
    return t.width, {"": "signless", "s": "signed", "u": "unsigned"}[t.signedness]


def integer_value(magnitude: int, negative: bool, t: Type, what: str = "attribute") -> int:
    """The value of the literal ``-magnitude``/``magnitude`` as an attribute of type ``t``, as MLIR prints it."""
    width, kind = int_width(t)
    if negative and kind == "unsigned":
        raise LiteralError("negative integer literal not valid for unsigned integer type")
    if magnitude >> width:
        raise LiteralError(f"integer constant out of range for {what}")
    if width == 0:
        if negative:
            raise LiteralError(f"integer constant out of range for {what}")
        return 0
    mask = (1 << width) - 1
    sign = 1 << (width - 1)
    if negative:
        bits = -magnitude & mask
        if not bits & sign:
            raise LiteralError(f"integer constant out of range for {what}")
    else:
        bits = magnitude
        if kind in ("signed", "index") and bits & sign:
            raise LiteralError(f"integer constant out of range for {what}")
    if width == 1 and kind == "signless":
        return bits
    if kind != "unsigned" and bits & sign:
        return bits - (1 << width)
    return bits


def decimal_float_bits(fmt, literal: str, negative: bool) -> int:
    """Bits, in the float format ``fmt`` (``syntax.floats.FloatType``), of a decimal literal read via a double."""
    value = float(literal)
    if value == 0:
        sign = 1 << (fmt.width - 1)
        return sign if negative and fmt.split(sign)[1] == "zero" else 0
    # a double overflow is an infinity: converting it gives the format's overflow value
    frac = Fraction(2) ** (fmt.emax + 2) if value == float("inf") else Fraction(value)
    return fmt.round(-frac if negative else frac)


def hex_float_bits(fmt, digits: str, negative: bool) -> int:
    """Bits of a ``0x...`` float literal in ``fmt``."""
    if negative:
        raise LiteralError("hexadecimal float literal should not have a leading minus")
    bits = int(digits, 16)
    if bits >> fmt.width:
        raise LiteralError("hexadecimal float constant out of range for type")
    return bits
