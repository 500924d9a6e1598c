"""Small edits of the op tree: insert, erase and replace ops, and redirect the uses of a value.

Modelled ops name their operands in ``operand_names``; ops of other dialects also carry
the names inside their kept text, so redirecting a use rewrites that text too (whole value
names only, never inside string literals).  Nothing here checks dominance: callers put
definitions before uses.
"""
from __future__ import annotations

import re

from shardy_py.ir.attrs import Attr
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import Type

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_VALUE_NAME = re.compile(r"%[\w$.-]+(?:#\d+)?")


def opaque_op(name: str, text: str, type_text: str = "", results: list[tuple[str, Type]] | None = None,
              operands: list[Value] | None = None, attributes: dict[str, Attr] | None = None) -> Operation:
    """A new op of another dialect, printed ``RESULTS = NAME TEXT {ATTRIBUTES} : TYPE_TEXT``.

    ``text`` is the custom syntax after the name (operand names written in it); ``results`` are
    (name, type) pairs; the attribute dictionary goes before `` : TYPE_TEXT`` (or at the end).
    """
    pieces: list = [" " + text.strip() if text.strip() else ""]
    if type_text:
        pieces[0] += " "
        pieces += [("attrs_before",), ": " + type_text]
    else:
        pieces.append(("attrs_end",))
    operands = list(operands or [])
    op = Operation(name, operands=operands, operand_names=[v.name for v in operands],
                   attributes=dict(attributes or {}), pieces=pieces)
    for i, (rname, rtype) in enumerate(results or []):
        op.results.append(Value(rname, rtype, op, i))
        op.result_groups.append((rname, 1))
    return op


def insert_op(block: Block, index: int, op: Operation) -> Operation:
    """Put ``op`` into ``block`` at ``index`` (as ``list.insert`` does) and return it."""
    if op.parent is not None:
        raise ValueError(f"{op!r} is already in a block; erase it first")
    block.ops.insert(index, op)
    op.parent = block
    return op


def insert_before(anchor: Operation, op: Operation) -> Operation:
    """Put ``op`` just before ``anchor`` in ``anchor``'s block."""
    block = _block_of(anchor)
    return insert_op(block, _index_in(block, anchor), op)


def insert_after(anchor: Operation, op: Operation) -> Operation:
    """Put ``op`` just after ``anchor`` in ``anchor``'s block."""
    block = _block_of(anchor)
    return insert_op(block, _index_in(block, anchor) + 1, op)


def erase_op(op: Operation) -> None:
    """Take ``op`` out of its block (its results must have no uses left; not checked here)."""
    block = _block_of(op)
    del block.ops[_index_in(block, op)]
    op.parent = None


def replace_op(old: Operation, new: Operation, keep_results: bool = True) -> Operation:
    """Put ``new`` where ``old`` is.

    With ``keep_results`` the result ``Value`` objects of ``old`` become those of ``new``
    (same names, same users, no use rewriting): the op count and names must agree.
    """
    if keep_results:
        if len(new.results) not in (0, len(old.results)):
            raise ValueError(f"{new.name} has {len(new.results)} results, {old.name} has {len(old.results)}")
        new.results = list(old.results)
        new.result_groups = list(old.result_groups)
        for v in new.results:
            v.owner = new
    block = _block_of(old)
    i = _index_in(block, old)
    block.ops[i] = new
    new.parent = block
    old.parent = None
    return new


class BlockEdits:
    """Many insertions, erasures and replacements, applied to each block in one pass.

    The single-op functions above find an op's position by a scan of its block; editing every op
    of a block that way is quadratic.  Here positions are only used by ``apply``.  Replacements
    move the result values to the new op at once (so later edits see the new owner).
    """

    def __init__(self) -> None:
        self._blocks: dict[int, Block] = {}
        self._prefix: dict[int, list[Operation]] = {}
        self._before: dict[int, list[Operation]] = {}
        self._after: dict[int, list[Operation]] = {}
        self._replace: dict[int, Operation | None] = {}

    def prepend(self, block: Block, *ops: Operation) -> None:
        """Put ``ops`` at the start of ``block`` (after ops prepended earlier)."""
        self._blocks[id(block)] = block
        self._prefix.setdefault(id(block), []).extend(ops)

    def insert_before(self, anchor: Operation, *ops: Operation) -> None:
        """Put ``ops`` just before ``anchor`` (after ops inserted there earlier)."""
        self._before.setdefault(id(self._note(anchor)), []).extend(ops)

    def insert_after(self, anchor: Operation, *ops: Operation) -> None:
        """Put ``ops`` just after ``anchor`` (after ops inserted there earlier)."""
        self._after.setdefault(id(self._note(anchor)), []).extend(ops)

    def erase(self, op: Operation) -> None:
        """Drop ``op`` (its results must have no uses left)."""
        self._replace[id(self._note(op))] = None

    def replace(self, old: Operation, new: Operation) -> None:
        """Put ``new`` where ``old`` is; ``old``'s result values become ``new``'s now."""
        if len(new.results) not in (0, len(old.results)):
            raise ValueError(f"{new.name} has {len(new.results)} results, {old.name} has {len(old.results)}")
        new.results, new.result_groups = list(old.results), list(old.result_groups)
        for v in new.results:
            v.owner = new
        self._replace[id(self._note(old))] = new

    def _note(self, op: Operation) -> Operation:
        block = _block_of(op)
        self._blocks[id(block)] = block
        return op

    def apply(self) -> None:
        """Rewrite every edited block."""
        for key, block in self._blocks.items():
            ops = list(self._prefix.get(key, []))
            for op in block.ops:
                k = id(op)
                ops.extend(self._before.get(k, ()))
                kept = self._replace.get(k, op)
                if kept is not None:
                    ops.append(kept)
                if kept is not op:
                    op.parent = None
                ops.extend(self._after.get(k, ()))
            for op in ops:
                op.parent = block
            block.ops = ops
        self.__init__()


def value_users(root: Operation) -> dict[Value, list[Operation]]:
    """For every value used under ``root`` (``root`` included): the ops using it, in walk order.

    An op using a value twice is listed once.
    """
    out: dict[Value, list[Operation]] = {}
    for op in root.walk():
        seen: set[int] = set()
        for v in op.operands:
            if v is not None and id(v) not in seen:
                seen.add(id(v))
                out.setdefault(v, []).append(op)
    return out


def replace_uses(old: Value, new: Value, users: list[Operation]) -> None:
    """Make every op of ``users`` use ``new`` wherever it used ``old``."""
    for op in users:
        _redirect(op, old, new)


def set_operand(op: Operation, index: int, value: Value) -> None:
    """Make operand ``index`` of a modelled op (one printed from its fields) be ``value``."""
    if op._pieces is not None:
        raise ValueError(f"'{op.name}' keeps its own text; use replace_uses to redirect all its uses of a value")
    op.set_operand(index, value)
    op.operand_names[index] = value.name


def _redirect(op: Operation, old: Value, new: Value) -> None:
    hit = False
    for i, v in enumerate(op.operands):
        if v is old:
            op.set_operand(i, new)
            op.operand_names[i] = new.name
            hit = True
    if hit and op._pieces is not None:
        op._pieces = [_rename_in_text(p, old.name, new.name) if isinstance(p, str) else p for p in op._pieces]


def _rename_in_text(text: str, old_name: str, new_name: str) -> str:
    """``text`` with the value name ``old_name`` (whole names only) replaced outside string literals."""
    if old_name not in text:
        return text

    def rename(segment: str) -> str:
        return _VALUE_NAME.sub(lambda m: new_name if m.group() == old_name else m.group(), segment)

    out = []
    pos = 0
    for m in _STRING.finditer(text):
        out.append(rename(text[pos:m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(rename(text[pos:]))
    return "".join(out)


def _block_of(op: Operation) -> Block:
    if op.parent is None:
        raise ValueError(f"{op!r} is not in a block")
    return op.parent


def _index_in(block: Block, op: Operation) -> int:
    try:
        return block.ops.index(op)  # ops compare by identity
    except ValueError:
        raise ValueError(f"{op!r} is not among the ops of its parent block") from None
