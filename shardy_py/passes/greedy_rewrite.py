"""MLIR's greedy pattern rewrite driver (``applyPatternsGreedily``, GreedyPatternRewriteDriver.cpp)
as Shardy's propagation passes configure it: top-down traversal, no folding, no constant CSE, no
region simplification, one iteration (a release build's ``setMaxIterations(1)``).

The order ops are visited in decides which sharding reaches an op first, so it is reproduced:

* the worklist starts as every op nested in the module body, in pre-order, processed front first;
* it is a stack: the most recently added op is processed next; adding an op already waiting in
  it leaves it where it is; a processed op is out of it (and may be added again);
* ``modify_op_in_place(op)`` (a pattern saying it changed ``op``) adds ``op`` and then each op
  enclosing it up to the module body, so the outermost of them comes next;
* an op is first checked for being trivially dead (no result used, no memory effects, not a
  terminator): such an op is erased, nested ops first in reverse order, and each erased op's
  operand-defining ops with at most one other user are added;
* otherwise the patterns are tried in order until one succeeds.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from shardy_py.ir.edit import detach
from shardy_py.ir.ops import Block, Operation, Region
from shardy_py.passes.greedy_driver import has_no_effects
from shardy_py.rules.registry import TERMINATOR_OPS

#: A pattern: ``pattern(op, rewriter) -> bool`` (whether it matched and rewrote ``op``).
Pattern = Callable[[Operation, "GreedyRewriter"], bool]


class Worklist:
    """MLIR's ``Worklist``: a stack without duplicates; removed entries leave holes."""

    def __init__(self) -> None:
        self._list: list[Operation | None] = []
        self._index: dict[int, int] = {}

    def __bool__(self) -> bool:
        return bool(self._list)

    def push(self, op: Operation) -> None:
        """Add ``op`` on top unless it is already in the list."""
        if id(op) in self._index:
            return
        self._index[id(op)] = len(self._list)
        self._list.append(op)

    def pop(self) -> Operation:
        """Take the top op (holes on top are dropped)."""
        op = self._list.pop()
        del self._index[id(op)]
        while self._list and self._list[-1] is None:
            self._list.pop()
        return op

    def remove(self, op: Operation) -> None:
        """Drop ``op`` if it is waiting (its slot becomes a hole)."""
        i = self._index.pop(id(op), None)
        if i is not None:
            self._list[i] = None
            while self._list and self._list[-1] is None:
                self._list.pop()

    def reverse(self) -> None:
        self._list.reverse()
        self._index = {id(op): i for i, op in enumerate(self._list) if op is not None}


def is_terminator(op: Operation) -> bool:
    """Whether ``op`` has the ``IsTerminator`` trait."""
    return op.name in TERMINATOR_OPS


def is_trivially_dead(op: Operation) -> bool:
    """``isOpTriviallyDead``: no result has a use, not a terminator, no memory effects."""
    for r in op.results:
        if r.has_uses():
            return False
    if op.name in TERMINATOR_OPS:
        return False
    return has_no_effects(op)


def _pre_order(block: Block):
    for op in block.ops:
        yield op
        for region in op.regions:
            for inner in region.blocks:
                yield from _pre_order(inner)


class GreedyRewriter:
    """Applies ``patterns_for(op)`` to the ops of ``scope`` (a region) as described above."""

    def __init__(self, scope: Region, patterns_for: Callable[[Operation], Sequence[Pattern]]):
        self.scope = scope
        self.patterns_for = patterns_for
        self.worklist = Worklist()
        self.changed = False

    # -- notifications -----------------------------------------------------------------------
    def add_to_worklist(self, op: Operation) -> None:
        """``addToWorklist``: ``op`` and every op enclosing it below the scope, innermost first."""
        chain = []
        while True:
            chain.append(op)
            block = op.parent
            region = block.parent if block is not None else None
            if region is self.scope:
                for each in chain:
                    self.worklist.push(each)
                return
            if region is None or region.parent is None:
                return
            op = region.parent

    def modify_op_in_place(self, op: Operation) -> None:
        """``modifyOpInPlace`` with nothing to change: notifies that ``op`` was modified."""
        self.add_to_worklist(op)

    def _add_operands_to_worklist(self, op: Operation) -> None:
        for value in op.operands:
            if value is None or not isinstance(value.owner, Operation):
                continue
            others = {id(u.op) for u in value.uses if u.op is not op}
            if len(others) <= 1:
                self.add_to_worklist(value.owner)

    def erase_op(self, op: Operation) -> None:
        """``eraseOp`` with the driver listening: nested ops first (blocks and ops in reverse),
        each erased op notified (its operands' defining ops added, itself taken off the list)."""
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                for inner in reversed(list(block.ops)):
                    self.erase_op(inner)
        self._add_operands_to_worklist(op)
        self.worklist.remove(op)
        op.set_operands(())
        if op.parent is not None:
            detach(op)

    # -- the driver --------------------------------------------------------------------------
    def run(self) -> bool:
        """One iteration over every op of the scope; whether anything changed."""
        for block in self.scope.blocks:
            for op in _pre_order(block):
                self.worklist.push(op)
        self.worklist.reverse()
        while self.worklist:
            op = self.worklist.pop()
            if is_trivially_dead(op):
                self.erase_op(op)
                self.changed = True
                continue
            for pattern in self.patterns_for(op):
                if pattern(op, self):
                    self.changed = True
                    break
        return self.changed
