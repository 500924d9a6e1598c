"""``-sdy-remove-sharding-groups`` (export/remove_sharding_groups.cc): erase every
``sdy.sharding_group`` op, once propagation has used them."""
from __future__ import annotations

from shardy_py.passes.registry import Pass, register


@register
class RemoveShardingGroupsPass(Pass):
    name = "sdy-remove-sharding-groups"
    summary = "Removes all sdy.sharding_group ops."

    def run(self, module, ctx) -> None:
        groups = [op for op in module.walk() if op.name == "sdy.sharding_group"]
        for op in groups:
            op.erase()
        if not groups:
            ctx.mark_all_preserved()
