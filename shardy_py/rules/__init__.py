"""Op sharding rules: how each op's dimensions split into factors (``#sdy.op_sharding_rule``).

* ``builder`` — ``OpShardingRuleBuilder`` (the C++ op_sharding_rule_builder).
* ``registry`` — rule dispatch by op name (``register_rule``) and the lists of ops without rules.
* ``registry_*`` — the rules, by op family (the C++ op_sharding_rule_registry.cc).
* ``sharding_rule`` — ``sharding_rule(op)`` / ``get_or_create_sharding_rule`` with memoisation.
* ``props`` — reading an op's properties, attributes and operand types for the rules.
* ``command`` — ``python -m shardy_py rules FILE``.

A rule is shown readably by ``shardy_py.show.describe(rule, op)`` and ``RuleView(rule, op)`` (text, HTML).
* ``common``, ``rule_errors`` — helpers of several rule families; the error a rule raises where the
  C++ cannot build one.
"""
from __future__ import annotations

from shardy_py.rules.builder import (
    DYNAMIC_SIZE,
    KNULL_DIM,
    FactorType,
    OpShardingRuleBuilder,
    create_identity_sharding_rule,
    shape_of,
)
from shardy_py.rules.registry import UnknownToRegistry, register_rule
from shardy_py.rules.sharding_rule import (
    create_op_sharding_rule,
    get_or_create_sharding_rule,
    sharding_rule,
)

__all__ = [
    "DYNAMIC_SIZE", "KNULL_DIM", "FactorType", "OpShardingRuleBuilder",
    "create_identity_sharding_rule", "shape_of", "UnknownToRegistry", "register_rule",
    "create_op_sharding_rule", "get_or_create_sharding_rule", "sharding_rule",
]
