"""``-sdy-propagate-to-func-results`` (export/propagate_to_func_results.cc): each function but the
main one takes, as the sharding of each result, the sharding of the value its ``func.return``
returns there (none when that value has none)."""
from __future__ import annotations

from shardy_py.passes.func_shardings import MissingMainFunc, main_func_or_error, set_result_sharding
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding


@register
class PropagateToFuncResultsPass(Pass):
    name = "sdy-propagate-to-func-results"
    summary = "Propagate shardings from the func terminator to func results."

    def run(self, module, ctx) -> None:
        try:
            main = main_func_or_error(module)
        except MissingMainFunc as e:
            ctx.error(None, str(e))
            return
        for func in [op for op in module.ops if op.name == "func.func"]:
            if func is main or not func.regions or not func.regions[0].blocks:
                continue
            block = func.regions[0].blocks[0]
            terminator = block.ops[-1] if block.ops else None
            if terminator is None or terminator.name != "func.return":
                continue
            for index, value in enumerate(terminator.operands):
                set_result_sharding(func, index, get_sharding(value))
