"""Use lists, made when first asked for and then kept exact.

A big module is parsed without use lists (they would cost memory on every value).  The first time
a value's uses are asked for, ``track`` walks the whole tree the value lives in once and gives every
value in it a use list; from then on every change of an operand (``Operation.set_operand``,
``set_operands``, new ops, erased ops) updates the lists, as MLIR's use-def chains do.
"""
from __future__ import annotations

from shardy_py.ir.ops import Block, Operation, Value


def root_of(value: Value) -> Operation | None:
    """The outermost op above the definition of ``value`` (None for a value in no op)."""
    owner = value.owner
    op = owner if isinstance(owner, Operation) else _block_op(owner)
    if op is None:
        return None
    while True:
        parent = op.parent_op
        if parent is None:
            return op
        op = parent


def _block_op(block: Block | None) -> Operation | None:
    if block is None or block.parent is None:
        return None
    return block.parent.parent


def track(value: Value) -> None:
    """Give every value of ``value``'s tree a use list (``value`` itself included)."""
    root = root_of(value)
    if root is None:
        value._use_map = {}
        return
    track_tree(root)
    if value._use_map is None:
        value._use_map = {}


def track_tree(root: Operation) -> None:
    """Use lists for every value defined or used below ``root`` (``root`` included), each in the
    order MLIR's parser makes the uses (see ``_post_order``)."""
    ops = list(root.walk())
    for op in ops:
        for r in op.results:
            if r._use_map is None:
                r._use_map = {}
        for region in op.regions:
            for block in region.blocks:
                for a in block.arguments:
                    if a._use_map is None:
                        a._use_map = {}
    for op in _post_order(root):
        for i, v in enumerate(op.operands):
            if v is None:
                continue
            if v._use_map is None:
                v._use_map = {}
            v._use_map[(op, i)] = None


def _post_order(root: Operation):
    """``root`` and the ops below it, each after the ops in its regions: the order MLIR's parser
    creates them in (an op with regions is created once its regions are parsed), hence the order
    their uses enter use lists."""
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, expanded = stack.pop()
        if expanded:
            yield op
            continue
        stack.append((op, True))
        nested = [inner for region in op.regions for block in region.blocks for inner in block.ops]
        stack.extend((inner, False) for inner in reversed(nested))


def recount(root: Operation) -> dict[Value, list[tuple[Operation, int]]]:
    """Uses of every value below ``root`` counted afresh from the operands (for checking)."""
    out: dict[Value, list[tuple[Operation, int]]] = {}
    for op in root.walk():
        for i, v in enumerate(op.operands):
            if v is not None:
                out.setdefault(v, []).append((op, i))
    return out
