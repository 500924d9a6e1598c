"""``-sdy-add-data-flow-edges`` (import/add_data_flow_edges.cc): an ``sdy.data_flow_edge`` for every
edge owner of every ``ShardableDataFlowOpInterface`` op (block-argument owners, then result owners),
carrying the owner's sharding."""
from __future__ import annotations

from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Block, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding


def add_data_flow_edges(owners: list[Value]) -> int:
    """``addDataFlowEdges``: after each static-shaped owner (at the start of the block for an
    argument) an ``sdy.data_flow_edge`` of it, carrying its sharding, that all its other uses now
    use.  Returns how many edges it added."""
    added = 0
    for owner in reversed(owners):
        if not df.is_static_shaped(owner.type):
            continue
        added += 1
        if isinstance(owner.owner, Block):
            builder = Builder(owner.owner, 0)
        else:
            builder = Builder.after(owner.owner)
        sharding = get_sharding(owner)
        edge = builder.create("sdy.data_flow_edge", [owner], result_types=[owner.type],
                              properties={"sharding": sharding} if sharding is not None else {})
        new = edge.results[0]
        owner.replace_uses_with_if(new, lambda use, edge=edge: use.op is not edge)
    return added


@register
class AddDataFlowEdgesPass(Pass):
    name = "sdy-add-data-flow-edges"
    summary = "Inserts `DataFlowEdgeOp` for every data-flow edge."

    def run(self, module, ctx) -> None:
        """Add the edges of every data-flow op (each op's edges sit next to it, so the order the ops
        are visited in does not change the result)."""
        added = 0
        for op in [op for op in module.walk() if df.is_data_flow_op(op)]:
            added += add_data_flow_edges(df.block_arg_owners(op))
            added += add_data_flow_edges(df.result_owners(op))
        if not added:
            ctx.mark_all_preserved()
