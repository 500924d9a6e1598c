# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""``-sdy-convert-global-to-local`` writes the shardings of ``main``'s arguments and results on the
module (``sdy.parameters_shardings``, ``sdy.output_shardings``), as jaxlib 0.12 does: each module
below is run through both and must print the same, byte for byte; the first is also spelt out.  And
a dynamic slice of a sharded operand loses its discardable attributes there, as in jaxlib 0.12."""
from __future__ import annotations

import pytest
from cpp_oracle import cpp, ours

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

FLAG = "sdy-convert-global-to-local"
PIPELINE = "builtin.module(sdy-convert-global-to-local{enable-rgv3=false})"
SHARDED = '{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}'

MODULES = {
    "sharded_main": f'''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {SHARDED}) -> (tensor<8xf32> {SHARDED}) {{
  %0 = stablehlo.abs %arg0 {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"x"}}]>]>}} : tensor<8xf32>
  return %0 : tensor<8xf32>
}}''',
    "no_mesh_at_all": '''func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}''',
    "unsharded_argument_on_the_first_mesh_with_axes": '''sdy.mesh @e = <[]>
sdy.mesh @single = <[], device_ids=[3]>
sdy.mesh @a = <["y"=4]>
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}''',
    "only_a_single_device_mesh": '''sdy.mesh @e = <[], device_ids=[2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}''',
    "private_main_and_other_functions": f'''sdy.mesh @mesh = <["x"=2]>
func.func @foo(%arg0: tensor<6xf32>) -> tensor<6xf32> {{
  return %arg0 : tensor<6xf32>
}}
func.func private @main(%arg0: tensor<8xf32> {SHARDED}) -> (tensor<8xf32> {SHARDED}) {{
  return %arg0 : tensor<8xf32>
}}''',
    "no_main": f'''sdy.mesh @mesh = <["x"=2]>
func.func @foo(%arg0: tensor<8xf32> {SHARDED}) -> (tensor<8xf32> {SHARDED}) {{
  return %arg0 : tensor<8xf32>
}}''',
    "no_arguments_no_results": '''sdy.mesh @mesh = <["x"=2]>
func.func @main() {
  return
}''',
    "scalar_token_inline_mesh_device_ids_unreduced": '''sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @main(%arg0: tensor<f32>, %arg1: !stablehlo.token, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["z"=2]>, [{"z"}]>}) -> (tensor<f32>, !stablehlo.token, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) {
  return %arg0, %arg1, %arg2 : tensor<f32>, !stablehlo.token, tensor<8xf32>
}''',
    "existing_metadata_replaced_other_attributes_kept": f'''module @jit_f attributes {{mhlo.num_partitions = 2 : i32, sdy.parameters_shardings = 1 : i32}} {{
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {SHARDED}) -> (tensor<8xf32> {SHARDED}) {{
  return %arg0 : tensor<8xf32>
}}
}}''',
    "result_takes_the_returned_values_sharding": '''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated={"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}''',
    "result_sharding_wins_over_the_returned_values": '''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated={"x"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}''',
    "argument_takes_no_users_sharding": '''sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated={"x"}>]>} : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}''',
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_sharding_metadata_matches_jaxlib(name):
    text = MODULES[name]
    assert ours(text, FLAG) == cpp(text, PIPELINE)


def test_sharded_main_metadata_spelt_out():
    first_line = ours(MODULES["sharded_main"], FLAG).splitlines()[0]
    assert first_line == ('module attributes {sdy.output_shardings = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}]>]>, '
                          'sdy.parameters_shardings = #sdy.sharding_per_value<[<mesh<["x"=2]>, [{"x"}]>]>} {')


def _dynamic_slice(operand: str) -> str:
    return f'''sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, {operand}>}}, %i: tensor<i32>) -> (tensor<8x2xf32> {{sdy.sharding = #sdy.sharding<@mesh, {operand}>}}) {{
  %0 = stablehlo.dynamic_slice %arg0, %i, %i, sizes = [8, 2] {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {operand}>]>, mhlo.frontend_attributes = {{a = "b"}}}} : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}}'''


@pytest.mark.parametrize("operand", ['[{"x"}, {}]', '[{}, {}]'], ids=["sharded", "replicated"])
def test_dynamic_slice_attributes_match_jaxlib(operand):
    """A dynamic slice of a sharded operand is rebuilt with local sizes and no discardable attributes
    (found with ``differential_partition.py --stage kept``); a replicated one keeps them."""
    text = _dynamic_slice(operand)
    mine = ours(text, FLAG)
    assert mine == cpp(text, PIPELINE)
    assert ("mhlo.frontend_attributes" in mine) == (operand == "[{}, {}]")
