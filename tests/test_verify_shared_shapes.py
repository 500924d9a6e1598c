# ruff: noqa: E501
"""Verification of ops that share their attributes (ops of one shape, built from a parse recipe) reports
exactly what it reports for the same module parsed op by op (``fast_paths=False``: nothing shared)."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.syntax.parser import parse_module

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))

# The same op text twice outside and twice inside a computation manual on "x": only inside is the
# sharding's "x" an error, and an op of a wrong result type fails where its twins pass.
SHARED = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
      %4 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x8xf32>
      %5 = stablehlo.negate %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<4x8xf32>
      sdy.return %5 : tensor<4x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.negate %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
    return %3 : tensor<8x8xf32>
  }
}
"""


def _diagnostics(text: str, fast: bool) -> list[str]:
    return [str(d) for d in shardy_py.verify(parse_module(text, fast_paths=fast))]


@pytest.mark.parametrize("text", [SHARED, *(p.read_text() for p in EXAMPLES)],
                         ids=["shared", *(p.name for p in EXAMPLES)])
def test_same_diagnostics_as_a_full_parse(text):
    assert _diagnostics(text, True) == _diagnostics(text, False)


def test_a_shared_shape_fails_only_where_it_is_wrong():
    diags = _diagnostics(SHARED, True)
    assert len(diags) == 2, diags
    assert all(d.split(":")[0] in ("7", "8") for d in diags), diags
