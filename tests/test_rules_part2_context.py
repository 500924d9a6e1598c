# ruff: noqa: E501  (expected MLIR text is written on one line, however long; it must be exact)
"""Part 2 rules that read beyond the op's types and properties (``scatter``'s update computation):
ops of the same types in one module get the rules their surroundings call for, not a memoised one,
as in jaxlib; and ``dynamic_update_slice``, whose rule jaxlib 0.12 no longer takes from the ops
defining its start indices."""
from __future__ import annotations

from rules_cases import body_ops
from rules_oracle import cpp_populate, run_pass


def test_dynamic_update_slices_get_one_rule_wherever_their_indices_come_from():
    """jaxlib 0.12 no longer looks at the ops defining the start indices (the C++ at
    ``SHARDY_COMMIT`` gave a constant-indexed update no need-replication factor): a constant-indexed
    update and an argument-indexed one of the same types get the same permutation rule."""
    text = ("func.func @f(%a: tensor<16x8xf32>, %u: tensor<4x8xf32>, %i: tensor<i32>) -> tensor<16x8xf32> {\n"
            "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
            "  %0 = stablehlo.dynamic_update_slice %a, %u, %c, %c : (tensor<16x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>\n"
            "  %1 = stablehlo.dynamic_update_slice %0, %u, %i, %c : (tensor<16x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>\n"
            "  return %1 : tensor<16x8xf32>\n}\n")
    module = run_pass(text)
    assert [str(op.attributes["sdy.sharding_rule"]) for op in body_ops(module)[1:]] == [
        "#sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=16, j=4, k=8} permutation={i, j}>",
    ] * 2
    assert str(module) == cpp_populate(text, False)


def test_scatters_of_the_same_types_get_rules_by_their_update_computation():
    """An add update computation makes the scattered batch dimension a reduction; one returning the
    update makes it need replication: memoised rules are not shared between the two."""
    def scatter(result: str, operand: str, body: list[str]) -> str:
        return (f'  {result} = "stablehlo.scatter"({operand}, %i, %u) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}}> ({{\n'
                "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n" + "".join(f"    {line}\n" for line in body)
                + "  }) : (tensor<64x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<64x16xf32>\n")
    text = ("func.func @f(%x: tensor<64x16xf32>, %i: tensor<10x1xi32>, %u: tensor<10x16xf32>) -> tensor<64x16xf32> {\n"
            + scatter("%0", "%x", ["%s = stablehlo.add %p, %q : tensor<f32>", "stablehlo.return %s : tensor<f32>"])
            + scatter("%1", "%0", ["stablehlo.return %q : tensor<f32>"])
            + "  return %1 : tensor<64x16xf32>\n}\n")
    module = run_pass(text)
    assert [str(op.attributes["sdy.sharding_rule"]) for op in body_ops(module)] == [
        "#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=10, j=16, k=64, l=1} reduction={i} need_replication={l}>",
        "#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=10, j=16, k=64, l=1} need_replication={i, l}>",
    ]
    assert str(module) == cpp_populate(text, False)
