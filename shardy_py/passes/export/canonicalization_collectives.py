"""The collective canonicalization patterns (ir/canonicalization.cc and canonicalization.td, label
``sdy-collective``), each ``pattern(op, rewriter) -> bool``:

* a no-op ``sdy.all_gather`` / ``all_slice`` / ``reduce_scatter`` (no axes in any dimension),
  ``sdy.all_reduce`` (no axes) and ``sdy.collective_permute`` (operand sharded equivalently)
  are replaced by their operand;
* ``all_slice(all_gather(x))`` with the same axes, and ``all_reduce(replicated_to_unreduced(x))``
  with the same axes, are replaced by ``x``;
* ``all_reduce(sharded_to_unreduced(x))`` over exactly the (sorted, merged) axes the latter made
  unreduced becomes an ``sdy.all_gather`` of ``x`` over them;
* ``all_slice(all_reduce(x))``, when every user of the all-reduce is an identical all-slice and
  this is the first of them, and the reduction axes all lead the slicing axes of some dimension,
  becomes a ``sdy.reduce_scatter`` (plus an ``all_slice`` of the remaining slicing axes);
* ``all_to_all(all_to_all(x))`` with the inner one used once and no dimension shared by their
  parameters becomes one all-to-all (parameters sorted by source dimension); an unused
  ``all_to_all`` is replaced by its operand.
"""
from __future__ import annotations

from shardy_py.ir.attrs import (
    AllToAllParamListAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    TensorShardingAttr,
)
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Operation, Value
from shardy_py.passes.export.canonicalization_patterns import CanonicalizationPattern
from shardy_py.passes.export.explicit_reshards_util import is_equivalent
from shardy_py.passes.pattern_driver import PatternRewriter
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import add_axis_or_merge, sort_and_merge


def defining(value: Value, name: str) -> Operation | None:
    """The op defining ``value`` when it is a ``name`` op."""
    owner = value.owner
    return owner if isinstance(owner, Operation) and owner.name == name else None


def _no_axes(per_dim) -> bool:
    return all(not axes.value for axes in per_dim.value)


def _noop_with(key: str):
    def pattern(op: Operation, rw: PatternRewriter) -> bool:
        if not _no_axes(op.properties[key]):
            return False
        rw.replace_op(op, [op.operands[0]])
        return True
    return pattern


def all_reduce_noop(op: Operation, rw: PatternRewriter) -> bool:
    if op.properties["reduction_axes"].value:
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


def collective_permute_noop(op: Operation, rw: PatternRewriter) -> bool:
    source = get_sharding(op.operands[0])
    if source is None or not is_equivalent(source, op.properties["out_sharding"]):
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


def _cancelled_by(producer: str, producer_key: str, key: str):
    """``op(producer(x))`` -> ``x`` when the producer's ``producer_key`` equals ``op``'s ``key``."""
    def pattern(op: Operation, rw: PatternRewriter) -> bool:
        inner = defining(op.operands[0], producer)
        if inner is None or inner.properties[producer_key] != op.properties[key]:
            return False
        rw.replace_op(op, [inner.operands[0]])
        return True
    return pattern


#: ``all_slice(all_gather(x))`` and ``all_reduce(replicated_to_unreduced(x))`` over the same axes.
all_slice_of_all_gather = _cancelled_by("sdy.all_gather", "gathering_axes", "slicing_axes")
all_reduce_of_replicated_to_unreduced = _cancelled_by("sdy.replicated_to_unreduced", "axes", "reduction_axes")


def all_reduce_of_sharded_to_unreduced(op: Operation, rw: PatternRewriter) -> bool:
    s2u = defining(op.operands[0], "sdy.sharded_to_unreduced")
    if s2u is None:
        return False
    mesh = rw.context["table"].mesh_of(s2u.properties["out_sharding"])
    axes = sort_and_merge([a for per_dim in s2u.properties["axes"].value for a in per_dim.value], mesh)
    if tuple(axes) != tuple(op.properties["reduction_axes"].value):
        return False
    gather = rw.create_before(op, "sdy.all_gather", s2u.operands[0], {
        "gathering_axes": s2u.properties["axes"], "out_sharding": op.properties["out_sharding"]})
    rw.replace_op(op, [gather.results[0]])
    return True


def reduce_scatter_fusion(op: Operation, rw: PatternRewriter) -> bool:
    """``all_slice(all_reduce(x))`` -> ``reduce_scatter`` (+ ``all_slice``), see the docstring."""
    reduce = defining(op.operands[0], "sdy.all_reduce")
    if reduce is None:
        return False
    slicing = op.properties["slicing_axes"]
    position = index_in_block(op)
    for use in reduce.results[0].uses:
        user = use.op
        if user.name != "sdy.all_slice" or user.properties["slicing_axes"] != slicing:
            return False
        if user.parent is op.parent and index_in_block(user) < position:
            return False
    out = reduce.properties["out_sharding"]
    mesh = rw.context["table"].mesh_of(out)
    remaining = list(reduce.properties["reduction_axes"].value)
    scatter, residual = [], []
    for per_dim in slicing.value:
        axes = list(per_dim.value)
        n = 0
        while n < len(axes) and axes[n] in remaining:
            remaining.remove(axes[n])
            n += 1
        scatter.append(AxisRefListAttr(tuple(axes[:n])))
        residual.append(AxisRefListAttr(tuple(axes[n:])))
    if remaining:
        return False
    source = get_sharding(reduce.operands[0])
    if source is None:
        rank = len(slicing.value)
        source = TensorShardingAttr(out.mesh_or_ref, tuple(DimensionShardingAttr((), True) for _ in range(rank)))
    dims = []
    for dim, per_dim in zip(source.dim_shardings, scatter, strict=True):
        axes = list(dim.axes)
        for a in per_dim.value:
            add_axis_or_merge(axes, a, mesh)
        dims.append(DimensionShardingAttr(tuple(axes), True))
    slice_out = op.properties["out_sharding"]
    scatter_out = TensorShardingAttr(out.mesh_or_ref, tuple(dims), slice_out.replicated_axes,
                                     slice_out.unreduced_axes, slice_out.reduction)
    new = rw.create_before(op, "sdy.reduce_scatter", reduce.operands[0], loc=reduce, properties={
        "reduce_scatter_axes": ListOfAxisRefListsAttr(tuple(scatter)),
        "reduction_op": reduce.properties.get("reduction_op", "sum"), "out_sharding": scatter_out})
    final = new.results[0]
    if any(r.value for r in residual):
        final = rw.create_before(op, "sdy.all_slice", final, {
            "slicing_axes": ListOfAxisRefListsAttr(tuple(residual)), "out_sharding": slice_out}).results[0]
    for use in list(reduce.results[0].uses):
        rw.replace_op(use.op, [final])
    rw.erase_op(reduce)
    return True


def _params_overlap(a: AllToAllParamListAttr, b: AllToAllParamListAttr) -> bool:
    seen: set[int] = set()
    for p in (*a.value, *b.value):
        for dim in (p.src_dim, p.tgt_dim):
            if dim in seen:
                return True
            seen.add(dim)
    return False


def all_to_all_fusion(op: Operation, rw: PatternRewriter) -> bool:
    inner = defining(op.operands[0], "sdy.all_to_all")
    if inner is None or len(inner.results[0].uses) != 1:
        return False
    inner_params, outer_params = inner.properties["params"], op.properties["params"]
    if _params_overlap(inner_params, outer_params):
        return False
    params = AllToAllParamListAttr(tuple(sorted((*inner_params.value, *outer_params.value),
                                                key=lambda p: p.src_dim)))
    new = rw.create_before(op, "sdy.all_to_all", inner.operands[0], {
        "params": params, "out_sharding": op.properties["out_sharding"]})
    rw.replace_op(op, [new.results[0]])
    return True


def all_to_all_no_use(op: Operation, rw: PatternRewriter) -> bool:
    if op.results[0].uses:
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


#: ``(registering op, pattern)`` in the order each op's ``getCanonicalizationPatterns`` adds them; all
#: carry the ``sdy-collective`` label.  (``ReduceScatterFusion`` rewrites ``sdy.all_slice`` ops but is
#: registered by ``sdy.reduce_scatter``.)
COLLECTIVE_PATTERNS = (
    ("sdy.all_gather", CanonicalizationPattern("AllGatherNoopPattern", "sdy.all_gather", _noop_with("gathering_axes"))),
    ("sdy.all_slice", CanonicalizationPattern("AllSliceOfAllGatherPattern", "sdy.all_slice",
                                              all_slice_of_all_gather, 2)),
    ("sdy.all_slice", CanonicalizationPattern("AllSliceNoopPattern", "sdy.all_slice", _noop_with("slicing_axes"))),
    ("sdy.all_reduce", CanonicalizationPattern("AllReduceNoopPattern", "sdy.all_reduce", all_reduce_noop)),
    ("sdy.all_reduce", CanonicalizationPattern("AllReduceOfReplicatedToUnreducedPattern", "sdy.all_reduce",
                                               all_reduce_of_replicated_to_unreduced, 2)),
    ("sdy.all_reduce", CanonicalizationPattern("AllReduceOfShardedToUnreducedPattern", "sdy.all_reduce",
                                               all_reduce_of_sharded_to_unreduced)),
    ("sdy.all_to_all", CanonicalizationPattern("AllToAllFusionPattern", "sdy.all_to_all", all_to_all_fusion, 2)),
    ("sdy.all_to_all", CanonicalizationPattern("AllToAllNoUsePattern", "sdy.all_to_all", all_to_all_no_use)),
    ("sdy.collective_permute", CanonicalizationPattern("CollectivePermuteNoopPattern", "sdy.collective_permute",
                                                       collective_permute_noop)),
    ("sdy.reduce_scatter", CanonicalizationPattern("ReduceScatterFusion", "sdy.all_slice", reduce_scatter_fusion)),
    ("sdy.reduce_scatter", CanonicalizationPattern("ReduceScatterNoopPattern", "sdy.reduce_scatter",
                                                   _noop_with("reduce_scatter_axes"))),
)
