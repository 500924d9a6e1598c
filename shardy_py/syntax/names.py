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
from collections.abc import Callable

from shardy_py.ir.ops import Block, Operation, Region, Value

#: Result-name suggestions of ops (OpAsmOpInterface::getAsmResultNames), pretty form only:
#: op name -> function(op) -> list of (result index, name).
RESULT_NAMERS: dict[str, Callable[[Operation], list[tuple[int, str]]]] = {}
#: Region-argument name suggestions (getAsmBlockArgumentNames): op name -> function(op, region) -> one name
#: for every argument of the entry block, or a list of names (one per argument).
BLOCK_ARG_NAMERS: dict[str, Callable[[Operation, Region], str | list[str] | None]] = {}

_INVALID = re.compile(r"[^\w$.-]")


def sanitize(name: str) -> str:
    """MLIR's ``sanitizeIdentifier``: a leading digit gets ``_``, other characters become ``_``."""
    if not name:
        return name
    name = _INVALID.sub("_", name)
    return "_" + name if name[0].isdigit() else name


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


class SsaNames:
    """Names of every value and block below ``root`` (not ``root``'s own results).

    ``name(value)`` is the name used for a value (``%0``, ``%0#1``, ``%arg2``, ``%cst_3``);
    ``definition(op)`` the result list written before ``=`` (``%0:2``); ``block(b)`` is ``^bbN``.
    """

    def __init__(self, root: Operation, generic: bool = False):
        self.generic = generic
        self._value: dict[Value, str] = {}
        self._groups: dict[Operation, list[tuple[str, int]]] = {}
        self._block: dict[Block, str] = {}
        self._next_value = 0
        self._next_arg = 0
        self._next_conflict = 0
        stack: list[tuple[Region, int, int, int, _Scope | None]] = [
            (r, 0, 0, 0, None) for r in root.regions]
        while stack:
            region, nv, na, nc, parent = stack.pop()
            if not generic:
                self._next_value, self._next_arg, self._next_conflict = nv, na, nc
            scope = _Scope(parent)
            self._number_region(region, scope)
            for block in region.blocks:
                for op in block.ops:
                    for r in op.regions:
                        stack.append((r, self._next_value, self._next_arg, self._next_conflict, scope))

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

    def _number_region(self, region: Region, scope: _Scope) -> None:
        op = region.parent
        if not self.generic and op is not None:
            namer = BLOCK_ARG_NAMERS.get(op.name)
            if namer is not None and region.blocks:
                suggestion = namer(op, region)
                if suggestion:
                    args = region.blocks[0].arguments
                    names = [suggestion] * len(args) if isinstance(suggestion, str) else suggestion
                    for arg, name in zip(args, names, strict=False):
                        self._value[arg] = "%" + self._unique(name, scope)
        for i, block in enumerate(region.blocks):
            self._block[block] = f"^bb{i}"
            entry = i == 0
            for arg in block.arguments:
                if arg in self._value:
                    continue
                if entry:
                    self._value[arg] = "%" + self._unique(f"arg{self._next_arg}", scope)
                    self._next_arg += 1
                else:
                    self._value[arg] = f"%{self._next_value}"
                    self._next_value += 1
            for inner in block.ops:
                self._number_op(inner, scope)

    def _number_op(self, op: Operation, scope: _Scope) -> None:
        results = op.results
        if not results:
            return
        named: dict[int, str] = {}
        if not self.generic:
            namer = RESULT_NAMERS.get(op.name)
            if namer is not None:
                for index, suggestion in namer(op):
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
                self._value[results[i]] = base if end - start == 1 else f"{base}#{i - start}"
        self._groups[op] = groups

    # -- lookups --------------------------------------------------------------------------------
    def name(self, value: Value | None, fallback: str = "%<<UNKNOWN SSA VALUE>>") -> str:
        """The printed name of ``value`` (MLIR's placeholder for a value defined elsewhere)."""
        if value is None:
            return fallback
        return self._value.get(value, fallback)

    def definition(self, op: Operation) -> str:
        """``%0``, ``%0:2`` or ``%0, %1`` (several groups) for the results of ``op``."""
        groups = self._groups.get(op)
        if not groups:
            return ""
        return ", ".join(n if c == 1 else f"{n}:{c}" for n, c in groups)

    def block(self, block: Block) -> str:
        """``^bbN`` of a block."""
        return self._block.get(block, "^bb?")
