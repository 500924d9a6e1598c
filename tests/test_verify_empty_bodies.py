"""Region bodies emptied down to their label in the region ops without MLIR's ``SingleBlock`` trait
(``stablehlo.scatter``, ``reduce_scatter``, ``select_and_scatter``, ``sort``, ``chlo.scan``): jaxlib 0.12 rejects
them through the op's verifier (no terminator, so no value returned) or, for ``chlo.scan``, with MLIR's "empty
block: expect at least a terminator"; they were accepted.  Expected messages and places are jaxlib's (the
op's name on line 2)."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

_LABEL = "^bb0(%x: tensor<f32>, %y: tensor<f32>):"
_ADD = f"""{_LABEL}
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>"""
_GT = f"""{_LABEL}
    %r = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>"""
SCATTER = """func.func @f(%a: tensor<4xf32>, %i: tensor<1x1xi32>, %u: tensor<1xf32>) -> tensor<4xf32> {{
  %0 = "stablehlo.scatter"(%a, %i, %u) ({{
  {body}
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}
      : (tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"""
REDUCE_SCATTER = """func.func @f(%a: tensor<4x16xf32>) -> tensor<4x4xf32> {{
  %0 = "stablehlo.reduce_scatter"(%a) ({{
  {body}
  }}) {{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 1 : i64}}
      : (tensor<4x16xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}}
"""
SELECT_AND_SCATTER = """func.func @f(%a: tensor<4xf32>, %s: tensor<2xf32>, %init: tensor<f32>) -> tensor<4xf32> {{
  %0 = "stablehlo.select_and_scatter"(%a, %s, %init) ({{
  {select}
  }}, {{
  {body}
  }}) {{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}}
      : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"""
SORT = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = "stablehlo.sort"(%a) ({{
  {body}
  }}) {{dimension = 0 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"""
SCAN = """func.func @f(%a: tensor<4xf32>, %c: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {{
  %0, %1 = chlo.scan (%a) inits (%c) dimension = 0 {{
  {body}
  }} : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %0, %1 : tensor<4xf32>, tensor<f32>
}}
"""
_SCAN_BODY = f"""{_LABEL}
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r, %r : tensor<f32>, tensor<f32>"""
_NO_TERMINATOR = "The reduction-region expected to have a terminator"

#: name -> (the op with its body, the op emptied, (column, message) for the emptied one).
CASES = {
    "scatter": (SCATTER.format(body=_ADD), SCATTER.format(body=_LABEL), (8, _NO_TERMINATOR)),
    "reduce_scatter": (REDUCE_SCATTER.format(body=_ADD), REDUCE_SCATTER.format(body=_LABEL), (8, _NO_TERMINATOR)),
    "select_and_scatter_select": (SELECT_AND_SCATTER.format(select=_GT, body=_ADD),
                                  SELECT_AND_SCATTER.format(select=_LABEL, body=_ADD),
                                  (8, "expects select-region to return single value, but got: 0")),
    "select_and_scatter_scatter": (SELECT_AND_SCATTER.format(select=_GT, body=_ADD),
                                   SELECT_AND_SCATTER.format(select=_GT, body=_LABEL), (8, _NO_TERMINATOR)),
    "sort": (SORT.format(body=_GT), SORT.format(body=_LABEL), (8, "comparator must return single output but got 0")),
    "scan": (SCAN.format(body=_SCAN_BODY), SCAN.format(body=_LABEL), (12, "empty block: expect at least a terminator")),
}


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_body_with_its_ops_accepted(name: str) -> None:
    assert _errors(CASES[name][0]) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_emptied_body_rejected_with_mlirs_message(name: str) -> None:
    _, emptied, (column, message) = CASES[name]
    assert _errors(emptied)[:1] == [(2, column, message)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_accepts_the_body_and_rejects_it_emptied(name: str) -> None:
    from jax._src.lib.mlir import ir

    full, emptied, (column, message) = CASES[name]
    ir.Module.parse(full, context=context())
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(emptied, context=context())
    assert f'"-":2:{column}: {message}' in str(e.value)


_SCAN_WITHOUT_CARRIES = f"""{_LABEL}
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return"""
_NO_CARRIES_MESSAGE = "ScanOp body must return at least 1 values (carries)"


def test_scan_body_returning_fewer_values_than_carries_rejected() -> None:
    """``ScanOp::inferReturnTypeComponents``: the body returns at least the carries (a mutant of the
    100,000-mutant run returned none)."""
    assert _errors(SCAN.format(body=_SCAN_WITHOUT_CARRIES))[:1] == [(2, 12, _NO_CARRIES_MESSAGE)]


def test_jaxlib_rejects_the_scan_body_without_carries_the_same_way() -> None:
    from jax._src.lib.mlir import ir

    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(SCAN.format(body=_SCAN_WITHOUT_CARRIES), context=context())
    assert f'"-":2:12: {_NO_CARRIES_MESSAGE}' in str(e.value)
