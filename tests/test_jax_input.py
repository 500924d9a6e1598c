"""The door from JAX: ``shardy_py.parse`` reads a ``jax.stages.Lowered``, jaxlib's ``ir.Module`` and a
``jax.export.Exported`` as it reads their text, and ``from_jax(f, *args)`` lowers a function."""
from __future__ import annotations

import subprocess
import sys

import pytest

import shardy_py

jax = pytest.importorskip("jax", reason="the JAX door needs jax (the test extra installs jax 0.12)")
jnp = pytest.importorskip("jax.numpy")
from jax.sharding import AbstractMesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

MESH = AbstractMesh((2, 4), ("data", "model"))


def layer(x, w):
    return jnp.tanh(x @ w)


def sharded_args():
    return (jax.ShapeDtypeStruct((16, 64), jnp.float32, sharding=NamedSharding(MESH, P("data", None))),
            jax.ShapeDtypeStruct((64, 256), jnp.float32, sharding=NamedSharding(MESH, P(None, "model"))))


@pytest.fixture(scope="module")
def lowered():
    return jax.jit(layer).trace(*sharded_args()).lower(lowering_platforms=("cpu",))


def test_parse_reads_a_lowered_as_its_text(lowered):
    assert str(shardy_py.parse(lowered)) == str(shardy_py.parse(lowered.as_text()))


def test_parse_reads_jaxlibs_ir_module(lowered):
    module = shardy_py.parse(lowered.compiler_ir())
    assert str(module) == str(shardy_py.parse(lowered.as_text()))
    assert module.meshes["mesh"].axis_size("model") == 4


def test_parse_reads_an_exported():
    from jax import export

    exported = export.export(jax.jit(jnp.sin))(jax.ShapeDtypeStruct((8,), jnp.float32))
    assert "stablehlo.sine" in str(shardy_py.parse(exported))


def test_from_jax_lowers_a_function_with_its_shardings(lowered):
    module = shardy_py.from_jax(layer, *sharded_args())
    assert str(module) == str(shardy_py.parse(lowered))
    arg = module.funcs["main"].regions[0].blocks[0].arguments[1]
    assert str(module.sharding_of(arg)) == '#sdy.sharding<@mesh, [{}, {"model"}]>'


def test_from_jax_takes_a_jitted_function_and_concrete_arrays():
    module = shardy_py.from_jax(jax.jit(jnp.cos), jnp.ones((4,), jnp.float32))
    assert "stablehlo.cosine" in str(module)


def test_from_jax_result_propagates(lowered):
    result = shardy_py.propagate(shardy_py.from_jax(layer, *sharded_args()))
    assert '<@mesh, [{"data"}, {"model"}]>' in str(result)


def test_anything_else_is_a_clear_type_error():
    with pytest.raises(TypeError, match="reads MLIR text .* not a builtins.int"):
        shardy_py.parse(3)
    with pytest.raises(TypeError, match="decode bytes of MLIR text first"):
        shardy_py.parse(b"module {}")


def test_shardy_py_never_imports_jax_by_itself():
    code = ("import sys, shardy_py; m = shardy_py.parse('module {}'); shardy_py.propagate; "
            "shardy_py.from_jax; assert 'jax' not in sys.modules, sorted(k for k in sys.modules if 'jax' in k)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
