"""``stablehlo.dynamic_pad``'s ODS traits, before ``verifyDynamicPadOp``: ``AllElementTypesMatch`` (operand,
padding value, result), ``AllTypesMatch`` (the three padding operands) and ``AllRanksMatch`` (operand, result),
as jaxlib 0.12 reports them (the 100,000-mutant differential run found an ``i1`` result of ``f64`` operands
accepted).  Expected messages and places are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """func.func @f(%a: tensor<4xf64>, %v: tensor<f64>, %lo: tensor<1xi32>, %hi: tensor<1xi32>,
             %in: {interior}) {{
  %0 = stablehlo.dynamic_pad %a, %v, %lo, %hi, %in
      : (tensor<4xf64>, tensor<f64>, tensor<1xi32>, tensor<1xi32>, {interior}) -> {result}
  func.return
}}
"""
VALID = {"interior": "tensor<1xi32>", "result": "tensor<?xf64>"}
INVALID = {
    "element_types": ({"result": "tensor<?xi1>"}, "all of {operand, padding_value, result} have same element type"),
    "padding_types": ({"interior": "tensor<1xi64>"},
                      "all of {edge_padding_low, edge_padding_high, interior_padding} have same type"),
    "ranks": ({"result": "tensor<?x?xf64>"}, "all of {operand, result} have same rank"),
}


def _text(changes: dict) -> str:
    return TEMPLATE.format(**{**VALID, **changes})


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


def test_matching_types_accepted() -> None:
    assert _errors(_text({})) == []


@pytest.mark.parametrize("name", sorted(INVALID))
def test_mismatch_rejected_with_mlirs_message(name: str) -> None:
    changes, what = INVALID[name]
    assert _errors(_text(changes))[:1] == [(3, 8, f"'stablehlo.dynamic_pad' op failed to verify that {what}")]


@pytest.mark.parametrize("name", sorted(INVALID))
def test_jaxlib_says_the_same(name: str) -> None:
    from jax._src.lib.mlir import ir

    ir.Module.parse(_text({}), context=context())
    changes, what = INVALID[name]
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(_text(changes), context=context())
    assert f"\"-\":3:8: 'stablehlo.dynamic_pad' op failed to verify that {what}" in str(e.value)
