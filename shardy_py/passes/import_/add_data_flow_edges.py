"""``-sdy-add-data-flow-edges`` (import/add_data_flow_edges.cc): an ``sdy.data_flow_edge`` for every
edge owner of every ``ShardableDataFlowOpInterface`` op (block-argument owners, then result owners),
carrying the owner's sharding."""
from __future__ import annotations

from shardy_py.passes import data_flow as df
from shardy_py.passes.registry import Pass, register


@register
class AddDataFlowEdgesPass(Pass):
    name = "sdy-add-data-flow-edges"
    summary = "Inserts `DataFlowEdgeOp` for every data-flow edge."

    def run(self, module, ctx) -> None:
        """Add the edges of every data-flow op (each op's edges sit next to it, so the order the ops
        are visited in does not change the result)."""
        added = 0
        for op in [op for op in module.walk() if df.is_data_flow_op(op)]:
            added += df.add_data_flow_edges(df.block_arg_owners(op))
            added += df.add_data_flow_edges(df.result_owners(op))
        if not added:
            ctx.mark_all_preserved()
