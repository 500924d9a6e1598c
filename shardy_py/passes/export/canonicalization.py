"""``-canonicalize`` restricted to Shardy's labelled patterns (ir/canonicalization.cc and .td), as
the export pipeline runs MLIR's canonicalizer: ``canonicalize{enable-patterns=sdy-collective}``
(``kCollectiveLabel``) and ``canonicalize{enable-patterns=sdy-reshard}`` (``kReshardLabel``).

Registered as ``canonicalize``; pipelines call it by that name with option ``enable_patterns``
set to ``COLLECTIVE_LABEL`` and/or ``RESHARD_LABEL`` (comma separated).  ``enable-patterns`` is
required: the full canonicalizer (every op's patterns, StableHLO's included) is not modelled, and
asking for it, or for another label, is an error.

Patterns with label ``sdy-collective``:

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

With label ``sdy-reshard``: ``reshard(reshard(x))`` with the inner one used once becomes one reshard.

The driver is MLIR's greedy rewriter as the canonicalizer configures it (``greedy_driver`` and
``greedy_rewrite`` hold the shared parts): constants are uniqued and hoisted first; then up to
``max-iterations`` rounds, each visiting every op (``top-down``: pre-order, else post-order from
the last op), erasing ops without uses or effects, applying the patterns (users of a replaced op
and new ops are revisited), followed by a dead-code sweep.  Ops of other dialects are not folded
(StableHLO's ops in jaxlib 0.10.2 have no folders; ``arith`` ops would be, and are left alone).
"""
from __future__ import annotations

from shardy_py.ir.attrs import (
    AllToAllParamListAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    TensorShardingAttr,
)
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import index_in_block
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.export.explicit_reshards_util import is_equivalent
from shardy_py.passes.greedy_driver import erase_dead_ops, unique_constants
from shardy_py.passes.greedy_rewrite import GreedyRewriter, is_trivially_dead
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.verify.axes import add_axis_or_merge, sort_and_merge

#: ``kCollectiveLabel`` / ``kReshardLabel`` (ir/constants.h).
COLLECTIVE_LABEL = "sdy-collective"
RESHARD_LABEL = "sdy-reshard"


def _defining(value: Value, name: str) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) and owner.name == name else None


def _no_axes(per_dim) -> bool:
    return all(not axes.value for axes in per_dim.value)


class Canonicalizer(GreedyRewriter):
    """The greedy driver with ``replace_op`` / ``create_before`` notifying as MLIR's rewriter does."""

    def __init__(self, scope, labels: set[str], table: MeshTable, top_down: bool):
        patterns: dict[str, list] = {}
        if COLLECTIVE_LABEL in labels:
            for name, fns in COLLECTIVE_PATTERNS.items():
                patterns.setdefault(name, []).extend(fns)
        if RESHARD_LABEL in labels:
            patterns.setdefault("sdy.reshard", []).append(reshard_of_reshard)
        super().__init__(scope, lambda op: patterns.get(op.name, ()))
        self.table = table
        self.top_down = top_down

    def replace_op(self, op: Operation, values: list[Value]) -> None:
        """``replaceOp``: users are notified (revisited), uses move, ``op`` is erased."""
        for result, new in zip(op.results, values, strict=True):
            for use in list(result.uses):
                self.add_to_worklist(use.op)
            result.replace_all_uses_with(new)
        self.erase_op(op)

    def create_before(self, anchor: Operation, name: str, operand: Value, properties: dict) -> Operation:
        """A new one-operand op before ``anchor`` (added to the worklist)."""
        op = Builder(anchor.parent, index_in_block(anchor)).create(name, [operand], properties=properties,
                                                                   loc=anchor.loc)
        self.add_to_worklist(op)
        return op

    def one_round(self) -> bool:
        """Visit every op once (see the module docstring); whether anything changed."""
        changed = False
        ops = [op for block in self.scope.blocks for top in block.ops for op in top.walk()]
        if self.top_down:
            for op in ops:
                self.worklist.push(op)
            self.worklist.reverse()
        else:
            for op in (op for block in self.scope.blocks for top in block.ops for op in walk_post_order(top)):
                self.worklist.push(op)
        while self.worklist:
            op = self.worklist.pop()
            if is_trivially_dead(op):
                self.erase_op(op)
                changed = True
                continue
            for pattern in self.patterns_for(op):
                if pattern(op, self):
                    changed = True
                    break
        return changed


# --- sdy-collective ---------------------------------------------------------------------------

def _noop_with(key: str):
    def pattern(op: Operation, rw: Canonicalizer) -> bool:
        if not _no_axes(op.properties[key]):
            return False
        rw.replace_op(op, [op.operands[0]])
        return True
    return pattern


def all_reduce_noop(op: Operation, rw: Canonicalizer) -> bool:
    if op.properties["reduction_axes"].value:
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


def collective_permute_noop(op: Operation, rw: Canonicalizer) -> bool:
    source = get_sharding(op.operands[0])
    if source is None or not is_equivalent(source, op.properties["out_sharding"]):
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


def all_slice_of_all_gather(op: Operation, rw: Canonicalizer) -> bool:
    gather = _defining(op.operands[0], "sdy.all_gather")
    if gather is None or gather.properties["gathering_axes"] != op.properties["slicing_axes"]:
        return False
    rw.replace_op(op, [gather.operands[0]])
    return True


def all_reduce_of_replicated_to_unreduced(op: Operation, rw: Canonicalizer) -> bool:
    r2u = _defining(op.operands[0], "sdy.replicated_to_unreduced")
    if r2u is None or r2u.properties["axes"] != op.properties["reduction_axes"]:
        return False
    rw.replace_op(op, [r2u.operands[0]])
    return True


def all_reduce_of_sharded_to_unreduced(op: Operation, rw: Canonicalizer) -> bool:
    s2u = _defining(op.operands[0], "sdy.sharded_to_unreduced")
    if s2u is None:
        return False
    mesh = rw.table.mesh_of(s2u.properties["out_sharding"])
    axes = sort_and_merge([a for per_dim in s2u.properties["axes"].value for a in per_dim.value], mesh)
    if tuple(axes) != tuple(op.properties["reduction_axes"].value):
        return False
    gather = rw.create_before(op, "sdy.all_gather", s2u.operands[0], {
        "gathering_axes": s2u.properties["axes"], "out_sharding": op.properties["out_sharding"]})
    rw.replace_op(op, [gather.results[0]])
    return True


def reduce_scatter_fusion(op: Operation, rw: Canonicalizer) -> bool:
    """``all_slice(all_reduce(x))`` -> ``reduce_scatter`` (+ ``all_slice``), see the docstring."""
    reduce = _defining(op.operands[0], "sdy.all_reduce")
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
    mesh = rw.table.mesh_of(out)
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
    new = rw.create_before(op, "sdy.reduce_scatter", reduce.operands[0], {
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


def all_to_all_fusion(op: Operation, rw: Canonicalizer) -> bool:
    inner = _defining(op.operands[0], "sdy.all_to_all")
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


def all_to_all_no_use(op: Operation, rw: Canonicalizer) -> bool:
    if op.results[0].uses:
        return False
    rw.replace_op(op, [op.operands[0]])
    return True


#: Per op, its collective-label patterns, in the order MLIR tries them (patterns matching two ops
#: have the higher benefit and come first).
COLLECTIVE_PATTERNS = {
    "sdy.all_gather": [_noop_with("gathering_axes")],
    "sdy.all_slice": [all_slice_of_all_gather, _noop_with("slicing_axes"), reduce_scatter_fusion],
    "sdy.all_reduce": [all_reduce_of_replicated_to_unreduced, all_reduce_noop, all_reduce_of_sharded_to_unreduced],
    "sdy.all_to_all": [all_to_all_fusion, all_to_all_no_use],
    "sdy.collective_permute": [collective_permute_noop],
    "sdy.reduce_scatter": [_noop_with("reduce_scatter_axes")],
}


# --- sdy-reshard ------------------------------------------------------------------------------

def reshard_of_reshard(op: Operation, rw: Canonicalizer) -> bool:
    """``reshard(reshard(x, a), b)`` -> ``reshard(x, b)`` when the inner reshard has one use."""
    inner = _defining(op.operands[0], "sdy.reshard")
    if inner is None or len(inner.results[0].uses) != 1:
        return False
    new = rw.create_before(op, "sdy.reshard", inner.operands[0], {"sharding": op.properties["sharding"]})
    rw.replace_op(op, [new.results[0]])
    return True


@register
class CanonicalizePass(Pass):
    name = "canonicalize"
    summary = "Canonicalize operations (Shardy's labelled patterns only)."
    options = (
        PassOption("enable-patterns", str, "",
                   f"Labels of the patterns to run: {COLLECTIVE_LABEL} and/or {RESHARD_LABEL} (required)."),
        PassOption("top-down", bool, True, "Seed the worklist in pre-order (else post-order)."),
        PassOption("max-iterations", int, 10, "Most rounds over the IR."),
    )

    def run(self, module, ctx) -> None:
        """Check the labels, then run the driver (module docstring) on the module body."""
        labels = {x.strip() for x in self.option("enable-patterns").replace(";", ",").split(",") if x.strip()}
        known = {COLLECTIVE_LABEL, RESHARD_LABEL}
        if not labels or labels - known:
            ctx.error(None, "canonicalize: only Shardy's labelled patterns are implemented; give "
                            f"enable-patterns={COLLECTIVE_LABEL} and/or {RESHARD_LABEL}"
                            + (f" (unknown: {', '.join(sorted(labels - known))})" if labels - known else ""))
            return
        touched = unique_constants(module.op)
        rw = Canonicalizer(module.op.regions[0], labels, MeshTable(module), self.option("top-down"))
        for _ in range(max(1, self.option("max-iterations"))):
            changed = rw.one_round()
            before = sum(1 for _ in module.op.walk())
            erase_dead_ops(module.op)
            changed |= sum(1 for _ in module.op.walk()) != before
            touched |= changed
            if not changed:
                break
        if not touched:
            ctx.mark_all_preserved()  # no constant moved, no pattern applied, nothing erased
