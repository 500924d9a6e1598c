"""The core of basic propagation (first half of propagation/basic_propagation.cc): propagating
the shardings of a group of tensors through a sharding rule (``propagateTensorShardings``),
writing the new shardings back (``updateTensorSharding``), keeping sharding groups in step, and
telling the rewrite driver which ops to look at again (``notifyShardingModified``)."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from shardy_py.ir.attrs import MeshAttr, OpShardingRuleAttr, TensorShardingAttr
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import callee_of
from shardy_py.passes.greedy_rewrite import GreedyRewriter, is_terminator
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.op_traits import is_elementwise
from shardy_py.passes.propagation.debugging.source_sharding import snapshot as snapshot_projection
from shardy_py.passes.propagation.factor_propagation import (
    FactorPropagation,
    PropagationDirection,
    PropagationDirectionAlongFactor,
)
from shardy_py.passes.propagation.sharding_group_map import ShardingGroupMap
from shardy_py.passes.propagation.sharding_projection import ShardingProjection, TensorFactorShardings
from shardy_py.passes.shardings import set_sharding, shardable_value

#: ``GetDirectionToPropagateFn``: the direction to propagate factor ``i`` of ``op`` in.
DirectionFn = Callable[[Operation, int], PropagationDirection]
SetShardingAt = Callable[[TensorShardingAttr, int], None]
Notify = Callable[[Operation], None]


def direction_for(direction: DirectionFn, op: Operation) -> Callable[[int], PropagationDirection]:
    """``direction(op, ·)``; a direction function may offer a faster ``for_op(op)`` computing the
    parts that do not depend on the factor once.  The result is for one propagation through
    ``op`` (the IR does not change while it is asked)."""
    for_op = getattr(direction, "for_op", None)
    if for_op is not None:
        return for_op(op)
    return lambda factor_index: direction(op, factor_index)


class PropagationError(Exception):
    """Propagation cannot go on (what the C++ asserts or checks fatally); the pass fails with it."""


def propagate_any(_op: Operation, _factor_index: int) -> PropagationDirection:
    """``propagateAny``: every factor of every op both ways."""
    return PropagationDirection.BOTH


@dataclass
class TensorParams:
    """``PropagationTensorParams``: tensors, their current shardings and how to set one."""

    tensors: Sequence[Value]
    shardings: Sequence[TensorShardingAttr | None]
    set_sharding: SetShardingAt
    is_func_result: bool = False


def _symbol_users(module_op: Operation) -> dict[str, list[Operation]]:
    """``SymbolUserMap`` restricted to functions: the ops naming each function (``func.call``
    callees, custom call ``called_computations``), in walk order."""
    users: dict[str, list[Operation]] = {}
    for op in module_op.walk():
        if op.name == "func.call":
            users.setdefault(callee_of(op), []).append(op)
        elif op.name == "stablehlo.custom_call":
            called = op.properties.get("called_computations") if op.properties else None
            if called is not None:
                for name in _symbol_names(str(getattr(called, "text", called))):
                    users.setdefault(name, []).append(op)
    return users


def _symbol_names(text: str) -> list[str]:
    import re

    return [m.strip('"') for m in re.findall(r'@("(?:[^"\\]|\\.)*"|[\w$.\-]+)', text)]


class PropagationListener(Protocol):
    """Observes propagation where the C++ raises its ``SourceShardingAction``."""

    def propagated(self, op: Operation, operands: Sequence[Value], results: Sequence[Value], mesh: MeshAttr,
                   rule: OpShardingRuleAttr, old: ShardingProjection, new: ShardingProjection,
                   any_updated: bool) -> None:
        """Propagating through ``op`` turned the factor shardings ``old`` into ``new``."""


@dataclass
class PropagationEnv:
    """What one propagation run shares: the module's meshes and functions, each function's
    callers, the sharding groups, the factor propagation strategy and the direction function."""

    module: Module
    groups: ShardingGroupMap
    factor_propagation: FactorPropagation
    direction: DirectionFn = propagate_any
    conservative: bool = False
    warn: Callable[[Operation, str], None] | None = None
    #: Told about every propagation through an op (``SourceShardingAction``): the propagation
    #: debug options' ``SourceShardingHandler`` (propagation/debugging/source_sharding.py), or None.
    listener: PropagationListener | None = None
    meshes: MeshTable = field(init=False)
    funcs: dict[str, Operation] = field(init=False)
    users: dict[str, list[Operation]] = field(init=False)
    #: Memoised propagation outcomes (the new operand and result shardings, None where one stays)
    #: by rule, shardings, mesh, mode and directions; see ``propagate_tensor_shardings``.
    outcomes: dict[tuple, tuple] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.meshes = MeshTable(self.module)
        self.funcs = {}
        for op in self.module.ops:
            if op.name == "func.func":
                self.funcs.setdefault(op.properties["sym_name"], op)
        self.users = _symbol_users(self.module.op)

    def callers(self, func: Operation) -> list[Operation]:
        return self.users.get(func.properties["sym_name"], [])

    def func(self, name: str) -> Operation:
        """``getFuncOpOrDie``."""
        func = self.funcs.get(name)
        if func is None:
            raise PropagationError(f"Failed to lookup function: {name}")
        return func


def common_mesh_name(env: PropagationEnv, operand_shardings, result_shardings) -> str | None:
    """``getCommonMeshName``: the name of the mesh all shardings use (None if none or two differ)."""
    mesh_or_ref = common_mesh_or_ref([*operand_shardings, *result_shardings], env.meshes)
    if mesh_or_ref is None:
        return None
    if isinstance(mesh_or_ref, MeshAttr):
        raise PropagationError("Shardy propagation needs shardings that name their mesh; found an inline mesh "
                               "(run -sdy-lift-inlined-meshes first)")
    return mesh_or_ref


# -- telling the driver what to look at again ----------------------------------------------------

def notify_users_modified(env: PropagationEnv, value: Value, notify: Notify) -> None:
    """``notifyUsersModified``: every user of ``value`` (in MLIR's use-list order, newest use
    first), or for a use that feeds a data-flow edge that edge, for a use by a terminator the op
    it ends (or, for a called function's return, the users of the calls' results), and for a
    use by a call the users of the called function's argument.

    The C++ recurses into call results and function arguments; this walks the same way with an
    explicit stack (deep call chains need no deep Python recursion).  A value met again on the
    current path means the C++ would recurse forever (a function returning a value that comes
    back through its callers into itself, with no function data-flow edges to stop it): that is
    a ``PropagationError``."""
    frames = [_users_to_notify(env, value, notify)]
    path = [value]
    while frames:
        descend = next(frames[-1], None)
        if descend is None:
            frames.pop()
            path.pop()
            continue
        if any(descend is v for v in path):
            raise PropagationError(
                "notifying the users of a changed sharding would go round the call graph forever (the C++ "
                "overflows its stack): a function's returned value reaches a call of the same function through "
                "its callers; add function data-flow edges first (-sdy-add-func-data-flow-edges)")
        frames.append(_users_to_notify(env, descend, notify))
        path.append(descend)


def _users_to_notify(env: PropagationEnv, value: Value, notify: Notify) -> Iterator[Value]:
    """One level of ``notify_users_modified``: notifies the users of ``value`` in order, yielding
    (at their place in that order) the call results and function arguments whose users come next."""
    for use in reversed(value.uses):
        user = use.op
        terminator = is_terminator(user)
        edge = df.lookup_data_flow_edge_of_source(user, use.index, terminator)
        if edge is not None:
            notify(edge)
        elif terminator:
            parent = user.parent_op
            callers = env.callers(parent) if user.name == "func.return" else []
            if not callers:
                notify(parent)
            for caller in callers:
                if caller.name == "func.call":
                    yield caller.results[use.index]
        elif user.name == "func.call":
            func = env.func(callee_of(user))
            if func.regions and func.regions[0].blocks:
                yield func.regions[0].blocks[0].arguments[use.index]
        else:
            notify(user)


def notify_sharding_modified(env: PropagationEnv, value: Value, notify: Notify) -> None:
    """``notifyShardingModified``: the op defining ``value`` (or holding it as a block argument),
    its users, and for an edge the users of the edge's other targets (while body/cond args)."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "sdy.data_flow_edge":
        for target in df.non_owner_targets(owner.operands[0]):
            notify_users_modified(env, target, notify)
    if isinstance(owner, Block):
        notify(owner.parent.parent)
    else:
        notify(owner)
    notify_users_modified(env, value, notify)


# -- writing shardings back ------------------------------------------------------------------

def _empty_axes(sharding: TensorShardingAttr) -> bool:
    """``TensorShardingAttr::emptyAxes``."""
    return (not sharding.replicated_axes and not sharding.unreduced_axes
            and all(not d.axes for d in sharding.dim_shardings))


def new_tensor_sharding(old: TensorShardingAttr | None, factors: TensorFactorShardings, mapping, factor_sizes,
                        mesh_name: str, mesh: MeshAttr) -> TensorShardingAttr | None:
    """The sharding ``factors`` project to, or None when ``updateTensorSharding`` would keep the
    old one (it equals ``old``, or there was none and it has no axes)."""
    new = factors.create_tensor_sharding_attr(mapping, factor_sizes, mesh_name, mesh)
    if (old is None and _empty_axes(new)) or new == old:
        return None
    return new


def apply_tensor_sharding(env: PropagationEnv, value: Value | None, new: TensorShardingAttr,
                          set_one: Callable[[TensorShardingAttr], None], notify: Notify | None,
                          is_func_result: bool) -> None:
    """The writing half of ``updateTensorSharding``: set ``new``, notify the driver and give the
    same sharding to the other members of ``value``'s sharding group."""
    set_one(new)
    if is_func_result:
        return
    if notify is not None:
        notify_sharding_modified(env, value, notify)
    for member in env.groups.group_members(value):
        if member is value:
            continue
        set_sharding(member, new)
        if notify is not None:
            notify_sharding_modified(env, member, notify)


def update_tensor_sharding(env: PropagationEnv, value: Value | None, old: TensorShardingAttr | None,
                           set_one: Callable[[TensorShardingAttr], None], factors: TensorFactorShardings,
                           mapping, factor_sizes, mesh_name: str, mesh: MeshAttr, notify: Notify | None,
                           is_func_result: bool) -> bool:
    """``updateTensorSharding``: set the sharding ``factors`` project to, unless it is the old one
    (or there was none and it has no axes); notify the driver and give the same sharding to the
    other members of ``value``'s sharding group.  Whether the sharding changed."""
    new = new_tensor_sharding(old, factors, mapping, factor_sizes, mesh_name, mesh)
    if new is None:
        return False
    apply_tensor_sharding(env, value, new, set_one, notify, is_func_result)
    return True


def _new_shardings(params: TensorParams, factors: list[TensorFactorShardings], mappings, factor_sizes,
                   updated: Sequence[bool], mesh_name: str, mesh: MeshAttr) -> tuple[TensorShardingAttr | None, ...]:
    """Per tensor of ``params``, its new sharding, or None where it keeps its own."""
    return tuple(new_tensor_sharding(params.shardings[i], factors[i], mappings[i], factor_sizes, mesh_name, mesh)
                 if flag else None for i, flag in enumerate(updated))


def _apply_all(env: PropagationEnv, params: TensorParams, new: Sequence[TensorShardingAttr | None],
               notify: Notify | None) -> None:
    for index, sharding in enumerate(new):
        if sharding is not None:
            apply_tensor_sharding(env, shardable_value(params.tensors[index]), sharding,
                                  lambda s, i=index: params.set_sharding(s, i), notify, params.is_func_result)


def propagate_tensor_shardings(env: PropagationEnv, operands: TensorParams, results: TensorParams,
                               rule: OpShardingRuleAttr, direction_along_factor: PropagationDirectionAlongFactor,
                               conservative: bool, op: Operation, rewriter: GreedyRewriter | None) -> bool:
    """``propagateTensorShardings``: project the shardings of ``operands`` and ``results`` onto
    ``rule``'s factors, let the factor propagation strategy extend them (blocked factors stay put)
    and write back each tensor whose sharding changed.  Nothing happens without a common named
    mesh or on a maximal mesh.  Whether any sharding changed."""
    mesh_name = common_mesh_name(env, operands.shardings, results.shardings)
    if mesh_name is None:
        return False
    mesh = env.meshes.lookup(mesh_name)
    if mesh is None:
        raise PropagationError(f"unknown mesh: @{mesh_name}")
    if mesh.is_maximal:
        return False
    notify: Notify | None = None
    if rewriter is not None:
        def notify(modified: Operation) -> None:
            if modified is not op:
                rewriter.modify_op_in_place(modified)

    blocked = rule.blocked_propagation_factors
    local_direction = direction_along_factor
    if blocked:
        def local_direction(factor_index: int) -> PropagationDirection:
            if factor_index in blocked:
                return PropagationDirection.NONE
            return direction_along_factor(factor_index)

    if env.listener is None:
        # The outcome depends only on the key (and the strategy, which is the env's): ops with the
        # same rule, shardings and directions (the layers of a model) propagate alike.
        key = (rule, tuple(operands.shardings), tuple(results.shardings), mesh_name, conservative,
               tuple(map(local_direction, range(len(rule.factor_sizes)))), op is not None and is_elementwise(op))
        outcome = env.outcomes.get(key)
        if outcome is None:
            outcome = _propagate_projection(env, operands, results, rule, local_direction, conservative, op,
                                            mesh_name, mesh)[:2]
            env.outcomes[key] = outcome
        new_operands, new_results = outcome
    else:
        new_operands, new_results, before, projection = _propagate_projection(
            env, operands, results, rule, local_direction, conservative, op, mesh_name, mesh)
    _apply_all(env, operands, new_operands, notify)
    _apply_all(env, results, new_results, notify)
    any_updated = any(s is not None for s in new_operands) or any(s is not None for s in new_results)
    if env.listener is not None:
        env.listener.propagated(op, operands.tensors, results.tensors, mesh, rule, before, projection, any_updated)
    return any_updated


def _propagate_projection(env: PropagationEnv, operands: TensorParams, results: TensorParams,
                          rule: OpShardingRuleAttr, local_direction: PropagationDirectionAlongFactor,
                          conservative: bool, op: Operation, mesh_name: str, mesh: MeshAttr):
    """Project, let the strategy propagate and compute the new shardings: (new operand shardings,
    new result shardings, the projection before (only with a listener), the projection after)."""
    projection = ShardingProjection.build(operands.shardings, results.shardings, rule, mesh)
    before = None if env.listener is None else snapshot_projection(projection)
    updates = env.factor_propagation.propagate_factor_shardings(
        projection, local_direction, rule.factor_sizes, mesh, conservative, op)
    new_operands = _new_shardings(operands, projection.operands, rule.operand_mappings, rule.factor_sizes,
                                  updates.update_operands, mesh_name, mesh)
    new_results = _new_shardings(results, projection.results, rule.result_mappings, rule.factor_sizes,
                                 updates.update_results, mesh_name, mesh)
    return new_operands, new_results, before, projection
