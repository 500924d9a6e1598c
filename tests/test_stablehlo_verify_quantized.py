"""ODS operand constraints on quantized element types: per-axis quantized tensors only where the op's
constraint takes them.  jaxlib's Python MLIR has no quant dialect, so the expected texts are those of
StableHLO's ops_stablehlo_quantized.mlir (the constraint descriptions as ODS writes them)."""
from __future__ import annotations

import pytest
from stablehlo_verify_cases import module, ours

_PER_AXIS = "tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,2.000000e-01:-30}>>"
_PER_TENSOR = "tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>"
_ANY = ("ranked tensor of 4/6/8/16/32/64-bit float or bool or 2/4/8/16/32/64-bit integer or complex type with "
        "32/64-bit float elements or per-tensor integer quantized values")


def _unary(op: str, t: str) -> str:
    # (reverse requires its 'dimensions' attribute, which ODS checks before the operand's type)
    attrs = " {dimensions = array<i64: 0>}" if op == "reverse" else ""
    return module(f"%x: {t}", t, f"""\
        %r = "stablehlo.{op}"(%x){attrs} : ({t}) -> {t}
        return %r : {t}
        """)


def test_per_tensor_quantized_operand_is_accepted() -> None:
    assert ours(_unary("sqrt", _PER_TENSOR)) == []


@pytest.mark.parametrize(("op", "description"), [
    ("sqrt", "ranked tensor of 4/6/8/16/32/64-bit float or complex type with 32/64-bit float elements or "
             "per-tensor integer quantized values"),
    ("floor", "ranked tensor of 4/6/8/16/32/64-bit float or per-tensor integer quantized values"),
    ("reverse", _ANY),
])
def test_per_axis_quantized_operand_is_rejected(op: str, description: str) -> None:
    assert ours(_unary(op, _PER_AXIS)) == [(2, f"'stablehlo.{op}' op operand #0 must be {description}, but got "
                                               f"'{_PER_AXIS}'")]


def test_per_axis_quantized_operand_where_the_op_takes_it() -> None:
    assert ours(_unary("bitcast_convert", _PER_AXIS)) == []


def test_variadic_operand_constraint() -> None:
    text = module(f"%x: {_PER_AXIS}", _PER_AXIS, f"""\
        %r = "stablehlo.optimization_barrier"(%x) : ({_PER_AXIS}) -> {_PER_AXIS}
        return %r : {_PER_AXIS}
        """)
    assert ours(text) == [(2, f"'stablehlo.optimization_barrier' op operand #0 must be variadic of {_ANY} or token, "
                              f"but got '{_PER_AXIS}'")]


@pytest.mark.parametrize("element", [
    "!quant.uniform<i8:f32, 1.000000e+00:300>",   # zero point above the storage range
    "!quant.uniform<i8:f32:3, {1.000000e-01:-30,1.000000e-01:-30}>",   # quantized dimension beyond the rank
    "!quant.uniform<i8:f32:1, {1.000000e-01:-30,1.000000e-01:-30}>",   # two scales for a dimension of 4
])
def test_invalid_quantized_element_fails_the_constraint(element: str) -> None:
    t = f"tensor<2x4x{element}>"
    text = module(f"%x: {t}", t, f"""\
        %r = stablehlo.add %x, %x : {t}
        return %r : {t}
        """)
    [(line, message)] = ours(text)
    assert (line, message) == (2, "'stablehlo.add' op operand #0 must be ranked tensor of 4/6/8/16/32/64-bit float "
                                  "or bool or 2/4/8/16/32/64-bit integer or complex type with 32/64-bit float "
                                  "elements or per-tensor integer quantized or per-axis integer quantized values, "
                                  f"but got '{t}'")


def test_uniform_quantize_keeps_the_expressed_type() -> None:
    text = module("%x: tensor<2xf32>", "tensor<2x!quant.uniform<i8:f64, 1.000000e-01>>", """\
        %r = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f64, 1.000000e-01>>
        return %r : tensor<2x!quant.uniform<i8:f64, 1.000000e-01>>
        """)
    assert ours(text) == [(2, "Expressed type of result expected to be 'f32', but got 'f64'")]


def _shape_op(op: str, attrs: str, a: str, b: str) -> str:
    return module(f"%x: {a}", b, f"""\
        %r = "stablehlo.{op}"(%x) {attrs} : ({a}) -> {b}
        return %r : {b}
        """)


def test_reshape_keeps_the_quantization() -> None:
    a = "tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-30>>"
    b = "tensor<8x!quant.uniform<i8:f32, 2.000000e-01:-30>>"
    assert ours(_shape_op("reshape", "", a, b)) == [
        (2, f"expect same quantization scale and zero_point but got '{a}' vs '{b}'")]


def test_transpose_moves_the_quantized_dimension() -> None:
    a = "tensor<2x4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30}>>"
    b = "tensor<4x2x!quant.uniform<i8:f32:0, {1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30,1.000000e-01:-30}>>"
    assert ours(_shape_op("transpose", "{permutation = array<i64: 1, 0>}", a, b)) == [
        (2, "operand quantization_dimension 0 is not same as permutation[0] = 1")]


def test_broadcast_of_a_size_one_quantized_dimension_repeats_its_parameters() -> None:
    a = "tensor<1x!quant.uniform<i8:f32:0, {1.000000e-01:-30}>>"
    b = "tensor<2x!quant.uniform<i8:f32:0, {1.000000e-01:-30,2.000000e-01:-30}>>"
    assert ours(_shape_op("broadcast_in_dim", "{broadcast_dimensions = array<i64: 0>}", a, b)) == [
        (2, "mismatch result scale 1 (2.000000e-01) and operand scale 0 (1.000000e-01)")]


def _dot_general(lhs: str, rhs: str, result: str) -> str:
    return module(f"%a: {lhs}, %b: {rhs}", result, f"""\
        %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({lhs}, {rhs}) -> {result}
        return %r : {result}
        """)


@pytest.mark.parametrize(("lhs", "rhs", "result", "message"), [
    ("tensor<2x3xf32>", "tensor<3x4xf32>", "tensor<2x4x!quant.uniform<i8:f32, 1.000000e+00>>",
     "rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold"),
    ("tensor<2x3xf32>", "tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00:5>>", "tensor<2x4xf32>",
     "Zero point of rhs should be 0"),
    ("tensor<2x3xf32>", "tensor<3x4x!quant.uniform<i8:f64, 1.000000e+00>>", "tensor<2x4xf32>",
     "mismatched rhs quantization expressed type and lhs and result element type"),
])
def test_dot_general_quantization(lhs: str, rhs: str, result: str, message: str) -> None:
    assert ours(_dot_general(lhs, rhs, result)) == [(2, message)]


def test_dot_general_hybrid_quantization_is_accepted() -> None:
    assert ours(_dot_general("tensor<2x3xf32>", "tensor<3x4x!quant.uniform<i8:f32, 1.000000e+00>>",
                             "tensor<2x4xf32>")) == []
