"""A Shardy pass pipeline, shardy_py's against the C++ Shardy's (jaxlib's PassManager), on the same text.

    python benchmarks/bench_passes.py                                   # sdy-import-pipeline, transformer
    python benchmarks/bench_passes.py FILE --pipeline sdy-import-pipeline --repeats 5

Times the pass run alone (each side parses the module first, untimed, fresh for every repeat), and
checks that both sides print the same module afterwards.  Prints the medians and their ratio.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def ours(text: str, pipeline: str, repeats: int) -> tuple[list[float], str]:
    import shardy_py
    from shardy_py import passes

    times, out = [], ""
    for _ in range(repeats):
        module = shardy_py.parse(text)
        t0 = time.perf_counter()
        passes.run(module, pipeline)
        times.append(time.perf_counter() - t0)
        out = str(module)
    return times, out


def cpp(text: str, pipeline: str, repeats: int) -> tuple[list[float], str]:
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir, passmanager

    times, out = [], ""
    for _ in range(repeats):
        ctx = mlir.make_ir_context()
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text, context=ctx)
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})", context=ctx)
        t0 = time.perf_counter()
        pm.run(module.operation)
        times.append(time.perf_counter() - t0)
        out = module.operation.get_asm()
    return times, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(HERE.parent / "examples" / "transformer_stack.mlir"))
    ap.add_argument("--pipeline", default="sdy-import-pipeline")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    text = Path(args.file).read_text()
    mine, mine_out = ours(text, args.pipeline, args.repeats)
    theirs, theirs_out = cpp(text, args.pipeline, args.repeats)
    a, b = statistics.median(mine), statistics.median(theirs)
    print(f"{args.pipeline} on {args.file} (median of {args.repeats}, pass run only)")
    print(f"  shardy_py   {a * 1e3:9.2f} ms")
    print(f"  C++ Shardy  {b * 1e3:9.2f} ms")
    print(f"  ratio       {a / b:9.2f}x   (goal: within 5x)")
    print(f"  same output: {'yes' if mine_out == theirs_out else 'NO'}")
    return 0 if mine_out == theirs_out else 1


if __name__ == "__main__":
    sys.exit(main())
