"""The numpy StableHLO interpreter: elementwise ops, constants, shapes, checks and printing."""
from __future__ import annotations

import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.evaluator import InterpretError


def run1(body: str, result_type: str, *args, arg_types: tuple[str, ...] = ()):
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
    text = f"func.func @main({params}) -> {result_type} {{\n{body}\n}}"
    return shardy_py.interpret(text, *args)


def test_add_wraps_around_in_i4():
    (out,) = run1("""  %0 = stablehlo.constant dense<[0, 1, 2, -3, 0]> : tensor<5xi4>
  %1 = stablehlo.constant dense<[-8, -1, 2, -3, 7]> : tensor<5xi4>
  %2 = stablehlo.add %0, %1 : tensor<5xi4>
  return %2 : tensor<5xi4>""", "tensor<5xi4>")
    assert out.tolist() == [-8, 0, 4, -6, 7]


def test_ui2_add_wraps_modulo_four():
    (out,) = run1("""  %0 = stablehlo.constant dense<[3, 2]> : tensor<2xui2>
  %1 = stablehlo.constant dense<[1, 3]> : tensor<2xui2>
  %2 = stablehlo.add %0, %1 : tensor<2xui2>
  return %2 : tensor<2xui2>""", "tensor<2xui2>")
    assert out.tolist() == [0, 1]


def test_integer_divide_truncates_toward_zero():
    (q,) = run1("  %0 = stablehlo.divide %a0, %a1 : tensor<4xi32>\n  return %0 : tensor<4xi32>", "tensor<4xi32>",
                np.array([17, -17, 17, -17], np.int32), np.array([3, 3, -3, -3], np.int32),
                arg_types=("tensor<4xi32>", "tensor<4xi32>"))
    assert q.tolist() == [5, -5, -5, 5]


def test_remainder_takes_the_dividends_sign():
    (r,) = run1("  %0 = stablehlo.remainder %a0, %a1 : tensor<4xi32>\n  return %0 : tensor<4xi32>", "tensor<4xi32>",
                np.array([17, -17, 17, -17], np.int32), np.array([3, 3, -3, -3], np.int32),
                arg_types=("tensor<4xi32>", "tensor<4xi32>"))
    assert r.tolist() == [2, -2, 2, -2]


def test_shift_by_the_width_or_more_shifts_everything_out():
    (left, logical, arithmetic) = run1("""  %0 = stablehlo.shift_left %a0, %a1 : tensor<3xi8>
  %1 = stablehlo.shift_right_logical %a0, %a1 : tensor<3xi8>
  %2 = stablehlo.shift_right_arithmetic %a0, %a1 : tensor<3xi8>
  return %0, %1, %2 : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>""", "(tensor<3xi8>, tensor<3xi8>, tensor<3xi8>)",
        np.array([-128, -128, 3], np.int8), np.array([1, 8, -1], np.int8),
        arg_types=("tensor<3xi8>", "tensor<3xi8>"))
    assert left.tolist() == [0, 0, 0]
    assert logical.tolist() == [64, 0, 0]
    assert arithmetic.tolist() == [-64, -1, 0]


def test_bf16_add_rounds_to_bf16():
    (out,) = run1("""  %0 = stablehlo.constant dense<[1.0, 256.0]> : tensor<2xbf16>
  %1 = stablehlo.constant dense<[0.00390625, 1.0]> : tensor<2xbf16>
  %2 = stablehlo.add %0, %1 : tensor<2xbf16>
  return %2 : tensor<2xbf16>""", "tensor<2xbf16>")
    assert out.dtype == ml_dtypes.bfloat16
    assert out.astype(np.float32).tolist() == [1.0, 256.0]


def test_maximum_propagates_nan_and_orders_zeros():
    (out,) = run1("""  %0 = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %1 = stablehlo.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %2 = stablehlo.maximum %0, %1 : tensor<3xf32>
  return %2 : tensor<3xf32>""", "tensor<3xf32>")
    assert np.isnan(out[0]) and out[1] == 0 and not np.signbit(out[1]) and out[2] == 2


def test_convert_float_to_int_truncates_and_saturates():
    (out,) = run1("""  %0 = stablehlo.constant dense<[-1.5, 2.9, 1.0e10, 0x7FC00000]> : tensor<4xf32>
  %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xi8>
  return %1 : tensor<4xi8>""", "tensor<4xi8>")
    assert out.tolist() == [-1, 2, 127, 0]


def test_bitcast_i1_to_i64_packs_least_significant_first():
    bits = [True, False] + [False] * 62
    (out,) = run1("""  %0 = stablehlo.bitcast_convert %a0 : (tensor<64xi1>) -> tensor<i64>
  return %0 : tensor<i64>""", "tensor<i64>", np.array(bits), arg_types=("tensor<64xi1>",))
    assert out.tolist() == 1


def test_pad_with_interior_and_negative_edges():
    (out,) = run1("""  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.pad %0, %1, low = [-1], high = [2], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
  return %2 : tensor<6xi32>""", "tensor<6xi32>")
    assert out.tolist() == [0, 2, 0, 3, 0, 0]


def test_broadcast_in_dim_maps_operand_dims_to_result_dims():
    (out,) = run1("""  %0 = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 0] : (tensor<1x3xi32>) -> tensor<3x2xi32>
  return %1 : tensor<3x2xi32>""", "tensor<3x2xi32>")
    assert out.tolist() == [[1, 1], [2, 2], [3, 3]]


def test_failing_check_is_a_located_error():
    text = """func.func @main() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 3]> : tensor<2xi32>
  return
}"""
    with pytest.raises(InterpretError) as e:
        shardy_py.interpret(text)
    assert e.value.message == "Element values don't match: 2 (actual) vs 3 (expected) at index [1]"
    assert (e.value.loc.line, e.value.loc.column) == (3, 3)


def test_almost_eq_matches_nan_with_nan():
    text = """func.func @main() {
  %0 = stablehlo.constant dense<[0x7FC00000, 1.00001]> : tensor<2xf32>
  check.expect_almost_eq_const %0, dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  return
}"""
    assert shardy_py.interpret(text) == ()


def test_cli_prints_results_as_the_reference_interpreter(tmp_path):
    f = tmp_path / "m.mlir"
    f.write_text("""func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> (tensor<2xi32>, tensor<f32>) {
  %0 = stablehlo.add %a, %b : tensor<2xi32>
  %1 = stablehlo.constant dense<1.5> : tensor<f32>
  return %0, %1 : tensor<2xi32>, tensor<f32>
}
""")
    args = "--args=[dense<1> : tensor<2xi32>, dense<[2, 5]> : tensor<2xi32>]"
    r = subprocess.run([sys.executable, "-m", "shardy_py", "interpret", args, str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "tensor<2xi32> {\n  [3, 6]\n}\ntensor<f32> {1.500000e+00}\n"
    r = subprocess.run([sys.executable, "-m", "shardy_py", "interpret", args, "--interpreter-print-dense", str(f)],
                       capture_output=True, text=True)
    assert r.stdout == "dense<[3, 6]> : tensor<2xi32>\ndense<1.500000e+00> : tensor<f32>\n"


def test_cli_unsupported_op_is_a_located_error(tmp_path):
    f = tmp_path / "m.mlir"
    f.write_text("""func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.custom_call @my_kernel() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
""")
    r = subprocess.run([sys.executable, "-m", "shardy_py", "interpret", str(f)], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{f}:2:3: error: Unsupported custom call: my_kernel")


def test_quantized_add_runs_on_dequantized_values_and_requantizes():
    text = """func.func @main() -> tensor<2xi8> {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %qa = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = "stablehlo.uniform_quantize"(%b) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %s = "stablehlo.add"(%qa, %qb)
    : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>)
    -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %r = "stablehlo.bitcast_convert"(%s) : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  return %r : tensor<2xi8>
}"""
    (out,) = shardy_py.interpret(text)
    assert out.tolist() == [-12, -8]


def test_check_ops_in_generic_form():
    text = """func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 2.00001]> : tensor<2xf32>
  "check.expect_eq"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq"(%a, %b) {tolerance = 1.0e-3 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_eq_const"(%a) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  "check.expect_close"(%a, %a) {max_ulp_difference = 1 : ui64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq_const"(%b) {value = dense<[1.0, 2.1]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  return
}"""
    with pytest.raises(InterpretError, match=r"tolerance 0.000100: 2.000010e\+00 \(actual\) vs 2.100000e\+00"):
        shardy_py.interpret(text)


def test_totalorder_compare_is_a_float_compare_as_in_the_reference_interpreter():
    """jaxlib 0.12's stablehlo.eval_module gives false for `-2.46875 LE NaN, TOTALORDER` (bf16):
    StableHLO's reference interpreter ignores compare_type (found by the differential benchmark)."""
    text = """func.func @main(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xi1> {
  %0 = stablehlo.compare LE, %a, %b, TOTALORDER : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}"""
    a = np.array([-2.46875, 1.0], ml_dtypes.bfloat16)
    b = np.array([np.nan, 2.0], ml_dtypes.bfloat16)
    (out,) = shardy_py.interpret(text, a, b)
    assert out.tolist() == [False, True]


def test_complex_keeps_the_real_part_of_a_nan_or_infinite_imaginary_part():
    """Found by the drawn differential against jaxlib: re + 1j * nan made the real part NaN too."""
    body = ("  %0 = stablehlo.complex %a0, %a1 : tensor<3xcomplex<f32>>\n"
            "  return %0 : tensor<3xcomplex<f32>>")
    (out,) = run1(body, "tensor<3xcomplex<f32>>", np.array([-0.5, 2.0, 3.0], np.float32),
                  np.array([np.nan, np.inf, -np.inf], np.float32), arg_types=("tensor<3xf32>", "tensor<3xf32>"))
    assert out.real.tolist() == [-0.5, 2.0, 3.0]
    assert np.isnan(out.imag[0]) and out.imag[1:].tolist() == [np.inf, -np.inf]


def test_results_are_the_callers_arrays():
    """Constants are shared read-only between runs and reshapes are views of the inputs: results are
    copies the caller may change."""
    text = """func.func @main(%a: tensor<4xf32>) -> (tensor<2xf32>, tensor<2x2xf32>) {
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>
  return %c, %0 : tensor<2xf32>, tensor<2x2xf32>
}"""
    x = np.arange(4, dtype=np.float32)
    c, r = shardy_py.interpret(text, x)
    c[0] = 9.0
    r[0, 0] = 9.0
    assert x[0] == 0.0
    assert shardy_py.interpret(text, x)[0].tolist() == [1.0, 2.0]
