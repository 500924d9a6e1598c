# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""``-sdy-convert-global-to-local`` on a ``stablehlo.reduce`` whose operands are sharded along reduced
dimensions, against jaxlib 0.12 byte for byte (both ``enable-rgv3`` settings): the partial results are
combined by a ``stablehlo.all_reduce`` (one operand) or gathered and reduced again (several), unless the
result keeps those axes unreduced or its one user is an ``sdy.all_reduce`` over them.  Inputs where
jaxlib 0.12 aborts (an ``sdy.all_reduce`` user over part of the axes, a result unreduced over part of
them) are not compared."""
from __future__ import annotations

import pytest
from cpp_oracle import cpp, ours

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\nsdy.mesh @m2 = <["a"=2, "c"=2]>\n'


def _reduce(operand: str, result: str, *, dims: str = "[0]", body: str = "stablehlo.add",
            result_type: str = "tensor<4xf32>", after: str = "") -> str:
    returned = "%2" if after else "%1"
    plain = result_type.split(" {")[0].lstrip("(")
    return MESH + f'''func.func @main(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<{operand}>}}) -> {result_type} {{
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %cst) applies {body} across dimensions = {dims} {{sdy.sharding = #sdy.sharding_per_value<[<{result}>]>}} : (tensor<8x4xf32>, tensor<f32>) -> {plain}
{after}  return {returned} : {plain}
}}'''


CASES = {
    "one_axis": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}]'),
    "two_axes": _reduce('@mesh, [{"x", "y"}, {}]', '@mesh, [{}]'),
    "two_reduced_dimensions": _reduce('@mesh, [{"y"}, {"x"}]', '@mesh, []', dims="[0, 1]", result_type="tensor<f32>"),
    "maximum": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}]', body="stablehlo.maximum"),
    "operand_on_another_mesh": _reduce('@m2, [{"c"}, {}]', '@mesh, [{}]'),
    "result_unreduced": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}], unreduced={"x"}'),
    "all_reduce_user": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}]', after='  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}]> : tensor<4xf32>\n'),
    "all_reduce_user_over_other_axes": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}]', after='  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}]> : tensor<4xf32>\n'),
    "two_users": _reduce('@mesh, [{"x"}, {}]', '@mesh, [{}]', after='  %2 = stablehlo.add %1, %1 : tensor<4xf32>\n'),
    "reduced_dimension_unsharded": _reduce('@mesh, [{}, {"x"}]', '@mesh, [{"x"}]', result_type='(tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})'),
    "two_operands": MESH + '''func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>} : (tensor<8x4xf32>, tensor<8x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c1: tensor<i32>, %d: tensor<i32>) {
    %2 = stablehlo.add %a, %b : tensor<f32>
    %3 = stablehlo.add %c1, %d : tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }
  %4 = stablehlo.negate %1#0 : tensor<4xf32>
  return %4, %1#1 : tensor<4xf32>, tensor<4xi32>
}''',
}


@pytest.mark.parametrize("rgv3", ["false", "true"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_reduce_matches_jaxlib(name, rgv3):
    text = CASES[name]
    assert ours(text, f"sdy-convert-global-to-local=enable-rgv3={rgv3}") == cpp(
        text, f"builtin.module(sdy-convert-global-to-local{{enable-rgv3={rgv3}}})")


def test_one_axis_spelt_out():
    """The partial sums of the reduce over ``x`` are summed over ``x`` (devices {0, 2} and {1, 3})."""
    out = ours(CASES["one_axis"], "sdy-convert-global-to-local")
    assert ('%1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, '
            'replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({') in out
    assert "return %1 : tensor<4xf32>" in out
