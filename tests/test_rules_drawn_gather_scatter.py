"""The sharding rules of gather and scatter against the C++ Shardy in jaxlib, on drawn ops.

One drawn geometry serves both ops: an operand shape, its batching dims, collapsed (inserted)
dims and indexed dims (``start_index_map``), slice sizes, an indices tensor with its index vector
dim and batch dims (some paired with the operand's batching dims), and where the offset (window)
dims sit in the result (updates).  As in test_rules_drawn_ops.py, our module after
``-sdy-populate-op-sharding-rules`` must be jaxlib's, normal and conservative.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

from rules_drawing import DRAWN, SIZES, add_body, check, function, generic, i64s, shapes, tensor  # noqa: E402


@dataclass(frozen=True)
class Geometry:
    """Everything a gather (or the matching scatter) needs."""

    operand: tuple[int, ...]
    batching: tuple[int, ...]             # operand_batching_dims (input_batching_dims)
    collapsed: tuple[int, ...]            # collapsed_slice_dims (inserted_window_dims)
    index_map: tuple[int, ...]            # start_index_map (scatter_dims_to_operand_dims)
    slice_sizes: tuple[int, ...]
    indices: tuple[int, ...]
    index_vector_dim: int
    indices_batching: tuple[int, ...]     # start_indices_batching_dims (scatter_indices_batching_dims)
    offset_dims: tuple[int, ...]          # offset_dims (update_window_dims)
    result: tuple[int, ...]               # the gather's result, the scatter's updates

    def lists(self, *names: str) -> str:
        values = (self.offset_dims, self.collapsed, self.batching, self.indices_batching, self.index_map)
        return ", ".join(f"{n} = [{', '.join(map(str, v))}]" for n, v in zip(names, values, strict=True))


@st.composite
def geometries(draw) -> Geometry:
    operand = draw(shapes(min_rank=1, max_rank=4))
    dims = list(range(len(operand)))
    batching = sorted(draw(st.sets(st.sampled_from(dims), max_size=2)))
    rest = [d for d in dims if d not in batching]
    collapsed = sorted(draw(st.sets(st.sampled_from(rest), max_size=len(rest)))) if rest else []
    index_map = draw(st.permutations(rest))[:draw(st.integers(0, len(rest)))] if rest else []
    slice_sizes = [1 if d in batching or d in collapsed else draw(st.integers(1, operand[d])) for d in dims]
    # The indices' batch dims: one per operand batching dim (same size), plus some of their own.
    own = draw(st.lists(SIZES, max_size=2))
    batch_sizes = [operand[d] for d in batching] + own
    order = draw(st.permutations(range(len(batch_sizes))))
    index_vector_dim = draw(st.integers(0, len(batch_sizes)))
    indices = [batch_sizes[k] for k in order]
    indices.insert(index_vector_dim, len(index_map))
    position = {k: i + (i >= index_vector_dim) for i, k in enumerate(order)}
    indices_batching = [position[k] for k in range(len(batching))]
    window = [slice_sizes[d] for d in dims if d not in batching and d not in collapsed]
    rank = len(batch_sizes) + len(window)
    offset_dims = sorted(draw(st.sets(st.integers(0, rank - 1), min_size=len(window), max_size=len(window)))) \
        if window else []
    batch_iter = iter(indices[:index_vector_dim] + indices[index_vector_dim + 1:])
    result, window_iter = [], iter(window)
    for r in range(rank):
        result.append(next(window_iter) if r in offset_dims else next(batch_iter))
    return Geometry(tuple(operand), tuple(batching), tuple(collapsed), tuple(index_map), tuple(slice_sizes),
                    tuple(indices), index_vector_dim, tuple(indices_batching), tuple(offset_dims), tuple(result))


@st.composite
def gathers(draw) -> str:
    g = draw(geometries())
    numbers = g.lists("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
                      "start_index_map")
    attributes = (f"dimension_numbers = #stablehlo.gather<{numbers}, index_vector_dim = {g.index_vector_dim}>, "
                  f"indices_are_sorted = false, slice_sizes = {i64s(g.slice_sizes)}")
    types = [tensor(g.operand), tensor(g.indices, "i32")]
    return function(types, tensor(g.result), generic("stablehlo.gather", types, tensor(g.result), attributes))


@st.composite
def scatters(draw) -> str:
    g = draw(geometries())
    numbers = g.lists("update_window_dims", "inserted_window_dims", "input_batching_dims",
                      "scatter_indices_batching_dims", "scatter_dims_to_operand_dims")
    attributes = (f"indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<{numbers}, "
                  f"index_vector_dim = {g.index_vector_dim}>, unique_indices = false")
    types = [tensor(g.operand), tensor(g.indices, "i32"), tensor(g.result)]
    op = generic("stablehlo.scatter", types, tensor(g.operand), attributes, (add_body(),))
    return function(types, tensor(g.operand), op)


@DRAWN
@given(text=gathers())
def test_gather_rules_match_cpp(text):
    check(text)


@DRAWN
@given(text=scatters())
def test_scatter_rules_match_cpp(text):
    check(text)
