"""``shardy_py.partition`` against jaxlib 0.12's passes, byte for byte, on the JAX programs of
tests/data/jax_programs (plain and sharded, lowered with 8 CPU devices) and on examples/: its
``sdy-propagation-pipeline``, ``sdy-export-pipeline{partitioner-stage=resolve-single-device-sharding}``
(jaxlib 0.12's staged partitioner down to the step before convert-global-to-local),
``sdy-convert-global-to-local{enable-rgv3=false}`` and ``sdy-drop-sharding-and-mesh``.
Programs reducing with max (reduce_out_sharded, softmax_sharded) check that the ``reduction_op``
of the ``sdy.all_reduce`` insert-explicit-reshards makes reaches the stablehlo.all_reduce body."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_passes_explicit_reshards_cpp import Jaxlib

import shardy_py
from shardy_py.passes.manager import PassError

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

DATA = Path(__file__).parent / "data" / "jax_programs"
EXAMPLES = Path(__file__).parent.parent / "examples"
FRONT = "sdy-propagation-pipeline,sdy-export-pipeline{partitioner-stage=resolve-single-device-sharding}"
BACK = "sdy-convert-global-to-local{enable-rgv3=false},sdy-drop-sharding-and-mesh"
PIPELINE = f"builtin.module({FRONT},{BACK})"
PLAIN = sorted(re.findall(r'^    "(\w+)": ', (DATA / "programs.py").read_text(), re.M))
SHARDED = sorted(re.findall(r'^    "(\w+)": lambda', (DATA / "sharded_programs.py").read_text(), re.M))


@pytest.fixture(scope="module")
def jaxlib():
    worker = Jaxlib()
    yield worker
    worker.close()


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("partition_programs")
    for script in ("programs.py", "sharded_programs.py"):
        subprocess.run([sys.executable, str(DATA / script), str(out)], check=True, capture_output=True, timeout=600)
    return out


def compare(text: str, jaxlib: Jaxlib) -> None:
    theirs = jaxlib.run(text, PIPELINE)
    assert theirs not in ("crashed", "unread")
    try:
        mine = str(shardy_py.partition(shardy_py.parse(text)))
    except PassError:
        mine = "<the pass failed>"
    assert mine == theirs


@pytest.mark.parametrize("name", sorted(set(PLAIN) | set(SHARDED)))
def test_partition_matches_jaxlib_on_jax_programs(name, lowered, jaxlib):
    path = lowered / f"{name}.mlir"
    if not path.exists():
        pytest.skip(f"{name} was not lowered by this JAX")
    compare(path.read_text(), jaxlib)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.mlir")))
def test_partition_matches_jaxlib_on_the_examples(name, jaxlib):
    compare((EXAMPLES / name).read_text(), jaxlib)


#: A constraint to a maximal mesh on a call result (a module drawn by
#: benchmarks/differential_partition.py): jaxlib 0.12's -sdy-propagation-pipeline imports the calls
#: before applying constraints, so the call stays unsharded and the negate behind the constraint
#: runs on device 0 alone; Shardy's head order (``shardy_py.propagate``) puts the call on device 0.
MAXIMAL_CONSTRAINT_ON_A_CALL = """sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh = <[], device_ids=[0]>
func.func @main(%arg0: tensor<5x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
  %0 = call @callee(%arg0) : (tensor<5x2xf32>) -> tensor<5x2xf32>
  %1 = sdy.sharding_constraint %0 <@maximal_mesh, []> : tensor<5x2xf32>
  %2 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh, []>]>} : tensor<5x2xf32>
  return %1, %2 : tensor<5x2xf32>, tensor<5x2xf32>
}
func.func private @callee(%arg0: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %0 = stablehlo.abs %arg0 : tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}
"""


def test_partition_propagates_in_jaxlibs_pipeline_order(jaxlib):
    mine = str(shardy_py.partition(shardy_py.parse(MAXIMAL_CONSTRAINT_ON_A_CALL)))
    assert "%0 = call @callee(%arg0) : (tensor<5x2xf32>) -> tensor<5x2xf32>" in mine
    compare(MAXIMAL_CONSTRAINT_ON_A_CALL, jaxlib)


def test_partitioner_passes_match_jaxlib_on_drawn_modules(jaxlib):
    """A short version of ``benchmarks/differential_partition.py --stage partitioner``: on drawn
    modules after jaxlib's propagation and staged export pipeline, our convert-global-to-local and
    drop-sharding-and-mesh print what jaxlib's print or fail where they fail."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from shardy_py.passes.manager import PassManager
    from shardy_py.passes.partition import partition_passes
    from shardy_py.strategies import propagation_module_texts

    front = f"builtin.module({FRONT})"
    counts = {"same": 0, "both failed": 0, "skipped": 0}

    def case(text: str) -> None:
        exported = jaxlib.run(text, front)
        theirs = jaxlib.run(text, PIPELINE)
        if exported in ("crashed", "unread") or exported.startswith("<") or theirs in ("crashed", "unread"):
            counts["skipped"] += 1
            return
        module = shardy_py.parse(exported)
        try:
            PassManager(partition_passes(after_export=True)).run(module)
            mine = str(module)
        except PassError:
            mine = None
        if theirs.startswith("<"):
            assert mine is None, exported
            counts["both failed"] += 1
            return
        assert mine is not None, exported
        assert mine == theirs, exported
        counts["same"] += 1

    cfg = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck), max_examples=15,
                   phases=[Phase.generate])
    hseed(20261125)(cfg(given(propagation_module_texts())(case)))()
    assert counts["same"] >= 1, counts
