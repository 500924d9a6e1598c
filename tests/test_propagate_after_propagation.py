# ruff: noqa: E501  (MLIR inputs and outputs are written one op per line, however long)
"""``shardy_py.propagate`` against jaxlib where it was found to differ from jaxlib's
``sdy-propagation-pipeline``, and what each difference was:

* non-divisible user shardings of func inputs/outputs: ``propagate`` left out
  ``sdy-update-non-divisible-input-output-shardings`` and
  ``sdy-remove-sub-axes-in-input-output-shardings``, which ``addExportPipeline`` runs before its
  ``after_propagation`` dump (``ExportOptions::updateNonDivisibleInputOutputShardings`` defaults to
  true, propagation_options.h; ``populateExportOptions`` copies it).  Fixed; the step list and the
  module are pinned here.
* the reshard before a call and the all-reduce of an unreduced result: inserted by
  ``sdy-insert-explicit-reshards``, i.e. the partitioner after that dump, where ``propagate``
  stops by design; ``-sdy-propagation-pipeline`` inserts both as jaxlib does.
* ``debug-sharding-origins`` on an op's own ``sdy.sharding``: not a user sharding Shardy tracks
  (``prepareShardingOriginsHandler`` records func arguments/results, constraints and manual
  computations only), so ``lookUpValueOriginSharding`` reaches ``llvm_unreachable("Couldn't find
  sharding origin")`` for the axes it passes on: undefined behaviour, which jaxlib's release build
  prints as the nameless origin ``": 0"``.  Ours leaves those axes without an origin and warns.
"""
from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from cpp_oracle import CRASHED, FAILED, cpp
from hypothesis import HealthCheck, assume, given, settings

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassContext, PassError, PassManager
from shardy_py.passes.propagation.propagation_pipeline import PipelineStepSkipped, propagation_pipeline_passes
from shardy_py.strategies import propagation_module_texts

TESTS = Path("/work/shared/conformance/transforms/propagation/test")

#: ``addPropagationPipeline`` (conservative mode, default options) through ``addExportPipeline``'s
#: ``createSaveModuleOpPass(..., "after_propagation", ...)``, written out from
#: propagation/propagation_pipeline.cc, import/import_pipeline.cc and export/export_pipeline.cc at
#: Shardy HEAD (a0277a83), then ``sdy-drop-sharding-rules`` (``propagate`` drops the rules unless
#: asked to keep them).
AFTER_PROPAGATION = (
    "builtin.module(symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,"
    "sdy-propagate-sharding-from-func-to-call,sdy-constant-or-scalar-splitter,symbol-dce,"
    "sdy-manual-axes-cleanup,sdy-add-data-flow-edges,sdy-flatten-call-graph,symbol-dce,"
    "sdy-import-func-calls,symbol-dce,sdy-apply-sharding-constraints,"
    "sdy-sharding-group-import,sdy-pre-order-funcs,sdy-user-priority-propagate{keep-sharding-rules=true},"
    "sdy-export-named-computations,sdy-propagate-to-func-results,sdy-unflatten-call-graph,symbol-dce,"
    "sdy-insert-func-call-reshards,func.func(sdy-constant-or-scalar-merger,sdy-sink-data-flow-edges),"
    "sdy-remove-sharding-groups,func.func(sdy-sharding-constraint-to-reshard),"
    "sdy-update-non-divisible-input-output-shardings,sdy-remove-sub-axes-in-input-output-shardings,"
    "sdy-close-shardings,func.func(sdy-drop-sharding-rules))")

NON_DIVISIBLE = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x","y"}, {}]>}) -> (tensor<3x4xf32>, tensor<6x4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<3x4xf32>
  %1 = stablehlo.add %b, %b : tensor<6x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<6x4xf32>
}
"""

NON_DIVISIBLE_AFTER = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func @main(%arg0: tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<3x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<3x4xf32>
    %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}]>]>} : tensor<6x4xf32>
    return %0, %1 : tensor<3x4xf32>, tensor<6x4xf32>
  }
}
"""

CALL = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {}]>}, %d: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p1, {}]>}) -> tensor<8x4xf32> {
  %0 = call @g(%a, %d) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @g(%p: tensor<8x4xf32>, %q: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.add %p, %q : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
"""


#: A call whose result a constraint on a single-device mesh reaches (drawn by
#: benchmarks/differential_partition.py): the calls are imported as named computations before the
#: constraints are applied (``addPropagationPipeline``'s conservative mode, SHARDY_COMMIT and jaxlib 0.12
#: alike).  ``propagate`` once applied the constraints first, on func data-flow edges, and gave the
#: callee's argument and result ``<@maximal_mesh, []>`` where jaxlib leaves them open.
CONSTRAINED_CALL = """sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh = <[], device_ids=[0]>
func.func @main(%arg0: tensor<5x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %1 = call @callee(%arg0) : (tensor<5x2xf32>) -> tensor<5x2xf32>
  %2 = sdy.sharding_constraint %1 <@maximal_mesh, []> : tensor<5x2xf32>
  %3 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<5x2xf32>
  return %2, %3 : tensor<5x2xf32>, tensor<5x2xf32>
}
func.func private @callee(%arg0: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %0 = stablehlo.abs %arg0 : tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}
"""


def _chunk(name: str, index: int) -> str:
    """Chunk ``index`` (``// -----``-separated, as ``-split-input-file``) of Shardy's test ``name``."""
    return split_chunks((TESTS / name).read_text())[index][0]


def _propagate(text: str, **options) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PipelineStepSkipped)
        return str(shardy_py.propagate(shardy_py.parse(text), **options))


def _pipeline(text: str) -> str:
    module = shardy_py.parse(text)
    PassManager.parse(["-sdy-propagation-pipeline"]).run(module)
    return str(module)


def test_propagate_runs_the_steps_up_to_the_after_propagation_dump():
    """The step names of ``propagate`` at its defaults are the C++ ones written out above."""
    spelled = AFTER_PROPAGATION.removeprefix("builtin.module(").removesuffix(")").replace("func.func(", "").replace(")", "")
    names = [step.split("{")[0] for step in spelled.split(",")]
    assert [name for name, _ in propagation_pipeline_passes()] == names


@pytest.mark.parametrize("text", [NON_DIVISIBLE, _chunk("aggressive_propagation.mlir", 20)], ids=["arg_and_sub_axes", "aggressive_chunk_20"])
def test_non_divisible_input_output_shardings_updated_as_jaxlib(text):
    """A sharding of a func input/output that does not divide its dimension is truncated (the
    C++'s update-non-divisible pass) in ``propagate``, as in jaxlib's run of the same steps."""
    assert _propagate(text) == cpp(text, AFTER_PROPAGATION)


def test_non_divisible_exact_output():
    """``[{"x"}]`` on 3 becomes ``[{}]``, ``[{"x","y"}]`` on 6 becomes ``[{"x"}]`` (the ops inside
    keep theirs); the whole pipeline agrees with ``propagate`` here."""
    assert _propagate(NON_DIVISIBLE) == NON_DIVISIBLE_AFTER
    assert _pipeline(NON_DIVISIBLE) == NON_DIVISIBLE_AFTER == cpp(NON_DIVISIBLE, "builtin.module(sdy-propagation-pipeline)")


def test_aggressive_chunk_20_sub_axis():
    """The argument sharding ``{"a", "c"}`` of 8 on a=2, c=8 becomes ``{"a", "c":(1)4}``."""
    assert '{"a", "c":(1)4}' in _propagate(_chunk("aggressive_propagation.mlir", 20))


def test_reshard_before_call_is_the_partitioners():
    """The reshard of ``%d`` (``{"y"}``) to the callee's ``{"x"}``: jaxlib's full pipeline and ours
    insert it; at the ``after_propagation`` point (``propagate``) neither has it yet."""
    reshard = 'sdy.reshard %arg1 <@mesh, [{"x"}, {}]>'
    full = cpp(CALL, "builtin.module(sdy-propagation-pipeline)")
    assert reshard in full and _pipeline(CALL) == full
    after = _propagate(CALL)
    assert reshard not in after and after == cpp(CALL, AFTER_PROPAGATION)


def test_all_reduce_of_unreduced_dot_is_the_partitioners():
    """Chunk 14 of propagation_pipeline.mlir (``CHECK-NEXT: %[[ALL_REDUCE:.*]] = sdy.all_reduce
    {"b"} %[[DOT_GENERAL]] out_sharding=<@mesh, [{"a"}, {}]>``): the full pipeline inserts the
    all-reduce on both sides; ``propagate`` stops before it, as jaxlib's same steps do."""
    text = _chunk("propagation_pipeline.mlir", 14)
    all_reduce = 'sdy.all_reduce {"b"} %0 out_sharding=<@mesh, [{"a"}, {}]>'
    full = cpp(text, "builtin.module(sdy-propagation-pipeline)")
    assert all_reduce in full and _pipeline(text) == full
    after = _propagate(text)
    assert "sdy.all_reduce" not in after and after == cpp(text, AFTER_PROPAGATION)


def _cpp_in_subprocess(text: str, pipeline: str) -> subprocess.CompletedProcess:
    """jaxlib's run of ``pipeline`` on ``text`` in a child process (undefined behaviour may crash it)."""
    here = str(Path(__file__).parent)
    script = f"import sys; sys.path.insert(0, {here!r}); from cpp_oracle import cpp; print(cpp(sys.stdin.read(), {pipeline!r}))"
    return subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, timeout=600)


def test_own_op_sharding_has_no_origin_as_in_jaxlib_012():
    """Chunk 3 of user_priority_propagation.mlir with debug-sharding-origins: axis ``c`` comes from
    the divide's own ``sdy.sharding``, which Shardy does not record as an origin (jaxlib 0.10.2's
    lookup was undefined behaviour, ``c = ": 0"`` or a crash; 0.12 warns "Couldn't find sharding
    origin for value" and writes none, as ours).  Ours writes the origins it knows (``self``,
    ``input: 0``), none for ``c``, and warns at each value that passes ``c`` on."""
    text = _chunk("user_priority_propagation.mlir", 3)
    flag = "sdy-user-priority-propagate{debug-sharding-origins=true}"
    run = _cpp_in_subprocess(text, f"builtin.module({flag})")
    assert run.returncode == 0 and 'c = ": 0"' not in run.stdout
    module = shardy_py.parse(text)
    ctx = PassContext()
    PassManager.parse(["-sdy-user-priority-propagate=debug-sharding-origins=true"]).run(module, ctx)
    out = str(module)
    assert out == run.stdout.removesuffix("\n")
    assert '{a = "self", b = "self"}' in out and 'sdy.sharding_origins = [{b = "input: 0"}]' in out
    assert ": 0\"" not in out.replace('"input: 0"', "")
    assert [(d.severity, d.line, d.message.split(" (")[0]) for d in ctx.diagnostics] == [
        ("warning", line, f"debug-sharding-origins: no origin is known for axis c of %{i}")
        for line, i in ((18, 2), (17, 1), (16, 0))]


def test_calls_are_imported_before_constraints_are_applied():
    """``propagate`` on a call a constraint reaches gives what jaxlib's same steps give."""
    assert _propagate(CONSTRAINED_CALL) == cpp(CONSTRAINED_CALL, AFTER_PROPAGATION)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=propagation_module_texts())
def test_propagate_matches_jaxlibs_same_steps_on_drawn_modules(text):
    """Drawn modules (calls, constraints, sharding groups, meshes of one device): ``propagate`` gives
    jaxlib's module after the same steps, or fails where jaxlib's steps fail; inputs jaxlib dies on
    are left out."""
    theirs = cpp(text, AFTER_PROPAGATION)
    assume(not theirs.startswith(CRASHED))
    try:
        mine = _propagate(text)
    except PassError:
        mine = FAILED
    assert mine == theirs
