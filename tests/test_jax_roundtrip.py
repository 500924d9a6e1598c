"""Modules exported by ``jax.jit(...).lower(...).as_text()`` round-trip byte-identical.

JAX needs ``jax_num_cpu_devices`` set before it initialises its backends, so the
programs are lowered in a subprocess (by ``examples/regenerate.py``, into a temp
dir); the comparison is exact, with no newline normalisation (JAX's text ends in
one ``\\n``, as ours does).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import shardy_py

pytest.importorskip("jax")

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
NAMES = ["mlp.mlir", "attention.mlir", "shard_map.mlir", "reshape_constraint.mlir"]


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("jax")
    r = subprocess.run([sys.executable, str(EXAMPLES / "regenerate.py"), str(out)], capture_output=True,
                       text=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-3000:]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_jax_lowered_text_round_trips_byte_identical(lowered, name):
    text = (lowered / name).read_text()
    assert str(shardy_py.parse(text)) == text


def test_jax_mlp_has_sharded_params(lowered):
    m = shardy_py.parse((lowered / "mlp.mlir").read_text())
    assert m.meshes["mesh"].axis_names == ("data", "model")
    args = m.funcs["main"].regions[0].block.arguments
    assert str(m.sharding_of(args[1])) == '#sdy.sharding<@mesh, [{}, {"model"}]>'
    assert any(op.name == "sdy.sharding_constraint" for op in m.walk())


def test_jax_shard_map_is_a_manual_computation(lowered):
    m = shardy_py.parse((lowered / "shard_map.mlir").read_text())
    mc = next(op for op in m.walk() if op.name == "sdy.manual_computation")
    assert mc.properties["manual_axes"].axes == ("x", "y")
    assert str(m.sharding_of(mc.results[0])) == '#sdy.sharding<@mesh, [{"x"}, {}]>'


@pytest.mark.parametrize("name", NAMES)
def test_shipped_example_matches_current_jax(lowered, name):
    """The files in examples/ are what examples/regenerate.py produces with this jax."""
    assert (EXAMPLES / name).read_text() == (lowered / name).read_text()


@pytest.mark.parametrize("name", NAMES)
def test_shipped_example_round_trips(name):
    text = (EXAMPLES / name).read_text()
    assert str(shardy_py.parse(text)) == text


@pytest.mark.parametrize("name", NAMES)
def test_shipped_example_verifies_clean(name):
    r = subprocess.run([sys.executable, "-m", "shardy_py", "verify", str(EXAMPLES / name)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
