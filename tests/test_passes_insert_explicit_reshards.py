# ruff: noqa: E501  (MLIR inputs and expected outputs are written one line per line, however long)
"""``-sdy-insert-explicit-reshards`` by example: each case is an input, the option and the exact output
(jaxlib's, which ``test_the_expectations_are_jaxlibs`` re-checks when jax is installed)."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.passes.manager import PassManager

MESH = 'sdy.mesh @mesh = <["x"=4, "y"=2]>\n'

#: name -> (enable-full-version, input, expected output, what it shows)
CASES = {
    "dot_result_resharded_minimal": (
        False,
        MESH + """func.func @f(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}""",
        """module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @f(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x8xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
    %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
""",
        'Minimal version: the dot\'s result shards its second dimension on the contracting axis "x", where the right operand shards it on "y"; the result takes the operands\' sharding and is resharded back after the dot.'),
    "elementwise_full": (
        True,
        MESH + """func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}""",
        """module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
    %0 = sdy.reshard %arg1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    %2 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
""",
        "Full version: the operands disagree; the sharding two of the three tensors share wins, the other operand is resharded before the add, and the result is resharded to the function's result sharding."),
    "unreduced_operand_all_reduced": (
        False,
        MESH + """func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}""",
        """module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
    %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
""",
        'An operand unreduced along "y" feeding an op whose result keeps no unreduced axes is all-reduced first.'),
    "reduction_into_unreduced_result": (
        False,
        MESH + """func.func @f(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x":(1)2}>]>} : (tensor<8x32xf32>, tensor<32x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}""",
        """module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @f(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %arg1: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x":(1)2}>]>} : (tensor<8x32xf32>, tensor<32x8xf32>) -> tensor<8x8xf32>
    %1 = sdy.all_reduce {"x":(2)2} %0 out_sharding=<@mesh, [{}, {}], unreduced={"x":(1)2}> : tensor<8x8xf32>
    %2 = sdy.all_reduce {"x":(1)2} %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
""",
        'A dot contracting over "x" whose result keeps only "x":(1)2 unreduced: the rest of "x" is all-reduced after it; the returned value, with no result sharding to keep it unreduced, is all-reduced too.'),
}


def run(text: str, full: bool) -> str:
    module = shardy_py.parse(text)
    PassManager.parse([f"-sdy-insert-explicit-reshards=enable-full-version={str(full).lower()}"]).run(module)
    return str(module)


@pytest.mark.parametrize("name", sorted(CASES))
def test_insert_explicit_reshards_by_example(name):
    full, text, expected, _ = CASES[name]
    assert run(text, full) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_expectations_are_jaxlibs(name):
    from cpp_oracle import cpp, require_jax

    require_jax()
    full, text, expected, _ = CASES[name]
    assert cpp(text, f"builtin.module(func.func(sdy-insert-explicit-reshards{{enable-full-version={str(full).lower()}}}))") == expected


def test_a_single_device_function_argument_is_refused():
    text = """sdy.mesh @dev = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@dev, []>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}"""
    from shardy_py.passes.manager import PassError

    with pytest.raises(PassError) as e:
        run(text, True)
    assert e.value.diagnostics[0].message == ("'func.func' op function argument 0 cannot have a single-device "
                                              "(maximal) sharding attribute")
