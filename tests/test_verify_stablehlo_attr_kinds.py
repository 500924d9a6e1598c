"""ODS attribute constraints of StableHLO ops written in an attribute dictionary: ``replica_groups`` (dense i64
elements or mesh-based), ``padding`` (dense i64 elements), ``BoolAttr`` flags, a non-negative ``i64``
``feature_index`` and ``DenseI64ArrayAttr`` paddings.  The 100,000-mutant differential run found 9 mutants
with an attribute of another kind (an ``i32`` table, a bare name) that jaxlib 0.12 rejects and we accepted.
Expected messages and places (the op's first line, column of the op name) are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<4xf32>, %s: tensor<f32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> tensor<4xf32> {{
  %0 = {op}
  return %a : tensor<4xf32>
}}
"""
_REGION = """({{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }})"""
ALL_REDUCE = ('"stablehlo.all_reduce"(%a) ' + _REGION
              + " {{replica_groups = {groups}}} : (tensor<4xf32>) -> tensor<4xf32>")
SCATTER = ('"stablehlo.scatter"(%a, %i, %u) ' + _REGION + """ {{scatter_dimension_numbers = #stablehlo.scatter<
    update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>,
    {flags}}} : (tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<4xf32>""")
BATCH_NORM = ('"stablehlo.batch_norm_inference"(%a, %a, %a, %a, %a) {{epsilon = 1.0e-05 : f32, {index}}} : '
              "(tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>")
PAD = ('"stablehlo.pad"(%a, %s) {{edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, {interior}}}'
       " : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>")
CONSTRAINT_REPLICA = ("64-bit signless integer elements attribute or mesh and axes based replica groups "
                      "representation.")

VALID = {
    "dense_i64_replica_groups": ALL_REDUCE.format(groups="dense<[[0]]> : tensor<1x1xi64>"),
    "mesh_replica_groups": ALL_REDUCE.format(
        groups='#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>'),
    "bool_flags": SCATTER.format(flags="indices_are_sorted = true, unique_indices = false"),
    "feature_index": BATCH_NORM.format(index="feature_index = 0 : i64"),
    "interior_padding": PAD.format(interior="interior_padding = array<i64: 0>"),
}


def _failed(op: str, name: str, constraint: str) -> str:
    return f"'stablehlo.{op}' op attribute '{name}' failed to satisfy constraint: {constraint}"


_BOOL = "bool attribute"
_NON_NEGATIVE = "64-bit signless integer attribute whose value is non-negative"
_I64_ARRAY = "i64 dense array attribute"
INVALID = {
    "i32_replica_groups": (ALL_REDUCE.format(groups="dense<[[0]]> : tensor<1x1xi32>"),
                           _failed("all_reduce", "replica_groups", CONSTRAINT_REPLICA)),
    "string_replica_groups": (ALL_REDUCE.format(groups='"g"'),
                              _failed("all_reduce", "replica_groups", CONSTRAINT_REPLICA)),
    "unit_unique_indices": (SCATTER.format(flags="unique_indices"), _failed("scatter", "unique_indices", _BOOL)),
    "integer_indices_are_sorted": (SCATTER.format(flags="indices_are_sorted = 1 : i64"),
                                   _failed("scatter", "indices_are_sorted", _BOOL)),
    "unit_feature_index": (BATCH_NORM.format(index="feature_index"),
                           _failed("batch_norm_inference", "feature_index", _NON_NEGATIVE)),
    "i32_feature_index": (BATCH_NORM.format(index="feature_index = 0 : i32"),
                          _failed("batch_norm_inference", "feature_index", _NON_NEGATIVE)),
    "unit_interior_padding": (PAD.format(interior="interior_padding"), _failed("pad", "interior_padding", _I64_ARRAY)),
    "i32_array_interior_padding": (PAD.format(interior="interior_padding = array<i32: 0>"),
                                   _failed("pad", "interior_padding", _I64_ARRAY)),
}


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


@pytest.mark.parametrize("name", sorted(VALID))
def test_attribute_of_its_kind_accepted(name: str) -> None:
    assert _errors(TEMPLATE.format(op=VALID[name])) == []


@pytest.mark.parametrize("name", sorted(INVALID))
def test_attribute_of_another_kind_rejected_with_mlirs_message(name: str) -> None:
    op, message = INVALID[name]
    assert _errors(TEMPLATE.format(op=op))[:1] == [(3, 8, message)]


@pytest.mark.parametrize("name", sorted(VALID))
def test_jaxlib_accepts_the_valid_ones(name: str) -> None:
    from jax._src.lib.mlir import ir

    ir.Module.parse(TEMPLATE.format(op=VALID[name]), context=context())


@pytest.mark.parametrize("name", sorted(INVALID))
def test_jaxlib_says_the_same(name: str) -> None:
    from jax._src.lib.mlir import ir

    op, message = INVALID[name]
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(TEMPLATE.format(op=op), context=context())
    assert f'"-":3:8: {message}' in str(e.value)
