"""``-sdy-basic-propagate`` (propagation/basic_propagation.cc): propagate shardings along the
factors of every op's sharding rule, through data-flow edges, function data-flow edges and
propagation barriers, with no conflict resolution (only axes compatible between all operands and
results move).

The run: check every result type is a static-shaped tensor (no tuples); build the sharding
groups and give their members a common sharding; push the main function's result shardings to
the returned values; apply the four patterns below with MLIR's greedy driver (one iteration,
see ``passes.greedy_rewrite``); push the returned values' shardings back to the main function's
results; drop the sharding rules the run attached unless ``keep-sharding-rules``.

Patterns, tried on each op in this order: ``sdy.propagation_barrier`` (only in its allowed
direction), ``sdy.data_flow_edge`` (between the edge's sources and its targets),
``sdy.func_data_flow_edge`` (between a function argument and the call operands, or a call result
and the called function's return value), then any op with a sharding rule (its own or the
registry's).

The higher strategies (aggressive, op-priority, user-priority) reuse ``BasicPropagationPassImpl``
and override ``propagate``.
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import (
    MemRefType,
    RankedTensorType,
    TupleType,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import callee_of, result_sharding
from shardy_py.passes.greedy_rewrite import GreedyRewriter, Pattern
from shardy_py.passes.propagation.basic_factor_propagation import BasicFactorPropagation
from shardy_py.passes.propagation.debugging.source_sharding import SourceShardingError, SourceShardingHandler
from shardy_py.passes.propagation.factor_propagation import FactorPropagation, PropagationDirection
from shardy_py.passes.propagation.propagation_update import (
    DirectionFn,
    PropagationEnv,
    PropagationError,
    TensorParams,
    direction_for,
    propagate_any,
    propagate_tensor_shardings,
)
from shardy_py.passes.propagation.sharding_group_map import ShardingGroupError, ShardingGroupMap
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.rules import registry
from shardy_py.rules.builder import create_identity_sharding_rule
from shardy_py.rules.sharding_rule import SHARDING_RULE_ATTR, get_or_create_sharding_rule


def _static_shaped(type_) -> bool:
    return df.is_static_shaped(type_)


def _values_params(values: Sequence[Value]) -> TensorParams:
    """Params over ``values`` read with ``getSharding`` and written with ``setSharding``."""
    values = list(values)
    return TensorParams(values, [get_sharding(v) for v in values],
                        lambda s, i: set_sharding(values[i], s))


def _propagate_values(env: PropagationEnv, operands: Sequence[Value], results: Sequence[Value], rule, op: Operation,
                      rewriter: GreedyRewriter, direction, conservative: bool = False) -> bool:
    return propagate_tensor_shardings(env, _values_params(operands), _values_params(results), rule, direction,
                                      conservative, op, rewriter)


# -- the patterns --------------------------------------------------------------------------------

def _propagation_barrier(env: PropagationEnv) -> Pattern:
    def pattern(op: Operation, rewriter: GreedyRewriter) -> bool:
        allowed = PropagationDirection[str(op.properties["allowed_direction"])]
        rule = create_identity_sharding_rule(op.results[0].type)
        return _propagate_values(env, op.operands, op.results, rule, op, rewriter, lambda _f: allowed)
    return pattern


def _data_flow_edge(env: PropagationEnv) -> Pattern:
    def pattern(op: Operation, rewriter: GreedyRewriter) -> bool:
        type_ = op.results[0].type
        if not _static_shaped(type_):
            return False  # a token or other non-tensor value: no rule to propagate with
        owner = op.operands[0]
        if not df.is_data_flow_op(df.owning_op(owner)):
            raise PropagationError(f"the input of an sdy.data_flow_edge ({owner.name or 'a value'}) is not an edge "
                                   "owner of a data-flow op (the C++ would crash)")
        sources = df.edge_sources(owner)
        operands = _values_params(sources)

        def set_target(sharding: TensorShardingAttr, _index: int) -> None:
            df.set_property(op, "sharding", df.transform_target_sharding(owner, sharding, before_propagation=False))

        target = df.transform_target_sharding(owner, op.properties.get("sharding"), before_propagation=True)
        results = TensorParams([op.results[0]], [target], set_target)
        rule = create_identity_sharding_rule(type_, len(sources))
        return propagate_tensor_shardings(env, operands, results, rule, direction_for(env.direction, op), False, op,
                                          rewriter)
    return pattern


def _enclosing_func(op: Operation) -> Operation | None:
    parent = op.parent_op
    while parent is not None and parent.name != "func.func":
        parent = parent.parent_op
    return parent


def _func_data_flow_edge(env: PropagationEnv) -> Pattern:
    def pattern(op: Operation, rewriter: GreedyRewriter) -> bool:
        type_ = op.results[0].type
        if not _static_shaped(type_):
            return False
        operand = op.operands[0]
        if isinstance(operand.owner, Block):
            func = _enclosing_func(op)
            sources = [caller.operands[operand.index] for caller in env.callers(func) if caller.name == "func.call"]
            if not sources:
                return True  # never called (e.g. a custom call's computation): the C++ reports success
        else:
            func = env.func(callee_of(operand.owner))
            if not func.regions or not func.regions[0].blocks:
                raise PropagationError(f"a call result's sdy.func_data_flow_edge calls @{func.properties['sym_name']}, "
                                       "which has no body (the C++ checks this fatally)")
            terminator = func.regions[0].blocks[0].ops[-1]
            sources = [terminator.operands[operand.index]] if terminator.name == "func.return" else []
        rule = create_identity_sharding_rule(type_, len(sources))
        return _propagate_values(env, sources, [op.results[0]], rule, op, rewriter, direction_for(env.direction, op))
    return pattern


#: Ops the registry gives no rule and no warning (an op's own ``sdy.sharding_rule`` still counts).
_RULELESS = registry.NO_RULE_OPS | registry.TERMINATOR_OPS


def _registered_op(env: PropagationEnv) -> Pattern:
    def pattern(op: Operation, rewriter: GreedyRewriter) -> bool:
        if op.name in _RULELESS and SHARDING_RULE_ATTR not in op.attributes_view:
            return False  # what the registry would say, without asking it
        rule = get_or_create_sharding_rule(op, env.conservative, set_on_op=True, warn=env.warn)
        if rule is None:
            return False
        return _propagate_values(env, op.operands, op.results, rule, op, rewriter, direction_for(env.direction, op),
                                 env.conservative)
    return pattern


def patterns_for(env: PropagationEnv):
    """The patterns to try on an op, in the order MLIR's pattern applicator tries them."""
    specific = {
        "sdy.propagation_barrier": _propagation_barrier(env),
        "sdy.data_flow_edge": _data_flow_edge(env),
        "sdy.func_data_flow_edge": _func_data_flow_edge(env),
    }
    registered = _registered_op(env)
    with_registered = {name: (p, registered) for name, p in specific.items()}
    only_registered = (registered,)

    def for_op(op: Operation):
        return with_registered.get(op.name, only_registered)
    return for_op


# -- function results ----------------------------------------------------------------------------

def main_func(module: Module, env: PropagationEnv) -> Operation:
    """``getMainFuncOrDie(..., useSingleFunc=true)``: the only function, else ``@main``."""
    funcs = [op for op in module.ops if op.name == "func.func"]
    if len(funcs) == 1:
        return funcs[0]
    return env.func("main")


def set_func_result_sharding(func: Operation, index: int, sharding: TensorShardingAttr) -> None:
    """``setFuncResultSharding``: ``sdy.sharding`` in the result's attribute dictionary."""
    count = len(func.properties.get("result_types") or [])
    res_attrs = list(func.properties.get("res_attrs") or [])
    res_attrs += [{} for _ in range(count - len(res_attrs))]
    res_attrs[index] = dict(sorted({**(res_attrs[index] or {}), df.SHARDING: sharding}.items()))
    func.properties["res_attrs"] = res_attrs


def propagate_func_results(env: PropagationEnv, func: Operation) -> None:
    """``propagateFuncResults``: between each returned value and the function's result sharding,
    as an identity op in both directions (no driver notifications; groups still follow)."""
    if not func.regions or not func.regions[0].blocks:
        return
    terminator = func.regions[0].blocks[0].ops[-1]
    for index, value in enumerate(terminator.operands):
        if not _static_shaped(value.type):
            continue
        operands = TensorParams([value], [get_sharding(value)], lambda s, _i, v=value: set_sharding(v, s))
        results = TensorParams([value], [result_sharding(func, index)],
                               lambda s, _i, i=index: set_func_result_sharding(func, i, s), is_func_result=True)
        propagate_tensor_shardings(env, operands, results, create_identity_sharding_rule(value.type),
                                   lambda _f: PropagationDirection.BOTH, False, func, None)


# -- the pass ------------------------------------------------------------------------------------

def invalid_shape_error(module: Module) -> tuple[Operation, str] | None:
    """``allValidShapes``: the first op (post-order) with a result that is a tensor without a
    static shape, or a tuple, and the error for it."""
    from shardy_py.ir.walk import walk_post_order

    for op in walk_post_order(module.op):
        for r in op.results:
            t = r.type
            if _is_shaped(t) and not _has_static_shape(t):
                return op, f"Shardy propagation only supports ranked tensors with a static shape. type: {t}"
            if isinstance(t, TupleType):
                return op, f"Shardy propagation doesn't support tuples: {t}"
    return None


def _is_shaped(type_) -> bool:
    """Whether ``type_`` implements ``ShapedType`` (tensors, vectors, memrefs)."""
    return isinstance(type_, (RankedTensorType, UnrankedTensorType, VectorType, MemRefType, UnrankedMemRefType))


def _has_static_shape(type_) -> bool:
    shape = getattr(type_, "shape", None)
    return shape is not None and all(d >= 0 for d in shape)


def remove_sharding_rules(module: Module) -> None:
    """``removeShardingRules``: drop every ``sdy.sharding_rule`` that is not a custom rule."""
    for op in module.walk():
        rule = op.attributes_view.get(SHARDING_RULE_ATTR)
        if rule is not None and not getattr(rule, "is_custom_rule", False):
            df.remove_attribute(op, SHARDING_RULE_ATTR)


PROPAGATION_OPTIONS = (
    PassOption("keep-sharding-rules", bool, False, "whether to keep existing and created op sharding rules"),
    PassOption("module-dump-directory", str, "",
               "where to dump any rewritten modules for debugging (only user-priority propagation writes any)"),
    PassOption("conservative-propagation", bool, False,
               "whether to disallow split axes and non-divisible sharding axes during propagation"),
    PassOption("debug-sharding-origins", bool, False,
               "whether to save information about the origin of a sharding on the MLIR module"),
    PassOption("debug-propagation-edge-sharding", bool, False,
               "whether to save information about the SSA value edges a sharding propagated along"),
)


class BasicPropagationPassImpl(Pass):
    """``BasicPropagationPassImpl``: the run described in the module docstring; strategies above
    the basic one override ``propagate``."""

    options = PROPAGATION_OPTIONS

    def factor_propagation(self) -> FactorPropagation:
        return BasicFactorPropagation()

    def propagate_with(self, module: Module, env: PropagationEnv) -> None:
        """``propagate(module, ..., factorPropagation, getDirectionToPropagate)``: one greedy run
        with ``env``'s strategy and direction, main function results pushed in before and out after."""
        func = main_func(module, env)
        propagate_func_results(env, func)
        GreedyRewriter(module.op.regions[0], patterns_for(env)).run()
        propagate_func_results(env, func)

    def propagate(self, module: Module, groups: ShardingGroupMap, ctx, direction: DirectionFn = propagate_any) -> None:
        """The strategy's propagation (basic: one ``propagate_with`` with ``factor_propagation()``)."""
        self.propagate_with(module, self.make_env(module, groups, ctx, self.factor_propagation(), direction))

    def make_env(self, module: Module, groups: ShardingGroupMap, ctx, factor_propagation: FactorPropagation,
                 direction: DirectionFn = propagate_any) -> PropagationEnv:
        return PropagationEnv(module, groups, factor_propagation, direction,
                              self.option("conservative-propagation"), ctx.warning,
                              listener=getattr(self, "debug_handler", None))

    def run(self, module: Module, ctx) -> None:
        # The debug options' recorder (``SourceShardingHandler``), prepared before propagating
        # and written out after it, as ``runOnOperation`` does.
        self.debug_handler = SourceShardingHandler.for_options(
            self.option("debug-sharding-origins"), self.option("debug-propagation-edge-sharding"))
        try:
            if self.debug_handler is not None:
                self.debug_handler.prepare(module)
            bad = invalid_shape_error(module)
            if bad is not None:
                ctx.error(*bad)
                return
            groups = ShardingGroupMap(module.op)
            groups.sync_group_member_shardings(ctx.warning)
            self.propagate(module, groups, ctx)
        except (PropagationError, ShardingGroupError, SourceShardingError) as e:
            ctx.error(None, str(e))
            return
        if not self.option("keep-sharding-rules"):
            remove_sharding_rules(module)
        if self.debug_handler is not None:
            for op, message in self.debug_handler.save_on_module(module):
                ctx.warning(op, message)


@register
class BasicPropagationPass(BasicPropagationPassImpl):
    name = "sdy-basic-propagate"
    summary = "Runs the basic sharding propagation algorithm."
