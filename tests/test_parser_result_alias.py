"""``%0#0`` names the one result of ``%0 = ...`` (as MLIR resolves it), found without a second name per op."""
from __future__ import annotations

import shardy_py

TEXT = """func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.negate %0#0 : tensor<4xf32>
  %2:1 = "test.op"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.add %2#0, %0#0 : tensor<4xf32>
  %4:2 = "test.two"(%3) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %5 = stablehlo.add %4#0, %4#1 : tensor<4xf32>
  return %5 : tensor<4xf32>
}
"""


def _by_result():
    module = shardy_py.parse(TEXT)
    return {op.results[0].name: op for op in module.walk() if op.results}


def test_hash_zero_resolves_to_the_single_result():
    ops = _by_result()
    assert ops["%1"].operands[0] is ops["%0"].results[0]
    assert ops["%3"].operands == (ops["%2"].results[0], ops["%0"].results[0])
    assert ops["%5"].operands == tuple(ops["%4#0"].results)


def test_hash_zero_of_an_argument_resolves_to_it() -> None:
    """MLIR's ``%x#0`` is slot 0 of the name ``%x`` whatever defines it: jaxlib 0.12 reads ``%arg0#0`` as
    the argument (the atheris session's one valid input we rejected, "reference to invalid result number")."""
    text = TEXT.replace("%5 = stablehlo.add %4#0, %4#1", "%5 = stablehlo.add %arg0#0, %4#1")
    module = shardy_py.parse(text)
    func = next(op for op in module.walk() if op.name == "func.func")
    op = next(op for op in module.walk() if op.results and op.results[0].name == "%5")
    assert op.operands[0] is func.regions[0].blocks[0].arguments[0]


def test_hash_zero_of_a_later_result_group_resolves_to_that_group() -> None:
    """``%a, %b = ...``: ``%b#0`` is the op's second result (the first of the group ``%b``), as jaxlib reads it."""
    text = TEXT.replace('%4:2 = "test.two"(%3)', '%4, %6 = "test.two"(%3)').replace(
        "%5 = stablehlo.add %4#0, %4#1", "%5 = stablehlo.add %4#0, %6#0")
    module = shardy_py.parse(text)
    two = next(op for op in module.walk() if op.name == "test.two")
    op = next(op for op in module.walk() if op.results and op.results[0].name == "%5")
    assert op.operands == tuple(two.results)
