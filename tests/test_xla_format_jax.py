"""``import``/``export`` against jaxlib 0.10.2: JAX's programs, XLA's own import, the C++ Shardy.

The programs of ``data/xla_format/jax_programs.py`` are lowered in a subprocess (JAX's device count
must be set before it starts).  For each one:

- ``import`` of the round-trip form gives the function argument and result shardings and meshes
  that XLA's ``xla-sdy-round-trip-import-shardy-attrs`` pass gives, and those of JAX's sdy text;
- manual computations come back with JAX's in/out shardings and manual axes;
- ``export`` of JAX's sdy text is read back by XLA (its import pass, and HLO translation) with the
  same shardings, and ``import`` of it gives JAX's sdy text back;
- every output parses and verifies in the C++ Shardy.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py
from shardy_py.interop.xla_format import export_module, import_module

pytest.importorskip("jax")

DATA = Path(__file__).resolve().parent / "data" / "xla_format"
PROGRAMS = ["mlp", "three_axes", "shard_map_psum", "shard_map_two_operands_partial"]


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("xla_format")
    r = subprocess.run([sys.executable, str(DATA / "jax_programs.py"), str(out)], capture_output=True, text=True,
                       timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-3000:]
    return out


def cpp(text: str, passes: str | None = None) -> str:
    """Parse (and verify) ``text`` with jaxlib's MLIR and C++ Shardy; run ``passes``; print it back."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir, passmanager

    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        if passes:
            passmanager.PassManager.parse(f"builtin.module({passes})").run(module.operation)
        return module.operation.get_asm(enable_debug_info=False)


def xla_import(text: str) -> str:
    """XLA's own import pass (the one jaxlib 0.10.2 registers) on a round-trip-format module."""
    return cpp(text, "xla-sdy-round-trip-import-shardy-attrs")


def via_hlo(text: str) -> str:
    """What XLA keeps of ``text``: MLIR -> HLO -> MLIR with jaxlib."""
    from jax._src.lib import _jax

    computation = _jax.mlir.mlir_module_to_xla_computation(text, use_tuple_args=False, return_tuple=False)
    return _jax.mlir.xla_computation_to_mlir_module(computation)


def func_shardings(m: shardy_py.Module) -> dict:
    """Meshes and main's argument/result shardings, as text."""
    main = m.funcs["main"]
    return {"meshes": {k: str(v) for k, v in m.meshes.items()},
            "args": [str(a.get("sdy.sharding")) for a in main.properties["arg_attrs"]],
            "results": [str(a.get("sdy.sharding")) for a in main.properties["res_attrs"]]}


def manual_computations(m: shardy_py.Module) -> list[tuple[str, str, str]]:
    return [(str(op.properties["in_shardings"]), str(op.properties["out_shardings"]),
             str(op.properties["manual_axes"])) for op in m.walk() if op.name == "sdy.manual_computation"]


def sdy_form(lowered: Path, name: str) -> shardy_py.Module:
    """JAX's sdy text, its meshes' discardable attributes dropped (the round-trip format has no room for them)."""
    m = shardy_py.parse((lowered / f"{name}.sdy.mlir").read_text())
    for op in m.ops:
        if op.name == "sdy.mesh":
            op.attributes.clear()
    return m


def without_renamed_duplicates(shardings: dict) -> dict:
    """``func_shardings`` without the meshes XLA's import adds under a uniqued name (``@mesh_0``) for an
    ``xla.sdy.meshes`` entry whose name an identical ``sdy.mesh`` op already holds (JAX 0.12 writes both when
    a collective names the mesh in ``#stablehlo.replica_group_mesh_axes``); the shardings keep naming
    ``@mesh``, so the copy is never used.  ``import`` keeps the one mesh."""
    meshes = shardings["meshes"]
    kept = {name: mesh for name, mesh in meshes.items()
            if not (re.fullmatch(r"(.+)_\d+", name) and meshes.get(name.rsplit("_", 1)[0]) == mesh)}
    return {**shardings, "meshes": kept}


@pytest.mark.parametrize("name", PROGRAMS)
def test_import_gives_the_shardings_xlas_import_gives(lowered, name):
    rt = (lowered / f"{name}.rt.mlir").read_text()
    ours = import_module(shardy_py.parse(rt))
    theirs = shardy_py.parse(xla_import(rt))
    assert func_shardings(ours) == without_renamed_duplicates(func_shardings(theirs))


def test_import_keeps_one_mesh_where_jax_writes_it_twice():
    rt = ('module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\22x\\22=2]>}"}} {\n'
          '  sdy.mesh @mesh = <["x"=2]>\n'
          '  func.func @main(%arg0: tensor<4xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = '
          '"#sdy.sharding<@mesh, [{\\22x\\22}]>"}}) -> tensor<4xf32> {\n'
          '    return %arg0 : tensor<4xf32>\n  }\n}\n')
    assert str(import_module(shardy_py.parse(rt))) == (
        'module {\n  sdy.mesh @mesh = <["x"=2]>\n'
        '  func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {\n'
        '    return %arg0 : tensor<4xf32>\n  }\n}\n')


def test_import_refuses_a_mesh_written_twice_as_two_meshes():
    rt = ('module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\\22x\\22=2]>}"}} {\n'
          '  sdy.mesh @mesh = <["x"=4]>\n}\n')
    with pytest.raises(shardy_py.ParseError, match=r'mesh @mesh is also defined by an sdy.mesh op, as another mesh'):
        import_module(shardy_py.parse(rt))


@pytest.mark.parametrize("name", PROGRAMS)
def test_import_gives_the_shardings_and_manual_computations_of_jaxs_sdy_text(lowered, name):
    ours = import_module(shardy_py.parse((lowered / f"{name}.rt.mlir").read_text()))
    reference = sdy_form(lowered, name)
    # JAX's sdy text may hold a mesh twice (@mesh and @mesh_0 for a collective's replica groups); its
    # round-trip form holds it once, so only the meshes of distinct values are compared
    assert without_renamed_duplicates(func_shardings(ours)) == without_renamed_duplicates(func_shardings(reference))
    assert manual_computations(ours) == manual_computations(reference)
    constraints = lambda m: [str(op.properties["sharding"]) for op in m.walk()  # noqa: E731
                             if op.name == "sdy.sharding_constraint"]
    assert set(constraints(reference)) <= set(constraints(ours))


@pytest.mark.parametrize("name", PROGRAMS)
def test_import_output_verifies_in_shardy_py_and_the_cpp_shardy(lowered, name):
    text = str(import_module(shardy_py.parse((lowered / f"{name}.rt.mlir").read_text())))
    assert shardy_py.verify(shardy_py.parse(text)) == []
    cpp(text)


@pytest.mark.parametrize("name", PROGRAMS)
def test_export_is_read_back_by_xla_with_jaxs_shardings(lowered, name):
    reference = sdy_form(lowered, name)
    exported = str(export_module(reference))
    cpp(exported)
    expected = without_renamed_duplicates(func_shardings(reference))
    assert without_renamed_duplicates(func_shardings(shardy_py.parse(xla_import(exported)))) == expected
    after_hlo = import_module(shardy_py.parse(via_hlo(exported)))
    assert without_renamed_duplicates(func_shardings(after_hlo)) == expected
    assert manual_computations(after_hlo) == manual_computations(reference)


@pytest.mark.parametrize("name", PROGRAMS)
def test_export_then_import_gives_jaxs_sdy_text_back(lowered, name):
    reference = sdy_form(lowered, name)
    assert str(import_module(export_module(reference))) == str(reference)
