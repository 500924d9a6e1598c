"""A pass that changed nothing says so (``ctx.mark_all_preserved()``, MLIR's
``markAllAnalysesPreserved``), and the pass manager then does not verify the module again, as MLIR's
pass manager does not.  Every claim is checked here: on Shardy's own pass test inputs and the
examples, a pass that marked the module preserved printed it exactly as before."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes import manager as manager_module
from shardy_py.passes.import_.import_pipeline import import_pipeline_passes
from shardy_py.passes.manager import PassContext, PassError, PassManager, run_one
from shardy_py.passes.registry import Pass, lookup

CONFORMANCE = Path("/work/shared/conformance/transforms")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: The passes that may mark the module preserved.
IMPORT_PASSES = ["symbol-dce", "sdy-lift-inlined-meshes", "sdy-remove-size-one-axes",
                 "sdy-propagate-sharding-from-func-to-call", "sdy-constant-or-scalar-splitter",
                 "sdy-manual-axes-cleanup", "sdy-add-data-flow-edges"]
EXPORT_PASSES = ["sdy-close-shardings", "sdy-remove-propagation-debug-info", "sdy-remove-sharding-groups",
                 "sdy-sink-data-flow-edges", "sdy-sink-func-data-flow-edges", "sdy-constant-or-scalar-merger",
                 "sdy-drop-sharding-and-mesh", "sdy-drop-sharding-rules", "sdy-export-named-computations",
                 "sdy-inline-meshes", "sdy-insert-func-call-reshards", "sdy-remove-all-gather-reduce-scatter-for-cmv1",
                 "sdy-remove-sub-axes-in-input-output-shardings", "sdy-resolve-single-device-sharding",
                 "sdy-sharding-constraint-to-reshard", "sdy-update-non-divisible-input-output-shardings",
                 "sdy-pad-for-divisibility"]


def _inputs(kind: str) -> list[tuple[str, str]]:
    """(name, module text) of every test input of Shardy's ``kind`` (import/export, or a folder of one
    pass's tests under them) passes, and the examples."""
    out = []
    for path in sorted(CONFORMANCE.glob(f"{kind}/*.mlir" if "/" in kind else f"{kind}/test/*.mlir")):
        for i, (text, _) in enumerate(split_chunks(path.read_text())):
            out.append((f"{path.stem}#{i}", text))
    for path in sorted(EXAMPLES.glob("*.mlir")):
        out.append((path.stem, path.read_text()))
    return out + [("dead private function", DEAD_FUNC)]


DEAD_FUNC = """func.func private @dead(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
"""


INPUTS = {"import": _inputs("import"), "export": _inputs("export")}
#: Passes whose own tests live in a folder of their own: those inputs, not the other export passes'.
OWN_INPUTS = {"sdy-pad-for-divisibility": _inputs("export/test/pad_for_divisibility")}


def _parsed(text: str):
    try:
        module = shardy_py.parse(text)
    except Exception:  # an input written to fail parsing or verification
        return None
    return None if shardy_py.verify(module) else module


@pytest.mark.parametrize("name", IMPORT_PASSES + EXPORT_PASSES)
def test_a_pass_that_marks_the_module_preserved_left_it_unchanged(name):
    inputs = OWN_INPUTS.get(name) or INPUTS["import" if name in IMPORT_PASSES else "export"]
    if not CONFORMANCE.is_dir():
        pytest.skip("Shardy's pass tests live in /work/shared/conformance, not here")
    claims = changes = 0
    for label, text in inputs:
        module = _parsed(text)
        if module is None:
            continue
        before = str(module)
        ctx = PassContext()
        try:
            run_one(lookup(name)(), module, ctx)
        except (PassError, ValueError):
            continue
        if ctx.failed:
            continue
        if ctx.preserved:
            claims += 1
            assert str(module) == before, f"{name} marked {label} preserved but changed it"
        else:
            changes += str(module) != before
    assert claims > 0 and changes > 0  # the check checked something, both ways


class _Breaks(Pass):
    """Test pass: gives the first ``sdy.sharding_constraint`` a sharding of rank 0 (invalid)."""

    name = "test-breaks"

    def __init__(self, claim_preserved: bool):
        super().__init__()
        self.claim_preserved = claim_preserved

    def run(self, module, ctx) -> None:
        from shardy_py.ir.attrs import TensorShardingAttr

        for op in module.walk():
            if op.name == "sdy.sharding_constraint":
                op.properties = {**op.properties, "sharding": TensorShardingAttr("mesh", ())}
                break
        if self.claim_preserved:
            ctx.mark_all_preserved()


MODULE = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def test_the_module_is_verified_after_a_pass_that_changed_it():
    with pytest.raises(PassError, match="does not verify"):
        PassManager([_Breaks(claim_preserved=False)]).run(shardy_py.parse(MODULE))


def test_the_module_is_not_verified_again_after_a_pass_that_marked_it_preserved():
    PassManager([_Breaks(claim_preserved=True)]).run(shardy_py.parse(MODULE))  # the claim is trusted


def test_the_preserved_mark_is_cleared_before_each_pass():
    manager = PassManager([_Breaks(claim_preserved=True), lookup("symbol-dce")(), _Breaks(claim_preserved=False)])
    with pytest.raises(PassError, match="after pass 'test-breaks' does not verify"):
        manager.run(shardy_py.parse(MODULE))


def test_the_import_pipeline_on_the_transformer_verifies_after_the_splitter_only(monkeypatch):
    import importlib

    verify_module = importlib.import_module("shardy_py.verify")
    calls = []
    real = verify_module.verify

    def counting(module):
        calls.append(module)
        return real(module)

    monkeypatch.setattr(verify_module, "verify", counting)
    module = shardy_py.parse((EXAMPLES / "transformer_stack.mlir").read_text())
    ctx = PassManager([lookup("sdy-import-pipeline")()]).run(module)
    # only the splitter changes this module; the pipeline's own steps were each checked
    assert len(calls) == 1 and ctx.preserved
    assert len(import_pipeline_passes()) == 8


def test_the_collector_is_handed_back_after_a_run():
    """The outermost run freezes the module's objects and unfreezes after.  The venv's CPython 3.12.1
    (with jaxlib 0.12) starts with 375 objects already frozen (``python -I -c 'import gc;
    print(gc.get_freeze_count())'``): that startup freeze does not count as the caller's."""
    import gc

    assert gc.get_freeze_count() in (0, manager_module.INTERPRETER_FROZEN)
    with manager_module.outermost_run():
        assert gc.get_freeze_count() > 0
        with manager_module.outermost_run():  # a pipeline's nested run
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_run_leaves_objects_the_caller_froze_frozen():
    import gc

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        PassManager([lookup("symbol-dce")()]).run(shardy_py.parse(MODULE))
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


def test_a_failed_run_hands_the_collector_back_too():
    import gc

    with pytest.raises(PassError):
        PassManager([_Breaks(claim_preserved=False)]).run(shardy_py.parse(MODULE))
    assert gc.get_freeze_count() == 0 and manager_module._run_depth == 0
