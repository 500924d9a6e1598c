"""Canonical printing of modules and ops, as MLIR and the C++ Shardy print them.

Declared ops (``dialects/``: builtin, func, sdy, StableHLO, ...) print through their declaration
(``syntax.op_writer``: the assembly format or a hand-written printer), in generic form when asked
(``syntax.generic_printer``); ops of dialects we do not model from the template the parser kept
(their own text, with the sdy attributes and the attribute dictionary regenerated and regions
re-indented).
"""
from __future__ import annotations

import gc
import re

from shardy_py.dialects.registry import lookup
from shardy_py.ir import attrs as A
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation, Region, Value
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.generic_printer import print_generic
from shardy_py.syntax.names import SsaNames
from shardy_py.syntax.op_writer import FUNC_DEFAULT_OPS, print_declared

_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")
INDENT = "  "


class Lines:
    """Printed lines, joined into a chunk every few thousand: a big module's print never holds
    one string object per line next to the whole text."""

    CHUNK = 256

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.pending: list[str] = []

    def append(self, line: str) -> None:
        pending = self.pending
        pending.append(line)
        if len(pending) >= self.CHUNK:
            self.chunks.append("\n".join(pending))
            pending.clear()

    def text(self) -> str:
        """All lines joined by newlines (the lines are given up)."""
        if self.pending:
            self.chunks.append("\n".join(self.pending))
            self.pending.clear()
        chunks, self.chunks = self.chunks, []
        return chunks[0] if len(chunks) == 1 else "\n".join(chunks)


class Printer:
    """Accumulates lines; ``debug_info`` also prints ``loc(...)`` locations."""

    def __init__(self, debug_info: bool = False, generic: bool = False, names: SsaNames | None = None):
        self.out = Lines()
        self.debug_info = debug_info
        self.generic = generic
        #: MLIR's names of the values being printed (``syntax.names``); None: names as written.
        self.names = names
        self._renames_by_block: dict[int, dict[str, str]] = {}
        #: Generic form: the text after the operands of ops of one shared shape (``generic_printer``).
        self.shared_tails: dict[tuple, tuple] = {}

    # -- values ----------------------------------------------------------------------
    def value(self, v: Value | None, written: str = "%<<UNKNOWN SSA VALUE>>") -> str:
        """How a value use prints."""
        if self.names is None:
            return v.name if v is not None else written
        return self.names.name(v, written)

    def operand(self, op: Operation, i: int) -> str:
        v = op.operands[i]
        if v is not None and self.names is not None:
            known = self.names.name(v, None)
            if known is not None:
                return known
        names = op.operand_names_view
        return self.value(op.operands[i], names[i] if i < len(names) else "%<<UNKNOWN SSA VALUE>>")

    def operands(self, op: Operation) -> str:
        return ", ".join(self.operand(op, i) for i in range(len(op.operands)))

    # -- attributes ----------------------------------------------------------------
    def attr_dict(self, d: dict, prefix: str = " ") -> str:
        """`` {a = 1 : i64, b}`` sorted by name; empty string when ``d`` is empty."""
        if not d:
            return ""
        parts = []
        for k in sorted(d):
            key = k if _BARE_KEY.match(k) else P.quote_string(k)
            v = d[k]
            parts.append(key if v == A.UNIT_ATTR else f"{key} = {v}")
        return prefix + "{" + ", ".join(parts) + "}"

    def loc(self, text: str | None) -> str:
        return f" {text}" if (text and self.debug_info) else ""

    # -- ops -----------------------------------------------------------------------
    def results(self, op: Operation) -> str:
        if self.names is not None:
            d = self.names.definition(op)
            return d + " = " if d else ""
        if not op.result_groups:
            return ""
        return ", ".join(n if c == 1 else f"{n}:{c}" for n, c in op.result_groups) + " = "

    def block_header(self, block, indent: str) -> None:
        args = ", ".join(f"{self.value(a)}: {a.type}{self.loc(a.location_text)}" for a in block.arguments)
        name = self.names.block(block) if self.names is not None else (block.label or "^bb0").split("(")[0]
        self.out.append(indent + name + (f"({args})" if block.arguments else "") + ":")

    def region(self, r: Region, indent: str, entry_args: bool = False, terminators: bool = True) -> None:
        inner = indent + INDENT
        for i, block in enumerate(r.blocks):
            if i or (entry_args and block.arguments):
                self.block_header(block, indent)
            ops = block.ops
            if not terminators and ops and i == 0:
                ops = ops[:-1]
            for op in ops:
                self.op(op, inner)

    def op(self, op: Operation, indent: str) -> None:
        names = self.names
        if op.regions and names is not None and names.lazy:
            names.enter(op)  # its regions' values are named now, and forgotten after a top-level op
            try:
                self._op(op, indent)
            finally:
                names.leave(op)
        else:
            self._op(op, indent)

    def _op(self, op: Operation, indent: str) -> None:
        if self.generic:
            print_generic(self, op, indent)
            return
        if op._pieces is not None:
            self.opaque(op, indent)  # an op of a dialect we do not model, printed from its text
            return
        decl = lookup(op.name)
        if decl is not None and (decl.format is not None or decl.print is not None):
            print_declared(self, op, indent, decl)
        else:
            print_generic(self, op, indent)  # MLIR prints an op it does not know in generic form

    def _renames(self, op: Operation) -> dict[str, str]:
        """Written name -> MLIR's name, for the values an opaque op's kept text mentions."""
        if self.names is None:
            return {}
        out = {}
        # values the text may name without them being operands we found (``ins(%a : T)`` reads like a
        # region argument): everything defined in the enclosing blocks before the op, innermost last
        chain = []
        block = op.parent
        while block is not None:
            chain.append(block)
            holder = block.parent.parent if block.parent is not None else None
            block = holder.parent if holder is not None else None
        for b in reversed(chain):
            out.update(self._block_renames(b))
        for i, written in enumerate(op.operand_names_view):
            out[written] = self.operand(op, i)
        for region in op.regions:
            for block in region.blocks:
                for a in block.arguments:
                    out[a.name] = self.value(a)
        return out

    def _block_renames(self, block) -> dict[str, str]:
        """Written name -> printed name of a block's arguments and op results (made once per block)."""
        cache = self._renames_by_block
        hit = cache.get(id(block))
        if hit is None:
            hit = {a.name: self.value(a) for a in block.arguments}
            for other in block.ops:
                for r in other.results:
                    hit[r.name] = self.value(r)
            cache[id(block)] = hit
        return hit

    def line(self, indent: str, text: str) -> None:
        self.out.append(indent + text)

    def opaque(self, op: Operation, indent: str) -> None:
        name = op.name
        pieces = op._pieces or []
        generic = _is_generic_written(op)
        if generic:
            head = f'{self.results(op)}"{name}"'
        else:
            short = name[5:] if name.startswith("func.") else None
            shown = short if short in FUNC_DEFAULT_OPS and _in_func_body(op) else name
            head = self.results(op) + shown
        buf = [indent, head]
        rename = self._renames(op)
        for p in pieces:
            if isinstance(p, str):
                if rename and "%" in p:
                    p = _SSA_USE.sub(lambda m: _renamed(rename, m.group()), p)
                buf.append(p.replace("\n", "\n" + indent))
            elif isinstance(p, Region):
                buf.append("{")
                self.out.append("".join(buf))
                buf = []
                self.region(p, indent, entry_args=bool(p.blocks and p.blocks[0].label))
                buf.extend([indent, "}"])
            elif isinstance(p, tuple):
                if p[0] in ("attrs_before", "attrs_end"):
                    # the op had no attribute dictionary; print one if attributes were added
                    txt = self.attr_dict(op.attributes_view, prefix="")
                    if txt:
                        buf.append(txt + " " if p[0] == "attrs_before" else " " + txt)
                elif p[0] == "attrs":
                    txt = self.attr_dict(op.attributes_view, prefix="")
                    props = {k: v for k, v in op.properties_view.items() if isinstance(v, A.Attr)}
                    if props:
                        txt = "<" + self.attr_dict(props, prefix="") + ">" + (" " + txt if txt else "")
                    if txt:
                        buf.append(txt)
                    elif len(p) > 1 and p[1]:
                        buf.append("{}")
                    elif buf and buf[-1].endswith(" "):
                        buf[-1] = buf[-1][:-1]  # an emptied dict leaves no double space
                elif p[0] == "loc" and self.debug_info:
                    buf.append(p[1])
            else:
                buf.append(str(p))
        self.out.append("".join(buf).rstrip())


_SSA_USE = re.compile(r"%[\w$.-]+(?:#\d+)?")


def _renamed(rename: dict[str, str], written: str) -> str:
    """The printed name for ``written`` in kept text; a written ``#N`` stays when the new name has none
    (``%zer#0`` as ``%arg1#0``, the same value: ``%arg1#0=`` at a line's start is no op's results, as the
    written text was not)."""
    new = rename.get(written)
    if new is None:
        return written
    if "#" in written and "#" not in new:
        return new + written[written.index("#"):]
    return new


def _in_func_body(op: Operation) -> bool:
    """Directly inside a ``func.func`` the default dialect is ``func`` (``return``, ``call``)."""
    parent = op.parent_op
    return parent is not None and parent.name == "func.func"


def _is_generic_written(op: Operation) -> bool:
    return op.generic_form


def print_op(op: Operation, indent: str = "", debug_info: bool = False, generic: bool = False) -> str:
    """Canonical text of one op (with its regions; values named as MLIR names them when it prints
    this op on its own)."""
    pr = Printer(debug_info, generic, _names_from(op, generic))
    pr.op(op, indent)
    return pr.out.text()


def _names_from(op: Operation, generic: bool) -> SsaNames:
    holder = Operation("builtin.module")
    region = Region(parent=holder)
    from shardy_py.ir.ops import Block

    block = Block(parent=region, ops=[op])
    region.blocks.append(block)
    holder.regions.append(region)
    return SsaNames(holder, generic, lazy=True)


def print_module(m: Module, debug_info: bool = False, generic: bool = False) -> str:
    """Canonical text of a module, ending in a newline: MLIR's pretty print, or its generic print."""
    enabled = gc.isenabled()
    gc.disable()  # printing makes nothing cyclic; collections over a big module's objects cost more than the print
    try:
        pr = Printer(debug_info, generic, SsaNames(m.op, generic, lazy=True))
        for line in m.preamble:
            if line.startswith("#loc") and not debug_info:
                continue
            pr.out.append(line)
        pr.op(m.op, "")
        for line in m.postamble:
            if line.startswith("#loc") and not debug_info:
                continue
            pr.out.append(line)
        pr.out.append("")  # the final newline, without copying the whole text once more
        return pr.out.text()
    finally:
        if enabled:
            gc.enable()
