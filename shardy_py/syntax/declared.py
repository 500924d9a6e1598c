"""Building a declared op (``dialects.registry``) from its custom form or its generic form.

Both forms fill the same ``ParseState``; ``finish`` then turns it into the op's operands (in
declaration order), operand types, results, properties and regions, so an op reads the same
whichever form it was written in.
"""
from __future__ import annotations

from shardy_py.dialects.registry import SINGLE, OpDecl
from shardy_py.errors import ParseError
from shardy_py.ir.ops import Operation, Value
from shardy_py.syntax.format import compiled_format
from shardy_py.syntax.format_parse import FormatParser, ParseState
from shardy_py.syntax.known_ops import results_mismatch


def parse_custom(p, cur, op: Operation, decl: OpDecl) -> None:
    """Read the op's custom form after its name (declarative format or hand-written parser)."""
    state = ParseState(decl)
    if decl.parse is None and decl.format is None:  # (MLIR says so at the op's name)
        name_at = p.text.find(decl.name, p.offset_of(op.loc))
        raise cur.error(f"'{decl.name}' has no custom form; write it in MLIR's generic form "
                        f"(\"{decl.name}\"(...) <{{...}}> : (...) -> ...)", name_at if name_at >= 0 else None)
    try:
        if decl.parse is not None:
            decl.parse(cur, state)
        else:
            FormatParser(compiled_format(decl), cur, state).run()
    except ParseError:
        if state.regions_first:  # (the region was read before the error: its own errors come first)
            _build_regions(p, op, decl, state)
        raise
    finish(p, cur, op, decl, state)  # (regions first: an error inside one comes before one after the op)
    op.location_text = cur.location()
    cur.finish()


def _group_order(decl_groups, state_groups: dict, everything) -> list:
    if everything is not None:
        return list(everything)
    out: list = []
    for d in decl_groups:
        out.extend(state_groups.get(d.name, []))
    return out


def finish(p, cur, op: Operation, decl: OpDecl, state: ParseState) -> None:
    """Give ``op`` what ``state`` read: operands, types, results, properties, regions."""
    names = _group_order(decl.operands, state.operands, state.all_operands)
    p.set_operands(op, names)
    if "AttrSizedOperandSegments" in decl.traits and state.all_operands is None:
        from shardy_py.ir.builtin_attrs import DenseArrayAttr

        state.properties.setdefault("operandSegmentSizes", DenseArrayAttr.of(
            "i32", [len(state.operands.get(d.name, [])) for d in decl.operands]))
    types = _group_order(decl.operands, state.operand_types, state.all_operand_types)
    spelled = len(types) == len(names)
    if not spelled:
        # types the format does not spell come from the values themselves
        types = [v.type if v is not None else None for v in op.operands]
    op.operand_types = types
    if state.attributes is not None:
        entries = dict(state.attributes)
        if decl.from_attrs is None:  # (properties kept otherwise than as attributes are written in their syntax)
            for key in decl.attribute_names & entries.keys():
                state.properties.setdefault(key, entries.pop(key))
        op.attributes = entries
        op.attribute_locs = state.attribute_locs
    op.properties.update(state.properties)
    for a in decl.attributes:
        if a.materialize and a.name not in op.properties:
            op.properties[a.name] = a.default
    if state.regions_first:
        _build_regions(p, op, decl, state)
    nresults = sum(n for _, n in op.result_groups)
    rtypes = _group_order(decl.results, state.result_types, state.all_result_types)
    fixed = len(decl.results) if all(r.kind == SINGLE for r in decl.results) else None
    if not rtypes and (nresults or fixed) and not op.generic_form:  # (the generic form spells every type)
        if decl.infer_results is not None:
            rtypes = list(decl.infer_results(op))
        elif "SameOperandsAndResultType" in decl.traits and types:
            rtypes = [types[0]] * (nresults or fixed)
    if not spelled and names and rtypes and "SameOperandsAndResultType" in decl.traits:
        # the operands have the result's type written (``sdy.reshard %0 <...> : T``): a use of a value
        # of another type, or a forward reference to one, is an error as MLIR's parser makes it
        op.operand_types = [rtypes[0]] * len(names)
    if len(rtypes) != nresults:
        if nresults:
            raise p.error(p.offset_of(op.loc), results_mismatch(len(rtypes), nresults))
        op.result_groups = [("", len(rtypes))] if rtypes else []  # results left unnamed
    if not state.regions_first:
        _build_regions(p, op, decl, state)
    if state.build_regions is not None:  # regions a custom syntax implies (``reduce ... applies``)
        op.regions.extend(state.build_regions(op))
    p.make_results(op, op.result_groups, rtypes)


def _build_regions(p, op: Operation, decl: OpDecl, state: ParseState) -> None:
    """Build the regions ``state`` read (their ops parsed) into ``op``."""
    raws = state.all_regions if state.all_regions is not None else [
        r for d in decl.regions for r in state.regions.get(d.name, [])]
    isolated = "IsolatedFromAbove" in decl.traits
    arg_lists = state.region_args or [[] for _ in raws]
    nested = decl.default_dialect == "func"  # (``return``, ``call`` without ``func.`` in its regions)
    if nested:
        p.func_depth += 1
    try:
        for raw, arg_specs in zip(raws, arg_lists, strict=False):
            args = []
            for i, (name, t, at, *rest) in enumerate(arg_specs):
                v = Value(name, t, None, i, p.loc(at), rest[1] if len(rest) > 1 else {})
                v.location_text = rest[0] if rest else None
                args.append(v)
            op.regions.append(p.build_region(raw, op, args, isolated=isolated))
    finally:
        if nested:
            p.func_depth -= 1
