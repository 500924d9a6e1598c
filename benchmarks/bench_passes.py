"""A Shardy pass pipeline, shardy_py's against the C++ Shardy's (jaxlib's PassManager), on the same text.

    python benchmarks/bench_passes.py                                   # sdy-import-pipeline, transformer
    python benchmarks/bench_passes.py FILE --pipeline sdy-import-pipeline --repeats 5
    python benchmarks/bench_passes.py --clock cpu                       # CPU time: steadier on a busy machine
    python benchmarks/bench_passes.py --pipeline 'func.func(sdy-populate-op-sharding-rules)'
    python benchmarks/bench_passes.py --pipeline 'func.func(sdy-populate-op-sharding-rules{conservative-propagation=1})'

Side by side on the transformer and synthetic modules (``synth.synthesise_module``, its first
function renamed ``@main`` as the propagation pipeline needs), one table:

    python benchmarks/bench_passes.py --pipeline sdy-propagation-pipeline --clock cpu --sizes
    python benchmarks/bench_passes.py --pipeline sdy-propagation-pipeline --clock cpu --sizes 2000 20000 --large
    python benchmarks/bench_passes.py --pipeline partition --clock cpu --sizes --large   # shardy_py.partition

``--pipeline partition`` is ``shardy_py.partition``'s pipeline at its defaults (``PIPELINE_ALIASES``):
propagation, jaxlib 0.12's staged export pipeline, convert-global-to-local and
drop-sharding-and-mesh, the same passes on both sides.

``--sizes`` (default 2000 and 20000 when given no sizes) generates the synthetic modules itself;
``--large`` adds the 200k-op one (minutes on each side, so optional).  The given FILEs (default
the transformer) come first.  Repeats shrink with size (``--repeats`` up to 5k ops, at most 3 up to
50k, one above).  The table gives the medians, their ratio, the ratio of shardy_py's first run to
the C++ median (later runs reuse process-wide caches), microseconds per op and whether both sides
printed the same module; below it, the per-op cost of the largest synthetic module over the
smallest's (of the medians, and of the first runs: a large module runs once, so its median is a
first run while a small module's median profits from the caches its earlier repeats filled).
Exit status 1 when any module's outputs differ.

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
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


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


def _partition_pipeline() -> str:
    from shardy_py.passes.partition import PIPELINE_BACK, PIPELINE_FRONT

    return f"{PIPELINE_FRONT},{PIPELINE_BACK}"


#: Short names ``--pipeline`` takes for longer pipelines.
PIPELINE_ALIASES = {"partition": _partition_pipeline}


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


@dataclass
class Row:
    """One module's measurements (seconds)."""

    name: str
    ops: int
    mine: list[float]
    theirs: list[float]
    same: bool

    @property
    def ratio(self) -> float:
        return statistics.median(self.mine) / statistics.median(self.theirs)

    @property
    def first_ratio(self) -> float:
        return self.mine[0] / statistics.median(self.theirs)

    def per_op_us(self, times: list[float]) -> float:
        return statistics.median(times) / self.ops * 1e6


def count_ops(text: str) -> int:
    """Ops in the module as ``Module.walk`` visits them, the module itself left out."""
    import shardy_py

    return sum(1 for _ in shardy_py.parse(text).walk()) - 1


def synthetic_text(n_ops: int) -> str:
    """``synthesise_module(n_ops)`` (its first function is ``@main``)."""
    from synth import synthesise_module

    return synthesise_module(n_ops)


def measure(name: str, text: str, pipeline: str, repeats: int, verify: bool) -> Row:
    """Both sides on ``text``, taking turns, ``repeats`` times."""
    mine, theirs, same = [], [], True
    for _ in range(repeats):  # the sides take turns, so a busy machine slows both alike
        t, mine_out = ours(text, pipeline, verify)
        mine.append(t)
        t, theirs_out = cpp(text, pipeline, verify)
        theirs.append(t)
        same = same and mine_out == theirs_out
    return Row(name, count_ops(text), mine, theirs, same)


def repeats_for(ops: int, repeats: int) -> int:
    """``repeats`` up to 5k ops, at most 3 up to 50k, else 1."""
    return repeats if ops <= 5000 else min(repeats, 3) if ops <= 50000 else 1


def print_table(rows: list[Row], title: str) -> None:
    print(title)
    print(f"  {'module':<28} {'ops':>8} {'shardy_py':>11} {'C++':>10} {'ratio':>7} {'first':>7} "
          f"{'us/op':>8} {'C++ us/op':>10}  same")
    for r in rows:
        print(f"  {r.name:<28} {r.ops:>8} {statistics.median(r.mine):>10.3f}s {statistics.median(r.theirs):>9.3f}s "
              f"{r.ratio:>6.2f}x {r.first_ratio:>6.2f}x {r.per_op_us(r.mine):>8.1f} {r.per_op_us(r.theirs):>10.1f}"
              f"  {'yes' if r.same else 'NO'}")
    synthetic = [r for r in rows if r.name.startswith("synthetic")]
    if len(synthetic) > 1:
        small, large = min(synthetic, key=lambda r: r.ops), max(synthetic, key=lambda r: r.ops)
        print(f"  per-op cost, {large.name} over {small.name}: "
              f"{large.per_op_us(large.mine) / small.per_op_us(small.mine):.2f}x medians, "
              f"{large.mine[0] / large.ops / (small.mine[0] / small.ops):.2f}x first runs (goal: within 1.3x)")
    print("  goal: ratio within 5x (ceiling 10x)")


def run_table(args) -> int:
    """The ``--sizes`` run: every FILE, then each synthetic size, one table."""
    sizes = list(args.sizes) or [2000, 20000]
    if args.large and 200000 not in sizes:
        sizes.append(200000)
    rows = []
    for file in args.file or [DEFAULT_FILE]:
        text = Path(file).read_text()
        rows.append(measure(Path(file).name, text, args.pipeline, repeats_for(count_ops(text), args.repeats),
                            not args.no_verify))
    for n in sizes:
        text = synthetic_text(n)
        rows.append(measure(f"synthetic {n // 1000}k" if n >= 1000 else f"synthetic {n}", text, args.pipeline,
                            repeats_for(n, args.repeats), not args.no_verify))
    checked = "without verification" if args.no_verify else "verified after each pass"
    clock = "CPU time" if args.clock == "cpu" else "wall time"
    print_table(rows, f"{args.pipeline} (median, pass run only, {checked}, {clock})")
    return 0 if all(r.same for r in rows) else 1


DEFAULT_FILE = str(HERE.parent / "examples" / "transformer_stack.mlir")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="*", help="modules to time (default: the transformer)")
    ap.add_argument("--pipeline", default="sdy-import-pipeline",
                    help=f"MLIR's textual pipeline, or one of: {', '.join(PIPELINE_ALIASES)}")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-verify", action="store_true",
                    help="neither side verifies the module after each pass (both do by default)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time with the wall clock (default) or with this process's CPU time")
    ap.add_argument("--sizes", type=int, nargs="*", default=None,
                    help="one table over the FILEs and synthetic modules of these sizes (default 2000 20000)")
    ap.add_argument("--large", action="store_true", help="with --sizes: add the 200k-op synthetic module")
    args = ap.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.pipeline in PIPELINE_ALIASES:
        args.pipeline = PIPELINE_ALIASES[args.pipeline]()
    if args.sizes is not None or args.large:
        args.sizes = args.sizes or []
        return run_table(args)
    file = args.file[0] if args.file else DEFAULT_FILE
    text = Path(file).read_text()
    row = measure(file, text, args.pipeline, args.repeats, not args.no_verify)
    mine, theirs = row.mine, row.theirs
    a, b = statistics.median(mine), statistics.median(theirs)
    checked = "without verification" if args.no_verify else "verified after each pass"
    clock = ", CPU time" if args.clock == "cpu" else ""
    print(f"{args.pipeline} on {file} (median of {args.repeats}, pass run only, {checked}{clock})")
    print(f"  shardy_py   {a * 1e3:9.2f} ms   (fastest {min(mine) * 1e3:.2f} ms, first run {mine[0] * 1e3:.2f} ms)")
    print(f"  C++ Shardy  {b * 1e3:9.2f} ms   (fastest {min(theirs) * 1e3:.2f} ms)")
    print(f"  ratio       {a / b:9.2f}x   (fastest to fastest {min(mine) / min(theirs):.2f}x; goal: within 5x)")
    print(f"  same output: {'yes' if row.same else 'NO'}")
    return 0 if row.same else 1


if __name__ == "__main__":
    sys.exit(main())
