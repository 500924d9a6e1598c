"""MLIR's greedy pattern rewrite driver (``applyPatternsGreedily``) as the canonicalizer and the
passes that call it with a default ``GreedyRewriteConfig`` use it: constants uniqued and hoisted
first (``greedy_driver.unique_constants``), then up to ``max_iterations`` rounds, each visiting
every op (``top_down``: pre-order, else post-order, the last op first), erasing ops without uses or
effects and applying the patterns (users of a replaced op and new ops are revisited), followed by a
dead-code sweep; rounds stop when one changes nothing.  StableHLO ops have no folders in jaxlib 0.12
(checked: ``x + 0``, constant arithmetic, identity reshapes and transposes stay), so none is run.

Patterns change the IR only through the rewriter's methods (``replace_op``, ``replace_all_uses``,
``create``, ``erase_op``), which notify the driver as MLIR's listener does.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Operation, Region, Value
from shardy_py.ir.types import Type
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.greedy_driver import erase_dead_ops, unique_constants
from shardy_py.passes.greedy_rewrite import GreedyRewriter, is_trivially_dead


class PatternRewriter(GreedyRewriter):
    """The greedy driver over ``scope`` with the rewriter methods patterns call."""

    def __init__(self, scope: Region, patterns_for: Callable[[Operation], Sequence], top_down: bool, **context):
        super().__init__(scope, patterns_for)
        self.top_down = top_down
        #: Whatever the patterns need besides the IR (a mesh table, options), by name.
        self.context = context

    def replace_all_uses(self, value: Value, new: Value) -> None:
        """``replaceAllUsesWith``: the users are notified (revisited)."""
        for use in list(value.uses):
            self.add_to_worklist(use.op)
        value.replace_all_uses_with(new)

    def replace_op(self, op: Operation, values: Sequence[Value]) -> None:
        """``replaceOp``: users are notified, uses move, ``op`` is erased."""
        for result, new in zip(op.results, values, strict=True):
            self.replace_all_uses(result, new)
        self.erase_op(op)

    def create(self, anchor: Operation, name: str, operands: Sequence[Value], *, properties: dict | None = None,
               attributes: dict | None = None, result_types: Sequence[Type] | None = None,
               loc: Operation | None = None) -> Operation:
        """A new op before ``anchor`` (added to the worklist), at ``anchor``'s location unless ``loc``
        (an op whose location to take) is given."""
        source = anchor if loc is None else loc
        op = Builder(anchor.parent, index_in_block(anchor)).create(
            name, list(operands), properties=properties, attributes=attributes, result_types=result_types,
            loc=source.loc)
        op.location_text = source.location_text
        self.add_to_worklist(op)
        return op

    def create_before(self, anchor: Operation, name: str, operand: Value, properties: dict,
                      loc: Operation | None = None) -> Operation:
        """A new one-operand op (result type inferred) before ``anchor`` (see ``create``)."""
        return self.create(anchor, name, [operand], properties=properties, loc=loc)

    def one_round(self) -> bool:
        """Visit every op once (see the module docstring); whether anything changed."""
        changed = False
        if self.top_down:
            for op in (op for block in self.scope.blocks for top in block.ops for op in top.walk()):
                self.worklist.push(op)
            self.worklist.reverse()
        else:
            for op in (op for block in self.scope.blocks for top in block.ops for op in walk_post_order(top)):
                self.worklist.push(op)
        while self.worklist:
            op = self.worklist.pop()
            if is_trivially_dead(op):
                self.erase_op(op)
                changed = True
                continue
            for pattern in self.patterns_for(op):
                if pattern(op, self):
                    changed = True
                    break
        return changed


def apply_patterns_greedily(root: Operation, patterns_for: Callable[[Operation], Sequence], *, top_down: bool,
                            max_iterations: int = 10, **context) -> bool:
    """Run the driver on ``root``'s first region (constants uniqued in ``root`` first); whether
    anything changed (a constant moved, a pattern applied, an op erased)."""
    touched = unique_constants(root)
    rewriter = PatternRewriter(root.regions[0], patterns_for, top_down, **context)
    for _ in range(max(1, max_iterations)):
        changed = rewriter.one_round()
        before = sum(1 for _ in root.walk())
        erase_dead_ops(root)
        changed |= sum(1 for _ in root.walk()) != before
        touched |= changed
        if not changed:
            break
    return touched
