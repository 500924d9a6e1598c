"""Lazy SSA numbering (``SsaNames(lazy=True)``, what the printer uses) names every value and block as the
eager numbering of the whole module does, whether the printer enters the ops or a name is asked first."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.syntax.names import SsaNames

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))

NESTED = """module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %cst) : tensor<4xf32>, tensor<4xf32>
    cond {
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>
      %1 = stablehlo.add %iterArg, %cst_1 : tensor<4xf32>
      stablehlo.return %1, %iterArg_0 : tensor<4xf32>, tensor<4xf32>
    }
    return %0#0 : tensor<4xf32>
  }
  func.func @g(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
    %0 = stablehlo.add %arg0, %cst : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def _texts():
    yield "nested", NESTED
    for path in EXAMPLES:
        yield path.name, path.read_text()


@pytest.mark.parametrize(("name", "text"), list(_texts()), ids=[n for n, _ in _texts()])
def test_lazy_names_equal_eager(name, text):
    module = shardy_py.parse(text)
    eager = SsaNames(module.op)
    asked = SsaNames(module.op, lazy=True)  # names asked for without entering the ops
    for op in module.walk():
        for r in op.results:
            assert asked.name(r) == eager.name(r)
        assert asked.definition(op) == eager.definition(op)
        for region in op.regions:
            for block in region.blocks:
                assert asked.block(block) == eager.block(block)
                for a in block.arguments:
                    assert asked.name(a) == eager.name(a)
    entered = SsaNames(module.op, lazy=True)  # as the printer does: enter, names, leave
    stack = [(module.op, False)]
    while stack:
        op, leaving = stack.pop()
        if leaving:
            entered.leave(op)
            continue
        entered.enter(op)
        assert entered.definition(op) == eager.definition(op)
        for region in op.regions:
            for block in region.blocks:
                for a in block.arguments:
                    assert entered.name(a) == eager.name(a)
        stack.append((op, True))
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.extend((child, False) for child in reversed(block.ops))
    assert not entered._inner and not entered._pending


def test_printed_twice_the_same():
    module = shardy_py.parse(NESTED)
    assert str(module) == NESTED
    assert str(module) == NESTED


def test_values_written_with_other_names_print_renumbered():
    renamed = (NESTED.replace("%0", "%res").replace("%1 ", "%sum ").replace("%1,", "%sum,")
               .replace("%cst_1", "%k").replace("%arg0", "%input"))
    module = shardy_py.parse(renamed)
    assert str(module) == NESTED
    eager = SsaNames(module.op)
    lazy = SsaNames(module.op, lazy=True)
    for op in module.walk():
        for r in op.results:
            assert lazy.name(r) == eager.name(r)
