"""No op is built from text during a pass or a conversion: with ``ModuleParser.__init__`` made to
raise, the import pipeline and the call-graph/export passes run on real modules (Shardy's own pass
test inputs and the JAX programs of tests/data/jax_programs) and still succeed, and so do the
interop conversions (shard/mesh dialect to and from sdy, XLA's round-trip format in and out, and
the ``import`` / ``export`` / ``convert`` commands, which parse their input once)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.cli import split_chunks
from shardy_py.passes.import_.import_pipeline import import_pipeline_passes
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.passes.registry import lookup
from shardy_py.syntax import parser as parser_module

CONFORMANCE = Path("/work/shared/conformance/transforms")
#: Pass flag -> Shardy's test inputs it runs on.
INPUTS = {
    "-sdy-flatten-call-graph": "import/test/flatten_call_graph.mlir",
    "-sdy-import-func-calls": "import/test/import_func_calls.mlir",
    "-sdy-pre-order-funcs": "import/test/pre_order_funcs.mlir",
    "-sdy-propagate-sharding-from-func-to-call": "import/test/propagate_sharding_from_func_to_call.mlir",
    "-sdy-sink-data-flow-edges": "export/test/sink_data_flow_edges.mlir",
    "-sdy-sink-func-data-flow-edges": "export/test/sink_func_data_flow_edges.mlir",
    "-sdy-close-shardings": "export/test/close_shardings.mlir",
    "-sdy-remove-propagation-debug-info": "export/test/remove_propagation_debug_info.mlir",
    "-sdy-import-pipeline=dedup-functions-fully=true": "import/test/import_pipeline.mlir",
    "-sdy-constant-or-scalar-merger": "export/test/constant_or_scalar_merger.mlir",
    "-sdy-drop-sharding-and-mesh": "export/test/drop_sharding_and_mesh.mlir",
    "-sdy-drop-sharding-rules": "export/test/drop_sharding_rules.mlir",
    "-sdy-export-named-computations": "export/test/export_named_computations.mlir",
    "-sdy-inline-meshes": "export/test/inline_meshes.mlir",
    "-sdy-insert-func-call-reshards": "export/test/insert_func_call_reshards.mlir",
    "-sdy-propagate-to-func-results": "export/test/propagate_to_func_results.mlir",
    "-sdy-remove-all-gather-reduce-scatter-for-cmv1": "export/test/remove_ag_rs_for_cmv1.mlir",
    "-sdy-remove-sub-axes-in-input-output-shardings": "export/test/remove_sub_axes_in_input_output_shardings.mlir",
    "-sdy-resolve-single-device-sharding": "export/test/resolve_single_device_sharding.mlir",
    "-sdy-sharding-constraint-to-reshard": "export/test/sharding_constraint_to_reshard.mlir",
    "-sdy-unflatten-call-graph=dedup-functions-fully=true":
        "export/test/unflatten_call_graph_dedup_functions_fully_true.mlir",
    "-sdy-update-non-divisible-input-output-shardings":
        "export/test/update_non_divisible_input_output_shardings.mlir",
    "-sdy-export-pipeline": "export/test/export_pipeline.mlir",
    "-sdy-propagation-pipeline": "propagation/test/propagation_pipeline.mlir",
}
PROGRAMS_SCRIPT = Path(__file__).parent / "data" / "jax_programs" / "programs.py"


class ParserEntered(AssertionError):
    """The text parser was entered while a pass ran."""


def _refuse(self, *args, **kwargs):
    raise ParserEntered("the parser was entered during a pass: an op was built from text")


def _modules(relative: str) -> list[shardy_py.Module]:
    path = CONFORMANCE / relative
    if not path.exists():
        pytest.skip(f"{path} is not here (Shardy's pass tests live in /work/shared/conformance)")
    return [shardy_py.parse(text) for text, _ in split_chunks(path.read_text())]


def _skip_unless_pipeline_complete(flag: str) -> None:
    if "import-pipeline" in flag:
        missing = sorted({n for n, _ in import_pipeline_passes(True) if lookup(n) is None})
        if missing:
            pytest.skip(f"sdy-import-pipeline runs passes not implemented yet: {', '.join(missing)}")


def test_the_patched_parser_refuses(monkeypatch):
    monkeypatch.setattr(parser_module.ModuleParser, "__init__", _refuse)
    with pytest.raises(ParserEntered):
        shardy_py.parse("func.func @f() {\n  return\n}\n")


@pytest.mark.parametrize("flag", sorted(INPUTS))
def test_pass_builds_no_op_from_text(flag, monkeypatch):
    _skip_unless_pipeline_complete(flag)
    modules = _modules(INPUTS[flag])
    before = [str(m) for m in modules]
    monkeypatch.setattr(parser_module.ModuleParser, "__init__", _refuse)
    for module in modules:
        try:
            PassManager.parse(flag).run(module)
        except PassError:  # a test input the pass rejects on purpose; ParserEntered is no PassError
            pass
    monkeypatch.undo()
    assert [str(m) for m in modules] != before


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> list[shardy_py.Module]:
    pytest.importorskip("jax", reason="the JAX programs are lowered with jax (pip install 'jax==0.10.2')")
    out = tmp_path_factory.mktemp("jax_programs_no_text")
    subprocess.run([sys.executable, str(PROGRAMS_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return sorted(out.glob("*.mlir"))


@pytest.mark.parametrize("flag", ["-sdy-import-pipeline", "-sdy-import-func-calls", "-sdy-flatten-call-graph",
                                  "-sdy-close-shardings", "-sdy-propagation-pipeline"])
def test_pass_on_jax_programs_builds_no_op_from_text(flag, programs, monkeypatch):
    _skip_unless_pipeline_complete(flag)
    modules = [shardy_py.parse(p.read_text()) for p in programs]
    monkeypatch.setattr(parser_module.ModuleParser, "__init__", _refuse)
    for module in modules:
        PassManager.parse(flag).run(module)


# -- interop conversions: the module is copied and converted through the IR, never re-read -------

DATA = Path(__file__).parent / "data"
#: Conversion -> the inputs it runs on (files of tests/data) and how it is called.
CONVERSIONS = {
    "shard to sdy": (["shard_dialect/mesh_shard_op_examples.mlir", "shard_dialect/shard_shard_op_examples.mlir",
                      "shard_dialect/mesh_sharding_op_examples.mlir", "shard_dialect/shard_ops_test_examples.mlir"],
                     lambda m: _shard().to_sdy(m)),
    "sdy to shard": (["shard_dialect/shard_shard_op_examples.sdy.mlir",
                      "shard_dialect/shard_ops_test_examples.sdy.mlir"],
                     lambda m: _shard().to_shard(m, "shard")),
    "sdy to mesh": (["shard_dialect/mesh_shard_op_examples.sdy.mlir",
                     "shard_dialect/mesh_sharding_op_examples.sdy.mlir"],
                    lambda m: _shard().to_shard(m, "mesh")),
    "xla export": (["xla_format/sdy_ops.mlir", "xla_format/jax_mlp_imported.mlir",
                    "xla_format/jax_shard_map_imported.mlir", "xla_format/jax_shard_map_tuple_imported.mlir"],
                   lambda m: _xla().export_module(m)),
    "xla import": (["xla_format/sdy_ops_exported.mlir", "xla_format/jax_mlp_round_trip.mlir",
                    "xla_format/jax_shard_map_round_trip.mlir", "xla_format/jax_shard_map_tuple_round_trip.mlir",
                    "xla_format/gspmd.mlir"],
                   lambda m: _xla().import_module(m)),
}


def _shard():
    from shardy_py.interop import shard_dialect

    return shard_dialect


def _xla():
    from shardy_py.interop import xla_format

    return xla_format


@pytest.mark.parametrize("conversion", sorted(CONVERSIONS))
def test_conversion_builds_no_op_from_text(conversion, monkeypatch):
    files, convert = CONVERSIONS[conversion]
    modules = [shardy_py.parse((DATA / f).read_text(), f) for f in files]
    before = [str(m) for m in modules]
    monkeypatch.setattr(parser_module.ModuleParser, "__init__", _refuse)
    results = [convert(m) for m in modules]
    monkeypatch.undo()
    assert [str(m) for m in modules] == before  # the inputs are left as they were
    for f, result, text in zip(files, results, before, strict=True):
        printed = str(result)
        assert printed != text, f
        assert str(shardy_py.parse(printed)) == printed, f  # what the IR holds reads back as itself


@pytest.mark.parametrize(("argv", "data"), [
    (["import"], "xla_format/jax_mlp_round_trip.mlir"),
    (["import"], "xla_format/gspmd.mlir"),
    (["export"], "xla_format/sdy_ops.mlir"),
    (["export", "--no-hlo-sharding"], "xla_format/jax_mlp_imported.mlir"),
    (["convert", "--to", "sdy"], "shard_dialect/shard_ops_test_examples.mlir"),
    (["convert", "--to", "shard", "--dialect-name", "mesh"], "shard_dialect/mesh_sharding_op_examples.sdy.mlir"),
    (["opt", "-sdy-import-pipeline"], "../../examples/transformer_stack.mlir"),
])
def test_command_reads_its_input_once(argv, data, monkeypatch, capsys):
    """``python -m shardy_py import / export / convert / opt``: the input file is parsed, once; the
    conversion (or the passes) and the printing after it never enter the parser."""
    from shardy_py.cli import main

    entered = []
    real = parser_module.ModuleParser.__init__

    def counting(self, *args, **kwargs):
        entered.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(parser_module.ModuleParser, "__init__", counting)
    assert main([argv[0], str((DATA / data).resolve()), *argv[1:]]) == 0
    monkeypatch.undo()
    out = capsys.readouterr().out
    assert len(entered) == 1
    assert out and str(shardy_py.parse(out)) == out
