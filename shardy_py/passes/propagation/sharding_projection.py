"""Factor view of tensor shardings (``sharding_projection.{h,cc}``).

An ``OpShardingRuleAttr`` describes every operand and result dimension of an op
as a product of *factors*.  Propagation reasons about factors rather than
dimensions: the axes sharding a dimension are split among the factors the
dimension maps to (major-most factor first), the factor shardings are updated
(see ``basic_factor_propagation``), and the result is projected back onto
dimensions.

Public API (used by the propagation passes):

``FactorSharding``
    ``axis_refs`` (list of ``AxisRefAttr``), ``is_closed``, ``is_minor_most``
    and ``overflow_axes``: axes that did not fit a non-minor-most factor (the
    factor size and the next axis size are co-prime); they are kept so that the
    dimension sharding is rebuilt unchanged.
``TensorFactorShardings``
    ``factor_index_to_sharding`` (``dict[int, FactorSharding]``, only the
    factors the tensor is mapped to), ``replicated_axes``, ``unreduced_axes``
    and ``reduction``; methods ``expand_sharding_axes``,
    ``update_sharding_axes``, ``create_tensor_sharding_attr`` and
    ``get_sharding_size``.
``UpdateTensorShardings``
    ``update_operands`` / ``update_results`` (lists of bool), combined with
    ``|=``; ``updated_operand_indices()`` / ``updated_result_indices()``.
``ShardingProjection``
    ``operands`` / ``results`` (lists of ``TensorFactorShardings``);
    constructors ``build(operand_shardings, result_shardings, rule, mesh,
    closed_if_missing=False)``, ``build_for_op(op, rule, mesh, ...)`` and
    ``from_axes_per_factor(axes_per_factor, rule)``; ``expand_sharding``,
    ``update_sharding``, ``get_greatest_common_prefix_axes``,
    ``tensors_contain_overflow_axes`` and ``get_tensor``.

Axis-list helpers: ``PrefixStatus``, ``is_axis_list_prefix_of``,
``is_strict_prefix``, ``get_greatest_common_prefix`` (the list version),
``distribute_axes_across_factors``.

Example (rule ``([ij])->([i, j]) {i=2, j=4}``, mesh ``["x"=4, "y"=2]``):
the operand sharding ``[{"x", "y"}]`` projects to ``i: ["x":(1)2]`` and
``j: ["x":(2)2, "y"]``; writing that back to a two-dimensional result gives
``[{"x":(1)2}, {"x":(2)2, "y"}]`` and to the operand again ``[{"x", "y"}]``.

``mesh`` may be ``None`` in ``build`` only for the axes-per-factor form; the
factor propagation strategies accept ``None`` to skip divisibility checks, as
the C++ does with a null ``MeshAttr`` in its unit tests.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from shardy_py.ir.attrs import (
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    OpShardingRuleAttr,
    SubAxisInfoAttr,
    TensorMappingAttr,
    TensorShardingAttr,
)
from shardy_py.verify.axes import add_axis_or_merge, axis_size, can_coexist, prefix_of

__all__ = [
    "PrefixStatus", "is_axis_list_prefix_of", "is_strict_prefix", "get_greatest_common_prefix",
    "FactorSharding", "TensorFactorShardings", "UpdateTensorShardings", "ShardingProjection",
    "AxesPerFactor", "distribute_axes_across_factors", "axis_greatest_common_prefix",
]

AxesPerFactor = list[list[AxisRefAttr]]


class PrefixStatus(enum.Enum):
    """How one axis list relates to another as a prefix."""

    EQUAL = 0
    STRICT_PREFIX = 1
    NOT_A_PREFIX = 2


def is_axis_list_prefix_of(first: Sequence[AxisRefAttr], second: Sequence[AxisRefAttr]) -> PrefixStatus:
    """Whether ``first`` equals ``second``, is a strict prefix of it, or neither.

    The last axis of ``first`` may be a prefix sub-axis of the matching axis of
    ``second`` (``["a":(1)2]`` is a strict prefix of ``["a", "b"]``).
    """
    if not first:
        return PrefixStatus.EQUAL if not second else PrefixStatus.STRICT_PREFIX
    if len(first) > len(second):
        return PrefixStatus.NOT_A_PREFIX
    n = len(first)
    if any(first[i] != second[i] for i in range(n - 1)):
        return PrefixStatus.NOT_A_PREFIX
    if len(first) == len(second) and first[-1] == second[-1]:
        return PrefixStatus.EQUAL
    if prefix_of(first[n - 1], second[n - 1]):
        return PrefixStatus.STRICT_PREFIX
    return PrefixStatus.NOT_A_PREFIX


def is_strict_prefix(first: Sequence[AxisRefAttr], second: Sequence[AxisRefAttr]) -> bool:
    """True if ``first`` is a strict prefix of ``second`` (see ``is_axis_list_prefix_of``)."""
    return is_axis_list_prefix_of(first, second) is PrefixStatus.STRICT_PREFIX


def axis_greatest_common_prefix(a: AxisRefAttr, b: AxisRefAttr) -> AxisRefAttr | None:
    """The longer of two refs when one is a prefix of the other, else None (``AxisRefAttr::getGreatestCommonPrefix``).

    Returns the shorter one: ``"a":(1)2`` and ``"a"`` give ``"a":(1)2``.
    """
    if not can_coexist(a, b):
        return None
    if prefix_of(a, b):
        return a
    if prefix_of(b, a):
        return b
    return None


def get_greatest_common_prefix(first: Sequence[AxisRefAttr], second: Sequence[AxisRefAttr]) -> list[AxisRefAttr]:
    """The longest common prefix of two axis lists.

    At the first differing position the shorter ref is kept when one is a prefix of the other.
    """
    out: list[AxisRefAttr] = []
    for a, b in zip(first, second, strict=False):
        if a == b:
            out.append(a)
            continue
        common = axis_greatest_common_prefix(a, b)
        if common is not None:
            out.append(common)
        break
    return out


@dataclass(slots=True)
class FactorSharding:
    """The axes sharding one factor of one tensor, and whether the factor can take more."""

    axis_refs: list[AxisRefAttr] = field(default_factory=list)
    is_closed: bool = False
    is_minor_most: bool = False
    overflow_axes: list[AxisRefAttr] = field(default_factory=list)


@dataclass(slots=True)
class TensorFactorShardings:
    """The factor shardings of one tensor plus its replicated/unreduced axes."""

    factor_index_to_sharding: dict[int, FactorSharding] = field(default_factory=dict)
    replicated_axes: list[AxisRefAttr] = field(default_factory=list)
    unreduced_axes: list[AxisRefAttr] = field(default_factory=list)
    reduction: str = "sum"

    def expand_sharding_axes(self, factor_index: int, new_axes: Sequence[AxisRefAttr]) -> bool:
        """Set the factor's axes to ``new_axes`` if the tensor has the factor and its axes are a strict prefix of them.

        Returns whether the axes changed.
        """
        fs = self.factor_index_to_sharding.get(factor_index)
        if fs is None or not is_strict_prefix(fs.axis_refs, new_axes):
            return False
        fs.axis_refs = list(new_axes)
        return True

    def update_sharding_axes(self, factor_index: int, new_axes: Sequence[AxisRefAttr],
                             new_overflow_axes: Sequence[AxisRefAttr]) -> bool:
        """Replace the factor's axes and overflow axes if the tensor has the factor and either differs.

        Returns whether anything changed.
        """
        fs = self.factor_index_to_sharding.get(factor_index)
        if fs is None:
            return False
        if list(new_axes) == fs.axis_refs and list(new_overflow_axes) == fs.overflow_axes:
            return False
        fs.axis_refs = list(new_axes)
        fs.overflow_axes = list(new_overflow_axes)
        return True

    def create_tensor_sharding_attr(self, tensor_mapping: TensorMappingAttr, factor_sizes: Sequence[int],
                                    mesh_or_ref: str | MeshAttr, mesh: MeshAttr) -> TensorShardingAttr:
        """Project the factor shardings back onto the dimensions of ``tensor_mapping``.

        A dimension takes the axes of its factors major to minor, merging adjacent
        sub-axes at factor boundaries; it stops after a factor with overflow axes
        (which are appended) or after a factor that is not fully sharded (later
        factors would need a strided view).  A dimension is closed if any of its
        factors is; priorities are not kept.
        """
        dims: list[DimensionShardingAttr] = []
        for dim_mapping in tensor_mapping.dim_mappings:
            is_closed = False
            axes: list[AxisRefAttr] = []
            for factor_index in dim_mapping.factor_indices:
                fs = self.factor_index_to_sharding[factor_index]
                is_closed |= fs.is_closed
                sharded = _add_axes_to_dim_sharding(axes, fs.axis_refs, mesh)
                if fs.overflow_axes:
                    _add_axes_to_dim_sharding(axes, fs.overflow_axes, mesh)
                    break
                if sharded < factor_sizes[factor_index]:
                    break
            dims.append(DimensionShardingAttr(tuple(axes), is_closed))
        return TensorShardingAttr(mesh_or_ref, tuple(dims), tuple(self.replicated_axes),
                                  tuple(self.unreduced_axes), self.reduction)

    def get_sharding_size(self, mesh: MeshAttr) -> int:
        """Product of the sizes of all sharding and overflow axes of all factors."""
        n = 1
        for fs in self.factor_index_to_sharding.values():
            for a in (*fs.axis_refs, *fs.overflow_axes):
                n *= axis_size(a, mesh)
        return n


def _add_axes_to_dim_sharding(dim_axes: list[AxisRefAttr], axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> int:
    total = 1
    for i, a in enumerate(axes):
        total *= axis_size(a, mesh)
        if i == 0:
            add_axis_or_merge(dim_axes, a, mesh)
        else:
            dim_axes.append(a)
    return total


@dataclass(slots=True)
class UpdateTensorShardings:
    """Which operands and results were changed."""

    update_operands: list[bool]
    update_results: list[bool]

    @classmethod
    def none(cls, num_operands: int, num_results: int) -> UpdateTensorShardings:
        """Nothing updated, for ``num_operands`` operands and ``num_results`` results."""
        return cls([False] * num_operands, [False] * num_results)

    def __ior__(self, other: UpdateTensorShardings) -> UpdateTensorShardings:
        if len(self.update_operands) != len(other.update_operands) or len(self.update_results) != len(
                other.update_results):
            raise ValueError("combining updates of different numbers of operands or results")
        for i, u in enumerate(other.update_operands):
            if u:
                self.update_operands[i] = True
        for i, u in enumerate(other.update_results):
            if u:
                self.update_results[i] = True
        return self

    def updated_operand_indices(self) -> list[int]:
        """Indices of the updated operands, ascending."""
        return [i for i, u in enumerate(self.update_operands) if u]

    def updated_result_indices(self) -> list[int]:
        """Indices of the updated results, ascending."""
        return [i for i, u in enumerate(self.update_results) if u]

    def any(self) -> bool:
        """True if any operand or result was updated."""
        return any(self.update_operands) or any(self.update_results)


# --- projecting one dimension sharding onto factors -------------------------------------------


class _AxisCursor:
    """The remaining part of the current axis in a dimension's axis list: its size and, for a
    sub-axis (or a split axis), its pre-size."""

    __slots__ = ("axes", "index", "mesh", "size", "pre_size")

    def __init__(self, axes: Sequence[AxisRefAttr], mesh: MeshAttr):
        self.axes = axes
        self.index = -1
        self.mesh = mesh
        self.size = 0
        self.pre_size: int | None = None
        self.advance()

    def advance(self) -> None:
        """Move to the next axis of the list (whole again)."""
        self.index += 1
        if self.index < len(self.axes):
            ref = self.axes[self.index]
            self.size = axis_size(ref, self.mesh)
            self.pre_size = None if ref.sub_axis_info is None else ref.sub_axis_info.pre_size

    @property
    def valid(self) -> bool:
        """True while there is a current axis."""
        return self.index < len(self.axes)

    @property
    def name(self) -> str:
        """Name of the current axis."""
        return self.axes[self.index].name

    def current(self) -> AxisRefAttr:
        """What is left of the current axis, as an axis ref."""
        info = None if self.pre_size is None else SubAxisInfoAttr(self.pre_size, self.size)
        return AxisRefAttr(self.name, info)

    def take(self, size: int) -> AxisRefAttr:
        """Split off the major ``size`` part of the current (sub-)axis."""
        pre = 1 if self.pre_size is None else self.pre_size
        ref = AxisRefAttr(self.name, SubAxisInfoAttr(pre, size))
        self.pre_size = pre * size
        self.size //= size
        return ref

    def add_rest_to(self, out: list[AxisRefAttr]) -> None:
        """Append what is left of the current axis and all later axes to ``out`` (merging sub-axes)."""
        while self.valid:
            add_axis_or_merge(out, self.current(), self.mesh)
            self.advance()


def _build_tensor_factor_shardings(mapping: TensorMappingAttr, sharding: TensorShardingAttr | None,
                                   factor_sizes: Sequence[int], mesh: MeshAttr,
                                   closed_if_missing: bool) -> TensorFactorShardings:
    out = TensorFactorShardings()
    if sharding is not None and sharding.rank != mapping.rank:
        raise ValueError(f"sharding rank {sharding.rank} does not match the rule's tensor rank {mapping.rank}")
    for dim, dim_mapping in enumerate(mapping.dim_mappings):
        axes = sharding.dim_shardings[dim].axes if sharding is not None else ()
        dim_closed = sharding.dim_shardings[dim].is_closed if sharding is not None else closed_if_missing
        factor_indices = dim_mapping.factor_indices
        minor_most = factor_indices[-1] if factor_indices else None
        if not axes or len(factor_indices) == 1:
            # Fast path (same result as the general walk): no axes to split, or a single
            # (minor-most) factor taking every axis.
            for factor_index in factor_indices:
                fs = out.factor_index_to_sharding.setdefault(factor_index, FactorSharding())
                fs.is_minor_most = factor_index == minor_most
                fs.is_closed = dim_closed
                for ref in axes:
                    add_axis_or_merge(fs.axis_refs, ref, mesh)
            continue
        cursor = _AxisCursor(axes, mesh)
        has_overflow = False
        for factor_index in factor_indices:
            fs = out.factor_index_to_sharding.setdefault(factor_index, FactorSharding())
            fs.is_minor_most = factor_index == minor_most
            if has_overflow:
                # After a factor with overflow axes, the next factor stays empty and closed and the
                # factors after it are not mapped at all (as the C++ does).
                fs.is_closed = True
                break
            fs.is_closed = dim_closed
            remaining = factor_sizes[factor_index]
            if fs.is_minor_most:
                # The minor-most factor takes every remaining axis, divisible or not (padding).
                cursor.add_rest_to(fs.axis_refs)
                break
            while cursor.valid:
                if cursor.size == 1:
                    fs.axis_refs.append(cursor.current())
                    cursor.advance()
                    continue
                g = math.gcd(remaining, cursor.size)
                if g == 1:
                    break
                if cursor.size > g:
                    fs.axis_refs.append(cursor.take(g))
                    remaining //= g
                else:
                    fs.axis_refs.append(cursor.current())
                    remaining //= cursor.size
                    cursor.advance()
            if remaining > 1 and cursor.valid:
                # The factor and the next axis are co-prime: the rest of the dimension's axes overflow.
                has_overflow = True
                cursor.add_rest_to(fs.overflow_axes)
    if sharding is not None:
        out.replicated_axes = list(sharding.replicated_axes)
        out.unreduced_axes = list(sharding.unreduced_axes)
        out.reduction = sharding.reduction
    return out


def _tensor_from_axes_per_factor(mapping: TensorMappingAttr, axes_per_factor: Sequence[Sequence[AxisRefAttr]]
                                 ) -> TensorFactorShardings:
    out = TensorFactorShardings()
    for dim_mapping in mapping.dim_mappings:
        for factor_index in dim_mapping.factor_indices:
            out.factor_index_to_sharding[factor_index] = FactorSharding(
                list(axes_per_factor[factor_index]), is_closed=True,
                is_minor_most=dim_mapping.factor_indices[-1] == factor_index)
    return out


@dataclass(slots=True)
class ShardingProjection:
    """The factor shardings of every operand and result of an op, w.r.t. its sharding rule."""

    operands: list[TensorFactorShardings] = field(default_factory=list)
    results: list[TensorFactorShardings] = field(default_factory=list)

    @property
    def num_operands(self) -> int:
        """Number of operands."""
        return len(self.operands)

    @property
    def num_results(self) -> int:
        """Number of results."""
        return len(self.results)

    @property
    def num_tensors(self) -> int:
        """Number of operands plus results."""
        return len(self.operands) + len(self.results)

    def get_tensor(self, tensor_index: int) -> TensorFactorShardings:
        """Operand ``tensor_index``, or result ``tensor_index - num_operands``."""
        if tensor_index < self.num_operands:
            return self.operands[tensor_index]
        return self.results[tensor_index - self.num_operands]

    def tensors(self) -> list[TensorFactorShardings]:
        """Operands then results."""
        return [*self.operands, *self.results]

    def expand_operand_sharding(self, operand_index: int, factor_index: int, new_axes: Sequence[AxisRefAttr]) -> bool:
        """``TensorFactorShardings.expand_sharding_axes`` on one operand."""
        return self.operands[operand_index].expand_sharding_axes(factor_index, new_axes)

    def expand_result_sharding(self, result_index: int, factor_index: int, new_axes: Sequence[AxisRefAttr]) -> bool:
        """``TensorFactorShardings.expand_sharding_axes`` on one result."""
        return self.results[result_index].expand_sharding_axes(factor_index, new_axes)

    def expand_sharding(self, factor_index: int, new_axes: Sequence[AxisRefAttr]) -> UpdateTensorShardings:
        """Expand the factor to ``new_axes`` in every tensor whose axes for it are a strict prefix of them."""
        if not new_axes:  # nothing is a strict prefix of []
            return UpdateTensorShardings.none(len(self.operands), len(self.results))
        return UpdateTensorShardings(
            [t.expand_sharding_axes(factor_index, new_axes) for t in self.operands],
            [t.expand_sharding_axes(factor_index, new_axes) for t in self.results])

    def update_sharding(self, factor_index: int, new_axes: Sequence[AxisRefAttr],
                        new_overflow_axes: Sequence[AxisRefAttr]) -> UpdateTensorShardings:
        """Set the factor's axes and overflow axes in every tensor mapped to it (closed/open kept)."""
        return UpdateTensorShardings(
            [t.update_sharding_axes(factor_index, new_axes, new_overflow_axes) for t in self.operands],
            [t.update_sharding_axes(factor_index, new_axes, new_overflow_axes) for t in self.results])

    @classmethod
    def build(cls, operand_shardings: Sequence[TensorShardingAttr | None],
              result_shardings: Sequence[TensorShardingAttr | None], rule: OpShardingRuleAttr, mesh: MeshAttr,
              closed_if_missing: bool = False) -> ShardingProjection:
        """Project the given shardings (None for a missing one) onto the factors of ``rule``.

        A missing sharding gives empty factor shardings, all closed if
        ``closed_if_missing`` and all open otherwise.
        """
        if len(operand_shardings) != len(rule.operand_mappings) or len(result_shardings) != len(rule.result_mappings):
            raise ValueError("the number of shardings does not match the sharding rule")
        sizes = rule.factor_sizes
        return cls(
            [_build_tensor_factor_shardings(m, s, sizes, mesh, closed_if_missing)
             for s, m in zip(operand_shardings, rule.operand_mappings, strict=True)],
            [_build_tensor_factor_shardings(m, s, sizes, mesh, closed_if_missing)
             for s, m in zip(result_shardings, rule.result_mappings, strict=True)])

    @classmethod
    def build_for_op(cls, op, rule: OpShardingRuleAttr, mesh: MeshAttr,
                     closed_if_missing: bool = False) -> ShardingProjection:
        """``build`` with the shardings of ``op``'s operands and results (``getSharding`` of each value)."""
        from shardy_py.passes.shardings import get_sharding

        return cls.build([get_sharding(v) for v in op.operands], [get_sharding(v) for v in op.results], rule, mesh,
                         closed_if_missing)

    @classmethod
    def from_axes_per_factor(cls, axes_per_factor: Sequence[Sequence[AxisRefAttr]],
                             rule: OpShardingRuleAttr) -> ShardingProjection:
        """Every tensor gets ``axes_per_factor[f]`` for each factor ``f`` it has, closed, without overflow axes."""
        return cls([_tensor_from_axes_per_factor(m, axes_per_factor) for m in rule.operand_mappings],
                   [_tensor_from_axes_per_factor(m, axes_per_factor) for m in rule.result_mappings])

    def get_greatest_common_prefix_axes(self, num_factors: int) -> AxesPerFactor:
        """Per factor, the greatest common prefix of its axes over all tensors mapped to it ([] if none is)."""
        out: AxesPerFactor = [[] for _ in range(num_factors)]
        seen = [False] * num_factors
        for t in self.tensors():
            for f, fs in t.factor_index_to_sharding.items():
                if not seen[f]:
                    out[f] = list(fs.axis_refs)
                    seen[f] = True
                else:
                    out[f] = get_greatest_common_prefix(out[f], fs.axis_refs)
        return out

    def tensors_contain_overflow_axes(self) -> UpdateTensorShardings:
        """Which operands and results have a factor with overflow axes."""
        def has(t: TensorFactorShardings) -> bool:
            return any(fs.overflow_axes for fs in t.factor_index_to_sharding.values())

        return UpdateTensorShardings([has(t) for t in self.operands], [has(t) for t in self.results])


def distribute_axes_across_factors(shardings: Sequence[FactorSharding], factor_sizes: Sequence[int],
                                   all_axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> None:
    """Share ``all_axes`` among the factor shardings of one dimension, axis by axis (in place).

    Each (sub-)axis goes to the first factor with room for it (a common divisor
    above 1 with the factor's remaining size, or any factor for a size-1 axis);
    an axis larger than that room is split and the rest offered to later
    factors.  When no factor can take the current axis, it and all following
    axes become overflow axes of the last factor.
    """
    if not shardings:
        return
    remaining = list(factor_sizes)
    cursor = _AxisCursor(all_axes, mesh)
    while cursor.valid:
        used = False
        for i, fs in enumerate(shardings):
            if remaining[i] <= 1:
                continue
            size = cursor.size
            g = math.gcd(remaining[i], size)
            if g == 1 and size != 1:
                continue
            used = True
            if size > g:
                add_axis_or_merge(fs.axis_refs, cursor.take(g), mesh)
                remaining[i] //= g
            else:
                add_axis_or_merge(fs.axis_refs, cursor.current(), mesh)
                remaining[i] //= size
                cursor.advance()
                break
        if not used:
            cursor.add_rest_to(shardings[-1].overflow_axes)
            break
