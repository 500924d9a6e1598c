"""Priorities as users mean them: p0 is the highest and the default, so ``give_precedence`` gives one
sharding p0 and demotes every other user sharding one step; it reaches function results, as
``mark_sharding`` now does too."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.priorities import PrecedenceError, give_precedence

CONFLICT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}p1]>}) {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""  # noqa: E501


def signature(module) -> str:
    return str(module).splitlines()[2]


def test_the_chosen_argument_gets_p0_and_every_other_sharding_moves_one_down():
    module = shardy_py.parse(CONFLICT)
    assert str(give_precedence(module, "%b")) == '#sdy.sharding<@mesh, [{"y"}p0, {}]>'
    assert signature(module) == (
        '  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>}, '
        '%arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {}]>}) -> '
        '(tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}p2]>}) {')
    assert shardy_py.verify(module) == []


def test_an_explicit_p0_alone_changes_nothing_but_precedence_does():
    """A dimension without a priority is already p0: p0 on one side ties; demoting the other decides."""
    plain = shardy_py.propagate(shardy_py.parse(CONFLICT))
    explicit = shardy_py.parse(CONFLICT.replace('[{"y"}, {}]', '[{"y"}p0, {}]'))
    assert str(shardy_py.propagate(explicit)) .replace('{"y"}p0', '{"y"}') == str(plain)
    chosen = shardy_py.parse(CONFLICT)
    give_precedence(chosen, "%b")
    result = shardy_py.propagate(chosen)
    add = next(op for op in result.walk() if op.name == "stablehlo.add")
    assert str(add.attributes["sdy.sharding"]) == '#sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>'


def test_explain_says_which_priority_decided():
    chosen = shardy_py.parse(CONFLICT)
    give_precedence(chosen, "%b")
    text = str(shardy_py.explain(shardy_py.propagate(chosen), "%0"))
    assert ('kept away (conflict): this value has "y" there (from argument 1 (%b) of @main), and the op\'s '
            'tensors disagree on the factor, so the rule carries only their common prefix; priority decided: "y" '
            'has p0, propagated before "x" with p1 (a lower number goes first)') in text


def test_a_function_result_and_a_constraint_can_be_chosen():
    module = shardy_py.parse(CONFLICT)
    assert str(give_precedence(module, "result 0")) == '#sdy.sharding<@mesh, [{}, {"x"}p0]>'
    assert str(give_precedence(module, "%1")) == "#sdy.sharding<@mesh, [{?}, {?}]>"  # nothing sharded: no p0
    assert signature(module).endswith('#sdy.sharding<@mesh, [{}, {"x"}p1]>}) {')


def test_a_value_without_a_user_sharding_is_an_error_and_nothing_changes():
    module = shardy_py.parse(CONFLICT)
    with pytest.raises(PrecedenceError, match="no user sharding"):
        give_precedence(module, "%0")
    assert str(module) == str(shardy_py.parse(CONFLICT))
    with pytest.raises(PrecedenceError, match="@main has 1 result"):
        give_precedence(module, "result 1")


def test_mark_sharding_reaches_function_results():
    module = shardy_py.parse(CONFLICT)
    module.mark_sharding("result 0", "mesh", ("x", "y"), priority=(None, 0))
    assert signature(module).endswith('-> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}p0]>}) {')
    assert shardy_py.verify(module) == []
