"""Verifier rules B49-B56, C9-C10: propagation edges."""
from __future__ import annotations

import pytest
from verify_helpers import errors

HEAD = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'
SHARDED = 'sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>'


def add(attrs: str) -> str:
    return HEAD + ("func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                   f"  %0 = stablehlo.add %arg0, %arg0 {{{attrs}}} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}}")


def edges(*steps: str) -> str:
    return "sdy.propagation_edges = #sdy.propagation_edges<[" + ", ".join(steps) + "]>"


def test_valid_edges():
    assert errors(add(edges('{step-0 = [{"a" = operand-0 -> [result-0]}]}') + ", " + SHARDED)) == []
    assert errors(add("sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-0 = "
                      '[{"a" = operand-9 -> [result-0]}]}]>]')) == []  # contents are not checked (C10)


@pytest.mark.parametrize("step, want", [
    ('{step-2 = [{"a" = operand-0 -> [result-0]}]}, {step-2 = [{"a" = operand-1 -> [result-0]}]}',
     "propagation edge step index 2 appears more than once"),
    ('{step--1 = [{"a" = operand-0 -> [result-0]}]}',
     "propagation edge step index -1 is negative; step indices must be >= 0"),
    ('{step-1 = [{"a" = operand-0 -> [operand-0]}]}', "propagation edge in step 1 has operand-0 as both source and target"),  # noqa: E501
    ('{step-1 = [{"a" = operand-0 -> [result-0, result-0]}]}',
     "propagation edge in step 1 for axis a lists target result-0 more than once"),
])
def test_parse_time_edge_rules(step, want):
    # Checked before anything else: the missing sharding is not reported.
    assert errors(add(edges(step))) == ["3: " + want]


@pytest.mark.parametrize("step, with_sharding, want", [
    ('{step-0 = [{"a" = operand-0 -> [result-0]}]}', False,
     "propagation edges must reference at least one value that has a sharding"),
    ('{step-0 = [{"q" = operand-0 -> [result-0]}]}', True,
     'propagation edge axis "q" is not an axis of the mesh of the referenced values'),
    ('{step-0 = [{"a" = operand-0 -> [result-0, operand-2]}]}', True,
     "propagation edge refers to operand-2, but the op has 2 operand(s) (valid indices [0, 2))"),
])
def test_edges_on_op(step, with_sharding, want):
    attrs = edges(step) + (", " + SHARDED if with_sharding else "")
    assert errors(add(attrs)) == ["3: 'stablehlo.add' op " + want]


def test_attribute_kinds():
    assert errors(add("sdy.propagation_edges = 64")) == [
        "3: 'stablehlo.add' op attribute 'sdy.propagation_edges' must be a #sdy.propagation_edges, got '64 : i64'"]
    assert errors(add("sdy.block_arg_propagation_edges = 3")) == [
        "3: 'stablehlo.add' op attribute 'sdy.block_arg_propagation_edges' must be an array of #sdy.propagation_edges"]
