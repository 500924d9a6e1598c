"""Rules that look beyond the op, against the C++ Shardy in jaxlib, on drawn functions.

A concatenate whose operands all come from slices gets a permutation factor; a
dynamic_update_slice gets the same rule whether its start indices are constants or not (jaxlib
0.12; the C++ at ``SHARDY_COMMIT`` dropped need-replication for constant indices); an
``X64Combine`` custom call used by an rng_bit_generator is replicated and blocked.  Each function
holds the op twice with the same types, once in each situation, so a rule memoised on the op's
types alone would give one of them the other's rule.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import DRAWN, check, generic, i64s, shapes, tensor  # noqa: E402

I32 = "tensor<i32>"


def body(arguments: list[str], lines: list[str], results: list[tuple[str, str]]) -> str:
    """``@main`` over ``arguments`` (types), then ``lines``, returning ``results`` (name, type)."""
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arguments))
    types = ", ".join(t for _, t in results)
    signature = types if len(results) == 1 else f"({types})"
    text = "".join(f"  {line}\n" for line in lines)
    return (f"func.func @main({args}) -> {signature} {{\n{text}"
            f"  return {', '.join(n for n, _ in results)} : {types}\n}}\n")


@st.composite
def concatenates_of_slices(draw) -> str:
    shape = draw(shapes(min_rank=1, max_rank=3))
    dim = draw(st.integers(0, len(shape) - 1))
    count = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, shape[dim])) for _ in range(count)]
    parts = [shape[:dim] + (n,) + shape[dim + 1:] for n in sizes]
    out = tensor(shape[:dim] + (sum(sizes),) + shape[dim + 1:])
    lines = []
    for k, part in enumerate(parts):
        starts = [0] * len(shape)
        attributes = f"start_indices = {i64s(starts)}, limit_indices = {i64s(part)}, strides = {i64s([1] * len(shape))}"
        op = generic("stablehlo.slice", [tensor(shape)], tensor(part), attributes, names=["%arg0"])
        lines.append(f"%s{k} = {op}")
    # Some of the slices may be replaced by arguments: then the permutation must go.
    from_args = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    arguments = [tensor(shape)] + [tensor(part) for part in parts]
    sliced = [f"%s{k}" for k in range(count)]
    mixed = [f"%arg{k + 1}" if a else f"%s{k}" for k, a in enumerate(from_args)]
    types = [tensor(part) for part in parts]
    concat = f"dimension = {dim} : i64"
    lines.append("%c0 = " + generic("stablehlo.concatenate", types, out, concat, names=sliced))
    lines.append("%c1 = " + generic("stablehlo.concatenate", types, out, concat, names=mixed))
    return body(arguments, lines, [("%c0", out), ("%c1", out)])


@st.composite
def updates_with_constant_indices(draw) -> str:
    shape = draw(shapes(min_rank=1, max_rank=3))
    update = [draw(st.integers(0, n)) for n in shape]
    rank = len(shape)
    lines = [f'%k{d} = "stablehlo.constant"() {{value = dense<{d}> : tensor<i32>}} : () -> tensor<i32>'
             for d in range(rank)]
    types = [tensor(shape), tensor(update)] + [I32] * rank
    constant = ["%arg0", "%arg1"] + [f"%k{d}" for d in range(rank)]
    dynamic = ["%arg0", "%arg1"] + [f"%arg{d + 2}" for d in range(rank)]
    order = draw(st.booleans())
    first, second = (constant, dynamic) if order else (dynamic, constant)
    lines.append("%u0 = " + generic("stablehlo.dynamic_update_slice", types, tensor(shape), names=first))
    lines.append("%u1 = " + generic("stablehlo.dynamic_update_slice", types, tensor(shape), names=second))
    return body([tensor(shape), tensor(update)] + [I32] * rank, lines, [("%u0", tensor(shape)), ("%u1", tensor(shape))])


@st.composite
def x64_combines(draw) -> str:
    parts, state = "tensor<2xui32>", "tensor<2xui64>"
    bits = tensor(draw(shapes()), "ui32")
    combine = generic("stablehlo.custom_call", [parts, parts], state, 'call_target_name = "X64Combine"')
    user = draw(st.sampled_from(["%x0", "%x1"]))
    other = "%x1" if user == "%x0" else "%x0"
    lines = ["%x0 = " + combine,
             "%x1 = " + combine.replace('"(%arg0, %arg1)', '"(%arg2, %arg3)'),
             "%r:2 = " + generic("stablehlo.rng_bit_generator", [state], [state, bits],
                                 "rng_algorithm = #stablehlo<rng_algorithm DEFAULT>", names=[user])]
    return body([parts] * 4, lines, [("%r#1", bits), (other, state)])


@DRAWN
@given(text=concatenates_of_slices())
def test_concatenate_of_slices_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=updates_with_constant_indices())
def test_dynamic_update_slice_with_constant_indices_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=x64_combines())
def test_x64_combine_feeding_an_rng_bit_generator_rules_match_cpp(text):
    check(text)
