"""The sharding rule of ``stablehlo.reshape`` (Shardy's ``op_sharding_rule_registry.cc``): the
input and output dimensions are factorised together so that every run of dimensions whose sizes
multiply to the same number shares as many factors as their sizes allow.

Walking both shapes from the major end, the rule keeps, per side, the product of the dimension
sizes consumed so far and the product of the factors already added.  Size-1 dimensions get their
own size-1 factor, which needs replication.  While the two factor products agree, the greatest
common divisor of the next pending sizes becomes a pass-through factor common to the current input
and output dimensions; when it is 1, both dimensions share one permutation factor of the input's
pending size, and each product grows by its own pending size.  Once they disagree, the side that is
behind gets a need-replication factor of its own: the ratio that makes both products meet again if
it divides the pending size, else the part of the pending size beyond the common divisor, else the
whole pending size.

This is jaxlib 0.12's rule (``([i, k])->([i, j]) {i=3, j=3, k=2} need_replication={j, k}
permutation={i}`` for ``3x2`` to ``2x3``).  The C++ at ``SHARDY_COMMIT`` typed no factor and gave
each side its own pass-through factor at the first coprime pair (``([i, l])->([j, k])``).

A dynamic dimension has the size ``DYNAMIC_SIZE`` (``INT64_MIN``), and the C++ does this arithmetic
in ``int64_t``: products wrap around, division truncates, ``%`` takes the dividend's sign and
``std::gcd`` works on magnitudes.  The rule does the same (``?x2`` has "0 elements", so no rule),
which is what a bounded dynamic reshape gets from the C++.  Where that arithmetic never lets the
walk finish (``3x?`` to ``12``: the C++ loops until memory runs out), the rule raises an error at
the op instead.
"""
from __future__ import annotations

import math

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.registry import register_rule
from shardy_py.rules.rule_errors import rule_error

_MASK = (1 << 64) - 1
NEED_REPLICATION = FactorType.NEED_REPLICATION
PERMUTATION = FactorType.PERMUTATION


def _i64(x: int) -> int:
    """``x`` wrapped to a signed 64-bit integer."""
    x &= _MASK
    return x - (1 << 64) if x >> 63 else x


def _mul(a: int, b: int) -> int:
    """``a * b`` in ``int64_t``."""
    return _i64(a * b)


def _div(a: int, b: int) -> int:
    """``a / b`` in ``int64_t`` (truncating)."""
    q = abs(a) // abs(b)
    return _i64(q if (a >= 0) == (b >= 0) else -q)


def _rem(a: int, b: int) -> int:
    """``a % b`` in ``int64_t`` (the sign of ``a``)."""
    return _i64(a - _div(a, b) * b)


def _gcd(a: int, b: int) -> int:
    """``std::gcd`` of two ``int64_t``: the gcd of the magnitudes, back in ``int64_t``."""
    return _i64(math.gcd(a, b))


def _num_elements(shape) -> int:
    """``ShapedType::getNumElements`` as an optimised build computes it (wrapping)."""
    n = 1
    for d in shape:
        n = _mul(n, d)
    return n


def _catch_up_factor(pending: int, behind: int, ahead: int, common: int) -> int:
    """The factor to add on the side whose factor product ``behind`` trails ``ahead``."""
    if _rem(ahead, behind) == 0 and _rem(pending, _div(ahead, behind)) == 0:
        return _div(ahead, behind)
    if pending > common:
        return _div(pending, common)
    return pending


@register_rule("stablehlo.reshape")
def reshape_rule(op, conservative: bool) -> OpShardingRuleAttr | None:
    """The factorised reshape rule; None (no rule) when the tensor has no elements.  Raises
    ``PassError`` where the C++ would never finish."""
    in_shape = shape_of(op.operands[0])
    out_shape = shape_of(op.results[0])
    if _num_elements(in_shape) == 0:
        return None
    in_rank, out_rank = len(in_shape), len(out_shape)
    builder = OpShardingRuleBuilder.for_op(op)
    in_dim = out_dim = 0
    dims_in = dims_out = 1  # products of the dimension sizes reached so far
    factors_in = factors_out = 1  # products of the factors added so far

    # Each step adds a size-1 factor for a size-1 dimension or a factor that grows a product
    # (at most 63 doublings per side); more steps than that means the C++ would loop forever.
    steps_left = 2 * 64 * (in_rank + out_rank + 1)
    while in_dim < in_rank or out_dim < out_rank:
        steps_left -= 1
        if steps_left < 0:
            raise rule_error(op, "the sharding rule of this reshape cannot be built: its dynamic "
                                 "dimensions make the factorisation of the shapes endless")
        if in_dim < in_rank and in_shape[in_dim] == 1:
            builder.add_factor(in_dim, KNULL_DIM, 1, NEED_REPLICATION)
            in_dim += 1
            continue
        if out_dim < out_rank and out_shape[out_dim] == 1:
            builder.add_factor(KNULL_DIM, out_dim, 1, NEED_REPLICATION)
            out_dim += 1
            continue

        if in_dim < in_rank and dims_in == factors_in:
            dims_in = _mul(dims_in, in_shape[in_dim])
        if out_dim < out_rank and dims_out == factors_out:
            dims_out = _mul(dims_out, out_shape[out_dim])
        pending_in = _div(dims_in, factors_in)
        pending_out = _div(dims_out, factors_out)
        common = _gcd(pending_in, pending_out)

        if factors_in == factors_out:
            if common > 1:
                builder.add_factor(in_dim, out_dim, common)
                factors_in = _mul(factors_in, common)
                factors_out = _mul(factors_out, common)
            else:
                builder.add_factor(in_dim, out_dim, pending_in, PERMUTATION)
                factors_in = _mul(factors_in, pending_in)
                factors_out = _mul(factors_out, pending_out)
        elif factors_in < factors_out:
            pending_in = _catch_up_factor(pending_in, factors_in, factors_out, common)
            builder.add_factor(in_dim, KNULL_DIM, pending_in, NEED_REPLICATION)
            factors_in = _mul(factors_in, pending_in)
        else:
            pending_out = _catch_up_factor(pending_out, factors_out, factors_in, common)
            builder.add_factor(KNULL_DIM, out_dim, pending_out, NEED_REPLICATION)
            factors_out = _mul(factors_out, pending_out)

        if in_dim < in_rank and dims_in == factors_in:
            in_dim += 1
        if out_dim < out_rank and dims_out == factors_out:
            out_dim += 1
    return builder.build()
