"""The sharding rules of shape-changing ops against the C++ Shardy in jaxlib, on drawn ops.

Each test draws one op of a kind (shapes, permutations, dimension numbers, paddings, windows),
wraps it in a function, and checks that our module after ``-sdy-populate-op-sharding-rules`` is
jaxlib's, normal and with ``conservative-propagation=true``.  The ops are written in MLIR's
generic form (``rules_drawing``), so that both sides read exactly the same op.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import DRAWN, F32, SIZES, add_body, check, function, generic, i64s, shapes, tensor  # noqa: E402


@st.composite
def regroup(draw, primes: list[int], max_cuts: int = 3) -> tuple[int, ...]:
    """A shape whose dimensions multiply to the product of ``primes`` (in at most ``max_cuts + 1``
    groups), with some 1s in it."""
    order = draw(st.permutations(primes)) if draw(st.booleans()) else list(primes)
    cuts = sorted(draw(st.sets(st.integers(1, max(len(order) - 1, 1)), max_size=max_cuts))) if len(order) > 1 else []
    groups, start = [], 0
    for c in [*cuts, len(order)]:
        groups.append(math.prod(order[start:c]))
        start = c
    groups = [g for g in groups if g != 1] if order else []
    for _ in range(draw(st.integers(0, 2))):
        groups.insert(draw(st.integers(0, len(groups))), 1)
    return tuple(groups)


@st.composite
def reshapes(draw) -> str:
    primes = draw(st.lists(st.sampled_from([2, 2, 3, 5]), max_size=5))
    a, b = draw(regroup(primes)), draw(regroup(primes))
    return function([tensor(a)], tensor(b), generic("stablehlo.reshape", [tensor(a)], tensor(b)))


@st.composite
def reshapes_with_larger_primes(draw) -> str:
    """Reshapes of up to six prime factors up to 11, grouped in any way on each side."""
    primes = draw(st.lists(st.sampled_from([2, 3, 5, 7, 11]), min_size=1, max_size=6))
    a, b = draw(regroup(primes, len(primes))), draw(regroup(primes, len(primes)))
    return function([tensor(a)], tensor(b), generic("stablehlo.reshape", [tensor(a)], tensor(b)))


@st.composite
def transposes(draw) -> str:
    shape = draw(shapes())
    perm = draw(st.permutations(range(len(shape))))
    out = tuple(shape[p] for p in perm)
    return function([tensor(shape)], tensor(out),
                    generic("stablehlo.transpose", [tensor(shape)], tensor(out), f"permutation = {i64s(perm)}"))


@st.composite
def broadcasts(draw) -> str:
    out = draw(shapes(max_rank=4))
    dims = draw(st.permutations(range(len(out))))[:draw(st.integers(0, len(out)))]
    shape = tuple(draw(st.sampled_from([1, out[d]])) for d in dims)
    return function([tensor(shape)], tensor(out), generic("stablehlo.broadcast_in_dim", [tensor(shape)], tensor(out),
                                                          f"broadcast_dimensions = {i64s(dims)}"))


@st.composite
def dot_generals(draw) -> str:
    kinds = {k: draw(st.lists(SIZES, max_size=2)) for k in ("batch", "contract", "lhs", "rhs")}
    lhs = draw(st.permutations([("batch", i) for i in range(len(kinds["batch"]))]
                               + [("contract", i) for i in range(len(kinds["contract"]))]
                               + [("lhs", i) for i in range(len(kinds["lhs"]))]))
    rhs = draw(st.permutations([("batch", i) for i in range(len(kinds["batch"]))]
                               + [("contract", i) for i in range(len(kinds["contract"]))]
                               + [("rhs", i) for i in range(len(kinds["rhs"]))]))

    def shape(dims):
        return tuple(kinds[k][i] for k, i in dims)

    def positions(dims, kind):
        return [dims.index((kind, i)) for i in range(len(kinds[kind]))]

    out = tuple(kinds["batch"]) + tuple(kinds[k][i] for k, i in lhs if k == "lhs") \
        + tuple(kinds[k][i] for k, i in rhs if k == "rhs")
    numbers = (f"lhs_batching_dimensions = [{', '.join(map(str, positions(lhs, 'batch')))}], "
               f"rhs_batching_dimensions = [{', '.join(map(str, positions(rhs, 'batch')))}], "
               f"lhs_contracting_dimensions = [{', '.join(map(str, positions(lhs, 'contract')))}], "
               f"rhs_contracting_dimensions = [{', '.join(map(str, positions(rhs, 'contract')))}]")
    types = [tensor(shape(lhs)), tensor(shape(rhs))]
    return function(types, tensor(out), generic("stablehlo.dot_general", types, tensor(out),
                                                f"dot_dimension_numbers = #stablehlo.dot<{numbers}>"))


@st.composite
def concatenates(draw) -> str:
    shape = draw(shapes(min_rank=1))
    dim = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(SIZES, min_size=1, max_size=3))
    types = [tensor(shape[:dim] + (n,) + shape[dim + 1:]) for n in sizes]
    out = tensor(shape[:dim] + (sum(sizes),) + shape[dim + 1:])
    return function(types, out, generic("stablehlo.concatenate", types, out, f"dimension = {dim} : i64"))


@st.composite
def slices(draw) -> str:
    shape = draw(shapes())
    starts, limits, strides, out = [], [], [], []
    for n in shape:
        start = draw(st.integers(0, n - 1))
        limit = draw(st.integers(start + 1, n))
        stride = draw(st.integers(1, 3))
        starts.append(start), limits.append(limit), strides.append(stride)
        out.append(-(-(limit - start) // stride))
    attributes = f"start_indices = {i64s(starts)}, limit_indices = {i64s(limits)}, strides = {i64s(strides)}"
    return function([tensor(shape)], tensor(out), generic("stablehlo.slice", [tensor(shape)], tensor(out), attributes))


@st.composite
def pads(draw) -> str:
    shape = draw(shapes())
    low = [draw(st.integers(-min(n - 1, 1), 2)) for n in shape]
    high = [draw(st.integers(-min(n - 1, 1), 2)) for n in shape]
    interior = [draw(st.integers(0, 1)) for _ in shape]
    out = [n + lo + hi + (n - 1) * it for n, lo, hi, it in zip(shape, low, high, interior, strict=True)]
    attributes = (f"edge_padding_low = {i64s(low)}, edge_padding_high = {i64s(high)}, "
                  f"interior_padding = {i64s(interior)}")
    types = [tensor(shape), F32]
    return function(types, tensor(out), generic("stablehlo.pad", types, tensor(out), attributes))


@st.composite
def reverses(draw) -> str:
    shape = draw(shapes())
    dims = sorted(draw(st.sets(st.integers(0, max(len(shape) - 1, 0)), max_size=len(shape))))
    return function([tensor(shape)], tensor(shape), generic("stablehlo.reverse", [tensor(shape)], tensor(shape),
                                                            f"dimensions = {i64s(dims)}"))


@st.composite
def reduces(draw) -> str:
    shape = draw(shapes(min_rank=1))
    dims = sorted(draw(st.sets(st.integers(0, len(shape) - 1), max_size=len(shape))))
    out = tensor(tuple(n for d, n in enumerate(shape) if d not in dims))
    types = [tensor(shape), F32]
    return function(types, out, generic("stablehlo.reduce", types, out, f"dimensions = {i64s(dims)}", (add_body(),)))


@st.composite
def reduce_windows(draw) -> str:
    shape = draw(shapes(min_rank=1))
    windows, strides, padding, out = [], [], [], []
    for n in shape:
        lo, hi = draw(st.integers(0, 1)), draw(st.integers(0, 1))
        window = draw(st.integers(1, n + lo + hi))
        stride = draw(st.integers(1, 2))
        windows.append(window), strides.append(stride), padding.append((lo, hi))
        out.append((n + lo + hi - window) // stride + 1)
    pad_text = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in padding) + "]"
    attributes = (f"window_dimensions = {i64s(windows)}, window_strides = {i64s(strides)}, "
                  f"padding = dense<{pad_text}> : tensor<{len(shape)}x2xi64>")
    types = [tensor(shape), F32]
    op = generic("stablehlo.reduce_window", types, tensor(out), attributes, (add_body(),))
    return function(types, tensor(out), op)


@DRAWN
@given(text=reshapes())
def test_reshape_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reshapes_with_larger_primes())
def test_reshape_rules_with_larger_primes_match_cpp(text):
    check(text)


@DRAWN
@given(text=transposes())
def test_transpose_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=broadcasts())
def test_broadcast_in_dim_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=dot_generals())
def test_dot_general_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=concatenates())
def test_concatenate_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=slices())
def test_slice_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=pads())
def test_pad_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reverses())
def test_reverse_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reduces())
def test_reduce_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reduce_windows())
def test_reduce_window_rules_match_cpp(text):
    check(text)
