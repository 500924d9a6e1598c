"""Manual computations in the XLA round-trip format, both ways.

XLA writes ``sdy.manual_computation`` as three ops and a function (``SdyRoundTripShardMapExport``)::

    %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%0) {has_side_effect = true,
           mhlo.frontend_attributes = {xla.sdy.in_shardings = "...", xla.sdy.manual_axes = "..."}}
    %2 = call @xla.sdy.manual_computation_body(%1) {mhlo.frontend_attributes = {inlineable = "false"}}
    %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) {has_side_effect = true,
           mhlo.frontend_attributes = {xla.sdy.manual_axes = "...", xla.sdy.out_shardings = "..."}}

with the body moved into ``func.func @xla.sdy.manual_computation_body(...)`` (a computation
without operands has no ``GlobalToLocalShape``, one without results no ``LocalToGlobalShape``).
Both ways move the body's block whole (its values and their uses stay as they are); the ops
around it are made with the builder.
"""
from __future__ import annotations

from shardy_py.interop.xla_ops import (
    GLOBAL_TO_LOCAL_TARGET,
    IN_SHARDINGS_KEY,
    INLINEABLE_KEY,
    LOCAL_TO_GLOBAL_TARGET,
    MANUAL_AXES_KEY,
    MANUAL_BODY_NAME,
    OUT_SHARDINGS_KEY,
    Sites,
    callee,
    custom_call,
    fresh_symbol,
    func_call,
    new_func,
    take_block,
    top_func,
)
from shardy_py.interop.xla_strings import FRONTEND_ATTRS, XlaFormatError, encode_string, render_dict
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import insert, replace_op
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation
from shardy_py.syntax import attr_printer as P

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
            if top_func(op) is not None and not any(r.uses for r in op.results):
                op.erase()


def _import_one(module: Module, sites: Sites, call: Operation) -> None:
    call_site = sites.op(call)
    name = callee(call)
    body = module.funcs.get(name)
    if body is None or not body.regions:
        raise call_site.error(f"calls @{name}, which is not a function with a body in this module")
    if call.results and not any(r.uses for r in call.results):
        call.erase()  # every result had zero elements and was replaced by a constant
        body.erase()
        return
    global_to_local = _producer(call, GLOBAL_TO_LOCAL_TARGET)
    if call.operands and global_to_local is None:
        raise call_site.error(f"expected an operand of the call to @{name} to come from a "
                              f"@{GLOBAL_TO_LOCAL_TARGET} custom call")
    local_to_global, dead_tuples = None, []
    if call.results:
        for u in (u for r in call.results for u in r.users):
            if callee(u) == LOCAL_TO_GLOBAL_TARGET:
                local_to_global = local_to_global or u
            elif u.name == "stablehlo.tuple" and not any(r.uses for r in u.results):
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
    operands = list(global_to_local.operands) if global_to_local is not None else []
    global_results = _untupled(local_to_global, call_site) if local_to_global is not None else []
    mc = Builder.before(call).create(
        "sdy.manual_computation", operands, result_types=[r.type for r in global_results], regions=1,
        properties={"in_shardings": in_shardings, "out_shardings": out_shardings,
                    "manual_axes": manual or A.ManualAxesAttr(())})
    block = take_block(body.regions[0], mc.regions[0])
    for arg in block.arguments:
        arg.attributes = {}
    _retarget_terminator(block, "func.return", "sdy.return")
    for old, new in zip(global_results, mc.results, strict=True):
        old.replace_all_uses_with(new)
    if local_to_global is not None:
        for op in _tuple_readers(local_to_global):
            op.erase()
        local_to_global.erase()
    for t in dead_tuples:
        t.erase()
    call.erase()
    if global_to_local is not None:
        for op in _tuple_readers(global_to_local):
            op.erase()
        global_to_local.erase()
    body.erase()


def _retarget_terminator(block: Block, old_name: str, new_name: str) -> None:
    """Replace the ``old_name`` terminator of ``block`` by a ``new_name`` op returning the same values
    (a block without one gets a ``new_name`` op without operands)."""
    ret = block.ops[-1] if block.ops and block.ops[-1].name == old_name else None
    b = Builder.before(ret) if ret is not None else Builder.at_end(block)
    new = b.create(new_name, ret.operands if ret is not None else (), result_types=())
    if ret is not None:
        new.attributes = dict(ret.attributes)
        new.loc, new.location_text = ret.loc, ret.location_text
        ret.erase()


def _untupled(op: Operation, site) -> list:
    """The results of ``op``; for one tuple-typed result (HLO's way to return several), the
    results of the ``stablehlo.get_tuple_element`` ops reading it, in element order."""
    if len(op.results) != 1 or not str(op.results[0].type).startswith("tuple<"):
        return list(op.results)
    by_index: dict[int, object] = {}
    for r in _tuple_readers(op):
        index = _tuple_index(r)
        if index is None or index in by_index:
            raise site.error(f"cannot tell which element of the tuple of @{callee(op)} '{r.name}' reads")
        by_index[index] = r.results[0]
    if sorted(by_index) != list(range(len(by_index))):
        raise site.error(f"the tuple of @{callee(op)} is not read element by element")
    return [by_index[i] for i in range(len(by_index))]


def _tuple_readers(op: Operation) -> list[Operation]:
    """The ``stablehlo.get_tuple_element`` ops reading the (single, tuple) result of ``op``."""
    if len(op.results) != 1:
        return []
    return [u for u in op.results[0].users if u.name == "stablehlo.get_tuple_element"]


def _tuple_index(op: Operation) -> int | None:
    """The element a ``stablehlo.get_tuple_element`` reads (its ``index`` property)."""
    index = op.properties.get("index")
    if index is None:
        return None
    text = str(getattr(index, "text", index)).split(":", 1)[0].strip()
    return int(text) if text.lstrip("-").isdigit() else None


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


# ---- export ------------------------------------------------------------------------------

def export_manual_computations(module: Module, sites: Sites) -> None:
    """Replace every ``sdy.manual_computation`` by XLA's custom calls, a call and a body function
    (inner ones first, so an outer body holds the calls of the inner ones)."""
    for op in reversed(list(module.walk())):
        if op.name == "sdy.manual_computation":
            _export_one(module, sites, op)


def _export_one(module: Module, sites: Sites, mc: Operation) -> None:
    _check_closed(mc, sites)
    region_block = mc.regions[0].blocks[0]
    ret = region_block.ops[-1] if region_block.ops and region_block.ops[-1].name == "sdy.return" else None
    local_types = list(ret.operand_types) if ret is not None else []
    region_types = [a.type for a in region_block.arguments]
    body_name = fresh_symbol(module, MANUAL_BODY_NAME)
    props = mc.properties
    axes_text = encode_string(str(props["manual_axes"]))
    b = Builder.before(mc)
    call_operands = []
    if mc.operands:
        g2l = custom_call(b, GLOBAL_TO_LOCAL_TARGET, mc.operands, region_types, side_effect=True,
                          frontend={IN_SHARDINGS_KEY: encode_string(str(props["in_shardings"])),
                                    MANUAL_AXES_KEY: axes_text})
        call_operands = list(g2l.results)
    call_frontend = {INLINEABLE_KEY: encode_string("false")}
    if not mc.operands and not mc.results:
        # No custom call carries the manual axes: keep them on the call, where XLA's import
        # also looks (the place older XLA wrote all three).
        call_frontend.update({IN_SHARDINGS_KEY: encode_string(str(props["in_shardings"])),
                              MANUAL_AXES_KEY: axes_text,
                              OUT_SHARDINGS_KEY: encode_string(str(props["out_shardings"]))})
    call = func_call(b, body_name, call_operands, local_types,
                     attributes={FRONTEND_ATTRS: A.OpaqueAttr(render_dict(call_frontend))})
    body = new_func(body_name, region_types, local_types, visibility="private")
    take_block(mc.regions[0], body.regions[0])
    _retarget_terminator(region_block, "sdy.return", "func.return")
    insert(module.body, len(module.body.ops), body)
    if mc.results:
        l2g = custom_call(b, LOCAL_TO_GLOBAL_TARGET, call.results, [r.type for r in mc.results], side_effect=True,
                          frontend={MANUAL_AXES_KEY: axes_text,
                                    OUT_SHARDINGS_KEY: encode_string(str(props["out_shardings"]))})
        replace_op(mc, l2g.results)
    else:
        mc.erase()


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
