"""Incremental construction of ``OpShardingRuleAttr`` values (the C++ ``OpShardingRuleBuilder``).

A sharding rule splits every operand/result dimension into *factors*; a factor shared by several
tensors is how a sharding moves between them.  The builder starts with one empty dimension mapping
per dimension of every operand and result (non-shaped types such as ``!stablehlo.token`` count as
rank 0) and no factors.  Each ``add_*`` call appends one factor (or one per dimension) and returns
the builder, so calls chain::

    rule = (OpShardingRuleBuilder.for_op(op)
            .add_factor([0, KNULL_DIM], [1], 8, FactorType.NEED_REPLICATION, blocked=True)
            .add_pointwise(shape_of(op.results[0]))
            .build())

API (names map one-to-one onto the C++ methods):

* ``OpShardingRuleBuilder(operand_types, result_types)`` / ``OpShardingRuleBuilder.for_op(op)``.
* ``add_factor(operand_dims, result_dims, size, factor_type=PASS_THROUGH, blocked=False)``:
  one new factor; ``operand_dims`` / ``result_dims`` give, per operand / result in order, the
  dimension the factor maps to, or ``KNULL_DIM`` (-1) to leave that tensor out.  A bare int stands
  for a one-element list.  The lengths must equal the numbers of operands / results.  A factor of
  size 1 is not added to a dimension that already has a factor.
* ``add_factor_for_dim(dim, size, ...)``: the factor on dimension ``dim`` of every operand and
  result of rank >= 1 (the C++ ``addFactor(int64_t dim, ...)`` overload).
* ``add_factor_same_for_all_operands(dim, size, ...)`` / ``add_factor_same_for_all_results``:
  the same, for the operands only / the results only.
* ``add_pointwise(shape, factor_type=None, blocked=False)``: ``add_factor_for_dim`` for every
  dimension of ``shape``; ``factor_type`` is a ``FactorType`` or a function of the dimension
  (default pass-through); ``blocked`` is a bool or a function of the factor type.
* ``add_pointwise_if(shape, pred, factor_type=None)``: only the dimensions where ``pred(dim)``.
* ``add_pointwise_with_diff_type_for_mismatch(in_shape, out_shape, mismatch_type=NEED_REPLICATION,
  mismatch_blocked=False)``: pointwise, where a dimension whose sizes differ gets
  ``mismatch_type`` (and is blocked if ``mismatch_blocked``); sizes come from ``in_shape``.
* ``build(is_custom_rule=False)``: the ``OpShardingRuleAttr``.  Dimensions still without a factor
  each get a fresh factor of size 1, numbered after the added ones, operands first; the builder is
  left unchanged, so ``build`` can be called again.
* ``OpShardingRuleBuilder.build_pointwise(op)``: the rule of an elementwise op (``None`` when the
  first result is not a shaped type).
* ``create_identity_sharding_rule(type, num_operands=1, num_results=1)``.
* ``shape_of(value_or_type)``: the dimension sizes the C++ ``getTensorShape`` gives (``?`` is
  ``DYNAMIC_SIZE``, MLIR's ``ShapedType::kDynamic``, which is how such factor sizes print).

Factor types: ``FactorType.PASS_THROUGH``, ``REDUCTION``, ``NEED_REPLICATION``, ``PERMUTATION``.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Union

from shardy_py.ir.attrs import DimMappingAttr, OpShardingRuleAttr, TensorMappingAttr

#: A dimension index meaning "this tensor is not mapped to the factor".
KNULL_DIM = -1
#: The size a dynamic (``?``) dimension has in a rule: MLIR's ``ShapedType::kDynamic``.
DYNAMIC_SIZE = -(2**63)

Dims = Union[int, Sequence[int]]


class FactorType(enum.Enum):
    """How a factor behaves when a dimension mapped to it is sharded."""

    PASS_THROUGH = "pass_through"
    REDUCTION = "reduction"
    NEED_REPLICATION = "need_replication"
    PERMUTATION = "permutation"


def _rank_of(t) -> int:
    """Rank of ``t`` for rule building: non-shaped (or unranked) types count as rank 0."""
    shape = getattr(t, "shape", None)
    return len(shape) if shape is not None else 0


def shape_of(value_or_type) -> tuple[int, ...]:
    """The static shape of a value or type, with dynamic dimensions as ``DYNAMIC_SIZE``."""
    t = getattr(value_or_type, "type", value_or_type)
    shape = getattr(t, "shape", None)
    if shape is None:
        return ()
    from shardy_py.ir.types import DYNAMIC

    return tuple(DYNAMIC_SIZE if d == DYNAMIC else d for d in shape)


def _as_dims(dims: Dims, count: int, what: str) -> tuple[int, ...]:
    out = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(out) != count:
        raise ValueError(f"{len(out)} {what} dimensions given for {count} {what}s")
    return out


class OpShardingRuleBuilder:
    """Builds an ``OpShardingRuleAttr`` factor by factor; see the module docstring."""

    __slots__ = ("factor_sizes", "operand_mappings", "result_mappings", "reduction_factors",
                 "need_replication_factors", "permutation_factors", "blocked_factors")

    def __init__(self, operand_types: Iterable, result_types: Iterable) -> None:
        self.factor_sizes: list[int] = []
        self.operand_mappings: list[list[list[int]]] = [
            [[] for _ in range(_rank_of(t))] for t in operand_types]
        self.result_mappings: list[list[list[int]]] = [
            [[] for _ in range(_rank_of(t))] for t in result_types]
        self.reduction_factors: list[int] = []
        self.need_replication_factors: list[int] = []
        self.permutation_factors: list[int] = []
        self.blocked_factors: list[int] = []

    @classmethod
    def for_op(cls, op) -> OpShardingRuleBuilder:
        """A builder over the operand and result types of ``op``."""
        return cls([v.type for v in op.operands], [v.type for v in op.results])

    # -- factors -------------------------------------------------------------------------------

    def _reserve(self, size: int, factor_type: FactorType, blocked: bool) -> int:
        index = len(self.factor_sizes)
        self.factor_sizes.append(size)
        if blocked:
            self.blocked_factors.append(index)
        if factor_type is FactorType.REDUCTION:
            self.reduction_factors.append(index)
        elif factor_type is FactorType.NEED_REPLICATION:
            self.need_replication_factors.append(index)
        elif factor_type is FactorType.PERMUTATION:
            self.permutation_factors.append(index)
        return index

    @staticmethod
    def _map_dims(mappings, dims: tuple[int, ...], index: int, size: int) -> None:
        for mapping, dim in zip(mappings, dims, strict=True):
            if dim == KNULL_DIM:
                continue
            factors = mapping[dim]
            if size == 1 and factors:
                continue
            factors.append(index)

    @staticmethod
    def _map_dim_everywhere(mappings, dim: int, index: int) -> None:
        for mapping in mappings:
            if mapping:
                mapping[dim].append(index)

    def add_factor(self, operand_dims: Dims, result_dims: Dims, size: int,
                   factor_type: FactorType = FactorType.PASS_THROUGH,
                   blocked: bool = False) -> OpShardingRuleBuilder:
        """A new factor mapped to ``operand_dims[i]`` of operand i and ``result_dims[j]`` of result j."""
        ods = _as_dims(operand_dims, len(self.operand_mappings), "operand")
        rds = _as_dims(result_dims, len(self.result_mappings), "result")
        index = self._reserve(size, factor_type, blocked)
        self._map_dims(self.operand_mappings, ods, index, size)
        self._map_dims(self.result_mappings, rds, index, size)
        return self

    def add_factor_for_dim(self, dim: int, size: int,
                           factor_type: FactorType = FactorType.PASS_THROUGH,
                           blocked: bool = False) -> OpShardingRuleBuilder:
        """A new factor on dimension ``dim`` of every operand and result of rank >= 1."""
        index = self._reserve(size, factor_type, blocked)
        self._map_dim_everywhere(self.operand_mappings, dim, index)
        self._map_dim_everywhere(self.result_mappings, dim, index)
        return self

    def add_factor_same_for_all_operands(self, dim: int, size: int,
                                         factor_type: FactorType = FactorType.PASS_THROUGH,
                                         blocked: bool = False) -> OpShardingRuleBuilder:
        """A new factor on dimension ``dim`` of every operand of rank >= 1 (no result)."""
        index = self._reserve(size, factor_type, blocked)
        self._map_dim_everywhere(self.operand_mappings, dim, index)
        return self

    def add_factor_same_for_all_results(self, dim: int, size: int,
                                        factor_type: FactorType = FactorType.PASS_THROUGH,
                                        blocked: bool = False) -> OpShardingRuleBuilder:
        """A new factor on dimension ``dim`` of every result of rank >= 1 (no operand)."""
        index = self._reserve(size, factor_type, blocked)
        self._map_dim_everywhere(self.result_mappings, dim, index)
        return self

    # -- pointwise helpers ---------------------------------------------------------------------

    def add_pointwise(self, shape: Sequence[int],
                      factor_type: FactorType | Callable[[int], FactorType] | None = None,
                      blocked: bool | Callable[[FactorType], bool] = False) -> OpShardingRuleBuilder:
        """One factor per dimension of ``shape``, on that dimension of every operand and result."""
        type_of = _type_fn(factor_type)
        blocked_of = blocked if callable(blocked) else (lambda _t, b=bool(blocked): b)
        for dim, size in enumerate(shape):
            t = type_of(dim)
            self.add_factor_for_dim(dim, size, t, blocked_of(t))
        return self

    def add_pointwise_if(self, shape: Sequence[int], pred: Callable[[int], bool],
                         factor_type: FactorType | Callable[[int], FactorType] | None = None
                         ) -> OpShardingRuleBuilder:
        """``add_pointwise`` restricted to the dimensions ``dim`` with ``pred(dim)``."""
        type_of = _type_fn(factor_type)
        for dim, size in enumerate(shape):
            if pred(dim):
                self.add_factor_for_dim(dim, size, type_of(dim))
        return self

    def add_pointwise_with_diff_type_for_mismatch(
            self, in_shape: Sequence[int], out_shape: Sequence[int],
            mismatch_type: FactorType = FactorType.NEED_REPLICATION,
            mismatch_blocked: bool = False) -> OpShardingRuleBuilder:
        """Pointwise over ``in_shape``; dimensions whose in/out sizes differ get ``mismatch_type``."""
        for dim, (n_in, n_out) in enumerate(zip(in_shape, out_shape, strict=True)):
            if n_in == n_out:
                self.add_factor_for_dim(dim, n_in)
            else:
                self.add_factor_for_dim(dim, n_in, mismatch_type, mismatch_blocked)
        return self

    # -- result --------------------------------------------------------------------------------

    def build(self, is_custom_rule: bool = False) -> OpShardingRuleAttr:
        """The rule; every dimension left without a factor gets its own factor of size 1."""
        sizes = list(self.factor_sizes)

        def tensor_attrs(mappings) -> list[TensorMappingAttr]:
            out = []
            for mapping in mappings:
                dims = []
                for factors in mapping:
                    if not factors:
                        dims.append(DimMappingAttr((len(sizes),)))
                        sizes.append(1)
                    else:
                        dims.append(DimMappingAttr(tuple(factors)))
                out.append(TensorMappingAttr(tuple(dims)))
            return out

        operands = tensor_attrs(self.operand_mappings)
        results = tensor_attrs(self.result_mappings)
        return OpShardingRuleAttr(
            factor_sizes=tuple(sizes), operand_mappings=tuple(operands),
            result_mappings=tuple(results), reduction_factors=tuple(self.reduction_factors),
            need_replication_factors=tuple(self.need_replication_factors),
            permutation_factors=tuple(self.permutation_factors),
            blocked_propagation_factors=tuple(self.blocked_factors), is_custom_rule=is_custom_rule)

    @staticmethod
    def build_pointwise(op) -> OpShardingRuleAttr | None:
        """The rule of an elementwise op: dimension i of every tensor is factor i (sizes from the first
        result); ``None`` when the first result is not a shaped type (a token, say)."""
        first = op.results[0].type
        if getattr(first, "shape", None) is None:
            return None
        builder = OpShardingRuleBuilder.for_op(op)
        builder.factor_sizes = list(shape_of(first))
        for mapping in (*builder.operand_mappings, *builder.result_mappings):
            for i, factors in enumerate(mapping):
                factors.append(i)
        return builder.build()


def _type_fn(factor_type) -> Callable[[int], FactorType]:
    if factor_type is None:
        return lambda _dim: FactorType.PASS_THROUGH
    if isinstance(factor_type, FactorType):
        return lambda _dim: factor_type
    return factor_type


def create_identity_sharding_rule(type_, num_operands: int = 1,
                                  num_results: int = 1) -> OpShardingRuleAttr:
    """The rule of an op whose ``num_operands`` operands and ``num_results`` results all have type
    ``type_`` and map dimension to dimension (``([])->([])`` for scalars).  The rule (immutable) is
    built once per (type, counts)."""
    key = (type_, num_operands, num_results)
    try:
        return _IDENTITY_RULES[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable type
        return _identity_rule(type_, num_operands, num_results)
    if len(_IDENTITY_RULES) > 4096:
        _IDENTITY_RULES.clear()
    rule = _IDENTITY_RULES[key] = _identity_rule(type_, num_operands, num_results)
    return rule


#: ``create_identity_sharding_rule``'s rules by (type, number of operands, number of results).
_IDENTITY_RULES: dict[tuple, OpShardingRuleAttr] = {}


def _identity_rule(type_, num_operands: int, num_results: int) -> OpShardingRuleAttr:
    return (OpShardingRuleBuilder([type_] * num_operands, [type_] * num_results)
            .add_pointwise(shape_of(type_)).build())
