"""Verifiers of ``stablehlo.convolution`` and ``stablehlo.dynamic_conv`` (``isSpatialDimensionsValid``,
``verifyConvolutionAttributes``, ``inferConvolutionOp``, ``verifyConvolutionOp``, ``inferDynamicConvOp`` in
StableHLO's ``TypeInference.cpp``), with the window helpers of ``dialects.stablehlo_verify_windows``."""
from __future__ import annotations

from shardy_py.dialects.stablehlo_verify_common import (
    attr_constraint_failure,
    bools_prop,
    clean_when_seen,
    constant_ints,
    dims_compatible,
    element,
    elements_compatible,
    emit,
    first_duplicate,
    in_types,
    int_prop,
    ints_prop,
    is_quantized,
    out_types,
    prop,
    shape,
    typed_prop,
)
from shardy_py.dialects.stablehlo_verify_dot import dims_text, precision_config
from shardy_py.dialects.stablehlo_verify_windows import padding_pairs, window_dims, window_output_shape
from shardy_py.ir.diagnostics import Failure
from shardy_py.ir.stablehlo_attrs import ConvDimensionNumbersAttr


def _group_counts(op, ctx) -> tuple[int, int] | Failure | None:
    """ODS ``ConfinedAttr<I64Attr, [IntPositive]>`` of ``feature_group_count`` and ``batch_group_count``."""
    counts = []
    for name in ("feature_group_count", "batch_group_count"):
        v = int_prop(op, name)
        if v is None:
            return None
        if v <= 0:
            return attr_constraint_failure(op, ctx, name, "64-bit signless integer attribute whose value is positive")
        counts.append(v)
    return counts[0], counts[1]


def _spatial_dims_valid(dn: ConvDimensionNumbersAttr, rank: int) -> Failure | None:
    """``isSpatialDimensionsValid``."""
    n = len(dn.input_spatial_dimensions)
    if n != len(dn.kernel_spatial_dimensions) or n != len(dn.output_spatial_dimensions):
        return emit(f"expects the same size for input, kernel and output spatial-dimensions, but got {n}, "
                    f"{len(dn.kernel_spatial_dimensions)}, and {len(dn.output_spatial_dimensions)} resp.")
    groups = (("input", [dn.input_batch_dimension, dn.input_feature_dimension, *dn.input_spatial_dimensions]),
              ("kernel", [dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension,
                          *dn.kernel_spatial_dimensions]),
              ("output", [dn.output_batch_dimension, dn.output_feature_dimension, *dn.output_spatial_dimensions]))
    if not all(0 <= d < rank for _, dims in groups for d in dims):
        return emit(f"expects input, kernel, and output dimension-numbers to be in-range [0, {rank}).")
    for name, dims in groups:
        if first_duplicate(dims) is not None:
            return emit(f"expects {name} dimension-numbers to be unique, got {{{', '.join(map(str, dims))}}}.")
    return None


def _attributes(op, lhs: tuple[int, ...], rhs: tuple[int, ...], dn: ConvDimensionNumbersAttr, feature: int,
                batch: int) -> Failure | None:
    """``verifyConvolutionAttributes``."""
    f = _spatial_dims_valid(dn, len(lhs))
    if f is not None:
        return f
    if batch > 1 and feature > 1:
        return emit(f"expects batch_group_count and feature_group_count not to be both greater than 1. Got {batch} "
                    f"and {feature} resp.")
    in_features, in_batch = lhs[dn.input_feature_dimension], lhs[dn.input_batch_dimension]
    k_in, k_out = rhs[dn.kernel_input_feature_dimension], rhs[dn.kernel_output_feature_dimension]
    if in_batch >= 0 and in_batch % batch:
        return emit(f"expects input batch dimension ({in_batch}) to be divisible by batch_group_count. Got "
                    f"batch_group_count = {batch}.")
    if in_features >= 0:
        if in_features % feature:
            return emit(f"expects input feature dimension ({in_features}) to be a multiple of feature_group_count. "
                        f"Got feature_group_count = {feature}.")
        if k_in >= 0 and in_features // feature != k_in:
            return emit(f"expects input feature dimension ({in_features}) / feature_group_count = kernel input "
                        f"feature dimension ({k_in}). Got feature_group_count = {feature}.")
    if k_out >= 0:
        if k_out % batch:
            return emit(f"expects output feature dimension size ({k_out}) to be a multiple of batch_group_count. Got "
                        f"batch_group_count = {batch}.")
        if k_out % feature:
            return emit(f"expects kernel output feature dimension ({k_out}) to be divisible by feature_group_count. "
                        f"For feature_group_count = {feature}.")
    return precision_config(op)


def _common(op, lhs_t, rhs_t, dn, feature: int, batch: int) -> Failure | None:
    """``inferConvolutionOp`` / ``inferDynamicConvOp`` up to the window."""
    lhs, rhs = shape(lhs_t), shape(rhs_t)
    if len(lhs) < 2:
        return emit(f"expects convolution arguments to have >= 2 dimensions. Got: '{lhs_t}' and '{rhs_t}'.")
    if len(lhs) != len(rhs):
        return emit(f"expects convolution arguments to have same number of dimensions. Got: '{lhs_t}' and "
                    f"'{rhs_t}'.")
    if not is_quantized(lhs_t) and not is_quantized(rhs_t) and not elements_compatible(lhs_t, rhs_t):
        return emit(f"expects lhs and rhs to have compatible element type. Got: '{element(lhs_t)}' and "
                    f"'{element(rhs_t)}'")
    f = _attributes(op, lhs, rhs, dn, feature, batch)
    if f is not None:
        return f
    if len(lhs) != len(dn.input_spatial_dimensions) + 2:
        return emit(f"expects convolution arguments to have {len(dn.input_spatial_dimensions) + 2} dimensions. "
                    f"Got: {len(lhs)}")
    return None


def _window(op, lhs: tuple[int, ...], rhs: tuple[int, ...], dn, padding) -> list | Failure:
    """The window of the kernel's spatial dimensions (``verifyWindowAttributesAndInferWindowDimensions``)."""
    sizes = [rhs[d] for d in dn.kernel_spatial_dimensions]
    reversal = bools_prop(op, "window_reversal") or ()
    return window_dims(sizes, ints_prop(op, "window_strides") or (), padding, ints_prop(op, "lhs_dilation") or (),
                       ints_prop(op, "rhs_dilation") or (), reversal)


def _output_dims(lhs: tuple[int, ...], rhs: tuple[int, ...], dn, window, batch: int) -> list[int]:
    """The inferred result shape (convolution_c25, c26)."""
    out = [-1] * len(lhs)
    spatial = window_output_shape([lhs[d] for d in dn.input_spatial_dimensions], window)
    for i, d in enumerate(dn.output_spatial_dimensions):
        out[d] = spatial[i]
    in_batch = lhs[dn.input_batch_dimension]
    out[dn.output_batch_dimension] = -1 if in_batch < 0 else in_batch // batch
    out[dn.output_feature_dimension] = rhs[dn.kernel_output_feature_dimension]
    return out


def _operands(op, ctx):
    types = in_types(op)
    dn = typed_prop(op, "dimension_numbers")
    counts = _group_counts(op, ctx)
    if isinstance(counts, Failure):
        return counts
    if len(types) < 2 or shape(types[0]) is None or shape(types[1]) is None or counts is None or \
            not isinstance(dn, ConvDimensionNumbersAttr):
        return None
    return types, dn, counts


@clean_when_seen
def verify_convolution(op, ctx) -> Failure | None:
    """``stablehlo.convolution``: ``verifyConvolutionOp`` (the quantization rules aside)."""
    parts = _operands(op, ctx)
    if not isinstance(parts, tuple):
        return parts
    (lhs_t, rhs_t, *_), dn, (feature, batch) = parts
    f = _common(op, lhs_t, rhs_t, dn, feature, batch)
    if f is not None:
        return f
    padding = padding_pairs(prop(op, "padding"))
    if isinstance(padding, Failure):
        return padding
    lhs, rhs = shape(lhs_t), shape(rhs_t)
    window = _window(op, lhs, rhs, dn, padding)
    if isinstance(window, Failure):
        return window
    dims = _output_dims(lhs, rhs, dn, window, batch)
    result = out_types(op)[0] if op.results else None
    got = shape(result)
    if got is not None and (len(got) != len(dims) or not all(map(dims_compatible, got, dims))):
        return emit(f"inferred shape '{dims_text(dims)}' is incompatible with return type of operation '{result}'")
    return None


def verify_dynamic_conv(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_conv``: ``verifyDynamicConvOp`` (the window judged when the padding is a constant)."""
    parts = _operands(op, ctx)
    if not isinstance(parts, tuple):
        return parts
    types, dn, (feature, batch) = parts
    lhs_t, rhs_t = types[0], types[1]
    f = _common(op, lhs_t, rhs_t, dn, feature, batch)
    if f is not None or len(types) < 3 or shape(types[2]) is None:
        return f
    lhs, rhs, pad = shape(lhs_t), shape(rhs_t), shape(types[2])
    if len(pad) != 2:
        return emit(f"expects padding to be of rank 2 but got {len(pad)}")
    if pad[0] != len(lhs) - 2 or pad[1] != 2:
        return emit(f"expects padding to be of shape [{len(lhs) - 2}, 2], but got [{pad[0]}, {pad[1]}]")
    values = constant_ints(op.operands[2])
    if values is None:
        return None
    window = _window(op, lhs, rhs, dn, [(values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)])
    return window if isinstance(window, Failure) else None
