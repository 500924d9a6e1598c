"""``canonicalize`` with Shardy's pattern labels against jaxlib's canonicalizer with the same
``enable-patterns``, function by function over Shardy's canonicalization tests
(conformance ir/*_canonicalization.mlir) and the insert-explicit-reshards outputs, top-down (the
pass's default) and bottom-up (as the export pipeline's ``GreedyRewriteConfig()`` runs it)."""
from __future__ import annotations

from pathlib import Path

import pytest
from cpp_oracle import ours
from test_passes_explicit_reshards_cpp import TESTS, Jaxlib, per_function

import shardy_py
from shardy_py.passes.manager import PassError, PassManager

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")

IR = Path("/work/shared/conformance/ir")
INPUTS = sorted(str(p) for p in IR.glob("*_canonicalization.mlir")) if IR.exists() else []
LABELS = ["sdy-collective", "sdy-reshard", "sdy-collective,sdy-reshard"]


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


def _pipeline(labels: str, top_down: bool) -> str:
    return f"builtin.module(canonicalize{{enable-patterns={labels} top-down={str(top_down).lower()}}})"


def _flag(labels: str, top_down: bool) -> str:
    return f"canonicalize=enable-patterns={labels} top-down={str(top_down).lower()}"


def _compare_all(texts, jaxlib, labels, top_down) -> int:
    compared = 0
    for text in texts:
        theirs = jaxlib.run(text, _pipeline(labels, top_down))
        if theirs in ("crashed", "unread") or str(shardy_py.parse(text)) != jaxlib.run(text, "builtin.module()"):
            continue
        assert ours(text, _flag(labels, top_down)) == theirs, text
        compared += 1
    return compared


@pytest.mark.parametrize("top_down", [True, False])
@pytest.mark.parametrize("labels", LABELS)
@pytest.mark.parametrize("path", INPUTS)
def test_labelled_canonicalization_matches_jaxlib(path, labels, top_down, jaxlib):
    texts = per_function(Path(path).read_text())
    assert _compare_all(texts, jaxlib, labels, top_down) > 0


def test_collective_canonicalization_after_insert_explicit_reshards(jaxlib):
    """The explicit-reshards outputs (all-reduces, unreduced collectives) through the collective
    patterns, as the export pipeline chains them."""
    compared = 0
    for relative in ["insert_explicit_reshards/unreduced.mlir", "insert_explicit_reshards/reduce.mlir",
                     "insert_explicit_reshards/dot_dot_general.mlir"]:
        for text in per_function((TESTS / relative).read_text()):
            module = shardy_py.parse(text)
            try:
                PassManager.parse(["-sdy-insert-explicit-reshards=enable-full-version=true"]).run(module)
            except PassError:
                continue
            compared += _compare_all([str(module)], jaxlib, "sdy-collective", False)
    assert compared > 20


def test_canonicalize_without_labels_runs_every_pattern():
    """No ``enable-patterns``: the labelled patterns and the unlabelled ones (here the reshard
    common-subexpression elimination: the second reshard of %arg0 is the first one's result)."""
    text = """sdy.mesh @m = <["x"=2]>
func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  %1 = sdy.reshard %arg0 <@m, [{"x"}]> : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}"""
    assert "%1 = sdy.reshard" not in ours(text, "canonicalize")
    assert "return %0, %0" in ours(text, "canonicalize")
    assert "%1 = sdy.reshard" in ours(text, "canonicalize=enable-patterns=sdy-reshard")


#: A collective permute between two meshes differing in device order, of a value with unreduced axes:
#: unreduced axes make the sharding not replicated (``TensorShardingAttr::isEquivalent``, Shardy
#: d62c224b), the mesh names then differ, and the permute stays, in ours and in jaxlib 0.12 (0.10.2,
#: older than d62c224b, removed it).
UNREDUCED_PERMUTE = """sdy.mesh @m2 = <["y"=2]>
sdy.mesh @m = <["y"=2], device_ids=[1, 0]>
func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m2, [{}], unreduced={"y"}>}) -> tensor<2xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@m, [{}], unreduced={"y"}> : tensor<2xf32>
  return %0 : tensor<2xf32>
}"""


def test_a_permute_of_unreduced_axes_across_device_orders_stays(jaxlib):
    flag = _flag("sdy-collective", True)
    mine = ours(UNREDUCED_PERMUTE, flag)
    assert "sdy.collective_permute" in mine
    assert mine == jaxlib.run(UNREDUCED_PERMUTE, _pipeline("sdy-collective", True))


def test_a_permute_between_replicated_shardings_without_unreduced_axes_goes():
    text = UNREDUCED_PERMUTE.replace(', unreduced={"y"}', "")
    assert "sdy.collective_permute" not in ours(text, _flag("sdy-collective", True))
