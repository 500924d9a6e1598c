"""The factor shardings an op is resharded to (``findCommonAxes`` of export/explicit_reshards_util.cc),
split out of ``explicit_reshards_util`` by topic.

Given the sharding projection of an op whose operand and result shardings disagree, choose one
list of axes per factor, in this order of preference:

1. the shardings are already *compatible* (each factor sharded alike in every tensor that has it,
   need-replication factors unsharded, no axis used by two factors): keep them;
2. a "unary" op (two non-scalar tensors, no need-replication factor, one factor per dimension):
   keep one tensor's shardings whole (the one without sharded permutation factors, else the bigger
   tensor, else the more sharded one) and give the other tensor's own factors what is left of
   their axes once the kept tensor's axes are taken out;
3. otherwise a greedy choice over (factor, axes-prefix) *candidates*: repeatedly take the best
   candidate (largest total size of the tensors already sharded that way, then pass-through over
   reduction over permutation over need-replication factors, then largest further sharding, then
   the larger factor index / longer axes), drop or trim the candidates it conflicts with, and
   repeat.  A factor that follows another in some dimension waits until that one is fully
   sharded.  Axes chosen for need-replication factors are then moved, where they fit, to the
   batching factors (pass-through factors present in every non-scalar tensor).
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, OpShardingRuleAttr
from shardy_py.passes.propagation.basic_factor_propagation import prefix_without_overlap_with_all
from shardy_py.passes.propagation.sharding_projection import (
    AxesPerFactor,
    ShardingProjection,
    is_strict_prefix,
)
from shardy_py.verify.axes import add_axis_or_merge, axis_size, axis_sort_key, overlaps

AxisList = tuple[AxisRefAttr, ...]

#: Preference among factor kinds when candidates cover tensors of the same total size.
_PRECEDENCE = {"pass_through": 3, "reduction": 2, "permutation": 1, "need_replication": 0}


# --- what a sharding rule says about its factors ----------------------------------------------

def factor_kind(rule: OpShardingRuleAttr, factor: int) -> str:
    """``getFactorType``: reduction, need_replication, permutation or pass_through (first that holds)."""
    if factor in rule.reduction_factors:
        return "reduction"
    if factor in rule.need_replication_factors:
        return "need_replication"
    if factor in rule.permutation_factors:
        return "permutation"
    return "pass_through"


def _mappings(rule: OpShardingRuleAttr):
    return (*rule.operand_mappings, *rule.result_mappings)


def non_scalar_tensor_indices(rule: OpShardingRuleAttr) -> list[int]:
    """Operand-then-result indices of the tensors with at least one dimension."""
    return [i for i, m in enumerate(_mappings(rule)) if m.dim_mappings]


def factor_in_all_non_scalar_tensors(rule: OpShardingRuleAttr, factor: int) -> bool:
    """Whether every tensor with dimensions has ``factor`` in one of them."""
    return all(any(factor in d.factor_indices for d in m.dim_mappings)
               for m in _mappings(rule) if m.dim_mappings)


def batching_factors(rule: OpShardingRuleAttr) -> list[int]:
    """Pass-through factors present in every non-scalar tensor, ascending."""
    return [f for f in range(len(rule.factor_sizes))
            if factor_kind(rule, f) == "pass_through" and factor_in_all_non_scalar_tensors(rule, f)]


def has_dimensions_with_multiple_factors(rule: OpShardingRuleAttr) -> bool:
    """Whether some tensor dimension is a product of several factors."""
    return any(len(d.factor_indices) > 1 for m in _mappings(rule) for d in m.dim_mappings)


def sharding_size(axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> int:
    """Product of the sizes of ``axes``."""
    n = 1
    for a in axes:
        n *= axis_size(a, mesh)
    return n


def axes_overlap(a: Sequence[AxisRefAttr], b: Sequence[AxisRefAttr]) -> bool:
    """Whether an axis of ``a`` overlaps one of ``b``."""
    return any(overlaps(x, y) for x in a for y in b)


def truncate_without_overlap(axes: AxisList, others: Sequence[AxisRefAttr]) -> AxisList | None:
    """The longest prefix of ``axes`` (its last axis possibly cut to a prefix sub-axis) that
    overlaps none of ``others``; None when ``axes`` does not overlap them at all."""
    for i, axis in enumerate(axes):
        kept = prefix_without_overlap_with_all(axis, others)
        if kept != axis:
            return axes[:i] + ((kept,) if kept is not None else ())
    return None


def _list_key(axes: AxisList) -> tuple:
    return (len(axes), tuple(axis_sort_key(a) for a in axes))


# --- 1. already compatible --------------------------------------------------------------------

def compatible_factor_sharding(projection: ShardingProjection, factor: int) -> list[AxisRefAttr] | None:
    """The axes of ``factor`` if every tensor that has it shards it alike ([] if none has it), else None."""
    found: list[AxisRefAttr] | None = None
    for tensor in projection.tensors():
        fs = tensor.factor_index_to_sharding.get(factor)
        if fs is None:
            continue
        if found is None:
            found = fs.axis_refs
        elif found != fs.axis_refs:
            return None
    return list(found) if found is not None else []


def compatible_factor_shardings(projection: ShardingProjection, rule: OpShardingRuleAttr) -> AxesPerFactor | None:
    """Case 1 of the module docstring: the common axes per factor, or None when not compatible."""
    out: AxesPerFactor = [[] for _ in rule.factor_sizes]
    seen: list[AxisRefAttr] = []
    for f in range(len(rule.factor_sizes)):
        axes = compatible_factor_sharding(projection, f)
        if axes is None:
            return None
        if f in rule.need_replication_factors:
            if axes:
                return None
            continue
        if axes_overlap(axes, seen):
            return None
        out[f] = axes
        seen.extend(axes)
    return out


# --- 2. unary ops -----------------------------------------------------------------------------

def _has_sharded_permutation_factor(tensor, rule: OpShardingRuleAttr) -> bool:
    return any(f in rule.permutation_factors and fs.axis_refs for f, fs in tensor.factor_index_to_sharding.items())


def common_axes_on_unary_op(projection: ShardingProjection, rule: OpShardingRuleAttr, tensor_sizes: Sequence[int],
                            mesh: MeshAttr) -> AxesPerFactor:
    """Case 2 of the module docstring."""
    first, second = non_scalar_tensor_indices(rule)[:2]

    def preference(i: int) -> tuple:
        t = projection.get_tensor(i)
        return (not _has_sharded_permutation_factor(t, rule), tensor_sizes[i], t.get_sharding_size(mesh))

    kept, other = (first, second) if preference(first) >= preference(second) else (second, first)
    kept_shardings = projection.get_tensor(kept).factor_index_to_sharding
    out: AxesPerFactor = [[] for _ in rule.factor_sizes]
    taken: list[AxisRefAttr] = []
    for f, fs in kept_shardings.items():
        out[f] = list(fs.axis_refs)
        taken.extend(fs.axis_refs)
    for f, fs in projection.get_tensor(other).factor_index_to_sharding.items():
        if f not in kept_shardings:
            axes = tuple(fs.axis_refs)
            for i, axis in enumerate(axes):
                kept_part = prefix_without_overlap_with_all(axis, taken)
                if kept_part != axis:
                    axes = axes[:i] + ((kept_part,) if kept_part is not None else ())
                    break
            out[f] = list(axes)
    return out


# --- 3. the greedy choice ---------------------------------------------------------------------

class _Candidate:
    """A factor with a list of axes it could be sharded on, and how good that choice is."""

    __slots__ = ("factor", "axes", "source_size", "precedence", "sharding_size")

    def __init__(self, factor: int, axes: AxisList, precedence: int, size: int):
        self.factor = factor
        self.axes = axes
        self.source_size = 0
        self.precedence = precedence
        self.sharding_size = size

    def key(self) -> tuple:
        return (self.source_size, self.precedence, self.sharding_size, self.factor, _list_key(self.axes))


def _factor_dependencies(rule: OpShardingRuleAttr) -> dict[int, set[int]]:
    """For each factor, the factors right before it in some dimension (which it waits for)."""
    deps: dict[int, set[int]] = {}
    for m in _mappings(rule):
        for d in m.dim_mappings:
            for before, after in zip(d.factor_indices, d.factor_indices[1:], strict=False):
                deps.setdefault(after, set()).add(before)
    return deps


def _candidates(projection: ShardingProjection, rule: OpShardingRuleAttr, tensor_sizes: Sequence[int],
                mesh: MeshAttr) -> list[_Candidate]:
    pairs: dict[tuple[int, AxisList], _Candidate] = {}
    tensors = projection.tensors()
    for tensor in tensors:
        for f, fs in tensor.factor_index_to_sharding.items():
            axes = tuple(fs.axis_refs)
            while axes:
                if (f, axes) not in pairs:
                    pairs[(f, axes)] = _Candidate(f, axes, _PRECEDENCE[factor_kind(rule, f)],
                                                  sharding_size(axes, mesh))
                axes = axes[:-1]
    for size, tensor in zip(tensor_sizes, tensors, strict=True):
        for f, fs in tensor.factor_index_to_sharding.items():
            source = list(fs.axis_refs)
            for c in pairs.values():
                if c.factor == f and (list(c.axes) == source or is_strict_prefix(c.axes, source)):
                    c.source_size += size
    return list(pairs.values())


def common_axes_heuristic(projection: ShardingProjection, rule: OpShardingRuleAttr, tensor_sizes: Sequence[int],
                          mesh: MeshAttr) -> AxesPerFactor:
    """Case 3 of the module docstring, before the need-replication axes are redistributed."""
    chosen: list[AxisList] = [() for _ in rule.factor_sizes]
    bag = _candidates(projection, rule, tensor_sizes, mesh)
    deps = _factor_dependencies(rule)
    while bag:
        valid = [c for c in bag if not deps.get(c.factor)]
        if not valid:
            break
        best = max(valid, key=_Candidate.key)
        chosen[best.factor] = best.axes
        if sharding_size(best.axes, mesh) == rule.factor_sizes[best.factor]:
            for waiting in deps.values():
                waiting.discard(best.factor)
        kept: list[_Candidate] = []
        for c in bag:
            if c.factor == best.factor:
                # Only candidates extending the choice stay; they count what they would add.
                if is_strict_prefix(best.axes, c.axes):
                    c.sharding_size = sharding_size(c.axes, mesh) // sharding_size(best.axes, mesh)
                    kept.append(c)
                continue
            trimmed = truncate_without_overlap(c.axes, best.axes)
            if trimmed is not None:
                if trimmed == chosen[c.factor]:
                    continue
                c.axes = trimmed
                c.sharding_size = sharding_size(trimmed, mesh) // sharding_size(chosen[c.factor], mesh)
            else:
                c.sharding_size = sharding_size(c.axes, mesh)
            kept.append(c)
        bag = kept
    return [list(axes) for axes in chosen]


def _distribute_to_batching_factors(axes: list[AxisRefAttr], rule: OpShardingRuleAttr, mesh: MeshAttr,
                                    out: AxesPerFactor) -> None:
    """Append ``axes`` (in order, whole) to the batching factors with room for them."""
    for f in batching_factors(rule):
        size = rule.factor_sizes[f]
        if size == 0:
            continue
        current = sharding_size(out[f], mesh)
        if size % current:
            continue
        room = size // current
        while axes:
            n = axis_size(axes[0], mesh)
            if room % n:
                break
            add_axis_or_merge(out[f], axes[0], mesh)
            room //= n
            axes = axes[1:]
        if not axes:
            break


def find_common_axes(projection: ShardingProjection, rule: OpShardingRuleAttr, tensor_sizes: Sequence[int],
                     mesh: MeshAttr) -> AxesPerFactor:
    """``findCommonAxes``: the axes per factor the op's operands and results are resharded to."""
    compatible = compatible_factor_shardings(projection, rule)
    if compatible is not None:
        return compatible
    if (len(non_scalar_tensor_indices(rule)) == 2 and not rule.need_replication_factors
            and not has_dimensions_with_multiple_factors(rule)):
        return common_axes_on_unary_op(projection, rule, tensor_sizes, mesh)
    out = common_axes_heuristic(projection, rule, tensor_sizes, mesh)
    for f in rule.need_replication_factors:
        axes, out[f] = out[f], []
        if axes and factor_in_all_non_scalar_tensors(rule, f):
            _distribute_to_batching_factors(axes, rule, mesh, out)
    return out
