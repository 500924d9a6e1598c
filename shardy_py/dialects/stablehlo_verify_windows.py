"""Verifiers of StableHLO's windowed reductions (``TypeInference.cpp``: ``verifyReduceWindowOp``,
``inferReduceWindowOp``, ``verifySelectAndScatterOp``) and the window helpers they share
(``verifyWindowAttributesAndInferWindowDimensions``, ``convertPaddingAttribute``,
``inferWindowOutputShape``)."""
from __future__ import annotations

import attrs

from shardy_py.dialects.stablehlo_verify_common import (
    check_inferred,
    element,
    ints_prop,
    shape,
)
from shardy_py.dialects.stablehlo_verify_regions import verify_inputs_compatible, verify_reducer
from shardy_py.dialects.stablehlo_verify_types import (
    block_known,
    clean_when_seen_with_regions,
    compatible_shape_and_element,
    dense_ints,
    entry_block,
    is_i1_scalar,
    is_ranked,
    known,
    q,
    rank,
    scalar_tensor,
    terminator_types,
)
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import DYNAMIC, RankedTensorType


@attrs.frozen
class WindowDim:
    """One dimension of a window (``hlo::WindowDimension``)."""

    size: int
    stride: int = 1
    padding_low: int = 0
    padding_high: int = 0
    window_dilation: int = 1
    base_dilation: int = 1


def padding_pairs(attr) -> list[tuple[int, int]] | Failure:
    """``convertPaddingAttribute``: an ``Nx2`` elements attribute as ``(low, high)`` pairs."""
    dense = dense_ints(attr)
    if dense is None:
        return []
    s, vals = dense
    if len(s) != 2 or s[1] != 2:
        return fail("expects the shape of padding-attribute to be {N, 2}, but got {" + ", ".join(map(str, s)) + "}.")
    return [(vals[2 * i], vals[2 * i + 1]) for i in range(s[0])]


def window_dims(sizes, strides=(), padding=(), lhs_dilation=(), rhs_dilation=(),
                reversal=()) -> list[WindowDim] | Failure:
    """``verifyWindowAttributesAndInferWindowDimensions``: each attribute is empty or one entry per
    window dimension; sizes, strides and dilations are positive."""
    n = len(sizes)
    for got, what in ((strides, "window-strides"), (lhs_dilation, "base-dilation factors"),
                      (rhs_dilation, "window-dilation factors"), (padding, "padding-entries"),
                      (reversal, "window-reversal")):
        if got and len(got) != n:
            return fail(f"expects {what} to have same dimension-size as size of window dimensions ({n}), "
                        f"but got: {len(got)}.")
    out = []
    for i, size in enumerate(sizes):
        if size != DYNAMIC and size <= 0:
            return fail(f"expects window to have positive value for {i}-th window dimension, but got {size}.")
        stride = strides[i] if strides else 1
        if stride <= 0:
            return fail(f"expects window to have positive stride for {i}-th window dimension, but got {stride}.")
        base = lhs_dilation[i] if lhs_dilation else 1
        if base <= 0:
            return fail(f"expects window to have positive base dilation factor for {i}-th window dimension, "
                        f"but got {base}.")
        win = rhs_dilation[i] if rhs_dilation else 1
        if win <= 0:
            return fail(f"expects window to have positive window dilation factor for {i}-th window dimension, "
                        f"but got {win}.")
        lo, hi = padding[i] if padding else (0, 0)
        out.append(WindowDim(size, stride, lo, hi, win, base))
    return out


def _dilated(bound: int, dilation: int) -> int:
    return 0 if bound == 0 else (bound - 1) * dilation + 1


def _strided(bound: int, window: int, stride: int) -> int:
    if bound <= 0 or window > bound:
        return 0
    return (bound - window) // stride + 1


def window_output_shape(base_shape, window: list[WindowDim]) -> list[int]:
    """``inferWindowOutputShape``: per dimension, the number of window positions in the padded,
    dilated base."""
    out = []
    for b, w in zip(base_shape, window, strict=True):
        if b == DYNAMIC or w.size == DYNAMIC:
            out.append(DYNAMIC)
            continue
        padded = w.padding_low + _dilated(b, w.base_dilation) + w.padding_high
        out.append(_strided(padded, _dilated(w.size, w.window_dilation), w.stride))
    return out


@clean_when_seen_with_regions
def verify_reduce_window(op, ctx) -> Failure | None:
    """``ReduceWindowOp::verify`` and ``inferReduceWindowOp``."""
    if not known(op):
        return None
    ts = [v.type for v in op.operands]
    half = len(ts) // 2
    inputs, inits = ts[:half], ts[half:2 * half]
    if not inputs:
        return fail("requires at least 1 input value")
    block = entry_block(op.regions[0]) if op.regions else None
    if block is None or not block_known(block) or not all(is_ranked(t) for t in inputs):
        return None
    f = verify_inputs_compatible(inputs)
    if f is not None:
        return f
    padding = padding_pairs(op.properties.get("padding"))
    if isinstance(padding, Failure):
        return padding
    sizes = ints_prop(op, "window_dimensions") or []
    for t in inputs:
        if rank(t) != len(sizes):
            return fail(f"expects window-dimensions size == input rank, but got window-dimensions size: "
                        f"{len(sizes)} and input: {q(t)} with rank = {rank(t)}.")
    window = window_dims(sizes, ints_prop(op, "window_strides") or [], padding,
                         ints_prop(op, "base_dilations") or [],
                         ints_prop(op, "window_dilations") or [])
    if isinstance(window, Failure):
        return window
    f = verify_reducer(block, inputs, inits, sizes)
    if f is not None:
        return f
    rets = terminator_types(block)
    inferred = [RankedTensorType.get(window_output_shape(shape(t), window), element(rets[i]))
                for i, t in enumerate(inputs)]
    return check_inferred(op, inferred)


@clean_when_seen_with_regions
def verify_select_and_scatter(op, ctx) -> Failure | None:
    """``SelectAndScatterOp::verify`` (``verifySelectAndScatterOp``) and its inferred result type."""
    if not known(op) or len(op.operands) != 3 or len(op.regions) != 2:
        return None
    operand, source, init = (v.type for v in op.operands)
    select, scatter = (entry_block(r) for r in op.regions)
    if select is None or scatter is None or not block_known(select) or not block_known(scatter):
        return None
    if not (is_ranked(operand) and is_ranked(source)):
        return None
    if len(select.arguments) != 2:
        return fail(f"expects the select-region to take 2 parameters, but takes {len(select.arguments)}")
    want = scalar_tensor(element(operand))
    for i, a in enumerate(select.arguments):
        if not compatible_shape_and_element(want, a.type, ignore_fp_precision=True):
            return fail(f"expects the type of select-region's parameter at index {i} to be {q(want)}, "
                        f"but got {q(a.type)}")
    outs = terminator_types(select)
    if len(outs) != 1:
        return fail(f"expects select-region to return single value, but got: {len(outs)}")
    if not is_i1_scalar(outs[0]):
        return fail(f"expects the return-type of select-region to be tensor<i1>, but got: {q(outs[0])}")
    f = verify_reducer(scatter, [scalar_tensor(element(source))], [init], [])
    if f is not None:
        return f
    sizes = ints_prop(op, "window_dimensions") or []
    if rank(operand) != len(sizes):
        return fail(f"expects window-dimensions size == operand rank, but got window-dimensions size: "
                    f"{len(sizes)} and operand-type: {q(operand)} with rank = {rank(operand)}.")
    padding = padding_pairs(op.properties.get("padding"))
    if isinstance(padding, Failure):
        return padding
    window = window_dims(sizes, ints_prop(op, "window_strides") or [], padding)
    if isinstance(window, Failure):
        return window
    expected = RankedTensorType.get(window_output_shape(shape(operand), window), element(operand))
    if not compatible_shape_and_element(expected, source, ignore_fp_precision=True):
        return fail(f"expects source-type to be {q(expected)}, but got{q(source)}")
    inferred = RankedTensorType.get(shape(operand), element(terminator_types(scatter)[0]), operand.encoding)
    return check_inferred(op, [inferred])
