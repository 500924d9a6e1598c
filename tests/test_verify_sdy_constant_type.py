"""``sdy.constant`` infers its result type from its literal (InferTypeOpInterface): a generic-form constant whose
literal has another type than its result is "inferred type(s) ... are incompatible with return type(s)", as
jaxlib 0.12 says (the 100,000-mutant differential run found 4 such mutants accepted, the literal's type having
been dropped while parsing).  Expected messages and places are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

TEMPLATE = """func.func @f() -> tensor<8x8xf32> {{
  %0 = "sdy.constant"() <{{value = dense<1.000000e+00> : {literal}}}> : () -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}}
"""
MISMATCHES = {
    "element_type": "tensor<8x8xf16>",
    "shape": "tensor<8x10xf32>",
}


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


def test_literal_of_the_result_type_accepted_and_printed_in_custom_form() -> None:
    module = shardy_py.parse(TEMPLATE.format(literal="tensor<8x8xf32>"))
    assert _errors(TEMPLATE.format(literal="tensor<8x8xf32>")) == []
    assert "sdy.constant dense<1.000000e+00> : tensor<8x8xf32>" in shardy_py.print_module(module)


@pytest.mark.parametrize("name", sorted(MISMATCHES))
def test_literal_of_another_type_rejected_with_mlirs_message(name: str) -> None:
    literal = MISMATCHES[name]
    assert _errors(TEMPLATE.format(literal=literal))[:1] == [
        (2, 8, f"'sdy.constant' op inferred type(s) '{literal}' are incompatible with return type(s) of operation "
               "'tensor<8x8xf32>'")]


@pytest.mark.parametrize("name", sorted(MISMATCHES))
def test_jaxlib_says_the_same(name: str) -> None:
    from jax._src.lib.mlir import ir

    literal = MISMATCHES[name]
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(TEMPLATE.format(literal=literal), context=context())
    assert (f'"-":2:8: \'sdy.constant\' op inferred type(s) \'{literal}\' are incompatible with return type(s) of '
            "operation 'tensor<8x8xf32>'") in str(e.value)
