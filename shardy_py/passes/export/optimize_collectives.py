"""``-sdy-optimize-collectives`` (export/optimize_collectives.cc, ``CollectivePermuteOptimizationPattern``),
as jaxlib 0.12 runs it: a collective permute that reorders the axes of one dimension, followed by
all-to-alls that move axes out of that dimension, becomes a reshape that splits the dimension into
one dimension per axis, all-to-alls between those dimensions (no permute), and a reshape back.

The test files' Shardy (``SHARDY_COMMIT``) does not have the pass; jaxlib 0.12's is the oracle
(its behaviour was read off jaxlib on Shardy's later test inputs and on drawn chains, see
tests/test_passes_optimize_collectives*.py).  For ``%p = sdy.collective_permute %x``:

* the input's sharding and the permute's are on the same mesh (by name), with the same replicated
  and unreduced axes and the same open/closed dimensions; after cutting overlapping sub-axes into
  common pieces (``alignSubAxesByDecomposition``) they differ in exactly one dimension, the *split
  dimension*, where the permute only reorders the input's axes; the tensor has a static shape;
* the chain: starting at ``%p`` (which must have one use), while the value has exactly one use and
  it is an ``sdy.all_to_all`` whose parameters all move axes out of the split dimension, that
  all-to-all joins the chain (so the last one may have several users); the chain is not empty;
* the split dimension (size ``n``, axes ``a1..ak`` of the input, in order) becomes ``k`` dimensions
  of sizes ``|a1|..|ak|``, plus one of ``n / (|a1|...|ak|)`` when that is more than 1 (``n`` must be
  divisible); ``ai`` shards the ``i``-th of them, and the new dimensions are closed;
* each all-to-all of the chain becomes one on the split tensor: one parameter per axis it moves,
  from that axis's own dimension to its target (shifted past the new dimensions), sorted by source;
* the axes left in the split dimension (the permute's order, without the moved ones) must end up on
  the first new dimensions in that order: for each target position in order, the axis that belongs
  there is moved in by an all-to-all of its own, after moving (first, recursively) the axis that
  sits there to its own place; a cycle gives up;
* the result, on the split tensor, must place the data as the last all-to-all's ``out_sharding``
  does on the original shape (``isShardingEquivalentAcrossReshapes``); then the reshape back (with
  that sharding) replaces the last all-to-all, and the chain and the permute are erased.

All new ops are inserted before the permute, with its location.  The pass runs the pattern with
MLIR's greedy driver as a default ``GreedyRewriteConfig`` sets it up (bottom-up, constants uniqued,
dead ops erased; ``passes/pattern_driver.py``).  An all-to-all made from one that moves several axes
of the split dimension to one target gets several parameters with that target, which the verifier
rejects after the pass, as in jaxlib.
"""
from __future__ import annotations

import math

import attrs

from shardy_py.ir.attrs import (
    AllToAllParamAttr,
    AllToAllParamListAttr,
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    TensorShardingAttr,
)
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.export_utils import align_per_dim
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.pattern_driver import PatternRewriter, apply_patterns_greedily
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.verify.axes import axis_size


class _GiveUp(Exception):
    """The chain cannot be rewritten."""


@attrs.frozen
class RewritePlan:
    """What replaces a permute and its all-to-all chain."""

    split_type: RankedTensorType
    split_sharding: TensorShardingAttr
    #: (parameters, out_sharding) of each new all-to-all, in order.
    stages: tuple[tuple[AllToAllParamListAttr, TensorShardingAttr], ...]


def _aligned_axes(a: TensorShardingAttr, b: TensorShardingAttr, mesh: MeshAttr) -> tuple[list, list]:
    """Both shardings' axes per dimension with overlapping sub-axes cut into common pieces."""
    ins = [list(d.axes) for d in a.dim_shardings]
    outs = [list(d.axes) for d in b.dim_shardings]
    all_in = [x for axes in ins for x in axes]
    all_out = [x for axes in outs for x in axes]
    align_per_dim(ins, all_out, mesh)
    align_per_dim(outs, all_in, mesh)
    return ins, outs


def find_split_dim(source: TensorShardingAttr, permuted: TensorShardingAttr, mesh: MeshAttr) -> tuple[int, list, list]:
    """The one dimension the permute reorders, with the input's and the permute's (aligned) axes there."""
    if source.mesh_or_ref != permuted.mesh_or_ref or source.replicated_axes != permuted.replicated_axes \
            or source.unreduced_axes != permuted.unreduced_axes \
            or len(source.dim_shardings) != len(permuted.dim_shardings):
        raise _GiveUp
    if any(a.is_closed != b.is_closed for a, b in zip(source.dim_shardings, permuted.dim_shardings, strict=True)):
        raise _GiveUp
    ins, outs = _aligned_axes(source, permuted, mesh)
    differing = [d for d, (a, b) in enumerate(zip(ins, outs, strict=True)) if a != b]
    if len(differing) != 1:
        raise _GiveUp
    dim = differing[0]
    if sorted(map(str, ins[dim])) != sorted(map(str, outs[dim])):
        raise _GiveUp
    return dim, ins[dim], outs[dim]


def extract_chain(cp: Operation, split_dim: int) -> list[Operation]:
    """``extractAllToAllChain``: the all-to-alls that follow the permute out of the split dimension."""
    chain: list[Operation] = []
    value = cp.results[0]
    while len(value.uses) == 1:
        user = next(iter(value.uses)).op
        if user.name != "sdy.all_to_all":
            break
        if any(p.src_dim != split_dim for p in user.properties_view["params"].value):
            break
        chain.append(user)
        value = user.results[0]
    return chain


def _move(sharding: TensorShardingAttr, params) -> TensorShardingAttr:
    """``computeAllToAllStage``: each parameter's source dimension emptied, its axes appended to its target."""
    dims = list(sharding.dim_shardings)
    for p in params:
        dims[p.src_dim] = DimensionShardingAttr((), True)
        target = dims[p.tgt_dim]
        dims[p.tgt_dim] = DimensionShardingAttr((*target.axes, *p.axes), target.is_closed)
    return TensorShardingAttr(sharding.mesh_or_ref, tuple(dims), sharding.replicated_axes, sharding.unreduced_axes)


def _placing_moves(remaining: list[AxisRefAttr], slot_of: dict[AxisRefAttr, int]) -> list[tuple[AxisRefAttr, int, int]]:
    """The (axis, from, to) moves that put ``remaining[i]`` on new dimension ``i`` (module docstring)."""
    occupant = {slot: axis for axis, slot in slot_of.items()}
    target = {axis: i for i, axis in enumerate(remaining)}
    moves: list[tuple[AxisRefAttr, int, int]] = []
    visiting: set[int] = set()

    def place(i: int) -> None:
        axis = remaining[i]
        if slot_of[axis] == i:
            return
        if i in visiting:
            raise _GiveUp
        visiting.add(i)
        there = occupant.get(i)
        if there is not None:
            place(target[there])
        source = slot_of[axis]
        moves.append((axis, source, i))
        del occupant[source]
        occupant[i] = axis
        slot_of[axis] = i
        visiting.discard(i)

    for i in range(len(remaining)):
        place(i)
    return moves


def compute_rewrite_plan(cp: Operation, chain: list[Operation], split_dim: int, in_axes: list, cp_axes: list,
                         source: TensorShardingAttr, mesh: MeshAttr, table: MeshTable) -> RewritePlan:
    """``computeRewritePlan``: the split tensor and the all-to-alls on it (module docstring)."""
    type_ = cp.operands[0].type
    sizes = [axis_size(a, mesh) for a in in_axes]
    total = math.prod(sizes)
    if type_.shape[split_dim] % total:
        raise _GiveUp
    residual = type_.shape[split_dim] // total
    pieces = len(sizes) + (residual > 1)
    shape = (*type_.shape[:split_dim], *sizes, *([residual] if residual > 1 else []), *type_.shape[split_dim + 1:])
    split_type = RankedTensorType.get(shape, type_.element_type)
    dims = list(source.dim_shardings)
    new_dims = [DimensionShardingAttr((a,), True) for a in in_axes] + (
        [DimensionShardingAttr((), True)] if residual > 1 else [])
    sharding = TensorShardingAttr(source.mesh_or_ref, (*dims[:split_dim], *new_dims, *dims[split_dim + 1:]),
                                  source.replicated_axes, source.unreduced_axes)
    split_sharding = sharding

    def shifted(dim: int) -> int:
        return dim if dim < split_dim else dim + pieces - 1

    slot_of = {a: i for i, a in enumerate(in_axes)}
    stages = []
    moved: set[AxisRefAttr] = set()
    for a2a in chain:
        params = []
        for p in a2a.properties_view["params"].value:
            for axis in p.axes:
                if axis not in slot_of or axis in moved:
                    raise _GiveUp
                params.append(AllToAllParamAttr((axis,), split_dim + slot_of[axis], shifted(p.tgt_dim)))
                moved.add(axis)
        params.sort(key=lambda p: p.src_dim)
        sharding = _move(sharding, params)
        stages.append((AllToAllParamListAttr(tuple(params)), sharding))
    for axis in moved:
        del slot_of[axis]
    remaining = [a for a in cp_axes if a not in moved]
    for axis, source_slot, target_slot in _placing_moves(remaining, slot_of):
        params = (AllToAllParamAttr((axis,), split_dim + source_slot, split_dim + target_slot),)
        sharding = _move(sharding, params)
        stages.append((AllToAllParamListAttr(params), sharding))
    terminal = chain[-1]
    if not is_sharding_equivalent_across_reshapes(sharding, split_type, terminal.properties_view["out_sharding"],
                                                  terminal.results[0].type, table.mesh_of):
        raise _GiveUp
    return RewritePlan(split_type, split_sharding, tuple(stages))


def plan_for(cp: Operation, table: MeshTable) -> tuple[list[Operation], RewritePlan] | None:
    """The chain after ``cp`` and its rewrite, or None when the pattern does not apply."""
    type_ = cp.operands[0].type
    source = get_sharding(cp.operands[0])
    permuted = cp.properties_view["out_sharding"]
    if source is None or not isinstance(type_, RankedTensorType) or not type_.has_static_shape or type_.rank == 0:
        return None
    mesh = table.mesh_of(permuted)
    if mesh is None:
        return None
    try:
        split_dim, in_axes, cp_axes = find_split_dim(source, permuted, mesh)
        chain = extract_chain(cp, split_dim)
        if not chain:
            return None
        return chain, compute_rewrite_plan(cp, chain, split_dim, in_axes, cp_axes, source, mesh, table)
    except _GiveUp:
        return None


def rewrite_chain(cp: Operation, chain: list[Operation], plan: RewritePlan, rw: PatternRewriter) -> None:
    """``rewriteAllToAllChain``: reshape, the all-to-alls, reshape back, before ``cp``."""
    reshape = rw.create(cp, "stablehlo.reshape", [cp.operands[0]], result_types=[plan.split_type])
    set_sharding(reshape.results[0], plan.split_sharding)
    value = reshape.results[0]
    for params, out_sharding in plan.stages:
        value = rw.create(cp, "sdy.all_to_all", [value], properties={"params": params, "out_sharding": out_sharding},
                          result_types=[plan.split_type]).results[0]
    terminal = chain[-1]
    back = rw.create(cp, "stablehlo.reshape", [value], result_types=[terminal.results[0].type])
    set_sharding(back.results[0], terminal.properties_view["out_sharding"])
    rw.replace_all_uses(terminal.results[0], back.results[0])
    for a2a in reversed(chain):
        rw.erase_op(a2a)
    rw.erase_op(cp)


def collective_permute_optimization(op: Operation, rw: PatternRewriter) -> bool:
    """The pattern, rooted at an ``sdy.collective_permute``."""
    found = plan_for(op, rw.context["table"])
    if found is None:
        return False
    rewrite_chain(op, *found, rw)
    return True


_PATTERNS = {"sdy.collective_permute": (collective_permute_optimization,)}


@register
class OptimizeCollectivesPass(Pass):
    name = "sdy-optimize-collectives"
    summary = "Optimizes collectives post-lowering."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Apply the pattern greedily to ``func`` (bottom-up, as a default ``GreedyRewriteConfig``)."""
        table = MeshTable(func.parent)
        if not apply_patterns_greedily(func, lambda op: _PATTERNS.get(op.name, ()), top_down=False, table=table):
            ctx.mark_all_preserved()
