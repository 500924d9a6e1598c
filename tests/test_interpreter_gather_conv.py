"""The numpy interpreter's gather, scatter and convolution."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.evaluator import InterpretError


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


def test_depthwise_convolution_with_a_reversed_window():
    """Two feature groups, each input feature with its own output feature; the window reversed:
    out[o, s] = x[o, s + 1] * w[o, 0] + x[o, s] * w[o, 1]."""
    text = """func.func @main(%x: tensor<1x2x3xf32>, %k: tensor<2x1x2xf32>) -> tensor<1x2x2xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {reverse = [true]}
    {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
    : (tensor<1x2x3xf32>, tensor<2x1x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}"""
    x = np.array([[[1, 2, 3], [4, 5, 6]]], np.float32)
    k = np.array([[[10, 1]], [[100, 1000]]], np.float32)
    (out,) = shardy_py.interpret(text, x, k)
    assert out.tolist() == [[[21.0, 32.0], [4500.0, 5600.0]]]


def test_batch_grouped_convolution_gives_each_batch_group_its_output_features():
    """batch_group_count = 2: batch 0 meets output feature 0's kernel, batch 1 output feature 1's."""
    text = """func.func @main(%x: tensor<2x1x2xi32>, %k: tensor<2x1x1xi32>) -> tensor<1x2x2xi32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {}
    {batch_group_count = 2 : i64, feature_group_count = 1 : i64}
    : (tensor<2x1x2xi32>, tensor<2x1x1xi32>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
}"""
    x = np.array([[[1, 2]], [[3, 4]]], np.int32)
    k = np.array([[[10]], [[100]]], np.int32)
    (out,) = shardy_py.interpret(text, x, k)
    assert out.dtype == np.int32 and out.tolist() == [[[10, 20], [300, 400]]]


def test_dynamic_conv_whose_padding_leaves_windows_outside_the_input_is_a_located_error():
    """The result type wants 3 windows of 2 from an input cropped to 2 by the padding operand."""
    text = """func.func @main(%x: tensor<1x1x4xf32>, %k: tensor<1x1x2xf32>, %p: tensor<1x2xi64>) -> tensor<1x1x3xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {batch_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 1 : i64}
    : (tensor<1x1x4xf32>, tensor<1x1x2xf32>, tensor<1x2xi64>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}"""
    x = np.array([[[1, 2, 3, 4]]], np.float32)
    k = np.array([[[10, 1]]], np.float32)
    assert shardy_py.interpret(text, x, k, np.array([[0, 0]]))[0].tolist() == [[[12.0, 23.0, 34.0]]]
    with pytest.raises(InterpretError, match="window out of the padded input: 3 positions of stride 1, 2 kernel "
                                             "positions of dilation 1, padded input size 2") as e:
        shardy_py.interpret(text, x, k, np.array([[0, -2]]))
    assert e.value.loc is not None
