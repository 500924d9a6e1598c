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


def _dynamic_broadcast(shape: str) -> str:
    return ("func.func @f(%arg0: tensor<4xf32>) -> tensor<3x4xf32> {\n"
            f"  %0 = stablehlo.constant dense<{shape}> : tensor<2xi64>\n"
            "  %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %0, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> "
            "tensor<3x4xf32>\n  return %1 : tensor<3x4xf32>\n}\n")


def test_an_op_judged_clean_is_judged_again_with_other_constant_operands() -> None:
    """The verdicts kept for ops of one shape (``driver._CLEAN_OPS``, the recipe verdicts) hold the values of the
    constants among the operands, which a dynamic op's verifier reads: the same op with another shape constant
    is judged anew, in the same module or the next."""
    assert shardy_py.verify(shardy_py.parse(_dynamic_broadcast("[3, 4]"))) == []
    assert [d.message for d in shardy_py.verify(shardy_py.parse(_dynamic_broadcast("[-1, 4]")))] == [
        "output shape [-1, 4] is incompatible with return type of operation 'tensor<3x4xf32>'"]
    both = _dynamic_broadcast("[3, 4]").replace("return %1", "%2 = stablehlo.constant dense<[1, 4]> : tensor<2xi64>\n"
                                                 "  %3 = stablehlo.dynamic_broadcast_in_dim %arg0, %2, dims = [1] : "
                                                 "(tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>\n  return %1")
    assert [(d.line, d.message) for d in shardy_py.verify(shardy_py.parse(both))] == [
        (5, "output shape [1, 4] is incompatible with return type of operation 'tensor<3x4xf32>'")]
