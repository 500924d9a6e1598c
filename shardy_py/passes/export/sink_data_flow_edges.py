"""``-sdy-sink-data-flow-edges`` (export/sink_data_flow_edges.cc): move the sharding of every
``sdy.data_flow_edge`` onto its data-flow op (its edge owner) and replace the edge by its input;
optionally gather the edges' debug info (sharding origins, propagation edges) onto the op."""
from __future__ import annotations

from shardy_py.ir.attrs import OpaqueAttr, PropagationEdgesAttr
from shardy_py.ir.builtin_attrs import ArrayAttr, DictionaryAttr
from shardy_py.ir.edit import replace_op
from shardy_py.passes.data_flow import (
    block_arg_owners,
    is_data_flow_op,
    lookup_data_flow_edge,
    result_owners,
    set_attribute,
    set_block_arg_owner_shardings,
    set_result_owner_shardings,
    shardings_from_data_flow_edges,
)
from shardy_py.passes.registry import Pass, PassOption, register


def save_debug_info(owners, op, origins: bool, edges: bool, operand: bool) -> None:
    """``saveDebugInfoDictsFromDataFlowEdges``: the owners' edges' ``sdy.sharding_origins`` dicts and
    ``sdy.propagation_edges`` as arrays on ``op`` (``sdy.block_arg_*`` or ``sdy.result_*``), one entry per
    edge as jaxlib 0.12 writes them (``{}`` / ``#sdy.propagation_edges<[]>`` for an edge without any)."""
    if not origins and not edges:
        return
    origin_dicts, edge_lists = [], []
    for owner in owners:
        edge = lookup_data_flow_edge(owner)
        if edge is None:
            continue
        if origins:
            d = edge.attributes.get("sdy.sharding_origins")
            if isinstance(d, OpaqueAttr) and d.text.startswith("{"):
                origin_dicts.append(d.text)
            elif isinstance(d, DictionaryAttr):
                origin_dicts.append(str(d))
            else:
                origin_dicts.append("{}")  # jaxlib 0.12: one entry per edge, {} for an edge without origins
        if edges:
            e = edge.attributes.get("sdy.propagation_edges")
            # jaxlib 0.12: one entry per edge, #sdy.propagation_edges<[]> for an edge without edges (an
            # attribute MLIR prints but cannot read back; built here, as there, never parsed)
            edge_lists.append(e if isinstance(e, PropagationEdgesAttr) else PropagationEdgesAttr(()))
    prefix = "sdy.block_arg_" if operand else "sdy.result_"
    if origins:
        set_attribute(op, prefix + "sharding_origins", OpaqueAttr("[" + ", ".join(origin_dicts) + "]"))
    if edges:
        set_attribute(op, prefix + "propagation_edges", ArrayAttr(edge_lists))


@register
class SinkDataFlowEdgesPass(Pass):
    name = "sdy-sink-data-flow-edges"
    summary = "Sinks all `DataFlowEdgeOp` into their input."
    anchor = "func.func"
    options = (
        PassOption("sink-debug-sharding-origins", bool, False,
                   "Whether to sink the debug sharding origins info."),
        PassOption("sink-debug-propagation-edge-sharding", bool, False,
                   "Whether to sink the debug propagation edge sharding info."),
    )

    def run(self, func, ctx) -> None:
        """Walk ``func`` in pre-order: each data-flow op takes its edges' shardings before the
        edges (always after it) are replaced by their inputs."""
        origins = self.option("sink-debug-sharding-origins")
        edges = self.option("sink-debug-propagation-edge-sharding")
        ops = list(func.walk())
        debug_info = origins or edges  # (set on every data-flow op, with or without edges)
        if not any(op.name == "sdy.data_flow_edge" or (debug_info and is_data_flow_op(op)) for op in ops):
            ctx.mark_all_preserved()  # no edge to sink, no debug info to save: nothing would change
            return
        for op in ops:
            if op.name == "sdy.data_flow_edge":
                replace_op(op, [op.operands[0]])
                continue
            if not is_data_flow_op(op):
                continue
            args = block_arg_owners(op)
            shardings = shardings_from_data_flow_edges(args)
            if shardings:
                set_block_arg_owner_shardings(op, shardings)
            save_debug_info(args, op, origins, edges, operand=True)
            results = result_owners(op)
            shardings = shardings_from_data_flow_edges(results)
            if shardings:
                set_result_owner_shardings(op, shardings)
            save_debug_info(results, op, origins, edges, operand=False)
