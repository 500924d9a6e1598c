# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""The propagation pipeline on drawn modules (``strategies.propagation_module_texts()``) against
the C++ Shardy in jaxlib, in the default and the conservative mode (tests/propagation_pipelines.py),
byte-identical output; the drawn modules verify clean; and the differences the long run
(benchmarks/differential_propagation.py) found, pinned."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

import shardy_py
from shardy_py import strategies as sst
from shardy_py.verify import verify

try:  # (test_propagation_cpp skips itself without jax; imported here, not inside a @given run)
    from test_propagation_cpp import cpp_cannot_run
except pytest.skip.Exception:
    cpp_cannot_run = None

_FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(sst.propagation_module_texts())
def test_drawn_modules_verify_clean(text):
    assert [d for d in verify(shardy_py.parse(text)) if d.severity == "error"] == []


@pytest.mark.parametrize("mode", ["default", "conservative"])
@_FAST
@given(text=sst.propagation_module_texts())
def test_pipeline_matches_cpp_on_drawn_modules(mode, text):
    if cpp_cannot_run is None:
        pytest.skip("the oracle is the C++ Shardy in jaxlib")
    from cpp_oracle import cpp
    from propagation_pipelines import CPP_PIPELINES, FAILED, ours

    assume(cpp_cannot_run(shardy_py.parse(text)) is None)
    theirs = cpp(text, CPP_PIPELINES[mode])
    mine = ours(text, mode == "conservative", detail=True)
    if theirs == "<the pass failed>":
        assert mine.startswith(FAILED)
    else:
        assert mine == theirs


def test_expanded_pipeline_is_the_registered_one():
    """The spelt-out pipeline the conservative mode is run with is jaxlib's registered one."""
    pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib")
    from cpp_oracle import cpp
    from propagation_pipelines import CPP_PIPELINES

    assert cpp(REPEATED_OPERAND, CPP_PIPELINES["expanded"]) == cpp(REPEATED_OPERAND, CPP_PIPELINES["default"])


#: Two concatenates of one shape, the first of one value twice: the print template the first made
#: (operand 0 twice) was reused for the second, which printed ``%arg1, %arg1``.
REPEATED_OPERAND = """\
sdy.mesh @mesh = <["x"=8]>
func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>) -> (tensor<10xf32>, tensor<10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
  %1 = stablehlo.concatenate %arg1, %arg2, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
  return %0, %1 : tensor<10xf32>, tensor<10xf32>
}"""

#: jaxlib's output on ``REPEATED_OPERAND`` (both modes).
REPEATED_OPERAND_OUT = """\
module {
  sdy.mesh @mesh = <["x"=8]> {stablehlo.mesh = {axes = [{name = "x", size = 8 : i64}]}}
  func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>) -> (tensor<10xf32>, tensor<10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
    %1 = stablehlo.concatenate %arg1, %arg2, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
    return %0, %1 : tensor<10xf32>, tensor<10xf32>
  }
}
"""


@pytest.mark.parametrize("conservative", [False, True])
def test_print_template_of_an_op_with_a_repeated_operand(conservative):
    from propagation_pipelines import ours

    assert ours(REPEATED_OPERAND, conservative) == REPEATED_OPERAND_OUT


#: A tiled argument into an op on a single device (maximal mesh): resharded through replicated both
#: ways (Shardy 5716fd20's single-device reshards, which jaxlib 0.10.2 lacked and jaxlib 0.12 has:
#: ``SINGLE_DEVICE_OUT`` is what 0.12 prints); the function result takes no maximal sharding.
SINGLE_DEVICE = """\
sdy.mesh @mesh = <["z"=2]>
sdy.mesh @maximal_mesh = <[], device_ids=[0]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}"""

SINGLE_DEVICE_OUT = """\
module {
  sdy.mesh @mesh = <["z"=2]> {stablehlo.mesh = {axes = [{name = "z", size = 2 : i64}]}}
  sdy.mesh @maximal_mesh = <[], device_ids=[0]> {stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}}
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}, {}]>}) -> tensor<8x16xf32> {
    %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x16xf32>
    %1 = sdy.reshard %0 <@maximal_mesh, []> : tensor<8x16xf32>
    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8x16xf32>
    %3 = sdy.reshard %2 <@mesh, [{}, {}]> : tensor<8x16xf32>
    return %3 : tensor<8x16xf32>
  }
}
"""


@pytest.mark.parametrize("conservative", [False, True])
def test_single_device_reshards_as_jaxlib_012(conservative):
    from propagation_pipelines import expanded_pipeline, ours

    assert ours(SINGLE_DEVICE, conservative) == SINGLE_DEVICE_OUT
    if cpp_cannot_run is not None:
        from cpp_oracle import cpp

        assert cpp(SINGLE_DEVICE, expanded_pipeline(conservative)) == SINGLE_DEVICE_OUT


def test_single_device_function_argument_is_an_error_in_both():
    """A maximal sharding on a function argument: ``function argument 0 cannot have a single-device
    sharding attribute`` in jaxlib 0.12 (0.10.2 propagated it)."""
    from propagation_pipelines import FAILED, ours

    text = SINGLE_DEVICE.replace('<@mesh, [{"z"}, {}]>}', "<@maximal_mesh, []>}")
    mine = ours(text, False, detail=True)
    assert mine.startswith(FAILED) and "function argument 0 cannot have a single-device" in mine
    if cpp_cannot_run is not None:
        from cpp_oracle import cpp

        assert cpp(text, "builtin.module(sdy-propagation-pipeline)") == "<the pass failed>"


#: A sharding group of an argument that is open and unsharded but has a replicated axis, and a
#: constraint: ``isFullyReplicatedAndOpen`` (ir/attrs.td) looks at the dim shardings only, so the
#: argument's sharding takes no part in the group's common sharding and there is no conflict (ours
#: counted the replicated axis, saw a conflict and inserted open constraints: two more reshards).
GROUP_WITH_REPLICATED_AXIS = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}], replicated={"y"}>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""

#: jaxlib's output on ``GROUP_WITH_REPLICATED_AXIS`` (both modes).
GROUP_WITH_REPLICATED_AXIS_OUT = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %0 = sdy.reshard %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"""


@pytest.mark.parametrize("conservative", [False, True])
def test_sharding_group_member_open_with_replicated_axes_is_no_conflict(conservative):
    from propagation_pipelines import ours

    assert ours(GROUP_WITH_REPLICATED_AXIS, conservative) == GROUP_WITH_REPLICATED_AXIS_OUT
