"""SSA value and block names the way MLIR's AsmPrinter (``SSANameState``) makes them.

MLIR never prints the names a module was written with: it numbers values afresh.

* Regions are named from a stack, so the regions of one op are numbered last-first, and a nested
  region is numbered after all of its parent region's values.  In the pretty form each region
  starts from the counters its parent region had when the region was pushed (so sibling regions
  reuse numbers); in the generic form the counters never go back (every name is unique).
* Entry-block arguments are ``%argN`` (their own counter), other values ``%N``; an op with
  several results gets one number (``%3:2``, used as ``%3#1``).
* In the pretty form an op may suggest names (``OpAsmOpInterface``): ``stablehlo.constant`` gives
  ``%c``/``%cst``, ``stablehlo.while`` names its region arguments ``%iterArg``.  A suggested name
  already in use in an enclosing scope gets ``_N`` from a conflict counter that is inherited like
  the others.
* Blocks are ``^bbN``, numbered per region.
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import BLOCK_ARG_NAMERS, RESULT_NAMERS, ensure_loaded
from shardy_py.ir.ops import Block, Operation, Region, Value
from shardy_py.ir.uses import root_of

# The ops' name suggestions (``RESULT_NAMERS``: OpAsmOpInterface::getAsmResultNames, pretty form only;
# ``BLOCK_ARG_NAMERS``: getAsmBlockArgumentNames) are declared with the ops, in ``dialects.registry``.

_INVALID = re.compile(r"[^\w$.-]")
_SANITIZED: dict[str, str] = {}


def sanitize(name: str) -> str:
    """MLIR's ``sanitizeIdentifier``: a leading digit gets ``_``, other characters become ``_``."""
    hit = _SANITIZED.get(name)
    if hit is not None:
        return hit
    out = _INVALID.sub("_", name) if name else name
    if out and out[0].isdigit():
        out = "_" + out
    if len(_SANITIZED) < 4096:  # the names ops suggest (``arg3``, ``cst``) repeat in every module
        _SANITIZED[name] = out
    return out


class _Scope:
    """Names used in a region and its enclosing regions (a scoped hash table)."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.names: set[str] = set()

    def __contains__(self, name: str) -> bool:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return True
            s = s.parent
        return False


#: Where a region's numbering starts: the value, argument and conflict counters, and the enclosing scope.
_Start = tuple[int, int, int, "_Scope | None"]


class SsaNames:
    """Names of every value and block below ``root`` (not ``root``'s own results).

    ``name(value)`` is the name used for a value (``%0``, ``%0#1``, ``%arg2``, ``%cst_3``);
    ``definition(op)`` the result list written before ``=`` (``%0:2``); ``block(b)`` is ``^bbN``.

    With ``lazy`` (pretty form only) the regions of the ops in ``root``'s regions are numbered when
    the printer reaches their op (``enter``) and forgotten once it has printed the op (``leave``): in
    the pretty form a region's names depend only on where its parent region's numbering ended, so a
    big module never holds the names of more than one top-level op (one function) at a time.
    """

    def __init__(self, root: Operation, generic: bool = False, lazy: bool = False):
        ensure_loaded()  # (the dialects' name suggestions)
        self.generic = generic
        self.lazy = lazy and not generic
        self._outer: dict[Value, str] = {}   # names of values numbered eagerly
        self._inner: dict[Value, str] = {}   # names of values in the top-level op being printed (lazy)
        self._outer_blocks: set[Block] = set()  # the blocks whose values are named (in _outer or as written)
        self._inner_blocks: set[Block] = set()
        self._groups: dict[Operation, tuple[tuple[str, int], ...]] = {}  # only ops that are not one group
        self._block: dict[Block, str] = {}
        self._next_value = 0
        self._next_arg = 0
        self._next_conflict = 0
        #: Lazy: regions not numbered yet, with where their numbering starts.
        self._pending: dict[Region, _Start] = {}
        self._pending_inner: list[Region] = []
        self._active: Operation | None = None
        stack: list[tuple[Region, int, int, int, _Scope | None]] = [
            (r, 0, 0, 0, None) for r in root.regions]
        while stack:
            region, nv, na, nc, parent = stack.pop()
            if not generic:
                self._next_value, self._next_arg, self._next_conflict = nv, na, nc
            scope = _Scope(parent)
            self._number_region(region, scope, self._outer, self._outer_blocks)
            start = (self._next_value, self._next_arg, self._next_conflict, scope)
            for block in region.blocks:
                for op in block.ops:
                    for r in op.regions:
                        if self.lazy:
                            self._pending[r] = start
                        else:
                            stack.append((r, *start))

    # -- lazy numbering ---------------------------------------------------------------------------
    def enter(self, op: Operation) -> None:
        """Number ``op``'s regions if they wait to be (lazy): the printer is about to print ``op``."""
        pending = self._pending
        if not pending:
            return
        numbered = False
        for r in op.regions:
            start = pending.pop(r, None)
            if start is not None:
                self._number_pending(r, start)
                numbered = True
        if numbered and self._active is None:
            self._active = op

    def leave(self, op: Operation) -> None:
        """``op`` is printed: if it is the top-level op being printed, forget the names inside it."""
        if op is self._active:
            self._active = None
            self._inner = {}
            self._inner_blocks = set()
            pending = self._pending
            for r in self._pending_inner:  # regions the printer never printed (a compact reduce's body)
                pending.pop(r, None)
            self._pending_inner = []

    def _number_pending(self, region: Region, start: _Start) -> None:
        self._next_value, self._next_arg, self._next_conflict, parent = start
        scope = _Scope(parent)
        self._number_region(region, scope, self._inner, self._inner_blocks)
        after = (self._next_value, self._next_arg, self._next_conflict, scope)
        pending, inner = self._pending, self._pending_inner
        for block in region.blocks:
            for op in block.ops:
                for r in op.regions:
                    pending[r] = after
                    inner.append(r)

    def _number_enclosing(self, block: Block | None) -> bool:
        """Number the pending regions down to the one holding ``block`` (for a value asked for before the
        printer entered its op); False when none of them waits."""
        chain: list[Region] = []
        region = block.parent if block is not None else None
        while region is not None and region not in self._pending:
            chain.append(region)
            holder = region.parent
            region = holder.parent.parent if holder is not None and holder.parent is not None else None
        if region is None:
            return False
        for r in [region, *reversed(chain)]:
            start = self._pending.pop(r, None)
            if start is None:
                return False
            self._number_pending(r, start)
        return True

    # -- numbering ----------------------------------------------------------------------------
    def _unique(self, name: str, scope: _Scope) -> str:
        name = sanitize(name)
        if name in scope:
            base = name + "_"
            while True:
                probe = base + str(self._next_conflict)
                self._next_conflict += 1
                if probe not in scope:
                    name = probe
                    break
        scope.names.add(name)
        return name

    def _number_region(self, region: Region, scope: _Scope, values: dict[Value, str], blocks: set[Block]) -> None:
        """Name the values of ``region`` into ``values``: only those whose name is not already the one they
        were written with (a module MLIR printed is named so throughout); ``blocks`` records the blocks
        named, so that ``name`` knows a value missing from ``values`` keeps its own name."""
        op = region.parent
        named_args: set[Value] = set()
        if not self.generic and op is not None:
            namer = BLOCK_ARG_NAMERS.get(op.name)
            if namer is not None and region.blocks:
                suggestion = namer(op, region)
                if suggestion:
                    args = region.blocks[0].arguments
                    names = [suggestion] * len(args) if isinstance(suggestion, str) else suggestion
                    for arg, name in zip(args, names, strict=False):
                        name = "%" + self._unique(name, scope)
                        named_args.add(arg)
                        if name != arg.name:
                            values[arg] = name
        namers = None if self.generic else RESULT_NAMERS
        for i, block in enumerate(region.blocks):
            blocks.add(block)
            self._block[block] = f"^bb{i}"
            entry = i == 0
            for arg in block.arguments:
                if arg in named_args:
                    continue
                if entry:
                    name = "%" + self._unique(f"arg{self._next_arg}", scope)
                    self._next_arg += 1
                else:
                    name = f"%{self._next_value}"
                    self._next_value += 1
                if name != arg.name:
                    values[arg] = name
            for inner in block.ops:
                results = inner.results
                if not results:
                    continue
                if namers is None or inner.name not in namers:  # the common case: one group, numbered
                    base = f"%{self._next_value}"
                    self._next_value += 1
                    if len(results) == 1:
                        r = results[0]
                        if base != r.name:
                            values[r] = base
                    else:
                        for k, r in enumerate(results):
                            name = f"{base}#{k}"
                            if name != r.name:
                                values[r] = name
                        self._groups[inner] = ((base, len(results)),)
                else:
                    self._number_named_op(inner, scope, values)

    def _number_named_op(self, op: Operation, scope: _Scope, values: dict[Value, str]) -> None:
        """Number the results of an op that suggests names for some of them."""
        results = op.results
        named: dict[int, str] = {}
        for index, suggestion in RESULT_NAMERS[op.name](op):
            named[index] = self._unique(suggestion, scope)
        starts = sorted(set([0, *named]))
        groups: list[tuple[str, int]] = []
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(results)
            if start in named:
                base = "%" + named[start]
            else:
                base = f"%{self._next_value}"
                self._next_value += 1
            groups.append((base, end - start))
            for i in range(start, end):
                name = base if end - start == 1 else f"{base}#{i - start}"
                if name != results[i].name:
                    values[results[i]] = name
        if len(groups) > 1 or len(results) > 1:
            self._groups[op] = tuple(groups)

    # -- lookups --------------------------------------------------------------------------------
    def name(self, value: Value | None, fallback: str = "%<<UNKNOWN SSA VALUE>>") -> str:
        """The printed name of ``value`` (MLIR's placeholder for a value defined elsewhere)."""
        if value is None:
            return fallback
        n = self._inner.get(value)
        if n is None:
            n = self._outer.get(value)
            if n is None:
                block = _block_of(value)
                if block in self._inner_blocks or block in self._outer_blocks:
                    return value.name  # named as it was written
                if self._pending and self._number_enclosing(block):
                    return self.name(value, fallback)
                return fallback
        return n

    def definition(self, op: Operation) -> str:
        """``%0``, ``%0:2`` or ``%0, %1`` (several groups) for the results of ``op``."""
        results = op.results
        if not results:
            return ""
        groups = self._groups.get(op)
        if groups is None:
            if len(results) == 1:
                return self.name(results[0], "")
            self.name(results[0])  # numbers the op's region if it waits
            groups = self._groups.get(op)
            if groups is None:
                return ""
        return ", ".join(n if c == 1 else f"{n}:{c}" for n, c in groups)

    def block(self, block: Block) -> str:
        """``^bbN`` of a block."""
        name = self._block.get(block)
        if name is None and self._pending and self._number_enclosing(block):
            name = self._block.get(block)
        return name or "^bb?"


def _block_of(value: Value) -> Block | None:
    owner = value.owner
    return owner if isinstance(owner, Block) else owner.parent


def value_name(v) -> str:
    """The name MLIR prints for ``v`` (its AsmPrinter numbering of the whole module), for messages."""
    root = root_of(v)
    if root is None:
        return v.name
    return SsaNames(root).name(v, v.name)
