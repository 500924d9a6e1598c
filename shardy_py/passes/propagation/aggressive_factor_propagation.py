"""The aggressive factor propagation strategy (``aggressive_factor_propagation.{h,cc}``).

``AggressiveFactorPropagation().propagate_factor_shardings(projection, direction_along_factor,
factor_sizes, mesh, conservative_propagation, op=None)`` differs from
``BasicFactorPropagation`` in two ways:

* each tensor gets its own axes along a factor: the factor's compatible major
  axes (``get_compatible_major_axes``, conflicts ignored) cut at the first
  axis that conflicts *for that tensor* (its replicated/unreduced axes, a
  closed factor, overflow axes, divisibility), then at the first axis
  overlapping the tensor's other factors as they stand at that moment;
* conflicts between factors are settled by an order of preference instead of
  blocking both: factors whose *source tensor* (the largest tensor already
  sharded along a prefix of the candidate axes) is larger come first, then
  (for elementwise ops) the factor with more sharding, then the smaller
  source tensor index, then the smaller factor index.

Results are updated first, then operands.  For an elementwise op an operand
is only expanded as far as a result already is when the result's axes are a
strict prefix of the candidate (no sideways propagation between operands of
something the result keeps replicated).
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr
from shardy_py.passes.propagation.basic_factor_propagation import BasicFactorPropagation
from shardy_py.passes.propagation.factor_propagation import PropagationDirectionAlongFactor
from shardy_py.passes.propagation.sharding_projection import (
    AxesPerFactor,
    PrefixStatus,
    ShardingProjection,
    TensorFactorShardings,
    UpdateTensorShardings,
    is_axis_list_prefix_of,
    is_strict_prefix,
)
from shardy_py.verify.axes import sharded_size

__all__ = ["AggressiveFactorPropagation", "factor_to_source_tensor"]


def factor_to_source_tensor(projection: ShardingProjection, factor_sizes: Sequence[int],
                            axes_per_factor: AxesPerFactor) -> list[tuple[int, int]]:
    """Per factor, ``(tensor_index, tensor_size)`` of its largest source tensor, ``(-1, -1)`` if none.

    A tensor is a source of factor ``f`` when ``axes_per_factor[f]`` is not
    empty and is a prefix of (or equal to) the tensor's axes for ``f``; its size
    is the product of the sizes of the factors it is mapped to.  Ties keep the
    earlier tensor (operands before results).
    """
    out = [(-1, -1)] * len(factor_sizes)
    for tensor_index, tensor in enumerate(projection.tensors()):
        size = 1
        for f in tensor.factor_index_to_sharding:
            size *= factor_sizes[f]
        for f, fs in tensor.factor_index_to_sharding.items():
            candidate = axes_per_factor[f]
            if (candidate and is_axis_list_prefix_of(candidate, fs.axis_refs) is not PrefixStatus.NOT_A_PREFIX
                    and size > out[f][1]):
                out[f] = (tensor_index, size)
    return out


def _is_strict_prefix_of_factor_sharding(tensor: TensorFactorShardings, factor_index: int,
                                         axes: Sequence[AxisRefAttr]) -> bool:
    fs = tensor.factor_index_to_sharding.get(factor_index)
    return fs is not None and is_strict_prefix(fs.axis_refs, axes)


class AggressiveFactorPropagation(BasicFactorPropagation):
    """Propagates per tensor and settles conflicts between factors by preference (see the module docstring)."""

    def get_propagated_factor_sharding(self, factor_index: int, tensor: TensorFactorShardings,
                                       axes_per_factor: AxesPerFactor, mesh: MeshAttr | None,
                                       conservative_propagation: bool,
                                       factor_sizes: Sequence[int]) -> list[AxisRefAttr]:
        """The axes ``tensor`` should take along ``factor_index`` ([] when it should not change)."""
        fs = tensor.factor_index_to_sharding.get(factor_index)
        if fs is None or not axes_per_factor[factor_index]:
            return []
        new_axes = list(axes_per_factor[factor_index])
        self.truncate_axes_by_removing_conflicts(
            new_axes,
            lambda ref, prev: self.compatible_prefix_no_conflicts_within_factor(
                ref, tensor.replicated_axes, tensor.unreduced_axes, fs, prev, factor_sizes[factor_index], mesh),
            mesh, conservative_propagation)
        if not is_strict_prefix(fs.axis_refs, new_axes):
            return []
        # Conflicts with the other factors of this tensor, as updated so far.
        self.truncate_axes_by_removing_conflicts(
            new_axes,
            lambda ref, _prev: self.compatible_prefix_no_conflicts_across_factors(
                ref, tensor.factor_index_to_sharding, factor_index),
            mesh, conservative_propagation)
        return new_axes

    def sorted_factor_indices(self, projection: ShardingProjection, factor_sizes: Sequence[int],
                              axes_per_factor: AxesPerFactor, mesh: MeshAttr | None,
                              is_elementwise_op: bool) -> list[int]:
        """Factor indices in order of preference (larger source tensor, more sharded if elementwise,
        smaller source tensor index, smaller factor index)."""
        sources = factor_to_source_tensor(projection, factor_sizes, axes_per_factor)

        def key(f: int) -> tuple[int, int, int, int]:
            sharding = sharded_size(axes_per_factor[f], mesh) if is_elementwise_op else 0
            return (-sources[f][1], -sharding, sources[f][0], f)

        return sorted(range(len(factor_sizes)), key=key)

    def propagate_factor_shardings(self, projection: ShardingProjection,
                                   direction_along_factor: PropagationDirectionAlongFactor,
                                   factor_sizes: Sequence[int], mesh: MeshAttr | None,
                                   conservative_propagation: bool, op=None) -> UpdateTensorShardings:
        """Propagate along all factors, results first, then operands."""
        result = UpdateTensorShardings.none(projection.num_operands, projection.num_results)
        axes_per_factor: AxesPerFactor = [
            self.get_compatible_major_axes(projection, f, direction_along_factor(f)) for f in range(len(factor_sizes))]
        if not any(axes_per_factor):
            return result
        elementwise = False
        if op is not None:
            from shardy_py.passes.op_traits import is_elementwise

            elementwise = is_elementwise(op)
        # Factors without candidate axes propagate nothing: leave them out of the walk.
        order = [f for f in self.sorted_factor_indices(projection, factor_sizes, axes_per_factor, mesh, elementwise)
                 if axes_per_factor[f]]

        for index, tensor in enumerate(projection.results):
            updated = False
            for f in order:
                new_axes = self.get_propagated_factor_sharding(f, tensor, axes_per_factor, mesh,
                                                               conservative_propagation, factor_sizes)
                if new_axes:
                    updated |= projection.expand_result_sharding(index, f, new_axes)
            result.update_results[index] = updated

        for index, tensor in enumerate(projection.operands):
            updated = False
            for f in order:
                new_axes = self.get_propagated_factor_sharding(f, tensor, axes_per_factor, mesh,
                                                               conservative_propagation, factor_sizes)
                if not new_axes:
                    continue
                if elementwise:
                    # Do not go further than a result that is already sharded along a prefix.
                    for res in projection.results:
                        if _is_strict_prefix_of_factor_sharding(res, f, new_axes):
                            new_axes = list(res.factor_index_to_sharding[f].axis_refs)
                updated |= projection.expand_operand_sharding(index, f, new_axes)
            result.update_operands[index] = updated
        return result
