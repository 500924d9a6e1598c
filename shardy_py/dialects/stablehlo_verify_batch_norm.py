"""Verifiers of StableHLO's batch normalisation ops (``TypeInference.cpp``: ``verifyBatchNorm``,
``inferBatchNormOp`` and its grad/inference/training callers, after the ODS constraint on
``feature_index``)."""
from __future__ import annotations

from shardy_py.dialects.stablehlo_verify_collectives import verify_int_attrs
from shardy_py.dialects.stablehlo_verify_common import bounds, check_inferred, element, int_prop, shape, tensor
from shardy_py.dialects.stablehlo_verify_types import clean_when_seen_with_regions, compatible_shape, known
from shardy_py.ir.diagnostics import Failure, fail

#: Per op: the indices of the multi-dimensional and the single-dimensional operands, and whether it
#: infers the feature-sized results too (all but inference).
_OPERANDS = {
    "stablehlo.batch_norm_grad": ((0, 4), (1, 2, 3), True),
    "stablehlo.batch_norm_inference": ((0,), (1, 2, 3, 4), False),
    "stablehlo.batch_norm_training": ((0,), (1, 2), True),
}


def _dim_text(d: int) -> str:
    return "?" if d < 0 else str(d)


@clean_when_seen_with_regions
def verify_batch_norm(op, ctx) -> Failure | None:
    """``inferBatchNorm{Grad,Inference,Training}Op`` and the results' compatibility with them."""
    if not known(op):
        return None
    f = verify_int_attrs(op, non_negative=("feature_index",))
    if f is not None:
        return f
    multi_at, single_at, feature_results = _OPERANDS[op.name]
    types = [v.type for v in op.operands]
    if len(types) <= max(multi_at + single_at):
        return None
    multi, single = [types[i] for i in multi_at], [types[i] for i in single_at]
    for group, what in ((multi, "multi"), (single, "single")):
        if not all(compatible_shape(a, b) for a in group for b in group):
            return fail(f"expects {what}-dimensional operands to have compatible shapes.")
    index = int_prop(op, "feature_index")
    dims, single_dims = shape(multi[0]), shape(single[0])
    if index is None or dims is None or single_dims is None or not single_dims:
        return None
    if index >= len(dims):
        return fail("expects featureIndex to be smaller than the rank of multi-dimensional operands; got featureIndex "
                    f"{index}, and rank {len(dims)}.")
    count, size = dims[index], single_dims[0]
    if count >= 0 and size >= 0 and count != size:
        return fail("expects the size of single-dimensional operands to be compatible with feature count, but the "
                    f"size of single-dimensional operands is {_dim_text(size)} and the feature count is "
                    f"{_dim_text(count)}.")
    elem = element(multi[0])
    inferred = [tensor(dims, elem, bounds(multi[0]))]
    if feature_results:
        b = bounds(multi[0])
        feature = tensor([count], elem, [b[index]] if b else None)
        inferred += [feature, feature]
    return check_inferred(op, inferred)
