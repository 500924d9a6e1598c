"""Use lists stay exact when an op made detached enters the tree after the lists were built (the
uses it made while outside are entered when it is inserted)."""
from __future__ import annotations

import shardy_py
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import insert_before, replace_op_with
from shardy_py.ir.uses import recount

TEXT = '''func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
'''


def _op(module, name):
    return next(op for op in module.op.walk() if op.name == name)


def _uses(value):
    return [(u.op.name, u.index) for u in value.uses]


def test_replace_op_with_a_detached_op_records_its_operand_uses():
    module = shardy_py.parse(TEXT)
    negate, abs_ = _op(module, "stablehlo.negate"), _op(module, "stablehlo.abs")
    new = Builder().create("stablehlo.exponential", [abs_.operands[0]], result_types=[abs_.results[0].type])
    replace_op_with(abs_, new)  # the use lists are first built here, with `new` still detached
    assert _uses(negate.results[0]) == [("stablehlo.exponential", 0)]


def test_inserting_a_detached_op_after_the_lists_were_built_records_its_uses():
    module = shardy_py.parse(TEXT)
    negate, abs_ = _op(module, "stablehlo.negate"), _op(module, "stablehlo.abs")
    new = Builder().create("stablehlo.sine", [negate.results[0]], result_types=[negate.results[0].type])
    assert _uses(negate.results[0]) == [("stablehlo.abs", 0)]  # lists built; `new` is outside
    insert_before(abs_, new)
    assert _uses(negate.results[0]) == [("stablehlo.abs", 0), ("stablehlo.sine", 0)]
    counted = recount(module.op)
    assert sorted((op.name, i) for op, i in counted[negate.results[0]]) == [("stablehlo.abs", 0), ("stablehlo.sine", 0)]
