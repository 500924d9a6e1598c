# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""Propagation debugging (``debug-sharding-origins``, ``debug-propagation-edge-sharding``):
byte-identical to the C++ Shardy in jaxlib on every chunk of Shardy's two debugging test files,
with the flags of their RUN lines and with the other propagation passes and both options at once;
plus the exact attributes for small cases, written out."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from cpp_oracle import CRASHED, FAILED, cpp
from hypothesis import HealthCheck, assume, given, settings
from test_propagation_cpp import cpp_cannot_run

import shardy_py
from shardy_py import strategies as sst
from shardy_py.cli import split_chunks
from shardy_py.passes.manager import PassContext, PassError, PassManager
from shardy_py.passes.propagation.propagation_pipeline import PipelineStepSkipped

TEST_DIR = Path("/work/shared/conformance/transforms/propagation/debugging/test")
FILES = {"sharding_origins.mlir": ("debug-sharding-origins",), "edge_shardings.mlir": ("debug-propagation-edge-sharding",)}
BOTH = ("debug-sharding-origins", "debug-propagation-edge-sharding")
PASSES = ("sdy-aggressive-propagate", "sdy-basic-propagate", "sdy-op-priority-propagate", "sdy-user-priority-propagate")


def _flags(pass_name: str, options) -> tuple[list[str], str]:
    """Our flags and jaxlib's pipeline: add edges, apply constraints, propagate, sink, all with ``options``."""
    sink = [o.replace("debug-", "sink-debug-") for o in options]
    ours = ["-sdy-add-data-flow-edges",
            "-sdy-apply-sharding-constraints=" + " ".join(f"{o}=true" for o in options),
            f"-{pass_name}=" + " ".join(f"{o}=true" for o in options),
            "-sdy-sink-data-flow-edges=" + " ".join(f"{o}=true" for o in sink)]

    def braces(opts) -> str:
        return "{" + " ".join(f"{o}=true" for o in opts) + "}"
    pipeline = (f"builtin.module(sdy-add-data-flow-edges, sdy-apply-sharding-constraints{braces(options)}, "
                f"{pass_name}{braces(options)}, func.func(sdy-sink-data-flow-edges{braces(sink)}))")
    return ours, pipeline


def _ours(text: str, flags: list[str]) -> str:
    module = shardy_py.parse(text)
    try:
        PassManager.parse(flags).run(module)
    except PassError:
        return FAILED
    return str(module)


def _cases():
    for name, options in FILES.items():
        chunks = split_chunks((TEST_DIR / name).read_text())
        for index, (chunk, _line) in enumerate(chunks):
            for pass_name in PASSES:
                for opts in (options, BOTH):
                    if pass_name != PASSES[0] and opts == BOTH:
                        continue
                    yield pytest.param(chunk, pass_name, opts, id=f"{name}:{index}:{pass_name}:{'+'.join(opts)}")


@pytest.mark.parametrize(("chunk", "pass_name", "options"), list(_cases()))
def test_debug_info_matches_jaxlib(chunk, pass_name, options):
    """Each chunk through edges, constraints, a propagation pass and sinking, debug options on:
    our module prints exactly as jaxlib's."""
    ours_flags, pipeline = _flags(pass_name, options)
    assert _ours(chunk, ours_flags) == cpp(chunk, pipeline)


MESH = 'sdy.mesh @mesh = <["a"=2, "b"=2]>\n'

ADD_CHAIN = MESH + """func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  %2 = stablehlo.negate %1 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}"""


def test_origins_name_the_user_shardings_and_self():
    """Axis "a" comes from argument 0, "b" from the only constraint; each user sharding says
    "self" for its own axes, and the constraint is named "constraint_0"."""
    flags, _ = _flags("sdy-basic-propagate", ("debug-sharding-origins",))
    assert _ours(ADD_CHAIN, flags) == """module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "self", b = "constraint_0"}}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "constraint_0"}}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "constraint_0"}}) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "constraint_0"}]} : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "input: 0", b = "self"}} : tensor<8x8xf32>
    %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "constraint_0"}]} : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
"""


def test_edges_number_the_steps_in_propagation_order():
    """Every op records, per step, where each new axis came from and went to."""
    flags, _ = _flags("sdy-basic-propagate", ("debug-propagation-edge-sharding",))
    out = _ours(ADD_CHAIN, flags)
    add = next(line for line in out.splitlines() if "stablehlo.add" in line)
    assert add.strip() == ('%0 = stablehlo.add %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [operand-1, result-0]}]}, '
                           '{step-2 = [{"b" = result-0 -> [operand-0, operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>')


def test_without_the_options_nothing_is_recorded():
    """Propagation without debug options leaves no debug attribute."""
    out = _ours(ADD_CHAIN, ["-sdy-add-data-flow-edges", "-sdy-apply-sharding-constraints", "-sdy-basic-propagate",
                            "-sdy-sink-data-flow-edges"])
    assert "sdy.sharding_origin" not in out and "sdy.propagation_edges" not in out


def test_manual_computation_without_edges_is_a_clear_error():
    """Origins of a manual computation live on its data-flow edges: without them, a located error."""
    text = MESH + """func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    module = shardy_py.parse(text)
    with pytest.raises(PassError) as err:
        PassManager.parse(["-sdy-basic-propagate=debug-sharding-origins=true"]).run(module)
    assert [f"{d.severity}: {d.message}" for d in err.value.diagnostics] == [
        "error: debug-sharding-origins needs the data-flow edges of sdy.manual_computation "
        "(run -sdy-add-data-flow-edges first)"]


# -- the propagation pipeline with the debug options, on JAX programs --------------------------------

PROGRAMS_DIR = Path(__file__).parent / "data" / "jax_programs"
SHARDED_SCRIPT = PROGRAMS_DIR / "sharded_programs.py"
#: Programs whose debug run fails on both sides: none with jaxlib 0.12 (0.10.2 recorded propagation
#: edges on a while loop's sdy.data_flow_edge that its verifier then rejected; 0.12 checks no edge index
#: on a data-flow edge, and ours follows it).
BOTH_FAIL: set[str] = set()
#: jax 0.12 has no shard_alike: its lowering is the saved ``SHARD_ALIKE`` text.
CPP_CRASHES = {"shard_alike"}
#: ``jax.experimental.shard_alike`` (sharding groups) as jax 0.10.2 lowered it; jax 0.12 has no
#: shard_alike, so the text is kept.
SHARD_ALIKE = PROGRAMS_DIR / "shard_alike_jax0_10.mlir"
SHARDED_NAMES = sorted(re.findall(r'^    "(\w+)": lambda', SHARDED_SCRIPT.read_text(), re.M))
DEBUG = {"debug_sharding_origins": True, "debug_propagation_edge_sharding": True}


def cpp_pipeline(**options) -> str:
    """jaxlib's pipeline of the same steps ``shardy_py.propagate`` runs with ``options``."""
    from shardy_py.passes.propagation.propagation_pipeline import propagation_pipeline_passes
    from shardy_py.passes.registry import lookup

    parts = []
    for name, opts in propagation_pipeline_passes(**options):
        cls = lookup(name)
        spelled = {o.name.replace("-", "_"): o.name for o in cls.options}
        flags = " ".join(f"{spelled[k]}={'true' if v else 'false'}" for k, v in opts.items() if k in spelled)
        text = name + ("{" + flags + "}" if flags else "")
        parts.append(f"func.func({text})" if cls.anchor == "func.func" else text)
    return "builtin.module(" + ",".join(parts) + ")"


@pytest.fixture(scope="module")
def sharded_lowered(tmp_path_factory) -> Path:
    """Every sharded program's text, lowered in a subprocess with 8 CPU devices."""
    out = tmp_path_factory.mktemp("jax_sharded_programs")
    subprocess.run([sys.executable, str(SHARDED_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out


def _propagate_text(text: str, **options) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PipelineStepSkipped)
        try:
            return str(shardy_py.propagate(shardy_py.parse(text), **options))
        except PassError:
            return FAILED


@pytest.mark.parametrize("name", [n for n in SHARDED_NAMES if n not in CPP_CRASHES])
def test_propagate_with_debug_info_matches_jaxlib_on_sharded_programs(sharded_lowered, name):
    """``shardy_py.propagate`` with both debug options keeps the debug attributes Shardy writes:
    the module is jaxlib's after the same pipeline steps, byte for byte (or both fail)."""
    text = (sharded_lowered / f"{name}.mlir").read_text()
    ours = _propagate_text(text, **DEBUG)
    assert ours == cpp(text, cpp_pipeline(**DEBUG))
    assert (ours == FAILED) == (name in BOTH_FAIL)
    if ours != FAILED:
        assert "sdy.sharding_origins" in ours and "sdy.propagation_edges" in ours


def _cpp_in_subprocess(text: str, pipeline: str) -> subprocess.CompletedProcess:
    """jaxlib's run of ``pipeline`` on ``text`` in a child process (where it may crash)."""
    here = str(Path(__file__).parent)
    script = f"import sys; sys.path.insert(0, {here!r}); from cpp_oracle import cpp; print(cpp(sys.stdin.read(), {pipeline!r}))"
    return subprocess.run([sys.executable, "-c", script], input=text, capture_output=True, text=True, timeout=600)


def test_missing_origin_is_left_out_as_jaxlib_leaves_it_and_warned():
    """shard_alike with debug-sharding-origins: a sharding group member gets its sharding with no
    origin recorded.  jaxlib 0.10.2 died there (SIGSEGV, llvm_unreachable); jaxlib 0.12 leaves those
    axes without an origin, and so does ours, byte for byte (run in a subprocess all the same).  Ours
    also warns at the value's op."""
    text = SHARD_ALIKE.read_text()
    run = _cpp_in_subprocess(text, cpp_pipeline(debug_sharding_origins=True))
    assert run.returncode == 0
    assert _propagate_text(text, debug_sharding_origins=True) + "\n" == run.stdout
    module = shardy_py.parse(text)
    ctx = PassContext()
    flags = ["-sdy-add-data-flow-edges", "-sdy-sharding-group-import", "-sdy-user-priority-propagate=debug-sharding-origins=true"]
    PassManager.parse(flags).run(module, ctx)
    assert [(d.severity, d.message) for d in ctx.diagnostics] == [(
        "warning", "debug-sharding-origins: no origin is known for axis data of %3 (its sharding is not a user "
        "sharding Shardy tracks, e.g. an sdy.reshard's or a sharding group's); the axes it passes on are left "
        "without an origin")]


RESHARD = """sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""


def test_reshard_axes_have_no_origin_recorded():
    """An sdy.reshard's sharding is not a user sharding the C++ tracks: jaxlib 0.10.2 looked up the
    origin of what it passes on anyway (undefined behaviour: the unnamed origin ": 0", or a crash);
    jaxlib 0.12 records none, as ours does, and prints the module ours prints.  Ours also warns once
    per value and axis passed on (the reshard result to the negate, the negate result to the
    function result)."""
    flags, pipeline = _flags("sdy-aggressive-propagate", ("debug-sharding-origins",))
    run = _cpp_in_subprocess(RESHARD, pipeline)
    assert run.returncode == 0
    module = shardy_py.parse(RESHARD)
    ctx = PassContext()
    PassManager.parse(flags).run(module, ctx)
    assert str(module) == run.stdout.removesuffix("\n")
    assert "sdy.sharding_origins" not in str(module)
    assert [(d.severity, d.line, d.message.split(" (")[0]) for d in ctx.diagnostics] == [
        ("warning", 3, "debug-sharding-origins: no origin is known for axis x of %0"),
        ("warning", 4, "debug-sharding-origins: no origin is known for axis x of %1")]


# -- drawn modules ----------------------------------------------------------------------------------

PRIORITY = re.compile(r"\}p[1-9]")


_CPP_BATCH = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); from cpp_oracle import cpp; "
    "text, pipelines = json.load(sys.stdin); print(json.dumps([cpp(text, p) for p in pipelines]))")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=sst.module_texts())
def test_debug_info_matches_jaxlib_on_drawn_modules(text):
    """Drawn modules through edges, constraints, aggressive / user-priority propagation and
    sinking with both debug options: jaxlib's module exactly.  jaxlib runs in a child process: its
    origin lookups are undefined behaviour wherever a value without a tracked user sharding passes
    an axis on (see the two tests above), which may crash it.  Such runs, those where ours warns that
    an origin is unknown (the same lookups), and what the C++ cannot run at all
    (test_propagation_cpp.cpp_cannot_run; user priorities above 0 can crash its user-priority pass)
    are not compared."""
    module = shardy_py.parse(text)
    assume(str(module) == cpp(text, "builtin.module()"))
    assume(cpp_cannot_run(module) is None)
    passes = [p for p in ("sdy-aggressive-propagate", "sdy-user-priority-propagate")
              if p == "sdy-aggressive-propagate" or not PRIORITY.search(text)]
    ours = {}
    for pass_name in passes:
        flags, _pipeline = _flags(pass_name, BOTH)
        m = shardy_py.parse(text)
        ctx = PassContext()
        try:
            PassManager.parse(flags).run(m, ctx)
            printed = str(m)
        except PassError:
            printed = FAILED
        if not any("no origin is known" in d.message for d in ctx.diagnostics):
            ours[pass_name] = printed
    assume(ours)
    run = subprocess.run([sys.executable, "-c", _CPP_BATCH, str(Path(__file__).parent)],
                         input=json.dumps([text, [_flags(p, BOTH)[1] for p in ours]]),
                         capture_output=True, text=True, timeout=600)
    assume(run.returncode == 0)
    for (pass_name, printed), expected in zip(ours.items(), json.loads(run.stdout), strict=True):
        if expected.startswith(CRASHED):
            continue  # the worker died on this one (undefined behaviour, as above)
        assert printed == expected, pass_name


MAXIMAL_CONSTRAINT = """sdy.mesh @mesh = <["x"=3, "y"=12]>
sdy.mesh @m = <[], device_ids=[0]>
func.func @main(%arg0: tensor<1xf32>) -> tensor<1xf32> {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=1}>} : tensor<1xf32>
  %1 = sdy.sharding_constraint %arg0 <@m, []> : tensor<1xf32>
  return %arg0 : tensor<1xf32>
}
"""


def test_a_constraint_on_a_maximal_mesh_applied_with_debug_origins_records_no_projection():
    """Drawn-module finding: applying a constraint on a maximal mesh (no dim shardings, any rank)
    projected it onto the op's rank-1 rule and raised; nothing is projected on a maximal mesh, as in
    propagation.  (jaxlib's process dies on this input, so there is nothing to compare.)"""
    flags, _ = _flags("sdy-aggressive-propagate", BOTH)
    assert _ours(MAXIMAL_CONSTRAINT, flags) == (
        'module {\n  sdy.mesh @mesh = <["x"=3, "y"=12]>\n  sdy.mesh @m = <[], device_ids=[0]>\n'
        '  func.func @main(%arg0: tensor<1xf32> {sdy.sharding = #sdy.sharding<@m, []>}) -> tensor<1xf32> {\n'
        '    %0 = sdy.sharding_constraint %arg0 <@m, []> {sdy.sharding_origin_name = "constraint_0"} '
        ': tensor<1xf32>\n    return %arg0 : tensor<1xf32>\n  }\n}\n')
