# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""Pass behaviours and options of jaxlib 0.12's Shardy that the test files at ``SHARDY_COMMIT``
predate, each pinned with what 0.12 prints (the expected texts below) and, where jax is
installed, compared with jaxlib's own pass on the same input:

* ``sdy-propagate-to-func-results``: the main function's results without a sharding take the
  returned value's (maximal shardings never copied, in any function);
* ``sdy-insert-func-call-reshards``: no reshard for a call result with unreduced axes on either side;
* ``sdy-drop-sharding-and-mesh``: a mesh still referenced is kept; ``keep-module-sharding-metadata``;
* ``sdy-insert-explicit-reshards`` / ``sdy-export-pipeline``: ``mark-partial-result-with-unreduced-axes``;
* ``sdy-lift-inlined-meshes``: ``use-single-device-mesh-names``;
* ``sdy-apply-sharding-constraints``: a fully open input sharding (``[{?}]``) counts as none;
* ``symbol-dce``: every symbol reference is a use (a ``stablehlo.composite``'s decomposition kept).
"""
from __future__ import annotations

import pytest
from cpp_oracle import ours

MAIN_RESULTS = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh = <[], device_ids=[0]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>} : tensor<8xf32>
  %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8xf32>
  return %arg0, %arg1, %0, %arg2, %1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8xf32>
  return %arg0, %0 : tensor<8xf32>, tensor<8xf32>
}
"""

#: jaxlib 0.12: results 0 and 1 keep their shardings, 2 and 3 take the returned values' (open as it
#: is), 4 takes no maximal sharding; @g is set from its return (the maximal one removed).
MAIN_RESULTS_OUT = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @maximal_mesh = <[], device_ids=[0]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<8xf32>, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}, tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, tensor<8xf32>) {
    %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>} : tensor<8xf32>
    %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8xf32>
    return %arg0, %arg1, %0, %arg2, %1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  func.func private @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, tensor<8xf32>) {
    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<8xf32>
    return %arg0, %0 : tensor<8xf32>, tensor<8xf32>
  }
}
"""

CALL_UNREDUCED = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @foo(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
  return %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func @other(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0:2 = call @foo(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0 : tensor<8x8xf32>
}
"""

#: jaxlib 0.12: result 0 (unreduced on the callee's side) keeps the call's sharding (fully closed
#: when the call had none) and gets no reshard; result 1 is resharded as before.
CALL_UNREDUCED_OUT = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0:2 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"y"}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %1 = sdy.reshard %0#1 <@mesh, [{}, {}]> : tensor<8x8xf32>
    return %0#0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @foo(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
    return %arg0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @other(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0:2 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, <@mesh, [{"y"}, {}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %1 = sdy.reshard %0#1 <@mesh, [{}, {}]> : tensor<8x8xf32>
    return %0#0 : tensor<8x8xf32>
  }
}
"""

DROP = """\
module attributes {sdy.parameters_shardings = [#sdy.sharding<@m3, [{"a"}]>], sdy.output_shardings = [#sdy.sharding<@m3, [{}]>], sdy.other = 1 : i64} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  sdy.mesh @unused = <["a"=2]>
  sdy.mesh @m3 = <["a"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""

#: jaxlib 0.12: @mesh, which the constraint still names, stays; the module metadata goes.
DROP_OUT = """\
module attributes {sdy.other = 1 : i64} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = stablehlo.negate %0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
"""

DROP_KEEP_OUT = DROP_OUT.replace(
    "module attributes {sdy.other = 1 : i64}",
    'module attributes {sdy.other = 1 : i64, sdy.output_shardings = [#sdy.sharding<@m3, [{}]>], '
    'sdy.parameters_shardings = [#sdy.sharding<@m3, [{"a"}]>]}')

PARTIAL = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"y"}>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=8, k=16} reduction={k}>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""

#: jaxlib 0.12 with the option: the dot's result marked unreduced over the axes it is all-reduced on
#: (merged with its own unreduced axes), the all-reduce's out sharding the result's before.
PARTIAL_MARKED_OUT = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x", "y"}>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=8, k=16} reduction={k}>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{}, {}], unreduced={"y"}> : tensor<8x8xf32>
    %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
"""

REDUCE_MAX = """\
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i]) {i=8, j=16} reduction={j}>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

#: jaxlib 0.12: the all-reduce finishing a max reduce is a ``max`` all-reduce, and the marked partial
#: result is ``unreduced=max{...}`` (the reduction_op of the collective follows the op's body).
REDUCE_MAX_MARKED_OUT = """\
module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [])->([i]) {i=8, j=16} reduction={j}>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = sdy.all_reduce max {"x"} %0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
"""

OPEN_INPUT = """\
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}], replicated={"x"}>}) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}]> : tensor<16xf32>
  %1 = sdy.sharding_constraint %arg1 <@mesh, [{"y"}]> : tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}
"""

#: jaxlib 0.12: a fully open sharding without replicated axes counts as none (the constraint is
#: applied to %arg0); with a replicated axis it is kept (%arg1).
OPEN_INPUT_OUT = """\
module {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func @main(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}], replicated={"x"}>}) -> (tensor<16xf32>, tensor<16xf32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=16}>} : tensor<16xf32>
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"y"}]> : tensor<16xf32>
    return %0, %1 : tensor<16xf32>, tensor<16xf32>
  }
}
"""

LIFT = """\
sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[5]>, []>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[0]>, []>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

LIFT_SINGLE_DEVICE_OUT = """\
module {
  sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]> {stablehlo.mesh = {axes = [], device_ids = dense<5> : tensor<1xi64>}}
  sdy.mesh @single_device_3 = <[], device_ids=[3]> {stablehlo.mesh = {axes = [], device_ids = dense<3> : tensor<1xi64>}}
  sdy.mesh @single_device_0 = <[], device_ids=[0]> {stablehlo.mesh = {axes = [], device_ids = dense<0> : tensor<1xi64>}}
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@single_device_3, []>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_5, []>}) {
    %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@single_device_0, []>]>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"""

COMPOSITE = """\
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.composite "my.op" %arg0 {decomposition = @my_op_impl} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @foo(%0) {called_computations = [@cc]} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @my_op_impl(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @cc(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @named(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @pub(%arg0: tensor<8xf32>) -> tensor<8xf32> attributes {my.ref = @named} {
  return %arg0 : tensor<8xf32>
}
"""

#: (our flag, jaxlib's pipeline, input, what jaxlib 0.12 prints).
CASES = {
    "propagate-to-func-results main": ("sdy-propagate-to-func-results", "builtin.module(sdy-propagate-to-func-results)",
                                       MAIN_RESULTS, MAIN_RESULTS_OUT),
    "func-call reshards unreduced": ("sdy-insert-func-call-reshards", "builtin.module(sdy-insert-func-call-reshards)",
                                     CALL_UNREDUCED, CALL_UNREDUCED_OUT),
    "drop sharding and mesh": ("sdy-drop-sharding-and-mesh", "builtin.module(sdy-drop-sharding-and-mesh)",
                               DROP, DROP_OUT),
    "drop keeping metadata": ("sdy-drop-sharding-and-mesh=keep-module-sharding-metadata=true",
                              "builtin.module(sdy-drop-sharding-and-mesh{keep-module-sharding-metadata=true})",
                              DROP, DROP_KEEP_OUT),
    "mark partial results": (
        "sdy-insert-explicit-reshards=enable-full-version=true mark-partial-result-with-unreduced-axes=true",
        "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true "
        "mark-partial-result-with-unreduced-axes=true}))", PARTIAL, PARTIAL_MARKED_OUT),
    "max reduce marked": (
        "sdy-insert-explicit-reshards=enable-full-version=true mark-partial-result-with-unreduced-axes=true",
        "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true "
        "mark-partial-result-with-unreduced-axes=true}))", REDUCE_MAX, REDUCE_MAX_MARKED_OUT),
    "max reduce": ("sdy-insert-explicit-reshards=enable-full-version=true",
                   "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))", REDUCE_MAX,
                   REDUCE_MAX_MARKED_OUT.replace('[{}], unreduced=max{"x"}>', "[{}]>")),
    "constraint on a fully open input": ("sdy-apply-sharding-constraints",
                                         "builtin.module(sdy-apply-sharding-constraints)", OPEN_INPUT, OPEN_INPUT_OUT),
    "single-device mesh names": ("sdy-lift-inlined-meshes=use-single-device-mesh-names=true",
                                 "builtin.module(sdy-lift-inlined-meshes{use-single-device-mesh-names=true})",
                                 LIFT, LIFT_SINGLE_DEVICE_OUT),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_pass_prints_what_jaxlib_012_prints(case):
    flag, _, text, expected = CASES[case]
    assert ours(text, flag) == expected


@pytest.mark.parametrize("case", sorted(CASES))
def test_pinned_output_is_jaxlibs(case):
    from cpp_oracle import cpp, require_jax

    require_jax()
    _, pipeline, text, expected = CASES[case]
    assert cpp(text, pipeline) == expected


def test_marking_is_off_by_default():
    out = ours(PARTIAL, "sdy-insert-explicit-reshards=enable-full-version=true")
    assert 'unreduced={"x", "y"}' not in out and '<@mesh, [{}, {}], unreduced={"y"}>]>' in out


def test_export_pipeline_passes_the_marking_option_on():
    from shardy_py.passes.export.export_pipeline import export_pipeline_passes

    steps = dict(export_pipeline_passes(mark_partial_result_with_unreduced_axes=True))
    assert steps["sdy-insert-explicit-reshards"]["mark_partial_result_with_unreduced_axes"] is True


def test_symbol_dce_keeps_every_referenced_function():
    """A composite's decomposition, a custom call's called computation and a function named in a
    discardable attribute are uses; only @dead goes (the propagation pipeline kept it all, as
    jaxlib 0.12 does, but deleted @my_op_impl before)."""
    out = ours(COMPOSITE, "symbol-dce")
    for name in ("my_op_impl", "cc", "named"):
        assert f"func.func private @{name}(" in out
    assert "@dead" not in out


def test_propagation_pipeline_keeps_a_composite_decomposition():
    from cpp_oracle import cpp, require_jax

    out = ours(COMPOSITE, "sdy-propagation-pipeline")
    assert "func.func private @my_op_impl(" in out and "@dead" not in out
    require_jax()
    assert cpp(COMPOSITE, "builtin.module(sdy-propagation-pipeline)") == out


#: Shardy's propagation pipeline tests whose CHECK lines (at SHARDY_COMMIT) jaxlib 0.12 no longer
#: meets: 0.12 gives @main's results the shardings of the values they return (a token result
#: ``<@mesh, []>`` in propagation_pipeline.mlir's ``@manual_computation_with_tokens``), and fails the
#: last chunk of propagation_pipeline.mlir ("'func.call' op has unreduced axes mismatch for 'x' at
#: call result 0."). Ours prints what 0.12 prints on every chunk.
PROPAGATION_FILES_012_WINS = ("propagation_pipeline.mlir", "propagation_pipeline_data_flow_edges.mlir")


@pytest.mark.parametrize("name", PROPAGATION_FILES_012_WINS)
def test_propagation_pipeline_tests_print_what_jaxlib_012_prints(name):
    from conftest import conformance_path
    from cpp_oracle import cpp, require_jax

    from shardy_py.cli import split_chunks

    require_jax()
    root = conformance_path()
    if root is None:
        pytest.skip("SHARDY_CONFORMANCE does not point at ../shared/conformance (Shardy's pass tests live there)")
    path = root / "transforms/propagation/test" / name
    for index, (text, _) in enumerate(split_chunks(path.read_text())):
        assert ours(text, "sdy-propagation-pipeline") == cpp(text, "builtin.module(sdy-propagation-pipeline)"), index
