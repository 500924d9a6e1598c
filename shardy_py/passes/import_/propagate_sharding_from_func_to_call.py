"""``-sdy-propagate-sharding-from-func-to-call`` (import/propagate_sharding_from_func_to_call.cc):
a ``func.call`` without an ``sdy.sharding`` takes its callee's result shardings (fully open where a
result has none), when the callee has any on a non-maximal mesh."""
from __future__ import annotations

from shardy_py.passes.func_calls import (
    SHARDING,
    SymbolTable,
    callee_of,
    func_result_shardings,
    set_attribute,
    sharding_per_value,
)
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register


@register
class PropagateShardingFromFuncToCallPass(Pass):
    name = "sdy-propagate-sharding-from-func-to-call"
    summary = "Set call result shardings as the func result shardings, if empty."

    def run(self, module, ctx) -> None:
        """Give every unsharded call its callee's result shardings."""
        table = SymbolTable(module)
        mesh_of = MeshTable(module).mesh_of
        changed = False
        for call in [op for op in module.walk() if op.name == "func.call"]:
            func = table.lookup_func(callee_of(call))
            if sharding_per_value(call) is None:
                shardings = func_result_shardings(func, module, mesh_of)
                if shardings is not None:
                    set_attribute(call, SHARDING, shardings)
                    changed = True
        if not changed:
            ctx.mark_all_preserved()
