"""The factor propagation interface (``factor_propagation.h``) and the propagation direction.

A factor propagation strategy updates a ``ShardingProjection`` in place:

    strategy.propagate_factor_shardings(projection, direction_along_factor, factor_sizes, mesh,
                                        conservative_propagation, op) -> UpdateTensorShardings

* ``direction_along_factor(factor_index) -> PropagationDirection`` says in which
  direction each factor propagates;
* ``factor_sizes`` are the rule's factor sizes;
* ``mesh`` is the ``MeshAttr`` the axes belong to (``None`` skips the
  divisibility checks, for tests);
* ``conservative_propagation`` forbids propagating sub-axes;
* ``op`` is the operation the projection was built for (``None`` allowed; the
  aggressive strategy looks at whether it is elementwise).

A strategy must be a pure function of these (of ``op`` only through ``is_elementwise``):
``propagation_update.propagate_tensor_shardings`` memoises outcomes on that assumption.

Strategies: ``BasicFactorPropagation`` (``basic_factor_propagation``) and
``AggressiveFactorPropagation`` (``aggressive_factor_propagation``).

``PropagationDirection`` mirrors the sdy enum (NONE < FORWARD < BACKWARD <
BOTH); ``union_of_propagation_directions`` and
``intersection_of_propagation_directions`` combine two directions as
Shardy's propagation utils do.
"""
from __future__ import annotations

import abc
import enum
from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import MeshAttr
from shardy_py.passes.propagation.sharding_projection import ShardingProjection, UpdateTensorShardings

__all__ = [
    "PropagationDirection", "PropagationDirectionAlongFactor", "FactorPropagation",
    "union_of_propagation_directions", "intersection_of_propagation_directions", "propagate_any",
]


class PropagationDirection(enum.IntEnum):
    """Direction of propagation; the order matters (``BOTH`` is the largest, ``NONE`` the smallest)."""

    NONE = 0
    FORWARD = 1
    BACKWARD = 2
    BOTH = 3


PropagationDirectionAlongFactor = Callable[[int], PropagationDirection]


def propagate_any(_factor_index: int) -> PropagationDirection:
    """A ``direction_along_factor`` that propagates every factor both ways."""
    return PropagationDirection.BOTH


_FORWARD = PropagationDirection.FORWARD
_BACKWARD = PropagationDirection.BACKWARD


def _forward_and_backward(a: PropagationDirection, b: PropagationDirection) -> bool:
    return (a is _FORWARD and b is _BACKWARD) or (a is _BACKWARD and b is _FORWARD)


def union_of_propagation_directions(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    """FORWARD with BACKWARD is BOTH; otherwise the larger of the two."""
    if _forward_and_backward(a, b):
        return PropagationDirection.BOTH
    return a if a >= b else b


def intersection_of_propagation_directions(a: PropagationDirection, b: PropagationDirection) -> PropagationDirection:
    """FORWARD with BACKWARD is NONE; otherwise the smaller of the two."""
    if _forward_and_backward(a, b):
        return PropagationDirection.NONE
    return a if a <= b else b


class FactorPropagation(abc.ABC):
    """A strategy for propagating factor shardings within one op's projection."""

    @abc.abstractmethod
    def propagate_factor_shardings(self, projection: ShardingProjection,
                                   direction_along_factor: PropagationDirectionAlongFactor,
                                   factor_sizes: Sequence[int], mesh: MeshAttr | None,
                                   conservative_propagation: bool, op=None) -> UpdateTensorShardings:
        """Update ``projection`` in place; return which operands and results changed."""
