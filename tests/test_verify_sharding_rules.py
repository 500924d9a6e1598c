"""Verifier rules B34-B48, C8: ``sdy.sharding_rule``."""
from __future__ import annotations

import pytest
from verify_helpers import errors


def rule(r: str, out: str = "tensor<2x4xf32>") -> str:
    return ("func.func @f(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> " + out + " {\n"
            f"  %0 = stablehlo.add %arg0, %arg1 {{sdy.sharding_rule = #sdy.op_sharding_rule<{r}>}} : {out}\n"
            f"  return %0 : {out}\n}}")


BASE = "([i, j], [i, j])->([i, j]) {i=2, j=4}"
P = "2: 'stablehlo.add' op sdy.sharding_rule: "


@pytest.mark.parametrize("r", [
    BASE,
    BASE + " need_replication={i} blocked_propagation={i}, custom",
    "([i, j], [i, j])->([i, j]) {i=2, j=4} permutation={j}",
    "([i, jk], [i, jk])->([i, jk]) {i=2, j=2, k=2}",
    "([i, j], [i, j])->([i, j]) {i=3, j=-5}",  # factor sizes are not checked against dims (B48)
])
def test_valid_rules(r):
    assert errors(rule(r)) == []


@pytest.mark.parametrize("r, want", [
    ("([i, j])->([i, j]) {i=2, j=4}", "the op has 2 operand(s) but the rule has 1 operand mapping(s)"),
    ("([i, j], [i, j])->([i, j], [i, j]) {i=2, j=4}", "the op has 1 result(s) but the rule has 2 result mapping(s)"),
    ("([i, j], [i])->([i, j]) {i=2, j=4}", "operand 1 mapping has rank 1 but the tensor 'tensor<2x4xf32>' has rank 2"),
    ("([i, jk], [i, j])->([i, j]) {i=2, j=4, k=1}",
     "operand 0 dim 1 combines several factors including k of size 1; size-1 factors must stand alone"),
    ("([i, i], [i, j])->([i, j]) {i=2, j=4}",
     "operand 0 uses factor i more than once; a factor may map to at most one dim of a tensor"),
    ("([i, z_3], [i, j])->([i, j]) {i=2, j=4}",
     "operand 0 dim 1 uses factor index 20, but the rule defines 2 factor(s) (valid indices 0..1)"),
    ("([i, j], [i, j])->([i, j]) {i=2, j=4, k=3}", "factor k=3 is not used by any operand or result mapping"),
    (BASE + " need_replication={j, i}", "need_replication factors {j, i} must be listed in increasing order"),
    (BASE + " permutation={i, i}", "permutation factors {i, i} list a factor more than once"),
    (BASE + " need_replication={z_3}", "need_replication factors refer to factor index 20, but the rule defines only 2 "
                                      "factor(s)"),
    (BASE + " reduction={j} permutation={j}",
     "factor j is in more than one of the reduction, need_replication and permutation sets"),
    (BASE + " blocked_propagation={j, i}", "blocked_propagation factors {j, i} must be listed in increasing order"),
    (BASE + " reduction={j}", "reduction factor j appears in a result mapping; reduction factors may only map operand "
                              "dims"),
])
def test_invalid_rules(r, want):
    assert errors(rule(r)) == [P + want]


def test_dynamic_shape_and_attribute_kind():
    dynamic = rule(BASE, out="tensor<?x4xf32>").replace("tensor<2x4xf32>", "tensor<?x4xf32>")
    assert errors(dynamic) == [
        P + "operand 0 has type 'tensor<?x4xf32>'; a sharding rule needs ranked tensors with a static shape"]
    text = ("func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
            "  %0 = stablehlo.abs %arg0 {sdy.sharding_rule = 1 : i64} : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}")
    assert errors(text) == ["2: 'stablehlo.abs' op attribute 'sdy.sharding_rule' must be a #sdy.op_sharding_rule, "
                            "got '1 : i64'"]


def test_factor_symbols():
    from shardy_py.verify.sharding_rules import factor_symbol

    assert [factor_symbol(i) for i in (0, 17, 18, 27)] == ["i", "z", "z_1", "z_10"]
