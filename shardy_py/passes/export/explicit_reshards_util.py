"""Building blocks of ``-sdy-insert-explicit-reshards`` (export/explicit_reshards_util.{h,cc}): the
reshards, all-reduces and unreduced collectives put around one op; the choice of the factor
shardings an op is resharded to is in ``explicit_reshards_util_common_axes``.

An operand *use* is written ``(op, index)``.  Ops are created at an ``InsertionPoint``, which
behaves as MLIR's rewriter does: "before op X" (after-op points are "before the op that follows",
or the block end), new ops go in creation order.
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import (
    AxisRefAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    MeshAttr,
    OpShardingRuleAttr,
    TensorShardingAttr,
)
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.propagation.sharding_projection import (
    AxesPerFactor,
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    UpdateTensorShardings,
    is_axis_list_prefix_of,
)
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.verify.axes import axis_set_diff, sort_and_merge, suffix_without_overlap

Use = tuple[Operation, int]


class ExplicitReshardsError(Exception):
    """A state the C++ pass refuses with a fatal check (reported as a pass error here)."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op


# --- insertion points -------------------------------------------------------------------------

class InsertionPoint:
    """Where new ops go: before ``anchor`` in ``block`` (at its end when ``anchor`` is None)."""

    def __init__(self, block: Block, anchor: Operation | None):
        self.block = block
        self.anchor = anchor

    @classmethod
    def before(cls, op: Operation) -> InsertionPoint:
        return cls(op.parent, op)

    @classmethod
    def after(cls, op: Operation) -> InsertionPoint:
        ops = op.parent.ops
        i = index_in_block(op) + 1
        return cls(op.parent, ops[i] if i < len(ops) else None)

    @classmethod
    def after_value(cls, value: Value) -> InsertionPoint:
        """After the op defining ``value``, or at the start of the block of a block argument."""
        if isinstance(value.owner, Block):
            block = value.owner
            return cls(block, block.ops[0] if block.ops else None)
        return cls.after(value.owner)

    def create(self, name: str, operand: Value, properties: dict, loc=None) -> Operation:
        """A one-operand sdy op (its result of the operand's type) at this point."""
        builder = Builder.at_end(self.block) if self.anchor is None else Builder(self.block,
                                                                                  index_in_block(self.anchor))
        return builder.create(name, [operand], properties=properties, loc=loc)


def _loc_of(value: Value):
    return value.owner.loc if isinstance(value.owner, Operation) else None


def reshard(at: InsertionPoint, value: Value, sharding: TensorShardingAttr) -> Value:
    """An ``sdy.reshard`` of ``value`` to ``sharding``; its result."""
    return at.create("sdy.reshard", value, {"sharding": sharding}, _loc_of(value)).results[0]


def all_reduce(at: InsertionPoint, value: Value, axes: Sequence[AxisRefAttr], reduction: str,
               out: TensorShardingAttr) -> Value:
    """An ``sdy.all_reduce`` of ``value`` over ``axes``; its result."""
    props = {"reduction_axes": AxisRefListAttr(tuple(axes)), "reduction_op": reduction, "out_sharding": out}
    return at.create("sdy.all_reduce", value, props, _loc_of(value)).results[0]


def replace_all_uses_except(value: Value, new: Value) -> None:
    """Every use of ``value`` becomes a use of ``new`` except ``new``'s own use of it."""
    owner = new.owner
    value.replace_uses_with_if(new, lambda use: use.op is not owner)


# --- small sharding helpers -------------------------------------------------------------------

def rank_of(value: Value) -> int:
    shape = getattr(value.type, "shape", None)
    return len(shape) if shape is not None else 0


def fully_replicated(rank: int, mesh_or_ref, closed: bool = True) -> TensorShardingAttr:
    """``TensorShardingAttr::getFullyReplicated``."""
    return TensorShardingAttr(mesh_or_ref, tuple(DimensionShardingAttr((), closed) for _ in range(rank)))


def get_or_create_sharding(value: Value, mesh_or_ref) -> TensorShardingAttr:
    """The sharding of ``value``, or a fully closed replicated one on ``mesh_or_ref``."""
    return get_sharding(value) or fully_replicated(rank_of(value), mesh_or_ref)


def is_fully_replicated(sharding: TensorShardingAttr | None) -> bool:
    """No dimension is sharded (a missing sharding counts as replicated)."""
    return sharding is None or all(not d.axes for d in sharding.dim_shardings)


def is_equivalent(a: TensorShardingAttr | None, b: TensorShardingAttr | None) -> bool:
    """Same mesh, unreduced axes and dimension axes (open/closed, replicated axes and priorities
    aside); all fully replicated shardings without unreduced axes are alike."""
    def replicated(s):
        return s is None or (not s.unreduced_axes and all(not d.axes for d in s.dim_shardings))

    if a is None:
        return is_fully_replicated(b)
    if replicated(a):
        return replicated(b)
    if b is None or a.mesh_or_ref != b.mesh_or_ref or a.unreduced_axes != b.unreduced_axes:
        return False
    return len(a.dim_shardings) == len(b.dim_shardings) and all(
        x.axes == y.axes for x, y in zip(a.dim_shardings, b.dim_shardings, strict=True))


def unreduced_axes(sharding: TensorShardingAttr | None) -> tuple[AxisRefAttr, ...]:
    return sharding.unreduced_axes if sharding is not None else ()


def get_factor_sharding(tensor: TensorFactorShardings, factor: int) -> list[AxisRefAttr] | None:
    """The axes of ``factor`` in ``tensor``, or None when the tensor does not have the factor."""
    fs = tensor.factor_index_to_sharding.get(factor)
    return fs.axis_refs if fs is not None else None


def tensor_sizes(op: Operation) -> list[int]:
    """Number of elements of each operand then result (0 for a dynamic or non-tensor type)."""
    sizes = []
    for v in (*op.operands, *op.results):
        n = getattr(v.type, "num_elements", None)
        sizes.append(n if isinstance(n, int) else 0)
    return sizes


# --- unreduced axes ---------------------------------------------------------------------------

def insert_all_reduce_if_unreduced_to_replicated(use: Use, source: TensorShardingAttr | None,
                                                 user: TensorShardingAttr | None, table: MeshTable,
                                                 at: InsertionPoint) -> TensorShardingAttr | None:
    """All-reduce the operand of ``use`` over its unreduced axes that ``user`` does not keep
    unreduced; the sharding after that (``source`` when nothing was inserted)."""
    if source is None or not source.unreduced_axes:
        return source
    op, index = use
    mesh = table.mesh_of(source)
    target: tuple[AxisRefAttr, ...] = ()
    if user is not None:
        target = user.unreduced_axes
        if mesh != table.mesh_of(user):
            raise ExplicitReshardsError(op, "an operand with unreduced axes is used under a sharding on another "
                                            "mesh; explicit reshards cannot reduce it")
    axes = axis_set_diff(source.unreduced_axes, target, mesh)
    if not axes:
        return source
    out = TensorShardingAttr(source.mesh_or_ref, source.dim_shardings, source.replicated_axes,
                             tuple(axis_set_diff(source.unreduced_axes, axes, mesh)), source.reduction)
    op.set_operand(index, all_reduce(at, op.operands[index], axes, source.reduction, out))
    return out


def insert_unreduced_collectives(use: Use, out: TensorShardingAttr | None, table: MeshTable,
                                 at: InsertionPoint) -> TensorShardingAttr | None:
    """Make the operand of ``use`` unreduced along the axes ``out`` has unreduced and it has not:
    axes it shards only as a suffix of ``out``'s dimension axes go through
    ``sdy.sharded_to_unreduced``, the others through ``sdy.replicated_to_unreduced`` (first), with
    an ``sdy.reshard`` before them when the dimensions do not line up.  The sharding of the last
    op inserted, or None when none was."""
    op, index = use
    value = op.operands[index]
    source = get_sharding(value)
    if source is None or out is None or not out.unreduced_axes:
        return None
    mesh = table.mesh_of(source)
    if mesh != table.mesh_of(out):
        raise ExplicitReshardsError(op, "an operand is made unreduced under a sharding on another mesh")
    new_axes = axis_set_diff(out.unreduced_axes, source.unreduced_axes, mesh)
    if not new_axes:
        return None
    if axis_set_diff(source.unreduced_axes, out.unreduced_axes, mesh):
        raise ExplicitReshardsError(op, "the operand and its user each have unreduced axes the other lacks")
    s2u: list[AxisRefAttr] = []
    per_dim: list[tuple[AxisRefAttr, ...]] = []
    dims = list(out.dim_shardings)
    need_reshard = False
    for i, (in_dim, out_dim) in enumerate(zip(source.dim_shardings, out.dim_shardings, strict=True)):
        in_axes, out_axes = list(in_dim.axes), list(out_dim.axes)
        status = is_axis_list_prefix_of(out_axes, in_axes)
        moved: tuple[AxisRefAttr, ...] = ()
        if status is PrefixStatus.STRICT_PREFIX:
            diff: list[AxisRefAttr] = []
            if out_axes and out_axes[-1] != in_axes[len(out_axes) - 1]:
                rest = suffix_without_overlap(in_axes[len(out_axes) - 1], out_axes[-1], mesh)
                diff.append(rest)
            diff.extend(in_axes[len(out_axes):])
            if not axis_set_diff(diff, new_axes, mesh):
                moved = tuple(diff)
                s2u.extend(diff)
                dims[i] = in_dim
            else:
                need_reshard = True
        elif status is PrefixStatus.NOT_A_PREFIX:
            need_reshard = True
        per_dim.append(moved)
    result = value
    if need_reshard:
        result = reshard(at, result, TensorShardingAttr(source.mesh_or_ref, tuple(dims), source.replicated_axes,
                                                        source.unreduced_axes, source.reduction))
    last = get_sharding(result)
    r2u = axis_set_diff(new_axes, s2u, mesh)
    if r2u:
        last = TensorShardingAttr(source.mesh_or_ref, tuple(dims), out.replicated_axes,
                                  tuple(sort_and_merge([*source.unreduced_axes, *r2u], mesh)), out.reduction)
        result = at.create("sdy.replicated_to_unreduced", result,
                           {"axes": AxisRefListAttr(tuple(r2u)), "out_sharding": last}, _loc_of(value)).results[0]
    if s2u:
        axes = ListOfAxisRefListsAttr(tuple(AxisRefListAttr(a) for a in per_dim))
        result = at.create("sdy.sharded_to_unreduced", result, {"axes": axes, "out_sharding": out},
                           _loc_of(value)).results[0]
        last = out
    if result is value:
        return None
    op.set_operand(index, result)
    return last


def convert_reshard_to_unreduced_collectives(op: Operation, table: MeshTable) -> bool:
    """Replace an ``sdy.reshard`` that only adds unreduced axes by the unreduced collectives doing
    it (see ``insert_unreduced_collectives``); whether it was replaced."""
    if op.name != "sdy.reshard":
        return False
    at = InsertionPoint.before(op)
    if insert_unreduced_collectives((op, 0), op.properties.get("sharding"), table, at) is None:
        return False
    from shardy_py.ir.edit import replace_op

    replace_op(op, [op.operands[0]])
    return True


# --- reshards around an op --------------------------------------------------------------------

def _projected(projection: ShardingProjection, rule: OpShardingRuleAttr, tensor: int, mesh_name: str,
               mesh: MeshAttr) -> TensorShardingAttr:
    mapping = (rule.operand_mappings[tensor] if tensor < projection.num_operands
               else rule.result_mappings[tensor - projection.num_operands])
    return projection.get_tensor(tensor).create_tensor_sharding_attr(mapping, rule.factor_sizes, mesh_name, mesh)


def _on_other_device_order(sharding: TensorShardingAttr | None, mesh: MeshAttr, table: MeshTable) -> bool:
    """``shouldReshardToCommonMesh``: a sharded tensor on a mesh whose device order differs."""
    if is_fully_replicated(sharding):
        return False
    other = table.mesh_of(sharding)
    return other is None or other.device_ids != mesh.device_ids


def insert_explicit_reshards(op: Operation, in_shardings: Sequence[TensorShardingAttr | None],
                             out_shardings: Sequence[TensorShardingAttr | None], projection: ShardingProjection,
                             update: UpdateTensorShardings, rule: OpShardingRuleAttr, table: MeshTable,
                             mesh_name: str, mesh: MeshAttr) -> None:
    """Reshard each updated operand (or one on another device order) to its projected sharding
    before ``op``; give each such result its projected sharding and reshard it back after ``op``."""
    before = InsertionPoint.before(op)
    for i, sharding in enumerate(in_shardings):
        if update.update_operands[i] or _on_other_device_order(sharding, mesh, table):
            new = _projected(projection, rule, i, mesh_name, mesh)
            op.set_operand(i, reshard(before, op.operands[i], new))
    after = InsertionPoint.after(op)
    for i, sharding in enumerate(out_shardings):
        if update.update_results[i] or _on_other_device_order(sharding, mesh, table):
            result = op.results[i]
            new = _projected(projection, rule, projection.num_operands + i, mesh_name, mesh)
            back = reshard(after, result, get_or_create_sharding(result, mesh_name))
            replace_all_uses_except(result, back)
            set_sharding(result, new)


def _reduction_axes(op: Operation, projection: ShardingProjection, common: AxesPerFactor,
                    rule: OpShardingRuleAttr, full: bool) -> list[AxisRefAttr]:
    from shardy_py.passes.export.explicit_reshards_util_common_axes import compatible_factor_sharding

    if full:
        return [a for f in rule.reduction_factors for a in common[f]]
    if not unreduced_axes(get_sharding(op.results[0])):
        return []
    out: list[AxisRefAttr] = []
    for f in rule.reduction_factors:
        axes = compatible_factor_sharding(projection, f)
        if axes is None:
            raise ExplicitReshardsError(op, "the result has unreduced axes while the operands are sharded "
                                            "differently along a reduction factor")
        out.extend(axes)
    return out


def insert_all_reduces_for_reduction_factors(op: Operation, projection: ShardingProjection, common: AxesPerFactor,
                                             rule: OpShardingRuleAttr, mesh_name: str, mesh: MeshAttr,
                                             full: bool, mark_unreduced: bool = False) -> None:
    """All-reduce each result over the axes sharding reduction factors that the result does not
    keep unreduced (the minimal version only when the result has unreduced axes).  With
    ``mark_unreduced`` (``mark-partial-result-with-unreduced-axes``, jaxlib 0.12) the op's result
    takes those axes as unreduced too (its partial result said so), the all-reduce's out sharding
    staying the result's sharding before."""
    if not op.results:
        return
    axes = _reduction_axes(op, projection, common, rule, full)
    if not axes:
        return
    axes = axis_set_diff(axes, unreduced_axes(get_sharding(op.results[0])), mesh)
    if not axes:
        return
    axes = sort_and_merge(axes, mesh)
    at = InsertionPoint.after(op)
    for result in op.results:
        sharding = get_or_create_sharding(result, mesh_name)
        kind = op_reduction_kind(op) or sharding.reduction
        replace_all_uses_except(result, all_reduce(at, result, axes, kind, sharding))
        if mark_unreduced:
            set_sharding(result, attrs.evolve(
                sharding, unreduced_axes=tuple(sort_and_merge([*sharding.unreduced_axes, *axes], mesh)),
                reduction=kind))


#: The body op of a ``stablehlo.reduce`` -> the ``ReductionOp`` of the all-reduce finishing it.
_BODY_REDUCTIONS = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min"}


def op_reduction_kind(op: Operation) -> str | None:
    """The reduction an all-reduce over ``op``'s reduction factors must do (jaxlib 0.12): ``max`` /
    ``min`` / ``sum`` for a ``stablehlo.reduce`` whose body is one maximum / minimum / add per
    input; None otherwise (the result sharding's unreduced kind then, ``sum`` by default)."""
    if op.name != "stablehlo.reduce":
        return None
    from shardy_py.rules.registry_gather_scatter import common_supported_reduction_op

    body = common_supported_reduction_op(op)
    return None if body is None else _BODY_REDUCTIONS.get(body.name)
