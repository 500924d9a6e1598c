# ruff: noqa: E501  (MLIR programs are written one op per line, however long)
"""Sharding projection (``shardy_py.passes.propagation.sharding_projection``): dimension shardings
to factor shardings and back.

The cases follow Shardy's ``sharding_projection_test.cc`` (same programs, same expected factor
shardings); every projection built from a module is also projected back and must give each
tensor's sharding again (a missing sharding comes back fully open), as the C++ test harness
checks.  A property test draws shardings of reshapes and checks the round trip.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from projection_helpers import ModuleOp, ax, axes, fs, sharding, tensor

from shardy_py.ir.attrs import DimMappingAttr, MeshAttr, MeshAxisAttr, OpShardingRuleAttr, TensorMappingAttr
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    UpdateTensorShardings,
    distribute_axes_across_factors,
    get_greatest_common_prefix,
    is_axis_list_prefix_of,
    is_strict_prefix,
)


def build(text: str, op_name: str) -> ShardingProjection:
    """Project the op and check that projecting back gives the original shardings."""
    m = ModuleOp(text, op_name)
    projection = m.projection()
    assert m.reconstructed_shardings(projection) == m.original_shardings()
    return projection


def one_op(mesh: str, args: str, result: str, op: str) -> str:
    return f"sdy.mesh @mesh = <[{mesh}]>\nfunc.func @main({args}) -> {result} {{\n  %0 = {op}\n  return %0 : {result}\n}}\n"


RESHAPE_8_TO_2x4 = "stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>"


def reshape_8(mesh: str, dim: str) -> str:
    return one_op(mesh, f'%arg0: tensor<8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{dim}]>}}', "tensor<2x4xf32>",
                  RESHAPE_8_TO_2x4)


def reshape_16(mesh: str, dim: str) -> str:
    return one_op(mesh, f'%arg0: tensor<16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{dim}]>}}', "tensor<4x4xf32>",
                  "stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<4x4xf32>")


DOT_SIMPLE = """sdy.mesh @mesh = <["a"=4, "b"=2, "c"=2, "d"=2, "e"=2]>
func.func @main(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a", ?}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {"d", ?}], replicated={"b"}>}) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"d", "e"}], replicated={"a", "c"}>]>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
"""

DOT_CLOSED = """sdy.mesh @mesh = <["a"=4, "b"=2, "c"=2, "d"=2, "e"=2]>
func.func @main(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {"d"}], replicated={"b"}>}) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"d", "e"}], replicated={"a", "c"}>]>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
"""


# --- build: dot_general ---------------------------------------------------------------------


def test_dot_general_factors_take_their_dimension_axes():
    p = build(DOT_SIMPLE, "stablehlo.dot_general")
    assert p.operands[0] == tensor({0: fs('"b"', closed=True), 2: fs('"a"')})
    assert p.operands[1] == tensor({1: fs('"d"'), 2: fs('"a", "c"', closed=True)}, replicated='"b"')
    assert p.results[0] == tensor({0: fs(), 1: fs('"d", "e"', closed=True)}, replicated='"a", "c"')


def test_unreduced_and_replicated_axes_are_kept_per_tensor():
    text = """sdy.mesh @mesh = <["a"=4, "b"=2, "c"=4]>
func.func @main(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>},
                %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"b"}>}) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}], replicated={"c":(1)2}, unreduced={"a", "c":(2)2}>]>} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
"""
    p = build(text, "stablehlo.dot_general")
    assert p.operands[0] == tensor({0: fs('"b"', closed=True), 2: fs('"a"', closed=True)})
    assert p.operands[1] == tensor({1: fs(), 2: fs()}, replicated='"b"')
    assert p.results[0] == tensor({0: fs('"b"', closed=True), 1: fs(closed=True)}, replicated='"c":(1)2',
                                  unreduced='"a", "c":(2)2')


def test_reduction_kind_of_unreduced_axes_is_kept():
    # Shardy HEAD keeps the reduction op of unreduced axes in the projection (commit be7f7505, "Preserve
    # custom reduction operations for unreduced axes"; user_priority_propagation.mlir
    # @unreduced_custom_reduction_op expects `unreduced=max{"c"}` after propagation).  jaxlib 0.10.2 is
    # older and cannot read `unreduced=max{...}` (test_jaxlib_cannot_read_a_custom_unreduced_reduction).
    s = sharding('#sdy.sharding<@mesh, [{"a"}], unreduced=max{"b"}>')
    mesh = MeshAttr((MeshAxisAttr("a", 2), MeshAxisAttr("b", 2)))
    rule = OpShardingRuleAttr((4,), (TensorMappingAttr((DimMappingAttr((0,)),)),), ())
    p = ShardingProjection.build([s], [], rule, mesh)
    assert p.operands[0].reduction == "max"
    assert p.operands[0].create_tensor_sharding_attr(rule.operand_mappings[0], (4,), "mesh", mesh) == s


def test_a_custom_unreduced_reduction_reads_and_prints_as_jaxlib():
    """``unreduced=max{"b"}`` (a reduction other than sum).  jaxlib 0.10.2 rejected it (an MLIRError
    naming ``unreduced_axes``); jaxlib 0.12 reads it, verifies it and prints it back unchanged, in
    both forms, as shardy_py does."""
    jax_mlir = pytest.importorskip("jax._src.interpreters.mlir", reason="jax is not installed: no oracle")
    from jax._src.lib.mlir import ir

    import shardy_py

    ctx = jax_mlir.make_ir_context()
    text = """sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced=max{"b"}>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}"""
    theirs = ir.Module.parse(text, context=ctx).operation
    assert theirs.verify()
    ours = shardy_py.parse(text)
    assert str(ours) == theirs.get_asm()
    assert 'unreduced=max{"b"}' in str(ours)
    assert shardy_py.print_module(ours, generic=True) == theirs.get_asm(print_generic_op_form=True)


# --- build: splitting a dimension between factors -------------------------------------------


def test_reshape_split_dim_splits_the_first_axis():
    text = one_op('"a"=4, "b"=2, "c"=3', '%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}], replicated={"c"}>}',
                  "tensor<2x4xf32>", RESHAPE_8_TO_2x4)
    p = build(text, "stablehlo.reshape")
    assert p.operands[0] == tensor({0: fs('"a":(1)2', closed=True, minor_most=False),
                                    1: fs('"a":(2)2, "b"', closed=True)}, replicated='"c"')
    assert p.results[0] == tensor({0: fs(), 1: fs()})


def test_reshape_split_dim_of_an_axis_already_split():
    text = one_op('"a"=16, "b"=8, "c"=4',
                  '%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, "b"}, {"a":(2)8}], replicated={"c":(2)2}>}',
                  "tensor<16x2x4xf32>", "stablehlo.reshape %arg0 : (tensor<16x8xf32>) -> tensor<16x2x4xf32>")
    p = build(text, "stablehlo.reshape")
    assert p.operands[0] == tensor({0: fs('"a":(1)2, "b"', closed=True),
                                    1: fs('"a":(2)2', closed=True, minor_most=False),
                                    2: fs('"a":(4)4', closed=True)}, replicated='"c":(2)2')


def test_reshape_merge_dim_keeps_each_dimension_on_its_factor():
    text = one_op('"a"=2, "b"=2', '%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}',
                  "tensor<16xf32>", "stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>")
    p = build(text, "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {0: fs('"a"'), 1: fs('"b"', closed=True)}
    assert p.results[0].factor_index_to_sharding == {0: fs(minor_most=False), 1: fs()}


def test_reshape_with_size_one_dims():
    text = one_op('"a"=2', '%arg0: tensor<4x2x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}, {}]>}',
                  "tensor<8xf32>", "stablehlo.reshape %arg0 : (tensor<4x2x1xf32>) -> tensor<8xf32>")
    p = build(text, "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {0: fs('"a"', closed=True), 1: fs(closed=True),
                                                      2: fs(closed=True)}
    assert p.results[0].factor_index_to_sharding == {0: fs(minor_most=False), 1: fs()}


def test_minor_most_factor_takes_a_non_dividing_axis():
    text = one_op('"a"=3', '%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, %arg1: tensor<2x4xf32>',
                  "tensor<2x4xf32>", "stablehlo.add %arg0, %arg1 : tensor<2x4xf32>")
    p = build(text, "stablehlo.add")
    assert p.operands[0].factor_index_to_sharding == {0: fs(closed=True), 1: fs('"a"', closed=True)}
    assert p.operands[1].factor_index_to_sharding == {0: fs(), 1: fs()}


def test_single_factor_takes_axes_beyond_its_size():
    text = one_op('"a"=2, "b"=4', '%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "b"}]>}, %arg1: tensor<2x4xf32>',
                  "tensor<2x4xf32>", "stablehlo.add %arg0, %arg1 : tensor<2x4xf32>")
    p = build(text, "stablehlo.add")
    assert p.operands[0].factor_index_to_sharding == {0: fs(closed=True), 1: fs('"a", "b"', closed=True)}


def test_slice_factor_smaller_than_its_dimension_takes_all_axes():
    text = one_op('"a"=2, "b"=4, "c"=2, "d"=4, "e"=2',
                  '%arg0: tensor<32x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}, {"b", "d":(2)2, "e"}]>}',
                  "tensor<32x1x2xf32>", "stablehlo.slice %arg0 [0:32, 1:2, 4:6] : (tensor<32x4x16xf32>) -> tensor<32x1x2xf32>")
    p = build(text, "stablehlo.slice")
    assert p.operands[0].factor_index_to_sharding == {0: fs('"a"'), 1: fs('"c"'),
                                                      2: fs('"b", "d":(2)2, "e"', closed=True)}


@pytest.mark.parametrize(("mesh", "dim", "factor0", "factor1"), [
    ('"a"=6', '{"a"}', '"a":(1)2', '"a":(2)3'),  # minor-most factor not divisible
    ('"a"=16', '{"a"}', '"a":(1)2', '"a":(2)8'),  # minor-most factor overflows its size
    ('"a"=16, "b"=1, "c"=1', '{"a", "b", "c"}', '"a":(1)2', '"a":(2)8, "b", "c"'),
    ('"a"=1, "b"=2, "c"=1', '{"a", "b", "c"}', '"a", "b", "c"', ''),  # size-1 axes stay with the major factor
], ids=["minor-most-non-divisible", "minor-most-overflows", "minor-most-overflows-size-one-axes",
        "size-one-axes"])
def test_reshape_split_8_to_2x4(mesh, dim, factor0, factor1):
    p = build(reshape_8(mesh, dim), "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {0: fs(factor0, closed=True, minor_most=False),
                                                      1: fs(factor1, closed=True)}


def test_non_minor_most_factor_with_a_co_prime_axis_overflows():
    p = build(reshape_16('"a"=3', '{"a", ?}'), "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {0: fs(minor_most=False, overflow='"a"'), 1: fs(closed=True)}


def test_non_minor_most_factor_overflows_with_the_rest_of_a_split_axis():
    p = build(reshape_16('"a"=6', '{"a"}'), "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {
        0: fs('"a":(1)2', closed=True, minor_most=False, overflow='"a":(2)3'), 1: fs(closed=True)}


def test_non_minor_most_factor_overflows_with_all_remaining_axes():
    p = build(reshape_16('"a"=2, "b"=3', '{"a", "b"}'), "stablehlo.reshape")
    assert p.operands[0].factor_index_to_sharding == {
        0: fs('"a"', closed=True, minor_most=False, overflow='"b"'), 1: fs(closed=True)}
    assert p.results[0].factor_index_to_sharding == {0: fs(), 1: fs()}


def test_factors_after_the_one_following_an_overflow_are_not_mapped():
    # [ijk] with i=4, j=2, k=2 and "a"=3: i overflows, j is closed and empty, k is left out.
    mesh = MeshAttr((MeshAxisAttr("a", 3),))
    rule = OpShardingRuleAttr((4, 2, 2), (TensorMappingAttr((DimMappingAttr((0, 1, 2)),)),), ())
    p = ShardingProjection.build([sharding('#sdy.sharding<@mesh, [{"a", ?}]>')], [], rule, mesh)
    assert p.operands[0].factor_index_to_sharding == {0: fs(minor_most=False, overflow='"a"'),
                                                      1: fs(closed=True, minor_most=False)}


def test_missing_sharding_is_open_or_closed_by_request():
    mesh = MeshAttr((MeshAxisAttr("a", 2),))
    rule = OpShardingRuleAttr((4, 2), (TensorMappingAttr((DimMappingAttr((0,)), DimMappingAttr((1,)))),), ())
    assert ShardingProjection.build([None], [], rule, mesh).operands[0] == tensor({0: fs(), 1: fs()})
    closed = ShardingProjection.build([None], [], rule, mesh, closed_if_missing=True)
    assert closed.operands[0] == tensor({0: fs(closed=True), 1: fs(closed=True)})


def test_build_checks_the_number_of_shardings():
    rule = OpShardingRuleAttr((4,), (TensorMappingAttr((DimMappingAttr((0,)),)),), ())
    with pytest.raises(ValueError, match="number of shardings"):
        ShardingProjection.build([None, None], [], rule, MeshAttr(()))


# --- build from axes per factor -------------------------------------------------------------


def test_dot_general_from_factor_shardings():
    m = ModuleOp(DOT_SIMPLE, "stablehlo.dot_general")
    p = ShardingProjection.from_axes_per_factor([axes('"a"'), axes('"b"'), axes('"c", "d"')], m.rule)
    assert p.operands[0] == tensor({0: fs('"a"', closed=True), 2: fs('"c", "d"', closed=True)})
    assert p.operands[1] == tensor({2: fs('"c", "d"', closed=True), 1: fs('"b"', closed=True)})
    assert p.results[0] == tensor({0: fs('"a"', closed=True), 1: fs('"b"', closed=True)})


def test_reshape_from_factor_shardings():
    m = ModuleOp(reshape_8('"a"=2, "b"=2, "c"=2', "{}"), "stablehlo.reshape")
    p = ShardingProjection.from_axes_per_factor([axes('"a"'), axes('"b", "c"')], m.rule)
    assert p.operands[0] == tensor({0: fs('"a"', closed=True, minor_most=False), 1: fs('"b", "c"', closed=True)})
    assert p.results[0] == tensor({0: fs('"a"', closed=True), 1: fs('"b", "c"', closed=True)})


def test_from_greatest_common_prefix_axes():
    m = ModuleOp(DOT_CLOSED, "stablehlo.dot_general")
    common = m.projection().get_greatest_common_prefix_axes(3)
    assert common == [[], axes('"d"'), axes('"a"')]
    p = ShardingProjection.from_axes_per_factor(common, m.rule)
    assert p.operands[0] == tensor({0: fs(closed=True), 2: fs('"a"', closed=True)})
    assert p.operands[1] == tensor({1: fs('"d"', closed=True), 2: fs('"a"', closed=True)})
    assert p.results[0] == tensor({0: fs(closed=True), 1: fs('"d"', closed=True)})


# --- expand / update ------------------------------------------------------------------------

DOT_EXPAND = """sdy.mesh @mesh = <["a"=4, "b"=4, "c"=4, "d"=4, "e"=4, "f"=4]>
func.func @main(%arg0: tensor<256x512xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c", ?}]>},
                %arg1: tensor<512x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {"d", ?}], replicated={"f":(2)2}>}) -> tensor<256x128xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b":(1)2, ?}, {"d", "f", ?}]>]>} : (tensor<256x512xf32>, tensor<512x128xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}
"""


def test_expand_sharding_reports_only_tensors_that_grew():
    p = build(DOT_EXPAND, "stablehlo.dot_general")
    # Factor 0: the lhs already has ["a", "b"]; the rhs does not have the factor; the result grows.
    u = p.expand_sharding(0, axes('"a", "b"'))
    assert (u.updated_operand_indices(), u.updated_result_indices()) == ([], [0])
    # Factor 1: the rhs grows; the result's ["d", "f"] is longer than the new axes.
    u = p.expand_sharding(1, axes('"d", "f":(1)2'))
    assert (u.updated_operand_indices(), u.updated_result_indices()) == ([1], [])
    # Factor 2 with no axes: nothing.
    assert not p.expand_sharding(2, []).any()
    assert p.operands[0].factor_index_to_sharding == {0: fs('"a", "b"', closed=True), 2: fs('"c"')}
    assert p.operands[1].factor_index_to_sharding == {1: fs('"d", "f":(1)2'), 2: fs('"e"', closed=True)}
    assert p.results[0].factor_index_to_sharding == {0: fs('"a", "b"'), 1: fs('"d", "f"')}


def test_expand_sharding_axes_needs_a_strict_prefix():
    t = tensor({0: fs('"b"'), 1: fs('"a"')})
    assert not t.expand_sharding_axes(0, axes('"c", "b"'))
    assert not t.expand_sharding_axes(0, axes('"b"'))
    assert not t.expand_sharding_axes(5, axes('"b", "c"'))
    assert t.expand_sharding_axes(0, axes('"b", "c"'))
    assert t.factor_index_to_sharding[0] == fs('"b", "c"')


def test_update_sharding_axes_replaces_axes_and_overflow():
    t = tensor({0: fs('"b"', minor_most=False), 1: fs('"a"')})
    assert not t.update_sharding_axes(0, axes('"b"'), [])
    assert t.update_sharding_axes(0, axes('"c"'), [])
    assert t.update_sharding_axes(0, axes('"c"'), axes('"d"'))
    assert t.factor_index_to_sharding[0] == fs('"c"', minor_most=False, overflow='"d"')
    assert not t.update_sharding_axes(7, axes('"c"'), [])


def test_update_sharding_projects_back_on_both_sides_of_a_reshape():
    m = ModuleOp(one_op('"a"=2, "b"=4, "c"=4', "%arg0: tensor<4x4xf32>", "tensor<16xf32>",
                        "stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>"), "stablehlo.reshape")
    t = tensor({0: fs('"b"'), 1: fs('"a"')})
    assert t.update_sharding_axes(0, axes('"c"'), [])
    to = t.create_tensor_sharding_attr
    assert str(to(m.rule.operand_mappings[0], m.rule.factor_sizes, "mesh", m.mesh)) == '#sdy.sharding<@mesh, [{"c", ?}, {"a", ?}]>'
    assert str(to(m.rule.result_mappings[0], m.rule.factor_sizes, "mesh", m.mesh)) == '#sdy.sharding<@mesh, [{"c", "a", ?}]>'


def test_projection_update_sharding_keeps_closed_flags():
    p = ShardingProjection([tensor({0: fs('"a"', closed=True)})], [tensor({0: fs()}), tensor({1: fs()})])
    u = p.update_sharding(0, axes('"b"'), axes('"c"'))
    assert (u.update_operands, u.update_results) == ([True], [True, False])
    assert p.operands[0].factor_index_to_sharding[0] == fs('"b"', closed=True, overflow='"c"')
    assert p.tensors_contain_overflow_axes() == UpdateTensorShardings([True], [True, False])


# --- projecting back (createTensorShardingAttr) ---------------------------------------------


def reshape_4x4_to_16(mesh: str) -> ModuleOp:
    return ModuleOp(one_op(mesh, "%arg0: tensor<4x4xf32>", "tensor<16xf32>",
                           "stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>"), "stablehlo.reshape")


@pytest.mark.parametrize(("mesh", "factors", "replicated", "expected"), [
    # consecutive sub-axes at a factor boundary are merged
    ('"a"=8, "b"=2, "c"=2', {0: fs('"b", "a":(2)2'), 1: fs('"a":(4)2')}, '"c"',
     '#sdy.sharding<@mesh, [{"b", "a":(2)4, ?}], replicated={"c"}>'),
    # a fully sharded non-minor-most factor lets the next factor's axes in
    ('"a"=2, "b"=2, "c"=4, "d"=2', {0: fs('"a", "b"'), 1: fs('"c"')}, '"d"',
     '#sdy.sharding<@mesh, [{"a", "b", "c", ?}], replicated={"d"}>'),
    # a partially sharded one does not (strided view)
    ('"a"=2, "b"=2', {0: fs('"a"'), 1: fs('"b"')}, "", '#sdy.sharding<@mesh, [{"a", ?}]>'),
    # a minor-most factor may take a non-dividing axis
    ('"a"=3, "b"=4', {0: fs('"b"'), 1: fs('"a"')}, "", '#sdy.sharding<@mesh, [{"b", "a", ?}]>'),
], ids=["merged-sub-axes", "non-minor-most-full", "non-minor-most-partial", "minor-most-non-divisible"])
def test_create_tensor_sharding_attr_of_a_merged_dimension(mesh, factors, replicated, expected):
    m = reshape_4x4_to_16(mesh)
    t = TensorFactorShardings(factors, axes(replicated))
    assert str(t.create_tensor_sharding_attr(m.rule.result_mappings[0], m.rule.factor_sizes, "mesh", m.mesh)) == expected


def test_overflow_sub_axis_is_merged_back():
    # The closed factor after the overflowing one is not reached, so the dimension stays open.
    m = ModuleOp(reshape_8('"a"=6, "b"=2', "{}"), "stablehlo.reshape")
    t = TensorFactorShardings({0: fs('"a":(1)2', minor_most=False, overflow='"a":(2)3'), 1: fs(closed=True)},
                              axes('"b"'))
    assert str(t.create_tensor_sharding_attr(m.rule.operand_mappings[0], m.rule.factor_sizes, "mesh", m.mesh)) == (
        '#sdy.sharding<@mesh, [{"a", ?}], replicated={"b"}>')


def test_expanded_axes_project_back_before_the_next_factor():
    m = reshape_4x4_to_16('"a"=3, "b"=2, "c"=2')
    t = tensor({0: fs('"b"'), 1: fs('"a"')})
    assert t.expand_sharding_axes(0, axes('"b", "c"'))
    assert str(t.create_tensor_sharding_attr(m.rule.result_mappings[0], m.rule.factor_sizes, "mesh", m.mesh)) == (
        '#sdy.sharding<@mesh, [{"b", "c", "a", ?}]>')


def test_sharding_size_counts_axes_and_overflow_axes():
    mesh = MeshAttr((MeshAxisAttr("a", 4), MeshAxisAttr("b", 3), MeshAxisAttr("c", 2)))
    t = tensor({0: fs('"a":(1)2', overflow='"b"'), 1: fs('"c"')}, replicated='"a":(2)2')
    assert t.get_sharding_size(mesh) == 12


# --- greatest common prefix -----------------------------------------------------------------


def test_greatest_common_prefix_axes_of_dot_general():
    p = build(DOT_CLOSED, "stablehlo.dot_general")
    assert p.get_greatest_common_prefix_axes(3) == [[], axes('"d"'), axes('"a"')]


def test_greatest_common_prefix_axes_with_a_custom_rule():
    text = """sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @main(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j])->([i, j]) {i=8, j=32, k=16}>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
"""
    p = build(text, "stablehlo.dot")
    assert p.get_greatest_common_prefix_axes(3) == [axes('"a"'), [], axes('"b"')]


@pytest.mark.parametrize(("operand", "result", "expected"), [
    ('"a":(2)6,"b":(2)4,"c","d"', '"a":(2)6,"b":(2)8,"c"', '"a":(2)6, "b":(2)4'),
    ('"b","a":(2)4,"c"', '"b","a":(4)2,"c","d"', '"b"'),
], ids=["sub-axis-prefix", "different-sub-axes"])
def test_greatest_common_prefix_axes_of_sub_axes(operand, result, expected):
    text = f"""sdy.mesh @mesh = <["a"=24, "b"=16, "c"=2, "d"=2]>
func.func @main(%arg0: tensor<1536xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{{operand}}}]>}}) -> tensor<1536xf32> {{
  %0 = stablehlo.abs %arg0 {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{{result}}}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {{i=1536}}>}} : tensor<1536xf32>
  return %0 : tensor<1536xf32>
}}
"""
    p = build(text, "stablehlo.abs")
    assert p.get_greatest_common_prefix_axes(1) == [axes(expected)]


def test_greatest_common_prefix_of_lists():
    assert get_greatest_common_prefix(axes('"a", "b"'), axes('"a", "b", "c"')) == axes('"a", "b"')
    assert get_greatest_common_prefix(axes('"a", "b"'), axes('"a", "b":(1)2, "c"')) == axes('"a", "b":(1)2')
    assert get_greatest_common_prefix(axes('"a":(1)2'), axes('"a":(2)2')) == []
    assert get_greatest_common_prefix([], axes('"a"')) == []


# --- axis list prefixes ---------------------------------------------------------------------


@pytest.mark.parametrize("same", ["", '"a"', '"a":(2)4', '"a", "b":(1)2'])
def test_axis_list_is_equal_to_itself(same):
    assert is_axis_list_prefix_of(axes(same), axes(same)) is PrefixStatus.EQUAL


@pytest.mark.parametrize(("prefix", "longer"), [
    ("", '"a"'),
    ('"a"', '"a", "b"'),
    ('"a":(1)4', '"a", "b"'),
    ('"a", "b":(1)2', '"a", "b"'),
    ('"a", "b":(1)2', '"a", "b":(1)8'),
])
def test_axis_list_strict_prefix(prefix, longer):
    assert is_axis_list_prefix_of(axes(prefix), axes(longer)) is PrefixStatus.STRICT_PREFIX
    assert is_strict_prefix(axes(prefix), axes(longer))
    assert is_axis_list_prefix_of(axes(longer), axes(prefix)) is PrefixStatus.NOT_A_PREFIX


@pytest.mark.parametrize(("first", "second"), [
    ('"a"', '"b"'),
    ('"a"', '"b":(1)2'),
    ('"a", "b"', '"a", "c"'),
    ('"a", "b"', '"b", "a"'),
    ('"a", "b":(2)4', '"a", "b"'),
    ('"a"', '"a":(1)4, "b"'),
])
def test_axis_lists_unrelated_as_prefixes(first, second):
    assert is_axis_list_prefix_of(axes(first), axes(second)) is PrefixStatus.NOT_A_PREFIX
    assert is_axis_list_prefix_of(axes(second), axes(first)) is PrefixStatus.NOT_A_PREFIX


# --- distributing axes across factors -------------------------------------------------------


def test_distribute_axes_splits_an_axis_across_factors():
    mesh = MeshAttr((MeshAxisAttr("x", 8), MeshAxisAttr("y", 2)))
    shardings = [FactorSharding(), FactorSharding()]
    distribute_axes_across_factors(shardings, [2, 8], axes('"x", "y"'), mesh)
    assert shardings == [FactorSharding(axes('"x":(1)2')), FactorSharding(axes('"x":(2)4, "y"'))]


def test_distribute_axes_skips_factors_an_axis_does_not_divide():
    mesh = MeshAttr((MeshAxisAttr("x", 3), MeshAxisAttr("y", 2)))
    shardings = [FactorSharding(), FactorSharding()]
    distribute_axes_across_factors(shardings, [4, 6], axes('"x", "y"'), mesh)
    assert shardings == [FactorSharding(axes('"y"')), FactorSharding(axes('"x"'))]


def test_distribute_axes_overflow_goes_to_the_last_factor():
    mesh = MeshAttr((MeshAxisAttr("x", 2), MeshAxisAttr("y", 5), MeshAxisAttr("z", 2)))
    shardings = [FactorSharding(), FactorSharding()]
    distribute_axes_across_factors(shardings, [2, 2], axes('"x", "y", "z"'), mesh)
    assert shardings == [FactorSharding(axes('"x"')), FactorSharding([], overflow_axes=axes('"y", "z"'))]


def test_distribute_axes_merges_a_split_axis_back():
    mesh = MeshAttr((MeshAxisAttr("x", 4),))
    shardings = [FactorSharding(axes('"x":(1)2'))]
    distribute_axes_across_factors(shardings, [4], [ax('"x":(2)2')], mesh)
    assert shardings == [FactorSharding(axes('"x"'))]


def test_update_tensor_shardings_or():
    u = UpdateTensorShardings([True, False], [False])
    u |= UpdateTensorShardings([False, False], [True])
    assert u == UpdateTensorShardings([True, False], [True])
    assert u.updated_operand_indices() == [0] and u.updated_result_indices() == [0]


# --- round trip, drawn ----------------------------------------------------------------------

MESH_AXES = [("a", 2), ("b", 3), ("c", 4), ("d", 1)]


@st.composite
def dim_shardings(draw, rank: int):
    names = draw(st.permutations([n for n, _ in MESH_AXES]))
    dims = []
    for i in range(rank):
        take = draw(st.integers(0, 2))
        chosen = names[:take]
        names = names[take:]
        open_ = draw(st.booleans())
        body = ", ".join(f'"{n}"' for n in chosen)
        if open_:
            body = f"{body}, ?" if body else "?"
        dims.append("{" + body + "}")
        del i
    return dims


RESHAPES = [((4, 6), (24,)), ((24,), (2, 12)), ((8,), (2, 4)), ((6, 4), (3, 8)), ((2, 3, 4), (6, 4))]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_drawn_reshape_shardings_project_back_unchanged(data):
    src, dst = data.draw(st.sampled_from(RESHAPES))
    dims = data.draw(dim_shardings(len(src)))
    mesh = ", ".join(f'"{n}"={s}' for n, s in MESH_AXES)
    shape = "x".join(map(str, src))
    out = "x".join(map(str, dst))
    text = one_op(mesh, f"%arg0: tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{', '.join(dims)}]>}}",
                  f"tensor<{out}xf32>", f"stablehlo.reshape %arg0 : (tensor<{shape}xf32>) -> tensor<{out}xf32>")
    build(text, "stablehlo.reshape")


def test_distribute_axes_over_no_factors_does_nothing():
    # A dimension without factors (Shardy commit 7994ecea fixed an out-of-bounds access here).
    shardings: list[FactorSharding] = []
    distribute_axes_across_factors(shardings, [], axes('"x"'), MeshAttr((MeshAxisAttr("x", 2),)))
    assert shardings == []


def test_projecting_back_drops_dimension_priorities():
    # The factor view has no priorities; the user-priority pass puts them back itself.
    mesh = MeshAttr((MeshAxisAttr("a", 2), MeshAxisAttr("b", 2)))
    rule = OpShardingRuleAttr((4, 4), (TensorMappingAttr((DimMappingAttr((0,)), DimMappingAttr((1,)))),), ())
    s = sharding('#sdy.sharding<@mesh, [{"a", ?}p1, {"b"}p0]>')
    p = ShardingProjection.build([s], [], rule, mesh)
    assert str(p.operands[0].create_tensor_sharding_attr(rule.operand_mappings[0], (4, 4), "mesh", mesh)) == (
        '#sdy.sharding<@mesh, [{"a", ?}, {"b"}]>')
