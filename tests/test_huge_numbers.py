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
