"""``-sdy-add-func-data-flow-edges`` (import/add_func_data_flow_edges.cc): an
``sdy.func_data_flow_edge`` of every static-shaped argument of each function but the main one (at
the start of its body), and of every static-shaped ``func.call`` result (after the call); each edge
takes the sharding of its input and all other uses of the input."""
from __future__ import annotations

from shardy_py.ir.attrs import TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import SymbolTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding


def main_func(module) -> Operation:
    """``getMainFuncOrDie(useSingleFunc=true)``: the only function of the module, else ``@main``
    (ValueError when there is none)."""
    funcs = [op for op in module.ops if op.name == "func.func"]
    if len(funcs) == 1:
        return funcs[0]
    return SymbolTable(module).lookup_func("main")


def _add_edge(builder: Builder, value: Value, loc) -> None:
    if not df.is_static_shaped(value.type):
        return
    edge = builder.create("sdy.func_data_flow_edge", [value], result_types=[value.type], loc=loc)
    value.replace_uses_with_if(edge.results[0], lambda use: use.op is not edge)
    sharding = get_sharding(value)
    if sharding is not None:
        df.set_attribute(edge, df.SHARDING, TensorShardingPerValueAttr((sharding,)))


@register
class AddFuncDataFlowEdgesPass(Pass):
    name = "sdy-add-func-data-flow-edges"
    summary = "Inserts `FuncDataFlowEdgeOp` for every func/call data-flow edge."

    def run(self, module, ctx) -> None:
        """Edges on non-main function arguments, then on call results.  A module of no function,
        or of several without ``@main``, is an error (the C++ aborts: ``Failed to lookup function:
        main``), at its first function if it has one."""
        try:
            main = main_func(module)
        except ValueError:
            first = next((op for op in module.ops if op.name == "func.func"), None)
            ctx.error(first, "a module of more than one function needs a @main function for Shardy's "
                             "propagation to start from (found none)" if first is not None else
                      "Shardy's propagation needs a function to start from (the module has none)")
            return
        for func in [op for op in module.walk() if op.name == "func.func"]:
            if func is main:
                continue
            block = func.regions[0].blocks[0]
            builder = Builder(block, 0)
            for arg in list(block.arguments):
                _add_edge(builder, arg, func.loc)
        for call in [op for op in module.walk() if op.name == "func.call"]:
            builder = Builder.after(call)
            for result in list(call.results):
                _add_edge(builder, result, call.loc)
