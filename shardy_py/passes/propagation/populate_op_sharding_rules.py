"""``-sdy-populate-op-sharding-rules`` (propagation/populate_op_sharding_rules.cc): give every op
of a function the ``sdy.sharding_rule`` the registry creates for it, visiting ops in post-order as
MLIR's default walk does.  An op that already carries a rule keeps it; an op without a rule gets
no attribute.  The registry's "... is unknown to SDY sharding rule registry" warnings are emitted
once per process each, as the C++ does.
"""
from __future__ import annotations

from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.rules.sharding_rule import get_or_create_sharding_rule


@register
class PopulateOpShardingRulesPass(Pass):
    name = "sdy-populate-op-sharding-rules"
    summary = "Populates all registered ops with an `OpShardingRuleAttr`."
    options = (
        PassOption("conservative-propagation", bool, False,
                   "whether to disallow rules that can propagate non-divisible sharding axes"),
    )
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        conservative = self.option("conservative-propagation")
        for op in list(walk_post_order(func)):
            get_or_create_sharding_rule(op, conservative, set_on_op=True, warn=ctx.warning)
