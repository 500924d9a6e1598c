# ruff: noqa: E501  (expected MLIR text is written on one line, however long; it must be exact)
"""Sharding rules, part 1 (``shardy_py.rules``: elementwise ops, clamp, all_gather, all_to_all,
bitcast_convert, batch_norm_inference, broadcast_in_dim, cholesky, concatenate, custom_call,
select_and_scatter), ``shardy_py.sharding_rule`` and ``-sdy-populate-op-sharding-rules``.

Each case is a function with the op under test; the expected rules are the ones jaxlib 0.12's C++
Shardy attaches (``test_matches_jaxlib`` re-checks the whole module against it), in normal and
conservative mode.  ``test_stablehlo_corpus_matches_jaxlib`` runs the pass on every chunk of the
StableHLO test corpus that holds one of these ops and compares with jaxlib's output.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO, corpus_chunks
from cpp_oracle import require_jax
from rules_cases import Case as _Case
from rules_cases import body_ops
from rules_oracle import corpus_differences, cpp_populate, populate, populate_flag, run_pass

import shardy_py
from shardy_py.passes.manager import PassManager
from shardy_py.rules import registry
from shardy_py.rules.registry_elementwise import POINTWISE_OPS
from shardy_py.rules.sharding_rule import sharding_rule


class Case(_Case):
    """A ``rules_cases.Case`` whose module also declares ``@mesh`` (for the sharding constraint)."""

    __slots__ = ()

    def text(self) -> str:
        return 'sdy.mesh @mesh = <["x"=2]>\n' + super().text()


CASES = {
    'pointwise_binary': Case(
        '(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.add %a, %b : tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>',
    ),
    'pointwise_compare_changes_the_element_type': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xi1>',
        [
            '%0 = stablehlo.compare LT, %a, %a : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xi1>',
        ],
        '%0 : tensor<8x4xi1>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>',
    ),
    'pointwise_scalar': Case(
        '(%a: tensor<f32>) -> tensor<f32>',
        [
            '%0 = stablehlo.tanh %a : tensor<f32>',
        ],
        '%0 : tensor<f32>',
        '#sdy.op_sharding_rule<([])->([])>',
    ),
    'pointwise_all_reduce_of_two_operands': Case(
        '(%a: tensor<8x4xf32>, %b: tensor<2xf32>) -> tensor<8x4xf32>',
        [
            '%0:2 = "stablehlo.all_reduce"(%a, %b) ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %s = stablehlo.add %x, %y : tensor<f32>',
            '  stablehlo.return %s : tensor<f32>',
            '}) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>, tensor<2xf32>) -> (tensor<8x4xf32>, tensor<2xf32>)',
        ],
        '%0#0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j], [i])->([i, j], [i]) {i=8, j=4}>',
    ),
    'pointwise_sharding_constraint': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = sdy.sharding_constraint %a <@mesh, [{"x"}, {}]> : tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>',
    ),
    'clamp_with_scalar_bounds': Case(
        '(%lo: tensor<f32>, %a: tensor<8x4xf32>, %hi: tensor<f32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([], [i, j], [])->([i, j]) {i=8, j=4}>',
    ),
    'clamp_with_tensor_bounds': Case(
        '(%lo: tensor<8x4xf32>, %a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.clamp %lo, %a, %lo : tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=8, j=4}>',
    ),
    'all_gather': Case(
        '(%a: tensor<8x2xf32>) -> tensor<8x8xf32>',
        [
            '%0 = "stablehlo.all_gather"(%a) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8x2xf32>) -> tensor<8x8xf32>',
        ],
        '%0 : tensor<8x8xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=2, k=8} need_replication={j, k}>',
    ),
    'all_to_all_split_and_concat_differ': Case(
        '(%a: tensor<8x4x6xf32>) -> tensor<2x16x6xf32>',
        [
            '%0 = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8x4x6xf32>) -> tensor<2x16x6xf32>',
        ],
        '%0 : tensor<2x16x6xf32>',
        '#sdy.op_sharding_rule<([j, l, i])->([k, m, i]) {i=6, j=8, k=2, l=4, m=16} need_replication={j, k, l, m}>',
    ),
    'all_to_all_split_is_concat': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = "stablehlo.all_to_all"(%a) {split_dimension = 1 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=4} need_replication={j, k}>',
    ),
    'bitcast_convert_to_narrower_elements': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4x2xbf16>',
        [
            '%0 = stablehlo.bitcast_convert %a : (tensor<8x4xf32>) -> tensor<8x4x2xbf16>',
        ],
        '%0 : tensor<8x4x2xbf16>',
        '#sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=8, j=4, k=2} need_replication={k}>',
    ),
    'bitcast_convert_to_wider_elements': Case(
        '(%a: tensor<8x4x2xbf16>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.bitcast_convert %a : (tensor<8x4x2xbf16>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j]) {i=8, j=4, k=2} need_replication={k}>',
    ),
    'bitcast_convert_same_width': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xi32>',
        [
            '%0 = stablehlo.bitcast_convert %a : (tensor<8x4xf32>) -> tensor<8x4xi32>',
        ],
        '%0 : tensor<8x4xi32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>',
    ),
    'batch_norm_inference': Case(
        '(%a: tensor<4x16x8xf32>, %s: tensor<16xf32>) -> tensor<4x16x8xf32>',
        [
            '%0 = "stablehlo.batch_norm_inference"(%a, %s, %s, %s, %s) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<4x16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16x8xf32>',
        ],
        '%0 : tensor<4x16x8xf32>',
        '#sdy.op_sharding_rule<([i, j, k], [j], [j], [j], [j])->([i, j, k]) {i=4, j=16, k=8}>',
    ),
    'broadcast_in_dim_expands_a_size_one_dimension': Case(
        '(%a: tensor<1x4xf32>) -> tensor<2x8x4xf32>',
        [
            '%0 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<2x8x4xf32>',
        ],
        '%0 : tensor<2x8x4xf32>',
        '#sdy.op_sharding_rule<([j, l])->([i, k, l]) {i=2, j=1, k=8, l=4}>',
    ),
    'broadcast_in_dim_keeps_a_size_one_dimension_of_size_one': Case(
        '(%a: tensor<1x4xf32>) -> tensor<1x4x3xf32>',
        [
            '%0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<1x4x3xf32>',
        ],
        '%0 : tensor<1x4x3xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j, k]) {i=1, j=4, k=3}>',
    ),
    'broadcast_in_dim_of_a_scalar': Case(
        '(%a: tensor<f32>) -> tensor<2x3xf32>',
        [
            '%0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<2x3xf32>',
        ],
        '%0 : tensor<2x3xf32>',
        '#sdy.op_sharding_rule<([])->([i, j]) {i=2, j=3}>',
    ),
    'cholesky': Case(
        '(%a: tensor<3x8x8xf32>) -> tensor<3x8x8xf32>',
        [
            '%0 = stablehlo.cholesky %a, lower = true : tensor<3x8x8xf32>',
        ],
        '%0 : tensor<3x8x8xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=3, j=8, k=8} need_replication={j, k}>',
    ),
    'concatenate_of_unrelated_operands': Case(
        '(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<6x8xf32>',
        [
            '%0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>',
        ],
        '%0 : tensor<6x8xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=6, j=8} need_replication={i}>',
        conservative='#sdy.op_sharding_rule<([j, i], [k, i])->([l, i]) {i=8, j=1, k=1, l=1}>',
    ),
    'concatenate_of_slices': Case(
        '(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32>',
        [
            '%0 = stablehlo.slice %a [0:4, 0:4] : (tensor<4x8xf32>) -> tensor<4x4xf32>',
            '%1 = stablehlo.slice %b [0:4, 4:8] : (tensor<4x8xf32>) -> tensor<4x4xf32>',
            '%2 = stablehlo.concatenate %1, %0, dim = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>',
        ],
        '%2 : tensor<4x8xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8} permutation={j}>',
        conservative='#sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>',
    ),
    'concatenate_of_a_value_and_its_slice': Case(
        '(%a: tensor<4x8xf32>) -> tensor<4x10xf32>',
        [
            '%0 = stablehlo.slice %a [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>',
            '%1 = stablehlo.concatenate %0, %a, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>',
        ],
        '%1 : tensor<4x10xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} permutation={j}>',
        conservative='#sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>',
    ),
    'concatenate_of_a_value_with_itself': Case(
        '(%a: tensor<4x8xf32>) -> tensor<4x16xf32>',
        [
            '%0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>',
        ],
        '%0 : tensor<4x16xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=16} need_replication={j}>',
        conservative='#sdy.op_sharding_rule<([i, j], [i, k])->([i, l]) {i=4, j=1, k=1, l=1}>',
    ),
    'custom_call_pointwise_target': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.custom_call @MoveToHost(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>',
    ),
    'custom_call_spmd_internal_target': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0:2 = stablehlo.custom_call @_SPMDInternalOp_MultiRotate(%a) : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)',
        ],
        '%0#1 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=8, j=4}>',
    ),
    'custom_call_target_without_rule': Case(
        '(%a: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.custom_call @tpu_custom_call(%a) {backend_config = "x"} : (tensor<8x4xf32>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        None,
    ),
    'custom_call_eigh': Case(
        '(%a: tensor<2x8x8xf32>) -> tensor<2x8xf32>',
        [
            '%0:2 = stablehlo.custom_call @Eigh(%a) : (tensor<2x8x8xf32>) -> (tensor<2x8x8xf32>, tensor<2x8xf32>)',
        ],
        '%0#1 : tensor<2x8xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, k]) {i=2, j=8, k=8}>',
    ),
    'custom_call_qr': Case(
        '(%a: tensor<2x8x4xf32>) -> tensor<2x4xf32>',
        [
            '%0:2 = stablehlo.custom_call @Qr(%a) : (tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x4xf32>)',
        ],
        '%0#1 : tensor<2x4xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k], [i, l]) {i=2, j=8, k=4, l=4} need_replication={j, k, l}>',
    ),
    'custom_call_householder_product': Case(
        '(%a: tensor<2x8x4xf32>, %t: tensor<2x3xf32>) -> tensor<2x8x4xf32>',
        [
            '%0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : (tensor<2x8x4xf32>, tensor<2x3xf32>) -> tensor<2x8x4xf32>',
        ],
        '%0 : tensor<2x8x4xf32>',
        '#sdy.op_sharding_rule<([i, j, k], [i, l])->([i, j, k]) {i=2, j=8, k=4, l=3} need_replication={j, k, l}>',
    ),
    'custom_call_top_k': Case(
        '(%a: tensor<16x8xf32>) -> tensor<16x2xf32>',
        [
            '%0:2 = stablehlo.custom_call @mhlo.topk(%a) {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)',
        ],
        '%0#0 : tensor<16x2xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>',
    ),
    # jaxlib 0.12: XLA's own TopK target has mhlo.topk's rule; SHARDY_COMMIT does not know it (a
    # warning and no rule).
    'custom_call_xla_top_k': Case(
        '(%a: tensor<16x8xf32>) -> tensor<16x2xf32>',
        [
            '%0:2 = stablehlo.custom_call @TopK(%a) {largest = true} : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)',
        ],
        '%0#0 : tensor<16x2xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j} blocked_propagation={j}>',
    ),
    # An Eigh with only the eigenvectors: the C++ (a release build) maps the factors onto the one
    # result there is; jaxlib 0.12 prints this rule.
    'custom_call_eigh_with_one_result': Case(
        '(%a: tensor<8x8xf32>) -> tensor<8x8xf32>',
        [
            '%0 = stablehlo.custom_call @Eigh(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>',
        ],
        '%0 : tensor<8x8xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>',
    ),
    'custom_call_approx_top_k': Case(
        '(%a: tensor<16x8xf32>, %i: tensor<16x8xi32>, %v: tensor<f32>, %j: tensor<i32>) -> tensor<16x2xf32>',
        [
            '%0:2 = stablehlo.custom_call @ApproxTopK(%a, %i, %v, %j) : (tensor<16x8xf32>, tensor<16x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)',
        ],
        '%0#0 : tensor<16x2xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=8, k=2} need_replication={k} blocked_propagation={k}>',
    ),
    'custom_call_x64_combine': Case(
        '(%a: tensor<8xui32>) -> tensor<8xui64>',
        [
            '%0 = stablehlo.custom_call @X64Combine(%a, %a) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui64>',
        ],
        '%0 : tensor<8xui64>',
        '#sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>',
    ),
    'custom_call_x64_combine_feeding_rng_bit_generator': Case(
        '(%a: tensor<2xui32>) -> tensor<4xui32>',
        [
            '%0 = stablehlo.custom_call @X64Combine(%a, %a) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui64>',
            '%1:2 = stablehlo.rng_bit_generator %0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)',
        ],
        '%1#1 : tensor<4xui32>',
        '#sdy.op_sharding_rule<([i], [i])->([i]) {i=2} need_replication={i} blocked_propagation={i}>',
        at=0,
    ),
    'select_and_scatter': Case(
        '(%a: tensor<10x24x24x64xf32>, %s: tensor<10x12x12x64xf32>, %i: tensor<f32>) -> tensor<10x24x24x64xf32>',
        [
            '%0 = "stablehlo.select_and_scatter"(%a, %s, %i) ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>',
            '  stablehlo.return %c : tensor<i1>',
            '}, {',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %t = stablehlo.add %x, %y : tensor<f32>',
            '  stablehlo.return %t : tensor<f32>',
            '}) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<0> : tensor<4x2xi64>} : (tensor<10x24x24x64xf32>, tensor<10x12x12x64xf32>, tensor<f32>) -> tensor<10x24x24x64xf32>',
        ],
        '%0 : tensor<10x24x24x64xf32>',
        '#sdy.op_sharding_rule<([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=10, j=12, k=24, l=12, m=24, n=64} need_replication={j, l} permutation={k, m}>',
        conservative='#sdy.op_sharding_rule<([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=10, j=12, k=24, l=12, m=24, n=64} need_replication={j, l} permutation={k, m} blocked_propagation={j, k, l, m}>',
    ),
}


@pytest.mark.parametrize("conservative", [False, True], ids=["normal", "conservative"])
@pytest.mark.parametrize("name", list(CASES))
def test_rule(name, conservative):
    case = CASES[name]
    module = run_pass(case.text(), conservative)
    rule = body_ops(module)[case.at].attributes.get("sdy.sharding_rule")
    assert (None if rule is None else str(rule)) == case.expected(conservative)


# -- sharding_rule(op) ------------------------------------------------------------------------------

def _op(text: str, at: int = -1):
    return body_ops(shardy_py.parse(text))[at]


def test_sharding_rule_gives_the_registry_rule_without_changing_the_op():
    op = _op(CASES["concatenate_of_unrelated_operands"].text())
    assert str(shardy_py.sharding_rule(op)) == CASES["concatenate_of_unrelated_operands"].rule
    assert str(shardy_py.sharding_rule(op, conservative=True)) == CASES["concatenate_of_unrelated_operands"].conservative
    assert "sdy.sharding_rule" not in op.attributes


def test_sharding_rule_is_the_ops_own_rule_when_it_has_one():
    custom = "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4} reduction={j}, custom>"
    op = _op("func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
             f"  %0 = stablehlo.add %a, %a {{sdy.sharding_rule = {custom}}} : tensor<8x4xf32>\n"
             "  return %0 : tensor<8x4xf32>\n}")
    assert str(sharding_rule(op)) == custom


def test_sharding_rule_is_none_for_ops_left_out_on_purpose():
    op = _op("func.func @f() -> tensor<4xi32> {\n  %0 = stablehlo.iota dim = 0 : tensor<4xi32>\n"
             "  return %0 : tensor<4xi32>\n}")
    assert sharding_rule(op) is None


def test_rules_are_memoised_by_name_types_and_properties():
    text = ("func.func @f(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
            "  %0 = stablehlo.add %a, %b : tensor<8x4xf32>\n  %1 = stablehlo.add %0, %b : tensor<8x4xf32>\n"
            "  %2 = stablehlo.add %0, %1 {mhlo.frontend_attributes = {x = \"1\"}} : tensor<8x4xf32>\n"
            "  return %2 : tensor<8x4xf32>\n}")
    first, second, third = (sharding_rule(op) for op in body_ops(shardy_py.parse(text)))
    assert first is second is third


def test_a_rule_reading_the_ops_surroundings_is_not_shared_across_them():
    """concatenate of a value with its slice, then of two unrelated values of the same types."""
    text = ("func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {\n"
            "  %0 = stablehlo.slice %a [0:4, 6:8] : (tensor<4x8xf32>) -> tensor<4x2xf32>\n"
            "  %1 = stablehlo.concatenate %0, %a, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>\n"
            "  %2 = stablehlo.concatenate %b, %a, dim = 1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>\n"
            "  return %2 : tensor<4x10xf32>\n}")
    ops = body_ops(shardy_py.parse(text))
    assert str(sharding_rule(ops[1])) == "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} permutation={j}>"
    assert str(sharding_rule(ops[2])) == "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=10} need_replication={j}>"


def test_every_registered_rule_module_loads():
    registry.load_rule_modules()
    assert set(POINTWISE_OPS) <= set(registry.RULES)
    for name in ("stablehlo.clamp", "stablehlo.all_gather", "stablehlo.all_to_all", "stablehlo.bitcast_convert",
                 "stablehlo.batch_norm_inference", "stablehlo.broadcast_in_dim", "stablehlo.cholesky",
                 "stablehlo.concatenate", "stablehlo.custom_call", "stablehlo.select_and_scatter"):
        assert name in registry.RULES


# -- the pass -------------------------------------------------------------------------------------

def test_an_op_with_a_rule_keeps_it():
    custom = "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i}, custom>"
    text = ("func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
            f"  %0 = stablehlo.abs %a {{sdy.sharding_rule = {custom}}} : tensor<8x4xf32>\n"
            "  return %0 : tensor<8x4xf32>\n}")
    module = run_pass(text)
    assert str(body_ops(module)[0].attributes["sdy.sharding_rule"]) == custom


def test_an_unknown_custom_call_gets_no_rule_and_a_warning():
    text = ("func.func @f(%a: tensor<8x2xui32>) -> tensor<8x2xui64> {\n"
            "  %0 = stablehlo.custom_call @unknown_custom_op(%a, %a) : (tensor<8x2xui32>, tensor<8x2xui32>) -> tensor<8x2xui64>\n"
            "  return %0 : tensor<8x2xui64>\n}")
    module, ctx = populate(text)
    assert "sdy.sharding_rule" not in body_ops(module)[0].attributes
    assert [(d.line, d.severity, d.message) for d in ctx.diagnostics] == [
        (2, "warning", "custom call @unknown_custom_op is unknown to SDY sharding rule registry")]


def test_unknown_ops_are_warned_about_once_per_process_per_kind():
    """batch_norm_training has no rule in Shardy: like an unregistered op, it is unknown."""
    text = ("func.func @f(%a: tensor<4x16xf32>, %s: tensor<16xf32>) -> tensor<4x16xf32> {\n"
            '  %0:3 = "stablehlo.batch_norm_training"(%a, %s, %s) {epsilon = 1.0e-5 : f32, feature_index = 1 : i64} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>)\n'
            '  %1 = "foo.bar"(%0#0) : (tensor<4x16xf32>) -> tensor<4x16xf32>\n'
            "  %2 = stablehlo.custom_call @one(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>\n"
            "  %3 = stablehlo.custom_call @two(%2) : (tensor<4x16xf32>) -> tensor<4x16xf32>\n"
            "  return %3 : tensor<4x16xf32>\n}")
    module, ctx = populate(text)
    assert [(d.line, d.message) for d in ctx.diagnostics] == [
        (2, "op 'stablehlo.batch_norm_training' is unknown to SDY sharding rule registry"),
        (4, "custom call @one is unknown to SDY sharding rule registry")]
    ctx = PassManager.parse(populate_flag(False)).run(shardy_py.parse(text))
    assert ctx.diagnostics == []


def test_terminators_get_no_rule_and_no_warning():
    module, ctx = populate(CASES["pointwise_all_reduce_of_two_operands"].text())
    returns = [op for op in module.op.walk() if op.name in ("stablehlo.return", "func.return")]
    assert len(returns) == 2 and all("sdy.sharding_rule" not in op.attributes for op in returns)
    assert ctx.diagnostics == []


def test_ops_are_visited_inner_first():
    """MLIR's walk is post-order: the op nested in a region is warned about before its parent."""
    text = ("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            '  %0 = "foo.outer"(%a) ({\n'
            '    %1 = "foo.inner"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n'
            '    "foo.yield"(%1) : (tensor<4xf32>) -> ()\n'
            "  }) : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n}")
    _, ctx = populate(text)
    assert [(d.line, d.message) for d in ctx.diagnostics] == [
        (3, "op 'foo.inner' is unknown to SDY sharding rule registry")]


_DEBUG_LOG = ("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
              "  %0 = stablehlo.custom_call @xla.debug.Log(%a) : (tensor<8xf32>) -> tensor<8xf32>\n"
              "  return %0 : tensor<8xf32>\n}")


def test_xla_debug_log_gets_no_rule_and_no_warning():
    """Shardy lists xla.debug.Log among the targets without a rule (commit 2685d64e, 2026-07-28),
    as jaxlib 0.12 does (``test_jaxlib_does_not_warn_on_xla_debug_log``; 0.10.2 warned)."""
    module, ctx = populate(_DEBUG_LOG)
    assert "sdy.sharding_rule" not in body_ops(module)[0].attributes
    assert ctx.diagnostics == []


def test_shardys_failure_test_passes_with_verify_diagnostics(conformance_dir):
    path = conformance_dir / "transforms/propagation/test/op_sharding_rule_registry_failures.mlir"
    r = subprocess.run([sys.executable, "-m", "shardy_py", "opt", str(path), "-sdy-populate-op-sharding-rules",
                        "-verify-diagnostics"], capture_output=True, text=True, cwd=REPO)
    assert (r.returncode, r.stderr) == (0, "")


# -- against jaxlib ---------------------------------------------------------------------------------

@pytest.mark.parametrize("conservative", [False, True], ids=["normal", "conservative"])
@pytest.mark.parametrize("name", list(CASES))
def test_matches_jaxlib(name, conservative):
    text = CASES[name].text()
    module = run_pass(text, conservative)
    assert str(module) == cpp_populate(text, conservative)


def test_an_op_with_a_rule_keeps_it_in_jaxlib_too():
    custom = "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i}, custom>"
    text = ("func.func @f(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
            f"  %0 = stablehlo.abs %a {{sdy.sharding_rule = {custom}}} : tensor<8x4xf32>\n"
            "  return %0 : tensor<8x4xf32>\n}")
    assert str(run_pass(text)) == cpp_populate(text, False)


_JAXLIB_WARNINGS = """
import sys
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir, passmanager
ctx = jax_mlir.make_ir_context()
ctx.attach_diagnostic_handler(lambda d: print(d.message) or True)
m = ir.Module.parse(sys.stdin.read(), context=ctx)
passmanager.PassManager.parse("builtin.module(func.func(sdy-populate-op-sharding-rules))", context=ctx).run(m.operation)
"""


def test_jaxlib_does_not_warn_on_xla_debug_log():
    """The evidence for the behaviour above: jaxlib 0.12's registry knows the target (0.10.2 printed
    "custom call @xla.debug.Log is unknown to SDY sharding rule registry").  A fresh process, as the
    C++ warns once per process."""
    require_jax()
    r = subprocess.run([sys.executable, "-c", _JAXLIB_WARNINGS], input=_DEBUG_LOG, capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "")


#: The ops whose rules are part 1's.
PART1_OPS = {*POINTWISE_OPS, "stablehlo.clamp", "stablehlo.all_gather", "stablehlo.all_to_all",
             "stablehlo.bitcast_convert", "stablehlo.batch_norm_inference", "stablehlo.broadcast_in_dim",
             "stablehlo.cholesky", "stablehlo.concatenate", "stablehlo.custom_call", "stablehlo.select_and_scatter"}
_PART1_OP = re.compile(r'\b(' + "|".join(re.escape(n) for n in sorted(PART1_OPS, key=len, reverse=True)) + r')\b')


def test_stablehlo_corpus_matches_jaxlib(conformance_dir):
    """Every corpus chunk with a part 1 op: our module after the pass is jaxlib's, in both modes
    (``corpus_differences`` says what is skipped).  Where jaxlib reads a chunk but its pass fails
    (the rule verifier rejects dynamic shapes), ours must fail too."""
    require_jax()
    chunks = [c for c in corpus_chunks(conformance_dir / "stablehlo") if _PART1_OP.search(c)]
    counts, different = corpus_differences(chunks)
    print(dict(counts))
    assert counts["compared"] >= 1000 and counts["both_fail"] >= 50, counts
    assert different == []
