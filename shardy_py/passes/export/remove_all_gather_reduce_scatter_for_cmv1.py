"""``-sdy-remove-all-gather-reduce-scatter-for-cmv1`` (export/remove_ag_rs_for_cmv1.cc), for
collective matmul V1: an ``sdy.all_gather`` used only by a ``stablehlo.dot`` / ``dot_general``
operand is replaced by its input; a dot without such an operand whose only user is an
``sdy.reduce_scatter`` (and whose result has no unreduced axes) takes the reduce-scatter's sharding,
and the reduce-scatter is replaced by the dot's result."""
from __future__ import annotations

from shardy_py.ir.attrs import TensorShardingPerValueAttr
from shardy_py.ir.edit import replace_op
from shardy_py.ir.ops import Block, Operation
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes import data_flow as df
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding

DOT_OPS = ("stablehlo.dot", "stablehlo.dot_general")


def _defining(value, name: str) -> Operation | None:
    owner = value.owner if value is not None else None
    return owner if owner is not None and not isinstance(owner, Block) and owner.name == name else None


@register
class RemoveAllGatherReduceScatterForCMV1Pass(Pass):
    name = "sdy-remove-all-gather-reduce-scatter-for-cmv1"
    summary = "Removes sdy.all_gather and sdy.reduce_scatter for CMV1."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Collect the collectives in one walk, then replace each by its operand."""
        to_replace: list[Operation] = []
        for dot in list(walk_post_order(func)):
            if dot.name not in DOT_OPS:
                continue
            gathered = False
            for operand in dot.operands:
                gather = _defining(operand, "sdy.all_gather")
                if gather is not None and len(gather.results[0].uses) == 1:
                    to_replace.append(gather)
                    gathered = True
            if gathered:
                continue  # a dot fed by an all-gather keeps the reduce-scatter of its result
            uses = [use for result in dot.results for use in result.uses]
            if len(uses) != 1 or uses[0].op.name != "sdy.reduce_scatter":
                continue
            scatter = uses[0].op
            sharding = get_sharding(dot.results[0])
            # The C++ reads the unreduced axes of the dot's sharding unchecked; none counts as none.
            if sharding is not None and sharding.unreduced_axes:
                continue
            df.set_attribute(dot, df.SHARDING, TensorShardingPerValueAttr((get_sharding(scatter.results[0]),)))
            to_replace.append(scatter)
        for op in to_replace:
            replace_op(op, [op.operands[0]])
        if not to_replace:
            ctx.mark_all_preserved()
