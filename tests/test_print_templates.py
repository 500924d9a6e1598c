"""The printer's templates of repeated op shapes (``syntax.op_writer``) print each op as its own text says."""
from __future__ import annotations

import shardy_py


def _module(t: str) -> str:
    return (f"func.func @a(%arg0: {t}) -> {t} {{\n  return %0 : {t}\n}}\n"
            f"func.func @b(%arg0: {t}) -> {t} {{\n  %0 = stablehlo.abs %arg0 : {t}\n  return %0 : {t}\n}}\n")


def test_an_unresolved_operand_prints_the_type_written_for_it_after_another_module():
    """(A value of another function stays unresolved, as MLIR prints it; its type is the one written, not
    that of an earlier module's op of the same shape.)"""
    shardy_py.parse(_module("tensor<16x2xf32>")).__str__()
    printed = str(shardy_py.parse(_module("tensor<8x8xf32>")))
    assert "    return %0 : tensor<8x8xf32>\n  }\n  func.func @b" in printed
