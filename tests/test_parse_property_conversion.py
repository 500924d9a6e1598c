# ruff: noqa: E501  (MLIR text on one line, as written)
"""A StableHLO op's property written in the generic form as an attribute of a dialect MLIR does not load
(kept opaque) is MLIR's property-conversion error at the op's name, as jaxlib 0.12 gives it (found by
CI's atheris session with MLIR's verdict: ``#stablmhlo.gather<...>``)."""
from __future__ import annotations

import pytest
from cpp_oracle import shared_worker

import shardy_py
from shardy_py.errors import ParseError

GATHER = """func.func @main(%w: tensor<32x16xf32>, %i: tensor<8x1xi32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.gather"(%w, %i) <{dimension_numbers = DIMS, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<32x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
"""
DIMS = "gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>"


def _jaxlib(text: str) -> dict:
    pytest.importorskip("jax", reason="the expected error is jaxlib 0.12's")
    return shared_worker().call("module", text=text, pipeline="builtin.module()")


def test_an_unloaded_dialects_attribute_as_a_property_is_a_conversion_error_at_the_op_name():
    text = GATHER.replace("DIMS", "#stablmhlo." + DIMS)
    with pytest.raises(ParseError) as e:
        shardy_py.parse(text)
    assert (e.value.line, e.value.column) == (2, 8)
    assert e.value.message.endswith("for op stablehlo.gather: Invalid attribute `dimension_numbers` in "
                                    "property conversion: #stablmhlo." + DIMS)
    theirs = _jaxlib(text)
    assert not theirs["ok"]
    assert f'"-":2:8: {e.value.message}' in theirs["error"]


def test_the_same_property_of_stablehlos_own_attribute_reads():
    text = GATHER.replace("DIMS", "#stablehlo." + DIMS)
    assert shardy_py.verify(shardy_py.parse(text)) == []
    assert _jaxlib(text)["ok"]
