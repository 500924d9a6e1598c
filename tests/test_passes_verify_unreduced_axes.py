"""``-sdy-verify-unreduced-axes`` on Shardy's own test file (transforms/export/test/
verify_unreduced_axes.mlir at the commit we follow), chunk by chunk: each ``expected-error`` must be
produced on its line, and the other chunks must pass.  Five chunks there are the op verifiers'
errors (rule C68, which the pass shares): the module is rejected when read, before the pass runs, with
the C++ message the annotation names.  jaxlib 0.12 (which has the pass) gives, on every chunk, the same
verdict, stage (reading or the pass), line and message as ours."""
from __future__ import annotations

import re

import pytest
from conftest import conformance_path
from jaxlib_worker import shared_worker

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.verify import verify
from shardy_py.verify.expected import check_expectations

CONFORMANCE = conformance_path()
FILE = CONFORMANCE / "transforms/export/test/verify_unreduced_axes.mlir" if CONFORMANCE else None
PIPELINE = "builtin.module(func.func(sdy-verify-unreduced-axes))"


def _chunks():
    if FILE is None:
        return [pytest.param("", 0, marks=pytest.mark.skip(reason="set SHARDY_CONFORMANCE to ../shared/conformance"))]
    return [pytest.param(text, offset, id=f"line{offset + 1}") for text, offset in split_chunks(FILE.read_text())]


def run_pass(text: str) -> list:
    module = shardy_py.parse(text)
    try:
        PassManager.parse(["-sdy-verify-unreduced-axes"]).run(module)
    except PassError as e:
        return e.diagnostics
    return []


def _verifier_errors(text: str) -> list:
    return [d for d in verify(shardy_py.parse(text)) if d.severity == "error"]


@pytest.mark.parametrize(("text", "offset"), _chunks())
def test_shardys_verify_unreduced_axes_chunks(text, offset):
    diagnostics = _verifier_errors(text) or run_pass(text)
    assert check_expectations(text, diagnostics) == []


def _ours(text: str):
    errors = _verifier_errors(text)
    if errors:
        return ("parse", errors[0].line, errors[0].message)
    diagnostics = run_pass(text)
    return ("pipeline", diagnostics[0].line, diagnostics[0].message) if diagnostics else "ok"


def _jaxlib(text: str):
    answer = shared_worker().call("module", text=text, pipeline=PIPELINE)
    if answer.get("ok"):
        return "ok"
    first = re.search(r'error: "-":(\d+):\d+: (.*)', answer.get("error", ""))
    assert first, answer
    return (answer["stage"], int(first.group(1)), first.group(2))


@pytest.mark.parametrize(("text", "offset"), _chunks())
def test_jaxlib_gives_the_same_verdict_line_and_message(text, offset):
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    assert _ours(text) == _jaxlib(text)


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
