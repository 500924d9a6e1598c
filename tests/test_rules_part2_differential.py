# ruff: noqa: E501  (the pinned rules are written on one line, however long; they must be exact)
"""Part 2's sharding rules (see test_rules_part2.py) against Shardy's own tests at HEAD and against
the C++ Shardy in jaxlib 0.12 on real inputs.

* Shardy's ``op_sharding_rule_registry*.mlir`` pass tests at ``SHARDY_COMMIT``: every ``CHECK`` rule
  of a part 2 op is the rule our pass attaches, except where jaxlib 0.12 (newer) differs: there
  ours is 0.12's (``CHANGED_IN_JAXLIB_0_12``).
* The StableHLO test corpus: every chunk holding a part 2 op, our module after the pass is jaxlib's,
  normal and conservative.
* JAX programs (matmuls, convolutions, gathers and scatters, pooling and cumulative sums, sorts,
  reshapes, FFTs, slicing, triangular solves, random bits) lowered here: the same comparison.
"""
from __future__ import annotations

import re

import pytest
from conftest import corpus_chunks
from cpp_oracle import require_jax
from rules_oracle import corpus_differences, jaxlib_populate, run_pass
from test_rules_part2 import PART2_OPS

import shardy_py

jax = require_jax()

from jax import lax  # noqa: E402

jnp = jax.numpy
REGISTRY_TESTS = "transforms/propagation/test"


# ------------------------------------------------------------------------- Shardy's tests at HEAD
_FUNC = re.compile(r"^\s*func\.func (?:private )?@([\w.$-]+)")
_CHECK_RULE = re.compile(r"//\s*CHECK(?:-NEXT)?:.*sharding_rule = (#sdy\.op_sharding_rule<.*)$")
_OP = re.compile(r'^\s*(?:%[^=]+=\s*)?"?([a-z_]+\.[a-z_]+)')


def expected_rules(text: str) -> list[tuple[str, str, str]]:
    """``(function, op name, rule)`` for every ``CHECK`` rule line of a Shardy pass test: the rule
    (as FileCheck reads it, a substring of the printed rule) of the next op written in the function
    after the line."""
    out, func, pending = [], None, None
    for line in text.splitlines():
        if m := _FUNC.match(line):
            func, pending = m.group(1), None
            continue
        if m := _CHECK_RULE.search(line):
            pending = m.group(1)
            continue
        if pending and not line.lstrip().startswith("//") and (m := _OP.match(line)):
            out.append((func, m.group(1), pending))
            pending = None
    return out


def populated_rules(module) -> dict[tuple[str, str], list[str]]:
    """``(function, op name) -> [rules]`` of a module after the pass."""
    out: dict[tuple[str, str], list[str]] = {}
    for func in (op for op in module.ops if op.name == "func.func"):
        name = str(func.properties["sym_name"])
        for op in func.walk():
            if "sdy.sharding_rule" in op.attributes:
                out.setdefault((name, op.name), []).append(str(op.attributes["sdy.sharding_rule"]))
    return out


#: The functions of ``op_sharding_rule_registry.mlir`` whose ``CHECK`` rule (``SHARDY_COMMIT``) is
#: not jaxlib 0.12's, and 0.12's rule (what it prints; ``test_shardys_registry_tests_give_jaxlib_
#: the_same_modules`` re-checks the whole module against it).  The reshapes: size-1 factors and the
#: factors of one side only need replication, and the first coprime pair of sizes shares one
#: permutation factor; the dynamic_update_slices: permutation factors, whatever the indices.
CHANGED_IN_JAXLIB_0_12 = {
    "dynamic_update_slice": "#sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2} permutation={j, k, l, m}>",
    "dynamic_update_slice_constant_indices": "#sdy.op_sharding_rule<([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2} permutation={j, k, l, m}>",
    "reshape_scalar": "#sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1} need_replication={i, j}>",
    "reshape_swap_dims_with_common_divisor": "#sdy.op_sharding_rule<([ij, lm])->([ij, km]) {i=2, j=3, k=3, l=2, m=2} need_replication={k, l} permutation={j}>",
    "reshape_swap_with_dim_before_and_in_between": "#sdy.op_sharding_rule<([i, j, k, m])->([i, j, l, n]) {i=5, j=2, k=5, l=5, m=3, n=2} need_replication={k, l, m, n} permutation={j}>",
    "reshape_swap_and_merge": "#sdy.op_sharding_rule<([i, j, lm])->([i, kl, m]) {i=2, j=3, k=2, l=2, m=4} need_replication={j, k} permutation={i}>",
    "reshape_split_and_swap": "#sdy.op_sharding_rule<([i, kl, m])->([i, j, lm]) {i=3, j=3, k=2, l=2, m=4} need_replication={j, k} permutation={i}>",
    "reshape_split_swap_and_merge": "#sdy.op_sharding_rule<([ij, k, m, n])->([ij, lm, n]) {i=2, j=2, k=7, l=2, m=5, n=8} need_replication={k, l} permutation={j}>",
    "reshape_size_one_dims": "#sdy.op_sharding_rule<([i, j, l])->([j, k, l, m]) {i=1, j=8, k=1, l=4, m=1} need_replication={i, k, m}>",
    "reshape_merge_dim_then_size_one": "#sdy.op_sharding_rule<([i, j])->([ij, k]) {i=8, j=4, k=1} need_replication={k}>",
    "reshape_split_dim_then_size_one": "#sdy.op_sharding_rule<([ij, k])->([i, j]) {i=8, j=4, k=1} need_replication={k}>",
    "reshape_split_dim_with_intermediate_one": "#sdy.op_sharding_rule<([ik])->([i, j, k]) {i=8, j=1, k=4} need_replication={j}>",
}


@pytest.mark.parametrize(("file", "conservative", "count"), [
    ("op_sharding_rule_registry.mlir", False, 69),
    ("op_sharding_rule_registry_conservative.mlir", True, 4),
])
def test_shardys_registry_tests_at_head(conformance_dir, file, conservative, count):
    """``count``: how many of the file's checked rules are of part 2 ops; each is ours, but where
    jaxlib 0.12 differs (``CHANGED_IN_JAXLIB_0_12``) ours is 0.12's."""
    text = (conformance_dir / REGISTRY_TESTS / file).read_text()
    wanted = [(f, op, CHANGED_IN_JAXLIB_0_12.get(f, rule)) for f, op, rule in expected_rules(text) if op in PART2_OPS]
    got = populated_rules(run_pass(text, conservative))
    missing = [e for e in wanted if not any(e[2] in rule + "}" for rule in got.get((e[0], e[1]), []))]
    assert (len(wanted), missing) == (count, [])


def test_shardys_registry_tests_differ_from_jaxlib_0_12_only_where_pinned(conformance_dir):
    """Every pinned function's ``CHECK`` rule is one 0.12 does not print (else the pin is stale)."""
    text = (conformance_dir / REGISTRY_TESTS / "op_sharding_rule_registry.mlir").read_text()
    checked = {f: rule for f, _, rule in expected_rules(text)}
    assert all(checked[f] not in rule + "}" for f, rule in CHANGED_IN_JAXLIB_0_12.items())
    assert len(CHANGED_IN_JAXLIB_0_12) == 12


def test_shardys_registry_tests_give_jaxlib_the_same_modules(conformance_dir):
    """jaxlib 0.12 on these files: whole modules are equal (151 rules and 10 conservative ones)."""
    for file, conservative in (("op_sharding_rule_registry.mlir", False),
                               ("op_sharding_rule_registry_conservative.mlir", True)):
        text = (conformance_dir / REGISTRY_TESTS / file).read_text()
        assert str(run_pass(text, conservative)) == jaxlib_populate(text)[conservative], file


def test_shardys_explicit_reshards_on_reshapes_are_jaxlib_0_12s(conformance_dir):
    """``insert_explicit_reshards/reshape.mlir`` after ``-sdy-insert-explicit-reshards``: our module
    is jaxlib 0.12's, byte for byte.  Its ``CHECK`` lines (``SHARDY_COMMIT``) expect no reshard of
    the operand of ``@reshape_size_1_dimensions_2`` (``1x4`` to ``4x1``, operand ``[{"x"}, {}]``:
    the size-1 dimension was a pass-through factor then); 0.12's factor needs replication, so 0.12
    prints ``%0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<1x4xi32>`` before the reshape."""
    from cpp_oracle import cpp, ours

    text = (conformance_dir / "transforms/export/test/insert_explicit_reshards/reshape.mlir").read_text()
    pipeline = "builtin.module(func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
    assert ours(text, "sdy-insert-explicit-reshards=enable-full-version=true") == cpp(text, pipeline)


# ------------------------------------------------------------------------------- StableHLO corpus
_PART2_OP = re.compile(r'\b(' + "|".join(re.escape(n) for n in sorted(PART2_OPS, key=len, reverse=True)) + r')\b')


def test_stablehlo_corpus_matches_jaxlib(conformance_dir):
    """Every corpus chunk with a part 2 op: our module after the pass is jaxlib's, in both modes
    (``corpus_differences`` says what is skipped).  Where jaxlib reads a chunk but its pass fails,
    ours must fail too: the rule verifier rejects the factor sizes of dynamic dimensions, and a
    reshape such as ``3x?`` to ``12`` makes the C++ factorisation loop until memory runs out."""
    chunks = [c for c in corpus_chunks(conformance_dir / "stablehlo") if _PART2_OP.search(c)]
    counts, different = corpus_differences(chunks)
    print(dict(counts))
    assert different == []
    assert counts["compared"] >= 300 and counts["both_fail"] >= 50 and counts["both_fail_out_of_memory"] >= 1, counts
    assert counts["print_differs"] <= 1, counts


# ---------------------------------------------------------------------------------- JAX programs
def S(*shape, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype)


I32 = jnp.int32

#: name -> (function, argument shapes[, platform to lower for]).  Triangular solves are lowered for
#: TPU: for CPU, JAX calls LAPACK through a custom call instead of ``stablehlo.triangular_solve``.
PROGRAMS = {
    "matmul": (lambda a, b: a @ b, (S(16, 32), S(32, 8))),
    "attention_scores": (lambda q, k: jnp.einsum("bqhd,bkhd->bhqk", q, k), (S(2, 8, 4, 16), S(2, 6, 4, 16))),
    "matvec": (lambda a, v: a @ v, (S(16, 32), S(32))),
    "conv2d_nhwc_same": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                                               dimension_numbers=("NHWC", "HWIO", "NHWC")),
                         (S(4, 28, 28, 3), S(3, 3, 3, 16))),
    "conv2d_strided_nchw": (lambda x, w: lax.conv_general_dilated(x, w, (2, 2), "VALID"),
                            (S(8, 3, 32, 32), S(16, 3, 5, 5))),
    "conv1d_feature_groups": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", feature_group_count=4),
                              (S(2, 8, 50), S(16, 2, 3))),
    "conv1d_batch_groups": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID", batch_group_count=4),
                            (S(8, 4, 20), S(8, 4, 3))),
    "conv2d_weight_gradient": (lambda x, w: jax.grad(lambda w: lax.conv_general_dilated(x, w, (1, 1), "SAME").sum())(w),
                               (S(2, 3, 12, 12), S(6, 3, 3, 3))),
    "gather_rows": (lambda x, i: x[i], (S(64, 16), S(10, dtype=I32))),
    "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1), (S(8, 32), S(8, 4, dtype=I32))),
    "vmapped_gather": (lambda x, i: jax.vmap(lambda r, j: r[j])(x, i), (S(8, 32, 4), S(8, 5, dtype=I32))),
    "scatter_add_rows": (lambda x, i, u: x.at[i].add(u), (S(64, 16), S(10, dtype=I32), S(10, 16))),
    "scatter_set_rows": (lambda x, i, u: x.at[i].set(u), (S(64, 16), S(10, dtype=I32), S(10, 16))),
    "vmapped_scatter_max": (lambda x, i, u: jax.vmap(lambda r, j, v: r.at[j].max(v))(x, i, u),
                            (S(8, 32), S(8, 3, dtype=I32), S(8, 3))),
    "scatter_multiply_two_indices": (lambda x, i, j, u: x.at[i, j].multiply(u),
                                     (S(16, 16, 4), S(5, dtype=I32), S(5, dtype=I32), S(5, 4))),
    "max_pool": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
                 (S(4, 28, 28, 8),)),
    "sum_pool_same": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME"),
                      (S(4, 16, 16, 8),)),
    "cumsum": (lambda x: lax.cumsum(x, axis=1), (S(8, 64),)),
    "reverse_cummax": (lambda x: lax.cummax(x, axis=0, reverse=True), (S(32, 4),)),
    "sort_last_axis": (lambda x: jnp.sort(x, axis=-1), (S(8, 128),)),
    "argsort_first_axis": (lambda x: jnp.argsort(x, axis=0), (S(64, 4),)),
    "sort_vector": (lambda x: jnp.sort(x), (S(128),)),
    "sort_keys_and_values": (lambda k, v: lax.sort((k, v), dimension=1, num_keys=1), (S(4, 1, 16), S(4, 1, 16))),
    "reshape_merge": (lambda x: x.reshape(32, 12), (S(4, 8, 3, 4),)),
    "reshape_split": (lambda x: x.reshape(2, 3, 5, 7), (S(30, 7),)),
    "reshape_coprime": (lambda x: x.reshape(10, 21), (S(6, 35),)),
    "reshape_size_one_dims": (lambda x: x.reshape(1, 6, 1, 4, 1), (S(24, 1),)),
    "reshape_flatten": (lambda x: x.reshape(-1), (S(3, 5, 7),)),
    "split_heads": (lambda x: x.reshape(2, 16, 8, 64).transpose(0, 2, 1, 3), (S(2, 16, 512),)),
    "fft2": (lambda x: jnp.fft.fft2(x), (S(4, 16, 32, dtype=jnp.complex64),)),
    "rfft": (lambda x: jnp.fft.rfft(x), (S(8, 64),)),
    "irfft": (lambda x: jnp.fft.irfft(x, n=64), (S(8, 33, dtype=jnp.complex64),)),
    "pad": (lambda x: jnp.pad(x, ((0, 0), (2, 3))), (S(8, 10),)),
    "pad_interior": (lambda x: lax.pad(x, 0.0, ((1, 1, 1), (0, 0, 0))), (S(6, 4),)),
    "strided_slice": (lambda x: x[2:10, ::2], (S(16, 8),)),
    "dynamic_slice": (lambda x, i: lax.dynamic_slice(x, (i, 0), (4, 8)), (S(16, 8), S(dtype=I32))),
    "dynamic_update_slice": (lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 0)), (S(16, 8), S(4, 8), S(dtype=I32))),
    "dynamic_update_slice_at_constants": (lambda x, u: lax.dynamic_update_slice(x, u, (3, 2)), (S(16, 8), S(4, 2))),
    "flip": (lambda x: jnp.flip(x, axis=(0, 2)), (S(4, 5, 6),)),
    "transpose": (lambda x: x.transpose(2, 0, 1), (S(4, 5, 6),)),
    "where": (lambda c, a, b: jnp.where(c, a, b), (S(8, 4, dtype=jnp.bool_), S(8, 4), S(8, 4))),
    "sum_two_axes": (lambda x: x.sum(axis=(0, 2)), (S(4, 5, 6),)),
    "argmax": (lambda x: jnp.argmax(x, axis=1), (S(8, 32),)),
    "rng_bit_generator": (lambda k: lax.rng_bit_generator(k, (16, 8))[1], (S(4, dtype=jnp.uint32),)),
    "rbg_uniform": (lambda: jax.random.uniform(jax.random.key(0, impl="rbg"), (8, 16)), ()),
    "solve_triangular_batched": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
                                 (S(3, 8, 8), S(3, 8, 5)), "tpu"),
    "solve_triangular_transposed": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, trans="T"),
                                    (S(8, 8), S(8, 5)), "tpu"),
    "triangular_solve_right_side": (lambda a, b: lax.linalg.triangular_solve(a, b, left_side=False, lower=True,
                                                                             transpose_a=True),
                                    (S(6, 6), S(4, 6)), "tpu"),
}


def lower(name: str) -> str:
    """The StableHLO module of program ``name``."""
    fn, args, *platform = PROGRAMS[name]
    if platform:
        return jax.export.export(jax.jit(fn), platforms=platform)(*args).mlir_module()
    return jax.jit(fn).lower(*args).as_text()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jax_program_matches_jaxlib(name):
    text = lower(name)
    want = jaxlib_populate(text)
    assert str(shardy_py.parse(text)) == want["plain"], "our plain print differs from MLIR's"
    assert {op.name for op in shardy_py.parse(text).op.walk()} & PART2_OPS
    for conservative in (False, True):
        assert str(run_pass(text, conservative)) == want[conservative], conservative
