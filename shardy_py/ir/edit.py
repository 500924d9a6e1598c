"""Changing the op tree the way MLIR's ``Operation``/``Block`` methods do: insert, erase, move and
clone ops, add and erase block arguments.  Every change keeps use lists exact (``ir.uses``).

Nothing here checks dominance: callers put definitions before uses.
"""
from __future__ import annotations

from collections.abc import Iterable

from shardy_py.ir.clone import clone  # noqa: F401  (edit.clone: the name callers use)
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import Type


class IRError(ValueError):
    """An edit that would break the IR (erasing a value still in use, inserting an op twice)."""


#: Where each op was last found in its block: ``id(op) -> index``.  Only a hint (checked with ``is``
#: before use, so a stale or reused id costs a search, never a wrong answer); lookups refresh it.
_HINTS: dict[int, int] = {}
#: Beyond this many hints the table is dropped and rebuilt as lookups need it (bounds its memory).
_MAX_HINTS = 1 << 20
#: How far before its hint an op is looked for first (ops erased before it move it back).
_BACK = 32


def index_in_block(op: Operation) -> int:
    """Where ``op`` stands in its block.

    MLIR's blocks are linked lists, so inserting before an op costs nothing there; ours are Python
    lists, and finding an op's position is a search.  The first search in a block records every
    op's position; later ones start just before the recorded place and scan forward (edits since
    then shift ops by a few places), so a pass that edits a block op by op stays linear."""
    block = op.parent
    if block is None:
        raise IRError(f"{op!r} is not in a block")
    ops = block.ops
    hint = _HINTS.get(id(op))
    if hint is not None:
        if hint < len(ops) and ops[hint] is op:
            return hint
        lo = hint - _BACK if hint > _BACK else 0
        try:
            i = _find(ops, op, lo)
        except ValueError:
            i = None
        if i is not None:
            _HINTS[id(op)] = i
            return i
    for i, other in enumerate(ops):
        if other is op:
            _remember(ops)
            return i
    raise IRError(f"{op!r} is not among the ops of its parent block")


def _find(ops: list[Operation], op: Operation, lo: int) -> int:
    """The index of ``op`` in ``ops`` from ``lo`` on, by identity (ValueError when absent)."""
    i = lo
    for other in ops[lo:lo + 2 * _BACK]:
        if other is op:
            return i
        i += 1
    return ops.index(op, lo)


def forget_positions() -> None:
    """Drop the noted op positions (the pass manager does after a run; they are only hints)."""
    _HINTS.clear()


def _remember(ops: list[Operation]) -> None:
    """Record the position of every op of a block."""
    if len(_HINTS) > _MAX_HINTS:
        _HINTS.clear()
    _HINTS.update(zip(map(id, ops), range(len(ops)), strict=True))


def insert(block: Block, index: int, op: Operation) -> Operation:
    """Put the detached ``op`` into ``block`` at ``index`` (as ``list.insert``)."""
    if op.parent is not None:
        raise IRError(f"{op!r} is already in a block; detach or erase it first")
    block.ops.insert(index, op)
    op.parent = block
    _record_uses(op)
    return op


def _record_uses(op: Operation) -> None:
    """Enter the uses made by ``op`` and the ops in its regions into the use lists of values whose
    lists were built while ``op`` stood outside their tree (made detached, then inserted)."""
    for inner in op.walk():
        for i, v in enumerate(inner.operands):
            if v is not None and v._use_map is not None and (inner, i) not in v._use_map:
                v._use_map[(inner, i)] = None


def insert_before(anchor: Operation, op: Operation) -> Operation:
    return insert(anchor.parent, index_in_block(anchor), op)


def insert_after(anchor: Operation, op: Operation) -> Operation:
    return insert(anchor.parent, index_in_block(anchor) + 1, op)


def detach(op: Operation) -> Operation:
    """Take ``op`` out of its block, keeping it (and its uses) whole."""
    del op.parent.ops[index_in_block(op)]
    op.parent = None
    return op


def replace_in_block(old: Operation, new: Operation) -> Operation:
    """Put the detached ``new`` where ``old`` stands and detach ``old`` (uses are left as they are;
    ``replace_op_with`` moves them too)."""
    if new.parent is not None:
        raise IRError(f"{new!r} is already in a block; detach or erase it first")
    block = old.parent
    i = index_in_block(old)
    block.ops[i] = new
    new.parent = block
    old.parent = None
    _HINTS[id(new)] = i
    _record_uses(new)
    return new


def move_before(op: Operation, anchor: Operation) -> None:
    """Move ``op`` just before ``anchor`` (any block)."""
    insert_before(anchor, detach(op))


def move_after(op: Operation, anchor: Operation) -> None:
    insert_after(anchor, detach(op))


def _drop_uses(op: Operation) -> None:
    for inner in op.walk():
        inner.set_operands([None] * 0)


def erase(op: Operation) -> None:
    """Erase ``op`` and everything in its regions; its results must have no uses left outside it."""
    inside = set(map(id, op.walk()))
    for r in _defined_values(op):
        if r.uses:
            outside = [u for u in r.uses if id(u.op) not in inside]
            if outside:
                raise IRError(f"cannot erase {op!r}: its value {r.name or '(unnamed)'} is still used by "
                              f"{outside[0].op!r}")
    if op.parent is not None:
        detach(op)
    _drop_uses(op)


def _defined_values(op: Operation) -> list[Value]:
    out = []
    for inner in op.walk():
        out.extend(inner.results)
        for region in inner.regions:
            for block in region.blocks:
                out.extend(block.arguments)
    return out


def add_argument(block: Block, type_: Type, index: int | None = None, attributes=None) -> Value:
    """A new block argument of ``type_`` (at the end, or at ``index``)."""
    index = len(block.arguments) if index is None else index
    v = Value("", type_, block, index, None, dict(attributes) if attributes else {})
    v._use_map = {}
    block.arguments.insert(index, v)
    for i, a in enumerate(block.arguments):
        a.index = i
    return v


def erase_argument(block: Block, index: int) -> None:
    """Erase argument ``index`` of ``block`` (it must have no uses)."""
    v = block.arguments[index]
    if v.uses:
        raise IRError(f"cannot erase block argument {index}: it is still used by {v.uses[0].op!r}")
    del block.arguments[index]
    for i, a in enumerate(block.arguments):
        a.index = i


def add_func_argument(func: Operation, type_: Type, index: int | None = None, attributes=None) -> Value:
    """A new argument of a ``func.func`` (its entry block and its function type both change)."""
    props = func.properties
    block = func.regions[0].blocks[0]
    index = len(block.arguments) if index is None else index
    v = add_argument(block, type_, index, attributes)
    props["arg_types"].insert(index, type_)
    props["arg_attrs"].insert(index, dict(attributes) if attributes else {})
    props["arg_locs"].insert(index, None)
    return v


def erase_func_argument(func: Operation, index: int) -> None:
    """Erase an unused argument of a ``func.func`` (entry block and function type)."""
    erase_argument(func.regions[0].blocks[0], index)
    for key in ("arg_types", "arg_attrs", "arg_locs"):
        del func.properties[key][index]


def replace_op(op: Operation, values: Iterable[Value]) -> None:
    """MLIR's ``replaceOp``: every use of ``op``'s results becomes a use of ``values``; ``op`` is erased."""
    values = list(values)
    if len(values) != len(op.results):
        raise IRError(f"{op.name} has {len(op.results)} results, {len(values)} replacements given")
    for old, new in zip(op.results, values, strict=True):
        old.replace_all_uses_with(new)
    erase(op)


def replace_op_with(op: Operation, new: Operation) -> Operation:
    """MLIR's ``replaceOpWithNewOp``: the detached ``new`` takes ``op``'s place in its block and
    every use of its results; ``op`` is erased."""
    if len(new.results) != len(op.results):
        raise IRError(f"{op.name} has {len(op.results)} results, {new.name} has {len(new.results)}")
    for old, value in zip(op.results, new.results, strict=True):
        old.replace_all_uses_with(value)
    replace_in_block(op, new)
    erase(op)
    return new


def sync_operand_types(root) -> bool:
    """Make the written operand types of every op in ``root`` (an op or a module, walked) its
    operands' types; whether any differed.  An op whose written types already match keeps them (shared
    with the ops of its shape, as the parser made them)."""
    changed = False
    for op in root.walk():
        if op.operands:
            written = op.operand_types_view
            types = [v.type if v is not None else (written[i] if i < len(written) else None)
                     for i, v in enumerate(op.operands)]
            if len(types) != len(written) or any(a is not b and a != b for a, b in zip(types, written, strict=False)):
                op.operand_types = types
                changed = True
    return changed
