"""Verifier rules C11-C13, C31-C41: constraint/reshard, data flow edges, barrier, constant."""
from __future__ import annotations

import pytest
from verify_helpers import diagnostics, errors

import shardy_py

HEAD = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'
MAX_A = '%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced=max{"a"}>}'


def fn(body: str, args: str = "%arg0: tensor<8xf32>", rt: str = "tensor<8xf32>", ret: str = "%0") -> str:
    return HEAD + f"func.func @f({args}) -> {rt} {{\n  {body}\n  return {ret} : {rt}\n}}"


def test_sharding_constraint_and_reshard():
    assert errors(fn('%0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>')) == []
    assert errors(fn('%0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8xf32>')) == [
        "3: 'sdy.reshard' op sharding has 2 dimension sharding(s) but the tensor 'tensor<8xf32>' has rank 1"]


def test_unreduced_transitions():
    assert errors(fn('%0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>', args=MAX_A)) == []  # dropping is fine
    # introducing max (or min) unreduced axes: accepted by jaxlib 0.12 (the test files' commit required sum,
    # ir/reshard_verification.mlir:49)
    assert errors(fn('%0 = sdy.reshard %arg0 <@mesh, [{}], unreduced=max{"a"}> : tensor<8xf32>',
                     args='%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}')) == []
    assert errors(fn('%0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"a"}> : tensor<8xf32>', args=MAX_A)) == [
        "3: 'sdy.reshard' op cannot change the reduction operator of kept unreduced axes from max to sum."]
    # The source sharding is found through propagation barriers.
    body = ('%b = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>\n'
            '  %0 = sdy.sharding_constraint %b <@mesh, [{}], unreduced={"a"}> : tensor<8xf32>')
    assert errors(fn(body, args=MAX_A)) == [
        "4: 'sdy.sharding_constraint' op cannot change the reduction operator of kept unreduced axes from max "
        "to sum."]


def test_propagation_barrier_and_constant():
    assert errors(fn("%0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>")) == []
    assert errors(fn("%0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>")) == [
        "3: 'sdy.propagation_barrier' op allowed_direction=BOTH blocks nothing, which makes the barrier useless; use "
        "NONE, FORWARD or BACKWARD"]
    assert errors(fn("%0 = sdy.constant dense<1.0> : tensor<8xf32>", args="")) == []
    with pytest.raises(shardy_py.ParseError, match="3:21: elements literal type must have static shape"):
        shardy_py.parse(fn("%0 = sdy.constant dense<1.0> : tensor<?xf32>", args="", rt="tensor<?xf32>"))


def test_data_flow_edge():
    assert errors(fn('%0 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>')) == []
    assert errors(fn("%0 = sdy.data_flow_edge %arg0 : tensor<8xf32>", ret="%arg0")) == [
        "3: 'sdy.data_flow_edge' op its input %arg0 must have exactly one user, the edge; it has 2"]
    [d] = diagnostics(fn("%c = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>\n"
                         "  %0 = sdy.data_flow_edge %c : tensor<8xf32>"))
    assert (d.line, d.message) == (4, "'sdy.data_flow_edge' op its input must not be produced by "
                                      "'sdy.sharding_constraint'; only sdy.named_computation/sdy.manual_computation "
                                      "or non-sdy ops may feed a data flow edge")
    assert [n[0] for n in d.notes] == [3]


def test_data_flow_edge_gives_the_sharding_of_its_input():
    text = HEAD + """func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  %2 = sdy.all_gather [{"a"}] %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}"""
    # %0 has two users now, so the edge is invalid, and %0 has no sharding of its own. The
    # collective's interface check (phase O) is found before the edge's symbol-use check (phase S).
    assert errors(text) == [
        "5: 'sdy.all_gather' op its operand has no sharding; this collective needs a sharded operand",
        "4: 'sdy.data_flow_edge' op its input %0 must have exactly one user, the edge; it has 2"]


def test_func_data_flow_edge():
    assert errors(fn("%0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>")) == []
    assert errors(fn("%c = stablehlo.abs %arg0 : tensor<8xf32>\n  %0 = sdy.func_data_flow_edge %c : tensor<8xf32>")) == [  # noqa: E501
        # the operand named as MLIR prints it (%c is %0 there)
        "4: 'sdy.func_data_flow_edge' op its operand %0 is produced by 'stablehlo.abs'; it must be a func.func argument "  # noqa: E501
        "or a func.call result"]
