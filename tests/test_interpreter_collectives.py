"""The numpy interpreter's interpreter.run_parallel and collectives over a process grid."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.evaluator import InterpretError

ALL_REDUCE = """
func.func @all_reduce(%x: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %1 = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %1 : tensor<i64>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
func.func @main(%a: tensor<2xi64>, %b: tensor<2xi64>, %c: tensor<2xi64>, %d: tensor<2xi64>)
    -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d)
    {programs = [[@all_reduce], [@all_reduce], [@all_reduce], [@all_reduce]]}
    : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
    -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}
"""


def test_all_reduce_sums_within_each_replica_group():
    xs = [np.array([1, 2]), np.array([10, 20]), np.array([100, 200]), np.array([1000, 2000])]
    out = shardy_py.interpret(ALL_REDUCE, *xs)
    assert [o.tolist() for o in out] == [[11, 22], [11, 22], [1100, 2200], [1100, 2200]]


def test_all_gather_across_partitions_with_global_ids():
    text = """
func.func @gather(%x: tensor<1xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
    replica_groups = dense<[[3, 2, 1, 0]]> : tensor<1x4xi64>,
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids}
    : (tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @main() -> (tensor<4xi32>, tensor<4xi32>) {
  %a = stablehlo.constant dense<[0]> : tensor<1xi32>
  %b = stablehlo.constant dense<[1]> : tensor<1xi32>
  %c = stablehlo.constant dense<[2]> : tensor<1xi32>
  %d = stablehlo.constant dense<[3]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather, @gather], [@gather, @gather]]}
    : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  return %r#0, %r#3 : tensor<4xi32>, tensor<4xi32>
}
"""
    first, last = shardy_py.interpret(text)
    assert first.tolist() == [3, 2, 1, 0] and last.tolist() == [3, 2, 1, 0]


def test_collective_permute_gives_zeros_to_processes_nobody_sends_to():
    text = """
func.func @permute(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
    : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@permute], [@permute]]}
    : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
"""
    r0, r1 = shardy_py.interpret(text)
    assert r0.tolist() == [0.0, 0.0] and r1.tolist() == [1.0, 2.0]


def test_replica_id_outside_run_parallel_is_an_error():
    text = """func.func @main() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  return %0 : tensor<ui32>
}"""
    with pytest.raises(InterpretError, match="only supported when run via interpreter.run_parallel"):
        shardy_py.interpret(text)


MESH_AXES_GATHER = """
sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 1, 0, 2]>
func.func @gather(%x: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1,
    type = 1>, replica_groups = GROUPS, use_global_device_ids}> : (tensor<1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @main() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = stablehlo.constant dense<[0]> : tensor<1xi32>
  %b = stablehlo.constant dense<[1]> : tensor<1xi32>
  %c = stablehlo.constant dense<[2]> : tensor<1xi32>
  %d = stablehlo.constant dense<[3]> : tensor<1xi32>
  %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather, @gather, @gather, @gather]]}
    : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
    -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}
"""


def _gathered(groups: str) -> list[list[int]]:
    return [o.tolist() for o in shardy_py.interpret(MESH_AXES_GATHER.replace("GROUPS", groups))]


def test_replica_groups_over_a_mesh_axis_name_the_devices_along_it():
    """Devices 3, 1, 0, 2 at mesh positions (0,0), (0,1), (1,0), (1,1): the groups along "x" are
    [3, 0] and [1, 2], as Shardy's dense groups write them (partition p gives p, and gets its group's)."""
    by_axis = _gathered('#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>')
    assert by_axis == [[3, 0], [1, 2], [1, 2], [3, 0]]
    assert by_axis == _gathered("dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>")


def test_replica_groups_over_an_inline_mesh_with_device_ids():
    inline = ('#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, '
              '<name = "y", size = 2>], device_ids=dense<[3, 1, 0, 2]> : tensor<4xi64>>, '
              'axes = [#stablehlo.axis_ref<name = "y">]>')
    dense = _gathered("dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>")
    assert _gathered(inline) == dense == [[0, 2], [3, 1], [0, 2], [3, 1]]


def test_replica_groups_over_a_sub_axis():
    sub = ('#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 4>]>, '
           'axes = [#stablehlo.axis_ref<name = "x", sub_axis_info = (2)2>]>')
    assert _gathered(sub) == _gathered("dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>")


def test_replica_groups_naming_a_mesh_the_module_does_not_define_are_an_error():
    text = MESH_AXES_GATHER.replace(
        "GROUPS", '#stablehlo.replica_group_mesh_axes<mesh = @other, axes = [#stablehlo.axis_ref<name = "x">]>')
    with pytest.raises(InterpretError, match="replica groups name mesh @other, which the module does not define"):
        shardy_py.interpret(text)
