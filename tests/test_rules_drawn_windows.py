"""The sharding rules of windowed, sorting, dynamic-slicing and FFT ops against the C++ Shardy in
jaxlib, on drawn ops: convolution (dimension layouts, feature and batch groups, padding, dilations),
select_and_scatter, sort, dynamic_slice, dynamic_update_slice (start indices from arguments or
constants) and fft of each type.  As in test_rules_drawn_ops.py, each op is wrapped in a function
and our module after ``-sdy-populate-op-sharding-rules`` must be jaxlib's, normal and conservative.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import (  # noqa: E402
    DRAWN,
    F32,
    SIZES,
    add_body,
    check,
    compare_body,
    function,
    generic,
    i64s,
    shapes,
    tensor,
)

I32 = "tensor<i32>"


def padding(pairs) -> str:
    """``padding = dense<[[lo, hi], ...]> : tensor<Nx2xi64>``."""
    text = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs) + "]"
    return f"padding = dense<{text}> : tensor<{len(pairs)}x2xi64>"


@st.composite
def convolutions(draw) -> str:
    spatial = draw(st.integers(0, 2))
    groups = draw(st.sampled_from(["none", "feature", "batch"]))
    count = draw(st.sampled_from([2, 3])) if groups != "none" else 1
    batch = draw(SIZES) * (count if groups == "batch" else 1)
    in_features = draw(st.sampled_from([1, 2, 4])) * (count if groups == "feature" else 1)
    out_features = draw(st.sampled_from([1, 2, 4])) * count
    lhs_spatial, rhs_spatial, out_spatial, pads, strides, lhs_dil, rhs_dil = [], [], [], [], [], [], []
    for _ in range(spatial):
        size, lo, hi = draw(SIZES), draw(st.integers(0, 2)), draw(st.integers(0, 2))
        ld, rd, stride = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
        padded = (size - 1) * ld + 1 + lo + hi
        kernel = draw(st.integers(1, (padded - 1) // rd + 1))
        lhs_spatial.append(size), rhs_spatial.append(kernel), pads.append((lo, hi))
        strides.append(stride), lhs_dil.append(ld), rhs_dil.append(rd)
        out_spatial.append((padded - ((kernel - 1) * rd + 1)) // stride + 1)
    lhs_layout = draw(st.permutations(["b", "f", *map(str, range(spatial))]))
    rhs_layout = draw(st.permutations(["i", "o", *map(str, range(spatial))]))
    out_layout = draw(st.permutations(["b", "f", *map(str, range(spatial))]))
    sizes = {"lhs": {"b": batch, "f": in_features}, "rhs": {"i": in_features // (count if groups == "feature" else 1),
                                                            "o": out_features},
             "out": {"b": batch // (count if groups == "batch" else 1), "f": out_features}}
    for k in range(spatial):
        sizes["lhs"][str(k)], sizes["rhs"][str(k)] = lhs_spatial[k], rhs_spatial[k]
        sizes["out"][str(k)] = out_spatial[k]
    lhs = tensor([sizes["lhs"][d] for d in lhs_layout])
    rhs = tensor([sizes["rhs"][d] for d in rhs_layout])
    out = tensor([sizes["out"][d] for d in out_layout])
    numbers = f"[{', '.join(lhs_layout)}]x[{', '.join(rhs_layout)}]->[{', '.join(out_layout)}]"
    attributes = [f"batch_group_count = {count if groups == 'batch' else 1} : i64",
                  f"dimension_numbers = #stablehlo.conv<{numbers}>",
                  f"feature_group_count = {count if groups == 'feature' else 1} : i64"]
    if spatial:
        attributes += [f"lhs_dilation = {i64s(lhs_dil)}", padding(pads), f"rhs_dilation = {i64s(rhs_dil)}",
                       f"window_strides = {i64s(strides)}"]
    return function([lhs, rhs], out, generic("stablehlo.convolution", [lhs, rhs], out, ", ".join(attributes)))


@st.composite
def select_and_scatters(draw) -> str:
    shape = draw(shapes(min_rank=1, max_rank=3))
    windows, strides, pads, source = [], [], [], []
    for n in shape:
        lo, hi = draw(st.integers(0, 1)), draw(st.integers(0, 1))
        window, stride = draw(st.integers(1, n + lo + hi)), draw(st.integers(1, 2))
        windows.append(window), strides.append(stride), pads.append((lo, hi))
        source.append((n + lo + hi - window) // stride + 1)
    types = [tensor(shape), tensor(source), F32]
    attributes = f"{padding(pads)}, window_dimensions = {i64s(windows)}, window_strides = {i64s(strides)}"
    op = generic("stablehlo.select_and_scatter", types, tensor(shape), attributes, (compare_body(), add_body()))
    return function(types, tensor(shape), op)


@st.composite
def sorts(draw) -> str:
    shape = draw(shapes(min_rank=1))
    dim = draw(st.integers(0, len(shape) - 1))
    count = draw(st.integers(1, 2))
    types = [tensor(shape)] * count
    op = generic("stablehlo.sort", types, types, f"dimension = {dim} : i64, is_stable = {draw(st.booleans())}".lower(),
                 (compare_body(count),))
    return function(types, types, op)


@st.composite
def dynamic_slices(draw) -> str:
    shape = draw(shapes(min_rank=1))
    sizes = [draw(st.integers(0, n)) for n in shape]
    types = [tensor(shape)] + [I32] * len(shape)
    op = generic("stablehlo.dynamic_slice", types, tensor(sizes), f"slice_sizes = {i64s(sizes)}")
    return function(types, tensor(sizes), op)


@st.composite
def dynamic_update_slices(draw) -> str:
    shape = draw(shapes(min_rank=1))
    update = [draw(st.integers(0, n)) for n in shape]
    constant = [draw(st.booleans()) for _ in shape]
    args = [tensor(shape), tensor(update)] + [I32 for c in constant if not c]
    names, prelude, next_arg = ["%arg0", "%arg1"], [], 2
    for k, is_constant in enumerate(constant):
        if is_constant:
            prelude.append(f'%i{k} = "stablehlo.constant"() {{value = dense<{k}> : tensor<i32>}} : () -> tensor<i32>')
            names.append(f"%i{k}")
        else:
            names.append(f"%arg{next_arg}")
            next_arg += 1
    types = [tensor(shape), tensor(update)] + [I32] * len(shape)
    op = generic("stablehlo.dynamic_update_slice", types, tensor(shape), names=names)
    return function(args, tensor(shape), op, tuple(prelude))


@st.composite
def ffts(draw) -> str:
    kind = draw(st.sampled_from(["FFT", "IFFT", "RFFT", "IRFFT"]))
    lengths = draw(st.lists(st.sampled_from([1, 2, 4, 6, 8]), min_size=1, max_size=3))
    batch = draw(shapes(max_rank=2))
    half = list(lengths[:-1]) + [lengths[-1] // 2 + 1]
    real, cplx = "f32", "complex<f32>"
    if kind in ("FFT", "IFFT"):
        operand = result = tensor(batch + tuple(lengths), cplx)
    elif kind == "RFFT":
        operand, result = tensor(batch + tuple(lengths), real), tensor(batch + tuple(half), cplx)
    else:
        operand, result = tensor(batch + tuple(half), cplx), tensor(batch + tuple(lengths), real)
    attributes = f"fft_length = {i64s(lengths)}, fft_type = #stablehlo<fft_type {kind}>"
    return function([operand], result, generic("stablehlo.fft", [operand], result, attributes))


@DRAWN
@given(text=convolutions())
def test_convolution_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=select_and_scatters())
def test_select_and_scatter_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=sorts())
def test_sort_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=dynamic_slices())
def test_dynamic_slice_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=dynamic_update_slices())
def test_dynamic_update_slice_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=ffts())
def test_fft_rules_match_cpp(text):
    check(text)
