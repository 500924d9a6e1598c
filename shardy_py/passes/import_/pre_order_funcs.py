"""``-sdy-pre-order-funcs`` (import/pre_order_funcs.cc): move the defined functions to the end of
the module in pre-order of the call graph (callers before callees)."""
from __future__ import annotations

from shardy_py.passes.func_calls import funcs_in_call_graph_order
from shardy_py.passes.registry import Pass, register


@register
class PreOrderFuncsPass(Pass):
    name = "sdy-pre-order-funcs"
    summary = "Reorders functions in the module in pre-order of the call graph."

    def run(self, module, ctx) -> None:
        """Move each function, in call-graph pre-order, to the end of the module body."""
        from shardy_py.ir.edit import detach, insert

        body = module.body
        for func in funcs_in_call_graph_order(module, pre_order=True):
            insert(body, len(body.ops), detach(func))
