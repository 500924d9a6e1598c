# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""``-sdy-resolve-single-device-sharding``: the expected texts are jaxlib 0.12's (its pass compares the
ui32 device id with a ui32 constant where the test files' commit converts it to i64 first, so
transforms/export/test/resolve_single_device_sharding.mlir is pinned in
test_conformance_pins_jaxlib012.py)."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.passes.manager import PassContext, PassError, PassManager


def run(text: str, flag: str = "sdy-resolve-single-device-sharding") -> str:
    module = shardy_py.parse(text)
    PassManager.parse(["-" + flag]).run(module)
    return str(module)


#: A boolean op on device 3, used both through a reshard back to the global mesh and directly.
ON_DEVICE_3 = '''sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @dev3 = <[], device_ids=[3]>
func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi1> {
  %0 = sdy.reshard %arg0 <@dev3, []> : tensor<4xi1>
  %1 = stablehlo.not %0 {sdy.sharding = #sdy.sharding_per_value<[<@dev3, []>]>} : tensor<4xi1>
  %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xi1>
  %3 = stablehlo.and %2, %1 : tensor<4xi1>
  return %3 : tensor<4xi1>
}
'''

#: With two replicas the device id is the replica id.  The op runs on the reshard's input (the
#: reshard onto the device is dropped), the other devices give ``false``, an all-reduce over every
#: axis of @mesh stands for both uses (the replicated reshard is dropped too).
ON_DEVICE_3_RESOLVED = '''module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @dev3 = <[], device_ids=[3]>
  func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi1> {
    %0 = stablehlo.replica_id : tensor<ui32>
    %c = stablehlo.constant dense<3> : tensor<ui32>
    %1 = stablehlo.compare EQ, %0, %c : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %2 = "stablehlo.if"(%1) ({
      %5 = stablehlo.not %arg0 : tensor<4xi1>
      stablehlo.return %5 : tensor<4xi1>
    }, {
      %c_0 = stablehlo.constant dense<false> : tensor<4xi1>
      stablehlo.return %c_0 : tensor<4xi1>
    }) : (tensor<i1>) -> tensor<4xi1>
    %3 = sdy.all_reduce {"x", "y"} %2 out_sharding=<@mesh, [{}]> : tensor<4xi1>
    %4 = stablehlo.and %3, %3 : tensor<4xi1>
    return %4 : tensor<4xi1>
  }
}
'''


def test_resolves_an_op_on_one_device():
    assert run(ON_DEVICE_3, "sdy-resolve-single-device-sharding=replica-count=2") == ON_DEVICE_3_RESOLVED


def test_partition_id_by_default():
    out = run(ON_DEVICE_3)
    assert "stablehlo.partition_id : tensor<ui32>" in out and "replica_id" not in out


def test_replicas_and_partitions_both_above_one_is_an_error():
    with pytest.raises(PassError) as info:
        run(ON_DEVICE_3, "sdy-resolve-single-device-sharding=replica-count=2 partition-count=2")
    assert "does not support replica_count > 1 && partition_count > 1" in info.value.diagnostics[0].message


def test_results_on_two_devices_is_an_error():
    text = '''sdy.mesh @mesh = <["x"=2]>
sdy.mesh @d0 = <[], device_ids=[0]>
sdy.mesh @d1 = <[], device_ids=[1]>
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@d0, []>, <@d1, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
'''
    with pytest.raises(PassError) as info:
        run(text)
    assert info.value.diagnostics[0].message == "'stablehlo.custom_call' has results on devices 0 and 1"


def test_a_module_without_a_global_mesh_is_left_alone():
    text = '''sdy.mesh @d0 = <[], device_ids=[0]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@d0, []>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
'''
    module = shardy_py.parse(text)
    before = str(module)
    ctx = PassContext()
    PassManager.parse(["-sdy-resolve-single-device-sharding"]).run(module, ctx)
    assert ctx.preserved and str(module) == before
