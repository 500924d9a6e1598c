"""The sharding rules of collectives, bit casts, linear algebra, clamp/select, dot, RNG and custom
calls against the C++ Shardy in jaxlib, on drawn ops.  As in test_rules_drawn_ops.py, each op is
wrapped in a function and our module after ``-sdy-populate-op-sharding-rules`` must be jaxlib's,
normal and conservative (ops the registry does not know must get no rule on either side).
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import DRAWN, F32, SIZES, add_body, check, function, generic, shapes, tensor  # noqa: E402

#: Custom call targets whose rule is pointwise, and targets that get no rule.
POINTWISE_TARGETS = ["annotate_device_placement", "Cholesky", "LayoutConstraint", "mhlo.erf", "MoveToHost",
                     "X64SplitLow", "_SPMDInternalOp_RotateRight", "_SPMDInternalOp_MultiSlice", "X64Combine"]
NO_RULE_TARGETS = ["tpu_custom_call", "xla_python_cpu_callback", "xla.debug.Log", "my_unknown_target"]


def groups(size: int) -> str:
    """``replica_groups`` of one group of ``size`` replicas."""
    return f"replica_groups = dense<[[{', '.join(map(str, range(size)))}]]> : tensor<1x{size}xi64>"


def replace(shape: tuple[int, ...], dim: int, size: int) -> tuple[int, ...]:
    return shape[:dim] + (size,) + shape[dim + 1:]


@st.composite
def all_gathers(draw) -> str:
    shape = draw(shapes(min_rank=1))
    dim, n = draw(st.integers(0, len(shape) - 1)), draw(st.integers(1, 3))
    count = draw(st.integers(1, 2))
    types, out = [tensor(shape)] * count, [tensor(replace(shape, dim, shape[dim] * n))] * count
    op = generic("stablehlo.all_gather", types, out, f"all_gather_dim = {dim} : i64, {groups(n)}")
    return function(types, out, op)


@st.composite
def all_to_alls(draw) -> str:
    n = draw(st.integers(1, 3))
    shape = list(draw(shapes(min_rank=1)))
    split, concat = draw(st.integers(0, len(shape) - 1)), draw(st.integers(0, len(shape) - 1))
    shape[split] *= n
    out = list(shape)
    out[split] //= n
    out[concat] *= n
    attributes = (f"concat_dimension = {concat} : i64, {groups(n)}, split_count = {n} : i64, "
                  f"split_dimension = {split} : i64")
    return function([tensor(shape)], tensor(out), generic("stablehlo.all_to_all", [tensor(shape)], tensor(out),
                                                          attributes))


@st.composite
def reduce_scatters(draw) -> str:
    n = draw(st.integers(1, 3))
    shape = list(draw(shapes(min_rank=1)))
    dim = draw(st.integers(0, len(shape) - 1))
    shape[dim] *= n
    out = replace(tuple(shape), dim, shape[dim] // n)
    op = generic("stablehlo.reduce_scatter", [tensor(shape)], tensor(out), f"{groups(n)}, scatter_dimension = {dim} "
                 ": i64", (add_body(),))
    return function([tensor(shape)], tensor(out), op)


@st.composite
def bitcast_converts(draw) -> str:
    shape = draw(shapes(max_rank=3))
    narrow = draw(st.sampled_from([("i32", 1), ("i16", 2), ("i8", 4)]))
    wide, small = tensor(shape), tensor(shape + ((narrow[1],) if narrow[1] > 1 else ()), narrow[0])
    a, b = (wide, small) if draw(st.booleans()) else (small, wide)
    return function([a], b, generic("stablehlo.bitcast_convert", [a], b))


@st.composite
def batch_norm_inferences(draw) -> str:
    shape = draw(shapes(min_rank=1))
    feature = draw(st.integers(0, len(shape) - 1))
    types = [tensor(shape)] + [tensor((shape[feature],))] * 4
    attributes = f"epsilon = 1.000000e-03 : f32, feature_index = {feature} : i64"
    return function(types, tensor(shape), generic("stablehlo.batch_norm_inference", types, tensor(shape), attributes))


@st.composite
def choleskies(draw) -> str:
    n = draw(SIZES)
    t = tensor(draw(shapes(max_rank=2)) + (n, n))
    return function([t], t, generic("stablehlo.cholesky", [t], t, f"lower = {str(draw(st.booleans())).lower()}"))


@st.composite
def triangular_solves(draw) -> str:
    batch, m, n = draw(shapes(max_rank=2)), draw(SIZES), draw(SIZES)
    left = draw(st.booleans())
    a, b = tensor(batch + (m, m)), tensor(batch + ((m, n) if left else (n, m)))
    transpose = draw(st.sampled_from(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]))
    attributes = (f"left_side = {str(left).lower()}, lower = {str(draw(st.booleans())).lower()}, "
                  f"transpose_a = #stablehlo<transpose {transpose}>, "
                  f"unit_diagonal = {str(draw(st.booleans())).lower()}")
    return function([a, b], b, generic("stablehlo.triangular_solve", [a, b], b, attributes))


@st.composite
def clamps(draw) -> str:
    t = tensor(draw(shapes()))
    low, high = draw(st.sampled_from([F32, t])), draw(st.sampled_from([F32, t]))
    return function([low, t, high], t, generic("stablehlo.clamp", [low, t, high], t))


@st.composite
def selects(draw) -> str:
    shape = draw(shapes())
    pred = draw(st.sampled_from(["tensor<i1>", tensor(shape, "i1")]))
    types = [pred, tensor(shape), tensor(shape)]
    return function(types, tensor(shape), generic("stablehlo.select", types, tensor(shape)))


@st.composite
def dots(draw) -> str:
    m, k, n = draw(SIZES), draw(SIZES), draw(SIZES)
    lhs_matrix, rhs_matrix = draw(st.booleans()), draw(st.booleans())
    lhs, rhs = (m, k) if lhs_matrix else (k,), (k, n) if rhs_matrix else (k,)
    out = (m,) * lhs_matrix + (n,) * rhs_matrix
    types = [tensor(lhs), tensor(rhs)]
    return function(types, tensor(out), generic("stablehlo.dot", types, tensor(out)))


@st.composite
def rng_bit_generators(draw) -> str:
    state, out = tensor((draw(st.sampled_from([2, 3])),), "ui64"), tensor(draw(shapes()), "ui32")
    algorithm = draw(st.sampled_from(["DEFAULT", "THREE_FRY", "PHILOX"]))
    op = generic("stablehlo.rng_bit_generator", [state], [state, out],
                 f"rng_algorithm = #stablehlo<rng_algorithm {algorithm}>")
    return function([state], [state, out], op)


def custom_call(target: str, operands: list[str], results: list[str]) -> str:
    return function(operands, results, generic("stablehlo.custom_call", operands, results,
                                               f'call_target_name = "{target}"'))


@st.composite
def custom_calls(draw) -> str:
    batch = draw(shapes(max_rank=2))
    m, n = draw(SIZES), draw(SIZES)
    kind = draw(st.sampled_from(["pointwise", "none", "Eigh", "Qr", "Householder", "topk", "ApproxTopK"]))
    if kind == "pointwise":
        t = tensor(draw(shapes()))
        count = draw(st.integers(1, 2))
        return custom_call(draw(st.sampled_from(POINTWISE_TARGETS)), [t] * count, [t] * count)
    if kind == "none":
        t = tensor(draw(shapes()))
        return custom_call(draw(st.sampled_from(NO_RULE_TARGETS)), [t], [t])
    if kind == "Eigh":
        return custom_call("Eigh", [tensor(batch + (n, n))], [tensor(batch + (n, n)), tensor(batch + (n,))])
    if kind == "Qr":
        return custom_call(draw(st.sampled_from(["Qr", "QrDecompositionBlock"])), [tensor(batch + (m, n))],
                           [tensor(batch + (m, n)), tensor(batch + (min(m, n),))])
    if kind == "Householder":
        k = draw(st.integers(1, min(m, n)))
        return custom_call("ProductOfElementaryHouseholderReflectors", [tensor(batch + (m, n)), tensor(batch + (k,))],
                           [tensor(batch + (m, n))])
    shape = batch + (n,)
    k = draw(st.integers(1, n))
    if kind == "topk":
        out = batch + (k,)
        return custom_call(draw(st.sampled_from(["mhlo.topk", "TopK"])), [tensor(shape)],
                           [tensor(out), tensor(out, "i32")])
    dim = draw(st.integers(0, len(shape) - 1))
    out = replace(shape, dim, draw(st.integers(1, shape[dim])))
    return custom_call(draw(st.sampled_from(["ApproxTopK", "PartialReduce"])),
                       [tensor(shape), tensor(shape, "i32"), F32, "tensor<i32>"], [tensor(out), tensor(out, "i32")])


@DRAWN
@given(text=all_gathers())
def test_all_gather_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=all_to_alls())
def test_all_to_all_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reduce_scatters())
def test_reduce_scatter_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=bitcast_converts())
def test_bitcast_convert_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=batch_norm_inferences())
def test_batch_norm_inference_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=choleskies())
def test_cholesky_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=triangular_solves())
def test_triangular_solve_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=clamps())
def test_clamp_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=selects())
def test_select_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=dots())
def test_dot_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=rng_bit_generators())
def test_rng_bit_generator_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=custom_calls())
def test_custom_call_rules_match_cpp(text):
    check(text)
