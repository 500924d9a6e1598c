"""Propagation edges on ``sdy.data_flow_edge``: ``operand-N`` names the N-th data-flow source of the
edge's owner (jaxlib 0.12; ``SHARDY_COMMIT``'s verifier read the edge's own operand).

Evidence, from jaxlib 0.12.0.1: in a manual computation whose operands are sharded on ``@mesh`` and
``@m``, an edge on body argument 0 with ``"y" = operand-0 -> [result-0]`` (edge sharding on ``@m``) is
rejected with "expected a common mesh for propagation edges attr" exactly when operand 0 of the manual
computation is on ``@mesh``; the same edge on argument 1 follows operand 1.  On a while result it
follows the while's operand.  On a function argument (no sources) jaxlib's parser dies with SIGSEGV:
ours reports it.
"""
from __future__ import annotations

import pytest
from jaxlib_worker import shared_worker

import shardy_py
from shardy_py.verify import verify

EDGES = '{sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"AXIS" = operand-0 -> [result-0]}]}]>}'
MANUAL = '''sdy.mesh @mesh = <["x"=2]>
sdy.mesh @m = <["y"=2]>
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<S0, [{}]>]>} : tensor<4xf32>
  %1 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<S1, [{}]>]>} : tensor<4xf32>
  sdy.manual_computation(%0, %1) in_shardings=[<@m, [{}]>, <@m, [{}]>] out_shardings=[] manual_axes={}
      (%arg2: tensor<4xf32>, %arg3: tensor<4xf32>) {
    %2 = sdy.data_flow_edge ARG sharding=<@m, [{"y"}]> EDGES : tensor<4xf32>
    sdy.return
  } : (tensor<4xf32>, tensor<4xf32>) -> ()
  return %arg1 : tensor<f32>
}
'''.replace("EDGES", EDGES.replace("AXIS", "y"))
WHILE = '''sdy.mesh @mesh = <["x"=2]>
sdy.mesh @m = <["y"=2]>
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<4xf32>
  %1:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1) : tensor<4xf32>, tensor<i32>
    cond {
      %c = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.compare  LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_0 : tensor<4xf32>, tensor<i32>
    }
  %2 = sdy.data_flow_edge %1#0 sharding=<@m, [{"y"}]> EDGES : tensor<4xf32>
  return %2 : tensor<4xf32>
}
'''.replace("EDGES", EDGES.replace("AXIS", "y"))
FUNC_ARG = '''sdy.mesh @mesh = <["a"=4]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{"a"}]> EDGES : tensor<8xf32>
  return %0 : tensor<8xf32>
}
'''.replace("EDGES", EDGES.replace("AXIS", "a"))
NO_COMMON_MESH = "'sdy.data_flow_edge' op the values referenced by propagation edges do not share one mesh"


def _errors(text: str) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in verify(shardy_py.parse(text))]


@pytest.mark.parametrize(("arg", "s0", "s1", "rejected"), [
    ("%arg2", "@mesh", "@m", True), ("%arg2", "@m", "@mesh", False),
    ("%arg3", "@mesh", "@m", False), ("%arg3", "@m", "@mesh", True),
])
def test_body_argument_edge_operand_is_the_manual_computation_operand(arg, s0, s1, rejected):
    text = MANUAL.replace("ARG", arg).replace("S0", s0).replace("S1", s1)
    assert _errors(text) == ([(8, NO_COMMON_MESH)] if rejected else [])


def test_while_result_edge_operand_is_the_while_operand():
    assert _errors(WHILE) == [(13, NO_COMMON_MESH)]


def test_edge_on_a_function_argument_has_no_sources():
    assert _errors(FUNC_ARG) == [(3, "'sdy.data_flow_edge' op propagation edge refers to operand-0, but the edge's "
                                     "input is not a value of a data-flow op (a named/manual computation, while, case "
                                     "or optimization barrier), so it has no sources")]


def _jaxlib(text: str) -> dict:
    pytest.importorskip("jax", reason="the oracle is jaxlib 0.12 (pip install 'jax==0.12.0.1')")
    return shared_worker().call("module", text=text)


@pytest.mark.parametrize(("arg", "s0", "s1"), [("%arg2", "@mesh", "@m"), ("%arg2", "@m", "@mesh"),
                                               ("%arg3", "@mesh", "@m"), ("%arg3", "@m", "@mesh")])
def test_manual_computation_cases_agree_with_jaxlib(arg, s0, s1):
    text = MANUAL.replace("ARG", arg).replace("S0", s0).replace("S1", s1)
    answer = _jaxlib(text)
    assert answer["ok"] == (not _errors(text))
    if not answer["ok"]:
        assert '"-":8:' in answer["error"] and "expected a common mesh for propagation edges attr" in answer["error"]


def test_while_case_agrees_with_jaxlib():
    answer = _jaxlib(WHILE)
    assert not answer["ok"] and '"-":13:' in answer["error"]


def test_jaxlib_dies_on_an_edge_without_sources():
    assert _jaxlib(FUNC_ARG) == {"crashed": 11}
