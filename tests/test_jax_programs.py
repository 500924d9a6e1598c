"""Real modules as MLIR reads them: JAX programs lowered here (tests/data/jax_programs/programs.py,
covering dot_general, convolution, gather/scatter, reduce, reduce_window, select_and_scatter, sort,
while, case, select, compare, custom_call, fft, rng, complex, bitcast, collectives, ...) are printed
pretty, generic and with debug info exactly as MLIR in jaxlib prints them, read back from their
generic print, and the C++ Shardy's pass outputs on them verify clean.
"""
from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py

pytest.importorskip("jax", reason="the oracle is MLIR in jaxlib (pip install 'jax==0.10.2')")

from jax._src.interpreters import mlir as jax_mlir  # noqa: E402
from jax._src.lib.mlir import ir, passmanager  # noqa: E402

PROGRAMS_SCRIPT = Path(__file__).parent / "data" / "jax_programs" / "programs.py"
sys.path.insert(0, str(PROGRAMS_SCRIPT.parent))
from programs import PROGRAMS  # noqa: E402

NAMES = sorted(PROGRAMS)


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    """Every program's ``as_text(debug_info=True)``, lowered in a subprocess with 8 CPU devices."""
    out = tmp_path_factory.mktemp("jax_programs")
    subprocess.run([sys.executable, str(PROGRAMS_SCRIPT), str(out)], check=True, capture_output=True, timeout=600)
    return out


@functools.cache
def _context():
    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def _jaxlib(text: str, **flags) -> str:
    return ir.Module.parse(text, context=_context()).operation.get_asm(**flags)


def _source(lowered: Path, name: str) -> str:
    return (lowered / f"{name}.mlir").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_pretty_print_is_mlirs(lowered, name):
    text = _source(lowered, name)
    assert str(shardy_py.parse(text)) == _jaxlib(text)


@pytest.mark.parametrize("name", NAMES)
def test_generic_print_is_mlirs(lowered, name):
    text = _source(lowered, name)
    assert shardy_py.print_module(shardy_py.parse(text), generic=True) == _jaxlib(text, print_generic_op_form=True)


@pytest.mark.parametrize("name", NAMES)
def test_generic_text_reads_back_to_the_pretty_print(lowered, name):
    text = _source(lowered, name)
    generic = _jaxlib(text, print_generic_op_form=True)
    assert str(shardy_py.parse(generic)) == _jaxlib(text)


@pytest.mark.parametrize("name", NAMES)
def test_debug_info_print_is_mlirs(lowered, name):
    text = _source(lowered, name)
    assert shardy_py.print_module(shardy_py.parse(text), debug_info=True) == _jaxlib(text, enable_debug_info=True)


PIPELINES = {
    "propagation": "builtin.module(sdy-propagation-pipeline)",
    "populate_rules": "builtin.module(func.func(sdy-populate-op-sharding-rules))",
    "import": "builtin.module(sdy-import-pipeline)",
}


@pytest.mark.parametrize("pipeline", sorted(PIPELINES))
@pytest.mark.parametrize("name", NAMES)
def test_cpp_shardy_pass_output_verifies_clean(lowered, name, pipeline):
    module = ir.Module.parse(_source(lowered, name), context=_context())
    passmanager.PassManager.parse(PIPELINES[pipeline], context=_context()).run(module.operation)
    out = module.operation.get_asm()
    assert shardy_py.verify(shardy_py.parse(out)) == []
