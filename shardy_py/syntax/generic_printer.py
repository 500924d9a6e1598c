"""MLIR's generic op form: ``%0 = "d.op"(%a) <{props}> ({regions}) {attrs} : (A) -> R``.

Every op prints this way with ``print_module(m, generic=True)``.  Properties (inherent attributes)
come sorted by name inside ``<{...}>``; regions print their entry block's arguments and every
terminator; value names are unique across the module (``syntax.names``).
"""
from __future__ import annotations

from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.syntax.generic_props import inherent_attributes
from shardy_py.syntax.op_writer import attr_entries, functional_type


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
    discardable = {k: v for k, v in op.attributes_view.items() if isinstance(v, A.Attr)}
    if discardable:
        parts.append(" {" + attr_entries(discardable) + "}")
    written = op.operand_types_view
    ins = [v.type if v is not None and v.type is not None else (written[i] if i < len(written) else None)
           for i, v in enumerate(op.operands)]
    parts.append(" : " + functional_type(ins, [r.type for r in op.results]))
    parts.append(pr.loc(op.location_text))
    pr.out.append("".join(parts))


def _region(pr, region, indent: str) -> None:
    """``printRegion`` with entry block arguments, terminators and empty blocks printed."""
    inner = indent + "  "
    for i, block in enumerate(region.blocks):
        if i or block.arguments or not block.ops:
            pr.block_header(block, indent)
        for op in block.ops:
            pr.op(op, inner)  # generic all the way down, or (an op MLIR does not know) pretty inside
