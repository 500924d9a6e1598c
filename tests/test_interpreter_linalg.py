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


def test_dot_general_of_floats_rounds_each_product_and_sum_to_the_element_type():
    """As the reference's dotGeneralOp: ((0 + a0*b0) + a1*b1) + a2*b2 in f32, so the sum split over
    devices and added back (executable_partitioner_pipeline/stablehlo_dot_general_indivisible.mlir)
    gives the same bits; in float64 rounded once this row gives -61.3839035 instead."""
    text = """func.func @main(%a: tensor<1x3xf32>, %b: tensor<3x1xf32>) -> tensor<1x1xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
    : (tensor<1x3xf32>, tensor<3x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}"""
    a = np.array([[1.12, -2.45, 3.89]], np.float32)
    b = np.array([[-1.87], [6.02], [-11.45]], np.float32)
    (out,) = shardy_py.interpret(text, a, b)
    expected = np.float32(0)
    for x, y in zip(a[0], b[:, 0], strict=True):
        expected = np.float32(expected + np.float32(x * y))
    assert out.dtype == np.float32 and out[0, 0] == expected
    assert expected != np.float32(np.dot(a.astype(np.float64), b.astype(np.float64))[0, 0])


def test_dot_general_of_complex_numbers_uses_the_component_formulas():
    text = """func.func @main(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<complex<f32>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0]
    : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}"""
    a = np.array([1 + 2j, 3 - 1j], np.complex64)
    b = np.array([2 - 1j, 1 + 1j], np.complex64)
    (out,) = shardy_py.interpret(text, a, b)
    assert out.dtype == np.complex64 and complex(out) == (1 + 2j) * (2 - 1j) + (3 - 1j) * (1 + 1j)


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
