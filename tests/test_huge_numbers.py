"""Huge numbers in the text: valid ones are read as MLIR reads them, at once; invalid ones are a located error
where jaxlib 0.12 places it, never an internal error or a hang (the guide's "huge numbers").

Found by atheris at 67070dc: ``dense<1.0e+00000...18446744073709551615>`` took minutes (the exact value of
10**18446744073709551615 was being built); MLIR reads it as infinity.  A float literal of more than 4,300
digits was an internal error (Python's ``int`` refuses such strings).  Expected answers are jaxlib 0.12's; the
``jaxlib`` tests ask it.
"""
from __future__ import annotations

import pytest
from cpp_oracle import cpp
from first_error_helpers import jaxlib_first_error, our_first_position

import shardy_py

_BIG = "9" * 5000


def _constant(literal: str, t: str = "tensor<2xf32>") -> str:
    return (f"func.func @f() -> {t} {{\n  %0 = stablehlo.constant dense<{literal}> : {t}\n"
            f"  return %0 : {t}\n}}\n")


#: name -> (module, the constant's value as jaxlib 0.12 prints it).
VALID = {
    "exponent_of_twenty_digits": (_constant("1.0e+18446744073709551615"), "dense<0x7F800000> : tensor<2xf32>"),
    "exponent_with_many_leading_zeros": (_constant("1.0e+" + "0" * 100 + "18446744073709551615"),
                                         "dense<0x7F800000> : tensor<2xf32>"),
    "negative_exponent_of_twenty_digits": (_constant("1.0e-18446744073709551615"),
                                           "dense<0.000000e+00> : tensor<2xf32>"),
    "zero_with_a_huge_exponent": (_constant("0.0e+18446744073709551615"), "dense<0.000000e+00> : tensor<2xf32>"),
    "f64_overflow": (_constant("1.0e+99999999999999999999999", "tensor<2xf64>"),
                     "dense<0x7FF0000000000000> : tensor<2xf64>"),
    "bf16_negative_overflow": (_constant("-2.5e+99999999999", "tensor<2xbf16>"), "dense<0xFF80> : tensor<2xbf16>"),
    "five_thousand_digits_after_the_point": (_constant("1." + "0" * 5000 + "1"),
                                             "dense<1.000000e+00> : tensor<2xf32>"),
    "five_thousand_digits_before_the_point": (_constant("1" + "0" * 5000 + ".0"), "dense<0x7F800000> : tensor<2xf32>"),
    "long_digits_scaled_back": (_constant("0." + "0" * 5000 + "1e+5001"), "dense<1.000000e+00> : tensor<2xf32>"),
    "f64_of_five_thousand_nines": (_constant("0." + _BIG, "tensor<2xf64>"), "dense<1.000000e+00> : tensor<2xf64>"),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_a_huge_float_literal_is_read_as_mlir_reads_it(name: str) -> None:
    text, printed = VALID[name]
    module = shardy_py.parse(text)
    assert shardy_py.verify(module) == []
    assert f"stablehlo.constant {printed}" in str(module)


@pytest.mark.parametrize("name", sorted(VALID))
def test_jaxlib_prints_the_same(name: str) -> None:
    text, _ = VALID[name]
    assert str(shardy_py.parse(text)) == cpp(text, "builtin.module()")


def _attribute(value: str) -> str:
    return f"func.func @f() attributes {{x = {value}}} {{\n  return\n}}\n"


def _tensor_argument(dim: str) -> str:
    return f"func.func @f(%a: tensor<{dim}xi32>) -> tensor<{dim}xi32> {{\n  return %a : tensor<{dim}xi32>\n}}\n"


def _located(loc: str) -> str:
    return f"func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {{\n  return %a : tensor<8xf32> loc({loc})\n}}\n"


#: name -> (module, jaxlib 0.12's line and column of its first error).  Before: accepted (the first seven),
#: or an internal ValueError (the 5,000-digit dimension and index), or another column.
INVALID = {
    "untyped_integer_past_u64": (_attribute("18446744073709551616"), 1, 32),
    "untyped_integer_below_i64": (_attribute("-9223372036854775809"), 1, 33),
    "untyped_integer_in_a_dictionary": (_attribute("{a = 99999999999999999999999}"), 1, 37),
    "dimension_past_i64": (_tensor_argument("9223372036854775808"), 1, 25),
    "location_line_past_u32": (_located('"x":4294967296:1'), 2, 37),
    "five_thousand_digit_element": (_constant(_BIG, "tensor<2xi32>"), 2, 33),
    "five_thousand_digit_typed_integer": (_attribute(_BIG + " : i32"), 1, 32),
    "five_thousand_digit_hex_integer": (_attribute("0x" + _BIG + " : i32"), 1, 32),
    "five_thousand_digit_integer_width": (_attribute("1 : i" + _BIG), 1, 36),
    "five_thousand_digit_dense_array_element": (_attribute(f"array<i64: {_BIG}>"), 1, 5043),
    "five_thousand_digit_dimension": (_tensor_argument(_BIG), 1, 25),
    "five_thousand_digit_iota_dimension": (
        "func.func @f() -> tensor<2xi32> {\n  %0 = stablehlo.iota dim = " + _BIG + " : tensor<2xi32>\n"
        "  return %0 : tensor<2xi32>\n}\n", 2, 29),
    "five_thousand_digit_slice_index": (
        "func.func @f(%a: tensor<8xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.slice %a [" + _BIG + ":2]"
        " : (tensor<8xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n", 2, 28),
    "negative_i32_below_range": (_attribute("-2147483649 : i32"), 1, 33),
    "dense_array_element_past_i8": (_attribute("array<i8: 256>"), 1, 45),
    "negative_dense_array_element_below_i8": (_attribute("array<i8: -129>"), 1, 46),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_number_out_of_range_is_an_error_where_mlir_places_it(name: str) -> None:
    text, line, column = INVALID[name]
    assert our_first_position(text) == (line, column)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_jaxlib_rejects_it_there(name: str) -> None:
    text, line, column = INVALID[name]
    assert jaxlib_first_error(text)[:2] == (line, column)


@pytest.mark.parametrize("text", [
    _attribute("18446744073709551615"), _attribute("-9223372036854775808"), _tensor_argument("9223372036854775807"),
    _located('"x":4294967295:1'), _attribute("array<i64: 9223372036854775808>"),
])
def test_the_largest_numbers_in_range_are_valid(text: str) -> None:
    assert shardy_py.verify(shardy_py.parse(text)) == []


def test_python_s_digit_limit_is_back_after_a_parse() -> None:
    import sys

    before = sys.get_int_max_str_digits()
    shardy_py.verify(shardy_py.parse(_constant("1." + "0" * 5000 + "1")))
    assert sys.get_int_max_str_digits() == before
