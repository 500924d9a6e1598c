"""MLIR's default walk order over nested ops, for the passes and tools that must visit ops as the
C++ ``Operation::walk`` does (post-order: an op after the ops in its regions)."""
from __future__ import annotations

from collections.abc import Iterator

from shardy_py.ir.ops import Operation


def walk_post_order(op: Operation) -> Iterator[Operation]:
    """``op`` and every op nested in it, each after the ops nested in it (MLIR's post-order walk)."""
    stack: list[tuple[Operation, Iterator | None]] = [(op, None)]
    while stack:
        current, children = stack[-1]
        if children is None:
            children = iter([o for r in current.regions for b in r.blocks for o in b.ops])
            stack[-1] = (current, children)
        child = next(children, None)
        if child is None:
            stack.pop()
            yield current
        else:
            stack.append((child, None))
