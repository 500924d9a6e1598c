"""Which rule an op gets: the dispatch of the C++ ``createOpShardingRule``.

Rules are registered per op name with ``@register_rule("stablehlo.add", ...)``; a rule is a
function ``(op, conservative: bool) -> OpShardingRuleAttr | None``.  It must depend only on the
op's name, operand/result types and properties (inherent attributes) — ``sharding_rule`` caches on
those.  A rule that also looks at the op's surroundings (users, defining ops of operands) says so
with ``context_key=f``: ``f(op)`` is a hashable summary of what it looks at, added to the key.

A rule that does not know the op raises ``UnknownToRegistry(message, once_key)``: the result is
``None`` and, inside the populate pass, ``message`` is warned once per process per ``once_key``
(the C++ warns through a static ``once_flag`` per call site).

The rules live in the modules ``shardy_py/rules/registry_<family>.py``: every module of this
package whose name starts with ``registry_`` is imported on first lookup (sorted by name), so a new
family only needs its file.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path

import attrs

from shardy_py.ir.attrs import OpShardingRuleAttr

RuleFn = Callable[..., "OpShardingRuleAttr | None"]


@attrs.frozen
class RuleEntry:
    """A registered rule and, if it looks beyond the op itself, its ``context_key`` function."""

    fn: RuleFn
    context_key: Callable | None = None


class UnknownToRegistry(Exception):
    """Raised by a rule for an op it has no rule for: ``message`` is warned once per ``once_key``."""

    def __init__(self, message: str, once_key: str) -> None:
        super().__init__(message)
        self.message = message
        self.once_key = once_key


#: Rules by op name.
RULES: dict[str, RuleEntry] = {}
#: Rules of ops implementing the sharding rule op interface (``getShardingRule``), by op name;
#: consulted after ``NO_RULE_OPS``, as the C++ type switch does.
INTERFACE_RULES: dict[str, RuleEntry] = {}

#: The prefix of the modules of this package holding ``@register_rule`` functions.
RULE_MODULE_PREFIX = "registry_"

#: Ops the C++ registry deliberately gives no rule (handled elsewhere, or nothing to propagate).
NO_RULE_OPS: frozenset[str] = frozenset({
    "builtin.module", "func.func", "func.call",
    "sdy.constant", "sdy.data_flow_edge", "sdy.func_data_flow_edge", "sdy.manual_computation",
    "sdy.mesh", "sdy.propagation_barrier", "sdy.named_computation", "sdy.sharding_group",
    "sdy.reshard",
    "stablehlo.after_all", "stablehlo.case", "stablehlo.constant", "stablehlo.create_token",
    "stablehlo.get_tuple_element", "stablehlo.infeed", "stablehlo.iota", "stablehlo.outfeed",
    "stablehlo.optimization_barrier", "stablehlo.partition_id", "stablehlo.recv",
    "stablehlo.send", "stablehlo.while",
})

#: The ops with the ``IsTerminator`` trait among the dialects ``sdy_opt`` registers (sdy, func,
#: tensor, stablehlo): no rule and no warning.  Any other op is unknown to the registry.
TERMINATOR_OPS: frozenset[str] = frozenset({
    "func.return", "stablehlo.return", "sdy.return", "tensor.yield",
})


def register_rule(*names: str, context_key: Callable | None = None,
                  interface: bool = False) -> Callable[[RuleFn], RuleFn]:
    """Decorator: ``fn`` is the rule of the ops ``names`` (as an interface rule if ``interface``)."""

    def deco(fn: RuleFn) -> RuleFn:
        table = INTERFACE_RULES if interface else RULES
        for name in names:
            if name in table:
                raise ValueError(f"a sharding rule for '{name}' is already registered")
            table[name] = RuleEntry(fn, context_key)
        return fn

    return deco


_loaded = False


def rule_modules() -> list[str]:
    """The full names of the rule modules (``shardy_py.rules.registry_*``: this module's siblings), sorted."""
    package = __name__.rpartition(".")[0]
    return sorted(f"{package}.{m.name}" for m in pkgutil.iter_modules([str(Path(__file__).parent)])
                  if m.name.startswith(RULE_MODULE_PREFIX))


def load_rule_modules() -> None:
    """Import every rule module (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in rule_modules():
        importlib.import_module(name)


def lookup(name: str) -> RuleEntry | None:
    """The rule registered for op ``name`` (plain or interface), or None."""
    load_rule_modules()
    entry = RULES.get(name)
    if entry is None and name not in NO_RULE_OPS:
        entry = INTERFACE_RULES.get(name)
    return entry
