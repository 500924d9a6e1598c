"""``-sdy-sharding-constraint-to-reshard`` (export/sharding_constraint_to_reshard.cc): every
``sdy.sharding_constraint`` becomes an ``sdy.reshard`` of the same input to the same sharding,
keeping the constraint's discardable attributes and location."""
from __future__ import annotations

from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op_with
from shardy_py.passes.registry import Pass, register


@register
class ShardingConstraintToReshardPass(Pass):
    name = "sdy-sharding-constraint-to-reshard"
    summary = "Converts ShardingConstraintOp into ReshardOp."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        constraints = [op for op in func.walk() if op.name == "sdy.sharding_constraint"]
        if not constraints:
            ctx.mark_all_preserved()
        for op in constraints:
            reshard = Builder().create("sdy.reshard", [op.operands[0]], result_types=[op.results[0].type],
                                       properties={"sharding": op.properties_view["sharding"]},
                                       attributes=dict(op.attributes_view), loc=op.loc)
            reshard.location_text = op.location_text
            replace_op_with(op, reshard)
