"""``func.func``'s hand-written syntax (MLIR's ``function_interface_impl::parseFunctionOp`` /
``printFunctionOp``) and its properties in the generic form.

``func.func [private] @name(%arg0: T {attrs} loc(...), ...) -> (R {attrs}, ...) attributes {...} {body}``;
a declaration has no body and may write its argument types alone.  The op keeps ``sym_name``,
``sym_visibility``, ``arg_types``, ``arg_attrs``, ``result_types``, ``res_attrs``, ``arg_locs``
(the written ``loc(...)`` of each argument) and ``res_locs``; the generic form writes
``function_type``, ``sym_name``, ``sym_visibility``, ``arg_attrs`` and ``res_attrs``.
"""
from __future__ import annotations

import re

from shardy_py.errors import ParseError
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Location, Operation
from shardy_py.ir.types import Type
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.fn_types import split_dict_array, split_function_type
from shardy_py.syntax.generic_props import GenericProperties, string_attr
from shardy_py.syntax.op_writer import attr_entries, functional_type

_VISIBILITY = re.compile(r"(?:private|public|nested)\b")
_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')


def parse_func(cur, state) -> None:
    """Read a ``func.func`` after its name into ``state`` (``syntax.format_parse.ParseState``)."""
    p = cur.p
    vis = cur.match(_VISIBILITY)
    props = state.properties
    if vis:
        props["sym_visibility"] = vis.group()
    m = cur.match(_SYMBOL)
    if not m:
        raise cur.error(f"expected the function name like @main, found {cur.found()}")
    name = m.group()[1:]
    props["sym_name"] = p.unquote_at(name, m.start() + 1) if name.startswith('"') else name
    cur.expect("(", "'(' and the arguments")
    args: list[tuple] = []
    arg_types: list[Type] = []
    arg_attrs: list[dict] = []
    arg_locs: list[str | None] = []
    locs: dict = {}
    named = cur.peek("%")
    if not cur.accept(")"):
        while True:
            at = cur.ws()
            if arg_types and named != cur.peek("%"):  # (MLIR: at the token, whose kind the arguments before set)
                raise cur.error("expected SSA identifier: the arguments before are named, found " + cur.found()
                                if named else "expected type instead of SSA identifier")
            if named:
                arg_name = cur.value_use()
                cur.expect(":", "':' and the argument type")
            t = cur.type()
            d = cur.attr_dict()
            attrs_ = d[0] if d else {}
            arg_locs.append(cur.location())
            if named:
                if d:
                    locs.update({f"arg{len(args)}.{k}": loc for k, loc in d[1].items()})
                args.append((arg_name, t, at, None, attrs_))
            arg_types.append(t)
            arg_attrs.append(attrs_)
            if not cur.accept(","):
                break
        cur.expect(")")
    res_types: list[Type] = []
    res_attrs: list[dict] = []
    res_locs: list[Location] = []
    if cur.accept("->"):
        if cur.peek("(") and not _looks_like_function_type(cur):
            cur.expect("(")
            if not cur.accept(")"):
                while True:
                    res_locs.append(p.loc(cur.ws()))
                    res_types.append(cur.type())
                    d = cur.attr_dict()
                    res_attrs.append(d[0] if d else {})
                    if d:
                        locs.update({f"res{len(res_types) - 1}.{k}": loc for k, loc in d[1].items()})
                    cur.location()
                    if not cur.accept(","):
                        break
                cur.expect(")")
        else:
            res_locs.append(p.loc(cur.ws()))
            res_types.append(cur.type())
            res_attrs.append({})
    attributes: dict = {}
    if cur.keyword("attributes"):
        d = cur.attr_dict()
        if d is None:
            raise cur.error("expected '{' after 'attributes'")
        attributes = d[0]
        locs.update(d[1])
    state.attributes, state.attribute_locs = attributes, locs
    props.update(arg_types=arg_types, arg_attrs=arg_attrs, result_types=res_types,
                 res_attrs=res_attrs, res_locs=res_locs, arg_locs=arg_locs)
    state.all_operands = []
    if cur.at_brace():
        if arg_types and not named:
            raise cur.error("a function with a body needs named arguments (%arg0: type, ...)")
        brace = cur.pos
        raw = cur.region()
        if not raw.items and not args and p.scanner.unclosed is None:  # (an unclosed body: that error first)
            raise cur.error("expected a non-empty function body", brace)  # (with arguments: an empty block)
        state.regions["body"] = [raw]
        state.region_args = [args]
    # (a declaration may name its arguments: MLIR reads and drops the names)


def _looks_like_function_type(cur) -> bool:
    """``-> (T) -> U`` would be a function-typed single result; rare, but keep it whole."""
    save = cur.pos
    try:
        cur.balanced()
        return cur.peek("->")
    except ParseError:
        return False
    finally:
        cur.pos = save


def print_func(out, op: Operation) -> None:
    """Write a ``func.func`` after its name onto ``out`` (``syntax.op_writer.OpWriter``)."""
    pr = out.pr
    props = op.properties_view
    head = " "
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
    out.write(head)
    if op.regions:
        out.write(" ")
        out.region(op.regions[0], entry_args=False)


# -- the generic form ------------------------------------------------------------------------------

def _dicts(ds: list[dict]) -> A.OpaqueAttr | None:
    if not any(ds):
        return None
    return A.OpaqueAttr("[" + ", ".join("{" + attr_entries(d) + "}" for d in ds) + "]")


def func_as_attrs(op: Operation) -> dict[str, A.Attr]:
    """``func.func``'s properties as its generic form writes them."""
    p = op.properties_view
    out = {"function_type": A.OpaqueAttr(functional_type(p["arg_types"], p["result_types"])),
           "sym_name": string_attr(p["sym_name"])}
    if p.get("sym_visibility"):
        out["sym_visibility"] = string_attr(p["sym_visibility"])
    args = op.regions[0].blocks[0].arguments if op.regions else None
    arg_attrs = [dict(a.attributes) for a in args] if args is not None else p["arg_attrs"]
    for key, ds in (("arg_attrs", arg_attrs), ("res_attrs", p["res_attrs"])):
        d = _dicts(ds)
        if d is not None:
            out[key] = d
    return out


def func_from_attrs(p, op: Operation, props: dict[str, A.Attr], offset: int, name_at: int,
                    result_types: list = ()) -> None:
    """Give a ``func.func`` read in generic form the properties its custom syntax would give."""
    g = GenericProperties(p, op, props, offset)
    pr = op.properties
    pr["sym_name"] = g.plain_string("sym_name")
    if "sym_visibility" in props:
        pr["sym_visibility"] = g.plain_string("sym_visibility")
    ft = props.get("function_type")
    if ft is None:
        raise g.error("'func.func' needs the property 'function_type'")
    try:
        ins, outs = split_function_type(str(ft))
    except ValueError as e:
        raise ParseError(str(e), *p.lines.locate(offset), offset, p.filename) from None
    pr["arg_types"] = [Type(t) if not isinstance(t, Type) else t for t in ins]
    pr["result_types"] = list(outs)
    arg_attrs = _split_dicts(p, props.get("arg_attrs"), len(ins))
    pr["arg_attrs"] = arg_attrs
    pr["res_attrs"] = _split_dicts(p, props.get("res_attrs"), len(outs))
    pr["res_locs"] = []
    pr["arg_locs"] = [None] * len(ins)
    if op.regions:
        for v, d in zip(op.regions[0].blocks[0].arguments, arg_attrs, strict=False):
            v.attributes = d


def _split_dicts(p, attr, n: int) -> list[dict]:
    if attr is None:
        return [{} for _ in range(n)]
    return split_dict_array(p, str(attr), n)
