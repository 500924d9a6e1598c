# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""Differential tests of the propagation passes against the C++ Shardy in jaxlib (its
``PassManager``): byte-identical output on every ``// -----`` chunk of Shardy's propagation test
files (with the flags of their RUN lines); on the JAX programs of tests/data/jax_programs/programs.py,
the sharded JAX programs of tests/data/jax_programs/sharded_programs.py and drawn modules
(``strategies.module_texts()``) after adding data-flow edges (and function data-flow edges), a
propagation pass, and sinking the edges; on the sharded programs also after ``-sdy-import-pipeline``.

A chunk is skipped, saying why, when jaxlib 0.10.2 cannot read it (syntax newer than its Shardy:
such chunks are pinned to Shardy HEAD's CHECK lines in test_propagation_basic.py) or when our plain
print of it already differs from MLIR's (then a difference would be the printer's, not the pass's).
"""
from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassError, PassManager

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")

import cpp_oracle  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from jax._src.interpreters import mlir as jax_mlir  # noqa: E402
from jax._src.lib.mlir import ir, passmanager  # noqa: E402

from shardy_py import strategies as sst  # noqa: E402

TEST_DIR = Path("/work/shared/conformance/transforms/propagation/test")
PROGRAMS_SCRIPT = Path(__file__).parent / "data" / "jax_programs" / "programs.py"
SHARDED_SCRIPT = PROGRAMS_SCRIPT.parent / "sharded_programs.py"
sys.path.insert(0, str(PROGRAMS_SCRIPT.parent))
from programs import PROGRAMS  # noqa: E402

#: The names of tests/data/jax_programs/sharded_programs.py's programs (read without importing JAX
#: device setup into this process).
SHARDED = sorted(re.findall(r'^    "(\w+)": lambda', SHARDED_SCRIPT.read_text(), re.M))

EDGES = ["-sdy-add-data-flow-edges"]
SINK = ["-sdy-sink-data-flow-edges"]
CPP_EDGES = "sdy-add-data-flow-edges"
CPP_SINK = "func.func(sdy-sink-data-flow-edges)"

#: Test file -> (our flags, jaxlib pipeline), as the file's RUN line runs it.
FILES = {
    "basic_propagation.mlir": (["-sdy-basic-propagate"], "sdy-basic-propagate"),
    "basic_propagation_conservative.mlir": (["-sdy-basic-propagate=conservative-propagation=true"],
                                            "sdy-basic-propagate{conservative-propagation=true}"),
    "basic_propagation_data_flow_edges.mlir": (EDGES + ["-sdy-basic-propagate"] + SINK,
                                               f"{CPP_EDGES},sdy-basic-propagate,{CPP_SINK}"),
    "basic_propagation_keep_sharding_rules.mlir": (["-sdy-basic-propagate=keep-sharding-rules=true"],
                                                   "sdy-basic-propagate{keep-sharding-rules=true}"),
    "basic_propagation_manual_computation.mlir": (["-sdy-basic-propagate"], "sdy-basic-propagate"),
    "basic_propagation_token.mlir": (["-sdy-basic-propagate"], "sdy-basic-propagate"),
    "sharding_group_propagation.mlir": (["-sdy-basic-propagate"], "sdy-basic-propagate"),
    "aggressive_propagation.mlir": (["-sdy-aggressive-propagate=propagation-strategy=aggressive"],
                                    "sdy-aggressive-propagate{propagation-strategy=aggressive}"),
    "op_priority_propagation.mlir": (["-sdy-op-priority-propagate"], "sdy-op-priority-propagate"),
    "user_priority_propagation.mlir": (["-sdy-user-priority-propagate"], "sdy-user-priority-propagate"),
}

#: Propagation passes run on the JAX programs (between adding and sinking data-flow edges).
PROGRAM_PASSES = {
    "sdy-basic-propagate": "sdy-basic-propagate",
    "sdy-basic-propagate=conservative-propagation=true": "sdy-basic-propagate{conservative-propagation=true}",
    "sdy-aggressive-propagate": "sdy-aggressive-propagate",
    "sdy-aggressive-propagate=propagation-strategy=basic-then-aggressive":
        "sdy-aggressive-propagate{propagation-strategy=basic-then-aggressive}",
    "sdy-op-priority-propagate": "sdy-op-priority-propagate",
    "sdy-user-priority-propagate": "sdy-user-priority-propagate",
}

#: What either side gives for a pass that fails: both must fail.
FAILED = "<the pass failed>"


@functools.cache
def _context():
    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def cpp(text: str, pipeline: str) -> str:
    """jaxlib's output of ``builtin.module(pipeline)`` on ``text`` (``FAILED`` when it fails)."""
    module = ir.Module.parse(text, context=_context())
    try:
        passmanager.PassManager.parse(f"builtin.module({pipeline})", context=_context()).run(module.operation)
    except ir.MLIRError:
        return FAILED
    return module.operation.get_asm()


def ours(text: str, flags: list[str]) -> str:
    """Our output of ``flags`` on ``text`` (``FAILED`` when a pass fails)."""
    module = shardy_py.parse(text)
    try:
        PassManager.parse(flags).run(module)
    except PassError:
        return FAILED
    return str(module)


def _chunks(name: str) -> list[tuple[str, int]]:
    path = TEST_DIR / name
    return split_chunks(path.read_text()) if path.exists() else []


CHUNK_CASES = [(name, i) for name in FILES for i in range(len(_chunks(name)))]


def _readable_by_jaxlib(text: str) -> bool:
    try:
        ir.Module.parse(text, context=_context())
    except ir.MLIRError:
        return False
    return True


@pytest.mark.skipif(not TEST_DIR.exists(), reason=f"{TEST_DIR} is not here (Shardy's propagation tests)")
@pytest.mark.parametrize(("name", "index"), CHUNK_CASES, ids=[f"{n}#{i}" for n, i in CHUNK_CASES])
def test_propagation_matches_cpp_on_shardys_test_chunks(name, index):
    text, line = _chunks(name)[index]
    if not _readable_by_jaxlib(text):
        pytest.skip(f"{name}:{line}: syntax newer than jaxlib 0.10.2's Shardy (pinned in test_propagation_basic.py)")
    if str(shardy_py.parse(text)) != cpp(text, ""):
        pytest.skip(f"{name}:{line}: our plain print differs from MLIR's before any pass")
    flags, pipeline = FILES[name]
    assert ours(text, flags) == cpp(text, pipeline)


#: The propagation pipeline's test inputs -> the import pipeline they go through first (ours, jaxlib's).
PIPELINE_INPUTS = {
    "propagation_pipeline.mlir": ("-sdy-import-pipeline", "sdy-import-pipeline"),
    "propagation_pipeline_data_flow_edges.mlir": ("-sdy-import-pipeline", "sdy-import-pipeline"),
    "propagation_pipeline_dedup_functions_fully_true.mlir": ("-sdy-import-pipeline=dedup-functions-fully=true",
                                                             "sdy-import-pipeline{dedup-functions-fully=true}"),
}
PIPELINE_CASES = [(name, i) for name in PIPELINE_INPUTS for i in range(len(_chunks(name)))]


@pytest.mark.skipif(not TEST_DIR.exists(), reason=f"{TEST_DIR} is not here (Shardy's propagation tests)")
@pytest.mark.parametrize(("name", "index"), PIPELINE_CASES, ids=[f"{n}#{i}" for n, i in PIPELINE_CASES])
def test_import_then_user_priority_matches_cpp_on_the_pipeline_test_inputs(name, index):
    """The propagation pipeline's inputs through the import pipeline, then user-priority propagation
    between adding and sinking function data-flow edges (the pipeline's dedup-functions-fully path)."""
    text, line = _chunks(name)[index]
    if not _readable_by_jaxlib(text):
        pytest.skip(f"{name}:{line}: syntax newer than jaxlib 0.10.2's Shardy")
    if str(shardy_py.parse(text)) != cpp(text, ""):
        pytest.skip(f"{name}:{line}: our plain print differs from MLIR's before any pass")
    ours_import, cpp_import = PIPELINE_INPUTS[name]
    flags = [ours_import] + FUNC_EDGES + ["-sdy-user-priority-propagate"] + FUNC_SINK
    pipeline = f"{cpp_import},{CPP_FUNC_EDGES},sdy-user-priority-propagate,{CPP_FUNC_SINK}"
    assert ours(text, flags) == cpp(text, pipeline)


def test_every_propagation_test_file_is_compared():
    """Every propagation pass test file whose RUN line runs only passes of this module is listed."""
    if not TEST_DIR.exists():
        pytest.skip(f"{TEST_DIR} is not here")
    strategy_passes = ("-sdy-basic-propagate", "-sdy-aggressive-propagate", "-sdy-op-priority-propagate",
                       "-sdy-user-priority-propagate")
    runs = {p.name for p in TEST_DIR.glob("*.mlir")
            if any(flag in p.read_text().splitlines()[0] for flag in strategy_passes)}
    assert runs == set(FILES)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    """Every program's text, lowered in a subprocess with 8 CPU devices."""
    out = tmp_path_factory.mktemp("jax_programs_propagation")
    subprocess.run([sys.executable, str(PROGRAMS_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out


@pytest.mark.parametrize("flag", sorted(PROGRAM_PASSES))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_propagation_matches_cpp_on_jax_programs(lowered, name, flag):
    text = (lowered / f"{name}.mlir").read_text()
    if str(shardy_py.parse(text)) != cpp(text, ""):
        pytest.skip(f"{name}: our plain print differs from MLIR's before any pass (an op not declared yet)")
    flags = EDGES + ["-" + flag] + SINK
    assert ours(text, flags) == cpp(text, f"{CPP_EDGES},{PROGRAM_PASSES[flag]},{CPP_SINK}")


def cpp_cannot_run(module) -> str | None:
    """Why the C++ would crash or abort on ``module`` (so there is nothing to compare), or None:

    * a sharding on an inline mesh reaches ``getCommonMeshName``, which casts the mesh to a symbol
      name (undefined behaviour; ours fails with an error);
    * an ``sdy.data_flow_edge`` whose input is not an edge owner of a data-flow op (the C++
      dereferences a null interface; ours fails with an error);
    * a value in two sharding groups (``report_fatal_error``), or a group id too large for the
      C++'s vector of groups;
    * for user-priority propagation, a prioritised sharding on an op the driver erases as dead
      (the C++ later writes to the erased op) — callers skip modules with priorities > 0."""
    from shardy_py.passes import data_flow as df

    if "<mesh<" in str(module):
        return "an inline mesh"
    groups: dict[int, int] = {}
    for op in module.walk():
        if op.name == "sdy.data_flow_edge" and not df.is_data_flow_op(df.owning_op(op.operands[0])):
            return "a data-flow edge of a value that is not an edge owner"
        if op.name == "sdy.sharding_group":
            group_id = int(op.properties["group_id"])
            if group_id > 1 << 24 or groups.setdefault(id(op.operands[0]), group_id) != group_id:
                return "a value in two sharding groups, or a huge group id"
    return None


_DRAWN = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PRIORITY = re.compile(r"\}p[1-9]")


#: A function called from two sites, with a sharded argument at one and a sharding constraint on
#: the other's result: propagation runs through ``sdy.func_data_flow_edge``s both ways.
CALLS = """\
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = func.call @foo(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  %2 = func.call @foo(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func private @foo(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
FUNC_EDGES = ["-sdy-add-func-data-flow-edges"]
FUNC_SINK = ["-sdy-sink-func-data-flow-edges"]
CPP_FUNC_EDGES = "sdy-add-func-data-flow-edges"
CPP_FUNC_SINK = "func.func(sdy-sink-func-data-flow-edges)"


@pytest.mark.parametrize("flag", sorted(PROGRAM_PASSES))
def test_propagation_through_func_data_flow_edges_matches_cpp(flag):
    flags = FUNC_EDGES + ["-" + flag] + FUNC_SINK
    assert ours(CALLS, flags) == cpp(CALLS, f"{CPP_FUNC_EDGES},{PROGRAM_PASSES[flag]},{CPP_FUNC_SINK}")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_propagation_with_func_edges_matches_cpp_on_jax_programs(lowered, name):
    text = (lowered / f"{name}.mlir").read_text()
    if str(shardy_py.parse(text)) != cpp(text, ""):
        pytest.skip(f"{name}: our plain print differs from MLIR's before any pass (an op not declared yet)")
    flags = FUNC_EDGES + EDGES + ["-sdy-basic-propagate"] + SINK + FUNC_SINK
    pipeline = f"{CPP_FUNC_EDGES},{CPP_EDGES},sdy-basic-propagate,{CPP_SINK},{CPP_FUNC_SINK}"
    assert ours(text, flags) == cpp(text, pipeline)


@pytest.fixture(scope="module")
def sharded_lowered(tmp_path_factory) -> Path:
    """Every sharded program's text, lowered in a subprocess with 8 CPU devices."""
    out = tmp_path_factory.mktemp("jax_sharded_programs")
    subprocess.run([sys.executable, str(SHARDED_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out


def _sharded_program(sharded_lowered: Path, name: str) -> str:
    text = (sharded_lowered / f"{name}.mlir").read_text()
    if str(shardy_py.parse(text)) != cpp(text, ""):
        pytest.skip(f"{name}: our plain print differs from MLIR's before any pass (an op not declared yet)")
    return text


ALL_EDGES = FUNC_EDGES + EDGES
ALL_SINKS = SINK + FUNC_SINK
CPP_ALL_EDGES = f"{CPP_FUNC_EDGES},{CPP_EDGES}"
CPP_ALL_SINKS = f"{CPP_SINK},{CPP_FUNC_SINK}"


@pytest.mark.parametrize("flag", sorted(PROGRAM_PASSES))
@pytest.mark.parametrize("name", SHARDED)
def test_propagation_matches_cpp_on_sharded_jax_programs(sharded_lowered, name, flag):
    text = _sharded_program(sharded_lowered, name)
    out = ours(text, ALL_EDGES + ["-" + flag] + ALL_SINKS)
    assert out != str(shardy_py.parse(text)), "nothing propagated: the program does not exercise the pass"
    assert out == cpp(text, f"{CPP_ALL_EDGES},{PROGRAM_PASSES[flag]},{CPP_ALL_SINKS}")


@pytest.mark.parametrize("flag", ["sdy-basic-propagate", "sdy-user-priority-propagate"])
@pytest.mark.parametrize("name", SHARDED)
def test_import_pipeline_then_propagation_matches_cpp_on_sharded_jax_programs(sharded_lowered, name, flag):
    text = _sharded_program(sharded_lowered, name)
    assert ours(text, ["-sdy-import-pipeline", "-" + flag]) == cpp(text, f"sdy-import-pipeline,{PROGRAM_PASSES[flag]}")


def _cpp_in_child(text: str, pipeline: str) -> str:
    """``cpp`` for drawn modules, in jaxlib's child process (``cpp_oracle``): jaxlib 0.12 segfaults on some of
    them, which would take the test process with it; a module it crashes on is not drawn again."""
    answer = cpp_oracle.cpp(text, f"builtin.module({pipeline})")
    assume(not answer.startswith(cpp_oracle.CRASHED))
    return answer  # (``FAILED`` when the pipeline fails: the same text as this file's)


@_DRAWN
@given(text=sst.module_texts())
def test_propagation_matches_cpp_on_drawn_modules(text):
    module = shardy_py.parse(text)
    assume(str(module) == _cpp_in_child(text, ""))
    assume(cpp_cannot_run(module) is None)
    for flag in ("sdy-basic-propagate", "sdy-aggressive-propagate", "sdy-user-priority-propagate"):
        if flag == "sdy-user-priority-propagate" and PRIORITY.search(text):
            continue
        flags = EDGES + ["-" + flag] + SINK
        assert ours(text, flags) == _cpp_in_child(text, f"{CPP_EDGES},{PROGRAM_PASSES[flag]},{CPP_SINK}"), flag
