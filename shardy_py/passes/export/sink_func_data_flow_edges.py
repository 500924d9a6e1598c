"""``-sdy-sink-func-data-flow-edges`` (export/sink_func_data_flow_edges.cc): move the sharding of
every ``sdy.func_data_flow_edge`` onto its input (fully open like the input's own sharding when the
edge has none) and replace the edge by its input."""
from __future__ import annotations

from shardy_py.ir.edit import replace_op
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import fully_open_like, get_sharding, set_sharding


@register
class SinkFuncDataFlowEdgesPass(Pass):
    name = "sdy-sink-func-data-flow-edges"
    summary = "Sinks all `FuncDataFlowEdgeOp` into their input."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Sink each ``sdy.func_data_flow_edge`` of ``func`` in pre-order."""
        edges = [op for op in func.walk() if op.name == "sdy.func_data_flow_edge"]
        if not edges:
            ctx.mark_all_preserved()
        for op in edges:
            operand, result = op.operands[0], op.results[0]
            operand_sharding = get_sharding(operand)
            sharding = get_sharding(result)
            if sharding is not None:
                set_sharding(operand, sharding)
            elif operand_sharding is not None:
                set_sharding(operand, fully_open_like(operand.type, operand_sharding.mesh_or_ref))
            replace_op(op, [operand])
