"""Running the scalar regions of reductions, sorts, maps and scatters on whole arrays.

A region whose ops are all elementwise (its block arguments are ``tensor<T>`` scalars) computes the
same thing on arrays of any shape: it runs once on whole arrays (``apply_scalar_region``).  A region
with other ops runs once per element.  ``binary_ufunc`` recognises the regions that are one
associative op (``stablehlo.add`` of the two arguments, ...), which reductions can do with numpy.
"""
from __future__ import annotations

import numpy as np

from shardy_py.ir.ops import Region

ELEMENTWISE = frozenset("stablehlo." + n for n in (
    "add subtract multiply divide remainder maximum minimum power atan2 and or xor shift_left "
    "shift_right_logical shift_right_arithmetic complex compare negate abs not sign ceil floor "
    "round_nearest_even round_nearest_afz sqrt rsqrt cbrt exponential exponential_minus_one log "
    "log_plus_one logistic sine cosine tan tanh is_finite popcnt count_leading_zeros real imag convert "
    "clamp select constant return reduce_precision").split())


_ELEMENTWISE_REGIONS: dict[int, tuple[Region, bool]] = {}


def is_elementwise(region: Region) -> bool:
    """Whether every op of ``region`` works element by element (so it may run on whole arrays)."""
    known = _ELEMENTWISE_REGIONS.get(id(region))
    if known is not None and known[0] is region:
        return known[1]
    answer = all(op.name in ELEMENTWISE or op.name == "func.return" for b in region.blocks for op in b.ops)
    _ELEMENTWISE_REGIONS[id(region)] = (region, answer)
    return answer


def apply_scalar_region(ev, region: Region, arrays: list[np.ndarray]) -> list[np.ndarray]:
    """The results of ``region`` applied element by element to ``arrays`` (broadcast together)."""
    arrays = list(np.broadcast_arrays(*arrays)) if arrays else []
    if is_elementwise(region):
        outer = ev.batched
        ev.batched = True
        try:
            out = ev.run_region(region, arrays, ev.scope)
        finally:
            ev.batched = outer
        shape = arrays[0].shape if arrays else ()
        return [np.broadcast_to(o, shape).copy() for o in out]
    shape = arrays[0].shape if arrays else ()
    flat = [a.reshape(-1) for a in arrays]
    n = flat[0].size if flat else 1
    per_element = [ev.run_region(region, [a[i].reshape(()) for a in flat], ev.scope) for i in range(n)]
    if not per_element:
        return []
    return [np.stack([r[k] for r in per_element]).reshape(shape) for k in range(len(per_element[0]))]


_UFUNCS = {"stablehlo.add": np.add, "stablehlo.multiply": np.multiply, "stablehlo.maximum": np.maximum,
           "stablehlo.minimum": np.minimum, "stablehlo.and": np.bitwise_and, "stablehlo.or": np.bitwise_or,
           "stablehlo.xor": np.bitwise_xor}


def binary_ufunc(region: Region) -> str | None:
    """The op name when ``region`` is ``return OP(arg0, arg1)`` with OP associative and commutative."""
    if len(region.blocks) != 1:
        return None
    block = region.blocks[0]
    ops = block.ops
    if len(ops) != 2 or len(block.arguments) != 2 or ops[0].name not in _UFUNCS:
        return None
    first, ret = ops
    if ret.name not in ("stablehlo.return", "func.return") or len(ret.operands) != 1:
        return None
    if ret.operands[0] is not first.results[0]:
        return None
    if set(first.operands) != set(block.arguments):
        return None
    return first.name
