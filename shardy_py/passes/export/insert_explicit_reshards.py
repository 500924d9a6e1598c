"""``-sdy-insert-explicit-reshards`` (export/insert_explicit_reshards.cc): after propagation, make
every op's operand and result shardings agree with its sharding rule by putting ``sdy.reshard``
ops (and ``sdy.all_reduce`` / unreduced collectives for unreduced axes) around it.

The ops of each function are visited in post-order (nested ops first; ops inserted by a visit are
not visited).  Per op:

* a data-flow op (named/manual computation, while, case, optimization barrier): each edge
  source is brought to its edge owner's sharding, with reshards right after the source's
  definition; a ``func.call``: each operand to the callee's argument sharding;
* an ``sdy.reshard`` that only adds unreduced axes becomes the unreduced collectives doing so;
* operands with unreduced axes the (first) result does not keep unreduced are all-reduced;
* an op with a single-device (maximal mesh) result: operands are resharded to that device
  (through the replicated sharding on the module's first proper mesh), results back to their
  sharding (or replicated), and the op's tensor results get the single-device sharding (a token
  result keeps its own, as in jaxlib 0.12);
* otherwise, for an op with a (non-custom) sharding rule and a common mesh: in the *full version*
  the operands and results are resharded to the common factor shardings
  (``explicit_reshards_util_common_axes``; a reshape with overflow axes redistributes the axes of
  its more sharded side instead) and the results all-reduced over the reduction factors' axes; in
  the *minimal version* only a dot / dot_general may have its result resharded (see
  ``process_dot``) and results with unreduced axes are all-reduced over the reduction axes;
* finally the function's return values are brought to the function's result shardings.

Option ``enable-full-version`` (default false, as the propagation pipeline runs the pass): the full
version for every op.  Without it the full version still applies to ``func.call``,
``mhlo.ragged_dot`` and a ``stablehlo.concatenate`` with an operand sharded unlike its result; the
function's return values are resharded only under the option.
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, OpShardingRuleAttr, TensorShardingAttr
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes import data_flow as df
from shardy_py.passes.export.explicit_reshards_util import (
    ExplicitReshardsError,
    InsertionPoint,
    Use,
    convert_reshard_to_unreduced_collectives,
    fully_replicated,
    get_factor_sharding,
    insert_all_reduce_if_unreduced_to_replicated,
    insert_all_reduces_for_reduction_factors,
    insert_explicit_reshards,
    insert_unreduced_collectives,
    is_equivalent,
    is_fully_replicated,
    rank_of,
    replace_all_uses_except,
    reshard,
    tensor_sizes,
    unreduced_axes,
)
from shardy_py.passes.export.explicit_reshards_util_common_axes import find_common_axes
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes
from shardy_py.passes.export.verify_unreduced_axes import sharding_bypassing_barriers
from shardy_py.passes.func_calls import arg_sharding, callee_of, result_sharding, sym_name
from shardy_py.passes.meshes import MeshTable, common_mesh_or_ref
from shardy_py.passes.propagation.sharding_projection import (
    AxesPerFactor,
    FactorSharding,
    ShardingProjection,
    UpdateTensorShardings,
    distribute_axes_across_factors,
)
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.rules.registry import TERMINATOR_OPS
from shardy_py.rules.sharding_rule import sharding_rule
from shardy_py.verify.axes import overlaps


class _Env:
    """What every visit needs: the module's meshes and functions, the option, the insertion state."""

    def __init__(self, top: Block, full: bool, mark_unreduced: bool = False):
        self.table = MeshTable(top)
        self.funcs = {sym_name(op): op for op in top.ops if op.name == "func.func"}
        self.full = full
        self.mark_unreduced = mark_unreduced
        self.mesh_ops = [op for op in top.ops if op.name == "sdy.mesh"]

    def is_single_device(self, sharding: TensorShardingAttr | None) -> bool:
        if sharding is None:
            return False
        mesh = self.table.mesh_of(sharding)
        return mesh is not None and mesh.is_maximal

    def global_mesh_name(self) -> str | None:
        """``getGlobalMeshOp``: the first mesh that is neither maximal nor empty."""
        for op in self.mesh_ops:
            mesh = op.properties["mesh"]
            if not mesh.is_maximal and mesh.axes:
                return op.properties["sym_name"]
        return None


def is_on_full_version(op: Operation, enable_full_version: bool) -> bool:
    """``isOnFullVersion`` (see the module docstring)."""
    if enable_full_version or op.name in ("mhlo.ragged_dot", "func.call"):
        return True
    if op.name == "stablehlo.concatenate" and op.results:
        result = get_sharding(op.results[0])
        return any(get_sharding(v) != result for v in op.operands)
    return False


# --- reshards to a target sharding ------------------------------------------------------------

def reshard_to_target(use: Use, target: TensorShardingAttr | None, env: _Env, at: InsertionPoint | None,
                      full: bool) -> None:
    """``insertExplicitReshardsToTargetSharding``: reduce unreduced axes ``target`` does not keep,
    add the unreduced axes it has, and (full version) reshard to it; at ``at``, or right after
    the operand's definition when ``at`` is None."""
    op, index = use
    operand = op.operands[index]
    sharding = get_sharding(operand)
    if at is None:
        at = InsertionPoint.after_value(operand)
    if sharding is not None:
        sharding = insert_all_reduce_if_unreduced_to_replicated(use, sharding, target, env.table, at)
    new = insert_unreduced_collectives(use, target, env.table, at)
    if new is not None:
        sharding = new
    if full and not is_equivalent(sharding, target):
        goal = target if target is not None else fully_replicated(sharding.rank, sharding.mesh_or_ref)
        op.set_operand(index, reshard(at, op.operands[index], goal))


def _edge_source_uses(op: Operation, owner: Value) -> list[Use]:
    """The operand slots feeding edge owner ``owner`` of data-flow op ``op``."""
    i = owner.index
    if op.name in df.REGION_DATA_FLOW_OPS:
        if isinstance(owner.owner, Block):
            return [(op, i)]
        return [(op.regions[0].blocks[0].ops[-1], i)]
    if op.name == "stablehlo.while":
        return [(op, i), (op.regions[1].blocks[0].ops[-1], i)]
    if op.name == "stablehlo.case":
        return [(region.blocks[0].ops[-1], i) for region in op.regions]
    if op.name == "stablehlo.optimization_barrier":
        return [(op, i)]
    return []


def on_data_flow_op(op: Operation, env: _Env, full: bool) -> None:
    """Bring each edge source of ``op`` to the sharding of its edge owner."""
    results = df.result_owner_shardings(op)
    args = df.block_arg_owner_shardings(op)
    owners = [(v, results[i] if results else None) for i, v in enumerate(df.result_owners(op))]
    owners += [(v, args[i] if args else None) for i, v in enumerate(df.block_arg_owners(op))]
    for owner, sharding in owners:
        target = df.transform_target_sharding(owner, sharding, before_propagation=True)
        for use in _edge_source_uses(op, owner):
            reshard_to_target(use, target, env, None, full)


def on_call(call: Operation, env: _Env, full: bool) -> None:
    """Bring each operand of ``call`` to the sharding of the callee's argument."""
    callee = env.funcs.get(callee_of(call))
    if callee is None:
        return
    types = callee.properties["arg_types"]
    shardings = [arg_sharding(callee, i) for i in range(len(types))]
    mesh_or_ref = _first_proper_mesh(shardings, env)
    if mesh_or_ref is not None:
        targets = [s if s is not None else _fully_open(t, mesh_or_ref) for s, t in zip(shardings, types, strict=True)]
    else:
        mesh_or_ref = _first_proper_mesh([get_sharding(v) for v in call.operands], env)
        if mesh_or_ref is None:
            return
        targets = [fully_replicated(rank_of(v), mesh_or_ref) for v in call.operands]
    for i, target in enumerate(targets):
        reshard_to_target((call, i), target, env, None, full)


def _first_proper_mesh(shardings: Sequence[TensorShardingAttr | None], env: _Env):
    for s in shardings:
        if s is not None:
            mesh = env.table.mesh_of(s)
            if mesh is not None and not mesh.is_maximal:
                return s.mesh_or_ref
    return None


def _fully_open(type_, mesh_or_ref) -> TensorShardingAttr:
    from shardy_py.passes.shardings import fully_open_like

    return fully_open_like(type_, mesh_or_ref)


def on_func_return(func: Operation, env: _Env) -> None:
    """Bring each returned value to the function's result sharding."""
    ret = func.regions[0].blocks[0].ops[-1]
    at = InsertionPoint.before(ret)
    for i in range(len(ret.operands)):
        reshard_to_target((ret, i), result_sharding(func, i), env, at, env.full)


# --- unreduced operands -----------------------------------------------------------------------

def all_reduce_operands_for_results(op: Operation, env: _Env) -> None:
    """``insertAllReduceOnOpIfUnreducedToReplicated``: reduce operand axes the first result does
    not keep unreduced."""
    if not op.results:
        if any(unreduced_axes(get_sharding(v)) for v in op.operands):
            raise ExplicitReshardsError(op, "an operand has unreduced axes but the op has no results")
        return
    first = get_sharding(op.results[0])
    for result in op.results[1:]:
        if unreduced_axes(get_sharding(result)) != unreduced_axes(first):
            raise ExplicitReshardsError(op, "the results of the op have different unreduced axes")
    at = InsertionPoint.before(op)
    for i, v in enumerate(op.operands):
        sharding = get_sharding(v)
        if sharding is not None:
            insert_all_reduce_if_unreduced_to_replicated((op, i), sharding, first, env.table, at)


# --- single-device ops ------------------------------------------------------------------------

def on_single_device_op(op: Operation, outs: Sequence[TensorShardingAttr | None], env: _Env) -> None:
    """``processSingleDeviceOperation`` (see the module docstring)."""
    device = None
    name = None
    for s in outs:
        if env.is_single_device(s):
            mesh = env.table.mesh_of(s)
            if device is not None and device != mesh.device_ids[0]:
                raise ExplicitReshardsError(op, f"'{op.name}' op has conflicting single-device result shardings")
            device, name = mesh.device_ids[0], s.mesh_or_ref
    global_name = env.global_mesh_name()
    if global_name is None:
        return
    single = fully_replicated(0, name)
    at = InsertionPoint.before(op)
    for i, operand in enumerate(op.operands):
        if not isinstance(operand.type, RankedTensorType):
            continue
        sharding = get_sharding(operand) or fully_replicated(rank_of(operand), global_name)
        same_mesh = env.table.mesh_of(sharding) is env.table.mesh_of(single) and \
            sharding.mesh_or_ref == single.mesh_or_ref
        if is_equivalent(sharding, single) and same_mesh:
            continue
        value = operand
        if not (is_fully_replicated(sharding) and sharding.mesh_or_ref == global_name):
            value = reshard(at, value, fully_replicated(rank_of(operand), global_name))
        op.set_operand(i, reshard(at, value, single))
    last = op
    for i, result in enumerate(op.results):
        if not isinstance(result.type, RankedTensorType):
            continue
        after = InsertionPoint.after(last)
        out = outs[i]
        replicated = fully_replicated(rank_of(result), global_name)
        target = out if out is not None and not env.is_single_device(out) else replicated
        to_replicated = reshard(after, result, replicated)
        replace_all_uses_except(result, to_replicated)
        last = to_replicated.owner
        if target == replicated:
            continue
        tiled = reshard(InsertionPoint.after(last), to_replicated, target)
        replace_all_uses_except(to_replicated, tiled)
        last = tiled.owner
    for result in op.results:  # a token result keeps its sharding (jaxlib 0.12; SHARDY_COMMIT made it
        if isinstance(result.type, RankedTensorType):  # replicated on the global mesh)
            set_sharding(result, single)


# --- ops with a sharding rule -----------------------------------------------------------------

def common_mesh(ins, outs, env: _Env) -> tuple[str, MeshAttr] | None:
    """``getMesh``: the meshes agree (device order aside) and are not maximal; among them the one
    most of the sharded tensors use."""
    shardings = [*ins, *outs]
    name = common_mesh_or_ref(shardings, env.table, ignore_device_ids=True)
    if name is None:
        return None
    mesh = env.table.lookup(name)
    if mesh is None or mesh.is_maximal:
        return None
    counts: dict = {}
    best, best_count = name, 0
    for s in shardings:
        if not is_fully_replicated(s):
            counts[s.mesh_or_ref] = counts.get(s.mesh_or_ref, 0) + 1
            if counts[s.mesh_or_ref] > best_count:
                best, best_count = s.mesh_or_ref, counts[s.mesh_or_ref]
    return best, env.table.lookup(best)


def process_dot(op: Operation, projection: ShardingProjection, outs, rule: OpShardingRuleAttr, mesh_name: str,
                mesh: MeshAttr) -> None:
    """Minimal version on a dot: when the operands agree and only one non-contracting factor of
    the result is sharded differently from its operand, on exactly the contracting axes, and the
    result is no bigger than that operand, shard the result like the operands (so the contraction
    is an all-reduce of the smaller result) and reshard it back after the dot."""
    if not outs:
        return
    lhs, rhs = projection.operands[0], projection.operands[1]
    result = projection.results[0]
    lhs_size, rhs_size = op.operands[0].type.num_elements, op.operands[1].type.num_elements
    result_size = op.results[0].type.num_elements
    conflict = None
    conflict_axes: list[AxisRefAttr] = []
    reduction_axes: list[AxisRefAttr] = []
    seen: list[AxisRefAttr] = []
    for f in range(len(rule.factor_sizes)):
        lhs_axes, rhs_axes = get_factor_sharding(lhs, f), get_factor_sharding(rhs, f)
        if lhs_axes is not None and rhs_axes is not None:
            axes, bound = lhs_axes, max(lhs_size, rhs_size)
            if lhs_axes != rhs_axes:
                return
            if f in rule.reduction_factors:
                reduction_axes.extend(axes)
                continue
        else:
            axes = lhs_axes if lhs_axes is not None else rhs_axes
            bound = lhs_size if lhs_axes is not None else rhs_size
            for axis in axes:
                if any(overlaps(a, axis) for a in seen):
                    return
                seen.append(axis)
        if get_factor_sharding(result, f) != axes:
            if not axes or conflict is not None or result_size > bound:
                return
            conflict, conflict_axes = f, axes
    if conflict is None:
        return
    res_axes = result.factor_index_to_sharding[conflict].axis_refs
    if not res_axes or res_axes != reduction_axes:
        return
    result.factor_index_to_sharding[conflict].axis_refs = list(conflict_axes)
    value = op.results[0]
    set_sharding(value, result.create_tensor_sharding_attr(rule.result_mappings[0], rule.factor_sizes, mesh_name,
                                                           mesh))
    back = reshard(InsertionPoint.after(op), value, outs[0])
    replace_all_uses_except(value, back)


def _redistribute(tensor, mapping, factor_sizes, mesh: MeshAttr, axes: list[AxisRefAttr]) -> None:
    """Share ``axes`` anew among the factors of ``tensor`` (all dimensions taken as one)."""
    shardings, sizes, factors = [], [], []
    for dim in mapping.dim_mappings:
        for f in dim.factor_indices:
            fs = tensor.factor_index_to_sharding.get(f)
            if fs is None:
                continue
            shardings.append(FactorSharding([], fs.is_closed, fs.is_minor_most, []))
            sizes.append(factor_sizes[f])
            factors.append(f)
    distribute_axes_across_factors(shardings, sizes, axes, mesh)
    for f, fs in zip(factors, shardings, strict=True):
        tensor.factor_index_to_sharding[f].axis_refs = fs.axis_refs
        tensor.factor_index_to_sharding[f].overflow_axes = fs.overflow_axes


def process_reshape_with_overflow_axes(op: Operation, projection: ShardingProjection, outs, rule: OpShardingRuleAttr,
                                       env: _Env, mesh_name: str, mesh: MeshAttr) -> AxesPerFactor:
    """Full version on a reshape with overflow axes: spread the axes of its more sharded side over
    both sides, keep per factor what both sides then agree on, and reshard to that."""
    operand, result = projection.operands[0], projection.results[0]
    best = operand if operand.get_sharding_size(mesh) >= result.get_sharding_size(mesh) else result
    axes: list[AxisRefAttr] = []
    for f in range(len(rule.factor_sizes)):
        fs = best.factor_index_to_sharding.get(f)
        if fs is not None:
            axes.extend(fs.axis_refs)
            axes.extend(fs.overflow_axes)
    _redistribute(operand, rule.operand_mappings[0], rule.factor_sizes, mesh, axes)
    _redistribute(result, rule.result_mappings[0], rule.factor_sizes, mesh, axes)
    built_in = operand.create_tensor_sharding_attr(rule.operand_mappings[0], rule.factor_sizes, mesh_name, mesh)
    built_out = result.create_tensor_sharding_attr(rule.result_mappings[0], rule.factor_sizes, mesh_name, mesh)
    legal = ShardingProjection.build([built_in], [built_out], rule, mesh)
    common = legal.get_greatest_common_prefix_axes(len(rule.factor_sizes))
    for f in range(len(rule.factor_sizes)):
        projection.update_sharding(f, common[f], [])
    update = UpdateTensorShardings.none(1, 1)
    new_in = operand.create_tensor_sharding_attr(rule.operand_mappings[0], rule.factor_sizes, mesh_name, mesh)
    update.update_operands[0] = not is_equivalent(get_sharding(op.operands[0]), new_in)
    new_out = result.create_tensor_sharding_attr(rule.result_mappings[0], rule.factor_sizes, mesh_name, mesh)
    update.update_results[0] = not is_equivalent(new_out, outs[0])
    insert_explicit_reshards(op, [get_sharding(op.operands[0])], outs, projection, update, rule, env.table,
                             mesh_name, mesh)
    return common


def process_op(op: Operation, projection: ShardingProjection, ins, outs, rule: OpShardingRuleAttr, env: _Env,
               mesh_name: str, mesh: MeshAttr, full: bool) -> AxesPerFactor:
    """``processOp``: the full or minimal treatment of an op with a rule; the common axes per
    factor (empty in the minimal version)."""
    if not full:
        if op.name in ("stablehlo.dot", "stablehlo.dot_general"):
            process_dot(op, projection, outs, rule, mesh_name, mesh)
        return []
    update = projection.tensors_contain_overflow_axes()
    if update.any() and op.name == "stablehlo.reshape":
        if is_sharding_equivalent_across_reshapes(ins[0], op.operands[0].type, outs[0], op.results[0].type,
                                                  env.table.mesh_of, True):
            return projection.get_greatest_common_prefix_axes(len(rule.factor_sizes))
        return process_reshape_with_overflow_axes(op, projection, outs, rule, env, mesh_name, mesh)
    common = find_common_axes(projection, rule, tensor_sizes(op), mesh)
    for f, axes in enumerate(common):
        update |= projection.update_sharding(f, axes, [])
    insert_explicit_reshards(op, ins, outs, projection, update, rule, env.table, mesh_name, mesh)
    return common


# --- the walk ---------------------------------------------------------------------------------

def visit(op: Operation, env: _Env) -> None:
    """One op of the post-order walk."""
    if op.name in TERMINATOR_OPS:
        return
    full = is_on_full_version(op, env.full)
    if df.is_data_flow_op(op):
        on_data_flow_op(op, env, full)
        return
    if op.name == "func.call":
        on_call(op, env, full)
        return
    if convert_reshard_to_unreduced_collectives(op, env.table):
        return
    all_reduce_operands_for_results(op, env)
    ins = [sharding_bypassing_barriers(v) for v in op.operands]
    outs = [sharding_bypassing_barriers(v) for v in op.results]
    if any(env.is_single_device(s) for s in outs):
        on_single_device_op(op, outs, env)
        return
    if op.name == "func.func" or (not op.operands and not op.results):
        return  # nothing to reshard (and no rule to look up)
    rule = sharding_rule(op)
    if rule is None or rule.is_custom_rule:
        return
    found = common_mesh(ins, outs, env)
    if found is None:
        return
    mesh_name, mesh = found
    projection = ShardingProjection.build(ins, outs, rule, mesh, closed_if_missing=True)
    common = process_op(op, projection, ins, outs, rule, env, mesh_name, mesh, full)
    insert_all_reduces_for_reduction_factors(op, projection, common, rule, mesh_name, mesh, full, env.mark_unreduced)


def walk_post_order(op: Operation, env: _Env) -> None:
    """MLIR's post-order walk: each block's next op is taken before the current one is visited,
    so ops a visit inserts after it are not visited."""
    for region in op.regions:
        for block in region.blocks:
            current = block.ops[0] if block.ops else None
            while current is not None:
                ops = block.ops
                i = index_in_block(current) + 1
                following = ops[i] if i < len(ops) else None
                walk_post_order(current, env)
                current = following
    visit(op, env)


@register
class InsertExplicitReshardsPass(Pass):
    name = "sdy-insert-explicit-reshards"
    summary = "Inserts explicit reshards to make all operations have compatible shardings."
    anchor = "func.func"
    options = (
        PassOption("enable-full-version", bool, False, "Enable full version."),
        PassOption("mark-partial-result-with-unreduced-axes", bool, False,
                   "Whether to mark partial reduction results with unreduced axes."),
    )

    def run(self, func, ctx) -> None:
        """Refuse single-device function arguments/results, then walk ``func`` (module docstring)."""
        env = _Env(func.parent, self.option("enable-full-version"),
                   self.option("mark-partial-result-with-unreduced-axes"))
        body = func.regions[0].blocks[0] if func.regions and func.regions[0].blocks else None
        if body is None:
            ctx.mark_all_preserved()
            return
        for i, arg in enumerate(body.arguments):
            if env.is_single_device(get_sharding(arg)):
                ctx.error(func, f"'func.func' op function argument {i} cannot have a single-device (maximal) "
                                "sharding attribute")
                return
        for i in range(len(func.properties["result_types"])):
            if env.is_single_device(result_sharding(func, i)):
                ctx.error(func, f"'func.func' op function result {i} cannot have a single-device (maximal) "
                                "sharding attribute")
                return
        try:
            walk_post_order(func, env)
            on_func_return(func, env)
        except ExplicitReshardsError as e:
            ctx.error(e.op, str(e))

