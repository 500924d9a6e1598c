"""Reading an op written in MLIR's generic form into the same op its custom form gives.

``"d.op"(%a, %b) <{props}> ({regions}) {attrs} : (A, B) -> R loc(...)``: declared ops get their
operands, properties and regions through ``syntax.declared.finish``; an op whose properties are not
kept as attributes (builtin, func and sdy ops) through its declaration's ``from_attrs``.
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import OpDecl
from shardy_py.errors import ParseError
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.ops import Operation
from shardy_py.syntax import torn
from shardy_py.syntax.declared import finish
from shardy_py.syntax.format_parse import ParseState
from shardy_py.syntax.known_ops import results_mismatch
from shardy_py.syntax.lexer_check import REGISTERED_DIALECTS


def parse_generic(p, cur, op: Operation, decl: OpDecl | None, name_at: int) -> None:
    """Read the generic form after the quoted op name (which starts at ``name_at``)."""
    cur.ws()
    at = cur.pos
    cur.expect("(", "'(' and the operands")
    names = cur.value_uses()
    cur.expect(")", "')' after the operands")
    if cur.peek("["):
        raise cur.error("successor blocks are not supported on this op")
    props: dict = {}
    if cur.peek("<{"):
        cur.pos += 1
        try:
            start, end = cur.balanced()
        except ParseError as unclosed:  # (an entry's type or literal read on as MLIR reads it: ``torn``)
            raise cur.torn(unclosed, torn.dictionary_error(p, cur.pos)) from None
        props = p.attr_dict(start, end)[0]
        cur.expect(">", "'>' closing the properties")
        if decl is not None:
            _check_property_conversion(p, op.name, decl, props, name_at)
    raws = []
    if cur.peek("(") and _brace_follows(cur):
        cur.expect("(")
        raws.append(cur.region())
        while cur.accept(","):
            raws.append(cur.region())
        cur.expect(")", "')' after the regions")
    d = cur.attr_dict()  # (a '{' there is a dictionary even where the scanner took it for a region)
    attributes, locs = d if d is not None else ({}, {})
    cur.expect(":", "':' and the function type")
    type_at = cur.ws()
    ins, outs = cur.function_type()
    if len(ins) != len(names):  # (MLIR: at the type, before the location and the text after the op)
        raise p.error(type_at, f"expected {len(names)} operand types but had {len(ins)}")
    op.location_text = cur.location()
    cur.finish()
    if decl is not None and decl.from_attrs is None:
        state = ParseState(decl)
        state.all_operands = names
        state.all_operand_types = ins
        state.all_result_types = outs
        state.all_regions = raws
        state.properties = props
        state.attributes = attributes
        state.attribute_locs = locs
        finish(p, cur, op, decl, state)
        return
    p.set_operands(op, names)
    op.operand_types = ins
    isolated = decl is not None and "IsolatedFromAbove" in decl.traits
    # a function's empty region ``({\n})`` is a declaration: it has no body
    declaration = decl is not None and "FunctionOpInterface" in decl.traits
    for raw in raws:  # (a generic op sets no default dialect: `return` in a generic func.func is no func op)
        if declaration and not raw.items:
            continue
        op.regions.append(p.build_region(raw, op, [], isolated=isolated))
    op.attributes = attributes
    op.attribute_locs = locs
    if decl is not None:  # (inherent attributes written in the dictionary are properties, as MLIR splits them)
        inherent = {k: attributes.pop(k) for k in list(attributes) if k in decl.attribute_names}
        decl.from_attrs(p, op, {**inherent, **props}, at, name_at, outs)
    else:  # an op of a dialect we do not model: its generic form says all there is
        op.properties = props
    nresults = sum(n for _, n in op.result_groups)
    if len(outs) != nresults:
        if nresults:
            raise p.error(p.offset_of(op.loc), results_mismatch(len(outs), nresults))
        op.result_groups = [("", len(outs))]  # results left unnamed
    p.make_results(op, op.result_groups, outs)


_DIALECT_ATTR = re.compile(r"#([A-Za-z_][\w$]*)[.<]")


def _check_property_conversion(p, op_name: str, decl: OpDecl, props: dict, name_at: int) -> None:
    """A StableHLO or CHLO op's declared property written ``<{...}>`` as an attribute of a dialect
    MLIR does not load (kept opaque) cannot become the property's attribute class: MLIR's
    "invalid properties ... Invalid attribute `NAME` in property conversion", at the op's name."""
    if op_name.partition(".")[0] not in ("stablehlo", "chlo"):
        return
    for key, value in props.items():
        if key not in decl.attribute_names or not isinstance(value, OpaqueAttr):
            continue
        m = _DIALECT_ATTR.match(value.text)
        if m is not None and m.group(1) not in REGISTERED_DIALECTS:
            entries = ", ".join(f"{k} = {v}" for k, v in sorted(props.items()))
            raise p.error(name_at, f"invalid properties {{{entries}}} for op {op_name}: Invalid attribute "
                                   f"`{key}` in property conversion: {value.text}")


def _brace_follows(cur) -> bool:
    save = cur.pos
    cur.pos += 1
    ok = cur.peek("{")
    cur.pos = save
    return ok
