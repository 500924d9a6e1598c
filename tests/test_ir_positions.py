"""``ir.edit.index_in_block`` finds an op's position from a noted hint: whatever changed the block
since (edits through ``ir.edit``, or the block's list of ops changed directly), the answer is the
op's true position."""
from __future__ import annotations

import random

import pytest

from shardy_py.ir import edit
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Block, Operation
from shardy_py.ir.types import IndexType


def _block(n: int) -> Block:
    block = Block()
    b = Builder.at_end(block)
    for _ in range(n):
        b.create("test.op", result_types=[])
    return block


@pytest.mark.parametrize("seed", range(5))
def test_positions_stay_true_through_random_edits(seed):
    rng = random.Random(seed)
    block = _block(300)
    for _ in range(2000):
        ops = block.ops
        op = rng.choice(ops)
        action = rng.randrange(6)
        if action == 0:
            edit.insert_before(op, Operation("test.op"))
        elif action == 1:
            edit.insert_after(op, Operation("test.op"))
        elif action == 2 and len(ops) > 10:
            edit.erase(op)
        elif action == 3:
            anchor = rng.choice(ops)
            if anchor is not op:
                edit.move_before(op, anchor)
        elif action == 4:  # the list changed behind ir.edit's back
            new = Operation("test.op", parent=block)
            ops.insert(rng.randrange(len(ops) + 1), new)
        else:
            edit.replace_in_block(op, Operation("test.op"))
        probe = rng.choice(block.ops)
        assert edit.index_in_block(probe) == next(i for i, o in enumerate(block.ops) if o is probe)
    assert all(edit.index_in_block(o) == i for i, o in enumerate(block.ops))


def test_an_op_moved_to_another_block_is_found_there():
    a, b = _block(50), _block(50)
    op = a.ops[40]
    assert edit.index_in_block(op) == 40
    edit.move_before(op, b.ops[3])
    assert op.parent is b and edit.index_in_block(op) == 3


def test_a_detached_op_has_no_position():
    block = _block(3)
    op = edit.detach(block.ops[1])
    with pytest.raises(edit.IRError):
        edit.index_in_block(op)


def test_replace_op_with_takes_the_old_ops_place_and_uses():
    block = _block(3)
    src = Builder(block, 1).create("test.src", result_types=[IndexType("index")])
    user = Builder.at_end(block).create("test.user", [src.results[0]], result_types=[])
    new = Builder().create("test.new", result_types=[IndexType("index")])
    edit.replace_op_with(src, new)
    assert block.ops[1] is new and src.parent is None
    assert user.operands == (new.results[0],) and new.results[0].uses == [(user, 0)]
    with pytest.raises(edit.IRError):
        edit.replace_op_with(new, Operation("test.none"))  # one result replaced by none
