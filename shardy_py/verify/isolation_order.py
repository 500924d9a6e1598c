"""Where and in which order MLIR reports a use of an SSA value that does not reach it.

A use that its definition does not dominate, or of a value defined outside an isolated op (a function),
is reported by the verifier of the innermost isolated op around it, and the uses of outside values in the
order ``IsIsolatedFromAbove`` walks that op's regions; ``verify.driver`` reports ``Module.ssa_failures``
(found while parsing) at those places.
"""
from __future__ import annotations

from shardy_py.ir.ops import Operation
from shardy_py.syntax.ssa_uses import ISOLATED_OPS


def failures_by_isolated_op(failures) -> dict[int, list]:
    """``Module.ssa_failures`` by the innermost isolated op around each use (where MLIR reports them); a
    use of a value defined outside the isolated op comes in the order MLIR's isolation check walks the ops
    (``_isolation_order``), the others after them in text order."""
    out: dict[int, list] = {}
    holders: dict[int, tuple[Operation | None, list]] = {}
    for line, col, message, kind, op in failures:
        holder = op
        while holder is not None:
            block = holder.parent
            holder = block.parent.parent if block is not None and block.parent is not None else None
            if holder is not None and holder.name in ISOLATED_OPS:
                break
        holders.setdefault(id(holder), (holder, []))[1].append((line, col, message, kind, op))
    for key, (holder, found) in holders.items():
        outside = [f for f in found if f[2].endswith(_OUTSIDE)]
        if len(outside) > 1 and holder is not None:
            order = _isolation_order(holder)
            found = sorted(outside, key=lambda f: order.get(id(f[4]), len(order))) + \
                [f for f in found if not f[2].endswith(_OUTSIDE)]
        out[key] = [f[:4] for f in found]
    return out


_OUTSIDE = "op using value defined outside the region"


def _isolation_order(isolated: Operation) -> dict[int, int]:
    """id of each op in ``isolated``'s regions -> its place in MLIR's isolation check (``IsIsolatedFromAbove``):
    a region's ops in order, then the regions they hold, the last one first (a stack), isolated ops skipped."""
    order: dict[int, int] = {}
    for region in isolated.regions:
        pending = [region]
        while pending:
            for block in pending.pop().blocks:
                for op in block.ops:
                    order[id(op)] = len(order)
                    if op.regions and op.name not in ISOLATED_OPS:
                        pending.extend(op.regions)
    return order
