"""The pointwise rules (every op of the C++ registry's pointwise list, with one to three operands
and element types to match) against the C++ Shardy in jaxlib, on drawn shapes, and ops the registry
does not know, which get no rule on either side."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import DRAWN, check, function, generic, shapes, tensor  # noqa: E402

#: (op, operand element types, result element type, attributes)
POINTWISE: list[tuple[str, tuple[str, ...], str, str]] = [
    *[(f"stablehlo.{name}", ("f32",), "f32", "") for name in (
        "abs", "cbrt", "ceil", "cosine", "exponential", "exponential_minus_one", "floor", "log", "log_plus_one",
        "logistic", "negate", "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan",
        "tanh")],
    *[(f"stablehlo.{name}", ("f32", "f32"), "f32", "") for name in (
        "add", "atan2", "divide", "maximum", "minimum", "multiply", "power", "remainder", "subtract")],
    *[(f"stablehlo.{name}", ("i32", "i32"), "i32", "") for name in (
        "and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical")],
    *[(f"stablehlo.{name}", ("i32",), "i32", "") for name in ("not", "count_leading_zeros", "popcnt")],
    ("stablehlo.compare", ("f32", "f32"), "i1", "comparison_direction = #stablehlo<comparison_direction LT>"),
    ("stablehlo.complex", ("f32", "f32"), "complex<f32>", ""),
    ("stablehlo.real", ("complex<f32>",), "f32", ""),
    ("stablehlo.imag", ("complex<f32>",), "f32", ""),
    ("stablehlo.convert", ("f32",), "bf16", ""),
    ("stablehlo.is_finite", ("f32",), "i1", ""),
    ("stablehlo.reduce_precision", ("f32",), "f32", "exponent_bits = 5 : i32, mantissa_bits = 10 : i32"),
    ("stablehlo.collective_permute", ("f32",), "f32",
     "channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, "
     "source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>"),
    ("stablehlo.collective_broadcast", ("f32",), "f32", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"),
]
#: Elementwise ops outside the registry: no rule (and a warning) on both sides.
UNKNOWN = [("chlo.erf", ("f32",), "f32", ""), ("chlo.lgamma", ("f32",), "f32", ""),
           ("my.elementwise", ("f32", "f32"), "f32", "")]


@st.composite
def pointwise_ops(draw, table=tuple(POINTWISE)) -> str:
    name, elements, result, attributes = draw(st.sampled_from(table))
    shape = draw(shapes())
    types = [tensor(shape, e) for e in elements]
    return function(types, tensor(shape, result), generic(name, types, tensor(shape, result), attributes))


@DRAWN
@given(text=pointwise_ops())
def test_pointwise_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=pointwise_ops(tuple(UNKNOWN)))
def test_ops_unknown_to_the_registry_get_no_rule_as_in_cpp(text):
    check(text)
