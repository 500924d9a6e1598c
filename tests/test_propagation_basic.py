# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""-sdy-basic-propagate and its driver, as a spec: exact outputs for the behaviours of the C++
(each expected text below is also what jaxlib's Shardy prints for the same input — checked in
``test_expected_outputs_are_jaxlibs``), the errors for what the pass cannot run on, the order in
which MLIR's greedy driver visits ops, and the case where Shardy HEAD (newer than jaxlib 0.10.2)
decides the expected text."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import shardy_py
from shardy_py.ir.ops import Operation
from shardy_py.passes.greedy_rewrite import GreedyRewriter, Worklist
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.rules.sharding_rule import reset_warnings


def run(text: str, *flags: str) -> tuple[str, list[str]]:
    """Our output of ``flags`` on ``text`` and the messages of the diagnostics emitted."""
    module = shardy_py.parse(text)
    ctx = PassManager.parse(list(flags)).run(module)
    return str(module), [f"{d.severity}: {d.message}" for d in ctx.diagnostics]


def failure(text: str, *flags: str) -> list[str]:
    """The diagnostics of a run that must fail."""
    module = shardy_py.parse(text)
    with pytest.raises(PassError) as info:
        PassManager.parse(list(flags)).run(module)
    return [f"{d.severity}: {d.message}" for d in info.value.diagnostics]


#: Ops nothing uses (and without effects) are erased by the rewrite driver as it meets them.
DEAD = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  %2 = stablehlo.sine %arg0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
"""
DEAD_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
    %0 = stablehlo.sine %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
"""


#: Group members with different shardings: each gets an open sharding constraint that becomes the member
#: (block arguments: inserted at the block start, so the later member's constraint comes first).
GROUP_CONFLICT = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
GROUP_CONFLICT_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {
    %0 = sdy.sharding_constraint %arg1 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
    sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    %2 = stablehlo.add %1, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
"""


#: Members of a group start with the group's common sharding and receive every update one of them gets.
GROUP_SYNC = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg1 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""
GROUP_SYNC_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
    %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {?}]>]>} : tensor<8x8xf32>
    sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""


#: An op with no sharding rule passes nothing on (the registry warns once per process).
UNKNOWN_OP = """\
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = "foo.bar"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""
UNKNOWN_OP_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
    %0 = "foo.bar"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
"""


#: A propagation barrier lets shardings through only in its allowed direction.
BARRIER = """\
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = sdy.propagation_barrier %arg1 allowed_direction=BACKWARD : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
"""
BARRIER_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> (tensor<8xf32>, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
    %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    %2 = sdy.propagation_barrier %arg1 allowed_direction=BACKWARD {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
    return %1, %2 : tensor<8xf32>, tensor<8xf32>
  }
}
"""


#: keep-sharding-rules keeps the rules the run attached; a custom rule is used and always kept.
KEEP_RULES = """\
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<4x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}, custom>} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""
KEEP_RULES_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])->([i, j]) {i=4, j=8}>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}, custom>} : tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
"""


#: Through a while's data-flow edge into its body and out to the function result; the token-like scalar
#: edge stays unsharded.
WHILE_EDGES = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<i32>) -> tensor<8x4xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x4xf32>, tensor<i32>
   cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<8x4xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x4xf32>
}
"""
WHILE_EDGES_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<i32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x4xf32>, tensor<i32>
    cond {
      %3 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = stablehlo.negate %iterArg {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x4xf32>
      stablehlo.return %3, %iterArg_0 : tensor<8x4xf32>, tensor<i32>
    }
    %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x4xf32>
    %2 = sdy.data_flow_edge %0#1 : tensor<i32>
    return %1 : tensor<8x4xf32>
  }
}
"""


#: The edge result's users, moved to it by ``replaceAllUsesExcept``, sit in its use list in program order
#: (MLIR's moves reverse them); when the constraint shards the edge, transpose and negate are
#: notified in that order, so negate (pushed last) is revisited first and add follows it.
USE_ORDER = """\
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %v = stablehlo.optimization_barrier %arg0 : tensor<8x8xf32>
  %a = stablehlo.transpose %v, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = stablehlo.negate %v : tensor<8x8xf32>
  %c = stablehlo.add %a, %b : tensor<8x8xf32>
  %d = sdy.sharding_constraint %v <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %c, %d : tensor<8x8xf32>, tensor<8x8xf32>
}
"""
USE_ORDER_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
    %0 = stablehlo.optimization_barrier %arg0 : tensor<8x8xf32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
    %4 = stablehlo.add %2, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
    %5 = sdy.sharding_constraint %1 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
    return %4, %5 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
"""


#: %arg0 is used by the while and, inside its body, by the transpose: MLIR's parser creates an op after
#: the ops of its regions, so the while's use is the newer one.  When the constraint shards %arg0 the
#: users are notified newest first: the while's edge, then the transpose, which is revisited first and
#: whose (transposed) sharding reaches the body's add before the edge's can.
CAPTURED_USE = """\
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
   cond {
    %1 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %iterArg, %1 : tensor<8x8xf32>
    stablehlo.return %2, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }
  %d = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0#0, %d : tensor<8x8xf32>, tensor<8x8xf32>
}
"""
CAPTURED_USE_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<i32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
      %4 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.transpose %arg0, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %5 = stablehlo.add %iterArg, %4 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
      stablehlo.return %5, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
    }
    %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{?}, {"a", ?}]> : tensor<8x8xf32>
    %2 = sdy.data_flow_edge %0#1 : tensor<i32>
    %3 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
    return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
"""


CASES = {
    "dead": (DEAD, ["-sdy-basic-propagate"], DEAD_OUT),
    "group_conflict": (GROUP_CONFLICT, ["-sdy-basic-propagate"], GROUP_CONFLICT_OUT),
    "group_sync": (GROUP_SYNC, ["-sdy-basic-propagate"], GROUP_SYNC_OUT),
    "unknown_op": (UNKNOWN_OP, ["-sdy-basic-propagate"], UNKNOWN_OP_OUT),
    "barrier": (BARRIER, ["-sdy-basic-propagate"], BARRIER_OUT),
    "keep_rules": (KEEP_RULES, ["-sdy-basic-propagate=keep-sharding-rules=true"], KEEP_RULES_OUT),
    "while_edges": (WHILE_EDGES, ["-sdy-add-data-flow-edges", "-sdy-basic-propagate"], WHILE_EDGES_OUT),
    "use_order": (USE_ORDER, ["-sdy-add-data-flow-edges", "-sdy-basic-propagate"], USE_ORDER_OUT),
    "captured_use": (CAPTURED_USE, ["-sdy-add-data-flow-edges", "-sdy-basic-propagate"], CAPTURED_USE_OUT),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_expected_output(case):
    text, flags, expected = CASES[case]
    assert run(text, *flags)[0] == expected


def test_expected_outputs_are_jaxlibs():
    pytest.importorskip("jax")
    from test_propagation_cpp import cpp

    pipelines = {"-sdy-basic-propagate": "sdy-basic-propagate",
                 "-sdy-basic-propagate=keep-sharding-rules=true": "sdy-basic-propagate{keep-sharding-rules=true}",
                 "-sdy-add-data-flow-edges": "sdy-add-data-flow-edges"}
    for case, (text, flags, expected) in CASES.items():
        assert cpp(text, ",".join(pipelines[f] for f in flags)) == expected, case


def test_without_keep_sharding_rules_only_the_custom_rule_stays():
    out, _ = run(KEEP_RULES, "-sdy-basic-propagate")
    assert "sdy.sharding_rule = #sdy.op_sharding_rule<([j, i])" not in out
    assert "sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}, custom>" in out


def test_group_conflict_warns():
    _, diagnostics = run(GROUP_CONFLICT, "-sdy-basic-propagate")
    assert diagnostics == [
        "warning: The initial operand shardings on the sharding groups of groupID: 0 do not match. Inserting an "
        "open sharding constraint to all constrained values. This can be caused when shardings from different "
        "values are grouped (e.g. from jax.shard_alike) but have separate inconsistent sharding constraints on "
        "them."]


def test_unknown_op_warns_once_per_process():
    reset_warnings()
    assert run(UNKNOWN_OP, "-sdy-basic-propagate")[1] == [
        "warning: op 'foo.bar' is unknown to SDY sharding rule registry"]
    assert run(UNKNOWN_OP, "-sdy-basic-propagate")[1] == []


# -- what the pass refuses ------------------------------------------------------------------------

MESH = 'sdy.mesh @mesh = <["a"=2]>\n'


def test_dynamic_shapes_are_rejected():
    text = MESH + """func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.negate %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
}"""
    assert failure(text, "-sdy-basic-propagate") == [
        "error: Shardy propagation only supports ranked tensors with a static shape. type: tensor<?xf32>"]


def test_tuples_are_rejected():
    text = MESH + """func.func @main(%arg0: tensor<2xf32>) -> tuple<tensor<2xf32>> {
  %0 = stablehlo.tuple %arg0 : tuple<tensor<2xf32>>
  return %0 : tuple<tensor<2xf32>>
}"""
    assert failure(text, "-sdy-basic-propagate") == [
        "error: Shardy propagation doesn't support tuples: tuple<tensor<2xf32>>"]


def test_inline_meshes_are_rejected():
    text = """func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    assert failure(text, "-sdy-basic-propagate") == [
        "error: Shardy propagation needs shardings that name their mesh; found an inline mesh "
        "(run -sdy-lift-inlined-meshes first)"]


def test_an_edge_of_a_value_that_owns_no_edge_is_rejected():
    text = MESH + """func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.data_flow_edge %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    assert failure(text, "-sdy-basic-propagate") == [
        "error: the input of an sdy.data_flow_edge (%arg0) is not an edge owner of a data-flow op "
        "(the C++ would crash)"]


def test_a_call_edge_into_a_function_without_body_is_rejected():
    text = MESH + """func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @ext(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @ext(tensor<8xf32>) -> tensor<8xf32>"""
    assert failure(text, "-sdy-basic-propagate") == [
        "error: a call result's sdy.func_data_flow_edge calls @ext, which has no body (the C++ checks this fatally)"]


#: @bar returns its argument; @foo returns @bar's result, which main passes to @bar again: when a
#: sharding inside @foo changes, the users of @bar's argument lead back to @bar's argument.
CALL_CYCLE = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x2xi32>
  %1 = call @foo(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = call @bar(%1) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %2 : tensor<8x2xi32>
}
func.func private @foo(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.abs %arg0 : tensor<8x2xi32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"b"}, {}]> : tensor<8x2xi32>
  %2 = stablehlo.abs %1 : tensor<8x2xi32>
  %3 = call @bar(%2) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %3 : tensor<8x2xi32>
}
func.func private @bar(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}"""


def test_notifications_going_round_the_call_graph_are_an_error():
    """The C++ recurses forever here (jaxlib 0.10.2 segfaults); with function data-flow edges the
    same module propagates."""
    assert failure(CALL_CYCLE, "-sdy-basic-propagate") == [
        "error: notifying the users of a changed sharding would go round the call graph forever (the C++ "
        "overflows its stack): a function's returned value reaches a call of the same function through its "
        "callers; add function data-flow edges first (-sdy-add-func-data-flow-edges)"]
    out, _ = run(CALL_CYCLE, "-sdy-add-func-data-flow-edges", "-sdy-basic-propagate", "-sdy-sink-func-data-flow-edges")
    assert 'sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>' in out


def test_a_long_call_chain_needs_no_deep_recursion():
    """When the constraint shards %arg0, the notifications follow it into @f1499, down the chain of
    1500 calls and back out to main's negate (deeper than Python's recursion limit); nothing
    crosses the calls themselves without function data-flow edges."""
    funcs = ["func.func private @f0(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}"]
    for i in range(1, 1500):
        funcs.append(f"func.func private @f{i}(%arg0: tensor<8xf32>) -> tensor<8xf32> {{\n"
                     f"  %0 = call @f{i - 1}(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
                     "  return %0 : tensor<8xf32>\n}")
    text = MESH + """func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = call @f1499(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.negate %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
""" + "\n".join(funcs)
    out, _ = run(text, "-sdy-basic-propagate")
    assert 'func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})' in out
    assert "%2 = stablehlo.negate %1 : tensor<8xf32>" in out


def test_unknown_strategy_is_rejected():
    with pytest.raises(ValueError, match="takes one of basic, aggressive, basic-then-aggressive, not 'wild'"):
        PassManager.parse(["-sdy-aggressive-propagate=propagation-strategy=wild"])


# -- the greedy driver's order ----------------------------------------------------------------------

DRIVER = """func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4xf32>, tensor<i32>
   cond {
    %2 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %2 = stablehlo.negate %iterArg : tensor<4xf32>
    stablehlo.return %2, %iterArg_0 : tensor<4xf32>, tensor<i32>
  }
  %1 = stablehlo.abs %0#0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}"""


def _names(module) -> dict[int, str]:
    names = {}
    for op in module.walk():
        if op.name != "builtin.module":
            names[id(op)] = op.name.split(".")[-1] + (op.results[0].name if op.results else "")
    return names


def test_driver_visits_in_pre_order_and_revisits_a_modified_op_and_its_ancestors_next():
    module = shardy_py.parse(DRIVER)
    names = _names(module)
    seen: list[str] = []
    poked = []

    def pattern(op: Operation, rewriter: GreedyRewriter) -> bool:
        seen.append(names[id(op)])
        if op.name == "stablehlo.abs" and not poked:
            poked.append(op)
            negate = next(o for o in module.walk() if o.name == "stablehlo.negate")
            rewriter.modify_op_in_place(negate)  # negate, then while, then func are pushed
        return False

    GreedyRewriter(module.op.regions[0], lambda op: [pattern]).run()
    assert seen == ["func", "while%0#0", "compare%2", "return", "negate%2", "return", "abs%1",
                    "func", "while%0#0", "negate%2", "return"]


def test_driver_erases_dead_ops_and_revisits_their_operands_defining_ops():
    module = shardy_py.parse("""func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.sine %arg0 : tensor<4xf32>
  return %2 : tensor<4xf32>
}""")
    names = _names(module)
    seen: list[str] = []
    GreedyRewriter(module.op.regions[0], lambda op: [lambda o, r: seen.append(names[id(o)]) or False]).run()
    # negate%0 is visited while abs%1 still uses it; abs%1 is dead and erased, which pushes negate%0
    # (now dead) and its ancestor func on top: func is visited again, then negate%0 is erased, then sine%2.
    assert seen == ["func", "negate%0", "func", "sine%2", "return"]
    assert [op.name for op in module.walk()] == ["builtin.module", "func.func", "stablehlo.sine", "func.return"]


def test_worklist_keeps_an_op_where_it_waits_and_skips_removed_ones():
    a, b, c = (Operation(n) for n in "abc")
    worklist = Worklist()
    for op in (a, b, c):
        worklist.push(op)
    worklist.push(a)  # already waiting: stays at the bottom
    worklist.remove(c)
    assert [worklist.pop().name, worklist.pop().name] == ["b", "a"]
    assert not worklist


# -- Shardy HEAD over jaxlib 0.10.2 -------------------------------------------------------------------

USER_PRIORITY = Path("/work/shared/conformance/transforms/propagation/test/user_priority_propagation.mlir")

#: user_priority_propagation.mlir's ``@unreduced_custom_reduction_op`` (``unreduced=max{"c"}``, a
#: reduction kind jaxlib 0.10.2 cannot read; Shardy be7f7505 keeps it through propagation): the input
#: and the output that meets the file's CHECK lines.
UNREDUCED_MAX = """\
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @unreduced_custom_reduction_op(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p0, {"b", ?}p0]>})
    -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}p0, {?}], unreduced=max{"c"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}"""
UNREDUCED_MAX_OUT = """\
module {
  sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
  func.func @unreduced_custom_reduction_op(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}], unreduced=max{"c"}>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""


def test_user_priority_keeps_a_max_unreduced_reduction_as_shardy_head():
    assert run(UNREDUCED_MAX, "-sdy-user-priority-propagate")[0] == UNREDUCED_MAX_OUT


def test_unreduced_max_output_meets_the_head_test_file_check_lines(tmp_path):
    filecheck = shutil.which("FileCheck") or "/usr/lib/llvm-14/bin/FileCheck"
    if not Path(filecheck).exists() or not USER_PRIORITY.exists():
        pytest.skip("needs LLVM FileCheck and Shardy's user_priority_propagation.mlir")
    from shardy_py.cli import split_chunks

    chunk = next(text for text, _ in split_chunks(USER_PRIORITY.read_text()) if "unreduced_custom_reduction_op" in text)
    checks = tmp_path / "checks.mlir"
    checks.write_text(chunk)
    result = subprocess.run([filecheck, str(checks)], input=UNREDUCED_MAX_OUT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- module-dump-directory --------------------------------------------------------------------------

PRIORITIES = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}p2]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""


def test_user_priority_saves_the_module_after_each_priority_but_the_last(tmp_path):
    module = shardy_py.parse(PRIORITIES)
    PassManager.parse([f"-sdy-user-priority-propagate=module-dump-directory={tmp_path}"]).run(module)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "00.propagation_after_user_priority_0.mlir", "00.propagation_after_user_priority_1.mlir"]
    pytest.importorskip("jax")
    from test_propagation_cpp import cpp

    theirs = tmp_path / "cpp"
    theirs.mkdir()
    cpp(PRIORITIES, f"sdy-user-priority-propagate{{module-dump-directory={theirs}}}")
    for p in sorted(theirs.iterdir()):
        assert (tmp_path / p.name).read_text() == p.read_text(), p.name


@pytest.mark.parametrize("pass_name", ["sdy-basic-propagate", "sdy-aggressive-propagate", "sdy-op-priority-propagate"])
def test_other_propagation_passes_write_no_module_dumps(tmp_path, pass_name):
    module = shardy_py.parse(PRIORITIES)
    PassManager.parse([f"-{pass_name}=module-dump-directory={tmp_path}"]).run(module)
    assert list(tmp_path.iterdir()) == []
