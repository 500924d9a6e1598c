"""``-sdy-propagate-to-func-results`` (export/propagate_to_func_results.cc): each function but the
main one takes, as the sharding of each result, the sharding of the value its ``func.return``
returns there (none when that value has none).

The main function (jaxlib 0.12; Shardy at the test files' commit skips it): a result without a
sharding takes the returned value's, when it has one (an open one as it is); a result that has a
sharding keeps it.  So the propagation pipeline gives ``@main``'s results the shardings
propagation found for the values they return, ``<@mesh, [{}]>`` from a closed empty sharding too.
A maximal (single-device) sharding of the returned value counts as none, in every function
(jaxlib 0.12: never copied to a result; another function's result sharding is removed)."""
from __future__ import annotations

from shardy_py.passes.func_calls import result_sharding
from shardy_py.passes.func_shardings import MissingMainFunc, main_func_or_error, set_result_sharding
from shardy_py.passes.meshes import MeshTable
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
        table = MeshTable(module)

        def returned_sharding(value):
            sharding = get_sharding(value)
            mesh = table.mesh_of(sharding) if sharding is not None else None
            return None if mesh is not None and mesh.is_maximal else sharding

        for func in [op for op in module.ops if op.name == "func.func"]:
            if not func.regions or not func.regions[0].blocks:
                continue
            block = func.regions[0].blocks[0]
            terminator = block.ops[-1] if block.ops else None
            if terminator is None or terminator.name != "func.return":
                continue
            for index, value in enumerate(terminator.operands):
                if func is not main:
                    set_result_sharding(func, index, returned_sharding(value))
                elif result_sharding(func, index) is None and (sharding := returned_sharding(value)) is not None:
                    set_result_sharding(func, index, sharding)
