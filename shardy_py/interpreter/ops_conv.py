"""``convolution`` and ``dynamic_conv`` as the reference's ``convolutionOp`` computes them: the input
dilated and padded, each output position's window (reversed where ``window_reversal`` says) dotted with
the kernel over the spatial and then the feature dimensions, feature and batch groups split apart.  All
the windows are gathered into one array (a strided view copied once), so each group's convolution is
one contraction over the whole output: float and complex sums accumulated as ``dotGeneralOp`` sums
them (``ops_linalg.accumulate``), integers and booleans exactly."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, attr, handler, int_attr, ints, result_element
from shardy_py.interpreter.ops_linalg import accumulate
from shardy_py.interpreter.ops_shape import pad
from shardy_py.interpreter.values import is_bool, is_complex, is_float


def convolution(lhs: np.ndarray, rhs: np.ndarray, dn, strides, padding, lhs_dilation, rhs_dilation, reversal,
                feature_groups: int, batch_groups: int, name: str, out_shape) -> np.ndarray:
    """The convolution of ``lhs`` by ``rhs`` with the dimension numbers ``dn``; result of ``out_shape``."""
    x = np.transpose(lhs, [dn.input_batch_dimension, dn.input_feature_dimension, *dn.input_spatial_dimensions])
    k = np.transpose(rhs, [dn.kernel_output_feature_dimension, dn.kernel_input_feature_dimension,
                           *dn.kernel_spatial_dimensions])
    if is_bool(name):
        x, k = x.astype(np.int64), k.astype(np.int64)
    x = pad(x, np.zeros((), x.dtype), [0, 0, *(p[0] for p in padding)], [0, 0, *(p[1] for p in padding)],
            [0, 0, *(d - 1 for d in lhs_dilation)])
    out_spatial = [int(out_shape[d]) for d in dn.output_spatial_dimensions]
    windows = _windows(x, k.shape[2:], out_spatial, strides, rhs_dilation, reversal)
    n, c = x.shape[:2]
    o, per_group_in = k.shape[:2]
    groups = feature_groups * batch_groups
    batch, per_group_out, depth = n // batch_groups, o // groups, per_group_in * int(np.prod(k.shape[2:]))
    spatial = len(out_spatial)
    # windows (n, c, out..., kernel...) -> (kernel..., c of the group, group, n of the group, out...):
    # the reference splits the features first, then the batch, and contracts the kernel's spatial
    # dimensions (row-major) before its input features
    a = windows.reshape(batch_groups, batch, feature_groups, per_group_in, *windows.shape[2:])
    a = np.transpose(a, [*range(4 + spatial, 4 + 2 * spatial), 3, 2, 0, 1, *range(4, 4 + spatial)])
    a = a.reshape(depth, groups, batch * int(np.prod(out_spatial)))
    b = k.reshape(groups, per_group_out, per_group_in, *k.shape[2:])
    b = np.transpose(b, [*range(3, 3 + spatial), 2, 0, 1]).reshape(depth, groups, per_group_out)
    if is_float(name) or is_complex(name):
        result = accumulate(a, b, name)
    else:
        result = np.matmul(np.transpose(a, (1, 2, 0)), np.transpose(b, (1, 0, 2)))
    # (group, n, out..., feature of the group) -> (n, feature, out...)
    result = result.reshape(groups, batch, *out_spatial, per_group_out)
    result = np.moveaxis(result, 0, -2).reshape(batch, *out_spatial, o)
    result = np.moveaxis(result, -1, 1)
    out = np.transpose(result, np.argsort([dn.output_batch_dimension, dn.output_feature_dimension,
                                           *dn.output_spatial_dimensions]))
    return out != 0 if is_bool(name) else out


def _windows(x: np.ndarray, kernel, out_spatial, strides, rhs_dilation, reversal) -> np.ndarray:
    """The window of the padded input ``x`` (n, c, spatial...) at every output position, as a view
    (n, c, out..., kernel...): ``x[n, c, out * stride + kernel * rhs_dilation]``, the kernel positions
    reversed along the dimensions ``reversal`` marks (the reference reverses the window, not the
    kernel)."""
    for size, out, st, k, d in zip(x.shape[2:], out_spatial, strides, kernel, rhs_dilation, strict=True):
        if out and k and (out - 1) * st + (k - 1) * d >= size:
            raise InterpretError(f"convolution window out of the padded input: {out} positions of stride {st}, "
                                 f"{k} kernel positions of dilation {d}, padded input size {size}")
    step = x.strides[2:]
    view = np.lib.stride_tricks.as_strided(
        x, (*x.shape[:2], *out_spatial, *kernel),
        (*x.strides[:2], *(s * st for s, st in zip(step, strides, strict=True)),
         *(s * d for s, d in zip(step, rhs_dilation, strict=True))), writeable=False)
    flips = [2 + len(out_spatial) + i for i, r in enumerate(reversal) if r]
    return np.flip(view, flips) if flips else view


def _run(ev, op, lhs, rhs, padding):
    dn = attr(op, "dimension_numbers")
    spatial = len(dn.input_spatial_dimensions)
    name = result_element(op)
    lhs = arith.convert(lhs, op.operands[0].type.element_type, name)
    rhs = arith.convert(rhs, op.operands[1].type.element_type, name)
    reversal = attr(op, "window_reversal")
    reversal = [bool(v) for v in reversal.values] if reversal is not None else [False] * spatial
    return convolution(lhs, rhs, dn, ints(op, "window_strides", [1] * spatial), padding,
                       ints(op, "lhs_dilation", [1] * spatial), ints(op, "rhs_dilation", [1] * spatial), reversal,
                       int_attr(op, "feature_group_count", 1), int_attr(op, "batch_group_count", 1), name,
                       tuple(op.results[0].type.shape))


def _pairs(values: list[int], spatial: int) -> list[tuple[int, int]]:
    if not values:
        return [(0, 0)] * spatial
    return [(values[2 * i], values[2 * i + 1]) for i in range(spatial)]


@handler("stablehlo.convolution")
def _convolution(ev, op, args):
    lhs, rhs = args
    dn = attr(op, "dimension_numbers")
    p = attr(op, "padding")
    padding = _pairs([int(v) for v in p.values()] if p is not None else [], len(dn.input_spatial_dimensions))
    return [_run(ev, op, lhs, rhs, padding)]


@handler("stablehlo.dynamic_conv")
def _dynamic_conv(ev, op, args):
    lhs, rhs, padding = args
    dn = attr(op, "dimension_numbers")
    return [_run(ev, op, lhs, rhs, _pairs([int(v) for v in padding.reshape(-1)], len(dn.input_spatial_dimensions)))]
