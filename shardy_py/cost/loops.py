"""How many times an op runs: the product of the trip counts of the loops around it, where the
loop is the counted ``stablehlo.while`` JAX writes for ``fori_loop`` and ``scan`` (a block argument
starting at a constant, compared ``LT`` with a constant in the condition, and incremented by a
constant 1 in the body).  Other loops run an unknown number of times: counted once, and said so."""
from __future__ import annotations

import re

from shardy_py.ir.ops import Block, Operation, Value

_DENSE_INT = re.compile(r"^dense<(-?\d+)>")


def int_constant(value: Value | None) -> int | None:
    """The integer a scalar ``stablehlo.constant`` / ``sdy.constant`` result holds, else None."""
    if value is None or isinstance(value.owner, Block):
        return None
    op = value.owner
    if op.name not in ("stablehlo.constant", "sdy.constant"):
        return None
    m = _DENSE_INT.match(str(op.properties_view.get("value", "")))
    return int(m.group(1)) if m else None


def _constant_in(value: Value) -> int | None:
    return int_constant(value)


def trip_count(loop: Operation) -> int | None:
    """The number of iterations of a counted ``stablehlo.while`` (see the module docstring); None
    for any other loop."""
    if loop.name != "stablehlo.while" or len(loop.regions) != 2:
        return None
    cond, body = (r.blocks[0] if r.blocks else None for r in loop.regions)
    if cond is None or body is None or not cond.ops or not body.ops:
        return None
    ret = cond.ops[-1]
    if not ret.operands or ret.operands[0] is None or isinstance(ret.operands[0].owner, Block):
        return None
    compare = ret.operands[0].owner
    if compare.name != "stablehlo.compare" or "LT" not in str(compare.properties_view.get("comparison_direction", "")):
        return None
    counter, bound = compare.operands[0], compare.operands[1]
    if counter is None or not isinstance(counter.owner, Block) or counter.owner is not cond:
        return None
    limit = _constant_in(bound)
    index = counter.index
    start = _constant_in(loop.operands[index]) if index < len(loop.operands) else None
    step = _increment(body, index)
    if limit is None or start is None or step != 1:
        return None
    return max(0, limit - start)


def _increment(body: Block, index: int) -> int | None:
    """The constant the body adds to loop variable ``index`` (None when it does something else)."""
    ret = body.ops[-1]
    if index >= len(ret.operands) or ret.operands[index] is None or isinstance(ret.operands[index].owner, Block):
        return None
    add = ret.operands[index].owner
    if add.name != "stablehlo.add":
        return None
    a, b = add.operands
    arg = body.arguments[index]
    if a is arg:
        return _constant_in(b)
    if b is arg:
        return _constant_in(a)
    return None


def executions(op: Operation) -> tuple[int, bool]:
    """``(times op runs, whether every loop around it has a known trip count)``."""
    count, known = 1, True
    parent = op.parent_op
    while parent is not None:
        if parent.name == "stablehlo.while":
            trips = trip_count(parent)
            if trips is None:
                known = False
            else:
                count *= trips
        parent = parent.parent_op
    return count, known
