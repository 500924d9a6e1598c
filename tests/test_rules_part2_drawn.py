"""Part 2 rules against the C++ Shardy in jaxlib on drawn ops the other drawn rule tests leave out:
``stablehlo.dot`` (vector and matrix operands), ``triangular_solve`` (side, transpose kind, batch
dimensions), ``reduce_scatter`` (scatter dimension), ``rng_bit_generator`` (state and output
shapes), ``select`` (scalar or full predicate) and reshapes with larger prime factors and size-1
dimensions.  Each op is wrapped in a function; our module after the populate pass must be jaxlib's,
normal and conservative (``rules_drawing.check``)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")

from rules_drawing import DRAWN, SIZES, add_body, check, function, generic, shapes, tensor  # noqa: E402


@st.composite
def dots(draw) -> str:
    n = draw(SIZES)
    lhs = (draw(SIZES), n) if draw(st.booleans()) else (n,)
    rhs = (n, draw(SIZES)) if draw(st.booleans()) else (n,)
    out = lhs[:-1] + rhs[1:]
    operands = [tensor(lhs), tensor(rhs)]
    return function(operands, tensor(out), generic("stablehlo.dot", operands, tensor(out)))


@st.composite
def triangular_solves(draw) -> str:
    batch = draw(shapes(max_rank=2))
    m, n = draw(SIZES), draw(SIZES)
    left = draw(st.booleans())
    a = (*batch, m, m) if left else (*batch, n, n)
    b = (*batch, m, n)
    kind = draw(st.sampled_from(["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]))
    attrs = (f"left_side = {str(left).lower()}, lower = {str(draw(st.booleans())).lower()}, "
             f"transpose_a = #stablehlo<transpose {kind}>, unit_diagonal = {str(draw(st.booleans())).lower()}")
    op = generic("stablehlo.triangular_solve", [tensor(a), tensor(b)], tensor(b), attrs)
    return function([tensor(a), tensor(b)], tensor(b), op)


@st.composite
def reduce_scatters(draw) -> str:
    shape = list(draw(shapes(min_rank=1, max_rank=3)))
    dim = draw(st.integers(0, len(shape) - 1))
    shape[dim] *= 2
    out = list(shape)
    out[dim] //= 2
    attrs = f"replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = {dim} : i64"
    op = generic("stablehlo.reduce_scatter", [tensor(shape)], tensor(out), attrs, regions=(add_body(),))
    return function([tensor(shape)], tensor(out), op)


@st.composite
def rng_bit_generators(draw) -> str:
    state = tensor((draw(st.sampled_from([2, 3])),), "ui64")
    out = tensor(draw(shapes()), "ui32")
    attrs = f"rng_algorithm = #stablehlo<rng_algorithm {draw(st.sampled_from(['DEFAULT', 'THREE_FRY', 'PHILOX']))}>"
    return function([state], [state, out], generic("stablehlo.rng_bit_generator", [state], [state, out], attrs))


@st.composite
def selects(draw) -> str:
    shape = draw(shapes())
    pred = tensor(() if draw(st.booleans()) else shape, "i1")
    operands = [pred, tensor(shape), tensor(shape)]
    return function(operands, tensor(shape), generic("stablehlo.select", operands, tensor(shape)))


@st.composite
def reshapes(draw) -> str:
    primes = draw(st.lists(st.sampled_from([2, 3, 5, 7, 11]), min_size=1, max_size=6))

    def grouping() -> tuple[int, ...]:
        order = draw(st.permutations(primes))
        cuts = sorted(draw(st.sets(st.integers(1, len(order)), max_size=len(order))) | {len(order)})
        dims, start = [], 0
        for cut in cuts:
            dims.append(math.prod(order[start:cut]))
            start = cut
        for _ in range(draw(st.integers(0, 2))):
            dims.insert(draw(st.integers(0, len(dims))), 1)
        return tuple(dims)

    a, b = grouping(), grouping()
    return function([tensor(a)], tensor(b), generic("stablehlo.reshape", [tensor(a)], tensor(b)))


@DRAWN
@given(text=dots())
def test_dot_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=triangular_solves())
def test_triangular_solve_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reduce_scatters())
def test_reduce_scatter_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=rng_bit_generators())
def test_rng_bit_generator_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=selects())
def test_select_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=reshapes())
def test_reshape_rules_with_larger_primes_match_cpp(text):
    check(text)
