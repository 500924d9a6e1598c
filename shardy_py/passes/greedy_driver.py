"""What MLIR's greedy pattern driver (``applyPatternsGreedily``) does to a region besides applying
a pass's own patterns, for the passes that use it.

Two effects show in the printed output of such a pass even where no pattern applies:

* **constant uniquing** (``OperationFolder::insertKnownConstant``, run on every op before the
  worklist): each constant op moves to the front of the entry block of its *insertion region* (the
  nearest enclosing region whose op is isolated from above, or unregistered) unless it already sits
  there behind the constants handled before it; a constant equal to one already handled (same
  dialect, value and type) is replaced by it and erased.  A constant that moved out of its block,
  or that absorbed a duplicate, loses its location (``loc(unknown)``); one moved within its block
  keeps it (all three seen in jaxlib's build);
* **dead code** (``isOpTriviallyDead``): ops without uses and without memory effects are erased,
  recursively through the ops whose effects are those of their regions.

StableHLO ops have no folders in the MLIR that jaxlib 0.10.2 ships (checked: ``x + 0``, reshapes and
transposes to the same type, constant arithmetic are all left alone by a greedy Shardy pass there),
so no folding is reproduced.
"""
from __future__ import annotations

from shardy_py.dialects.registry import lookup
from shardy_py.ir.edit import erase, index_in_block, move_before
from shardy_py.ir.ops import Block, Operation
from shardy_py.passes.op_traits import PURE_IF_STATIC_OPS, PURE_OPS

#: Ops matched by MLIR's ``m_Constant()`` (the ``ConstantLike`` trait).  ``sdy.constant`` is
#: deliberately not one (Shardy keeps it out of folding and uniquing).
CONSTANT_LIKE_OPS = frozenset({"stablehlo.constant", "arith.constant", "chlo.constant"})

#: Ops whose regions are isolated from above: constants inside them stay inside them.
ISOLATED_FROM_ABOVE_OPS = frozenset({
    "builtin.module", "func.func", "sdy.manual_computation", "sdy.named_computation",
})

#: Ops with ``RecursiveMemoryEffects``: free of effects when the ops in their regions are.
RECURSIVE_EFFECT_OPS = frozenset({
    "stablehlo.case", "stablehlo.if", "stablehlo.map", "stablehlo.reduce", "stablehlo.reduce_window",
    "stablehlo.scatter", "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.while",
    "sdy.manual_computation", "sdy.named_computation",
})

#: Terminators are never dead (they have no results but end their block).
TERMINATORS = frozenset({"func.return", "sdy.return", "stablehlo.return"})

UNKNOWN_LOCATION = "loc(unknown)"


def _registered(op: Operation) -> bool:
    """Whether shardy_py models ``op`` (MLIR assumes an unregistered op may be isolated from above)."""
    return lookup(op.name) is not None or op.name.startswith("sdy.") or op.name in ISOLATED_FROM_ABOVE_OPS


def insertion_block(block: Block) -> Block:
    """The entry block of the region a constant in ``block`` is uniqued in (``getInsertionRegion``)."""
    while True:
        region = block.parent
        holder = region.parent if region is not None else None
        if holder is None or holder.parent is None or holder.name in ISOLATED_FROM_ABOVE_OPS \
                or not _registered(holder):
            return region.blocks[0] if region is not None else block
        block = holder.parent


def _constant_key(op: Operation) -> tuple[str, str, str]:
    value = op.properties.get("value") if op.properties else None
    return (op.name.split(".", 1)[0], str(value), str(op.results[0].type))


def unique_constants(root: Operation) -> bool:
    """Hoist and de-duplicate the constants nested in ``root`` as the greedy driver does before it
    applies any pattern (see the module docstring); constants are handled in textual order.
    Whether any constant was erased or moved."""
    seen: dict[int, dict[tuple, Operation]] = {}
    owned: set[int] = set()
    changed = False
    for op in list(root.walk()):
        if op is root or op.name not in CONSTANT_LIKE_OPS or op.parent is None:
            continue
        block = op.parent
        target = insertion_block(block)
        scope = seen.setdefault(id(target), {})
        key = _constant_key(op)
        kept = scope.get(key)
        if kept is not None:
            op.results[0].replace_all_uses_with(kept.results[0])
            erase(op)
            kept.location_text = UNKNOWN_LOCATION
            changed = True
            continue
        front = target.ops[0]
        if block is not target:
            move_before(op, front)
            op.location_text = UNKNOWN_LOCATION
            changed = True
        elif front is not op and not _previous_is_owned(op, owned):
            move_before(op, front)
            changed = True
        scope[key] = op
        owned.add(id(op))
    return changed


def _previous_is_owned(op: Operation, owned: set[int]) -> bool:
    """Whether the op just before ``op`` in its block is a constant already handled."""
    i = index_in_block(op)
    return i > 0 and id(op.parent.ops[i - 1]) in owned


def has_no_effects(op: Operation) -> bool:
    """``wouldOpBeTriviallyDead`` apart from the uses: an op free of memory effects (recursively
    for the region ops that take their effects from their bodies)."""
    if op.name in PURE_OPS or op.name in PURE_IF_STATIC_OPS:
        return True
    if op.name == "stablehlo.custom_call":  # effects only when ``has_side_effect = true``
        flag = (op.properties or {}).get("has_side_effect")
        return flag is None or str(flag) == "false"
    if op.name in RECURSIVE_EFFECT_OPS:
        return all(has_no_effects(nested) for region in op.regions for block in region.blocks
                   for nested in block.ops)
    return False


def erase_dead_ops(root: Operation) -> None:
    """Erase the ops nested in ``root`` without uses and without effects, until none is left."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(root.walk())):
            if op is root or op.parent is None or op.name in TERMINATORS:
                continue
            if all(not r.uses for r in op.results) and has_no_effects(op):
                erase(op)
                changed = True
