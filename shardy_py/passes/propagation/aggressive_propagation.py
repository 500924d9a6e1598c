"""``-sdy-aggressive-propagate`` (propagation/aggressive_propagation.cc): basic propagation run with
the factor propagation strategy ``propagation-strategy`` names: ``aggressive`` (the default:
conflicts between factors are settled by preference instead of blocking), ``basic``, or
``basic-then-aggressive`` (a full basic run, then a full aggressive run)."""
from __future__ import annotations

from shardy_py.ir.module import Module
from shardy_py.passes.propagation.aggressive_factor_propagation import AggressiveFactorPropagation
from shardy_py.passes.propagation.basic_factor_propagation import BasicFactorPropagation
from shardy_py.passes.propagation.basic_propagation import PROPAGATION_OPTIONS, BasicPropagationPassImpl
from shardy_py.passes.propagation.propagation_update import DirectionFn, propagate_any
from shardy_py.passes.propagation.sharding_group_map import ShardingGroupMap
from shardy_py.passes.registry import PassOption, register

#: ``PropagationStrategy`` values as the option spells them.
STRATEGIES = ("basic", "aggressive", "basic-then-aggressive")

AGGRESSIVE_OPTIONS = PROPAGATION_OPTIONS + (
    PassOption("propagation-strategy", STRATEGIES, "aggressive", "which factor propagation strategy to use"),
)


class AggressivePropagationPassImpl(BasicPropagationPassImpl):
    """``AggressivePropagationPassImpl``: one basic-propagation run per strategy of the option."""

    options = AGGRESSIVE_OPTIONS

    def strategies(self) -> list:
        """The factor propagation strategies to run one after the other."""
        choice = self.option("propagation-strategy")
        if choice == "basic":
            return [BasicFactorPropagation()]
        if choice == "aggressive":
            return [AggressiveFactorPropagation()]
        return [BasicFactorPropagation(), AggressiveFactorPropagation()]

    def propagate(self, module: Module, groups: ShardingGroupMap, ctx, direction: DirectionFn = propagate_any) -> None:
        """``AggressivePropagationPassImpl::propagate``: a full run with each strategy in turn."""
        for strategy in self.strategies():
            self.propagate_with(module, self.make_env(module, groups, ctx, strategy, direction))


@register
class AggressivePropagationPass(AggressivePropagationPassImpl):
    name = "sdy-aggressive-propagate"
    summary = "Runs the aggressive sharding propagation algorithm."
