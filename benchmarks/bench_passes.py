"""A Shardy pass pipeline, shardy_py's against the C++ Shardy's (jaxlib's PassManager), on the same text.

    python benchmarks/bench_passes.py                                   # sdy-import-pipeline, transformer
    python benchmarks/bench_passes.py FILE --pipeline sdy-import-pipeline --repeats 5
    python benchmarks/bench_passes.py --clock cpu                       # CPU time: steadier on a busy machine
    python benchmarks/bench_passes.py --pipeline 'func.func(sdy-populate-op-sharding-rules)'
    python benchmarks/bench_passes.py --pipeline 'func.func(sdy-populate-op-sharding-rules{conservative-propagation=1})'

``--pipeline`` is MLIR's textual pipeline inside ``builtin.module(...)``: comma-separated passes,
``{key=value ...}`` options, ``func.func(...)`` around function passes (shardy_py runs a function
pass on every function by itself, so the anchor only matters to the C++).

Times the pass run alone (each side parses the module first, untimed, fresh for every repeat), and
checks that both sides print the same module afterwards.  The two sides take turns, one run each per
repeat.  Prints the medians and their ratio, the fastest runs, and shardy_py's first run apart:
later runs in the process reuse memoised work (e.g. sharding rules already created for ops of the
same shape), the C++ gets a fresh context every repeat.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _split_top(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses and braces."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def pipeline_flags(pipeline: str) -> list[str]:
    """MLIR's textual pipeline as shardy_py's ``sdy_opt`` flags, op anchors dropped:
    ``func.func(a{x=1}), b`` -> ``["-a={x=1}", "-b"]``."""
    flags = []
    for item in _split_top(pipeline):
        anchor = item.partition("(")[0]
        if "(" in item and "{" not in anchor and item.endswith(")"):
            flags += pipeline_flags(item[len(anchor) + 1:-1])
        elif "{" in item:
            name, _, options = item.partition("{")
            flags.append(f"-{name.strip()}={{{options}")
        else:
            flags.append(f"-{item}")
    return flags


#: The clock both sides are timed with: wall time, or with ``--clock cpu`` this process's CPU time
#: (every thread's), which a machine shared with other work disturbs far less.
CLOCK = [time.perf_counter]


def ours(text: str, pipeline: str, verify: bool = True) -> tuple[float, str]:
    """One timed run of ``pipeline`` by shardy_py on a fresh parse: (seconds, printed result)."""
    import shardy_py
    from shardy_py.passes import PassManager

    module = shardy_py.parse(text)
    manager = PassManager.parse(pipeline_flags(pipeline))
    manager.verify_each = verify
    t0 = CLOCK[0]()
    manager.run(module)
    elapsed = CLOCK[0]() - t0
    return elapsed, str(module)


def cpp(text: str, pipeline: str, verify: bool = True) -> tuple[float, str]:
    """One timed run of ``builtin.module(pipeline)`` by jaxlib's PassManager in a fresh context."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir, passmanager

    ctx = mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(text, context=ctx)
    pm = passmanager.PassManager.parse(f"builtin.module({pipeline})", context=ctx)
    pm.enable_verifier(verify)
    t0 = CLOCK[0]()
    pm.run(module.operation)
    elapsed = CLOCK[0]() - t0
    return elapsed, module.operation.get_asm()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default=str(HERE.parent / "examples" / "transformer_stack.mlir"))
    ap.add_argument("--pipeline", default="sdy-import-pipeline")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-verify", action="store_true",
                    help="neither side verifies the module after each pass (both do by default)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time with the wall clock (default) or with this process's CPU time")
    args = ap.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    text = Path(args.file).read_text()
    mine, theirs, mine_out, theirs_out = [], [], "", ""
    for _ in range(args.repeats):  # the sides take turns, so a busy machine slows both alike
        t, mine_out = ours(text, args.pipeline, not args.no_verify)
        mine.append(t)
        t, theirs_out = cpp(text, args.pipeline, not args.no_verify)
        theirs.append(t)
    a, b = statistics.median(mine), statistics.median(theirs)
    checked = "without verification" if args.no_verify else "verified after each pass"
    clock = ", CPU time" if args.clock == "cpu" else ""
    print(f"{args.pipeline} on {args.file} (median of {args.repeats}, pass run only, {checked}{clock})")
    print(f"  shardy_py   {a * 1e3:9.2f} ms   (fastest {min(mine) * 1e3:.2f} ms, first run {mine[0] * 1e3:.2f} ms)")
    print(f"  C++ Shardy  {b * 1e3:9.2f} ms   (fastest {min(theirs) * 1e3:.2f} ms)")
    print(f"  ratio       {a / b:9.2f}x   (fastest to fastest {min(mine) / min(theirs):.2f}x; goal: within 5x)")
    print(f"  same output: {'yes' if mine_out == theirs_out else 'NO'}")
    return 0 if mine_out == theirs_out else 1


if __name__ == "__main__":
    sys.exit(main())
