"""Canonical printing of modules and ops, as MLIR and the C++ Shardy print them.

Shardy, func and module ops are printed from their fields; other ops from
the template the parser kept (their own text, with the sdy attributes and the
attribute dictionary regenerated and regions re-indented).
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
from shardy_py.syntax.op_writer import print_declared
from shardy_py.syntax.parser import FUNC_DEFAULT_OPS

_BARE_KEY = re.compile(r"[A-Za-z_][\w$.-]*\Z")
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
        fn = _PRINTERS.get(op.name) if op._pieces is None else None
        if fn is None:
            decl = lookup(op.name) if op._pieces is None else None
            if decl is not None and (decl.format is not None or decl.print is not None):
                print_declared(self, op, indent, decl)
            elif op._pieces is None:
                print_generic(self, op, indent)  # MLIR prints an op it does not know in generic form
            else:
                self.opaque(op, indent)
        else:
            fn(self, op, indent)

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
                    p = _SSA_USE.sub(lambda m: rename.get(m.group(), m.group()), p)
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


def _in_func_body(op: Operation) -> bool:
    """Directly inside a ``func.func`` the default dialect is ``func`` (``return``, ``call``)."""
    parent = op.parent_op
    return parent is not None and parent.name == "func.func"


def _is_generic_written(op: Operation) -> bool:
    return op.generic_form


# ---- modelled ops -----------------------------------------------------------------------

def _types(ts) -> str:
    return ", ".join(str(t) for t in ts)


def _functional(ins, outs) -> str:
    res = str(outs[0]) if len(outs) == 1 and not str(outs[0]).startswith("(") else f"({_types(outs)})"
    return f"({_types(ins)}) -> {res}"


def pr_module(pr: Printer, op: Operation, indent: str) -> None:
    head = "module"
    if "sym_name" in op.properties_view:
        head += " " + P.symbol_ref(op.properties_view["sym_name"])
    if op.attributes_view:
        head += " attributes" + pr.attr_dict(op.attributes_view)
    pr.line(indent, head + " {")
    pr.region(op.regions[0], indent)
    pr.line(indent, "}" + pr.loc(op.location_text))


def pr_func(pr: Printer, op: Operation, indent: str) -> None:
    props = op.properties_view
    head = "func.func "
    if props.get("sym_visibility"):
        head += props["sym_visibility"] + " "
    head += P.symbol_ref(props["sym_name"])
    args = []
    body_args = op.regions[0].blocks[0].arguments if op.regions else None
    for i, t in enumerate(props["arg_types"]):
        if body_args is not None:
            a = body_args[i]
            args.append(f"{pr.value(a)}: {t}{pr.attr_dict(a.attributes)}{pr.loc(props['arg_locs'][i])}")
        else:
            args.append(f"{t}{pr.attr_dict(props['arg_attrs'][i])}")
    head += "(" + ", ".join(args) + ")"
    rts = props["result_types"]
    ras = props["res_attrs"]
    if rts:
        if len(rts) == 1 and not ras[0] and not str(rts[0]).startswith("("):
            head += f" -> {rts[0]}"
        else:
            head += " -> (" + ", ".join(f"{t}{pr.attr_dict(a)}" for t, a in zip(rts, ras, strict=True)) + ")"
    if op.attributes_view:
        head += " attributes" + pr.attr_dict(op.attributes_view)
    if op.regions:
        pr.line(indent, head + " {")
        pr.region(op.regions[0], indent)
        pr.line(indent, "}" + pr.loc(op.location_text))
    else:
        pr.line(indent, head + pr.loc(op.location_text))


def pr_return(pr: Printer, op: Operation, indent: str) -> None:
    name = "return" if op.name == "func.return" and _in_func_body(op) else op.name
    text = name + pr.attr_dict(op.attributes_view)
    if op.operand_names_view:
        text += f" {pr.operands(op)} : {_types(op.operand_types_view)}"
    pr.line(indent, text + pr.loc(op.location_text))


def pr_mesh(pr: Printer, op: Operation, indent: str) -> None:
    props = op.properties_view
    pr.line(indent, f"sdy.mesh {P.symbol_ref(props['sym_name'])} = {P.mesh_body(props['mesh'])}"
            + pr.attr_dict(op.attributes_view) + pr.loc(op.location_text))


def _simple(pr: Printer, op: Operation, indent: str, middle: str) -> None:
    t = op.results[0].type if op.results else (op.operand_types_view[0] if op.operand_types_view else "")
    pr.line(indent, f"{pr.results(op)}{op.name} {middle}{pr.attr_dict(op.attributes_view)} : {t}"
            + pr.loc(op.location_text))


def pr_sharding_op(pr: Printer, op: Operation, indent: str) -> None:
    _simple(pr, op, indent, f"{pr.operand(op, 0)} {P.sharding_body(op.properties_view['sharding'])}")


def pr_data_flow_edge(pr: Printer, op: Operation, indent: str) -> None:
    s = op.properties_view.get("sharding")
    _simple(pr, op, indent, pr.operand(op, 0) + (f" sharding={P.sharding_body(s)}" if s is not None else ""))


def pr_func_data_flow_edge(pr: Printer, op: Operation, indent: str) -> None:
    _simple(pr, op, indent, pr.operand(op, 0))


def pr_propagation_barrier(pr: Printer, op: Operation, indent: str) -> None:
    _simple(pr, op, indent, f"{pr.operand(op, 0)} allowed_direction={op.properties_view['allowed_direction']}")


def pr_sharding_group(pr: Printer, op: Operation, indent: str) -> None:
    pr.line(indent, f"sdy.sharding_group {pr.operand(op, 0)} group_id={op.properties_view['group_id']}"
            f"{pr.attr_dict(op.attributes_view)} : {op.operand_types_view[0]}" + pr.loc(op.location_text))


def pr_constant(pr: Printer, op: Operation, indent: str) -> None:
    pr.line(indent, f"{pr.results(op)}sdy.constant{pr.attr_dict(op.attributes_view)} {op.properties_view['value']} : "
            f"{op.results[0].type}" + pr.loc(op.location_text))


def _collective_printer(prop: str | None, fmt, has_reduction: bool = False):
    def printer(pr: Printer, op: Operation, indent: str) -> None:
        parts = []
        if has_reduction and op.properties_view.get("reduction_op", "sum") != "sum":
            parts.append(op.properties_view["reduction_op"])
        if prop is not None:
            parts.append(fmt(op.properties_view[prop]))
        parts.append(pr.operand(op, 0))
        parts.append("out_sharding=" + P.sharding_body(op.properties_view["out_sharding"]))
        _simple(pr, op, indent, " ".join(parts))
    return printer


def _region_args(pr: Printer, args) -> str:
    return "(" + ", ".join(f"{pr.value(a)}: {a.type}{pr.attr_dict(a.attributes)}{pr.loc(a.location_text)}"
                           for a in args) + ")"


def _region_op(pr: Printer, op: Operation, indent: str, head: str) -> None:
    block = op.regions[0].blocks[0]
    pr.line(indent, f"{head} {_region_args(pr, block.arguments)} {{")
    pr.region(op.regions[0], indent)
    outs = [r.type for r in op.results]
    pr.line(indent, "}" + pr.attr_dict(op.attributes_view) + " : " + _functional(op.operand_types_view, outs)
            + pr.loc(op.location_text))


def pr_manual_computation(pr: Printer, op: Operation, indent: str) -> None:
    props = op.properties_view
    head = (f"{pr.results(op)}sdy.manual_computation({pr.operands(op)}) "
            f"in_shardings={P.sharding_list(props['in_shardings'].shardings)} "
            f"out_shardings={P.sharding_list(props['out_shardings'].shardings)} "
            f"manual_axes={P.manual_axes(props['manual_axes'])}")
    _region_op(pr, op, indent, head)


def pr_named_computation(pr: Printer, op: Operation, indent: str) -> None:
    props = op.properties_view
    head = f"{pr.results(op)}sdy.named_computation<{P.quote_string(props['name'])}>({pr.operands(op)})"
    if props.get("in_shardings") is not None:
        head += f" in_shardings={P.sharding_list(props['in_shardings'].shardings)}"
    if props.get("out_shardings") is not None:
        head += f" out_shardings={P.sharding_list(props['out_shardings'].shardings)}"
    _region_op(pr, op, indent, head)


_PRINTERS = {
    "builtin.module": pr_module,
    "func.func": pr_func,
    "func.return": pr_return,
    "sdy.return": pr_return,
    "sdy.mesh": pr_mesh,
    "sdy.sharding_constraint": pr_sharding_op,
    "sdy.reshard": pr_sharding_op,
    "sdy.manual_computation": pr_manual_computation,
    "sdy.named_computation": pr_named_computation,
    "sdy.sharding_group": pr_sharding_group,
    "sdy.constant": pr_constant,
    "sdy.data_flow_edge": pr_data_flow_edge,
    "sdy.func_data_flow_edge": pr_func_data_flow_edge,
    "sdy.propagation_barrier": pr_propagation_barrier,
    "sdy.all_gather": _collective_printer("gathering_axes", P.list_of_axis_ref_lists),
    "sdy.all_slice": _collective_printer("slicing_axes", P.list_of_axis_ref_lists),
    "sdy.all_to_all": _collective_printer("params", P.all_to_all_params),
    "sdy.collective_permute": _collective_printer(None, None),
    "sdy.all_reduce": _collective_printer("reduction_axes", lambda a: P.axis_list(a.value), has_reduction=True),
    "sdy.reduce_scatter": _collective_printer("reduce_scatter_axes", P.list_of_axis_ref_lists, has_reduction=True),
    "sdy.sharded_to_unreduced": _collective_printer("axes", P.list_of_axis_ref_lists),
    "sdy.replicated_to_unreduced": _collective_printer("axes", lambda a: P.axis_list(a.value)),
}


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
