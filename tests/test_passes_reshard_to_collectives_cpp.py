# ruff: noqa: E501  (MLIR inputs are written one op per line, however long)
"""``-sdy-reshard-to-collectives`` against the C++ Shardy in jaxlib 0.12: function by function
over Shardy's test inputs for the pass (transforms/export/test/reshard_to_collectives*.mlir), and
on drawn reshards (fixed seeds): random meshes with sub-axes, ranks 1-3, random input and output
shardings; the second generator draws small dimensions and axes of 3 and 6 too, so that shardings
which pad a dimension (jaxlib 0.12's gather-first rule, tests/test_passes_reshard_to_collectives_padding.py)
are common, and puts one side on the mesh in another device order now and then.

Every function of the test files is compared: jaxlib 0.12 keeps a reshard from or to a
single-device mesh as the file's CHECK lines do, and where it departs from them
(``all_to_all_axes_at_src_and_tgt_out_of_order``) the function is pinned in the padding tests."""
from __future__ import annotations

import math
import random

import pytest
from cpp_oracle import cpp, cpp_or_unread, ours
from test_passes_explicit_reshards_cpp import per_function

import shardy_py
from shardy_py.verify import verify

pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.12.0.1')")

FLAGS = {
    "reshard_to_collectives.mlir": ("sdy-reshard-to-collectives",
                                    "builtin.module(func.func(sdy-reshard-to-collectives))"),
    "reshard_to_collectives_keep_redundant_reshards_true.mlir": (
        "sdy-reshard-to-collectives=keep-redundant-reshards=true",
        "builtin.module(func.func(sdy-reshard-to-collectives{keep-redundant-reshards=true}))"),
}


@pytest.mark.parametrize("relative", sorted(FLAGS))
def test_reshard_to_collectives_matches_jaxlib_on_shardys_tests(relative, conformance_dir):
    flag, pipeline = FLAGS[relative]
    compared = 0
    for text in per_function((conformance_dir / "transforms/export/test" / relative).read_text()):
        assert str(shardy_py.parse(text)) == cpp(text, "builtin.module()")
        assert ours(text, flag) == cpp(text, pipeline), text
        compared += 1
    assert compared >= (98 if relative == "reshard_to_collectives.mlir" else 3)


def _axis_pool(rnd: random.Random, names: str, sizes: list[int]) -> list[str]:
    """The axes to shard with: each axis, or now and then (an even one above 2) its two sub-axes."""
    pool = [f'"{a}"' for a in names]
    for a, s in zip(names, sizes, strict=True):
        if s % 2 == 0 and s > 2 and rnd.random() < 0.3:
            pool.remove(f'"{a}"')
            pool += [f'"{a}":(1)2', f'"{a}":(2){s // 2}']
    return pool


def _sharding(rnd: random.Random, pool: list[str], rank: int) -> str:
    """Some axes of ``pool``, each on a random dimension."""
    axes = rnd.sample(pool, rnd.randint(0, len(pool)))
    dims: list[list[str]] = [[] for _ in range(rank)]
    for a in axes:
        dims[rnd.randrange(rank)].append(a)
    return "[" + ", ".join("{" + ", ".join(d) + "}" for d in dims) + "]"


def _reshard(meshes: str, shape: str, source: str, target: str) -> str:
    return (f"{meshes}func.func @f(%arg0: tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<{source}>}})"
            f" -> tensor<{shape}xf32> {{\n"
            f"  %0 = sdy.reshard %arg0 <{target}> : tensor<{shape}xf32>\n"
            f"  return %0 : tensor<{shape}xf32>\n}}")


def drawn_reshard(rnd: random.Random) -> str:
    """A function with one reshard between two random shardings of one random mesh."""
    sizes = [rnd.choice([2, 2, 4, 8]) for _ in range(rnd.randint(2, 4))]
    names = "xyzw"[:len(sizes)]
    pool = _axis_pool(rnd, names, sizes)
    rank = rnd.randint(1, 3)
    shape = "x".join(str(rnd.choice([8, 16, 32, 64])) for _ in range(rank))
    mesh = ", ".join(f'"{a}"={s}' for a, s in zip(names, sizes, strict=True))
    source = _sharding(rnd, pool, rank)
    return _reshard(f"sdy.mesh @mesh = <[{mesh}]>\n", shape, f"@mesh, {source}", f"@mesh, {_sharding(rnd, pool, rank)}")


def drawn_uneven_reshard(rnd: random.Random) -> str:
    """A function with one reshard on a mesh with axes of 2, 3, 4, 6 or 8 (sub-axes of the even
    ones) and dimensions from 2 to 36, so that many shardings pad a dimension; now and then the
    input or the output is on a copy of the mesh with another device order."""
    sizes = [rnd.choice([2, 3, 4, 6, 8]) for _ in range(rnd.randint(2, 4))]
    names = "xyzw"[:len(sizes)]
    pool = _axis_pool(rnd, names, sizes)
    rank = rnd.randint(1, 3)
    shape = "x".join(str(rnd.choice([2, 3, 4, 5, 6, 8, 9, 12, 16, 18, 36])) for _ in range(rank))
    mesh = ", ".join(f'"{a}"={s}' for a, s in zip(names, sizes, strict=True))
    devices = list(range(math.prod(sizes)))
    rnd.shuffle(devices)
    meshes = (f"sdy.mesh @mesh = <[{mesh}]>\n"
              f"sdy.mesh @other = <[{mesh}], device_ids=[{', '.join(map(str, devices))}]>\n")
    side = rnd.choice(["", "", "in", "out"])
    source = f"{'@other' if side == 'in' else '@mesh'}, {_sharding(rnd, pool, rank)}"
    return _reshard(meshes, shape, source, f"{'@other' if side == 'out' else '@mesh'}, {_sharding(rnd, pool, rank)}")


@pytest.mark.parametrize("draw", [drawn_reshard, drawn_uneven_reshard])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reshard_to_collectives_matches_jaxlib_on_drawn_reshards(seed, draw):
    rnd = random.Random(seed)
    flag, pipeline = FLAGS["reshard_to_collectives.mlir"]
    compared = 0
    for _ in range(300):
        text = draw(rnd)
        theirs = cpp_or_unread(text, pipeline)
        if theirs is None:  # a drawn sharding MLIR rejects (e.g. overlapping sub-axes): so must verify
            assert [d for d in verify(shardy_py.parse(text)) if d.severity == "error"], text
            continue
        assert ours(text, flag) == theirs, text
        compared += 1
    assert compared >= 250


CHAINED_ACROSS_MESHES = """sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @empty = <[]>
func.func @main(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> (tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = sdy.reshard %arg0 <@empty, [{}, {}]> : tensor<6x4xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}
"""


def test_a_reshard_fed_by_one_to_another_mesh_is_kept():
    """Which reshards become collectives is decided before any is converted (the C++ conversion's
    legality check reads the input's sharding from the reshard being replaced): %0, to the
    replicated empty mesh, becomes an all-gather on @mesh, and %1, whose input was on @empty, is kept
    (jaxlib 0.12 then fails to partition it, and so do we), not sliced from the all-gather."""
    flag, pipeline = FLAGS["reshard_to_collectives.mlir"]
    mine = ours(CHAINED_ACROSS_MESHES, flag)
    assert 'sdy.reshard %0 <@mesh, [{}, {"x"}]>' in mine and "sdy.all_slice" not in mine
    assert mine == cpp(CHAINED_ACROSS_MESHES, pipeline)
