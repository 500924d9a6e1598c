"""``SymbolOpInterface``: a ``func.func`` sits in a symbol table; one nested in another function's body is
"symbol's parent must have the SymbolTable trait", as jaxlib 0.12 says (the 100,000-mutant differential run
found such a mutant accepted).  Expected messages and places are jaxlib's."""
from __future__ import annotations

import pytest
from cpp_oracle import context

import shardy_py
from shardy_py.verify import verify

NESTED_IN_A_FUNCTION = """func.func @f(%a: tensor<f32>) -> tensor<f32> {
  func.func private @g()
  return %a : tensor<f32>
}
"""
NESTED_IN_A_MODULE = """module {
  module @inner {
    func.func private @g()
  }
}
"""


def _errors(text: str) -> list:
    return [(d.line, d.column, d.message) for d in verify(shardy_py.parse(text)) if d.severity == "error"]


def test_function_in_a_nested_module_accepted() -> None:
    assert _errors(NESTED_IN_A_MODULE) == []


def test_function_in_a_function_rejected() -> None:
    assert _errors(NESTED_IN_A_FUNCTION)[:1] == [
        (2, 3, "'func.func' op symbol's parent must have the SymbolTable trait")]


def test_jaxlib_says_the_same() -> None:
    from jax._src.lib.mlir import ir

    ir.Module.parse(NESTED_IN_A_MODULE, context=context())
    with pytest.raises(ir.MLIRError) as e:
        ir.Module.parse(NESTED_IN_A_FUNCTION, context=context())
    assert "\"-\":2:3: 'func.func' op symbol's parent must have the SymbolTable trait" in str(e.value)
