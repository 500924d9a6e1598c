"""The conservative factor propagation strategy (``basic_factor_propagation.{h,cc}``).

``BasicFactorPropagation().propagate_factor_shardings(projection, direction_along_factor,
factor_sizes, mesh, conservative_propagation, op=None)`` propagates each factor
on its own: it computes the compatible major sharding axes of the factor over
all tensors and expands every tensor whose axes for that factor are a strict
prefix of them.

The building blocks are methods so that ``AggressiveFactorPropagation`` can
reuse them:

``get_compatible_major_axes(projection, factor_index, direction)``
    the longest axis list every tensor mapped to the factor agrees with
    (a tensor agrees when its axes are a prefix of the list and it is not
    sharded further, or the list is a prefix of its axes).  With FORWARD
    only operands may lengthen the list (results only cut it), BACKWARD the
    reverse, NONE gives ``[]``.
``get_compatible_major_sharding_axes(projection, factor_index, direction, factor_size, mesh, conservative)``
    that list cut at the first axis that conflicts: overlaps with another
    factor's axes or overflow axes, with replicated/unreduced axes of a tensor
    that has the factor, or cannot be added to a tensor whose factor is closed,
    has overflow axes or (non-minor-most) would not divide the factor size;
    a partially fitting axis is replaced by its largest fitting prefix
    sub-axis.  Conservative mode also cuts at the first sub-axis.
``compatible_prefix_no_conflicts_across_factors``, ``compatible_prefix_no_conflicts_within_factor``,
``truncate_axes_by_removing_conflicts``
    the conflict rules, one axis at a time.

Examples with direction BOTH (no other conflicts): ``["a", "b"]`` and
``["a", "c"]`` give ``["a"]``; ``["a":(1)2]`` and ``["a":(1)4]`` give
``["a":(1)4]``; ``["a":(1)2, "b"]`` and ``["a":(1)4]`` give ``["a":(1)2]``.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, SubAxisInfoAttr
from shardy_py.passes.propagation.factor_propagation import (
    FactorPropagation,
    PropagationDirection,
    PropagationDirectionAlongFactor,
)
from shardy_py.passes.propagation.sharding_projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
    UpdateTensorShardings,
)
from shardy_py.verify.axes import axis_size, contains, prefix_of, prefix_without_overlap

__all__ = ["BasicFactorPropagation", "prefix_without_overlap_with_all", "compatible_major_axes_of_two"]

RemoveConflicts = Callable[[AxisRefAttr, int], "AxisRefAttr | None"]


def prefix_without_overlap_with_all(ref: AxisRefAttr | None, others: Sequence[AxisRefAttr]) -> AxisRefAttr | None:
    """The largest prefix of ``ref`` overlapping none of ``others`` (None if empty or ``ref`` is None)."""
    for other in others:
        if ref is None:
            return None
        ref = prefix_without_overlap(ref, other)
    return ref


def compatible_major_axes_of_two(old_axes: Sequence[AxisRefAttr], new_axes: Sequence[AxisRefAttr],
                                 can_expand: bool) -> tuple[list[AxisRefAttr], bool]:
    """Merge two axis lists of one factor into their compatible major axes.

    Returns the merged list and whether it may still be expanded.  While
    ``can_expand`` the longer of two agreeing lists wins; otherwise the result
    never goes beyond ``old_axes``.  ``["a"]``/``["a", "b"]`` give
    ``(["a", "b"], True)``; ``["a", "b"]``/``["a", "c"]`` give ``(["a"], False)``.
    """
    if not old_axes:
        return (list(new_axes) if can_expand else []), can_expand
    if not new_axes:
        return list(old_axes), can_expand
    result: list[AxisRefAttr] = []
    i = 0
    while i < len(old_axes) and i < len(new_axes):
        old, new = old_axes[i], new_axes[i]
        i += 1
        if old.name != new.name:
            return result, False
        if old.sub_axis_info == new.sub_axis_info:
            result.append(new)
            continue
        if prefix_of(new, old):
            if i < len(new_axes):
                # The new list goes on after a strict prefix sub-axis: treat as a conflict.
                result.append(new)
                return result, False
            result.append(old)
        elif prefix_of(old, new):
            if not can_expand or i < len(old_axes):
                result.append(old)
                return result, False
            result.append(new)
        else:
            return result, False
    result.extend(old_axes[i:])
    if can_expand:
        result.extend(new_axes[i:])
    return result, can_expand


class BasicFactorPropagation(FactorPropagation):
    """Propagates to all tensors the same axes along a factor, stopping at any conflict."""

    # --- conflict rules ----------------------------------------------------------------------

    def compatible_prefix_no_conflicts_across_factors(self, axis_ref: AxisRefAttr,
                                                      factor_index_to_sharding: dict[int, FactorSharding],
                                                      factor_index: int) -> AxisRefAttr | None:
        """The largest prefix of ``axis_ref`` overlapping no axes or overflow axes of the other factors."""
        result: AxisRefAttr | None = axis_ref
        for other_index, fs in factor_index_to_sharding.items():
            if other_index == factor_index:
                continue
            result = prefix_without_overlap_with_all(result, fs.overflow_axes)
            result = prefix_without_overlap_with_all(result, fs.axis_refs)
            if result is None:
                return None
        return result

    def compatible_prefix_no_conflicts_within_factor(self, axis_ref: AxisRefAttr,
                                                     replicated_axes: Sequence[AxisRefAttr],
                                                     unreduced_axes: Sequence[AxisRefAttr],
                                                     factor_sharding: FactorSharding, prev_sharded_size: int,
                                                     factor_size: int, mesh: MeshAttr | None) -> AxisRefAttr | None:
        """The largest prefix of ``axis_ref`` this tensor's factor can take.

        It must not overlap replicated/unreduced axes; if the factor does not
        already contain it, the factor must be open, without overflow axes, and
        minor-most or still divisible (``factor_size / prev_sharded_size``).
        Failing that, the factor's own last axis is kept if it is a prefix of
        ``axis_ref``.
        """
        result = prefix_without_overlap_with_all(axis_ref, replicated_axes)
        result = prefix_without_overlap_with_all(result, unreduced_axes)
        if result is None:
            return None
        factor_axes = factor_sharding.axis_refs
        if any(contains(a, result) for a in factor_axes):
            return result
        if not factor_sharding.is_closed and not factor_sharding.overflow_axes:
            if factor_sharding.is_minor_most or mesh is None:
                return result
            if factor_size % prev_sharded_size == 0:
                size = axis_size(result, mesh)
                g = math.gcd(factor_size // prev_sharded_size, size)
                if g == size:
                    return result
                if g != 1:
                    return AxisRefAttr(result.name, SubAxisInfoAttr(result.pre_size, g))
        if factor_axes and prefix_of(factor_axes[-1], result):
            return factor_axes[-1]
        return None

    def truncate_axes_by_removing_conflicts(self, axes: list[AxisRefAttr], remove_conflicts: RemoveConflicts,
                                            mesh: MeshAttr | None, conservative_propagation: bool) -> None:
        """Cut ``axes`` (in place) at the first axis ``remove_conflicts`` rejects or shortens.

        A rejected axis (None, or a sub-axis in conservative mode) is dropped
        with all later ones; a shortened axis replaces the original and the
        later ones are dropped.  ``remove_conflicts`` gets the axis and the
        product of the sizes of the axes before it (1 when ``mesh`` is None).
        """
        prev = 1
        for i, cur in enumerate(axes):
            new = remove_conflicts(cur, prev)
            if new is None or (conservative_propagation and new.sub_axis_info is not None):
                del axes[i:]
                return
            if new != cur:
                axes[i] = new
                del axes[i + 1:]
                return
            if mesh is not None:
                prev *= axis_size(new, mesh)

    def _compatible_prefix_in_tensor(self, axis_ref: AxisRefAttr, tensor: TensorFactorShardings, factor_index: int,
                                     prev_sharded_size: int, factor_size: int,
                                     mesh: MeshAttr | None) -> AxisRefAttr | None:
        result = self.compatible_prefix_no_conflicts_across_factors(axis_ref, tensor.factor_index_to_sharding,
                                                                    factor_index)
        if result is None:
            return None
        fs = tensor.factor_index_to_sharding.get(factor_index)
        if fs is None:
            # Not mapped to the factor: only other factors' axes can conflict.
            return result
        return self.compatible_prefix_no_conflicts_within_factor(
            result, tensor.replicated_axes, tensor.unreduced_axes, fs, prev_sharded_size, factor_size, mesh)

    def _compatible_prefix(self, axis_ref: AxisRefAttr, projection: ShardingProjection, factor_index: int,
                           prev_sharded_size: int, factor_size: int, mesh: MeshAttr | None) -> AxisRefAttr | None:
        result: AxisRefAttr | None = axis_ref
        for tensor in projection.tensors():
            result = self._compatible_prefix_in_tensor(result, tensor, factor_index, prev_sharded_size, factor_size,
                                                       mesh)
            if result is None:
                return None
        return result

    # --- compatible axes ------------------------------------------------------------------------

    def get_compatible_major_axes(self, projection: ShardingProjection, factor_index: int,
                                  direction: PropagationDirection) -> list[AxisRefAttr]:
        """The longest prefix of axes sharding the factor that all tensors agree with, ignoring conflicts."""
        if direction == PropagationDirection.NONE:
            return []
        if direction == PropagationDirection.BACKWARD:
            first, second = projection.results, projection.operands
        else:
            first, second = projection.operands, projection.results
        axes: list[AxisRefAttr] = []
        can_expand = True

        def update(tensors: list[TensorFactorShardings]) -> None:
            nonlocal axes, can_expand
            for t in tensors:
                fs = t.factor_index_to_sharding.get(factor_index)
                if fs is not None:
                    axes, can_expand = compatible_major_axes_of_two(axes, fs.axis_refs, can_expand)

        update(first)
        if direction != PropagationDirection.BOTH:
            can_expand = False
        update(second)
        return axes

    def get_compatible_major_sharding_axes(self, projection: ShardingProjection, factor_index: int,
                                           direction: PropagationDirection, factor_size: int, mesh: MeshAttr | None,
                                           conservative_propagation: bool) -> list[AxisRefAttr]:
        """``get_compatible_major_axes`` cut at the first conflict (see the module docstring)."""
        axes = self.get_compatible_major_axes(projection, factor_index, direction)
        if not axes:
            return axes
        self.truncate_axes_by_removing_conflicts(
            axes, lambda ref, prev: self._compatible_prefix(ref, projection, factor_index, prev, factor_size, mesh),
            mesh, conservative_propagation)
        return axes

    def propagate_factor_shardings(self, projection: ShardingProjection,
                                   direction_along_factor: PropagationDirectionAlongFactor,
                                   factor_sizes: Sequence[int], mesh: MeshAttr | None,
                                   conservative_propagation: bool, op=None) -> UpdateTensorShardings:
        """Expand every tensor along every factor to the factor's compatible major sharding axes."""
        result = UpdateTensorShardings.none(projection.num_operands, projection.num_results)
        for factor_index, factor_size in enumerate(factor_sizes):
            axes = self.get_compatible_major_sharding_axes(projection, factor_index,
                                                           direction_along_factor(factor_index), factor_size, mesh,
                                                           conservative_propagation)
            result |= projection.expand_sharding(factor_index, axes)
        return result
