"""The numpy interpreter's reduce, reduce_window, select_and_scatter and sort."""
from __future__ import annotations

import numpy as np

import shardy_py


def test_reduce_with_a_two_result_body_computes_argmax():
    text = """func.func @main() -> (tensor<2xi32>, tensor<2xi32>) {
  %x = stablehlo.constant dense<[[1, 5, 3], [7, 2, 7]]> : tensor<2x3xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %m = stablehlo.constant dense<-2147483648> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %m), (%i init: %z) across dimensions = [1]
    : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<2xi32>, tensor<2xi32>)
    reducer(%a: tensor<i32>, %c: tensor<i32>) (%b: tensor<i32>, %d: tensor<i32>) {
      %gt = stablehlo.compare GT, %c, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %v = stablehlo.select %gt, %c, %a : tensor<i1>, tensor<i32>
      %k = stablehlo.select %gt, %d, %b : tensor<i1>, tensor<i32>
      stablehlo.return %v, %k : tensor<i32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<2xi32>, tensor<2xi32>
}"""
    values, indices = shardy_py.interpret(text)
    assert values.tolist() == [5, 7] and indices.tolist() == [1, 0]


def test_reduce_window_max_pool_with_padding():
    text = """func.func @main() -> tensor<3xf32> {
  %x = stablehlo.constant dense<[1.0, 3.0, 2.0, 5.0]> : tensor<4xf32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>,
      padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}"""
    (out,) = shardy_py.interpret(text)
    assert out.tolist() == [1.0, 3.0, 5.0]


SORT = """func.func @main(%k: tensor<5xi32>, %v: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %0:2 = "stablehlo.sort"(%k, %v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %1 = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>)
  return %0#0, %0#1 : tensor<5xi32>, tensor<5xi32>
}"""


def test_stable_descending_sort_keeps_ties_in_order():
    keys, values = shardy_py.interpret(SORT, np.array([1, 3, 1, 3, 2], np.int32), np.arange(5, dtype=np.int32))
    assert keys.tolist() == [3, 3, 2, 1, 1] and values.tolist() == [1, 3, 4, 0, 2]


def test_sort_with_a_general_comparator_matches_the_simple_one():
    general = SORT.replace("%1 = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>",
                           "%n = stablehlo.negate %a : tensor<i32>\n      %m = stablehlo.negate %b : tensor<i32>\n"
                           "      %1 = stablehlo.compare LT, %n, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>")
    keys, values = shardy_py.interpret(general, np.array([1, 3, 1, 3, 2], np.int32), np.arange(5, dtype=np.int32))
    assert keys.tolist() == [3, 3, 2, 1, 1] and values.tolist() == [1, 3, 4, 0, 2]
