"""The numpy interpreter's dot_general, triangular_solve, fft and CHLO ops."""
from __future__ import annotations

import numpy as np

import shardy_py


def test_dot_general_batches_then_free_dims():
    text = """func.func @main(%a: tensor<2x2x3xi32>, %b: tensor<2x3x1xi32>) -> tensor<2x2x1xi32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]
    : (tensor<2x2x3xi32>, tensor<2x3x1xi32>) -> tensor<2x2x1xi32>
  return %0 : tensor<2x2x1xi32>
}"""
    a = np.arange(12, dtype=np.int32).reshape(2, 2, 3)
    b = np.ones((2, 3, 1), np.int32)
    (out,) = shardy_py.interpret(text, a, b)
    assert out.tolist() == [[[3], [12]], [[21], [30]]]


def test_triangular_solve_right_side_upper():
    text = """func.func @main() -> tensor<1x3xf32> {
  %a = stablehlo.constant dense<[[1.0, 2.0, 4.0], [0.0, 3.0, 5.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[7.0, 8.0, 9.0]]> : tensor<1x3xf32>
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = false,
    transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}"""
    (out,) = shardy_py.interpret(text)
    assert out.tolist() == [[7.0, -2.0, -1.5]]


def test_rfft_of_a_constant_has_only_a_dc_term():
    text = """func.func @main() -> tensor<3xcomplex<f32>> {
  %x = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}"""
    (out,) = shardy_py.interpret(text)
    assert out.tolist() == [4 + 0j, 0j, 0j]


def test_mulhi_of_64_bit_integers_is_the_high_half_of_the_128_bit_product():
    text = """func.func @main(%a: tensor<3xi64>, %b: tensor<3xi64>) -> tensor<3xi64> {
  %0 = chlo.mulhi %a, %b : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}"""
    a = np.array([2**62, -1, -(2**63)], np.int64)
    b = np.array([8, 5, 2**62], np.int64)
    (out,) = shardy_py.interpret(text, a, b)
    assert out.tolist() == [(2**62 * 8) >> 64, (-1 * 5) >> 64, (-(2**63) * 2**62) >> 64]


def test_scan_is_a_prefix_sum():
    text = """func.func @main() -> (tensor<4xi32>, tensor<i32>) {
  %input = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %x, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}"""
    prefix, total = shardy_py.interpret(text)
    assert prefix.tolist() == [1, 3, 6, 10] and total.tolist() == 10


def test_triangular_solve_with_an_infinite_diagonal_entry_substitutes_as_the_reference():
    """Found by the drawn differential: the diagonal times the still-unsolved zero was inf * 0 = NaN; jaxlib's
    C++ (and XLA) solve x0 = 1.2 / inf = 0, then x1 = (-8 - 1.5 * 0) / 0.8 = -10."""
    text = """func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
    transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}"""
    a = np.array([[np.inf, 0.1], [1.5, 0.8]], np.float32)
    b = np.array([[1.2], [-8.0]], np.float32)
    (x,) = shardy_py.interpret(text, a, b)
    assert x.reshape(-1).tolist() == [0.0, -10.0]
