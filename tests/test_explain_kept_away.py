# ruff: noqa: E501  (MLIR inputs and expected explanations are written one line per line, however long)
"""``shardy_py.explain``: the axes kept away from a value (by any op the value is a tensor of, and by
the ops along its axes' chains) with the reason read from the op's sharding rule, and chains followed
through the calls the pipeline rebuilds after propagation.  Every module is checked first: our
propagation pipeline's output is jaxlib's, and so are the debug attributes explain reads (the
user-priority propagation pass with ``debug-sharding-origins`` and ``debug-propagation-edge-sharding``).
"""
from __future__ import annotations

import warnings

import pytest
from cpp_oracle import cpp, ours

import shardy_py
from shardy_py.explanation import explain
from shardy_py.passes.propagation.propagation_pipeline import PipelineStepSkipped

DEBUG = "debug-sharding-origins=true debug-propagation-edge-sharding=true"

#: name -> module; each exercises one reason an axis is kept away, or a chain through a call.
MODULES = {
    "priority": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {?}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "conflict": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "closed": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %a : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
""",
    "constraint_closed": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @sharding_constraint_applied(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
    -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 :  tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> :  tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
""",
    "used": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "sub_axes": """sdy.mesh @mesh_a_6 = <["a"=6]>
func.func @sub_axes_cannot_coexist(%arg0: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh_a_6, [{"a":(1)2}, {}]>})
    -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh_a_6, [{}, {"a":(3)2}]>}) {
  %0 = stablehlo.sine %arg0 : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
""",
    "replicated": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @arg_lower_priority_than_return_value_with_replicated(
      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1, {"b"}p1]>},
      %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>)
      -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg2 : tensor<8x8xf32>
  %2 = stablehlo.divide %1, %arg3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}p0, {?}], replicated={"b"}>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
""",
    "manual": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @do_not_propagate_manual_axes_to_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={"b"} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.sine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
""",
    "divisibility": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<3x4xf32> {
  %0 = stablehlo.reshape %a : (tensor<12xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
""",
    "strided": """sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>
func.func @reshape_merge_dim_major_factor_partially_sharded(
    %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a"}, {"b"}]>}) -> tensor<16xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<4x4xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
""",
    "chain": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {?}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
""",
    "call": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %a : tensor<8x8xf32>
  %1 = call @f(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
func.func private @f(%b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.exponential %b : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "call_sideways": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {?}]>}, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @g(%a, %d) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
func.func private @g(%p: tensor<8x8xf32>, %q: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %p, %q : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
}


def _propagated(name: str) -> shardy_py.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PipelineStepSkipped)
        return shardy_py.propagate(shardy_py.parse(MODULES[name], f"{name}.mlir"), debug_sharding_origins=True,
                                   debug_propagation_edge_sharding=True)


@pytest.mark.parametrize("name", list(MODULES))
def test_propagation_is_jaxlibs(name):
    """The propagated module (shardings of every value) is jaxlib's sdy-propagation-pipeline output."""
    assert str(shardy_py.propagate(shardy_py.parse(MODULES[name]))) == cpp(
        MODULES[name], "builtin.module(sdy-propagation-pipeline)")


#: Modules whose debug attributes cannot be compared: jaxlib's user-priority pass with the debug
#: options crashes on the manual computation one, and writes an origin ": 0" (an empty name) for the
#: divide's own sdy.sharding, which ours leaves out (explain then reads that sharding as written).
DEBUG_DIFFERS = {"manual": "jaxlib crashes (segmentation fault) on it", "replicated": 'jaxlib writes c = ": 0"'}


@pytest.mark.parametrize("name", [n for n in MODULES if n not in DEBUG_DIFFERS])
def test_debug_attributes_are_jaxlibs(name):
    """The origins and edges explain reads are the ones jaxlib's propagation writes."""
    assert ours(MODULES[name], "sdy-user-priority-propagate=" + DEBUG) == cpp(
        MODULES[name], f"builtin.module(sdy-user-priority-propagate{{{DEBUG}}})")


@pytest.mark.parametrize("name", list(MODULES))
def test_debug_options_do_not_change_the_shardings(name):
    """The module explained (propagated with the debug options) has the shardings of the one checked
    against jaxlib."""
    from shardy_py.passes.shardings import get_sharding

    def shardings(module):
        return [str(get_sharding(r)) for op in module.walk() for r in op.results]

    assert shardings(_propagated(name)) == shardings(shardy_py.propagate(shardy_py.parse(MODULES[name])))


EXPLAINED = {
    ("priority", "%0"): """%0 (stablehlo.add) at priority.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{"y"}, {}]>
  dimension 0, axis "y": from argument 1 (%b) of @main, dimension 0, priority p0 at priority.mlir:2:92
      step 0: stablehlo.add at priority.mlir:3:3, operand 1 -> result 0 (from argument 1 (%b) of @main)
  dimension 1: not sharded
  kept away:
    axis "x" of operand 0 of stablehlo.add at priority.mlir:3:3 (argument 0 (%a) of @main), dimension 0 (its own sharding, priority p1), could shard dimension 0; kept away (conflict): this value has "y" there (from argument 1 (%b) of @main), and the op's tensors disagree on the factor, so the rule carries only their common prefix; priority decided: "y" has p0, propagated before "x" with p1 (a lower number goes first)
""",
    ("priority", "%a"): """argument 0 (%a) of @main at priority.mlir:2:17
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, priority p1 at priority.mlir:2:17
  dimension 1: not sharded
  kept away:
    axis "y" of operand 1 of stablehlo.add at priority.mlir:3:3 (argument 1 (%b) of @main), dimension 0 (its own sharding, priority p0), could shard dimension 0; kept away (conflict): this value's own user sharding has "x" there, and the op's tensors disagree on the factor, so the rule carries only their common prefix
    axis "y" of result 0 of stablehlo.add at priority.mlir:3:3 (%0 (stablehlo.add)), dimension 0 (from argument 1 (%b) of @main, dimension 0, priority p0 at priority.mlir:2:92), could shard dimension 0; kept away (conflict): this value's own user sharding has "x" there, and the op's tensors disagree on the factor, so the rule carries only their common prefix
""",
    ("conflict", "%0"): """%0 (stablehlo.add) at conflict.mlir:3:3
  sharding: none
  note: no axis shards this value (it has no sharding)
  kept away:
    axis "x" of operand 0 of stablehlo.add at conflict.mlir:3:3 (argument 0 (%a) of @main), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (conflict): operand 1 (argument 1 (%b) of @main) has "y" on the same factor (its dimension 0): the op's tensors disagree on it, so the rule carries only their common prefix (neither axis) to this value; neither has a priority (both count as p0), so priority did not decide: the propagation strategy's conflict resolution did
    axis "y" of operand 1 of stablehlo.add at conflict.mlir:3:3 (argument 1 (%b) of @main), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (conflict): operand 0 (argument 0 (%a) of @main) has "x" on the same factor (its dimension 0): the op's tensors disagree on it, so the rule carries only their common prefix (neither axis) to this value; neither has a priority (both count as p0), so priority did not decide: the propagation strategy's conflict resolution did
""",
    ("closed", "%a"): """argument 0 (%a) of @main at closed.mlir:2:17
  sharding: #sdy.sharding<@mesh, [{}, {"y"}]>
  dimension 0: not sharded
  dimension 1, axis "y": from the sharding constraint constraint_0, dimension 1, no priority (p0) at closed.mlir:4:3
      step 2: stablehlo.negate at closed.mlir:3:3, result 0 -> operand 0 (from %0 (stablehlo.negate))
      step 0: sdy.reshard at closed.mlir:4:3, result 0 -> operand 0 (from result 0 of sdy.reshard)
  kept away:
    axis "x" of result 0 of stablehlo.negate at closed.mlir:3:3 (%0 (stablehlo.negate)), dimension 0 (from the sharding constraint constraint_0, dimension 0, no priority (p0) at closed.mlir:4:3), could shard dimension 0; kept away (closed): dimension 0 of this value is closed in the sharding of argument 0 (%a) of @main as written (#sdy.sharding<@mesh, [{}, {?}]>), so propagation adds no axis to it
""",
    ("constraint_closed", "%0"): """%0 (stablehlo.add) at constraint_closed.mlir:4:3
  sharding: #sdy.sharding<@mesh, [{}, {}]>
  note: no axis shards this value
  dimension 0: not sharded
  dimension 1: not sharded
  kept away:
    axis "a" of operand 0 of stablehlo.add at constraint_closed.mlir:4:3 (argument 0 (%arg0) of @sharding_constraint_applied), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (closed): dimension 0 of this value is closed in the sharding constraint at line 5 on it, whose axes it has (#sdy.sharding<@mesh, [{}, {}]>), so propagation adds no axis to it
    axis "a" of operand 1 of stablehlo.add at constraint_closed.mlir:4:3 (argument 0 (%arg0) of @sharding_constraint_applied), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (closed): dimension 0 of this value is closed in the sharding constraint at line 5 on it, whose axes it has (#sdy.sharding<@mesh, [{}, {}]>), so propagation adds no axis to it
""",
    ("used", "%0"): """%0 (stablehlo.add) at used.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, no priority (p0) at used.mlir:2:17
      step 0: stablehlo.add at used.mlir:3:3, operand 0 -> result 0 (from argument 0 (%a) of @main)
  dimension 1: not sharded
  kept away:
    axis "x" of operand 1 of stablehlo.add at used.mlir:3:3 (argument 1 (%b) of @main), dimension 1 (its own sharding, no priority (p0)), could shard dimension 1; kept away (used): "x" already shards dimension 0 of this value, from argument 0 (%a) of @main; neither has a priority (both count as p0), so priority did not decide: the propagation strategy's conflict resolution did
""",
    ("used", "%b"): """argument 1 (%b) of @main at used.mlir:2:90
  sharding: #sdy.sharding<@mesh, [{}, {"x"}]>
  dimension 0: not sharded
  dimension 1, axis "x": from argument 1 (%b) of @main, dimension 1, no priority (p0) at used.mlir:2:90
  kept away:
    axis "x" of operand 0 of stablehlo.add at used.mlir:3:3 (argument 0 (%a) of @main), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (used): "x" already shards dimension 1 of this value, in its own user sharding
    axis "x" of result 0 of stablehlo.add at used.mlir:3:3 (%0 (stablehlo.add)), dimension 0 (from argument 0 (%a) of @main, dimension 0, no priority (p0) at used.mlir:2:17), could shard dimension 0; kept away (used): "x" already shards dimension 1 of this value, in its own user sharding
""",
    ("sub_axes", "%0"): """%0 (stablehlo.sine) at sub_axes.mlir:4:3
  sharding: #sdy.sharding<@mesh_a_6, [{}, {"a":(3)2}]>
  dimension 0: not sharded
  dimension 1, axis "a":(3)2: from result 0 of @sub_axes_cannot_coexist, dimension 1, no priority (p0) at sub_axes.mlir:5:3
      step 0: @sub_axes_cannot_coexist results at sub_axes.mlir:2:1, result 0 -> returned value 0 (from result 0 of @sub_axes_cannot_coexist)
  kept away:
    axis "a":(1)2 of operand 0 of stablehlo.sine at sub_axes.mlir:4:3 (argument 0 (%arg0) of @sub_axes_cannot_coexist), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (used): "a":(1)2 cannot be used with "a":(3)2, which shards dimension 1 of this value (sub-axes of one axis that do not combine)
""",
    ("replicated", "%2"): """%2 (stablehlo.divide) at replicated.mlir:8:3
  sharding: #sdy.sharding<@mesh, [{"c"}, {}]>
  note: no sdy.sharding_origins were recorded for this value
  dimension 0, axis "c": from the sdy.sharding of stablehlo.divide at line 8 as written, dimension 0, priority p0 at replicated.mlir:8:3
  dimension 1: not sharded
  kept away:
    axis "b" of operand 0 of stablehlo.divide at replicated.mlir:8:3 (%1 (stablehlo.add)), dimension 1 (from argument 0 (%arg0) of @arg_lower_priority_than_return_value_with_replicated, dimension 1, priority p1 at replicated.mlir:3:7), could shard dimension 1; kept away (replicated): "b" is one of the replicated axes of the sdy.sharding of stablehlo.divide at line 8 as written (#sdy.sharding<@mesh, [{"c"}p0, {?}], replicated={"b"}>)
""",
    ("manual", "%0"): """%0 (sdy.manual_computation) at manual.mlir:3:3
  sharding: #sdy.sharding<@mesh, [{"a"}]>
  note: no sdy.sharding_origins were recorded for this value
  dimension 0, axis "a": from the sdy.sharding of stablehlo.sine at line 7 as written, dimension 0, no priority (p0) at manual.mlir:7:3
      step 1: stablehlo.sine at manual.mlir:7:3, result 0 -> operand 0 (from %1 (stablehlo.sine))
  kept away:
    axis "b" of result 0 of stablehlo.sine at manual.mlir:7:3 (%1 (stablehlo.sine)), dimension 0 (from the sdy.sharding of stablehlo.sine at line 7 as written, dimension 0, no priority (p0) at manual.mlir:7:3), could shard dimension 0; kept away (manual): "b" is a manual axis of the manual computation (manual_axes={"b"}), which its out_shardings cannot take
""",
    ("divisibility", "%0"): """%0 (stablehlo.reshape) at divisibility.mlir:3:3
  sharding: none
  note: no axis shards this value (it has no sharding)
  kept away:
    axis "x" of operand 0 of stablehlo.reshape at divisibility.mlir:3:3 (argument 0 (%a) of @main), dimension 0 (its own sharding, no priority (p0)), could shard dimension 0; kept away (divisibility): in operand 0 "x" (size 2) overflows factor 0 of the rule (size 3, not divisible by it), and overflow axes are not propagated
""",
    ("strided", "%0"): """%0 (stablehlo.reshape) at strided.mlir:4:3
  sharding: #sdy.sharding<@mesh_a_2_b_2, [{"a"}]>
  dimension 0, axis "a": from argument 0 (%arg0) of @reshape_merge_dim_major_factor_partially_sharded, dimension 0, no priority (p0) at strided.mlir:3:5
      step 0: stablehlo.reshape at strided.mlir:4:3, operand 0 -> result 0 (from argument 0 (%arg0) of @reshape_merge_dim_major_factor_partially_sharded)
  kept away:
    axis "b" of operand 0 of stablehlo.reshape at strided.mlir:4:3 (argument 0 (%arg0) of @reshape_merge_dim_major_factor_partially_sharded), dimension 1 (its own sharding, no priority (p0)), could shard dimension 0; kept away (strided): dimension 0 of this value is factors 0, 1 of the rule, and factor 0 before factor 1 is sharded 2 ways of 4: the dimension can take axes of factor 1 only once the factors before it are fully sharded
""",
    ("chain", "%2"): """%2 (stablehlo.abs) at chain.mlir:5:3
  sharding: #sdy.sharding<@mesh, [{"y"}, {}]>
  dimension 0, axis "y": from argument 1 (%b) of @main, dimension 0, priority p0 at chain.mlir:2:92
      step 2: stablehlo.abs at chain.mlir:5:3, operand 0 -> result 0 (from %1 (stablehlo.negate))
      step 1: stablehlo.negate at chain.mlir:4:3, operand 0 -> result 0 (from %0 (stablehlo.add))
      step 0: stablehlo.add at chain.mlir:3:3, operand 1 -> result 0 (from argument 1 (%b) of @main)
  dimension 1: not sharded
  kept away:
    axis "x" of operand 0 of stablehlo.add at chain.mlir:3:3 (argument 0 (%a) of @main), dimension 0 (its own sharding, priority p1), could shard dimension 0 of %0 (stablehlo.add), on the chain of "y" at step 0; kept away (conflict): %0 (stablehlo.add) has "y" there (from argument 1 (%b) of @main), and the op's tensors disagree on the factor, so the rule carries only their common prefix; priority decided: "y" has p0, propagated before "x" with p1 (a lower number goes first)
""",
    ("call", "%2"): """%2 (stablehlo.negate) at call.mlir:5:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, no priority (p0) at call.mlir:2:17
      step 4: stablehlo.negate at call.mlir:5:3, operand 0 -> result 0 (from result 0 of func.call @f)
      through a call rebuilt after propagation (no steps recorded):
        func.call @f at call.mlir:4:3, result 0 of @f -> result 0 (from result 0 of @f)
        @f returns at call.mlir:10:3, operand 0 -> the function result (from %0 (stablehlo.exponential))
      step 2: stablehlo.exponential at call.mlir:9:3, operand 0 -> result 0 (from argument 0 (%b) of @f)
      through a call rebuilt after propagation (no steps recorded):
        func.call @f at call.mlir:4:3, operand 0 -> argument 0 of @f (from %0 (stablehlo.abs))
      step 0: stablehlo.abs at call.mlir:3:3, operand 0 -> result 0 (from argument 0 (%a) of @main)
  dimension 1: not sharded
""",
    ("call", "%1"): """result 0 of func.call @f at call.mlir:4:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  note: Shardy recorded no sdy.sharding_origins for this value (the pipeline rebuilt its call or callee from an sdy.named_computation after propagation): read from %0 (stablehlo.exponential)
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, no priority (p0) at call.mlir:2:17
      through a call rebuilt after propagation (no steps recorded):
        func.call @f at call.mlir:4:3, result 0 of @f -> result 0 (from result 0 of @f)
        @f returns at call.mlir:10:3, operand 0 -> the function result (from %0 (stablehlo.exponential))
      step 2: stablehlo.exponential at call.mlir:9:3, operand 0 -> result 0 (from argument 0 (%b) of @f)
      through a call rebuilt after propagation (no steps recorded):
        func.call @f at call.mlir:4:3, operand 0 -> argument 0 of @f (from %0 (stablehlo.abs))
      step 0: stablehlo.abs at call.mlir:3:3, operand 0 -> result 0 (from argument 0 (%a) of @main)
  dimension 1: not sharded
""",
    ("call", "@f:%b"): """argument 0 (%b) of @f at call.mlir:8:22
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  note: Shardy recorded no sdy.sharding_origins for this value (the pipeline rebuilt its call or callee from an sdy.named_computation after propagation): read from %0 (stablehlo.abs)
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, no priority (p0) at call.mlir:2:17
      through a call rebuilt after propagation (no steps recorded):
        func.call @f at call.mlir:4:3, operand 0 -> argument 0 of @f (from %0 (stablehlo.abs))
      step 0: stablehlo.abs at call.mlir:3:3, operand 0 -> result 0 (from argument 0 (%a) of @main)
  dimension 1: not sharded
""",
    ("call_sideways", "%d"): """argument 1 (%d) of @main at call_sideways.mlir:2:92
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, priority p0 at call_sideways.mlir:2:17
      through a call rebuilt after propagation (no steps recorded):
        func.call @g at call_sideways.mlir:3:3, argument 1 of @g -> operand 1 (from argument 1 (%q) of @g)
      step 1: stablehlo.add at call_sideways.mlir:8:3, operand 0 -> operand 1 (from argument 0 (%p) of @g)
      through a call rebuilt after propagation (no steps recorded):
        func.call @g at call_sideways.mlir:3:3, operand 0 -> argument 0 of @g (from argument 0 (%a) of @main)
  dimension 1: not sharded
""",
    ("call_sideways", "@g:%q"): """argument 1 (%q) of @g at call_sideways.mlir:7:43
  sharding: #sdy.sharding<@mesh, [{"x"}, {}]>
  note: Shardy recorded no sdy.sharding_origins for this value (the pipeline rebuilt its call or callee from an sdy.named_computation after propagation): read from argument 1 (%d) of @main
  dimension 0, axis "x": from argument 0 (%a) of @main, dimension 0, priority p0 at call_sideways.mlir:2:17
      step 1: stablehlo.add at call_sideways.mlir:8:3, operand 0 -> operand 1 (from argument 0 (%p) of @g)
      through a call rebuilt after propagation (no steps recorded):
        func.call @g at call_sideways.mlir:3:3, operand 0 -> argument 0 of @g (from argument 0 (%a) of @main)
  dimension 1: not sharded
""",
}


@pytest.mark.parametrize(("name", "value"), list(EXPLAINED), ids=[f"{n}-{v}" for n, v in EXPLAINED])
def test_explanation_text(name, value):
    assert str(explain(_propagated(name), value, source_name=f"{name}.mlir")) == EXPLAINED[(name, value)]


# -- the data behind the text ----------------------------------------------------------------------

@pytest.mark.parametrize(("name", "value", "kinds"), [
    ("priority", "%0", ["conflict"]),
    ("conflict", "%0", ["conflict", "conflict"]),
    ("closed", "%a", ["closed"]),
    ("used", "%0", ["used"]),
    ("divisibility", "%0", ["divisibility"]),
    ("constraint_closed", "%0", ["closed", "closed"]),
    ("sub_axes", "%0", ["used"]),
    ("replicated", "%2", ["replicated"]),
    ("manual", "%0", ["manual"]),
    ("strided", "%0", ["strided"]),
    ("chain", "%2", ["conflict"]),
    ("call", "%2", []),
])
def test_kept_away_kinds(name, value, kinds):
    assert [k.kind for k in explain(_propagated(name), value).kept_away] == kinds


def test_kept_away_on_the_chain_names_the_value_it_was_kept_from():
    """ "x" was kept from %0 (the add), where "y" started its chain to %2."""
    (kept,) = explain(_propagated("chain"), "%2").kept_away
    assert (kept.op, kept.role, kept.via) == ("stablehlo.add", "operand 0",
                                              '%0 (stablehlo.add), on the chain of "y" at step 0')
    assert (kept.priority, kept.origin.description) == (1, "argument 0 (%a) of @main")


def test_call_hops_have_no_step_and_the_recorded_ones_decrease():
    story, = explain(_propagated("call"), "%2").stories
    assert [h.step for h in story.hops] == [4, None, None, 2, None, 0]
    assert story.origin.description == "argument 0 (%a) of @main"


def test_a_call_result_whose_name_the_pipeline_lost_is_found_by_its_location():
    """The rebuilt call's result has lost its name ``%1``; it is found through the module before
    propagation (remembered by ``propagate``) by its op's name and location."""
    from shardy_py.explanation import ExplainError, find_value

    module = _propagated("call")
    with pytest.raises(ExplainError, match="no value %1 in @main, @f"):
        find_value(module, "%1")
    call = next(op for op in module.walk() if op.name == "func.call")
    assert explain(module, "%1").label == "result 0 of func.call @f"
    assert find_value(module, "%1", shardy_py.parse(MODULES["call"], "call.mlir")).value is call.results[0]


def test_html_lists_the_kept_away_axes_with_their_reason():
    page = explain(_propagated("closed"), "%a")._repr_html_()
    assert "<p>Kept away:</p><ul><li>axis &quot;x&quot; of result 0 of stablehlo.negate" in page
    assert "kept away (closed): dimension 0 of this value is closed" in page


def test_a_constraint_the_pipeline_made_a_reshard_is_found_by_its_location():
    module = _propagated("closed")
    reshard = next(op for op in module.walk() if op.name == "sdy.reshard")
    assert explain(module, "%1").label == "result 0 of sdy.reshard"
    assert explain(module, "%1").sharding == reshard.properties["sharding"]


@pytest.mark.parametrize(("path", "value", "whole", "extra"), [
    ("examples/reshape_constraint.mlir", "%0", True, ["--width", "100"]),
    ("examples/mlp.mlir", "@relu:%arg0", False, [])])
def test_the_readme_shows_what_the_command_prints(path, value, whole, extra, capsys, monkeypatch):
    """The README's propagate/explain section quotes these commands' output (the call chain's first
    axis only)."""
    from pathlib import Path

    from shardy_py.cli import main

    root = Path(__file__).parent.parent
    monkeypatch.chdir(root)  # the path as the README writes it (wrapping counts its characters)
    assert main(["propagate", path, "--explain", value, *extra]) == 0
    out = capsys.readouterr().out.replace(str(root) + "/", "")
    lines = out.splitlines()
    cut = len(lines) if whole else next(i for i, line in enumerate(lines) if line.startswith("  dimension 1"))
    assert "\n".join(lines[:cut]) in (root / "README.md").read_text()


# -- short origin lists of data-flow ops -----------------------------------------------------------

WHILE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x8xf32>
  cond {
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.sine %iterArg_0 : tensor<8x8xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<8x8xf32>
  }
  %3 = stablehlo.negate %0#1 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
"""


def test_while_module_is_jaxlibs():
    """The pipeline's output, and the origins the data-flow edges sink onto the while, are jaxlib's.
    jaxlib 0.12 writes one entry per result, ``{}`` for the counter that has no axes (0.10.2 wrote one
    entry for the two results); with no sharding at all 0.12 writes ``sdy.result_sharding_origins =
    [{}, {}]``."""
    from shardy_py.passes.manager import PassManager

    assert str(shardy_py.propagate(shardy_py.parse(WHILE))) == cpp(WHILE, "builtin.module(sdy-propagation-pipeline)")
    module = shardy_py.parse(WHILE)
    PassManager.parse(["-sdy-add-data-flow-edges", "-sdy-user-priority-propagate=debug-sharding-origins=true",
                       "-sdy-sink-data-flow-edges=sink-debug-sharding-origins=true"]).run(module)
    assert str(module) == cpp(WHILE, "builtin.module(sdy-add-data-flow-edges,sdy-user-priority-propagate"
                                     "{debug-sharding-origins=true},func.func(sdy-sink-data-flow-edges"
                                     "{sink-debug-sharding-origins=true}))")
    assert 'sdy.result_sharding_origins = [{}, {x = "input: 0", y = "input: 0"}]' in str(module)


def test_a_short_origin_list_is_matched_to_the_sharded_results():
    """The while's one origins entry is its sharded result's (entries and sharded results agree one
    to one); the counter, without axes, has none."""
    module = shardy_py.propagate(shardy_py.parse(WHILE, "while.mlir"), debug_sharding_origins=True)
    assert str(explain(module, "%0#1", source_name="while.mlir")) == """%0#1 (stablehlo.while) at while.mlir:4:3
  sharding: #sdy.sharding<@mesh, [{"x"}, {"y"}]>
  dimension 0, axis "x": from argument 0 (%arg0) of @main, dimension 0, no priority (p0) at while.mlir:2:17
  dimension 1, axis "y": from argument 0 (%arg0) of @main, dimension 1, no priority (p0) at while.mlir:2:17
"""
    assert str(explain(module, "%0#0")).splitlines()[2] == "  note: no axis shards this value"


@pytest.mark.parametrize(("first", "second", "verdict"), [
    (None, None, "; neither has a priority (both count as p0), so priority did not decide: the propagation "
                 "strategy's conflict resolution did"),
    (0, None, '; both count as p0 ("x" has p0, "y" no priority, which is p0), so priority did not decide: the '
              "propagation strategy's conflict resolution did"),
    (None, 0, '; both count as p0 ("y" has p0, "x" no priority, which is p0), so priority did not decide: the '
              "propagation strategy's conflict resolution did"),
    (2, 2, "; both have p2, so priority did not decide: the propagation strategy's conflict resolution did"),
    (1, None, '; priority decided: "y" has no priority (p0), propagated before "x" with p1 (a lower number goes '
              "first)"),
    (0, 3, '; priority decided: "x" has p0, propagated before "y" with p3 (a lower number goes first)'),
])
def test_priority_verdict_in_plain_words(first, second, verdict):
    from shardy_py.explanation.kept_away import priority_verdict

    assert priority_verdict('"x"', first, '"y"', second) == verdict


def test_text_wraps_every_line_at_the_width_with_indented_continuations():
    text = explain(_propagated("used"), "%a").text(width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert " ".join(text.split()) == " ".join(str(explain(_propagated("used"), "%a")).split())
    lines = text.splitlines()
    wrapped = [k for k in range(1, len(lines)) if len(lines[k - 1]) > 60 and lines[k].startswith("        ")]
    assert wrapped, text


def test_hops_through_a_rebuilt_call_are_summarised_once():
    text = str(explain(_propagated("call"), "%2"))
    assert text.count("through a call rebuilt after propagation (no steps recorded):") <= text.count("dimension")
    assert "no step (a call rebuilt" not in text


FINAL_CONFLICT = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""  # noqa: E501


def test_a_final_result_is_explained_where_its_chain_leads():
    """Issue 21: asked about the function's result, the conflict two ops back is the reason (not a bare
    'not sharded'); the search stops at the op that decided it."""
    from shardy_py.explanation.origins import axis_text

    module = shardy_py.propagate(shardy_py.parse(FINAL_CONFLICT, "final.mlir"))
    e = explain(module, "result 0", source_name="final.mlir")
    assert [(k.kind, axis_text(k.axis), k.via) for k in e.kept_away] == [
        ("conflict", '"x"', "%0 (stablehlo.add), where the chain of the result leads"),
        ("conflict", '"y"', "%0 (stablehlo.add), where the chain of the result leads")]
    assert str(e).splitlines()[4].endswith(
        "neither has a priority (both count as p0), so priority did not decide: the propagation strategy's "
        "conflict resolution did")
