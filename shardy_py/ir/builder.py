"""``Builder``: make ops from Python values at an insertion point, as MLIR's ``OpBuilder`` does.

>>> b = Builder.after(some_op)                                        # doctest: +SKIP
>>> add = b.create("stablehlo.add", [x, y])  # result type inferred     # doctest: +SKIP
>>> c = b.create("sdy.sharding_constraint", [add.results[0]],
...              properties={"sharding": s})                         # doctest: +SKIP

Result types come from the op's declaration where it defines them (``infer_results``, or
``SameOperandsAndResultType``, and the shape-preserving sdy ops); otherwise pass ``result_types``.
New ops take part in use lists at once.
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir import hooks
from shardy_py.ir.edit import index_in_block, insert
from shardy_py.ir.ops import Block, Operation, Region, Value
from shardy_py.ir.types import Type


class BuilderError(ValueError):
    """An op the builder cannot make as asked (unknown result types, no insertion point)."""


class Builder:
    """Creates ops at an insertion point: before an op, after one, or at the end of a block."""

    def __init__(self, block: Block | None = None, index: int | None = None):
        self.block = block
        self.index = index

    @classmethod
    def at_end(cls, block: Block) -> Builder:
        return cls(block, None)

    @classmethod
    def before(cls, op: Operation) -> Builder:
        return cls(op.parent, index_in_block(op))

    @classmethod
    def after(cls, op: Operation) -> Builder:
        return cls(op.parent, index_in_block(op) + 1)

    def create(self, name: str, operands: Sequence[Value] = (), *, result_types: Sequence[Type] | None = None,
               properties: dict | None = None, attributes: dict | None = None, regions: int = 0,
               loc=None) -> Operation:
        """Make op ``name`` and insert it (the insertion point moves past it)."""
        operands = list(operands)
        op = Operation(name, operands=operands, operand_names=[v.name for v in operands],
                       operand_types=[v.type for v in operands], properties=dict(properties or {}),
                       attributes=dict(attributes or {}), loc=loc)
        for _ in range(regions):
            region = Region(parent=op)
            region.blocks.append(Block(parent=region))
            op.regions.append(region)
        types = list(result_types) if result_types is not None else infer_result_types(op)
        for i, t in enumerate(types):
            v = Value("", t, op, i)
            v._use_map = {}
            op.results.append(v)
        op.result_groups = [("", len(types))] if types else []
        if self.block is not None:
            index = len(self.block.ops) if self.index is None else self.index
            insert(self.block, index, op)
            if self.index is not None:
                self.index += 1
        return op


def infer_result_types(op: Operation) -> list[Type]:
    """The result types ``op``'s declaration defines from its operands and attributes (``infer_results``,
    ``SameOperandsAndResultType``); ``BuilderError`` when it does not define them."""
    return hooks.infer_result_types(op)
