"""``-sdy-drop-sharding-rules`` (export/drop_sharding_rules.cc): remove the ``sdy.sharding_rule``
of every op in a function, except rules a user wrote (``custom``), which stay."""
from __future__ import annotations

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.ir.ops import Operation
from shardy_py.passes.data_flow import remove_attribute
from shardy_py.passes.registry import Pass, register

SHARDING_RULE = "sdy.sharding_rule"


def remove_sharding_rules(root: Operation) -> bool:
    """``removeShardingRules``: drop every non-custom rule under ``root``; whether any was dropped."""
    changed = False
    for op in root.walk():
        rule = op.attributes_view.get(SHARDING_RULE)
        if isinstance(rule, OpShardingRuleAttr) and not rule.is_custom_rule:
            remove_attribute(op, SHARDING_RULE)
            changed = True
    return changed


@register
class DropShardingRulesPass(Pass):
    name = "sdy-drop-sharding-rules"
    summary = "Drops `OpShardingRuleAttr` from all registered ops."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        if not remove_sharding_rules(func):
            ctx.mark_all_preserved()
