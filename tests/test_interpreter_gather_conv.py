"""The numpy interpreter's gather, scatter and convolution."""
from __future__ import annotations

import numpy as np

import shardy_py


def test_gather_rows_with_clamped_start_indices():
    text = """func.func @main(%x: tensor<3x2xi32>, %i: tensor<2x1xi32>) -> tensor<2x2xi32> {
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 2>} : (tensor<3x2xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}"""
    x = np.arange(6, dtype=np.int32).reshape(3, 2)
    (out,) = shardy_py.interpret(text, x, np.array([[2], [7]], np.int32))
    assert out.tolist() == [[4, 5], [4, 5]]


def test_scatter_adds_repeated_indices_and_skips_out_of_bounds():
    text = """func.func @main(%x: tensor<3xi32>, %i: tensor<3x1xi32>, %u: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<3xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}"""
    (out,) = shardy_py.interpret(text, np.zeros(3, np.int32), np.array([[1], [1], [5]], np.int32),
                                 np.array([10, 20, 30], np.int32))
    assert out.tolist() == [0, 30, 0]


def test_scatter_with_a_non_commutative_body_applies_updates_in_order():
    text = """func.func @main(%x: tensor<2xi32>, %i: tensor<2x1xi32>, %u: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<2xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}"""
    (out,) = shardy_py.interpret(text, np.zeros(2, np.int32), np.array([[0], [0]], np.int32),
                                 np.array([1, 2], np.int32))
    assert out.tolist() == [2, 0]


def test_convolution_1d_with_padding_and_stride():
    text = """func.func @main(%x: tensor<1x1x5xf32>, %k: tensor<1x1x2xf32>) -> tensor<1x1x3xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
      window = {stride = [2], pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}"""
    x = np.array([[[1, 2, 3, 4, 5]]], np.float32)
    k = np.array([[[10, 1]]], np.float32)
    (out,) = shardy_py.interpret(text, x, k)
    assert out.tolist() == [[[1.0, 23.0, 45.0]]]
