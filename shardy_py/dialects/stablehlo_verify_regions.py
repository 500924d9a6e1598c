"""Verifiers of StableHLO's ops with regions (``TypeInference.cpp``: ``verifyReducerShape``,
``verifyReduceOp``, ``inferMapOp``, ``verifySortOp``, ``verifyWhileOp``, ``inferConditionalOp``),
as ``verify(op, ctx) -> Failure | None`` functions for the ops' declarations.

Messages are MLIR's; they are reported at the op, as ``emitOptionalError(location, ...)`` does.
"""
from __future__ import annotations

from shardy_py.dialects.stablehlo_verify_common import (
    check_inferred,
    dims_compatible,
    element,
    ints_prop,
    op_fail,
    shape,
    types_text,
)
from shardy_py.dialects.stablehlo_verify_types import (
    arg_types,
    block_known,
    clean_when_seen_with_regions,
    compatible_shape,
    compatible_shape_and_element,
    compatible_shapes,
    entry_block,
    hlo_compatible_all,
    is_i1_scalar,
    is_ranked,
    known,
    might_have_terminator,
    promotable,
    q,
    rank,
    scalar_tensor,
    terminator_types,
)
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import RankedTensorType


def verify_reducer(block, input_types, init_types, allowed_dims) -> Failure | None:
    """``verifyReducerShape``: the reduction region takes (accumulators..., elements...) and returns
    one tensor per input, of the init values' shapes and promotable element types."""
    n = len(input_types)
    args = arg_types(block)
    if len(args) != 2 * n:
        return fail(f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)")
    if not might_have_terminator(block):
        return fail("The reduction-region expected to have a terminator")
    rets = terminator_types(block)
    if not rets:
        return fail("The reduction-region expected to return some value(s)")
    if len(rets) != n:
        return fail(f"Reduction-region here must produce {n} tensors, but produces {len(rets)} instead")
    for t in rets:
        if not t.is_shaped:
            return fail(f"Reduction-region here must produce tensor-typed result(s), but produces {q(t)} instead")
    for i in range(n):
        acc, arg, elem_arg = rets[i], args[i], args[n + i]
        if not compatible_shape_and_element(acc, arg):
            return fail(f"The type of reduction-region's parameter at index {i} is different than the "
                        f"corresponding result type: {q(arg)} vs {q(acc)}")
        if not compatible_shape_and_element(acc, elem_arg, ignore_fp_precision=True):
            return fail(f"The type of reduction-region's parameter at index {n + i} is different than the "
                        f"corresponding result type: {q(elem_arg)} vs {q(acc)}")
        if not compatible_shape(init_types[i], acc):
            return fail(f"The shape of reduction-region's result type at index {i} differs from the op's "
                        f"corresponding init-value type: {q(acc)} vs {q(init_types[i])}")
        if not promotable(init_types[i], acc, ignore_fp_precision=True):
            return fail(f"The element-type of reduction-region's result type at index {i} is expected to be "
                        f"promotable from the op's corresponding init-value element-type: "
                        f"{q(acc)} vs {q(init_types[i])}")
        if not promotable(input_types[i], elem_arg, ignore_fp_precision=True):
            return fail(f"The element-type of reduction-region's argument at index {n + i} is expected to be "
                        f"promotable from {q(element(input_types[i]))}, but got {q(element(elem_arg))}")
        arg_shape = shape(elem_arg)
        if arg_shape is None:
            continue
        if len(arg_shape) > len(allowed_dims):
            return fail(f"The rank of reduction-region's argument at index {n + i} is expected to be "
                        f"<= {len(allowed_dims)}, got {len(arg_shape)}")
        j = 0
        for d in allowed_dims:
            if j >= len(arg_shape):
                break
            if dims_compatible(d, arg_shape[j]):
                j += 1
        if j != len(arg_shape):
            return fail(f"The shape of reduction-region's argument at index {n + i} is not compatible with that "
                        f"of reduce-op's input-parameter at index {i}")
    return None


def _halves(op) -> tuple[list, list]:
    """The inputs and init values of an op with ``SameVariadicOperandSize`` (inputs*, init_values*)."""
    ts = [v.type for v in op.operands]
    half = len(ts) // 2
    return ts[:half], ts[half:2 * half]


def verify_inputs_compatible(inputs) -> Failure | None:
    """reduce_c1 / reduce_window_c2: every input's shape is compatible with the first's."""
    for i in range(1, len(inputs)):
        if not compatible_shape(inputs[0], inputs[i]):
            return fail("expects all inputs to have compatible shapes. Shape at input-index "
                        f"{i} is not compatible with shape at input-index 0")
    return None


@clean_when_seen_with_regions
def verify_reduce(op, ctx) -> Failure | None:
    """``ReduceOp::verify`` and ``inferReduceOp``."""
    if not known(op):
        return None
    inputs, inits = _halves(op)
    block = entry_block(op.regions[0]) if op.regions else None
    if not inputs or block is None or not block_known(block) or not all(is_ranked(t) for t in inputs):
        return None
    f = verify_inputs_compatible(inputs)
    if f is not None:
        return f
    dims = ints_prop(op, "dimensions") or []
    r = rank(inputs[0])
    seen = set()
    for d in dims:
        if d < 0 or d >= r:
            return fail(f"Out-of-bounds dimension {d}, expected to be in range [0, {r})")
        if d in seen:
            return fail(f"Duplicate reduction dimension: {d}")
        seen.add(d)
    kept = [s for i, s in enumerate(shape(inputs[0])) if i not in seen]
    f = verify_reducer(block, inputs, inits, kept)
    if f is not None:
        return f
    rets = terminator_types(block)
    return check_inferred(op, [RankedTensorType.get(kept, element(t)) for t in rets])


@clean_when_seen_with_regions
def verify_map(op, ctx) -> Failure | None:
    """``inferMapOp`` (and the result's compatibility with it)."""
    if not known(op) or not op.regions:
        return None
    block = entry_block(op.regions[0])
    if block is None or not block_known(block):
        return None
    inputs = [v.type for v in op.operands]
    args = arg_types(block)
    if len(inputs) != len(args):
        return fail("expects number of operands to match the arity of map computation, but got: "
                    f"{len(inputs)} and {len(args)}")
    for i, a in enumerate(args):
        if rank(a) != 0:
            return fail(f"computation arguments must be 0-rank tensor, but got: arg #{i} of type {q(a)}")
        if str(element(a)) != str(element(inputs[i])):
            return fail("element type of operands and computation arguments must match, but got: "
                        f"{q(element(inputs[i]))} and {q(element(a))}")
    outs = terminator_types(block)
    if len(outs) != 1:
        return fail(f"computation must return single output, but got: {len(outs)}")
    if rank(outs[0]) != 0:
        return fail(f"computation must return 0-rank tensor, but got: {q(outs[0])}")
    dims = ints_prop(op, "dimensions") or []
    if any(d != i for i, d in enumerate(dims)):
        return fail("requires monotonically increasing dimension numbers, but got: " + ", ".join(map(str, dims)))
    result_shape = ()
    for t in inputs:
        if rank(t) != len(dims):
            return fail("applied to a subset of dimensions currently not supported: operand dimensions = "
                        f"{rank(t)}, requested map dimensions size = {len(dims)}")
        result_shape = shape(t)
    return check_inferred(op, [RankedTensorType.get(result_shape, element(outs[0]))])


@clean_when_seen_with_regions
def verify_sort(op, ctx) -> Failure | None:
    """``SortOp::verify`` (``verifySortOp``)."""
    if not known(op) or not op.regions:
        return None
    inputs = [v.type for v in op.operands]
    block = entry_block(op.regions[0])
    if block is None or not block_known(block) or not all(is_ranked(t) for t in inputs):
        return None
    types = inputs + [r.type for r in op.results]
    if not compatible_shapes(types):
        return op_fail(op, "requires the same shape for all operands and results")
    inferred = check_inferred(op, inputs)  # (an op with regions: reported after its nested ops, so last)
    dim_attr = op.properties.get("dimension")
    dim = -1 if dim_attr is None else int(str(dim_attr).split(":")[0])
    if inputs:
        r = rank(inputs[0])
        if dim < -r or dim >= r:
            return fail(f"dimension attribute value must be in range [-{r}, {r}), but found {dim}")
    args = arg_types(block)
    if len(args) != 2 * len(inputs):
        return fail(f"comparator block should have {2 * len(inputs)} arguments")
    for i, t in enumerate(inputs):
        want = scalar_tensor(element(t))
        for k in (2 * i, 2 * i + 1):
            if args[k].text != want.text:
                return fail(f"comparator block argument #{k} should be of type {q(want)} but got {q(args[k])}")
    outs = terminator_types(block)
    if len(outs) != 1:
        return fail(f"comparator must return single output but got {len(outs)}")
    if not is_i1_scalar(outs[0]):
        return fail(f"comparator must return tensor<i1> but got {q(outs[0])}")
    return inferred


@clean_when_seen_with_regions
def verify_while(op, ctx) -> Failure | None:
    """``WhileOp::verify`` (``verifyWhileOp``)."""
    if not known(op) or len(op.regions) != 2:
        return None
    cond, body = (entry_block(r) for r in op.regions)
    if cond is None or body is None:
        return None
    operands = [v.type for v in op.operands]
    cond_args, body_args = arg_types(cond), arg_types(body)
    if None in cond_args or None in body_args:
        return None
    if not hlo_compatible_all(operands, cond_args):
        return fail("expect operands to be compatible with condition block arguments but got "
                    f"{types_text(operands)} vs {types_text(cond_args)}")
    if not hlo_compatible_all(operands, body_args):
        return fail("expect operands to be compatible with body block arguments but got "
                    f"{types_text(operands)} vs {types_text(body_args)}")
    if not might_have_terminator(body):
        return fail("The while body-region expected to have a terminator")
    if not block_known(cond) or not block_known(body):
        return None
    body_rets = terminator_types(body)
    if not hlo_compatible_all(operands, body_rets):
        return fail("expect operands to be compatible with body block return types but got "
                    f"{types_text(operands)} vs {types_text(body_rets)}")
    cond_rets = terminator_types(cond)
    if len(cond_rets) != 1:
        return fail(f"expect condition body returns a single value but got {len(cond_rets)}")
    t = cond_rets[0]
    if not (t.is_shaped and rank(t) == 0 and str(element(t)) == "i1") and not is_i1_scalar(t):
        return fail(f"expect condition block return a zero-ranked tensor of i1 but got {q(t)}")
    return check_inferred(op, operands)


_CONDITIONAL_RESULTS = ("variadic of ranked tensor of 4/6/8/16/32/64-bit float or bool or 2/4/8/16/32/64-bit "
                        "integer or complex type with 32/64-bit float elements or per-tensor integer quantized values "
                        "or ranked tensor of per-axis integer quantized values or token")


def _verify_conditional(op) -> Failure | None:
    """ODS's result constraint, ``inferConditionalOp`` (if and case) and the results' compatibility with the
    inferred types."""
    if not known(op):
        return None
    for i, r in enumerate(op.results):
        if not (is_ranked(r.type) or r.type.text == "!stablehlo.token"):
            return op_fail(op, f"result #{i} must be {_CONDITIONAL_RESULTS}, but got {q(r.type)}")
    pred = op.operands[0].type if op.operands else None
    if pred is None or not is_ranked(pred):
        return None
    if rank(pred) != 0:
        return fail(f"operand should be rank 0 tensor but got rank {rank(pred)}")
    if not op.regions:
        return fail("expect at least one branch")
    blocks = [entry_block(r) for r in op.regions]
    if any(b is None for b in blocks):
        return fail("expect non-empty region")
    if not all(block_known(b) for b in blocks):
        return None
    rets0 = terminator_types(blocks[0])
    for i, b in enumerate(blocks):
        if b.arguments:
            return fail(f"branch {i} must have 0 arguments, but found {len(b.arguments)}")
        rets = terminator_types(b)
        if not hlo_compatible_all(rets0, rets):
            return fail(f"branch 0 and branch {i} have mismatched return types: {types_text(rets0)} vs "
                        f"{types_text(rets)}")
    return check_inferred(op, rets0)


@clean_when_seen_with_regions
def verify_if(op, ctx) -> Failure | None:
    """``IfOp``'s type inference."""
    return _verify_conditional(op)


@clean_when_seen_with_regions
def verify_case(op, ctx) -> Failure | None:
    """``CaseOp``'s type inference."""
    return _verify_conditional(op)
