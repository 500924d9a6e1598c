"""``shardy_py.rules.builder``: the port of Shardy's ``OpShardingRuleBuilder``.

Each test builds a rule and compares its text with the one the C++ builder gives for the same calls
(worked out from op_sharding_rule_builder.cc).  Each expected text is also parsed and printed by
jaxlib's C++ Shardy, which must give it back unchanged (when jax is installed); where an op
exercises the behaviour, ``tests/test_rules_part1.py`` compares whole rules with jaxlib's.
"""
from __future__ import annotations

import functools

import pytest

import shardy_py
from shardy_py.ir.types import parse_type
from shardy_py.rules.builder import (
    DYNAMIC_SIZE,
    KNULL_DIM,
    FactorType,
    OpShardingRuleBuilder,
    create_identity_sharding_rule,
    shape_of,
)


def t(*texts: str):
    """The tensor types of ``texts`` (``"8x4"`` is ``tensor<8x4xf32>``, ``""`` a scalar)."""
    return [parse_type(f"tensor<{s}xf32>" if s else "tensor<f32>") for s in texts]


@functools.cache
def _jax_context():
    try:
        from jax._src.interpreters import mlir as jax_mlir
    except ImportError:
        return None
    return jax_mlir.make_ir_context()


def check(rule, expected: str, jaxlib_reads_it: bool = True) -> None:
    """``rule`` prints as ``expected``, which jaxlib prints back unchanged (if it can read it)."""
    assert str(rule) == expected
    ctx = _jax_context()
    if ctx is not None and jaxlib_reads_it:
        from jax._src.lib.mlir import ir

        assert str(ir.Attribute.parse(expected, context=ctx)) == expected


def test_a_builder_without_factors_gives_every_dimension_a_size_one_factor_operands_first():
    check(OpShardingRuleBuilder(t("2x3", ""), t("5")).build(),
          "#sdy.op_sharding_rule<([i, j], [])->([k]) {i=1, j=1, k=1}>")


def test_add_factor_maps_the_given_dimensions_and_skips_null_dims():
    b = OpShardingRuleBuilder(t("8x4", "4"), t("4x8"))
    b.add_factor([0, KNULL_DIM], 1, 8).add_factor([1, 0], 0, 4)
    check(b.build(), "#sdy.op_sharding_rule<([i, j], [j])->([j, i]) {i=8, j=4}>")


def test_two_factors_on_one_dimension_make_a_compound_mapping_in_order():
    b = OpShardingRuleBuilder(t("32"), t("4x8"))
    b.add_factor(0, 0, 4).add_factor(0, 1, 8)
    check(b.build(), "#sdy.op_sharding_rule<([ij])->([i, j]) {i=4, j=8}>")


def test_a_size_one_factor_is_not_added_to_a_dimension_that_already_has_one():
    b = OpShardingRuleBuilder(t("1x4"), t("4x4"))
    b.add_factor(1, 0, 4).add_factor(KNULL_DIM, 1, 4).add_factor(0, 1, 1)
    check(b.build(), "#sdy.op_sharding_rule<([k, i])->([i, j]) {i=4, j=4, k=1}>")


def test_factor_types_and_blocking_are_listed_by_factor_index():
    b = OpShardingRuleBuilder(t("2x3x5x7"), t("2x3x5x7"))
    b.add_factor_for_dim(0, 2, FactorType.REDUCTION, blocked=True)
    b.add_factor_for_dim(1, 3, FactorType.NEED_REPLICATION)
    b.add_factor_for_dim(2, 5, FactorType.PERMUTATION, blocked=True)
    b.add_factor_for_dim(3, 7)
    check(b.build(), "#sdy.op_sharding_rule<([i, j, k, l])->([i, j, k, l]) {i=2, j=3, k=5, l=7} "
                     "reduction={i} need_replication={j} permutation={k} blocked_propagation={i, k}>")


def test_add_factor_for_dim_skips_scalars():
    b = OpShardingRuleBuilder(t("", "6"), t("6"))
    b.add_factor_for_dim(0, 6)
    check(b.build(), "#sdy.op_sharding_rule<([], [i])->([i]) {i=6}>")


def test_same_for_all_operands_and_same_for_all_results():
    b = OpShardingRuleBuilder(t("4x2", "4x2"), t("4x6"))
    b.add_factor_for_dim(0, 4)
    b.add_factor_same_for_all_operands(1, 2, FactorType.NEED_REPLICATION)
    b.add_factor_same_for_all_results(1, 6, FactorType.NEED_REPLICATION)
    check(b.build(), "#sdy.op_sharding_rule<([i, j], [i, j])->([i, k]) {i=4, j=2, k=6} "
                     "need_replication={j, k}>")


def test_add_pointwise_with_a_type_function_and_a_blocking_function():
    b = OpShardingRuleBuilder(t("2x3x5"), t("2x3x5"))
    b.add_pointwise((2, 3, 5), lambda d: FactorType.PERMUTATION if d == 1 else FactorType.PASS_THROUGH,
                    lambda ft: ft is FactorType.PERMUTATION)
    check(b.build(), "#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=3, k=5} "
                     "permutation={j} blocked_propagation={j}>")


def test_add_pointwise_blocks_every_factor_when_asked():
    b = OpShardingRuleBuilder(t("2x3"), t("2x3")).add_pointwise((2, 3), FactorType.NEED_REPLICATION, True)
    check(b.build(), "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=3} need_replication={i, j} "
                     "blocked_propagation={i, j}>")


def test_add_pointwise_if_leaves_the_other_dimensions_to_size_one_factors():
    b = OpShardingRuleBuilder(t("2x3x5"), t("2x3x5")).add_pointwise_if((2, 3, 5), lambda d: d != 1)
    check(b.build(), "#sdy.op_sharding_rule<([i, k, j])->([i, l, j]) {i=2, j=5, k=1, l=1}>")


def test_mismatched_dimensions_get_the_mismatch_type_sized_from_the_input():
    b = OpShardingRuleBuilder(t("8x4"), t("8x2"))
    b.add_pointwise_with_diff_type_for_mismatch((8, 4), (8, 2), FactorType.PERMUTATION, mismatch_blocked=True)
    check(b.build(), "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} permutation={j} "
                     "blocked_propagation={j}>")


def test_mismatch_defaults_to_need_replication_unblocked():
    b = OpShardingRuleBuilder(t("8x4"), t("8x2")).add_pointwise_with_diff_type_for_mismatch((8, 4), (8, 2))
    check(b.build(), "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={j}>")


def test_build_leaves_the_builder_unchanged():
    b = OpShardingRuleBuilder(t("8x4"), t("8x4")).add_factor(0, 0, 8)
    first = b.build()
    assert b.build() == first
    b.add_factor(1, 1, 4)
    check(b.build(), "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>")


def test_the_custom_rule_flag_prints_custom():
    check(OpShardingRuleBuilder(t("8"), t("8")).add_factor(0, 0, 8).build(is_custom_rule=True),
          "#sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>")


def test_dims_must_be_given_for_every_operand_and_result():
    b = OpShardingRuleBuilder(t("8", "8"), t("8"))
    with pytest.raises(ValueError, match="1 operand dimensions given for 2 operands"):
        b.add_factor(0, 0, 8)
    with pytest.raises(ValueError, match="2 result dimensions given for 1 results"):
        b.add_factor([0, 0], [0, 0], 8)


def test_tokens_count_as_rank_zero():
    b = OpShardingRuleBuilder([parse_type("!stablehlo.token")] + t("4"), t("4"))
    check(b.add_factor_for_dim(0, 4).build(), "#sdy.op_sharding_rule<([], [i])->([i]) {i=4}>")


def test_create_identity_sharding_rule():
    check(create_identity_sharding_rule(t("2x3")[0], 2, 1),
          "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=2, j=3}>")
    check(create_identity_sharding_rule(t("")[0]), "#sdy.op_sharding_rule<([])->([])>")


def _op(text: str, index: int = 0):
    ops = [o for o in shardy_py.parse(text).op.walk() if o.name.startswith("stablehlo.")]
    return ops[index]


def test_build_pointwise_numbers_dimensions_by_position_sized_from_the_first_result():
    op = _op("func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
             "  %0 = stablehlo.add %a, %a : tensor<8x4xf32>\n  return %0 : tensor<8x4xf32>\n}")
    check(OpShardingRuleBuilder.build_pointwise(op),
          "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>")


def test_build_pointwise_gives_no_rule_for_a_token_result():
    op = _op("func.func @f(%a: !stablehlo.token) -> !stablehlo.token {\n"
             "  %0 = stablehlo.after_all %a : !stablehlo.token\n  return %0 : !stablehlo.token\n}")
    assert OpShardingRuleBuilder.build_pointwise(op) is None


def test_dynamic_dimensions_have_mlirs_dynamic_size():
    assert shape_of(parse_type("tensor<?x4xf32>")) == (DYNAMIC_SIZE, 4)
    assert shape_of(parse_type("!stablehlo.token")) == ()
    op = _op("func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
             "  %0 = stablehlo.abs %a : tensor<?x4xf32>\n  return %0 : tensor<?x4xf32>\n}")
    # MLIR prints kDynamic but its parser rejects it ("integer value too large"): checked against
    # jaxlib's pass output below instead.
    check(OpShardingRuleBuilder.build_pointwise(op),
          "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=-9223372036854775808, j=4}>", jaxlib_reads_it=False)


# -- against jaxlib ---------------------------------------------------------------------------------

def test_dynamic_sizes_are_what_jaxlib_puts_in_the_rule():
    """jaxlib's pass gives ``abs`` on ``tensor<?x4xf32>`` the rule above (then fails to verify it)."""
    pytest.importorskip("jax")
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir, passmanager

    ctx = jax_mlir.make_ir_context()
    m = ir.Module.parse("func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
                        "  %0 = stablehlo.abs %a : tensor<?x4xf32>\n  return %0 : tensor<?x4xf32>\n}", context=ctx)
    pm = passmanager.PassManager.parse("builtin.module(func.func(sdy-populate-op-sharding-rules))", context=ctx)
    with pytest.raises(Exception) as e:
        pm.run(m.operation)
    assert "sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=-9223372036854775808, j=4}>" in str(e.value)
