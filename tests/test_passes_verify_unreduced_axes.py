"""``-sdy-verify-unreduced-axes``: jaxlib 0.10.2 predates the pass, so its oracle is Shardy's own
test file (transforms/export/test/verify_unreduced_axes.mlir at the commit we follow), chunk by
chunk: each ``expected-error`` must be produced on its line, and the other chunks must pass.
Four chunks there are verifier errors the pass only re-checks (the manifest marks them
``invalid``): the module is rejected when read, before the pass runs, so they are left out."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.verify import verify
from shardy_py.verify.expected import check_expectations

FILE = Path("/work/shared/conformance/transforms/export/test/verify_unreduced_axes.mlir")


def _chunks():
    if not FILE.exists():
        return []
    return [pytest.param(text, offset, id=f"line{offset + 1}") for text, offset in split_chunks(FILE.read_text())]


def run_pass(text: str) -> list:
    module = shardy_py.parse(text)
    try:
        PassManager.parse(["-sdy-verify-unreduced-axes"]).run(module)
    except PassError as e:
        return e.diagnostics
    return []


@pytest.mark.parametrize(("text", "offset"), _chunks())
def test_shardys_verify_unreduced_axes_chunks(text, offset):
    if [d for d in verify(shardy_py.parse(text)) if d.severity == "error"]:
        pytest.skip("a verifier error: the chunk is rejected when read, before the pass")
    assert check_expectations(text, run_pass(text)) == []


MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'


def test_a_reshard_may_drop_unreduced_axes_an_add_may_not():
    ok = MESH + """func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"y"}>})
    -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}"""
    assert run_pass(ok) == []
    bad = ok.replace("%1 = stablehlo.add %0, %0", "%1 = stablehlo.add %arg0, %arg0")
    (diag,) = run_pass(bad)
    assert diag.line == 5  # the add (the signature takes lines 2-3)
    assert diag.message == ("'stablehlo.add' op dropped unreduced axis 'y' without a blessed operation "
                            "(e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.")


def test_a_propagation_barrier_is_looked_through():
    text = MESH + """func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=NONE : tensor<8xf32>
  return %1 : tensor<8xf32>
}"""
    assert run_pass(text) == []


def test_the_reduce_body_decides_what_it_may_add():
    text = MESH + """func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.minimum across dimensions = [0]
    {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=min{"x"}>]>}
    : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}"""
    assert run_pass(text) == []
    (diag,) = run_pass(text.replace("stablehlo.minimum", "stablehlo.maximum"))
    assert diag.message == "'stablehlo.reduce' op cannot introduce 'min' unreduced axes. Expected 'max'."
