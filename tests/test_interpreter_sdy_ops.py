"""Shardy's ops in the unpartitioned program: annotations are identities, named computations run their
body, and a manual computation runs its body on every device of its mesh (JAX's shard_map)."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.evaluator import InterpretError

PSUM = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>]
      manual_axes={"x", "y"} (%a: tensor<2x2xf32>) {
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %2 = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    sdy.return %1 : tensor<2x2xf32>
  } : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
"""

PARTIAL_MANUAL = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>]
      manual_axes={"x"} (%a: tensor<2x6xf32>) {
    %id = stablehlo.partition_id : tensor<ui32>
    %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %1 = stablehlo.add %a, %b : tensor<2x6xf32>
    sdy.return %1 : tensor<2x6xf32>
  } : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
"""


def test_a_manual_computation_runs_its_body_on_every_device():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    (out,) = shardy_py.interpret(PSUM, x)
    expected = np.concatenate([x[:, :2] + x[:, 2:]], axis=1)
    assert out.tolist() == expected.tolist()


def test_free_axes_leave_the_pieces_whole_and_the_result_is_read_from_their_first_device():
    """Manual along "x" only: each body sees two rows (all of dimension 1), the devices at y=0 (0, 2)
    give the result; their partition ids are added."""
    x = np.zeros((4, 6), np.float32)
    (out,) = shardy_py.interpret(PARTIAL_MANUAL, x)
    assert out[:, 0].tolist() == [0.0, 0.0, 2.0, 2.0]


def test_a_named_computation_runs_its_body_and_annotations_are_identities():
    text = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<4xi32>
  %1 = sdy.named_computation<"double">(%0) (%a: tensor<4xi32>) {
    %2 = stablehlo.add %a, %a : tensor<4xi32>
    sdy.return %2 : tensor<4xi32>
  } : (tensor<4xi32>) -> tensor<4xi32>
  %3 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xi32>
  sdy.sharding_group %3 group_id=0 : tensor<4xi32>
  return %3 : tensor<4xi32>
}
"""
    (out,) = shardy_py.interpret(text, np.array([1, 2, 3, 4], np.int32))
    assert out.tolist() == [2, 4, 6, 8]


def test_a_manual_computation_on_an_undefined_mesh_is_an_error():
    with pytest.raises(InterpretError, match="mesh @other is not defined"):
        shardy_py.interpret(PSUM.replace("<@mesh, [{\"x\"}, {\"y\"}]>", "<@other, [{\"x\"}, {\"y\"}]>"),
                            np.zeros((4, 4), np.float32))
