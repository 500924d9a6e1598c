# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""``-sdy-reshard-to-collectives`` on a dimension whose padding changes, as jaxlib 0.12 does it
(the test files at ``SHARDY_COMMIT`` predate the rule).

A dimension of size ``n`` sharded ``k`` ways is padded to ``ceil(n / k) * k``.  When a dimension
is sharded on both sides and that padded size differs (8 on 64 devices to 8 on 8, 12 on 2 to 12 on
16), jaxlib 0.12 does not reshape its sharding piece by piece: a first round gathers the dimension
whole (or moves all its axes out with one all-to-all) before anything is sliced or moved into it,
then the usual rounds build the output.  Each expected text below is what jaxlib 0.12.0.1 prints;
with jax installed, jaxlib is asked again.
"""
from __future__ import annotations

import pytest
from cpp_oracle import ours

FLAG = "sdy-reshard-to-collectives"
PIPELINE = "builtin.module(func.func(sdy-reshard-to-collectives))"


def reshard(mesh: str, shape: str, source: str, target: str, extra_mesh: str = "") -> str:
    """A function with one reshard of its argument from ``source`` to ``target``."""
    meshes = f"sdy.mesh @mesh = <[{mesh}]>\n" + (extra_mesh + "\n" if extra_mesh else "")
    return (f"{meshes}func.func @f(%arg0: tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<{source}>}})"
            f" -> tensor<{shape}xf32> {{\n"
            f"  %0 = sdy.reshard %arg0 <{target}> : tensor<{shape}xf32>\n"
            f"  return %0 : tensor<{shape}xf32>\n}}")


def module(meshes: str, signature: str, body: list[str]) -> str:
    """The printed module: ``meshes`` (lines), the function ``signature`` and ``body`` lines."""
    lines = ["module {", *("  " + m for m in meshes.splitlines()), f"  {signature} {{",
             *("    " + b for b in body), "  }", "}", ""]
    return "\n".join(lines)


XYZW = '"x"=4, "y"=8, "z"=2, "w"=8'
XYZW_MESH = 'sdy.mesh @mesh = <["x"=4, "y"=8, "z"=2, "w"=8]>'

CASES = {
    # 12 on "x" (8 ways, padded to 16) to 12 on "x","y" (16 ways, padded to 16): same padding,
    # the usual all-slice.
    "same padded size": (
        reshard('"x"=8, "y"=2', "12", '@mesh, [{"x"}]', '@mesh, [{"x", "y"}]'),
        module('sdy.mesh @mesh = <["x"=8, "y"=2]>',
               'func.func @f(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<12xf32>',
               ['%0 = sdy.all_slice [{"y"}] %arg0 out_sharding=<@mesh, [{"x", "y"}]> : tensor<12xf32>',
                "return %0 : tensor<12xf32>"])),
    # 12 on "y" (not padded) to 12 on "y","x" (16 ways, padded to 16): gathered, then sliced.
    "padding added": (
        reshard('"x"=8, "y"=2', "12", '@mesh, [{"y"}]', '@mesh, [{"y", "x"}]'),
        module('sdy.mesh @mesh = <["x"=8, "y"=2]>',
               'func.func @f(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<12xf32>',
               ['%0 = sdy.all_gather [{"y"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<12xf32>',
                '%1 = sdy.all_slice [{"y", "x"}] %0 out_sharding=<@mesh, [{"y", "x"}]> : tensor<12xf32>',
                "return %1 : tensor<12xf32>"])),
    # Dimension 1 (8 on 64 devices) is to be on "z" (2 ways): both its axes leave it in one
    # all-to-all, which lands them where dimension 0 wants them; "z" is sliced in the next round.
    "all axes moved out at once": (
        reshard(XYZW, "16x8", '@mesh, [{}, {"w", "y"}]', '@mesh, [{"w", "y"}, {"z"}]'),
        module(XYZW_MESH,
               'func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"w", "y"}]>}) -> tensor<16x8xf32>',
               ['%0 = sdy.all_to_all [{"w", "y"}: 1->0] %arg0 out_sharding=<@mesh, [{"w", "y"}, {}]> : tensor<16x8xf32>',
                '%1 = sdy.all_slice [{}, {"z"}] %0 out_sharding=<@mesh, [{"w", "y"}, {"z"}]> : tensor<16x8xf32>',
                "return %1 : tensor<16x8xf32>"])),
    # Dimension 1 (8 on 128 devices) to "z": a suffix cannot leave it, so it is gathered whole
    # (its "w","y" too, wanted in dimension 0); "x":(2)2 is sliced into dimension 0 first, "z" waits.
    "gathered whole": (
        reshard(XYZW, "16x8", '@mesh, [{}, {"w", "y", "x":(1)2}]', '@mesh, [{"w", "x":(2)2, "y"}, {"z"}]'),
        module(XYZW_MESH,
               'func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"w", "y", "x":(1)2}]>}) -> tensor<16x8xf32>',
               ['%0 = sdy.all_slice [{"x":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"x":(2)2}, {"w", "y", "x":(1)2}]> : tensor<16x8xf32>',
                '%1 = sdy.all_gather [{}, {"w", "y", "x":(1)2}] %0 out_sharding=<@mesh, [{"x":(2)2}, {}]> : tensor<16x8xf32>',
                '%2 = sdy.all_slice [{"w", "y"}, {"z"}] %1 out_sharding=<@mesh, [{"x":(2)2, "w", "y"}, {"z"}]> : tensor<16x8xf32>',
                '%3 = sdy.collective_permute %2 out_sharding=<@mesh, [{"w", "x":(2)2, "y"}, {"z"}]> : tensor<16x8xf32>',
                "return %3 : tensor<16x8xf32>"])),
    # Dimension 2 (8 on "z", to be 16 ways): "z" leaves it for dimension 1, after which "y" may
    # come in (an all-to-all into it was refused while it held "z"); the rest as usual.
    "emptied, then filled": (
        reshard('"x"=8, "y"=2, "z"=2, "w"=2', "16x32x8", '@mesh, [{"y"}, {"w"}, {"z"}]',
                '@mesh, [{}, {"z", "x":(1)2}, {"y", "w", "x":(2)4}]'),
        module('sdy.mesh @mesh = <["x"=8, "y"=2, "z"=2, "w"=2]>',
               'func.func @f(%arg0: tensor<16x32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"w"}, {"z"}]>}) -> tensor<16x32x8xf32>',
               ['%0 = sdy.all_slice [{}, {"x":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"w", "x":(1)2}, {"z"}]> : tensor<16x32x8xf32>',
                '%1 = sdy.all_to_all [{"z"}: 2->1] %0 out_sharding=<@mesh, [{"y"}, {"w", "x":(1)2, "z"}, {}]> : tensor<16x32x8xf32>',
                '%2 = sdy.all_to_all [{"y"}: 0->2] %1 out_sharding=<@mesh, [{}, {"w", "x":(1)2, "z"}, {"y"}]> : tensor<16x32x8xf32>',
                '%3 = sdy.all_slice [{}, {}, {"x":(2)4}] %2 out_sharding=<@mesh, [{}, {"w", "x":(1)2, "z"}, {"y", "x":(2)4}]> : tensor<16x32x8xf32>',
                '%4 = sdy.collective_permute %3 out_sharding=<@mesh, [{}, {"z", "x":(1)2, "x":(4)2}, {"y", "w", "x":(2)2}]> : tensor<16x32x8xf32>',
                '%5 = sdy.all_to_all [{"x":(4)2}: 1->2] %4 out_sharding=<@mesh, [{}, {"z", "x":(1)2}, {"y", "w", "x":(2)4}]> : tensor<16x32x8xf32>',
                "return %5 : tensor<16x32x8xf32>"])),
    # Another device order: its collective-permute still comes first.
    "device order": (
        reshard('"x"=4, "y"=2', "6", '@mesh, [{"y"}]', '@mesh_rev, [{"y", "x"}]',
                'sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>'),
        module('sdy.mesh @mesh = <["x"=4, "y"=2]>\n'
               'sdy.mesh @mesh_rev = <["x"=4, "y"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>',
               'func.func @f(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<6xf32>',
               ['%0 = sdy.collective_permute %arg0 out_sharding=<@mesh_rev, [{"y"}]> : tensor<6xf32>',
                '%1 = sdy.all_gather [{"y"}] %0 out_sharding=<@mesh_rev, [{}]> : tensor<6xf32>',
                '%2 = sdy.all_slice [{"y", "x"}] %1 out_sharding=<@mesh_rev, [{"y", "x"}]> : tensor<6xf32>',
                "return %2 : tensor<6xf32>"])),
}

#: Shardy's test function whose CHECK lines (transforms/export/test/reshard_to_collectives.mlir at
#: SHARDY_COMMIT, lines 648-649) want ``sdy.collective_permute`` to [{"x"}, {"y", "z"}, {}] and then
#: ``sdy.all_to_all [{"y", "z"}: 1->0]``.  Dimension 0 (16 on "z", 4 ways) is to be on 32 devices
#: (padded to 32), so jaxlib 0.12 gathers everything and slices the output.
OUT_OF_ORDER = """\
sdy.mesh @mesh3d_4x2x4 = <["x"=4, "y"=2, "z"=4]>
func.func @all_to_all_axes_at_src_and_tgt_out_of_order(%arg0 : tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh3d_4x2x4, [{"z"}, {"y", "x"}, {}]>}) -> tensor<16x8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh3d_4x2x4, [{"x", "y", "z"}, {}, {}]> : tensor<16x8x8xf32>
  return %0 : tensor<16x8x8xf32>
}"""
OUT_OF_ORDER_OUT = module(
    'sdy.mesh @mesh3d_4x2x4 = <["x"=4, "y"=2, "z"=4]>',
    'func.func @all_to_all_axes_at_src_and_tgt_out_of_order(%arg0: tensor<16x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh3d_4x2x4, [{"z"}, {"y", "x"}, {}]>}) -> tensor<16x8x8xf32>',
    ['%0 = sdy.all_gather [{"z"}, {"y", "x"}, {}] %arg0 out_sharding=<@mesh3d_4x2x4, [{}, {}, {}]> : tensor<16x8x8xf32>',
     '%1 = sdy.all_slice [{"x", "y", "z"}, {}, {}] %0 out_sharding=<@mesh3d_4x2x4, [{"x", "y", "z"}, {}, {}]> : tensor<16x8x8xf32>',
     "return %1 : tensor<16x8x8xf32>"])
CASES["test file: all_to_all_axes_at_src_and_tgt_out_of_order"] = (OUT_OF_ORDER, OUT_OF_ORDER_OUT)


@pytest.mark.parametrize("case", sorted(CASES))
def test_reshard_prints_what_jaxlib_012_prints(case):
    text, expected = CASES[case]
    assert ours(text, FLAG) == expected


@pytest.mark.parametrize("case", sorted(CASES))
def test_pinned_output_is_jaxlibs(case):
    from cpp_oracle import cpp, require_jax

    require_jax()
    text, expected = CASES[case]
    assert cpp(text, PIPELINE) == expected


def test_test_file_function_is_the_one_pinned(conformance_dir):
    """The pinned function is the test file's, whose CHECK lines want the permute and all-to-all."""
    text = (conformance_dir / "transforms/export/test/reshard_to_collectives.mlir").read_text()
    start = text.index("// CHECK-LABEL: func @all_to_all_axes_at_src_and_tgt_out_of_order")
    chunk = text[start:text.index("\n}\n", start)]
    assert 'sdy.collective_permute %arg0 out_sharding=<@mesh3d_4x2x4, [{"x"}, {"y", "z"}, {}]>' in chunk
    assert 'sdy.all_to_all [{"y", "z"}: 1->0]' in chunk
    assert OUT_OF_ORDER.splitlines()[2] in chunk.splitlines()
