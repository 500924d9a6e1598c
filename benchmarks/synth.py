"""Realistic synthetic Shardy modules for the benchmarks, in the shape JAX exports them.

``synthesise_module(n_ops)`` writes a module of about ``n_ops`` operations: a stack of
transformer-like layer functions (one ``func.func`` per few blocks, at most ``ops_per_func``
ops each) and a private ``@gelu`` helper they call. Every block holds, in canonical form
(the C++ Shardy prints the text back byte-identical):

* function arguments and results with ``sdy.sharding`` (and ``jax.result_info``);
* ``stablehlo`` ops with ``#sdy.sharding_per_value``: sub-axes (``"model":(1)2``), open
  dimensions (``?``), priorities (``p0``/``p1``), ``replicated`` and ``unreduced`` axes;
* ``sdy.sharding_constraint`` and ``sdy.reshard``;
* ``sdy.manual_computation`` whose region holds a generic ``"stablehlo.all_reduce"`` with
  its own reduction region;
* ``stablehlo.reduce`` in its compact form, constants, ``call``.

The text verifies clean with both ``shardy_py.verify`` and the C++ Shardy in jaxlib (the
benchmark runner checks both). Like real exports, a few attribute texts repeat many times.
"""
from __future__ import annotations

import argparse
import sys

MESH_AXES = '["data"=4, "seq"=2, "model"=4]'
B, S, D, H = 32, 64, 256, 1024            # batch, sequence, model width, hidden width
X = f"tensor<{B}x{S}x{D}xf32>"           # activations
HID = f"tensor<{B}x{S}x{H}xf32>"         # hidden activations
W1 = f"tensor<{D}x{H}xf32>"
W2 = f"tensor<{H}x{D}xf32>"
BIAS = f"tensor<{H}xf32>"
ROW = f"tensor<{B}x{S}xf32>"
LOCAL = f"tensor<{B // 4}x{S // 2}x{D}xf32>"   # X inside a computation manual on "data" and "seq"
SCALAR = "tensor<f32>"

# Shardings of the first matmul's result and of the residual add, cycled per block so that a
# module holds a handful of distinct attribute texts, as real exports do.
HIDDEN_SHARDINGS = (
    '<@mesh, [{"data"}, {"seq", ?}, {"model"}p1]>',
    '<@mesh, [{"data", ?}, {?}, {"model":(1)2, "seq"}]>',
    '<@mesh, [{"data"}p0, {}, {"model"}], replicated={"seq"}>',
)
RESIDUAL_SHARDINGS = (
    '<@mesh, [{"data"}, {"seq"}, {}]>',
    '<@mesh, [{"data", ?}, {"seq"}p0, {?}], replicated={"model"}>',
)
PARTIAL_SUM = '<@mesh, [{"data"}, {"seq"}, {}], unreduced={"model"}>'
OPS_PER_BLOCK = 23            # as Module.walk counts them (the compact reduce's body is not split into ops)
OUTER_VALUES_PER_BLOCK = 16   # numbered results of the block's ops outside the manual computation
OPS_PER_HEADER = 2     # the func op and its return
GELU_OPS = 7


def _block(k: int, v: str, n: int, cst: int, inner: int) -> tuple[list[str], str, int, int]:
    """Block number ``k`` reading value ``v``: (lines, result value, next value number, next constant number).

    ``n`` is the first free value number and ``cst`` the first free constant suffix of the
    enclosing function. The manual computation's region is isolated from above, so the
    printer numbers its values after all of the function's own (from ``inner``) and its
    arguments after the function's (from ``%arg4``), the same for every such region.
    """
    arg = 4
    hidden = HIDDEN_SHARDINGS[k % len(HIDDEN_SHARDINGS)]
    residual = RESIDUAL_SHARDINGS[k % len(RESIDUAL_SHARDINGS)]
    c0 = "%cst" if cst == 0 else f"%cst_{cst - 1}"
    c1 = f"%cst_{cst}"
    lines = [
        f"    %{n} = stablehlo.dot_general {v}, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] "
        f"{{sdy.sharding = #sdy.sharding_per_value<[{hidden}]>}} : ({X}, {W1}) -> {HID}",
        f"    %{n + 1} = stablehlo.broadcast_in_dim %arg3, dims = [2] : ({BIAS}) -> {HID}",
        f"    %{n + 2} = stablehlo.add %{n}, %{n + 1} : {HID}",
        f"    %{n + 3} = call @gelu(%{n + 2}) : ({HID}) -> {HID}",
        f'    %{n + 4} = sdy.sharding_constraint %{n + 3} <@mesh, [{{"data", ?}}, {{?}}, {{"model"}}]> : {HID}',
        f"    %{n + 5} = stablehlo.dot_general %{n + 4}, %arg2, contracting_dims = [2] x [0], "
        f"precision = [DEFAULT, DEFAULT] {{sdy.sharding = #sdy.sharding_per_value<[{PARTIAL_SUM}]>}} : "
        f"({HID}, {W2}) -> {X}",
        f'    %{n + 6} = sdy.reshard %{n + 5} <@mesh, [{{"data"}}, {{"seq"}}, {{}}]> : {X}',
        f"    %{n + 7} = stablehlo.add %{n + 6}, {v} "
        f"{{sdy.sharding = #sdy.sharding_per_value<[{residual}]>}} : {X}",
        f"    {c0} = stablehlo.constant dense<0.000000e+00> : {SCALAR}",
        f"    %{n + 8} = stablehlo.multiply %{n + 7}, %{n + 7} : {X}",
        f"    %{n + 9} = stablehlo.reduce(%{n + 8} init: {c0}) applies stablehlo.add across dimensions = [2] : "
        f"({X}, {SCALAR}) -> {ROW}",
        f"    {c1} = stablehlo.constant dense<3.906250e-03> : {SCALAR}",
        f"    %{n + 10} = stablehlo.broadcast_in_dim {c1}, dims = [] : ({SCALAR}) -> {ROW}",
        f"    %{n + 11} = stablehlo.multiply %{n + 9}, %{n + 10} : {ROW}",
        f"    %{n + 12} = stablehlo.rsqrt %{n + 11} : {ROW}",
        f"    %{n + 13} = stablehlo.broadcast_in_dim %{n + 12}, dims = [0, 1] : ({ROW}) -> {X}",
        f"    %{n + 14} = stablehlo.multiply %{n + 7}, %{n + 13} : {X}",
        f"    %{n + 15} = sdy.manual_computation(%{n + 14}) in_shardings=[<@mesh, [{{\"data\"}}, {{\"seq\"}}, {{}}]>] "
        f'out_shardings=[<@mesh, [{{"data"}}, {{"seq"}}, {{}}]>] manual_axes={{"data", "seq"}} '
        f"(%arg{arg}: {LOCAL}) {{",
        f"      %{inner} = stablehlo.negate %arg{arg} {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
        f'[{{}}, {{}}, {{"model":(2)2}}]>]>}} : {LOCAL}',
        f'      %{inner + 1} = "stablehlo.all_reduce"(%{inner}) <{{channel_handle = #stablehlo.channel_handle<'
        f"handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, "
        f"use_global_device_ids}}> ({{",
        f"      ^bb0(%arg{arg + 1}: {SCALAR}, %arg{arg + 2}: {SCALAR}):",
        f"        %{inner + 2} = stablehlo.add %arg{arg + 1}, %arg{arg + 2} : {SCALAR}",
        f"        stablehlo.return %{inner + 2} : {SCALAR}",
        f"      }}) : ({LOCAL}) -> {LOCAL}",
        f"      sdy.return %{inner + 1} : {LOCAL}",
        f"    }} : ({X}) -> {X}",
    ]
    return lines, f"%{n + 15}", n + OUTER_VALUES_PER_BLOCK, cst + 2


def _gelu() -> str:
    """The private helper every block calls (a tanh-free GELU approximation)."""
    return "\n".join([
        f"  func.func private @gelu(%arg0: {HID}) -> {HID} {{",
        f"    %cst = stablehlo.constant dense<1.702000e+00> : {SCALAR}",
        f"    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : ({SCALAR}) -> {HID}",
        f"    %1 = stablehlo.multiply %arg0, %0 : {HID}",
        f"    %2 = stablehlo.logistic %1 : {HID}",
        f"    %3 = stablehlo.multiply %arg0, %2 : {HID}",
        f"    return %3 : {HID}",
        "  }",
    ])


def _function(index: int, blocks: int) -> str:
    """Layer function made of ``blocks`` blocks (``OPS_PER_BLOCK`` ops each): ``@main`` first (the
    function Shardy's propagation and export pipelines start from), then ``@layer<index>``."""
    name = "main" if index == 0 else f"layer{index}"
    head = (
        f"  func.func public @{name}("
        f'%arg0: {X} {{sdy.sharding = #sdy.sharding<@mesh, [{{"data", ?}}, {{"seq"}}, {{}}]>}}, '
        f'%arg1: {W1} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"model"}}p1]>}}, '
        f'%arg2: {W2} {{sdy.sharding = #sdy.sharding<@mesh, [{{"model"}}, {{}}]>}}, '
        f'%arg3: {BIAS} {{sdy.sharding = #sdy.sharding<@mesh, [{{"model":(1)2}}]>}}) '
        f'-> ({X} {{jax.result_info = "result", '
        f'sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{"seq"}}, {{}}]>}}) {{'
    )
    lines = [head]
    v, n, cst = "%arg0", 0, 0
    for k in range(blocks):
        block, v, n, cst = _block(index + k, v, n, cst, OUTER_VALUES_PER_BLOCK * blocks)
        lines.extend(block)
    lines.append(f"    return {v} : {X}")
    lines.append("  }")
    return "\n".join(lines)


def synthesise_module(n_ops: int, ops_per_func: int = 500) -> str:
    """Canonical text of a module with about ``n_ops`` ops (within one block, ``OPS_PER_BLOCK``).

    Ops are counted as ``Module.walk`` visits them, without the module itself: functions,
    their returns, every op in every region. Functions hold at most ``ops_per_func`` ops; the
    first is ``@main``, so the module goes through ``propagate`` and the whole pipelines.
    """
    if n_ops < 1:
        raise ValueError(f"n_ops must be positive, got {n_ops}")
    blocks_per_func = max(1, (ops_per_func - OPS_PER_HEADER) // OPS_PER_BLOCK)
    total_blocks = max(1, round((n_ops - GELU_OPS - 1) / (OPS_PER_BLOCK + OPS_PER_HEADER / blocks_per_func)))
    funcs = []
    index = 0
    while total_blocks > 0:
        blocks = min(blocks_per_func, total_blocks)
        funcs.append(_function(index, blocks))
        total_blocks -= blocks
        index += 1
    header = "module @jit_layers attributes {mhlo.num_partitions = 32 : i32, mhlo.num_replicas = 1 : i32} {"
    return "\n".join([header, f"  sdy.mesh @mesh = <{MESH_AXES}>", *funcs, _gelu(), "}"]) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python benchmarks/synth.py N [-o FILE]``: write a module of about N ops."""
    ap = argparse.ArgumentParser(prog="synth.py", description="Write a synthetic Shardy module of about N ops "
                                 "(the benchmarks' transformer-like layers; its first function is @main).")
    ap.add_argument("ops", type=int, help="number of ops, about (e.g. 2000, 20000, 200000)")
    ap.add_argument("-o", "--output", help="write here instead of standard output")
    ap.add_argument("--ops-per-func", type=int, default=500, help="most ops in one function (default 500)")
    args = ap.parse_args(argv)
    if args.ops < 1:
        ap.error(f"the number of ops must be positive, got {args.ops}")
    from shardy_py.cli import write_output

    write_output(synthesise_module(args.ops, args.ops_per_func), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
