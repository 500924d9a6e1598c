"""The XLA side of ``cost_vs_xla.py``, run in a child process (XLA's flags are read at start):
lowers and compiles JAX programs with jax 0.12 on 8 fake CPU devices and prints one JSON line per
program: the sdy module JAX gives (``lowered.as_text()``), ``memory_analysis()``'s argument and
output bytes, the compiled HLO (``compiled.as_text()``) and the sdy modules XLA's Shardy pass dumps
(``--xla_dump_to`` with ``--xla_dump_hlo_pass_re=shardy-xla``: ``02.after_propagation.mlir``,
``03.after_partitioner_passes.mlir``).

    python benchmarks/cost_xla_worker.py DUMP_DIR [--seed] [--only NAME,...]

``--seed`` compiles the embedding lookup of the seed scenario with priorities written into its
sdy module (XLA must then run with ``--xla_enable_hlo_sharding_v3=false``: the V3 shardings it
converts to drop priorities).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "data" / "jax_programs"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

F32 = jnp.float32


def _s(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def _mesh(shape=(2, 4), names=("data", "model")):
    return Mesh(np.array(jax.devices()[:int(np.prod(shape))]).reshape(shape), names)


def _jit(f, specs, *args, out_specs=None, mesh=None):
    mesh = mesh or _mesh()
    kw = {}
    if out_specs is not None:
        shardings = tuple(NamedSharding(mesh, P(*s)) for s in out_specs)
        kw["out_shardings"] = shardings[0] if len(shardings) == 1 else shardings
    return jax.jit(f, in_shardings=tuple(NamedSharding(mesh, P(*s)) for s in specs), **kw).lower(*args)


def _constrain(x, *spec):
    return lax.with_sharding_constraint(x, NamedSharding(_mesh(), P(*spec)))


def _mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def _attention(x, wq, wk, wv, wo):
    q, k, v = (jnp.einsum("bsd,dhk->bshk", x, w) for w in (wq, wk, wv))
    s = jax.nn.softmax(jnp.einsum("bqhk,bshk->bhqs", q, k) / 4.0, axis=-1)
    return jnp.einsum("bshk,hkd->bsd", jnp.einsum("bhqs,bshk->bqhk", s, v), wo)


def _lookup(w, idx):
    return -w[idx[:, 0]]


def _block(x, w1, w2, g):
    h = x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g
    return x + jax.nn.gelu(h @ w1) @ w2


#: Programs beyond tests/data/jax_programs: the kinds the issue names, sharded several ways.
EXTRA = {
    "mlp_data_parallel": lambda: _jit(_mlp, [("data", None), (None, None), (None, None)],
                                      _s((16, 64)), _s((64, 128)), _s((128, 64))),
    "mlp_megatron": lambda: _jit(_mlp, [("data", None), (None, "model"), ("model", None)],
                                 _s((16, 64)), _s((64, 128)), _s((128, 64))),
    "mlp_fsdp": lambda: _jit(_mlp, [("data", None), ("model", None), ("model", None)],
                             _s((16, 64)), _s((64, 128)), _s((128, 64))),
    "mlp_bf16_out_sharded": lambda: _jit(lambda x, w: (x @ w).astype(jnp.bfloat16), [("data", None), (None, "model")],
                                         _s((32, 64)), _s((64, 32)), out_specs=[(None, "model")]),
    "attention_heads": lambda: _jit(_attention, [("data", None, None), (None, "model", None), (None, "model", None),
                                                 (None, "model", None), ("model", None, None)],
                                    _s((4, 16, 32)), _s((32, 8, 4)), _s((32, 8, 4)), _s((32, 8, 4)), _s((8, 4, 32))),
    "attention_sequence": lambda: _jit(_attention, [(None, "model", None)] + [(None, None, None)] * 4,
                                       _s((4, 16, 32)), _s((32, 8, 4)), _s((32, 8, 4)), _s((32, 8, 4)),
                                       _s((8, 4, 32))),
    "embedding_lookup": lambda: _jit(_lookup, [(None, "model"), ("model", None)], _s((32, 16)),
                                     _s((8, 1), jnp.int32)),
    "embedding_vocab_sharded": lambda: _jit(lambda w, i: w[i], [("model", None), ("data",)], _s((64, 16)),
                                            _s((8,), jnp.int32)),
    "conv_batch_channels": lambda: _jit(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [("data", None, None, None), (None, None, None, "model")], _s((8, 16, 16, 8)), _s((3, 3, 8, 16))),
    "conv_spatial": lambda: _jit(
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [(None, "model", None, None), (None, None, None, None)], _s((2, 16, 16, 4)), _s((3, 3, 4, 4))),
    "scan_rnn": lambda: _jit(lambda xs, w: lax.scan(lambda c, x: (jnp.tanh(c @ w + x), None), jnp.zeros((8, 32)),
                                                    xs)[0], [(None, "data", None), (None, "model")],
                             _s((6, 8, 32)), _s((32, 32))),
    "scan_carry_constraint": lambda: _jit(
        lambda xs: lax.scan(lambda c, x: (_constrain(c * 2 + x, "data", "model"), c.sum()), jnp.zeros((8, 16)),
                            xs), [(None, None, "model")], _s((4, 8, 16))),
    "transformer_block": lambda: _jit(_block, [("data", None, None), (None, "model"), ("model", None), (None,)],
                                      _s((4, 8, 64)), _s((64, 256)), _s((256, 64)), _s((64,))),
    "reshard_constraint": lambda: _jit(lambda x: _constrain(jnp.sin(x), "model", "data") * 2, [("data", "model")],
                                       _s((16, 16))),
    "transpose_reshard": lambda: _jit(lambda x: x.T @ x, [("data", "model")], _s((16, 32))),
    "padding_uneven": lambda: _jit(lambda x: _constrain(jnp.exp(x[:, :6]), None, "model") + 1, [("data", None)],
                                   _s((8, 16))),
    "mixed_dtypes": lambda: _jit(lambda a, b, c: (a.astype(jnp.int8), b * 2, c + 1),
                                 [("data", "model"), ("model",), (None, "data")], _s((16, 8), jnp.bfloat16),
                                 _s((8,), jnp.int4), _s((4, 6), jnp.complex64)),
    "bool_and_fp8": lambda: _jit(lambda a, b: (a & (b > 0), b.astype(jnp.float8_e4m3fn)),
                                 [("data", None), ("data", "model")], _s((8, 4), jnp.bool_), _s((8, 4))),
}

SEED_VARIANTS = {"none": ("", ""), "p0-weights": ("p0", "p1"), "p0-indices": ("p1", "p0")}


def programs() -> dict:
    """Every program: tests/data/jax_programs' (plain and sharded) and ``EXTRA``."""
    import programs as plain
    import sharded_programs as sharded

    out = {f"data/{k}": v for k, v in plain.PROGRAMS.items()}
    out.update({f"data/{k}": v for k, v in sharded.PROGRAMS.items()})
    out.update(EXTRA)
    return out


def _shardy_dirs(dump: Path) -> set[str]:
    root = dump / "shardy"
    return {p.name for p in root.iterdir()} if root.exists() else set()


def _read(dump: Path, name: str | None, stage: str) -> str | None:
    if name is None:
        return None
    found = sorted((dump / "shardy" / name).glob(f"*{stage}.mlir"))
    return found[0].read_text() if found else None


def compile_one(name: str, lowered, dump: Path, text: str | None = None) -> dict:
    """Compile ``lowered`` (with its sdy module replaced by ``text`` when given)."""
    from jax._src.lib.mlir import ir

    if text is not None:
        with lowered._lowering._hlo.context:
            lowered._lowering._hlo = ir.Module.parse(text)
    sdy = text if text is not None else lowered.as_text()
    before = _shardy_dirs(dump)
    compiled = lowered.compile()
    new = sorted(_shardy_dirs(dump) - before)
    ma = compiled.memory_analysis()
    out_tree = jax.tree_util.tree_leaves(lowered.out_info)
    return {"name": name, "sdy": sdy, "arguments": ma.argument_size_in_bytes, "outputs": ma.output_size_in_bytes,
            "n_outputs": len(out_tree), "hlo": compiled.as_text(),
            "after_propagation": _read(dump, new[-1] if new else None, "after_propagation"),
            "after_partitioner": _read(dump, new[-1] if new else None, "after_partitioner_passes")}


def seed_variants(dump: Path) -> list[dict]:
    """The seed's embedding lookup with each priority variant written into its sdy module."""
    out = []
    base = EXTRA["embedding_lookup"]().as_text()
    for label, (wp, ip) in SEED_VARIANTS.items():
        text = base.replace('[{}, {"model"}]>}, %arg1', '[{}, {"model"}' + wp + ']>}, %arg1').replace(
            '[{"model"}, {}]>}) ->', '[{"model"}' + ip + ', {}]>}) ->')
        lowered = jax.jit(lambda w, i: _lookup(w, i), in_shardings=(NamedSharding(_mesh(), P(None, "model")),
                                                                      NamedSharding(_mesh(), P("model", None)))).lower(
            _s((32, 16)), _s((8, 1), jnp.int32))
        out.append(compile_one(f"seed/{label}", lowered, dump, text))
    return out


def main(argv: list[str]) -> None:
    dump = Path(argv[0])
    only = set()
    if "--only" in argv:
        only = set(argv[argv.index("--only") + 1].split(","))
    jax.config.update("jax_enable_compilation_cache", False)
    if "--seed" in argv:
        rows = seed_variants(dump)
    else:
        rows = []
        for name, make in programs().items():
            if only and name not in only:
                continue
            try:
                rows.append(compile_one(name, make(), dump))
            except Exception as e:  # noqa: BLE001 - a program XLA cannot compile is reported, not fatal
                rows.append({"name": name, "error": f"{type(e).__name__}: {e}"[:500]})
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main(sys.argv[1:])
