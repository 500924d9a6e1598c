"""``convolution`` and ``dynamic_conv``: the input dilated and padded, then one ``einsum`` per kernel
position, accumulated over the whole output at once; feature and batch groups split the channels."""
from __future__ import annotations

import itertools

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import attr, handler, int_attr, ints, result_element
from shardy_py.interpreter.ops_shape import pad
from shardy_py.interpreter.values import is_bool, is_complex, is_float


def convolution(lhs: np.ndarray, rhs: np.ndarray, dn, strides, padding, lhs_dilation, rhs_dilation, reversal,
                feature_groups: int, batch_groups: int, name: str, out_shape) -> np.ndarray:
    """The convolution of ``lhs`` by ``rhs`` with the dimension numbers ``dn``; result of ``out_shape``."""
    x = np.transpose(lhs, [dn.input_batch_dimension, dn.input_feature_dimension, *dn.input_spatial_dimensions])
    k = np.transpose(rhs, [dn.kernel_output_feature_dimension, dn.kernel_input_feature_dimension,
                           *dn.kernel_spatial_dimensions])
    if is_float(name) or is_complex(name):
        wide_type = np.complex128 if is_complex(name) else np.float64
        x, k = x.astype(wide_type), k.astype(wide_type)
    elif is_bool(name):
        x, k = x.astype(np.int64), k.astype(np.int64)
    flips = [2 + i for i, r in enumerate(reversal) if r]
    if flips:
        k = np.flip(k, flips)
    zero = np.zeros((), x.dtype)
    low = [p[0] for p in padding]
    high = [p[1] for p in padding]
    x = pad(x, zero, [0, 0, *low], [0, 0, *high], [0, 0, *[d - 1 for d in lhs_dilation]])
    n, c = x.shape[:2]
    o = k.shape[0]
    out_spatial = [int(out_shape[d]) for d in dn.output_spatial_dimensions]
    # batch groups: the batch splits into groups, each convolved with its own slice of output features
    xs = x.reshape(batch_groups, n // batch_groups, c, *x.shape[2:])
    result = np.zeros((n // batch_groups, o, *out_spatial), dtype=np.result_type(x, k))
    per_fg_in = c // feature_groups
    o_per_group = o // (feature_groups * batch_groups)
    for pos in itertools.product(*(range(s) for s in k.shape[2:])):
        index = tuple(slice(p * dil, p * dil + (size - 1) * st + 1, st)
                      for p, dil, size, st in zip(pos, rhs_dilation, out_spatial, strides, strict=True))
        tap = k[(slice(None), slice(None), *pos)]  # (o, c / feature_groups)
        for bg in range(batch_groups):
            window = xs[(bg, slice(None), slice(None), *index)]  # (n / bg, c, spatial...)
            for fg in range(feature_groups):
                group = bg * feature_groups + fg
                outs = slice(group * o_per_group, (group + 1) * o_per_group)
                part = window[:, fg * per_fg_in:(fg + 1) * per_fg_in]
                result[:, outs] += np.einsum("nc...,oc->no...", part, tap[outs])
    out = np.transpose(result, np.argsort([dn.output_batch_dimension, dn.output_feature_dimension,
                                           *dn.output_spatial_dimensions]))
    return out != 0 if is_bool(name) else out


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
