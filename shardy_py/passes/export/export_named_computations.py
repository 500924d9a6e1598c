"""``-sdy-export-named-computations`` (export/export_named_computations.cc): every
``sdy.named_computation`` (inner ones first) becomes a ``func.call`` of a new private function
named after it (``name_N`` when the name is taken) holding its body.

The computation first takes the shardings of its data-flow edges; the function's arguments get
its in-shardings, the call its out-shardings and discardable attributes (but
``execution_thread``, which goes to the function, as does ``sdy.original_func_name``).  The
data-flow edges on the function's arguments and, at the end, on the calls' results are removed."""
from __future__ import annotations

from shardy_py.ir.attrs import OpaqueAttr, TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op, replace_op_with
from shardy_py.ir.ops import Operation, Region, Value
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import EXECUTION_THREAD, ORIGINAL_FUNC_NAME, SymbolTable, _string, _written
from shardy_py.passes.registry import Pass, register


def remove_data_flow_edges(values: list[Value]) -> None:
    """``removeDataFlowEdges``: each value's data-flow edge (its first user, if any) replaced by
    the value."""
    for value in values:
        uses = value.uses
        if uses and uses[0].op.name == "sdy.data_flow_edge":
            edge = uses[0].op
            replace_op(edge, [edge.operands[0]])


def _move_body(src: Region, dst: Region) -> None:
    """``takeBody`` then each block's terminator recreated as a ``func.return`` at its end."""
    dst.blocks = list(src.blocks)
    src.blocks = []
    for block in dst.blocks:
        block.parent = dst
        old = block.ops[-1]
        new = Builder.at_end(block).create("func.return", list(old.operands), result_types=[], loc=old.loc)
        new.location_text = old.location_text
        old.erase()


def create_func(named: Operation, table: SymbolTable, in_shardings) -> str:
    """``createFuncOp``: the private function holding ``named``'s body, inserted at the end of the
    module; its (possibly uniqued) name."""
    body = named.regions[0]
    arg_types = [a.type for a in body.blocks[0].arguments]
    result_types = [r.type for r in named.results]
    func = Builder().create(
        "func.func", [], result_types=[], regions=1, loc=named.loc,
        properties={"sym_visibility": "private", "sym_name": named.properties_view["name"],
                    "arg_types": arg_types, "arg_attrs": [{} for _ in arg_types], "result_types": result_types,
                    "res_attrs": [{} for _ in result_types], "arg_locs": [None] * len(arg_types)},
        attributes={ORIGINAL_FUNC_NAME: OpaqueAttr(_string(named.properties_view["name"]))})
    func.location_text = named.location_text
    func.regions[0].blocks = []
    _move_body(body, func.regions[0])
    args = func.regions[0].blocks[0].arguments
    remove_data_flow_edges(args)
    if isinstance(in_shardings, TensorShardingPerValueAttr):
        for arg, sharding in zip(args, in_shardings.shardings, strict=False):
            arg.attributes = dict(sorted({**arg.attributes, df.SHARDING: sharding}.items()))
    thread = named.attributes_view.get(EXECUTION_THREAD)
    if thread is not None:
        df.set_attribute(func, EXECUTION_THREAD, thread)
    return table.insert(func)


def export_named_computation(named: Operation, table: SymbolTable, call_results: list[Value]) -> None:
    """Replace one named computation by a call of its new function."""
    shardings = df.shardings_from_data_flow_edges(df.block_arg_owners(named))
    if shardings:
        df.set_property(named, "in_shardings", TensorShardingPerValueAttr(tuple(shardings)))
    shardings = df.shardings_from_data_flow_edges(df.result_owners(named))
    if shardings:
        df.set_property(named, "out_shardings", TensorShardingPerValueAttr(tuple(shardings)))
    in_shardings = named.properties_view.get("in_shardings")
    out_shardings = named.properties_view.get("out_shardings")
    name = create_func(named, table, in_shardings)
    attributes = {k: v for k, v in named.attributes_view.items() if k != EXECUTION_THREAD}
    if isinstance(out_shardings, TensorShardingPerValueAttr):
        attributes[df.SHARDING] = out_shardings
    call = Builder().create("func.call", list(named.operands), result_types=[r.type for r in named.results],
                            properties={"callee": OpaqueAttr("@" + _written(name))},
                            attributes=dict(sorted(attributes.items())), loc=named.loc)
    call.location_text = named.location_text
    replace_op_with(named, call)
    call_results.extend(call.results)


@register
class ExportNamedComputationsPass(Pass):
    name = "sdy-export-named-computations"
    summary = "Outline calls from `NamedComputationOp`."

    def run(self, module, ctx) -> None:
        table = SymbolTable(module)
        call_results: list[Value] = []
        named = [op for op in list(walk_post_order(module.op)) if op.name == "sdy.named_computation"]
        for op in named:
            export_named_computation(op, table, call_results)
        remove_data_flow_edges(call_results)
        if not named:
            ctx.mark_all_preserved()
