"""Lower JAX programs whose inputs, outputs or intermediates carry shardings (matmuls and their
gradients, attention, loops, conditionals, constraints, reshapes, convolution, gather, nested jits;
``shard_alike`` left jax in 0.12) and write, per program, ``NAME.mlir`` (``lowered.as_text()``) into the directory
given.  Run in a subprocess by tests/test_propagation_cpp.py (JAX's device count is set before
it starts): the inputs of the propagation differential that real shardings flow through.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

F32 = jnp.float32


def _s(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def _mesh():
    return Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))


def sharded(f, in_specs, *args, out_specs=None):
    """``jax.jit(f)`` lowered with ``in_specs`` (and ``out_specs``) as named shardings on the 2x4 mesh."""
    mesh = _mesh()
    kw = {}
    if out_specs is not None:
        kw["out_shardings"] = tuple(NamedSharding(mesh, P(*s)) for s in out_specs)
    return jax.jit(f, in_shardings=tuple(NamedSharding(mesh, P(*s)) for s in in_specs), **kw).lower(*args)


def constrain(x, *spec):
    """``with_sharding_constraint`` to ``spec`` on the 2x4 mesh."""
    return lax.with_sharding_constraint(x, NamedSharding(_mesh(), P(*spec)))


def mlp(w1, w2, x):
    h = jax.nn.gelu(x @ w1)
    return jnp.sum((h @ w2) ** 2)


def attention(q, k, v):
    s = jnp.einsum("bqd,bkd->bqk", q, k) / 8.0
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, -1), v)


PROGRAMS = {
    "mlp_grad": lambda: sharded(jax.grad(mlp, argnums=(0, 1)), [(None, "model"), ("model", None), ("data", None)],
                                _s((16, 32)), _s((32, 16)), _s((8, 16))),
    "attention": lambda: sharded(attention, [("data", None, "model")] * 3,
                                 _s((4, 8, 16)), _s((4, 8, 16)), _s((4, 8, 16))),
    "scan_sharded": lambda: sharded(
        lambda xs, w: lax.scan(lambda c, x: (jnp.tanh(c @ w + x), c.sum()), jnp.zeros((8, 16)), xs),
        [(None, "data", "model"), ("model", None)], _s((5, 8, 16)), _s((16, 16))),
    "while_sharded": lambda: sharded(lambda x: lax.fori_loop(0, 3, lambda i, a: jnp.sin(a) @ a.T, x),
                                     [("data", "model")], _s((8, 8))),
    "cond_sharded": lambda: sharded(lambda p, x: lax.cond(p, lambda y: y * 2, lambda y: y.T, x),
                                    [(), ("data", "model")], _s((), jnp.bool_), _s((8, 8))),
    "constraint_chain": lambda: sharded(
        lambda x: constrain(jnp.exp(constrain(x.reshape(4, 32) + 1, None, "model")), "data", None).sum(0),
        [(None,)], _s((128,))),
    "reshape_broadcast": lambda: sharded(lambda x, b: (x.reshape(8, 4, 4) + b[None, :, None]).transpose(2, 0, 1),
                                         [("data", None), ("model",)], _s((8, 16)), _s((4,))),
    "conv_sharded": lambda: sharded(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [("data", None, None, None), (None, None, None, "model")], _s((8, 8, 8, 4)), _s((3, 3, 4, 8))),
    "gather_sharded": lambda: sharded(lambda x, i: x[i] * 2, [("data", "model"), (None,)],
                                      _s((16, 8)), _s((4,), jnp.int32)),
    "reduce_out_sharded": lambda: sharded(lambda x: (x.max(-1), x.sum(0)), [("data", "model")], _s((8, 16)),
                                          out_specs=[("data",), ("model",)]),
    "nested_jit": lambda: sharded(lambda x: jax.jit(lambda a: jnp.cos(a) @ a)(x) + jax.jit(jnp.sin)(x),
                                  [("data", "model")], _s((8, 8))),
}


if __name__ == "__main__":
    out = Path(sys.argv[1])
    for name, make in PROGRAMS.items():
        (out / f"{name}.mlir").write_text(make().as_text())
