"""Manual computations in the XLA round-trip format, both ways.

XLA writes ``sdy.manual_computation`` as three ops and a function (``SdyRoundTripShardMapExport``)::

    %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%0) {has_side_effect = true,
           mhlo.frontend_attributes = {xla.sdy.in_shardings = "...", xla.sdy.manual_axes = "..."}}
    %2 = call @xla.sdy.manual_computation_body(%1) {mhlo.frontend_attributes = {inlineable = "false"}}
    %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) {has_side_effect = true,
           mhlo.frontend_attributes = {xla.sdy.manual_axes = "...", xla.sdy.out_shardings = "..."}}

with the body moved into ``func.func @xla.sdy.manual_computation_body(...)`` (a computation
without operands has no ``GlobalToLocalShape``, one without results no ``LocalToGlobalShape``).
Import inlines the body back; its values keep their names unless the enclosing function
already uses them.
"""
from __future__ import annotations

import re

from shardy_py.interop.xla_ops import (
    GLOBAL_TO_LOCAL_TARGET,
    IN_SHARDINGS_KEY,
    INLINEABLE_KEY,
    LOCAL_TO_GLOBAL_TARGET,
    MANUAL_AXES_KEY,
    MANUAL_BODY_NAME,
    OUT_SHARDINGS_KEY,
    NameSpace,
    Sites,
    callee,
    defined_names,
    fresh_symbol,
    func_type,
    make_op,
    rename_text,
    result_head,
    terminator,
    top_func,
    uses,
)
from shardy_py.interop.xla_strings import FRONTEND_ATTRS, XlaFormatError, encode_string, render_dict
from shardy_py.ir import attrs as A
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation
from shardy_py.ir.rewrite import erase_op, insert_before, insert_op, replace_op, value_users
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.printer import print_op

_BODY_INDENT = "  "
_TUPLE_INDEX = re.compile(r"\[(\d+)\]")


# ---- import ------------------------------------------------------------------------------

def import_manual_computations(module: Module, sites: Sites) -> None:
    """Turn every call of an ``@xla.sdy.manual_computation_body*`` function back into an
    ``sdy.manual_computation`` (outer ones first; nested ones then sit in the inlined bodies)."""
    while True:
        call = next((op for op in module.walk() if op.name == "func.call"
                     and MANUAL_BODY_NAME in (callee(op) or "")), None)
        if call is None:
            break
        _import_one(module, sites, call)
    for op in list(module.walk()):
        if op.name == "stablehlo.custom_call" and callee(op) in (GLOBAL_TO_LOCAL_TARGET, LOCAL_TO_GLOBAL_TARGET):
            func = top_func(op)
            if func is not None and not any(value_users(func).get(r) for r in op.results):
                erase_op(op)


def _import_one(module: Module, sites: Sites, call: Operation) -> None:
    call_site = sites.op(call)
    name = callee(call)
    body = module.funcs.get(name)
    if body is None or not body.regions:
        raise call_site.error(f"calls @{name}, which is not a function with a body in this module")
    func = top_func(call)
    users = value_users(func)
    if call.results and not any(users.get(r) for r in call.results):
        erase_op(call)  # every result had zero elements and was replaced by a constant
        erase_op(body)
        return
    global_to_local = _producer(call, GLOBAL_TO_LOCAL_TARGET)
    if call.operands and global_to_local is None:
        raise call_site.error(f"expected an operand of the call to @{name} to come from a "
                              f"@{GLOBAL_TO_LOCAL_TARGET} custom call")
    local_to_global, dead_tuples = None, []
    if call.results:
        for u in (u for r in call.results for u in users.get(r, [])):
            if callee(u) == LOCAL_TO_GLOBAL_TARGET:
                local_to_global = local_to_global or u
            elif u.name == "stablehlo.tuple" and not any(users.get(r) for r in u.results):
                if u not in dead_tuples:
                    dead_tuples.append(u)  # left by the HLO translation of a tuple-shaped call
            else:
                raise call_site.error(f"a result of the call to @{name} is used by '{u.name}'; expected only "
                                      f"a @{LOCAL_TO_GLOBAL_TARGET} custom call")
        if local_to_global is None:
            raise call_site.error(f"expected the results of the call to @{name} to go to a "
                                  f"@{LOCAL_TO_GLOBAL_TARGET} custom call")
    empty = A.TensorShardingPerValueAttr(())
    in_shardings, out_shardings, manual = empty, empty, None
    if global_to_local is not None:
        site = sites.op(global_to_local)
        in_shardings = _read(site, IN_SHARDINGS_KEY, A.TensorShardingPerValueAttr)
        manual = _read(site, MANUAL_AXES_KEY, A.ManualAxesAttr)
    if local_to_global is not None:
        site = sites.op(local_to_global)
        out_shardings = _read(site, OUT_SHARDINGS_KEY, A.TensorShardingPerValueAttr)
        manual = manual or _read(site, MANUAL_AXES_KEY, A.ManualAxesAttr)
    if manual is None and call_site.written is not None and MANUAL_AXES_KEY in call_site.entries():
        # Older XLA kept all three on the call.
        in_shardings = _read(call_site, IN_SHARDINGS_KEY, A.TensorShardingPerValueAttr)
        out_shardings = _read(call_site, OUT_SHARDINGS_KEY, A.TensorShardingPerValueAttr)
        manual = _read(call_site, MANUAL_AXES_KEY, A.ManualAxesAttr)
    operands = global_to_local.operands if global_to_local is not None else []
    operand_names = global_to_local.operand_names if global_to_local is not None else []
    operand_types = [v.type for v in operands]
    global_results = _untupled(local_to_global, users, call_site) if local_to_global is not None else []
    result_types = [r.type for r in global_results]
    text = _manual_computation_text(body, NameSpace(func), operand_names, operand_types, result_types,
                                    in_shardings, out_shardings, manual or A.ManualAxesAttr(()))
    new = make_op(text, list(operands), list(operand_names))
    replace_op(call, new, keep_results=False)
    for t in dead_tuples:
        erase_op(t)
    if local_to_global is not None:
        readers = _tuple_readers(local_to_global, users)
        _take_results(new, global_results)
        for op in readers:
            erase_op(op)
        erase_op(local_to_global)
    if global_to_local is not None:
        for op in _tuple_readers(global_to_local, users):
            erase_op(op)
        erase_op(global_to_local)
    erase_op(body)


def _untupled(op: Operation, users: dict, site) -> list:
    """The results of ``op``; for one tuple-typed result (HLO's way to return several), the
    results of the ``stablehlo.get_tuple_element`` ops reading it, in element order."""
    if len(op.results) != 1 or not str(op.results[0].type).startswith("tuple<"):
        return list(op.results)
    readers = _tuple_readers(op, users)
    by_index: dict[int, object] = {}
    for r in readers:
        declared = r.properties.get("index")  # the dialect registry parses the index as a property
        text = f"[{str(getattr(declared, 'text', declared)).split(':')[0].strip()}]" if declared is not None else ""
        m = _TUPLE_INDEX.search(text or "".join(p for p in r._pieces or () if isinstance(p, str)))
        if m is None or int(m.group(1)) in by_index:
            raise site.error(f"cannot tell which element of the tuple of @{callee(op)} '{r.name}' reads")
        by_index[int(m.group(1))] = r.results[0]
    if sorted(by_index) != list(range(len(by_index))):
        raise site.error(f"the tuple of @{callee(op)} is not read element by element")
    return [by_index[i] for i in range(len(by_index))]


def _tuple_readers(op: Operation, users: dict) -> list[Operation]:
    """The ``stablehlo.get_tuple_element`` ops reading the (single, tuple) result of ``op``."""
    if len(op.results) != 1:
        return []
    return [u for u in users.get(op.results[0], []) if u.name == "stablehlo.get_tuple_element"]


def _take_results(op: Operation, values: list) -> None:
    """Make ``values`` (results of other ops) the results of ``op``, under their names."""
    op.results = list(values)
    op.result_groups = []
    for i, v in enumerate(values):
        v.owner = op
        v.index = i
    if len(values) == 1 or all("#" not in v.name for v in values):
        op.result_groups = [(v.name, 1) for v in values]
    else:
        base = values[0].name.split("#", 1)[0]
        op.result_groups = [(base, len(values))]


def _producer(call: Operation, target: str) -> Operation | None:
    """The custom call ``target`` that produces an operand of ``call`` (the first such)."""
    for v in call.operands:
        owner = v.owner if v is not None else None
        if isinstance(owner, Operation) and owner.name == "stablehlo.get_tuple_element" and owner.operands:
            tuple_value = owner.operands[0]
            owner = tuple_value.owner if tuple_value is not None else None
        if isinstance(owner, Operation) and owner.name == "stablehlo.custom_call" and callee(owner) == target:
            return owner
    return None


def _read(site, key: str, expected):
    entry = site.entries().get(key)
    if entry is None:
        raise site.error(f"expected the frontend attribute {key}")
    return site.sdy(entry, key, expected)


def _manual_computation_text(body: Operation, names: NameSpace, operand_names: list[str], operand_types: list,
                             result_types: list, in_shardings: A.TensorShardingPerValueAttr,
                             out_shardings: A.TensorShardingPerValueAttr, manual: A.ManualAxesAttr) -> str:
    """``sdy.manual_computation`` holding the body of function ``body``, its names made unique in ``names``."""
    mapping = {n: names.keep_or_fresh(n) for n in defined_names(body)}
    block = body.regions[0].blocks[0]
    args = ", ".join(f"{mapping[a.name]}: {a.type}" for a in block.arguments)
    ret = terminator(body)
    lines = [print_op(op, _BODY_INDENT, debug_info=True) for op in block.ops if op is not ret]
    if ret is not None and ret.operand_names:
        lines.append(f"{_BODY_INDENT}sdy.return {', '.join(ret.operand_names)} : "
                     f"{', '.join(str(t) for t in ret.operand_types)}")
    else:
        lines.append(f"{_BODY_INDENT}sdy.return")
    inner = rename_text("\n".join(lines), mapping)
    head = result_head(["%result"] * len(result_types))
    return (f"{head}sdy.manual_computation({', '.join(operand_names)}) "
            f"in_shardings={P.sharding_list(in_shardings.shardings)} "
            f"out_shardings={P.sharding_list(out_shardings.shardings)} "
            f"manual_axes={P.manual_axes(manual)} ({args}) {{\n{inner}\n}} : "
            f"{func_type(operand_types, result_types)}")


# ---- export ------------------------------------------------------------------------------

def export_manual_computations(module: Module, sites: Sites) -> None:
    """Replace every ``sdy.manual_computation`` by XLA's custom calls, a call and a body function
    (inner ones first, so an outer body holds the calls of the inner ones)."""
    for op in reversed(list(module.walk())):
        if op.name == "sdy.manual_computation":
            _export_one(module, sites, op)


def _export_one(module: Module, sites: Sites, mc: Operation) -> None:
    func = top_func(mc)
    _check_closed(mc, sites)
    names = NameSpace(func)
    region_block = mc.regions[0].blocks[0]
    ret = region_block.ops[-1] if region_block.ops and region_block.ops[-1].name == "sdy.return" else None
    local_types = list(ret.operand_types) if ret is not None else []
    body_name = fresh_symbol(module, MANUAL_BODY_NAME)
    props = mc.properties
    axes_text = encode_string(str(props["manual_axes"]))
    operands, operand_names = list(mc.operands), list(mc.operand_names)
    call_args: list[str] = []
    if operands:
        local = names.fresh()
        g2l_frontend = render_dict({IN_SHARDINGS_KEY: encode_string(str(props["in_shardings"])),
                                    MANUAL_AXES_KEY: axes_text})
        region_types = [a.type for a in region_block.arguments]
        g2l = make_op(f"{result_head([local] * len(region_types))}stablehlo.custom_call "
                      f"@{GLOBAL_TO_LOCAL_TARGET}({', '.join(operand_names)}) {{has_side_effect = true, "
                      f"{FRONTEND_ATTRS} = {g2l_frontend}}} : {func_type(mc.operand_types, region_types)}",
                      operands, operand_names)
        insert_before(mc, g2l)
        call_args = uses(local, len(region_types))
        call_operands = list(g2l.results)
    else:
        call_operands = []
    call_result = names.fresh() if local_types else None
    call_frontend = {INLINEABLE_KEY: encode_string("false")}
    if not operands and not mc.results:
        # No custom call carries the manual axes: keep them on the call, where XLA's import
        # also looks (the place older XLA wrote all three).
        call_frontend.update({IN_SHARDINGS_KEY: encode_string(str(props["in_shardings"])),
                              MANUAL_AXES_KEY: axes_text,
                              OUT_SHARDINGS_KEY: encode_string(str(props["out_shardings"]))})
    call = make_op(f"{result_head([call_result] * len(local_types)) if call_result else ''}func.call "
                   f"@{body_name}({', '.join(call_args)}) {{{FRONTEND_ATTRS} = "
                   f"{render_dict(call_frontend)}}} : "
                   f"{func_type([a.type for a in region_block.arguments], local_types)}",
                   call_operands, call_args)
    insert_op(module.body, len(module.body.ops), make_op(_body_func_text(body_name, region_block, ret), [], []))
    if mc.results:
        insert_before(mc, call)
        l2g_frontend = render_dict({MANUAL_AXES_KEY: axes_text,
                                    OUT_SHARDINGS_KEY: encode_string(str(props["out_shardings"]))})
        call_uses = uses(call_result, len(local_types))
        l2g = make_op(f"{result_head(['%result'] * len(mc.results))}stablehlo.custom_call "
                      f"@{LOCAL_TO_GLOBAL_TARGET}({', '.join(call_uses)}) {{has_side_effect = true, "
                      f"{FRONTEND_ATTRS} = {l2g_frontend}}} : "
                      f"{func_type(local_types, [r.type for r in mc.results])}",
                      list(call.results), call_uses)
        replace_op(mc, l2g)
    else:
        replace_op(mc, call, keep_results=False)


def _body_func_text(name: str, block, ret: Operation | None) -> str:
    args = ", ".join(f"{a.name}: {a.type}" for a in block.arguments)
    outs = list(ret.operand_types) if ret is not None else []
    res = "" if not outs else " -> " + (str(outs[0]) if len(outs) == 1 else "(" + ", ".join(map(str, outs)) + ")")
    lines = [print_op(op, _BODY_INDENT, debug_info=True) for op in block.ops if op is not ret]
    if ret is not None and ret.operand_names:
        lines.append(f"{_BODY_INDENT}func.return {', '.join(ret.operand_names)} : {', '.join(map(str, outs))}")
    else:
        lines.append(f"{_BODY_INDENT}func.return")
    return f"func.func private @{encode_symbol(name)}({args}){res} {{\n" + "\n".join(lines) + "\n}"


def encode_symbol(name: str) -> str:
    """A symbol name as written after ``@`` (quoted when it is not a bare identifier)."""
    return P.symbol_ref(name)[1:]


def _check_closed(mc: Operation, sites: Sites) -> None:
    """The body may only use its own values: XLA moves it into a function of its own."""
    inside = set()
    for op in mc.walk():
        for region in op.regions:
            for block in region.blocks:
                inside.update(id(a) for a in block.arguments)
        if op is not mc:
            inside.update(id(r) for r in op.results)
    for op in mc.walk():
        if op is mc:
            continue
        for v, name in zip(op.operands, op.operand_names, strict=False):
            if v is not None and id(v) not in inside:
                loc = op.loc or mc.loc
                raise XlaFormatError(f"'{op.name}' in an sdy.manual_computation uses {name}, defined outside "
                                     "its body: XLA's round-trip format moves the body into a function of its "
                                     "own, so pass the value in as an operand", loc.line if loc else 1,
                                     loc.column if loc else 1, 0, sites.module.filename)
