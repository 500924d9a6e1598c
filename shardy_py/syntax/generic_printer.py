"""MLIR's generic op form: ``%0 = "d.op"(%a) <{props}> ({regions}) {attrs} : (A) -> R``.

Every op prints this way with ``print_module(m, generic=True)``.  Properties (inherent attributes)
come sorted by name inside ``<{...}>``; regions print their entry block's arguments and every
terminator; value names are unique across the module (``syntax.names``).
"""
from __future__ import annotations

import re

from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.generic_props import inherent_attributes

_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")


def functional_type(ins, outs) -> str:
    """``(a, b) -> c`` / ``(a) -> (b, c)``, as ``printFunctionalType`` writes it."""
    ins_text = ", ".join(str(t) for t in ins)
    if len(outs) == 1 and not str(outs[0]).startswith("("):
        return f"({ins_text}) -> {outs[0]}"
    return f"({ins_text}) -> ({', '.join(str(t) for t in outs)})"


def attr_entries(d: dict, elided=()) -> str:
    """``a = 1 : i64, b`` for the entries of ``d`` not in ``elided``, sorted by name."""
    parts = []
    for k in sorted(d):
        if k in elided:
            continue
        v = d[k]
        if not isinstance(v, A.Attr):
            continue
        key = k if _BARE_KEY.match(k) else P.quote_string(k)
        parts.append(key if v == A.UNIT_ATTR else f"{key} = {v}")
    return ", ".join(parts)


def print_generic(pr, op: Operation, indent: str) -> None:
    """Print ``op`` (and its regions) in generic form onto the printer ``pr`` (in a pretty print too,
    for an op MLIR does not know or one its custom form cannot show)."""
    if op._pieces is not None and not op.generic_form and op.name != "builtin.module":
        pr.opaque(op, indent)  # an op of a dialect we do not model, written in its own syntax
        return
    if op._pieces is not None:
        pr.opaque(op, indent)
        return
    parts = [indent, pr.results(op), '"', op.name, '"(', pr.operands(op), ")"]
    if (not op.regions and type(op.properties_view) is not dict and type(op.attributes_view) is not dict
            and op.name != "func.func"):
        parts.append(_shared_tail(pr, op))  # an op of a shape many ops share: its text after the operands
        parts.append(pr.loc(op.location_text))
        pr.out.append("".join(parts))
        return
    props = inherent_attributes(op)
    if props:
        parts.append(" <{" + attr_entries(props) + "}>")
    if not op.regions and op.name == "func.func":
        # a function declaration still has its (empty) region
        pr.out.append("".join(parts) + " ({")
        parts = [indent, "})"]
    if op.regions:
        parts.append(" (")
        for k, region in enumerate(op.regions):
            if k:
                parts.append(", ")
            parts.append("{")
            pr.out.append("".join(parts))
            _region(pr, region, indent)
            parts = [indent, "}"]
        parts.append(")")
    parts.append(_attributes_and_type(op))
    parts.append(pr.loc(op.location_text))
    pr.out.append("".join(parts))


def _attributes_and_type(op: Operation) -> str:
    """`` {discardable attributes} : (operand types) -> result types``."""
    discardable = {k: v for k, v in op.attributes_view.items() if isinstance(v, A.Attr)}
    written = op.operand_types_view
    ins = [v.type if v is not None and v.type is not None else (written[i] if i < len(written) else None)
           for i, v in enumerate(op.operands)]
    text = " : " + functional_type(ins, [r.type for r in op.results])
    return " {" + attr_entries(discardable) + "}" + text if discardable else text


def _shared_tail(pr, op: Operation) -> str:
    """The text after the operands of a region-less op whose properties and attributes are mappings shared
    by the ops of its shape: made once per shape and types in a print (``pr.shared_tails``)."""
    props, attributes = op.properties_view, op.attributes_view
    key = (op.name, id(props), id(attributes), tuple(v.type if v is not None else None for v in op.operands),
           tuple(op.operand_types_view), tuple(r.type for r in op.results))
    try:
        hit = pr.shared_tails.get(key)
    except TypeError:  # an unhashable type
        hit = None
        key = None
    if hit is None:
        inherent = inherent_attributes(op)
        text = (" <{" + attr_entries(inherent) + "}>" if inherent else "") + _attributes_and_type(op)
        if key is not None:
            pr.shared_tails[key] = (text, props, attributes)  # (the mappings held: their ids stay theirs)
        return text
    return hit[0]


def _region(pr, region, indent: str) -> None:
    """``printRegion`` with entry block arguments, terminators and empty blocks printed."""
    inner = indent + "  "
    for i, block in enumerate(region.blocks):
        if i or block.arguments or not block.ops:
            pr.block_header(block, indent)
        for op in block.ops:
            pr.op(op, inner)  # generic all the way down, or (an op MLIR does not know) pretty inside
