"""An op's sharding rule: ``getOrCreateShardingRule`` / ``createOpShardingRule``.

An op's own ``sdy.sharding_rule`` attribute wins; otherwise the rule comes from the registry
(``shardy_py.rules.registry``): a registered rule, no rule for the ops the C++ leaves out on
purpose and for terminators, and for any other op no rule and the warning "op '...' is unknown to
SDY sharding rule registry".  Created rules are memoised by (op name, conservative, operand and
result types, properties, and the rule's context key when it has one).
"""
from __future__ import annotations

from collections.abc import Callable

import attrs

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules import registry
from shardy_py.rules.props import attributes_of, operand_types_of, properties_of

#: The discardable attribute holding an op's sharding rule.
SHARDING_RULE_ATTR = "sdy.sharding_rule"


@attrs.frozen
class RuleOutcome:
    """What the registry gives an op: the rule (or None) and the warning to emit once, if any."""

    rule: OpShardingRuleAttr | None
    warning: str | None = None
    once_key: str | None = None


_CACHE: dict[tuple, RuleOutcome] = {}
#: ``once_key``s already warned about in this process (the C++ static once flags).
_WARNED: set[str] = set()


def _cache_key(op, conservative: bool, entry: registry.RuleEntry) -> tuple:
    props = properties_of(op)
    key = (op.name, conservative, operand_types_of(op), tuple([v.type for v in op.results]),
           tuple(props.items()) if props else ())
    if entry.context_key is not None:
        key += (entry.context_key(op),)
    return key


def _outcome(op, conservative: bool, entry: registry.RuleEntry | None) -> RuleOutcome:
    if entry is None:
        if op.name in registry.NO_RULE_OPS or op.name in registry.TERMINATOR_OPS:
            return RuleOutcome(None)
        return RuleOutcome(None, f"op '{op.name}' is unknown to SDY sharding rule registry",
                           "unknown-op")
    try:
        return RuleOutcome(entry.fn(op, conservative))
    except registry.UnknownToRegistry as e:
        return RuleOutcome(None, e.message, e.once_key)


def create_op_sharding_rule(op, conservative: bool = False) -> RuleOutcome:
    """The registry's rule for ``op`` (ignoring any rule already on it), memoised."""
    entry = registry.lookup(op.name)
    if entry is None:  # no rule to run: nothing worth caching
        return _outcome(op, conservative, entry)
    key = _cache_key(op, conservative, entry)
    try:
        return _CACHE[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable property value: compute without caching
        return _outcome(op, conservative, entry)
    out = _CACHE[key] = _outcome(op, conservative, entry)
    return out


def get_or_create_sharding_rule(op, conservative: bool = False, set_on_op: bool = True,
                                warn: Callable[[object, str], None] | None = None
                                ) -> OpShardingRuleAttr | None:
    """``op``'s own ``sdy.sharding_rule`` if it has one, else the registry's rule, which is set on the
    op when ``set_on_op``.  A registry warning goes to ``warn(op, message)``, once per process per
    kind, as the C++ does; without ``warn`` nothing is emitted (and the once flag is kept)."""
    attributes = attributes_of(op)
    own = attributes.get(SHARDING_RULE_ATTR) if attributes else None
    if isinstance(own, OpShardingRuleAttr):
        return own
    out = create_op_sharding_rule(op, conservative)
    if out.warning is not None and warn is not None and out.once_key not in _WARNED:
        _WARNED.add(out.once_key)
        warn(op, out.warning)
    if set_on_op and out.rule is not None:
        if attributes:  # MLIR keeps the dictionary sorted by name
            op.attributes = dict(sorted({**attributes, SHARDING_RULE_ATTR: out.rule}.items()))
        else:
            op.attributes = {SHARDING_RULE_ATTR: out.rule}
    return out.rule


def sharding_rule(op, *, conservative: bool = False) -> OpShardingRuleAttr | None:
    """The sharding rule of ``op``: its own ``sdy.sharding_rule`` (a custom rule) if set, else the
    one the Shardy registry creates for it (``None`` for ops without one).  The op is not changed."""
    return get_or_create_sharding_rule(op, conservative, set_on_op=False)


def reset_warnings() -> None:
    """Forget which once-per-process warnings were emitted (for tests running many modules)."""
    _WARNED.clear()
