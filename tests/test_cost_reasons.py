# ruff: noqa: E501  (expected reasons are written one line each, however long)
"""Why each collective is there (``shardy_py.cost.reasons``): the decision behind the reshard it came
from, and the origins of the shardings on both sides (``explain``'s user shardings, priorities and
chains), on the seed scenario (embedding weights and indices sharded along one axis) and one case
of each other kind."""
from __future__ import annotations

import pytest
from test_explain import embedding

import shardy_py
from shardy_py.cost import cost


def _reasons(text: str, name: str = "t.mlir", **options):
    report = cost(shardy_py.parse(text, name), **options)
    return [(c.kind, c.reason) for c in report.collectives]


def _origins(reason) -> list[str]:
    return [o.text("t.mlir") for o in reason.origins]


def test_without_priorities_the_indices_are_gathered_for_the_lookup():
    ((kind, reason),) = _reasons(embedding())
    assert (kind, reason.kind, reason.op, reason.loc.line) == ("all_gather", "operand", "stablehlo.gather", 3)
    assert reason.text == 'operand 1 of stablehlo.gather at t.mlir:3:3 is needed as <@mesh, [{}, {}]> (the sharding the op is computed in), but argument 1 (%idx) of @main is <@mesh, [{"x"}, {}]>'
    assert _origins(reason) == [
        '"x" on dimension 0 of argument 1 (%idx) of @main: from argument 1 (%idx) of @main, no priority (p0) at t.mlir:2:91',
        '"x" on dimension 1 of result 0 of stablehlo.gather: from argument 0 (%w) of @main, no priority (p0) at t.mlir:2:17; through stablehlo.gather at line 3',
        '"x" on dimension 1 of operand 0 of stablehlo.gather: from argument 0 (%w) of @main, no priority (p0) at t.mlir:2:17',
    ]


def test_p0_on_the_indices_puts_x_on_the_result_and_costs_an_all_to_all_more():
    """The lookup is still computed in the weights' layout (the partitioner's choice); propagation
    gave its result the indices' axis, so the result is resharded: the origins say which priority
    each side has."""
    (first, reason), (second, gather) = _reasons(embedding("p1", "p0"))
    assert (first, reason.kind, second, gather.kind) == ("all_to_all", "result", "all_gather", "operand")
    assert reason.text == 'stablehlo.gather at t.mlir:3:3 is computed as <@mesh, [{}, {"x"}]> (its operands\' shardings decided its factors), but propagation gave its result <@mesh, [{"x"}, {}]>: resharded for its users'
    assert _origins(reason) == [
        '"x" on dimension 1 of operand 0 of stablehlo.gather: from argument 0 (%w) of @main, priority p1 at t.mlir:2:17',
        '"x" on dimension 0 of result 0 of stablehlo.gather (%0): from argument 1 (%idx) of @main, priority p0 at t.mlir:2:93; through stablehlo.gather at line 3',
    ]


def test_a_sharded_contraction_is_a_reduction():
    ((kind, reason),) = _reasons(open("examples/mlp.mlir").read())
    assert (kind, reason.kind, reason.op, reason.loc.line) == ("all_reduce", "reduction", "stablehlo.dot_general", 10)
    assert reason.text == 'stablehlo.dot_general at t.mlir:10:5 sums over a dimension sharded along "model": each device holds a partial sum, added across "model"'
    assert _origins(reason) == [
        '"model" on dimension 1 of operand 0 of stablehlo.dot_general: from the sharding constraint at line 9, no priority (p0) at t.mlir:9:5',
        '"model" on dimension 0 of operand 1 of stablehlo.dot_general: from argument 3 (%arg3) of @main, no priority (p0) at t.mlir:3:263',
    ]


def test_a_sharding_constraint_that_moves_an_axis():
    """The negate is computed in its operand's layout (its "x" is %a's), the constraint asks for "x"
    on the other dimension."""
    ((kind, reason),) = _reasons('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@m, [{}, {"x"}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
''')
    assert (kind, reason.kind, reason.loc.line) == ("all_to_all", "constraint", 4)
    assert reason.text == 'the sharding constraint at t.mlir:4:3 asks for <@m, [{}, {"x"}]>; its input result 0 of stablehlo.negate (%0) is <@m, [{"x"}, {}]>'
    assert _origins(reason) == [
        '"x" on dimension 0 of operand 0 of stablehlo.negate: from argument 0 (%a) of @main, no priority (p0) at t.mlir:2:17',
        '"x" on dimension 1 of the constraint: from the sharding constraint at line 4, no priority (p0) at t.mlir:4:3',
    ]


def test_a_function_result_declared_otherwise_than_its_value():
    ((kind, reason),) = _reasons('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
''', propagate=False)
    assert (kind, reason.kind) == ("all_gather", "func_result")
    assert reason.text == 'result 0 of @main is declared <@m, [{}]>; the value it returns, result 0 of stablehlo.negate (%0), is <@m, [{"x"}]>'


def test_a_collective_the_program_writes():
    ((kind, reason),) = _reasons(open("examples/shard_map.mlir").read())
    assert (kind, reason.kind, reason.origins) == ("all_reduce", "program", [])
    assert reason.text == "written in the program (stablehlo.all_reduce, inside the manual computation at t.mlir:5:5)"


def test_a_reshard_the_program_writes_from_partial_sums():
    ((kind, reason),) = _reasons('''sdy.mesh @m = <["x"=4]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"x"}>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]>}) {
  %0 = sdy.reshard %a <@m, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
''', propagate=False)
    assert (kind, reason.kind) == ("all_reduce", "reshard")
    assert reason.text == 'the reshard the program writes at t.mlir:3:3 asks for <@m, [{}]>; its input argument 0 (%a) of @main is <@m, [{}], unreduced={"x"}>'


def test_the_collectives_of_one_reshard_share_its_reason():
    reasons = _reasons('''sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>}) {
  return %a : tensor<8x8xf32>
}
''', propagate=False)
    assert len(reasons) > 1 and len({id(r) for _, r in reasons}) == 1
    assert reasons[0][1].kind == "func_result"


@pytest.mark.parametrize("origins", [True, False])
def test_reasons_as_json_have_the_documented_fields(origins):
    ((_, reason),) = _reasons(embedding())
    data = reason.as_json(origins)
    assert set(data) == {"kind", "op", "line", "column", "text", "from_sharding", "to_sharding"} | (
        {"origins"} if origins else set())
