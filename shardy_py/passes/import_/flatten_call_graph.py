"""``-sdy-flatten-call-graph`` (import/flatten_call_graph.cc): every function is called at most
once; each further call calls a fresh recursive copy of its callee (``@foo_0``, ... with
``sdy.original_func_name``)."""
from __future__ import annotations

from shardy_py.passes.func_calls import SymbolTable, callee_of, clone_func_recursively, set_callee, walk_calls
from shardy_py.passes.registry import Pass, register


@register
class FlattenCallGraphPass(Pass):
    name = "sdy-flatten-call-graph"
    summary = "Flattens the call graph."

    def run(self, module, ctx) -> None:
        """Walk the calls in post-order of the call graph; the first call of a function keeps it,
        every later call gets a copy."""
        table = SymbolTable(module)
        called: set[str] = set()

        def process(call) -> None:
            func = table.lookup_func(callee_of(call))
            name = func.properties["sym_name"]
            if name not in called:
                called.add(name)
                return
            set_callee(call, table.insert(clone_func_recursively(func, table)))

        walk_calls(module, process)
