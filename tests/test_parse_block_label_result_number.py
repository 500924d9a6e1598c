"""A block label's argument may be written ``%a#1`` (MLIR defines slot 1 of the name ``%a``): it is an
argument like any other, not dropped (the mutant fuzz's ``stablehlo.map`` whose body then had one
argument fewer, rejected by the arity check where jaxlib 0.12 accepts it)."""
from __future__ import annotations

from cpp_oracle import cpp

import shardy_py
from shardy_py.verify import verify

TEXT = """func.func @map(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.map"(%arg0, %arg1) ({
  ^bb0(%a#1: tensor<f32>, %a: tensor<f32>):
    %1 = stablehlo.subtract %a#1, %a : tensor<f32>
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""

PRINTED = """module {
  func.func @map(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = stablehlo.subtract %arg2, %arg3 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def test_argument_with_a_result_number_is_kept_and_its_uses_resolve() -> None:
    module = shardy_py.parse(TEXT)
    assert str(module) == PRINTED
    assert verify(module) == []


def test_jaxlib_prints_the_same() -> None:
    assert cpp(TEXT, "builtin.module()") == PRINTED
