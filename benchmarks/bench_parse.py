"""Parse/print throughput on synthetic Shardy modules of 2k, 20k and 200k ops.

    python benchmarks/bench_parse.py            # 2,000 / 20,000 / 200,000 ops
    python benchmarks/bench_parse.py 1000 10000 # other sizes

Prints one row per size: text size, parse and print time, MB/s, microseconds per
op, and the per-op parse cost relative to the smallest module (1.00 = linear).
``synthesise(n_ops)`` builds the module text; other benchmarks reuse it.
"""
from __future__ import annotations

import gc
import sys
import time

import shardy_py

MESH = '  sdy.mesh @mesh = <["data"=4, "model"=2, "seq"=4]>\n  sdy.mesh @"mesh-2" = <["x"=2], device_ids=[1, 0]>'
T = "tensor<64x128xf32>"
TM = "tensor<16x128xf32>"

# Shardings cycled through, to exercise every part of the grammar.
SHARDINGS = [
    '<@mesh, [{"data"}, {"model"}]>',
    '<@mesh, [{"data", ?}, {?}]>',
    '<@mesh, [{"seq":(1)2}p1, {"model"}p0]>',
    '<@mesh, [{"data"}, {}], replicated={"seq"}>',
    '<@mesh, [{}, {"model", ?}], unreduced={"data"}>',
    '<@mesh, [{"seq":(2)2, "data"}, {}], replicated={"model"}, unreduced=max{"seq":(1)2}>',
    '<@"mesh-2", [{"x"}, {}]>',
]


INNER = "@INNER@"


def _block(i: int, v: str, k: int) -> tuple[list[str], str, int]:
    """Ops for one unit of work: returns (lines, last value, number of ops)."""
    s = SHARDINGS[k % len(SHARDINGS)]
    s2 = SHARDINGS[(k + 3) % len(SHARDINGS)]
    kind = k % 6
    if kind == 0:
        attr = f"{{sdy.sharding = #sdy.sharding_per_value<[{s}]>}}"
        return [f"    %{i} = stablehlo.add {v}, {v} {attr} : {T}"], f"%{i}", 1
    if kind == 1:
        return [f"    %{i} = sdy.sharding_constraint {v} {s} : {T}"], f"%{i}", 1
    if kind == 2:
        return [f"    %{i} = stablehlo.multiply {v}, {v} : {T}"], f"%{i}", 1
    if kind == 3:
        return [f"    %{i} = sdy.reshard {v} {s2} : {T}"], f"%{i}", 1
    if kind == 4:
        return [f"    %{i} = stablehlo.dot_general {v}, %arg1, contracting_dims = [1] x [0] "
                f"{{sdy.sharding = #sdy.sharding_per_value<[{s2}]>}} : ({T}, tensor<128x128xf32>) -> {T}"], f"%{i}", 1
    # the region is isolated from above: MLIR numbers its values after all of the function's
    # own, the same in every such region (INNER is replaced once the function is complete)
    lines = [
        f'    %{i} = sdy.manual_computation({v}) in_shardings=[<@mesh, [{{"data"}}, {{?}}]>] '
        f'out_shardings=[<@mesh, [{{"data"}}, {{?}}]>] manual_axes={{"data"}} (%arg2: {TM}) {{',
        f"      %{INNER}0 = stablehlo.negate %arg2 : {TM}",
        f"      %{INNER}1 = stablehlo.abs %{INNER}0 {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{}}, "
        f'{{"model"}}]>]>}} : {TM}',
        f"      sdy.return %{INNER}1 : {TM}",
        f"    }} : ({T}) -> {T}",
    ]
    return lines, f"%{i}", 4


def synthesise(n_ops: int) -> str:
    """A module of about ``n_ops`` ops, in functions of at most 500 ops each."""
    out = [MESH]
    done = 0
    f = 0
    k = 0
    while done < n_ops:
        out.append(f'  func.func @f{f}(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"data", ?}}, {{}}]>}}, '
                   f'%arg1: tensor<128x128xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"model"}}p1]>}}) '
                   f"-> ({T} {{sdy.sharding = #sdy.sharding<@mesh, [{{\"data\"}}, {{}}]>}}) {{")
        done += 1
        v = "%arg0"
        i = 0
        body: list[str] = []
        while i < 500 and done < n_ops:
            lines, v, n = _block(i, v, k)
            body.extend(lines)
            i += 1
            done += n
            k += 1
        out.extend(line.replace(f"{INNER}0", str(i)).replace(f"{INNER}1", str(i + 1)) for line in body)
        out.append(f"    return {v} : {T}\n  }}")
        done += 1
        f += 1
    return "module {\n" + "\n".join(out) + "\n}\n"


def _best(fn, repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def count_ops(module) -> int:
    return sum(1 for _ in module.walk()) - 1  # not the module op


def main(argv: list[str] | None = None) -> int:
    sizes = [int(a) for a in (argv if argv is not None else sys.argv[1:])] or [2_000, 20_000, 200_000]
    print(f"{'ops':>8} {'MB':>7} {'parse s':>8} {'parse MB/s':>10} {'us/op':>7} {'print s':>8} "
          f"{'print MB/s':>10} {'us/op':>7} {'parse/op vs first':>18}")
    base = None
    for n in sizes:
        text = synthesise(n)
        mb = len(text.encode()) / 1e6
        repeat = 3 if n <= 20_000 else 1
        tp, m = _best(lambda t=text: shardy_py.parse(t), repeat)
        tq, out = _best(lambda m=m: str(m), repeat)
        assert out == text, "synthesised text is not canonical"
        ops = count_ops(m)
        per_op = tp / ops * 1e6
        base = base or per_op
        print(f"{ops:>8} {mb:>7.2f} {tp:>8.3f} {mb / tp:>10.2f} {per_op:>7.1f} {tq:>8.3f} "
              f"{mb / tq:>10.2f} {tq / ops * 1e6:>7.1f} {per_op / base:>18.2f}")
        del m, out
    return 0


if __name__ == "__main__":
    sys.exit(main())
