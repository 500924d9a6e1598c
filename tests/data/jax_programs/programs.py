"""Lower a few dozen JAX programs covering the ops real models use, and write, per program, into
the directory given: ``NAME.mlir``, ``lowered.as_text(debug_info=True)`` (JAX's text with
locations).  Run in a subprocess by tests/test_jax_programs.py (JAX's device count is set before
it starts).
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
from jax.experimental import io_callback  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

F32 = jnp.float32


def _s(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def _mesh():
    return Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))


def _sharded(f, specs, *args):
    mesh = _mesh()
    return jax.jit(f, in_shardings=tuple(NamedSharding(mesh, P(*s)) for s in specs)).lower(*args)


def _composite(x):
    """``jax.lax.composite``: a ``stablehlo.composite`` whose ``decomposition = @fn`` is the only use
    of a private function."""
    scaled_tanh = lax.composite(lambda y, *, scale: jnp.tanh(y) * scale, name="my.tanh_scale")
    return scaled_tanh(x, scale=2.0) + 1


def _host(x):
    return np.asarray(x) + 1


def _io_callback_sharded():
    """An ordered host callback (token in and out, on ``@maximal_mesh_0``) after a sharded op."""
    f = lambda x: io_callback(_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x * 2, ordered=True)  # noqa: E731
    return jax.jit(f, in_shardings=NamedSharding(_mesh(), P("data", "model"))).lower(_s((8, 8)))


def _unreduced_dot():
    """A dot whose result is ``unreduced`` over the contracted axis (explicit sharding mode)."""
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Explicit,) * 2)

    def f(a, b):
        return jnp.einsum("ij,jk->ik", a, b, out_sharding=P(None, None, unreduced={"model"}))

    with jax.set_mesh(mesh):
        return jax.jit(f).lower(jax.ShapeDtypeStruct((8, 16), F32, sharding=NamedSharding(mesh, P(None, "model"))),
                                jax.ShapeDtypeStruct((16, 8), F32, sharding=NamedSharding(mesh, P("model", None))))


PROGRAMS = {
    "dot_general": lambda: jax.jit(lambda a, b: jnp.einsum("bij,bjk->bik", a, b)).lower(_s((2, 4, 8)), _s((2, 8, 3))),
    "matmul_sharded": lambda: _sharded(lambda a, b: jnp.tanh(a @ b), [("data", None), (None, "model")],
                                       _s((16, 32)), _s((32, 8))),
    "convolution": lambda: jax.jit(lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))).lower(_s((1, 8, 8, 3)), _s((3, 3, 3, 4))),
    "conv_dilated": lambda: jax.jit(lambda x, w: lax.conv_general_dilated(
        x, w, (2, 2), [(1, 1), (0, 0)], lhs_dilation=(1, 1), rhs_dilation=(2, 1),
        feature_group_count=1)).lower(_s((1, 3, 9, 9)), _s((4, 3, 2, 2))),
    "gather": lambda: jax.jit(lambda x, i: x[i]).lower(_s((10, 4)), _s((3,), jnp.int32)),
    "gather_2d": lambda: jax.jit(lambda x, i, j: x[i, j]).lower(_s((5, 6, 7)), _s((4,), jnp.int32),
                                                                 _s((4,), jnp.int32)),
    "scatter_add": lambda: jax.jit(lambda x, i, u: x.at[i].add(u)).lower(_s((10, 4)), _s((3,), jnp.int32),
                                                                         _s((3, 4))),
    "scatter_set": lambda: jax.jit(lambda x, i: x.at[i].set(0.0)).lower(_s((10,)), _s((2,), jnp.int32)),
    "reduce_sum": lambda: jax.jit(lambda x: x.sum(axis=1)).lower(_s((4, 8))),
    "reduce_argmax": lambda: jax.jit(lambda x: jnp.argmax(x, axis=0)).lower(_s((6, 3))),
    "reduce_window": lambda: jax.jit(lambda x: lax.reduce_window(
        x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")).lower(_s((1, 8, 8, 2))),
    "avg_pool": lambda: jax.jit(lambda x: lax.reduce_window(
        x, 0.0, lax.add, (2, 2), (1, 1), [(1, 0), (0, 1)])).lower(_s((6, 6))),
    "select_and_scatter": lambda: jax.jit(jax.grad(lambda x: lax.reduce_window(
        x, -jnp.inf, lax.max, (2, 2), (2, 2), "VALID").sum())).lower(_s((4, 4))),
    "sort": lambda: jax.jit(lambda x: jnp.sort(x, axis=-1)).lower(_s((3, 5))),
    "argsort": lambda: jax.jit(lambda x: jnp.argsort(x)).lower(_s((7,))),
    "top_k": lambda: jax.jit(lambda x: lax.top_k(x, 3)).lower(_s((4, 9))),
    "while_loop": lambda: jax.jit(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0),
                                                           (0, 1.0))).lower(_s((), jnp.int32)),
    "fori_loop": lambda: jax.jit(lambda x: lax.fori_loop(0, 5, lambda i, a: a + i, x)).lower(_s((3,))),
    "scan": lambda: jax.jit(lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs)).lower(_s((6,))),
    "cond": lambda: jax.jit(lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x)).lower(_s((), jnp.bool_), _s((3,))),
    "switch": lambda: jax.jit(lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.exp], x)).lower(
        _s((), jnp.int32), _s((2,))),
    "select_compare": lambda: jax.jit(lambda a, b: jnp.where(a > b, a, b * 2)).lower(_s((4,)), _s((4,))),
    "compare_int": lambda: jax.jit(lambda a, b: (a == b) | (a < 3)).lower(_s((4,), jnp.int32), _s((4,), jnp.int32)),
    "custom_call_cholesky": lambda: jax.jit(jnp.linalg.cholesky).lower(_s((4, 4))),
    "custom_call_eigh": lambda: jax.jit(jnp.linalg.eigh).lower(_s((3, 3))),
    "fft": lambda: jax.jit(jnp.fft.fft).lower(_s((8,), jnp.complex64)),
    "rfft2": lambda: jax.jit(jnp.fft.rfft2).lower(_s((4, 8))),
    "rng_threefry": lambda: jax.jit(lambda k: jax.random.normal(k, (3,))).lower(jax.random.key(0)),
    "rng_bit_generator": lambda: jax.jit(lambda k: lax.rng_bit_generator(k, (2, 3))).lower(_s((4,), jnp.uint32)),
    "complex_ops": lambda: jax.jit(lambda a, b: jnp.abs(lax.complex(a, b)) + jnp.angle(lax.complex(a, b))).lower(
        _s((3,)), _s((3,))),
    "bitcast": lambda: jax.jit(lambda x: lax.bitcast_convert_type(x, jnp.int32)).lower(_s((4,))),
    "convert_types": lambda: jax.jit(lambda x: x.astype(jnp.bfloat16).astype(jnp.int8)).lower(_s((4,))),
    "iota_concat_slice": lambda: jax.jit(lambda x: jnp.concatenate([x[1:3], jnp.arange(2.0)])).lower(_s((5,))),
    "pad_transpose_reverse": lambda: jax.jit(lambda x: jnp.flip(jnp.pad(x, ((1, 0), (0, 2))).T, 0)).lower(_s((2, 3))),
    "dynamic_slice": lambda: jax.jit(lambda x, i: lax.dynamic_slice(x, (i, 0), (2, 3))).lower(
        _s((5, 3)), _s((), jnp.int32)),
    "dynamic_update_slice": lambda: jax.jit(lambda x, u, i: lax.dynamic_update_slice(x, u, (i,))).lower(
        _s((6,)), _s((2,)), _s((), jnp.int32)),
    "clamp_round": lambda: jax.jit(lambda x: jnp.round(jnp.clip(x, -1.0, 1.0))).lower(_s((3,))),
    "cumsum": lambda: jax.jit(lambda x: jnp.cumsum(x)).lower(_s((8,))),
    "integer_ops": lambda: jax.jit(lambda a, b: (a // b, a % b, a << 1, a >> 1, ~a, a ^ b)).lower(
        _s((3,), jnp.int32), _s((3,), jnp.int32)),
    "softmax_sharded": lambda: _sharded(lambda x: jax.nn.softmax(x, axis=-1), [("data", "model")], _s((8, 16))),
    "layer_norm": lambda: jax.jit(lambda x: (x - x.mean(-1, keepdims=True)) * lax.rsqrt(x.var(-1, keepdims=True)
                                                                                          + 1e-6)).lower(_s((4, 8))),
    "grad_mlp": lambda: jax.jit(jax.grad(lambda w, x: jnp.sum(jax.nn.relu(x @ w) ** 2))).lower(
        _s((8, 4)), _s((2, 8))),
    "optimization_barrier": lambda: jax.jit(lambda x: lax.optimization_barrier((x, x + 1))).lower(_s((2,))),
    "shard_map_psum": lambda: jax.jit(jax.shard_map(lambda a: jax.lax.psum(a, "model"), mesh=_mesh(),
                                                    in_specs=P("data", "model"), out_specs=P("data", None))).lower(
        _s((8, 8))),
    "all_gather": lambda: jax.jit(jax.shard_map(lambda a: jax.lax.all_gather(a, "model", tiled=True), mesh=_mesh(),
                                                in_specs=P(None, "model"), out_specs=P(), check_vma=False)).lower(
        _s((4, 8))),
    "ppermute": lambda: jax.jit(jax.shard_map(
        lambda a: jax.lax.ppermute(a, "model", [(i, (i + 1) % 4) for i in range(4)]), mesh=_mesh(),
        in_specs=P("model"), out_specs=P("model"))).lower(_s((8,))),
    "composite": lambda: jax.jit(_composite).lower(_s((4, 8))),
    "pure_callback": lambda: jax.jit(lambda x: jax.pure_callback(_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
                                     * 2).lower(_s((4,))),
    "io_callback": lambda: jax.jit(lambda x: io_callback(_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                                                         ordered=True)).lower(_s((4,))),
    "io_callback_sharded": _io_callback_sharded,
    "shard_map_matmul": lambda: jax.jit(jax.shard_map(
        lambda a, b: jax.lax.psum(a @ b, "model"), mesh=_mesh(), in_specs=(P("data", "model"), P("model", None)),
        out_specs=P("data", None))).lower(_s((8, 16)), _s((16, 4))),
    "unreduced_dot": _unreduced_dot,
    "reduce_precision": lambda: jax.jit(lambda x: lax.reduce_precision(x, 5, 10)).lower(_s((3,))),
    "erf_inv_log1p": lambda: jax.jit(lambda x: lax.erf_inv(x) + jnp.log1p(x) + lax.lgamma(x)).lower(_s((3,))),
}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, program in PROGRAMS.items():
        (out / f"{name}.mlir").write_text(program().as_text(debug_info=True))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
