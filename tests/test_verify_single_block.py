"""MLIR's ``SingleBlock`` trait on StableHLO's region ops: an emptied body is "expects a non-empty block"
and a second block "expects region #0 to have 0 or 1 blocks", checked after the count traits and before the
required attributes, as jaxlib 0.12 does (the atheris session's fuzz found a ``stablehlo.reduce`` whose
body was a label only, accepted). Expected messages and places are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """func.func @f(%a: tensor<4xf32>, %s: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {{
  {body}
  return %s : tensor<f32>
}}
"""

CASES = {
    "reduce": ('''%0 = "stablehlo.reduce"(%a, %s) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>''',
               "'stablehlo.reduce' op expects a non-empty block"),
    "reduce_without_its_attribute": ('''%0 = "stablehlo.reduce"(%a, %s) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>''', "'stablehlo.reduce' op expects a non-empty block"),
    "map": ('''%0 = "stablehlo.map"(%s, %s) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>''',
            "'stablehlo.map' op expects a non-empty block"),
    "if_second_branch": ('''%0 = "stablehlo.if"(%p) ({
    stablehlo.return %s : tensor<f32>
  }, {
  ^bb0:
  }) : (tensor<i1>) -> tensor<f32>''', "'stablehlo.if' op expects a non-empty block"),
    "map_two_blocks": ('''%0 = "stablehlo.map"(%s, %s) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  ^bb1:
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) -> tensor<f32>''',
                       "'stablehlo.map' op expects region #0 to have 0 or 1 blocks"),
    "region_without_a_block": ('''%0 = "stablehlo.reduce"(%a, %s) ({
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>''',
                               "'stablehlo.reduce' op region #0 ('body') failed to verify constraint: region "
                               "with 1 blocks"),
}


def _first_error(text: str) -> tuple[int, int, str]:
    errors = [d for d in verify(shardy_py.parse(text)) if d.severity == "error"]
    assert errors, "accepted"
    return errors[0].line, errors[0].column, errors[0].message


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_with_mlirs_message(name: str) -> None:
    body, message = CASES[name]
    assert _first_error(TEMPLATE.format(body=body)) == (2, 8, message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxlib_says_the_same(name: str) -> None:
    from jax._src.lib.mlir import ir

    body, message = CASES[name]
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(TEMPLATE.format(body=body), context=context())
    assert f'"-":2:8: {message}' in str(e.value)
