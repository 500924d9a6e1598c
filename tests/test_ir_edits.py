"""IR edits keep use lists exact: a hypothesis state machine of random edits (clone, erase, replace
uses, move, block arguments) checks after every step that each value's uses equal a fresh recount
and that the printed module reads back to the same print."""
from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import shardy_py
from shardy_py.ir import edit
from shardy_py.ir.types import parse_type
from shardy_py.ir.uses import recount, track_tree

SOURCE = """\
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
  %1 = stablehlo.multiply %0, %arg0 : tensor<4xf32>
  %2 = stablehlo.negate %1 : tensor<4xf32>
  %3 = stablehlo.subtract %2, %0 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
"""


def _body(m):
    return m.funcs["f"].regions[0].blocks[0]


def _values_before(block, index):
    """Values defined before position ``index`` of ``block`` (arguments first)."""
    out = list(block.arguments)
    for op in block.ops[:index]:
        out.extend(op.results)
    return out


class IrEdits(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.module = shardy_py.parse(SOURCE)
        track_tree(self.module.op)

    @property
    def block(self):
        return _body(self.module)

    def _non_terminators(self):
        return self.block.ops[:-1]

    @rule(data=st.data())
    def clone_after_itself(self, data):
        ops = self._non_terminators()
        if not ops:
            return
        op = data.draw(st.sampled_from(ops))
        edit.insert_after(op, op.clone())

    @rule(data=st.data())
    def erase_an_unused_op(self, data):
        unused = [op for op in self._non_terminators() if not any(r.uses for r in op.results)]
        if unused:
            data.draw(st.sampled_from(unused)).erase()

    @rule(data=st.data())
    def replace_a_use(self, data):
        block = self.block
        i = data.draw(st.integers(0, len(block.ops) - 1))
        op = block.ops[i]
        if not op.operands:
            return
        k = data.draw(st.integers(0, len(op.operands) - 1))
        op.set_operand(k, data.draw(st.sampled_from(_values_before(block, i))))

    @precondition(lambda self: len(self.block.ops) > 1)
    @rule(data=st.data())
    def replace_all_uses(self, data):
        block = self.block
        i = data.draw(st.integers(0, len(block.ops) - 2))
        op = block.ops[i]
        if not op.results:
            return
        earlier = _values_before(block, i)
        op.results[0].replace_all_uses_with(data.draw(st.sampled_from(earlier)))

    @precondition(lambda self: len(self.block.ops) > 1)
    @rule(data=st.data())
    def move_earlier(self, data):
        block = self.block
        i = data.draw(st.integers(0, len(block.ops) - 2))
        op = block.ops[i]
        # the earliest place after the definitions of its operands
        lo = 0
        for j, other in enumerate(block.ops[:i]):
            if any(v in op.operands for v in other.results):
                lo = j + 1
        if lo < i:
            op.move_before(block.ops[data.draw(st.integers(lo, i - 1))])

    @rule()
    def add_an_argument(self):
        edit.add_func_argument(self.module.funcs["f"], parse_type("tensor<4xf32>"))

    @precondition(lambda self: len(self.block.arguments) > 2)
    @rule()
    def erase_an_unused_argument(self):
        for a in reversed(self.block.arguments):
            if not a.uses:
                edit.erase_func_argument(self.module.funcs["f"], a.index)
                return

    @invariant()
    def use_lists_equal_a_recount(self):
        counted = recount(self.module.op)
        for op in self.module.walk():
            values = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.arguments]
            for v in values:
                assert sorted((id(o), i) for o, i in v.uses) == sorted((id(o), i) for o, i in counted.get(v, []))

    @invariant()
    def print_reads_back(self):
        text = str(self.module)
        assert str(shardy_py.parse(text)) == text


IrEdits.TestCase.settings = settings(max_examples=40, stateful_step_count=15, deadline=None)
test_ir_edits = IrEdits.TestCase


def test_erasing_an_op_whose_value_is_used_is_refused():
    m = shardy_py.parse(SOURCE)
    first = _body(m).ops[0]
    with pytest.raises(edit.IRError, match="still used"):
        first.erase()


def test_replace_all_uses_moves_every_use():
    m = shardy_py.parse(SOURCE)
    ops = _body(m).ops
    x = _body(m).arguments[0]
    ops[0].results[0].replace_all_uses_with(x)
    # ``uses`` is MLIR's use list reversed; MLIR moves %0's uses (newest first) one by one to the
    # front of %arg0's list, which jaxlib then lists as multiply#0, subtract#1, multiply#1, add#0.
    assert [(u.op.name, u.index) for u in x.uses] == [("stablehlo.add", 0), ("stablehlo.multiply", 1),
                                                      ("stablehlo.subtract", 1), ("stablehlo.multiply", 0)]
    assert ops[0].results[0].uses == []


def test_clone_maps_operands_and_nested_regions():
    m = shardy_py.parse(SOURCE)
    f = m.funcs["f"]
    mapping = {}
    copy = f.clone(mapping)
    body = copy.regions[0].blocks[0]
    assert body.ops[1].operands[0] is body.ops[0].results[0]
    assert mapping[f.regions[0].blocks[0].arguments[1]] is body.arguments[1]
